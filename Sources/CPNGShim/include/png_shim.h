#pragma once
// A narrow C boundary around libpng. libpng reports errors with longjmp, which must never cross
// Swift frames: these functions own the setjmp and return 0 on success or an error code, with a
// message copied into `err` (NUL-terminated, at most err_len bytes).
#include <stddef.h>
#include <stdint.h>

enum {
    CAPROF_PNG_OK = 0,
    CAPROF_PNG_NOT_PNG = 1,      // signature mismatch
    CAPROF_PNG_CORRUPT = 2,      // libpng reported an error while decoding
    CAPROF_PNG_TOO_LARGE = 3,    // width/height above the caller's limit
    CAPROF_PNG_NO_MEMORY = 4,
    CAPROF_PNG_IO = 5,           // could not open/write the file
};

// Reads the size of a PNG held in memory without decoding pixels.
int caprof_png_info(const uint8_t *data, size_t len, uint32_t *width, uint32_t *height,
                    char *err, size_t err_len);

// Decodes a PNG held in memory to 8-bit RGBA (non-premultiplied), rows top-down, into `out`
// (caller-allocated, width*height*4 bytes; query the size with caprof_png_info first).
// Palette, grey, 16-bit, tRNS and interlaced images are converted. Images wider or taller than
// max_side are refused before any pixel is decoded.
int caprof_png_decode(const uint8_t *data, size_t len, uint32_t max_side, uint8_t *out, size_t out_len,
                      char *err, size_t err_len);

// Encodes 8-bit RGBA rows top-down to a PNG file (straight alpha); premultiplied != 0: the rows
// are premultiplied and converted one at a time (rounded to nearest, as Raster's unpremultiply).
// zlib_level 0-9; filters: 0 = none (fast), 1 = libpng's adaptive choice (smaller).
int caprof_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                     int premultiplied, int zlib_level, int filters, char *err, size_t err_len);
