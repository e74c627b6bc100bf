#include "cairo_shim.h"
#include "lazy_libs.h"
#include <string.h>
#include <stdio.h>

static void add_path(cairo_t *cr, const caprof_path *p) {
    size_t k = 0;
    for (size_t i = 0; i < p->op_count; i++) {
        switch (p->ops[i]) {
        case CAPROF_PATH_MOVE:
            if (k + 1 > p->point_count) return;
            caprof_cairo.cairo_move_to(cr, p->points[2 * k], p->points[2 * k + 1]); k += 1; break;
        case CAPROF_PATH_LINE:
            if (k + 1 > p->point_count) return;
            caprof_cairo.cairo_line_to(cr, p->points[2 * k], p->points[2 * k + 1]); k += 1; break;
        case CAPROF_PATH_CUBIC:
            if (k + 3 > p->point_count) return;
            caprof_cairo.cairo_curve_to(cr, p->points[2 * k], p->points[2 * k + 1], p->points[2 * k + 2], p->points[2 * k + 3],
                           p->points[2 * k + 4], p->points[2 * k + 5]);
            k += 3; break;
        case CAPROF_PATH_CLOSE:
            caprof_cairo.cairo_close_path(cr); break;
        default: return;
        }
    }
}

static int fail(cairo_status_t s, char *err, size_t err_len) {
    if (err && err_len) snprintf(err, err_len, "%s", caprof_cairo.cairo_status_to_string(s));
    return (int)s;
}

int caprof_shape_rasterize(uint8_t *rgba, int width, int height, double sx, double sy, double tx, double ty,
                           const caprof_path *fill_path, const caprof_path *stroke_path,
                           const caprof_shape_style *style, char *err, size_t err_len) {
    if (err && err_len) err[0] = 0;
    const char *unavailable = caprof_cairo_unavailable();
    if (unavailable) { if (err && err_len) snprintf(err, err_len, "%s", unavailable); return -1; }
    int stride = width * 4;
    memset(rgba, 0, (size_t)stride * (size_t)height);
    // cairo's ARGB32 is premultiplied, native-endian 32-bit words; converted to RGBA below.
    cairo_surface_t *surface = caprof_cairo.cairo_image_surface_create_for_data(rgba, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_status_t s = caprof_cairo.cairo_surface_status(surface);
    if (s != CAIRO_STATUS_SUCCESS) { caprof_cairo.cairo_surface_destroy(surface); return fail(s, err, err_len); }
    cairo_t *cr = caprof_cairo.cairo_create(surface);
    caprof_cairo.cairo_set_antialias(cr, CAIRO_ANTIALIAS_GOOD);
    cairo_matrix_t m;
    caprof_cairo.cairo_matrix_init(&m, sx, 0, 0, sy, tx, ty);
    caprof_cairo.cairo_set_matrix(cr, &m);

    if (fill_path && style->fill[3] > 0) {
        caprof_cairo.cairo_new_path(cr);
        add_path(cr, fill_path);
        caprof_cairo.cairo_set_fill_rule(cr, style->even_odd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        caprof_cairo.cairo_set_source_rgba(cr, style->fill[0], style->fill[1], style->fill[2], style->fill[3]);
        caprof_cairo.cairo_fill(cr);
    }
    if (stroke_path && style->stroke[3] > 0 && style->line_width > 0) {
        caprof_cairo.cairo_new_path(cr);
        add_path(cr, stroke_path);
        caprof_cairo.cairo_set_line_width(cr, style->line_width);
        caprof_cairo.cairo_set_line_cap(cr, style->cap == 1 ? CAIRO_LINE_CAP_ROUND : style->cap == 2 ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT);
        caprof_cairo.cairo_set_line_join(cr, style->join == 1 ? CAIRO_LINE_JOIN_ROUND : style->join == 2 ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER);
        caprof_cairo.cairo_set_miter_limit(cr, style->miter_limit);
        if (style->dashes && style->dash_count > 0)
            caprof_cairo.cairo_set_dash(cr, style->dashes, (int)style->dash_count, style->dash_offset);
        caprof_cairo.cairo_set_source_rgba(cr, style->stroke[0], style->stroke[1], style->stroke[2], style->stroke[3]);
        caprof_cairo.cairo_stroke(cr);
    }
    s = caprof_cairo.cairo_status(cr);
    caprof_cairo.cairo_destroy(cr);
    caprof_cairo.cairo_surface_flush(surface);
    caprof_cairo.cairo_surface_destroy(surface);
    if (s != CAIRO_STATUS_SUCCESS) return fail(s, err, err_len);
    // Native-endian ARGB words -> RGBA bytes, both premultiplied.
    uint32_t *px = (uint32_t *)rgba;
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = px[i];
        uint8_t *o = (uint8_t *)&px[i];
        o[0] = (uint8_t)(v >> 16); o[1] = (uint8_t)(v >> 8); o[2] = (uint8_t)v; o[3] = (uint8_t)(v >> 24);
    }
    return 0;
}
