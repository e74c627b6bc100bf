#pragma once
// Pango on cairo (HarfBuzz shaping, line layout) and fontconfig, for CATextLayer text
// (Sources/CCairoShim/text_shim.c wraps what caprof calls).
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
