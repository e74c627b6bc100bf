#pragma once
// Checks CCairoShim's own declarations of Pango (lazy_libs.h) against Pango's headers. Test-only:
// this target links Pango directly, which caprof itself does not.

// Loads the text libraries as caprof does, then counts the function slots (cairo's, fontconfig's
// and Pango's) the loader filled with
// something other than the function this target links (0 when every symbol was resolved to the
// right function); -1 when the libraries could not be loaded.
int caprof_pango_abi_mismatches(void);
// How many slots were compared.
int caprof_pango_abi_slot_count(void);
