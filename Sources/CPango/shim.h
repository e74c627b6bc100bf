#pragma once
// Pango on cairo and fontconfig, with the include directories pkg-config gives: for the test-only
// check of CCairoShim's declarations (Sources/CPangoABICheck). caprof links none of them.
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
