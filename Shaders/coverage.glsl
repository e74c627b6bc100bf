// Per-fragment coverage of a draw item: its shape, minus the inner shape for borders, times every
// clip. Specialisation constants remove what an item does not use.

layout(location = VARYING_LOCAL, component = 0) ITEM_VARYING in vec2 vLocal;
layout(location = VARYING_RECORD) flat in uint vRecord;
layout(location = VARYING_RECORD, component = 1) flat in uint vPixelScale;
layout(location = VARYING_CLIP0) ITEM_VARYING in vec3 vClip[4];
layout(location = VARYING_SHAPE) flat in vec4 vShape[4];
layout(location = VARYING_INNER) flat in vec4 vInner[4];

float itemCoverage() {
    float coverage = 1.0;
    if ((HAS_SHAPE || HAS_INNER) && ISOTROPIC) {
        float s = uintBitsToFloat(vPixelScale);
        if (HAS_SHAPE) {
            coverage = roundedRectCoverageIsotropic(vLocal, s, vShape[0], vShape[1], vShape[2], vShape[3]);
        }
        if (HAS_INNER) {
            float inner = roundedRectCoverageIsotropic(vLocal, s, vInner[0], vInner[1], vInner[2], vInner[3]);
            coverage = max(coverage - inner, 0.0);
        }
    } else if (HAS_SHAPE || HAS_INNER) {
        vec2 p = vLocal;
        vec2 dpdx = dFdx(p), dpdy = dFdy(p);
        if (HAS_SHAPE) {
            coverage = roundedRectCoverage(p, dpdx, dpdy, vShape[0], vShape[1], vShape[2], vShape[3]);
        }
        if (HAS_INNER) {
            float inner = roundedRectCoverage(p, dpdx, dpdy, vInner[0], vInner[1], vInner[2], vInner[3]);
            coverage = max(coverage - inner, 0.0);
        }
    }
    for (int i = 0; i < CLIP_COUNT; i++) {
        // Divide per fragment: exact for projective clip transforms. Behind the eye (w <= 0) is out.
        vec3 h = vClip[i];
        vec2 p = h.xy / h.z;
        vec2 dpdx = dFdx(p), dpdy = dFdy(p);
        RoundedRect s = records[vRecord].clips[i].shape;
        float c = roundedRectCoverage(p, dpdx, dpdy, s.rect, s.inset, s.scale, s.bias);
        coverage *= h.z > 0.0 ? c : 0.0;
    }
    return coverage;
}
