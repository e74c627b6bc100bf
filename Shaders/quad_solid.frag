#version 450
#extension GL_GOOGLE_include_directive : require
// variant: AFFINE
// A solid premultiplied colour (background or border) times coverage.
#include "draw_record.glsl"
#include "corners.glsl"
#include "coverage.glsl"

layout(location = VARYING_PAINT) flat in vec4 vPaint;
layout(location = 0) out vec4 outColor;

void main() {
    outColor = (HAS_SHAPE || HAS_INNER || CLIP_COUNT > 0) ? vPaint * itemCoverage() : vPaint;
}
