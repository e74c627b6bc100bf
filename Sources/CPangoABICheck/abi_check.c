// Pango's real headers first, then the shim's declarations: every declared function type must be
// compatible with the real prototype, and every constant and struct equal, or this file does not
// compile (so neither do the tests).
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <stddef.h>
#define CAPROF_PANGO_REAL_HEADERS 1
#include "../CCairoShim/lazy_libs.h"
#include "pango_abi_check.h"

_Static_assert(CAPROF_PANGO_SCALE == PANGO_SCALE, "PANGO_SCALE");
_Static_assert(CAPROF_PANGO_STYLE_NORMAL == PANGO_STYLE_NORMAL, "PANGO_STYLE_NORMAL");
_Static_assert(CAPROF_PANGO_STYLE_ITALIC == PANGO_STYLE_ITALIC, "PANGO_STYLE_ITALIC");
_Static_assert(CAPROF_PANGO_WRAP_WORD_CHAR == PANGO_WRAP_WORD_CHAR, "PANGO_WRAP_WORD_CHAR");
_Static_assert(CAPROF_PANGO_ELLIPSIZE_START == PANGO_ELLIPSIZE_START, "PANGO_ELLIPSIZE_START");
_Static_assert(CAPROF_PANGO_ELLIPSIZE_MIDDLE == PANGO_ELLIPSIZE_MIDDLE, "PANGO_ELLIPSIZE_MIDDLE");
_Static_assert(CAPROF_PANGO_ELLIPSIZE_END == PANGO_ELLIPSIZE_END, "PANGO_ELLIPSIZE_END");
_Static_assert(CAPROF_PANGO_ALIGN_LEFT == PANGO_ALIGN_LEFT, "PANGO_ALIGN_LEFT");
_Static_assert(CAPROF_PANGO_ALIGN_CENTER == PANGO_ALIGN_CENTER, "PANGO_ALIGN_CENTER");
_Static_assert(CAPROF_PANGO_ALIGN_RIGHT == PANGO_ALIGN_RIGHT, "PANGO_ALIGN_RIGHT");
_Static_assert(__builtin_types_compatible_p(caprof_gboolean, gboolean), "gboolean");
// The shim's PangoRectangle (the same fields, in a struct of its own here) against Pango's.
struct declared_rectangle { CAPROF_PANGO_RECTANGLE_FIELDS };
_Static_assert(sizeof(struct declared_rectangle) == sizeof(PangoRectangle), "PangoRectangle size");
_Static_assert(offsetof(struct declared_rectangle, x) == offsetof(PangoRectangle, x), "PangoRectangle.x");
_Static_assert(offsetof(struct declared_rectangle, y) == offsetof(PangoRectangle, y), "PangoRectangle.y");
_Static_assert(offsetof(struct declared_rectangle, width) == offsetof(PangoRectangle, width), "PangoRectangle.width");
_Static_assert(offsetof(struct declared_rectangle, height) == offsetof(PangoRectangle, height), "PangoRectangle.height");

// Each declared function type against the real one (enums against unsigned int, their type).
#define CHECK_DECLARED(name, ret, params) \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&name), ret (*) params), #name " is declared differently");
CAPROF_PANGO_FUNCTIONS(CHECK_DECLARED)

#define COMPARE_CAIRO(name) + (caprof_cairo.name != &name)
#define COMPARE_TEXT(name) + (caprof_text.name != &name)
#define COMPARE_DECLARED(name, ret, params) + ((void *)caprof_text.name != (void *)&name)
#define COUNT(name) + 1
#define COUNT_DECLARED(name, ret, params) + 1

int caprof_pango_abi_mismatches(void) {
    if (caprof_text_unavailable()) return -1;
    return 0 CAPROF_CAIRO_FUNCTIONS(COMPARE_CAIRO) CAPROF_FONTCONFIG_FUNCTIONS(COMPARE_TEXT)
             CAPROF_PANGO_FUNCTIONS(COMPARE_DECLARED);
}

int caprof_pango_abi_slot_count(void) {
    return 0 CAPROF_CAIRO_FUNCTIONS(COUNT) CAPROF_FONTCONFIG_FUNCTIONS(COUNT) CAPROF_PANGO_FUNCTIONS(COUNT_DECLARED);
}
