// A flattened region (Plan's region flattening): one draw over a disjoint device-pixel rectangle
// whose stack of layers (solid colours, images read texel for pixel) is blended here, in
// registers, from the region's base colour up, and written with blending off.
//
// Pixels must equal those of drawing each layer with fixed-function blending into the RGBA8
// target, so each step does what that blend does in 8 bits: the layer's colour is converted to
// UNORM8 (round to nearest), then dst = src + dst · (255 − src.a) / 255 with the product divided
// as lavapipe's blend unit divides it, (t + (t >> 8) + 128) >> 8 (exact rounding of t / 255 for
// every t a blend can produce), saturated. Blending the floats unrounded would round once
// instead of once per layer: closer to the exact value, but not the same bytes.
//
// The stack's depth and which layers are images are specialisation constants, so every layer's
// code is straight-line with constant binding indices: dynamically indexed sampler arrays are not
// supported by this Mesa, and a loop over the layers would be one.
layout(constant_id = 5) const int DEPTH = 1;        // layers in the stack, 1…16
layout(constant_id = 6) const int IMAGE_MASK = 0;   // bit i: layer i is an image

// The region's record, at a dynamic offset (the draw's record): uniform, so each value is read
// once per draw rather than per fragment. Layout: DrawRecord's transform, quad and uv (read by
// quad.vert), then the base colour and per layer a paint (solid: the premultiplied colour; image:
// the opacity in x) and the texel origin and image size − 1 (image layers).
layout(std140, set = 1, binding = 0) uniform Region {
    mat4 transform;
    vec4 quad;
    vec4 uv;
    vec4 base;
    vec4 unused;
    vec4 layers[32];
} region;

layout(location = 0) out vec4 outColor;

uvec4 unorm8(vec4 c) { return uvec4(roundEven(clamp(c, 0.0, 1.0) * 255.0)); }

uvec4 over(uvec4 dst, uvec4 src) {
    uvec4 t = dst * (255u - src.a);
    return min(src + ((t + (t >> 8u) + 128u) >> 8u), uvec4(255u));
}
