#include "png_shim.h"
#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t len;
    size_t pos;
    char *err;
    size_t err_len;
} reader_t;

static void set_err(char *err, size_t err_len, const char *msg) {
    if (err && err_len > 0) {
        strncpy(err, msg, err_len - 1);
        err[err_len - 1] = 0;
    }
}

static void on_error(png_structp png, png_const_charp msg) {
    reader_t *r = (reader_t *)png_get_error_ptr(png);
    if (r) set_err(r->err, r->err_len, msg);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png; (void)msg; }

static void read_mem(png_structp png, png_bytep out, png_size_t n) {
    reader_t *r = (reader_t *)png_get_io_ptr(png);
    if (r->pos + n > r->len) png_error(png, "unexpected end of PNG data (file truncated)");
    memcpy(out, r->data + r->pos, n);
    r->pos += n;
}

static int open_reader(const uint8_t *data, size_t len, reader_t *r, png_structp *png, png_infop *info,
                       char *err, size_t err_len) {
    if (len < 8 || png_sig_cmp(data, 0, 8) != 0) {
        set_err(err, err_len, "not a PNG file (bad signature)");
        return CAPROF_PNG_NOT_PNG;
    }
    // libpng allocates (and zeroes) a chunk's buffer before reading its data: a 108-byte file
    // whose tEXt chunk claims 2 GiB cost 2 GiB and seconds (found by tools/fuzz), whatever
    // png_set_chunk_malloc_max says. The data is all in memory, so every chunk's length is checked
    // against what remains before libpng sees the file.
    size_t at = 8;
    while (at + 8 <= len) {
        uint32_t n = (uint32_t)data[at] << 24 | (uint32_t)data[at + 1] << 16 | (uint32_t)data[at + 2] << 8 | data[at + 3];
        if (n > 0x7FFFFFFFu || (size_t)n + 12 > len - at) {
            char type[5], msg[160];
            for (int k = 0; k < 4; k++) {
                uint8_t c = data[at + 4 + k];
                type[k] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ? (char)c : '?';
            }
            type[4] = 0;
            snprintf(msg, sizeof msg, "chunk '%s' at byte %zu claims %u bytes but only %zu remain",
                     type, at, n, len - at - 8);
            set_err(err, err_len, msg);
            return CAPROF_PNG_CORRUPT;
        }
        if (memcmp(data + at + 4, "IEND", 4) == 0) break;
        at += (size_t)n + 12;
    }
    r->data = data; r->len = len; r->pos = 0; r->err = err; r->err_len = err_len;
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, on_error, on_warning);
    if (!*png) { set_err(err, err_len, "out of memory"); return CAPROF_PNG_NO_MEMORY; }
    *info = png_create_info_struct(*png);
    if (!*info) { png_destroy_read_struct(png, NULL, NULL); set_err(err, err_len, "out of memory"); return CAPROF_PNG_NO_MEMORY; }
    png_set_read_fn(*png, r, read_mem);
    // Refuse absurd dimensions inside libpng too (defence in depth against hostile headers).
    png_set_user_limits(*png, 1u << 20, 1u << 20);
    // Bound what libpng allocates for ancillary chunks (zTXt/iCCP inflation) and how many it keeps.
    png_set_chunk_malloc_max(*png, 8u << 20);
    png_set_chunk_cache_max(*png, 1000);
    return CAPROF_PNG_OK;
}

int caprof_png_info(const uint8_t *data, size_t len, uint32_t *width, uint32_t *height, char *err, size_t err_len) {
    reader_t r; png_structp png; png_infop info;
    int rc = open_reader(data, len, &r, &png, &info, err, err_len);
    if (rc) return rc;
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, NULL); return CAPROF_PNG_CORRUPT; }
    png_read_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    png_destroy_read_struct(&png, &info, NULL);
    return CAPROF_PNG_OK;
}

int caprof_png_decode(const uint8_t *data, size_t len, uint32_t max_side, uint8_t *out, size_t out_len,
                      char *err, size_t err_len) {
    reader_t r; png_structp png; png_infop info;
    int rc = open_reader(data, len, &r, &png, &info, err, err_len);
    if (rc) return rc;
    // Volatile: modified between setjmp and longjmp.
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_free(png, rows);
        png_destroy_read_struct(&png, &info, NULL);
        return CAPROF_PNG_CORRUPT;
    }
    png_read_info(png, info);
    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w > max_side || h > max_side) {
        char msg[160];
        snprintf(msg, sizeof msg, "image is %ux%u pixels; the limit is %u per side", w, h, max_side);
        set_err(err, err_len, msg);
        png_destroy_read_struct(&png, &info, NULL);
        return CAPROF_PNG_TOO_LARGE;
    }
    if ((size_t)w * h * 4 != out_len) {
        set_err(err, err_len, "output buffer does not match the image size");
        png_destroy_read_struct(&png, &info, NULL);
        return CAPROF_PNG_CORRUPT;
    }
    int color = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    rows = (png_bytep *)png_malloc(png, sizeof(png_bytep) * (h ? h : 1));
    for (uint32_t y = 0; y < h; y++) rows[y] = out + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_free(png, rows);
    png_destroy_read_struct(&png, &info, NULL);
    return CAPROF_PNG_OK;
}

