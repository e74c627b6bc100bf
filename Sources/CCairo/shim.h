#pragma once
// cairo, for the CPU rasterisation of CAShapeLayer paths (Sources/CCairoShim wraps what caprof calls).
#include <cairo.h>
