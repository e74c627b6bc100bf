#pragma once

// glibc's malloc tuning, which Swift's Glibc module does not import (<malloc.h>).
// Makes every allocation of at least `bytes` a mapping of its own, returned to the system when
// freed (M_MMAP_THRESHOLD, which also stops glibc raising the threshold as it frees blocks).
// Returns 0 where the C library has no such setting.
int caprof_map_large_blocks(int bytes);
