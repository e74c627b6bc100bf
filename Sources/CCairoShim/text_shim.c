#include "text_shim.h"
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static PangoFontMap *font_map = NULL;
static int font_count = 0;

int caprof_text_fonts(const char *const *dirs, int dir_count) {
    pthread_mutex_lock(&lock);
    if (!font_map) {
        FcConfig *config = FcConfigCreate();
        // Only a cache location: the user's cache, else /tmp (fontconfig warns on stderr when no
        // cache directory is writable). No font rules, no system or user configuration files.
        static const char *xml =
            "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig>"
            "<cachedir prefix=\"xdg\">fontconfig</cachedir><cachedir>/tmp/caprof-fontconfig</cachedir></fontconfig>";
        FcConfigParseAndLoadFromMemory(config, (const FcChar8 *)xml, FcFalse);
        for (int i = 0; i < dir_count; i++) FcConfigAppFontAddDir(config, (const FcChar8 *)dirs[i]);
        FcFontSet *set = FcConfigGetFonts(config, FcSetApplication);
        font_count = set ? set->nfont : 0;
        font_map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
        pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(font_map), config);
        FcConfigDestroy(config);   // the font map holds its own reference
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
    if (!font_map) { if (err) snprintf(err, err_len, "no fonts: caprof_text_fonts was not called"); return 1; }
    pthread_mutex_lock(&lock);
    int w = rgba ? width : 1, h = rgba ? height : 1;
    int stride = w * 4;
    uint8_t scratch[4];
    uint8_t *data = rgba ? rgba : scratch;
    memset(data, 0, (size_t)stride * (size_t)h);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_ARGB32, w, h, stride);
    cairo_t *cr = cairo_create(surface);

    PangoContext *ctx = pango_font_map_create_context(font_map);
    // Unhinted outlines and unhinted metrics: positions scale exactly with the size (as Core Text
    // lays out), greyscale antialiasing (no subpixel colour fringes in a texture).
    cairo_font_options_t *opts = cairo_font_options_create();
    cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF);
    pango_cairo_context_set_font_options(ctx, opts);
    cairo_font_options_destroy(opts);
    pango_context_set_round_glyph_positions(ctx, FALSE);
    pango_cairo_update_context(cr, ctx);

    PangoLayout *layout = pango_layout_new(ctx);
    PangoFontDescription *desc = pango_font_description_new();
    pango_font_description_set_family(desc, s->family);
    pango_font_description_set_weight(desc, (PangoWeight)s->weight);
    pango_font_description_set_style(desc, s->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_font_description_set_absolute_size(desc, s->size_px * PANGO_SCALE);
    pango_layout_set_font_description(layout, desc);
    PangoFontMetrics *fm = pango_context_get_metrics(ctx, desc, NULL);
    int ascent = pango_font_metrics_get_ascent(fm);
    pango_font_metrics_unref(fm);
    pango_font_description_free(desc);
    pango_layout_set_text(layout, s->text, -1);

    int box_width = (int)(s->width_px * PANGO_SCALE);
    int sized = s->wrapped || s->truncation != 0;
    if (sized) pango_layout_set_width(layout, box_width > 0 ? box_width : 0);
    if (s->wrapped) pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    if (s->truncation != 0) {
        PangoEllipsizeMode mode = s->truncation == 1 ? PANGO_ELLIPSIZE_START
                                : s->truncation == 2 ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END;
        pango_layout_set_ellipsize(layout, mode);
        // Wrapped: as many lines as fit the height, the last one truncated; else one line per paragraph.
        pango_layout_set_height(layout, s->wrapped ? (int)(s->height_px * PANGO_SCALE) : -1);
    }
    PangoAlignment align = s->alignment == 2 ? PANGO_ALIGN_RIGHT : s->alignment == 3 ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT;
    pango_layout_set_alignment(layout, align);
    pango_layout_set_justify(layout, s->alignment == 4);
    pango_layout_set_auto_dir(layout, s->alignment == 0);

    PangoRectangle ink, logical;
    pango_layout_get_extents(layout, &ink, &logical);
    // Without a layout width Pango aligns lines within the widest one; place that block in the box.
    double dx = 0;
    if (!sized) {
        double lw = (double)logical.width / PANGO_SCALE;
        if (s->alignment == 2) dx = s->width_px - lw;
        else if (s->alignment == 3) dx = (s->width_px - lw) / 2;
    }
    // Core Text puts the first baseline one ascent below the top edge; Pango may add leading
    // above it. Shift so the first baseline is at the font's ascent.
    double dy = (double)(ascent - pango_layout_get_baseline(layout)) / PANGO_SCALE;
    if (m) {
        m->line_count = pango_layout_get_line_count(layout);
        m->ink_x = (double)ink.x / PANGO_SCALE + dx; m->ink_y = (double)ink.y / PANGO_SCALE + dy;
        m->ink_w = (double)ink.width / PANGO_SCALE; m->ink_h = (double)ink.height / PANGO_SCALE;
        m->logical_x = (double)logical.x / PANGO_SCALE + dx; m->logical_y = (double)logical.y / PANGO_SCALE + dy;
        m->logical_w = (double)logical.width / PANGO_SCALE; m->logical_h = (double)logical.height / PANGO_SCALE;
    }
    if (rgba && s->color[3] > 0) {
        cairo_set_source_rgba(cr, s->color[0], s->color[1], s->color[2], s->color[3]);
        cairo_move_to(cr, dx, dy);
        pango_cairo_show_layout(cr, layout);
    }
    g_object_unref(layout);
    g_object_unref(ctx);
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    pthread_mutex_unlock(&lock);
    if (st != CAIRO_STATUS_SUCCESS) { if (err) snprintf(err, err_len, "%s", cairo_status_to_string(st)); return (int)st; }
    if (rgba) argb_to_rgba(rgba, width, height);
    return 0;
}
