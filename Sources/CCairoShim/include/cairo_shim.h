#pragma once
// A narrow C boundary around cairo for CAShapeLayer content: one call fills and strokes a path
// into a caller-owned RGBA8 buffer. cairo never longjmps; errors come back as a status code.
#include <stddef.h>
#include <stdint.h>

// Path element opcodes; each consumes points (x, y pairs) from the point array in order.
enum {
    CAPROF_PATH_MOVE = 0,   // 1 point
    CAPROF_PATH_LINE = 1,   // 1 point
    CAPROF_PATH_CUBIC = 2,  // 3 points (quadratics are raised to cubics by the caller)
    CAPROF_PATH_CLOSE = 3,  // 0 points
};

typedef struct {
    const uint8_t *ops;
    size_t op_count;
    const double *points;   // 2 doubles per point
    size_t point_count;
} caprof_path;

typedef struct {
    // Fill: non-premultiplied sRGB-encoded colour; fill_alpha <= 0 means no fill.
    double fill[4];
    int even_odd;           // 1 = even-odd, 0 = non-zero winding
    // Stroke: stroke[3] <= 0 or line_width <= 0 means no stroke.
    double stroke[4];
    double line_width;
    int cap;                // 0 butt, 1 round, 2 square (CAShapeLayerLineCap)
    int join;               // 0 miter, 1 round, 2 bevel (CAShapeLayerLineJoin)
    double miter_limit;
    const double *dashes;   // NULL or dash_count > 0 lengths in path units
    size_t dash_count;
    double dash_offset;
} caprof_shape_style;

// Rasterises `fill_path` (filled) then `stroke_path` (stroked over it), antialiased, into `rgba`
// (width*height*4 bytes, premultiplied RGBA8, rows top-down, zeroed by this call). Path points are
// mapped to pixels by x' = x*sx + tx, y' = y*sy + ty; line widths and dashes are in path units (so
// they scale with the path, as in Core Graphics). Returns 0, a cairo_status_t, or -1 when cairo
// cannot be loaded (it is opened on first use); `err` gets the message (NUL-terminated, at most
// err_len bytes).
int caprof_shape_rasterize(uint8_t *rgba, int width, int height, double sx, double sy, double tx, double ty,
                           const caprof_path *fill_path, const caprof_path *stroke_path,
                           const caprof_shape_style *style, char *err, size_t err_len);
