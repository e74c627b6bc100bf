#include "text_shim.h"
#include "lazy_libs.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static PangoFontMap *font_map = NULL;
static int font_count = 0;

int caprof_text_fonts(const char *const *dirs, int dir_count) {
    if (caprof_text_unavailable()) return -1;
    pthread_mutex_lock(&lock);
    if (!font_map) {
        FcConfig *config = caprof_text.FcConfigCreate();
        // Only a cache location: the user's cache, else /tmp (fontconfig warns on stderr when no
        // cache directory is writable). No font rules, no system or user configuration files.
        static const char *xml =
            "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig>"
            "<cachedir prefix=\"xdg\">fontconfig</cachedir><cachedir>/tmp/caprof-fontconfig</cachedir></fontconfig>";
        caprof_text.FcConfigParseAndLoadFromMemory(config, (const FcChar8 *)xml, FcFalse);
        for (int i = 0; i < dir_count; i++) caprof_text.FcConfigAppFontAddDir(config, (const FcChar8 *)dirs[i]);
        FcFontSet *set = caprof_text.FcConfigGetFonts(config, FcSetApplication);
        font_count = set ? set->nfont : 0;
        font_map = caprof_text.pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
        caprof_text.pango_fc_font_map_set_config((PangoFcFontMap *)font_map, config);
        caprof_text.FcConfigDestroy(config);   // the font map holds its own reference
    }
    int n = font_count;
    pthread_mutex_unlock(&lock);
    return n;
}

static void argb_to_rgba(uint8_t *rgba, int width, int height) {
    uint32_t *px = (uint32_t *)rgba;
    size_t n = (size_t)width * (size_t)height;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = px[i];
        uint8_t *o = (uint8_t *)&px[i];
        o[0] = (uint8_t)(v >> 16); o[1] = (uint8_t)(v >> 8); o[2] = (uint8_t)v; o[3] = (uint8_t)(v >> 24);
    }
}

