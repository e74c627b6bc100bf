#version 450
#extension GL_GOOGLE_include_directive : require
// A flattened region of solid colours only (see flatten.glsl): no image is declared, so the
// region's descriptor set needs none bound.
#include "flatten.glsl"

#define LAYER(I) if (DEPTH > I) dst = over(dst, unorm8(intBitsToFloat(vLayers[I])));

void main() {
    vec4 dst = unorm8(vBase);
    LAYER(0) LAYER(1) LAYER(2) LAYER(3) LAYER(4) LAYER(5) LAYER(6) LAYER(7)
    LAYER(8) LAYER(9) LAYER(10) LAYER(11) LAYER(12) LAYER(13) LAYER(14) LAYER(15)
    outColor = dst / 255.0;
}
