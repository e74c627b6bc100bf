// See include/pixman_peer.h. Bytes are RGBA in memory; pixman is told PIXMAN_a8r8g8b8 (BGRA in
// memory on little-endian): premultiplied OVER treats the three colour channels alike and alpha is
// byte 3 in both, so the result's bytes are the same and pixman's a8r8g8b8 fast paths apply.
#include "pixman_peer.h"
#include <pixman.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct pixman_peer {
    int32_t w, h, count, threads;
    pixman_image_t **sources;
    pixman_image_t *mask;
};

pixman_peer *pixman_peer_create(int32_t w, int32_t h, int32_t count, const uint8_t *const *layers,
                                const double *transforms, float opacity, int32_t threads) {
    pixman_peer *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->w = w; p->h = h; p->count = count; p->threads = threads < 1 ? 1 : threads;
    p->sources = calloc((size_t)count, sizeof *p->sources);
    if (!p->sources) { free(p); return NULL; }
    for (int32_t i = 0; i < count; i++) {
        p->sources[i] = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, (uint32_t *)layers[i], w * 4);
        if (!p->sources[i]) { pixman_peer_destroy(p); return NULL; }
        if (transforms) {
            const double *t = transforms + 6 * i;
            pixman_transform_t m;
            pixman_transform_init_identity(&m);
            m.matrix[0][0] = pixman_double_to_fixed(t[0]);
            m.matrix[0][1] = pixman_double_to_fixed(t[2]);
            m.matrix[0][2] = pixman_double_to_fixed(t[4]);
            m.matrix[1][0] = pixman_double_to_fixed(t[1]);
            m.matrix[1][1] = pixman_double_to_fixed(t[3]);
            m.matrix[1][2] = pixman_double_to_fixed(t[5]);
            pixman_image_set_transform(p->sources[i], &m);
            pixman_image_set_filter(p->sources[i], PIXMAN_FILTER_BILINEAR, NULL, 0);
            pixman_image_set_repeat(p->sources[i], PIXMAN_REPEAT_NONE);
        }
    }
    // The layers' opacity as a solid mask: dst = src·m + dst·(1 − src.a·m).
    uint16_t a = (uint16_t)(opacity * 65535.0f + 0.5f);
    pixman_color_t c = { a, a, a, a };
    p->mask = pixman_image_create_solid_fill(&c);
    if (!p->mask) { pixman_peer_destroy(p); return NULL; }
    return p;
}

void pixman_peer_destroy(pixman_peer *p) {
    if (!p) return;
    for (int32_t i = 0; p->sources && i < p->count; i++)
        if (p->sources[i]) pixman_image_unref(p->sources[i]);
    if (p->mask) pixman_image_unref(p->mask);
    free(p->sources);
    free(p);
}

typedef struct { pixman_peer *p; uint8_t *out; int32_t y0, y1; } band;

static void *composite_band(void *arg) {
    band *b = arg;
    pixman_peer *p = b->p;
    int32_t rows = b->y1 - b->y0;
    if (rows <= 0) return NULL;
    uint8_t *start = b->out + (size_t)b->y0 * (size_t)p->w * 4;
    memset(start, 0xFF, (size_t)rows * (size_t)p->w * 4);
    pixman_image_t *dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, p->w, rows, (uint32_t *)start, p->w * 4);
    for (int32_t i = 0; i < p->count; i++)
        // Source coordinates are the band's destination coordinates (the transform maps those).
        pixman_image_composite32(PIXMAN_OP_OVER, p->sources[i], p->mask, dst,
                                 0, b->y0, 0, 0, 0, 0, p->w, rows);
    pixman_image_unref(dst);
    return NULL;
}

void pixman_peer_frame(pixman_peer *p, uint8_t *out) {
    int32_t n = p->threads;
    band bands[16];
    pthread_t tids[16];
    if (n > 16) n = 16;
    for (int32_t i = 0; i < n; i++) {
        bands[i] = (band){ p, out, (int32_t)((int64_t)p->h * i / n), (int32_t)((int64_t)p->h * (i + 1) / n) };
    }
    for (int32_t i = 1; i < n; i++) pthread_create(&tids[i], NULL, composite_band, &bands[i]);
    composite_band(&bands[0]);
    for (int32_t i = 1; i < n; i++) pthread_join(tids[i], NULL);
}

const char *pixman_peer_version(void) { return pixman_version_string(); }
