// rlottie peer for tools/measure-lottie: loads one Lottie JSON file and renders frames
// first, first+step, … (< count) at WIDTH×HEIGHT into one ARGB32 buffer, timing only the
// lottie_animation_render calls (CLOCK_MONOTONIC). Frame numbers are relative to the animation's ip
// (rlottie adds the start frame itself). Prints: "<ms per frame> <frames rendered> <load ms>".
//   rlottie_render FILE WIDTH HEIGHT COUNT STEP
#include <rlottie_capi.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s FILE WIDTH HEIGHT COUNT STEP\n", argv[0]);
        return 2;
    }
    size_t w = strtoul(argv[2], NULL, 10), h = strtoul(argv[3], NULL, 10);
    long count = strtol(argv[4], NULL, 10), step = strtol(argv[5], NULL, 10);
    if (step < 1) step = 1;
    double t0 = now_ms();
    Lottie_Animation *anim = lottie_animation_from_file(argv[1]);
    double load = now_ms() - t0;
    if (!anim) {
        fprintf(stderr, "rlottie: cannot load %s\n", argv[1]);
        return 1;
    }
    uint32_t *buffer = calloc(w * h, sizeof(uint32_t));
    double total = 0;
    long frames = 0;
    for (long f = 0; f < count; f += step) {
        double t = now_ms();
        lottie_animation_render(anim, (size_t)f, buffer, w, h, w * sizeof(uint32_t));
        total += now_ms() - t;
        frames++;
    }
    // Touch the result so the render cannot be considered dead.
    volatile uint32_t sink = buffer[(w * h) / 2];
    (void)sink;
    printf("%.4f %ld %.3f\n", total / frames, frames, load);
    free(buffer);
    lottie_animation_destroy(anim);
    return 0;
}
