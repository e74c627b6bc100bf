// The per-draw record, one per DrawItem, in a storage buffer indexed by gl_InstanceIndex
// (firstInstance of each batched draw points at its run of records). The Swift side writes the
// same std430 layout in Sources/Render/DrawRecord.swift; keep both in step.

// A rounded rectangle: rect = (minX, minY, maxX, maxY); per corner (order minXMinY, maxXMinY,
// maxXMaxY, minXMaxY) the centre inset e, and ρ(θ) = scale · profile(θ) + bias (see corners.glsl).
struct RoundedRect {
    vec4 rect;
    vec4 inset;
    vec4 scale;
    vec4 bias;
};

struct ClipRecord {
    mat4 transform;     // item local point -> clip space (row-vector CA matrix uploaded as-is)
    RoundedRect shape;
};

struct DrawRecord {
    mat4 transform;     // item local point -> device pixels (CA row-vector layout = GLSL M * v)
    vec4 quad;          // minX, minY, maxX, maxY in local points
    vec4 uv;            // texel coordinates at (minX, minY) and (maxX, maxY)
    vec4 paint;         // solid: premultiplied colour; image: opacity in every component
    vec4 imageExtent;   // image width, height in texels
    RoundedRect shape;
    RoundedRect inner;
    ClipRecord clips[4];
    vec4 stack;         // x: stack culling's depth (the item's rank, StencilTarget.depth), else 0
};

layout(std430, set = 0, binding = 0) readonly buffer DrawRecords {
    DrawRecord records[];
};

// Specialisation constants pick the variant, so each pipeline compiles only what its items use
// (llvmpipe pays for every instruction of every fragment; a branchy uber-shader is far slower).
layout(constant_id = 0) const int CLIP_COUNT = 0;       // 0…4 clips
layout(constant_id = 1) const bool HAS_SHAPE = false;   // per-fragment rounded-rect coverage
layout(constant_id = 2) const bool HAS_INNER = false;   // border ring: minus the inner shape
layout(constant_id = 3) const int SAMPLING = 0;         // images: 0 texelFetch, 1 sampler at level 0, 2 trilinear
layout(constant_id = 4) const int CORNER_CODE = 2;          // corner code: 0 none (straight edges), 1 circular, 2 continuous
layout(constant_id = 8) const bool ISOTROPIC = false;   // shape coverage: one pixel size, no derivatives

// Varyings shared by the vertex and fragment stages. Each is read only by the variants that need
// it (llvmpipe interpolates what a fragment shader reads, per pixel): the texelFetch fast path
// reads none that is interpolated, only flat ones and gl_FragCoord.
#define VARYING_LOCAL 0         // vec2, components 0–1: local point (shape and border coverage)
#define VARYING_UV 0            // vec2, components 2–3: texel coordinates (filtered, trilinear)
#define VARYING_PAINT 1         // flat vec4
#define VARYING_TEXEL 2         // flat ivec4: image size − 1 (xy); texelFetch: the device pixel
                                //   of texel (0, 0) (zw), a whole-pixel offset
#define VARYING_RECORD 3        // flat uint: the record index (clip shapes are read from it);
                                //   component 1: ISOTROPIC items' device pixels per local unit
                                //   (a float's bits: a location holds one base type)
#define VARYING_CLIP0 4         // vec3 × 4: homogeneous clip-space (x, y, w) per clip
#define VARYING_SHAPE 8         // flat vec4 × 4: RoundedRect shape
#define VARYING_INNER 12        // flat vec4 × 4: RoundedRect inner
// 16 locations in all: Vulkan's minimum maxVertexOutputComponents (64).

// How the varyings that change over an item are interpolated. Perspective-correct in general; the
// AFFINE variant of each quad fragment shader (built with -DAFFINE, chosen by the plan for items
// whose transform keeps w constant: `DrawItem.interpolatesAffinely`) interpolates them linearly in
// screen space, which is then the same function, and lavapipe skips the per-pixel 1/w and a
// multiply per component (200 rotated rounded rectangles: 0.92–0.95× the time). Components sharing
// a location must share the qualifier, so vLocal and vUV both take it.
#ifdef AFFINE
#define ITEM_VARYING noperspective
#else
#define ITEM_VARYING
#endif

layout(push_constant) uniform Target {
    vec2 targetSize;    // device pixels
};
