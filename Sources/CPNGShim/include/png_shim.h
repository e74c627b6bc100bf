#pragma once
// A narrow C boundary around libpng. libpng reports errors with longjmp, which must never cross
// Swift frames: these functions own the setjmp and return 0 on success or an error code, with a
// message copied into `err` (NUL-terminated, at most err_len bytes).
#include <stddef.h>
#include <stdint.h>

enum {
    CAPROF_PNG_OK = 0,
    CAPROF_PNG_NOT_PNG = 1,      // signature mismatch
    CAPROF_PNG_CORRUPT = 2,      // libpng reported an error while decoding
    CAPROF_PNG_TOO_LARGE = 3,    // width/height above the caller's limit
    CAPROF_PNG_NO_MEMORY = 4,
    CAPROF_PNG_IO = 5,           // could not open/write the file
};

// Reads the size of a PNG held in memory without decoding pixels.
int caprof_png_info(const uint8_t *data, size_t len, uint32_t *width, uint32_t *height,
                    char *err, size_t err_len);

// Decodes a PNG held in memory to 8-bit RGBA (non-premultiplied), rows top-down, into `out`
// (caller-allocated, width*height*4 bytes; query the size with caprof_png_info first).
// Palette, grey, 16-bit, tRNS and interlaced images are converted. Images wider or taller than
// max_side are refused before any pixel is decoded.
int caprof_png_decode(const uint8_t *data, size_t len, uint32_t max_side, uint8_t *out, size_t out_len,
                      char *err, size_t err_len);

// Encodes 8-bit RGBA rows top-down to a PNG file (straight alpha); premultiplied != 0: the rows
// are premultiplied and converted one at a time (rounded to nearest, as Raster's unpremultiply).
// zlib_level 0-9; filters: 0 = none (fast), 1 = libpng's adaptive choice (smaller).
int caprof_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                     int premultiplied, int zlib_level, int filters, char *err, size_t err_len);

// PNG encoding in bands (Raster's PNGBandEncoder, the `fast` preset): rows [y0, y1) of an RGBA
// image as scanlines of filter type 0 (premultiplied != 0: converted to straight alpha as
// caprof_png_write does), deflated at zlib_level from a fresh state and ended by a full flush, so
// the segment ends byte-aligned and refers to nothing before it: the segments of consecutive bands
// concatenate into one deflate stream, and a band whose rows did not change keeps its segment.
// `out` must hold caprof_png_band_bound(width, y1 - y0) bytes; *adler is the Adler-32 of the
// band's scanline bytes (caprof_png_adler32_combine joins them).
size_t caprof_png_band_bound(uint32_t width, uint32_t rows);
// A deflate state and a row buffer kept across the bands of an image and across images (reset,
// not rebuilt, per band: zlib's tables are large); NULL when out of memory.
typedef struct caprof_png_deflater caprof_png_deflater;
caprof_png_deflater *caprof_png_deflater_new(int zlib_level, uint32_t width);
void caprof_png_deflater_free(caprof_png_deflater *d);
int caprof_png_deflate_band(caprof_png_deflater *d, const uint8_t *rgba, uint32_t width, uint32_t y0, uint32_t y1,
                            int premultiplied, uint8_t *out, size_t out_cap, size_t *out_len, uint32_t *adler,
                            char *err, size_t err_len);
uint32_t caprof_png_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t len_b);
uint32_t caprof_png_crc32(uint32_t crc, const uint8_t *bytes, size_t len);
