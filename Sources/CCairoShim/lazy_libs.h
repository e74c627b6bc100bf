#pragma once
// cairo, Pango and fontconfig, loaded when first needed (dlopen) instead of at start-up.
//
// Why: linked directly, they and what they pull in (glib, gobject, gio, harfbuzz, freetype,
// pixman, X11 …, about 25 libraries) are mapped, relocated and initialised by every caprof run,
// also by the many that draw no shape and no text: 3–4 MiB of resident pages and part of the
// start-up time. Loaded here, a scene pays for them only when a shape or text is rasterised.
//
// cairo's and fontconfig's own headers give the types and prototypes (both live directly under
// the default include path). Pango's headers need glib's include directories, which only
// pkg-config knows, and a pkg-config module would link the libraries again; so the handful of
// Pango entry points used are declared below from Pango's published API (1.44 and later), their
// enum values included. `Tests/RasterTests/PangoABITests` compiles these declarations against the
// real headers (`CPangoABICheck`) and fails if one differs.
#include <cairo/cairo.h>
#include <fontconfig/fontconfig.h>

// --- Pango, as declared in <pango/pango.h> and <pango/pangocairo.h> ----------------------------
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoFcFontMap PangoFcFontMap;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoFontMetrics PangoFontMetrics;
typedef struct _PangoLanguage PangoLanguage;
typedef struct _PangoRectangle PangoRectangle;
#define CAPROF_PANGO_RECTANGLE_FIELDS int x, y, width, height;
#ifndef CAPROF_PANGO_REAL_HEADERS   // defined where Pango's own headers come first (the ABI check)
struct _PangoRectangle { CAPROF_PANGO_RECTANGLE_FIELDS };
#endif
typedef int caprof_gboolean;                                          // gboolean (gint)
enum { CAPROF_PANGO_SCALE = 1024 };
// PangoStyle, PangoWrapMode, PangoEllipsizeMode, PangoAlignment: the values used.
enum { CAPROF_PANGO_STYLE_NORMAL = 0, CAPROF_PANGO_STYLE_ITALIC = 2 };
enum { CAPROF_PANGO_WRAP_WORD_CHAR = 2 };
enum { CAPROF_PANGO_ELLIPSIZE_START = 1, CAPROF_PANGO_ELLIPSIZE_MIDDLE = 2, CAPROF_PANGO_ELLIPSIZE_END = 3 };
enum { CAPROF_PANGO_ALIGN_LEFT = 0, CAPROF_PANGO_ALIGN_CENTER = 1, CAPROF_PANGO_ALIGN_RIGHT = 2 };

