#pragma once
// A narrow C boundary around Pango/HarfBuzz on cairo for CATextLayer: one call lays out a string
// in a box and (optionally) draws it into a caller-owned RGBA8 buffer, returning line count and
// ink bounds. Fonts come only from the directories given to caprof_text_fonts (a private
// fontconfig configuration, no system fonts and no user configuration), so the same text gives the
// same pixels on every machine with the same font files.
#include <stddef.h>
#include <stdint.h>

// Sets the font directories (once, before the first layout; later calls are ignored). Returns the
// number of font files found, or -1 when Pango, cairo or fontconfig cannot be loaded (they are
// opened on first use): then caprof_text_unavailable() says why.
int caprof_text_fonts(const char *const *dirs, int dir_count);
// NULL once the text libraries are loaded, else why they cannot be (the same text every call).
const char *caprof_text_unavailable(void);

typedef struct {
    const char *text;       // UTF-8
    const char *family;     // an installed family name
    int weight;             // 100…900 (400 regular, 700 bold)
    int italic;
    double size_px;         // font size in pixels (points × contentsScale)
    double color[4];        // straight sRGB-encoded RGBA; alpha 0 draws nothing
    int alignment;          // 0 natural (left), 1 left, 2 right, 3 center, 4 justified
    int wrapped;            // break lines at width_px
    int truncation;         // 0 none, 1 start, 2 middle, 3 end (ellipsis "…")
    double width_px, height_px;   // the box (the layer's bounds in pixels)
} caprof_text_style;

typedef struct {
    int line_count;
    // Ink (what is painted) and logical (advance × line height) bounds in pixels, box-relative.
    double ink_x, ink_y, ink_w, ink_h;
    double logical_x, logical_y, logical_w, logical_h;
} caprof_text_metrics;

// Lays out (and, when rgba is not NULL, draws into width×height premultiplied RGBA8, zeroed by this
// call) the text. Returns 0, or non-zero with a message in err.
int caprof_text_layout(const caprof_text_style *style, caprof_text_metrics *metrics,
                       uint8_t *rgba, int width, int height, char *err, size_t err_len);
