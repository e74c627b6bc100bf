#pragma once
// A narrow C boundary around libjpeg-turbo (Debian's libjpeg62-turbo). libjpeg reports fatal
// errors through error_exit, which must not return and must never longjmp across Swift frames:
// these functions own the setjmp and return 0 on success or an error code, with libjpeg's message
// copied into `err` (NUL-terminated, at most err_len bytes).
#include <stddef.h>
#include <stdint.h>

enum {
    CAPROF_JPEG_OK = 0,
    CAPROF_JPEG_NOT_JPEG = 1,    // no SOI marker
    CAPROF_JPEG_CORRUPT = 2,     // libjpeg reported an error while decoding
    CAPROF_JPEG_TOO_LARGE = 3,   // width/height above the caller's limit, or a multi-scan image whose
                                 // coefficient buffer passes the shim's limit (192 MiB)
    CAPROF_JPEG_BUFFER = 4,      // the output buffer is not width*height*4 bytes
};

// Reads the size of a JPEG held in memory from its header, without decoding pixels. A multi-scan
// (progressive) image whose whole-image coefficient buffer would pass 192 MiB is refused here
// (CAPROF_JPEG_TOO_LARGE, with the size in `err`), before the caller allocates its pixels.
int caprof_jpeg_info(const uint8_t *data, size_t len, uint32_t *width, uint32_t *height,
                     char *err, size_t err_len);

// Decodes a JPEG held in memory (baseline or progressive; greyscale, YCbCr, RGB or CMYK/YCCK) to
// 8-bit RGBA with alpha 255, rows top-down, into `out` (caller-allocated, width*height*4 bytes).
// Images wider or taller than max_side are refused before any pixel is decoded; so are scans that
// together pass over more than 2^25 blocks, or more than 200 scans (CAPROF_JPEG_CORRUPT).
int caprof_jpeg_decode(const uint8_t *data, size_t len, uint32_t max_side, uint8_t *out, size_t out_len,
                       char *err, size_t err_len);
