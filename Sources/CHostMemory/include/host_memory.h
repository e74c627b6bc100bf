#pragma once
#include <stddef.h>

// glibc's malloc tuning, which Swift's Glibc module does not import (<malloc.h>).
// Makes every allocation of at least `bytes` a mapping of its own, returned to the system when
// freed (M_MMAP_THRESHOLD, which also stops glibc raising the threshold as it frees blocks).
// Returns 0 where the C library has no such setting.
int caprof_map_large_blocks(int bytes);

// Asks for transparent huge pages over the whole 2 MiB pages inside [start, start + bytes): for
// megabytes about to be written once into fresh memory, where each first touch of a 4 KiB page
// costs ≈ 2 µs on these machines and a 2 MiB page ≈ 0.1 ms. Advice only: where THP is off or the
// kernel refuses, the pages stay ordinary ones; nothing where there is no MADV_HUGEPAGE.
void caprof_advise_huge_pages(void *start, size_t bytes);

// Gives the free pages of every malloc arena back to the system (glibc's malloc_trim(0): the
// heap's top and every whole free page inside it). Returns 1 if memory was released, 0 if not
// or where the C library has no such call.
int caprof_release_free_memory(void);
