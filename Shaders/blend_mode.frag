#version 450
// A compositingFilter's blend mode (Plan: OffscreenPass.Operation.blend, BlendFormula): each texel
// is the composite of the flattened layer (source) over what lay beneath it (destination), both
// premultiplied RGBA8 in sRGB-encoded space, the same size as this target (texel = pixel).
//
// W3C Compositing and Blending Level 1, general formula on premultiplied colour:
//   co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs),  αo = αs + αb·(1 − αs)
// with Cs, Cb the un-premultiplied colours. plus darker (mode 14) is Core Graphics' formula on
// premultiplied components with 1 read as αo: co = max(0, cs + cb − αs·αb).
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 1, binding = 0) uniform sampler2D destination;
layout(push_constant) uniform Blend {
    int mode;   // BlendFormula's raw value
};
layout(location = 0) out vec4 outColor;

// Separable modes (W3C §10.1), per channel.
float hardLight(float b, float s) {
    return s <= 0.5 ? b * 2.0 * s : b + (2.0 * s - 1.0) - b * (2.0 * s - 1.0);
}
float colorDodge(float b, float s) {
    if (b == 0.0) return 0.0;
    if (s >= 1.0) return 1.0;
    return min(1.0, b / (1.0 - s));
}
float colorBurn(float b, float s) {
    if (b >= 1.0) return 1.0;
    if (s <= 0.0) return 0.0;
    return 1.0 - min(1.0, (1.0 - b) / s);
}
float softLight(float b, float s) {
    if (s <= 0.5) return b - (1.0 - 2.0 * s) * b * (1.0 - b);
    float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
    return b + (2.0 * s - 1.0) * (d - b);
}

float pinLight(float b, float s) {
    return s <= 0.5 ? min(b, 2.0 * s) : max(b, 2.0 * s - 1.0);
}
float vividLight(float b, float s) {
    return s <= 0.5 ? colorBurn(b, 2.0 * s) : colorDodge(b, 2.0 * s - 1.0);
}
float divide(float b, float s) {
    if (b == 0.0) return 0.0;
    if (s <= 0.0) return 1.0;
    return min(1.0, b / s);
}

// Non-separable modes (W3C §10.2).
float lum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }
vec3 clipColor(vec3 c) {
    float l = lum(c);
    float n = min(c.r, min(c.g, c.b));
    float x = max(c.r, max(c.g, c.b));
    if (n < 0.0) c = l + (c - l) * l / (l - n);
    if (x > 1.0) c = l + (c - l) * (1.0 - l) / (x - l);
    return c;
}
vec3 setLum(vec3 c, float l) { return clipColor(c + (l - lum(c))); }
float sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }
// SetSat: the largest component becomes s, the smallest 0, the middle one keeps its relative place.
vec3 setSat(vec3 c, float s) {
    float n = min(c.r, min(c.g, c.b));
    float x = max(c.r, max(c.g, c.b));
    return x > n ? (c - n) * s / (x - n) : vec3(0.0);
}

vec3 blend(vec3 b, vec3 s) {
    switch (mode) {
    case 0: return b * s;                                                         // multiply
    case 1: return vec3(hardLight(s.r, b.r), hardLight(s.g, b.g), hardLight(s.b, b.b));  // overlay
    case 2: return min(b, s);                                                     // darken
    case 3: return max(b, s);                                                     // lighten
    case 4: return vec3(colorDodge(b.r, s.r), colorDodge(b.g, s.g), colorDodge(b.b, s.b));
    case 5: return vec3(colorBurn(b.r, s.r), colorBurn(b.g, s.g), colorBurn(b.b, s.b));
    case 6: return vec3(softLight(b.r, s.r), softLight(b.g, s.g), softLight(b.b, s.b));
    case 7: return vec3(hardLight(b.r, s.r), hardLight(b.g, s.g), hardLight(b.b, s.b));
    case 8: return abs(b - s);                                                    // difference
    case 9: return b + s - 2.0 * b * s;                                           // exclusion
    case 10: return setLum(setSat(s, sat(b)), lum(b));                            // hue
    case 11: return setLum(setSat(b, sat(s)), lum(b));                            // saturation
    case 12: return setLum(s, lum(b));                                            // color
    case 13: return setLum(b, lum(s));                                            // luminosity
    // Core Image's modes (BlendFormula: the common definitions, per channel).
    case 15: return max(b + s - 1.0, 0.0);                                        // linear burn
    case 16: return min(b + s, 1.0);                                              // linear dodge
    case 17: return clamp(b + 2.0 * s - 1.0, 0.0, 1.0);                           // linear light
    case 18: return vec3(pinLight(b.r, s.r), pinLight(b.g, s.g), pinLight(b.b, s.b));
    case 19: return vec3(vividLight(b.r, s.r), vividLight(b.g, s.g), vividLight(b.b, s.b));
    case 20: return max(b - s, 0.0);                                              // subtract
    default: return vec3(divide(b.r, s.r), divide(b.g, s.g), divide(b.b, s.b));  // divide (21)
    }
}

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 src = texelFetch(source, p, 0);
    vec4 dst = texelFetch(destination, p, 0);
    float as = src.a, ab = dst.a;
    float ao = as + ab * (1.0 - as);
    if (mode == 14) {
        outColor = vec4(max(vec3(0.0), src.rgb + dst.rgb - as * ab), ao);
        return;
    }
    vec3 cs = as > 0.0 ? clamp(src.rgb / as, 0.0, 1.0) : vec3(0.0);
    vec3 cb = ab > 0.0 ? clamp(dst.rgb / ab, 0.0, 1.0) : vec3(0.0);
    vec3 mixed = as * ab > 0.0 ? blend(cb, cs) : vec3(0.0);
    outColor = vec4(src.rgb * (1.0 - ab) + dst.rgb * (1.0 - as) + as * ab * mixed, ao);
}