// Function types: X(name, return type, parameter list). Pango's enum parameters are C enums of
// non-negative values, whose type is unsigned int.
#define CAPROF_PANGO_FUNCTIONS(X) \
    X(pango_cairo_font_map_new_for_font_type, PangoFontMap *, (cairo_font_type_t)) \
    X(pango_fc_font_map_set_config, void, (PangoFcFontMap *, FcConfig *)) \
    X(pango_font_map_create_context, PangoContext *, (PangoFontMap *)) \
    X(pango_cairo_context_set_font_options, void, (PangoContext *, const cairo_font_options_t *)) \
    X(pango_context_set_round_glyph_positions, void, (PangoContext *, caprof_gboolean)) \
    X(pango_cairo_update_context, void, (cairo_t *, PangoContext *)) \
    X(pango_context_get_metrics, PangoFontMetrics *, (PangoContext *, const PangoFontDescription *, PangoLanguage *)) \
    X(pango_font_metrics_get_ascent, int, (PangoFontMetrics *)) \
    X(pango_font_metrics_unref, void, (PangoFontMetrics *)) \
    X(pango_font_description_new, PangoFontDescription *, (void)) \
    X(pango_font_description_free, void, (PangoFontDescription *)) \
    X(pango_font_description_set_family, void, (PangoFontDescription *, const char *)) \
    X(pango_font_description_set_weight, void, (PangoFontDescription *, unsigned int)) \
    X(pango_font_description_set_style, void, (PangoFontDescription *, unsigned int)) \
    X(pango_font_description_set_absolute_size, void, (PangoFontDescription *, double)) \
    X(pango_layout_new, PangoLayout *, (PangoContext *)) \
    X(pango_layout_set_font_description, void, (PangoLayout *, const PangoFontDescription *)) \
    X(pango_layout_set_text, void, (PangoLayout *, const char *, int)) \
    X(pango_layout_set_width, void, (PangoLayout *, int)) \
    X(pango_layout_set_height, void, (PangoLayout *, int)) \
    X(pango_layout_set_wrap, void, (PangoLayout *, unsigned int)) \
    X(pango_layout_set_ellipsize, void, (PangoLayout *, unsigned int)) \
    X(pango_layout_set_alignment, void, (PangoLayout *, unsigned int)) \
    X(pango_layout_set_justify, void, (PangoLayout *, caprof_gboolean)) \
    X(pango_layout_set_auto_dir, void, (PangoLayout *, caprof_gboolean)) \
    X(pango_layout_get_extents, void, (PangoLayout *, PangoRectangle *, PangoRectangle *)) \
    X(pango_layout_get_baseline, int, (PangoLayout *)) \
    X(pango_layout_get_line_count, int, (PangoLayout *)) \
    X(pango_cairo_show_layout, void, (cairo_t *, PangoLayout *)) \
    X(g_object_unref, void, (void *))

// --- cairo and fontconfig: their headers' own prototypes ---------------------------------------
#define CAPROF_CAIRO_FUNCTIONS(X) \
    X(cairo_image_surface_create_for_data) X(cairo_surface_status) X(cairo_surface_flush) \
    X(cairo_surface_destroy) X(cairo_create) X(cairo_destroy) X(cairo_status) \
    X(cairo_status_to_string) X(cairo_set_antialias) X(cairo_matrix_init) X(cairo_set_matrix) \
    X(cairo_new_path) X(cairo_move_to) X(cairo_line_to) X(cairo_curve_to) X(cairo_close_path) \
    X(cairo_set_fill_rule) X(cairo_set_source_rgba) X(cairo_fill) X(cairo_set_line_width) \
    X(cairo_set_line_cap) X(cairo_set_line_join) X(cairo_set_miter_limit) X(cairo_set_dash) \
    X(cairo_stroke) X(cairo_font_options_create) X(cairo_font_options_destroy) \
    X(cairo_font_options_set_antialias) X(cairo_font_options_set_hint_style) \
    X(cairo_font_options_set_hint_metrics)

#define CAPROF_FONTCONFIG_FUNCTIONS(X) \
    X(FcConfigCreate) X(FcConfigDestroy) X(FcConfigParseAndLoadFromMemory) \
    X(FcConfigAppFontAddDir) X(FcConfigGetFonts)

#define CAPROF_TYPED_POINTER(name) __typeof__(name) *name;
#define CAPROF_DECLARED_POINTER(name, ret, params) ret (*name) params;
struct caprof_cairo_api { CAPROF_CAIRO_FUNCTIONS(CAPROF_TYPED_POINTER) };
struct caprof_text_api {
    CAPROF_FONTCONFIG_FUNCTIONS(CAPROF_TYPED_POINTER)
    CAPROF_PANGO_FUNCTIONS(CAPROF_DECLARED_POINTER)
};
// Filled by the loaders below; read only after one of them returned NULL.
extern struct caprof_cairo_api caprof_cairo;
extern struct caprof_text_api caprof_text;

// Load cairo (shapes), or cairo, fontconfig and Pango (text), once per process. NULL when
// loaded; otherwise why not (a library or symbol missing, with the package that provides it),
// the same message on every call.
const char *caprof_cairo_unavailable(void);
const char *caprof_text_unavailable(void);
