#version 450
// One layer: its texel under the pixel (identity transform: texture size = target size) times the
// layer's opacity; the premultiplied source-over blend is fixed-function.
layout(set = 0, binding = 0) uniform sampler2D image;
layout(push_constant) uniform Layer { float opacity; };
layout(location = 0) out vec4 outColor;
void main() {
    outColor = texelFetch(image, ivec2(gl_FragCoord.xy), 0) * opacity;
}
