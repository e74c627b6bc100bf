// A CPU peer for caprof's 16-layer composite benchmarks (benchmark-only): the same layers
// composited with pixman (premultiplied OVER, constant opacity mask, optional affine transform
// with bilinear filtering) into a caller-provided buffer.
#ifndef PIXMAN_PEER_H
#define PIXMAN_PEER_H
#include <stdint.h>

typedef struct pixman_peer pixman_peer;

/// `layers`: `count` premultiplied RGBA8 images, each `w`×`h`, kept alive by the caller for the
/// peer's lifetime (pixman reads them in place). `transforms`: NULL (identity, nearest = exact
/// copy) or `count` × 6 doubles per layer, the affine map from a destination point to a source
/// texel point (x' = a·x + c·y + e, y' = b·x + d·y + f), sampled bilinearly. `threads` ≥ 1 splits
/// the target into horizontal bands composited in parallel. Returns NULL on failure.
pixman_peer *pixman_peer_create(int32_t w, int32_t h, int32_t count, const uint8_t *const *layers,
                                const double *transforms, float opacity, int32_t threads);
void pixman_peer_destroy(pixman_peer *peer);
/// One frame: fill `out` (w×h×4 bytes) with opaque white, then composite every layer OVER it.
void pixman_peer_frame(pixman_peer *peer, uint8_t *out);
const char *pixman_peer_version(void);

#endif
