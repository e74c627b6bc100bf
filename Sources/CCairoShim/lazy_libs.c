#include "lazy_libs.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct caprof_cairo_api caprof_cairo;
struct caprof_text_api caprof_text;

typedef struct { const char *name; void **slot; } symbol;

#ifdef __APPLE__
#define SO(base, version) "lib" base "." version ".dylib"
#else
#define SO(base, version) "lib" base ".so." version
#endif

// Opens each library (kept for the life of the process: RTLD_NODELETE is implied by never
// closing) and fills each slot from the first library that defines the symbol. Libraries are
// opened RTLD_LOCAL: their symbols stay out of the global namespace, as if linked privately.
static const char *load(const char *const *libs, const char *const *packages, int lib_count,
                        const symbol *symbols, int symbol_count, char *why, size_t why_len) {
    void *handles[8] = {0};
    for (int i = 0; i < lib_count && i < 8; i++) {
        handles[i] = dlopen(libs[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *e = dlerror();
            snprintf(why, why_len, "cannot load %s (Debian package %s; tools/setup installs it): %s",
                     libs[i], packages[i], e ? e : "unknown error");
            return why;
        }
    }
    for (int s = 0; s < symbol_count; s++) {
        void *p = NULL;
        for (int i = 0; i < lib_count && !p; i++) p = dlsym(handles[i], symbols[s].name);
        if (!p) {
            snprintf(why, why_len, "%s is missing from the installed libraries (%s …): too old a version?",
                     symbols[s].name, libs[0]);
            return why;
        }
        *symbols[s].slot = p;
    }
    return NULL;
}

#define SLOT_CAIRO(name) { #name, (void **)&caprof_cairo.name },
#define SLOT_TEXT(name) { #name, (void **)&caprof_text.name },
#define SLOT_TEXT_DECLARED(name, ret, params) { #name, (void **)&caprof_text.name },

static pthread_once_t cairo_once = PTHREAD_ONCE_INIT, text_once = PTHREAD_ONCE_INIT;
static const char *cairo_error, *text_error;
static char cairo_why[512], text_why[512];

static void load_cairo(void) {
    static const char *const libs[] = { SO("cairo", "2") };
    static const char *const packages[] = { "libcairo2" };
    static const symbol symbols[] = { CAPROF_CAIRO_FUNCTIONS(SLOT_CAIRO) };
    cairo_error = load(libs, packages, 1, symbols, (int)(sizeof symbols / sizeof symbols[0]), cairo_why, sizeof cairo_why);
}

static void load_text(void) {
    if ((text_error = caprof_cairo_unavailable())) return;
    static const char *const libs[] = {
        SO("pangocairo-1.0", "0"), SO("pangoft2-1.0", "0"), SO("pango-1.0", "0"),
        SO("fontconfig", "1"), SO("gobject-2.0", "0"),
    };
    static const char *const packages[] = {
        "libpangocairo-1.0-0", "libpangoft2-1.0-0", "libpango-1.0-0", "libfontconfig1", "libglib2.0-0",
    };
    static const symbol symbols[] = {
        CAPROF_FONTCONFIG_FUNCTIONS(SLOT_TEXT)
        CAPROF_PANGO_FUNCTIONS(SLOT_TEXT_DECLARED)
    };
    text_error = load(libs, packages, 5, symbols, (int)(sizeof symbols / sizeof symbols[0]), text_why, sizeof text_why);
}

const char *caprof_cairo_unavailable(void) {
    pthread_once(&cairo_once, load_cairo);
    return cairo_error;
}

const char *caprof_text_unavailable(void) {
    pthread_once(&text_once, load_text);
    return text_error;
}