/* Straight alpha from premultiplied, rounded to nearest (as Raster's `unpremultiply`). */
static void unpremultiply_row(const uint8_t *src, uint8_t *dst, uint32_t width) {
    for (uint32_t x = 0; x < width; x++, src += 4, dst += 4) {
        uint32_t a = src[3];
        dst[3] = (uint8_t)a;
        for (int c = 0; c < 3; c++) {
            uint32_t v = a == 0 ? 0 : a == 255 ? src[c] : (src[c] * 255u + a / 2) / a;
            dst[c] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
}

int caprof_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height,
                     int premultiplied, int zlib_level, int filters, char *err, size_t err_len) {
    FILE *volatile f = fopen(path, "wb");
    if (!f) { set_err(err, err_len, "cannot open the output file for writing"); return CAPROF_PNG_IO; }
    reader_t r = {0}; r.err = err; r.err_len = err_len;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &r, on_error, on_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info); fclose(f);
        set_err(err, err_len, "out of memory"); return CAPROF_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info); fclose(f);
        return CAPROF_PNG_IO;
    }
    png_init_io(png, f);
    png_set_compression_level(png, zlib_level);
    png_set_filter(png, 0, filters ? PNG_ALL_FILTERS : PNG_FILTER_NONE);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    /* Premultiplied pixels are converted a row at a time: a converted copy of a whole frame
       would add its size to the peak memory of writing it. */
    uint8_t *volatile row = NULL;
    if (premultiplied && !(row = malloc((size_t)width * 4))) {
        png_destroy_write_struct(&png, &info); fclose(f);
        set_err(err, err_len, "out of memory"); return CAPROF_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        free(row); png_destroy_write_struct(&png, &info); fclose(f);
        return CAPROF_PNG_IO;
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *src = rgba + (size_t)y * width * 4;
        if (row) { unpremultiply_row(src, row, width); src = row; }
        png_write_row(png, (png_const_bytep)src);
    }
    png_write_end(png, info);
    free(row);
    png_destroy_write_struct(&png, &info);
    if (fclose(f) != 0) { set_err(err, err_len, "error closing the output file"); return CAPROF_PNG_IO; }
    return CAPROF_PNG_OK;
}

size_t caprof_png_band_bound(uint32_t width, uint32_t rows) {
    /* compressBound covers zlib's worst case (stored blocks); a full flush adds an empty stored
       block (5 bytes) and the raw stream has no header or trailer to take them from. */
    return (size_t)compressBound((uLong)((1 + (size_t)width * 4) * rows)) + 16;
}

struct caprof_png_deflater {
    z_stream z;
    uint8_t *row;
    uint32_t width;
};

caprof_png_deflater *caprof_png_deflater_new(int zlib_level, uint32_t width) {
    caprof_png_deflater *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->width = width;
    d->row = malloc(1 + (size_t)width * 4);
    /* Raw deflate (windowBits < 0): the zlib header and Adler-32 trailer are written once for
       the whole image by the caller. */
    if (!d->row || deflateInit2(&d->z, zlib_level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(d->row); free(d); return NULL;
    }
    return d;
}

void caprof_png_deflater_free(caprof_png_deflater *d) {
    if (!d) return;
    deflateEnd(&d->z);
    free(d->row);
    free(d);
}

int caprof_png_deflate_band(caprof_png_deflater *d, const uint8_t *rgba, uint32_t width, uint32_t y0, uint32_t y1,
                            int premultiplied, uint8_t *out, size_t out_cap, size_t *out_len, uint32_t *adler,
                            char *err, size_t err_len) {
    if (width != d->width) { set_err(err, err_len, "the deflater was made for another width"); return CAPROF_PNG_IO; }
    /* A fresh history for every band: its bytes must not refer to the band above. */
    if (deflateReset(&d->z) != Z_OK) { set_err(err, err_len, "zlib could not reset"); return CAPROF_PNG_IO; }
    size_t row_bytes = 1 + (size_t)width * 4;
    uint8_t *row = d->row;
    z_stream *z = &d->z;
    uint32_t a = (uint32_t)adler32(0L, Z_NULL, 0);
    z->next_out = out;
    z->avail_out = (uInt)out_cap;
    int ok = 1;
    for (uint32_t y = y0; y < y1 && ok; y++) {
        const uint8_t *src = rgba + (size_t)y * width * 4;
        row[0] = 0;   /* filter type None */
        if (premultiplied) unpremultiply_row(src, row + 1, width); else memcpy(row + 1, src, (size_t)width * 4);
        a = (uint32_t)adler32(a, row, (uInt)row_bytes);
        z->next_in = row;
        z->avail_in = (uInt)row_bytes;
        int rc = deflate(z, y + 1 == y1 ? Z_FULL_FLUSH : Z_NO_FLUSH);
        /* With room for the bound, every row is consumed and the flush completes. */
        if (rc != Z_OK || z->avail_in != 0 || z->avail_out == 0) ok = 0;
    }
    *out_len = out_cap - z->avail_out;
    if (!ok) { set_err(err, err_len, "zlib could not compress the image"); return CAPROF_PNG_IO; }
    *adler = a;
    return CAPROF_PNG_OK;
}

uint32_t caprof_png_adler32_combine(uint32_t adler_a, uint32_t adler_b, size_t len_b) {
    return (uint32_t)adler32_combine((uLong)adler_a, (uLong)adler_b, (z_off_t)len_b);
}

uint32_t caprof_png_crc32(uint32_t crc, const uint8_t *bytes, size_t len) {
    return (uint32_t)crc32((uLong)crc, bytes, (uInt)len);
}
