// Rounded-rectangle coverage, shared by the shape, the border's inner edge and every clip.
//
// A corner is a centre inset e from the corner along both edges plus a radial profile ρ(θ) around
// it: circular corners have ρ ≡ r (scale 0, bias r); continuous corners (cornerCurve = continuous)
// use the tabulated profile of Apple's three-cubic curve, scaled by r; clamped continuous corners
// blend the two (Sources/Geometry/ContinuousCorner.swift computes the per-corner numbers).

const float HALF_PI = 1.5707963267948966;

// The nearest corner's component of a per-corner vec4 (order minXMinY, maxXMinY, maxXMaxY,
// minXMaxY), by selects: lavapipe turns a per-fragment index into a vector into a memory gather
// per component read (rounded rectangles measured 0.88× the time with selects, same pixels).
#define CORNER_OF(v) (isBottom ? (isRight ? v.z : v.w) : (isRight ? v.y : v.x))

// ρ(θ_i)/r at θ_i = i·(π/2)/32 about the centre (1.528665 r, 1.528665 r) inward from the corner.
// Generated from ContinuousCorner.radialTable; GeometryTests parses this array and compares.
const float CONTINUOUS_CORNER_PROFILE[33] = float[33](
    1.528665000, 1.530493512, 1.535928170, 1.544886953,
    1.557256608, 1.572851330, 1.591354863, 1.612251531,
    1.634775946, 1.657951517, 1.680800329, 1.702697619,
    1.720096654, 1.732981515, 1.742210261, 1.747755943,
    1.749605737, 1.747755943, 1.742210261, 1.732981515,
    1.720096654, 1.702697619, 1.680800329, 1.657951517,
    1.634775946, 1.612251531, 1.591354863, 1.572851330,
    1.557256608, 1.544886953, 1.535928170, 1.530493512,
    1.528665000
);

// The continuous profile at θ (0…π/2) in units of r, and its slope dρ/dθ, linearly interpolated.
vec2 continuousProfile(float theta) {
    float x = clamp(theta * (32.0 / HALF_PI), 0.0, 32.0);
    int i = min(int(x), 31);
    float a = CONTINUOUS_CORNER_PROFILE[i];
    float b = CONTINUOUS_CORNER_PROFILE[i + 1];
    return vec2(mix(a, b, x - float(i)), (b - a) * (32.0 / HALF_PI));
}

// Coverage (0…1) of a rounded rectangle at point p. dpdx, dpdy are p's change per device pixel
// (computed by the caller in uniform control flow), so local distances become device-pixel
// distances and the antialiased edge is about one device pixel wide whatever the transform.
// Straight edges are box-filtered per axis: edges on pixel boundaries give exactly 0 or 1.
float roundedRectCoverage(vec2 p, vec2 dpdx, vec2 dpdy, vec4 rect, vec4 inset, vec4 scale, vec4 bias) {
    float left = p.x - rect.x, right = rect.z - p.x;
    float top = p.y - rect.y, bottom = rect.w - p.y;
    // |∇x| and |∇y|: local units per device pixel across a vertical and a horizontal edge.
    float ux = length(vec2(dpdx.x, dpdy.x));
    float uy = length(vec2(dpdx.y, dpdy.y));
    float dxEdge = min(left, right), dyEdge = min(top, bottom);
    float coverage = clamp(0.5 + dxEdge / ux, 0.0, 1.0) * clamp(0.5 + dyEdge / uy, 0.0, 1.0);

    // The nearest corner (order minXMinY, maxXMinY, maxXMaxY, minXMaxY).
    bool isRight = right < left;
    bool isBottom = bottom < top;
    float e = CORNER_OF(inset);
    vec2 fromCentre = vec2(e - dxEdge, e - dyEdge);   // towards the corner, in edge-relative axes
    // A square corner (e = 0) has no curve: the straight edges' product is its coverage (the curve
    // code would divide by its zero radius diagonally outside the corner).
    // CORNER_CODE (a specialisation constant the plan chooses) removes the corner block where no shape
    // of the item has a rounded corner, and the curve lookup where every corner is circular.
    if (CORNER_CODE > 0 && e > 0.0 && fromCentre.x > 0.0 && fromCentre.y > 0.0) {
        float dist = length(fromCentre);
        // The profile is symmetric about the diagonal, so the angle may be taken from either edge.
        // Circular corners have scale 0: ρ = bias and slope 0 whatever the profile, so it is not read.
        vec2 profile = CORNER_CODE == 1 ? vec2(0.0) : continuousProfile(atan(fromCentre.y, fromCentre.x));
        float rho = CORNER_OF(scale) * profile.x + CORNER_OF(bias);
        float slope = CORNER_OF(scale) * profile.y;
        // The curve's normal leans from the ray by atan(ρ'/ρ); project the radial distance on it.
        float normalDistance = (rho - dist) * rho * inversesqrt(rho * rho + slope * slope);
        // Local units per device pixel along the ray (back in the rect's axes).
        vec2 ray = fromCentre / dist * vec2(isRight ? 1.0 : -1.0, isBottom ? 1.0 : -1.0);
        float u = length(vec2(dot(ray, dpdx), dot(ray, dpdy)));
        coverage = clamp(0.5 + normalDistance / u, 0.0, 1.0);
    }
    return coverage;
}

// roundedRectCoverage for an item under a similarity transform (ISOTROPIC): `s` device pixels per
// local unit in every direction, so the local distances scale to device pixels by s alone. The
// same formulas without the per-fragment derivatives, their lengths and the ray's length: about
// a third of a rounded rectangle's fragment cost on lavapipe. Circular corners (slope 0) take
// the radial distance as the normal distance, which the general code computes as ρ/√(ρ²).
float roundedRectCoverageIsotropic(vec2 p, float s, vec4 rect, vec4 inset, vec4 scale, vec4 bias) {
    float left = p.x - rect.x, right = rect.z - p.x;
    float top = p.y - rect.y, bottom = rect.w - p.y;
    float dxEdge = min(left, right), dyEdge = min(top, bottom);
    float coverage = clamp(0.5 + dxEdge * s, 0.0, 1.0) * clamp(0.5 + dyEdge * s, 0.0, 1.0);
    bool isRight = right < left;
    bool isBottom = bottom < top;
    float e = CORNER_OF(inset);
    vec2 fromCentre = vec2(e - dxEdge, e - dyEdge);
    if (CORNER_CODE > 0 && e > 0.0 && fromCentre.x > 0.0 && fromCentre.y > 0.0) {
        float dist = length(fromCentre);
        float normalDistance;
        if (CORNER_CODE == 1) {
            // A circular corner's radius is its inset (CornerProfile.circular): ρ ≡ e.
            normalDistance = e - dist;
        } else {
            vec2 profile = continuousProfile(atan(fromCentre.y, fromCentre.x));
            float rho = CORNER_OF(scale) * profile.x + CORNER_OF(bias);
            float slope = CORNER_OF(scale) * profile.y;
            normalDistance = (rho - dist) * rho * inversesqrt(rho * rho + slope * slope);
        }
        coverage = clamp(0.5 + normalDistance * s, 0.0, 1.0);
    }
    return coverage;
}
