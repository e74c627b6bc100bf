#version 450
// A filter chain's colour matrix (consecutive colour filters folded into one): on
// non-premultiplied colour, rows R G B A of [r g b a bias]; the result is clamped to 0…1 and
// premultiplied again. The target is the source's size: texel for texel.
layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Matrix {
    mat4 m;      // column j holds the weights of input component j (m * c)
    vec4 bias;
};
layout(location = 0) out vec4 outColor;

void main() {
    vec4 p = texelFetch(source, ivec2(gl_FragCoord.xy), 0);
    vec3 rgb = p.a > 0.0 ? p.rgb / p.a : vec3(0.0);
    vec4 c = clamp(m * vec4(rgb, p.a) + bias, 0.0, 1.0);
    outColor = vec4(c.rgb * c.a, c.a);
}
