#version 450
#extension GL_GOOGLE_include_directive : require
// variant: AFFINE
// A shadow with a shadowPath: the path's rounded rectangle blurred by a Gaussian (σ in the item's
// local units, the layer's points), in the shadow colour, times the clips. No offscreen pass.
//
// A rectangle blurred by a Gaussian is separable: the product of two blurred intervals (exact).
// With rounded corners, the blur along x is still exact for each row of the shape (the row is an
// interval whose ends follow the corner arcs); the blur along y is integrated numerically over the
// rows within ±4σ with the midpoint rule on the Gaussian's weights, and only within reach of a
// corner (elsewhere the product form is exact).
// The record carries σ and the corner radius in uv.xy and the shape's rect in shape.rect.
#include "draw_record.glsl"
#include "corners.glsl"
#include "coverage.glsl"
#include "gaussian.glsl"

layout(location = VARYING_PAINT) flat in vec4 vPaint;
layout(location = 0) out vec4 outColor;

// The blurred row at height y (relative to the rect's centre) of a rounded rect with half size h
// and corner radius r: its x extent [-e, e] blurred along x at px.
float blurredRow(float px, float y, vec2 h, float r, float sigma) {
    float dy = abs(y) - (h.y - r);                 // > 0 inside a corner's band
    if (abs(y) > h.y) return 0.0;
    float e = dy > 0.0 ? h.x - r + sqrt(max(r * r - dy * dy, 0.0)) : h.x;
    return blurredInterval(px, -e, e, sigma);
}

float shadowCoverage(vec2 p, vec4 rect, float sigma, float radius) {
    vec2 c = 0.5 * (rect.xy + rect.zw);
    vec2 h = 0.5 * (rect.zw - rect.xy);
    vec2 q = p - c;
    float r = min(radius, min(h.x, h.y));
    // Away from the corners the shape is a rectangle as far as the Gaussian reaches (4σ): every
    // row within reach is the full width (or every column the full height), and the blur of a
    // rectangle is the exact product of two blurred intervals. Only near a corner is it integrated.
    vec2 a = abs(q);
    if (r <= 0.0 || a.y + 4.0 * sigma <= h.y - r || a.x + 4.0 * sigma <= h.x - r) {
        return blurredInterval(q.x, -h.x, h.x, sigma) * blurredInterval(q.y, -h.y, h.y, sigma);
    }
    // ∫ G(t) · row(q.y − t) dt over the rows the shape has, t within ±4σ of q.y.
    const int STEPS = 16;
    float lo = max(q.y - h.y, -4.0 * sigma), hi = min(q.y + h.y, 4.0 * sigma);
    if (hi <= lo) return 0.0;
    float dt = (hi - lo) / float(STEPS);
    float sum = 0.0;
    for (int i = 0; i < STEPS; i++) {
        float t = lo + (float(i) + 0.5) * dt;
        // The Gaussian's share of [t − dt/2, t + dt/2] (exact weights: steps never under-count).
        float w = blurredInterval(0.0, t - 0.5 * dt, t + 0.5 * dt, sigma);
        sum += w * blurredRow(q.x, q.y - t, h, r, sigma);
    }
    return sum;
}

void main() {
    DrawRecord rec = records[vRecord];
    float sigma = max(rec.uv.x, 1e-4);
    float coverage = shadowCoverage(vLocal, rec.shape.rect, sigma, rec.uv.y);
    if (CLIP_COUNT > 0) coverage *= itemCoverage();
    outColor = vPaint * clamp(coverage, 0.0, 1.0);
}