int caprof_text_layout(const caprof_text_style *s, caprof_text_metrics *m,
                       uint8_t *rgba, int width, int height, char *err, size_t err_len) {
    if (err && err_len) err[0] = 0;
    const char *unavailable = caprof_text_unavailable();
    if (unavailable) { if (err && err_len) snprintf(err, err_len, "%s", unavailable); return -1; }
    if (!font_map) { if (err) snprintf(err, err_len, "no fonts: caprof_text_fonts was not called"); return 1; }
    pthread_mutex_lock(&lock);
    int w = rgba ? width : 1, h = rgba ? height : 1;
    int stride = w * 4;
    uint8_t scratch[4];
    uint8_t *data = rgba ? rgba : scratch;
    memset(data, 0, (size_t)stride * (size_t)h);
    cairo_surface_t *surface = caprof_cairo.cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, w, h, stride);
    cairo_t *cr = caprof_cairo.cairo_create(surface);

    PangoContext *ctx = caprof_text.pango_font_map_create_context(font_map);
    // Unhinted outlines and unhinted metrics: positions scale exactly with the size (as Core Text
    // lays out), greyscale antialiasing (no subpixel colour fringes in a texture).
    cairo_font_options_t *opts = caprof_cairo.cairo_font_options_create();
    caprof_cairo.cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY);
    caprof_cairo.cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE);
    caprof_cairo.cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF);
    caprof_text.pango_cairo_context_set_font_options(ctx, opts);
    caprof_cairo.cairo_font_options_destroy(opts);
    caprof_text.pango_context_set_round_glyph_positions(ctx, 0);
    caprof_text.pango_cairo_update_context(cr, ctx);

    PangoLayout *layout = caprof_text.pango_layout_new(ctx);
    PangoFontDescription *desc = caprof_text.pango_font_description_new();
    caprof_text.pango_font_description_set_family(desc, s->family);
    caprof_text.pango_font_description_set_weight(desc, (unsigned int)s->weight);
    caprof_text.pango_font_description_set_style(desc, s->italic ? CAPROF_PANGO_STYLE_ITALIC : CAPROF_PANGO_STYLE_NORMAL);
    caprof_text.pango_font_description_set_absolute_size(desc, s->size_px * CAPROF_PANGO_SCALE);
    caprof_text.pango_layout_set_font_description(layout, desc);
    PangoFontMetrics *fm = caprof_text.pango_context_get_metrics(ctx, desc, NULL);
    int ascent = caprof_text.pango_font_metrics_get_ascent(fm);
    caprof_text.pango_font_metrics_unref(fm);
    caprof_text.pango_font_description_free(desc);
    caprof_text.pango_layout_set_text(layout, s->text, -1);

    int box_width = (int)(s->width_px * CAPROF_PANGO_SCALE);
    int sized = s->wrapped || s->truncation != 0;
    if (sized) caprof_text.pango_layout_set_width(layout, box_width > 0 ? box_width : 0);
    if (s->wrapped) caprof_text.pango_layout_set_wrap(layout, CAPROF_PANGO_WRAP_WORD_CHAR);
    if (s->truncation != 0) {
        unsigned int mode = s->truncation == 1 ? CAPROF_PANGO_ELLIPSIZE_START
                                : s->truncation == 2 ? CAPROF_PANGO_ELLIPSIZE_MIDDLE : CAPROF_PANGO_ELLIPSIZE_END;
        caprof_text.pango_layout_set_ellipsize(layout, mode);
        // Wrapped: as many lines as fit the height, the last one truncated; else one line per paragraph.
        caprof_text.pango_layout_set_height(layout, s->wrapped ? (int)(s->height_px * CAPROF_PANGO_SCALE) : -1);
    }
    unsigned int align = s->alignment == 2 ? CAPROF_PANGO_ALIGN_RIGHT : s->alignment == 3 ? CAPROF_PANGO_ALIGN_CENTER : CAPROF_PANGO_ALIGN_LEFT;
    caprof_text.pango_layout_set_alignment(layout, align);
    caprof_text.pango_layout_set_justify(layout, s->alignment == 4);
    caprof_text.pango_layout_set_auto_dir(layout, s->alignment == 0);

    PangoRectangle ink, logical;
    caprof_text.pango_layout_get_extents(layout, &ink, &logical);
    // Without a layout width Pango aligns lines within the widest one; place that block in the box.
    double dx = 0;
    if (!sized) {
        double lw = (double)logical.width / CAPROF_PANGO_SCALE;
        if (s->alignment == 2) dx = s->width_px - lw;
        else if (s->alignment == 3) dx = (s->width_px - lw) / 2;
    }
    // Core Text puts the first baseline one ascent below the top edge; Pango may add leading
    // above it. Shift so the first baseline is at the font's ascent.
    double dy = (double)(ascent - caprof_text.pango_layout_get_baseline(layout)) / CAPROF_PANGO_SCALE;
    if (m) {
        m->line_count = caprof_text.pango_layout_get_line_count(layout);
        m->ink_x = (double)ink.x / CAPROF_PANGO_SCALE + dx; m->ink_y = (double)ink.y / CAPROF_PANGO_SCALE + dy;
        m->ink_w = (double)ink.width / CAPROF_PANGO_SCALE; m->ink_h = (double)ink.height / CAPROF_PANGO_SCALE;
        m->logical_x = (double)logical.x / CAPROF_PANGO_SCALE + dx; m->logical_y = (double)logical.y / CAPROF_PANGO_SCALE + dy;
        m->logical_w = (double)logical.width / CAPROF_PANGO_SCALE; m->logical_h = (double)logical.height / CAPROF_PANGO_SCALE;
    }
    if (rgba && s->color[3] > 0) {
        caprof_cairo.cairo_set_source_rgba(cr, s->color[0], s->color[1], s->color[2], s->color[3]);
        caprof_cairo.cairo_move_to(cr, dx, dy);
        caprof_text.pango_cairo_show_layout(cr, layout);
    }
    caprof_text.g_object_unref(layout);
    caprof_text.g_object_unref(ctx);
    cairo_status_t st = caprof_cairo.cairo_status(cr);
    caprof_cairo.cairo_destroy(cr);
    caprof_cairo.cairo_surface_flush(surface);
    caprof_cairo.cairo_surface_destroy(surface);
    pthread_mutex_unlock(&lock);
    if (st != CAIRO_STATUS_SUCCESS) { if (err) snprintf(err, err_len, "%s", caprof_cairo.cairo_status_to_string(st)); return (int)st; }
    if (rgba) argb_to_rgba(rgba, width, height);
    return 0;
}
