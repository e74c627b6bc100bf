#version 450
#extension GL_GOOGLE_include_directive : require
// variant: AFFINE
// CAGradientLayer (reference §2.2): the position t of the fragment's local point along the
// gradient, then its colour ramp (premultiplied RGBA8, sRGB-encoded, interpolated on the CPU) read
// there with the linear sampler, times opacity and coverage. The record carries the geometry:
// paint = (opacity, type 0 axial / 1 radial / 2 conic), imageExtent = (start.xy, end.xy) in local points.
#include "draw_record.glsl"
#include "corners.glsl"
#include "coverage.glsl"

layout(set = 1, binding = 0) uniform sampler2D image;
layout(location = VARYING_PAINT) flat in vec4 vPaint;
layout(location = 0) out vec4 outColor;

const float TWO_PI = 6.28318530717958647692;

void main() {
    vec4 g = records[vRecord].imageExtent;
    vec2 s = g.xy, e = g.zw, p = vLocal;
    float t;
    int type = int(vPaint.y + 0.5);
    if (type == 0) {
        // Axial: projection onto start→end in point space.
        vec2 d = e - s;
        float dd = dot(d, d);
        t = dd > 0.0 ? dot(p - s, d) / dd : 0.0;
    } else if (type == 1) {
        // Radial: an ellipse centred at start with radii |end − start| per axis; a zero radius
        // takes the other one (a circle), both zero puts every point past the end.
        vec2 r = abs(e - s);
        if (r.x <= 0.0) r.x = r.y;
        if (r.y <= 0.0) r.y = r.x;
        t = r.x > 0.0 ? length((p - s) / r) : 1.0;
    } else {
        // Conic: the angle from start→end about start, growing from +x toward +y, over a full turn.
        vec2 d = e - s, q = p - s;
        float a = atan(q.y, q.x) - atan(d.y, d.x);
        t = fract(a / TWO_PI);
    }
    t = clamp(t, 0.0, 1.0);
    // Texel i holds the ramp at i / (n − 1): its centre is (i + 0.5) / n.
    float n = float(textureSize(image, 0).x);
    vec4 color = textureLod(image, vec2((t * (n - 1.0) + 0.5) / n, 0.5), 0.0);
    float alpha = vPaint.x;
    if (HAS_SHAPE || HAS_INNER || CLIP_COUNT > 0) alpha *= itemCoverage();
    outColor = color * alpha;
}
