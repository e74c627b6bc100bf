#include "jpeg_shim.h"
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

// libjpeg's error manager extended with the jump buffer its error_exit returns to.
typedef struct {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char *err;
    size_t err_len;
} error_t_;

static void set_err(char *err, size_t err_len, const char *msg) {
    if (err && err_len > 0) {
        strncpy(err, msg, err_len - 1);
        err[err_len - 1] = 0;
    }
}

static void on_error_exit(j_common_ptr cinfo) {
    error_t_ *e = (error_t_ *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    set_err(e->err, e->err_len, buffer);
    longjmp(e->jump, 1);
}

// A progressive JPEG may hold any number of scans, and each costs a pass over the whole image:
// 10,000 empty scans in 100 KB would take minutes. Real encoders write at most a few dozen, so
// more than this many is refused as corrupt (libjpeg-turbo's djpeg -maxscans does the same).
#define CAPROF_JPEG_MAX_SCANS 200

static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    if (((j_decompress_ptr)cinfo)->input_scan_number > CAPROF_JPEG_MAX_SCANS) {
        error_t_ *e = (error_t_ *)cinfo->err;
        char msg[96];
        snprintf(msg, sizeof msg, "progressive JPEG with more than %d scans", CAPROF_JPEG_MAX_SCANS);
        set_err(e->err, e->err_len, msg);
        longjmp(e->jump, 1);
    }
}

// Warnings (corrupt-but-recoverable data) are not fatal; libjpeg would print them to stderr.
static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static int is_jpeg(const uint8_t *data, size_t len) {
    return len >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
}

// Opens the decompressor on `data` and reads the header. Returns 0 or an error code; on success
// the caller must jpeg_destroy_decompress.
static int open_jpeg(struct jpeg_decompress_struct *cinfo, error_t_ *e, const uint8_t *data, size_t len) {
    cinfo->err = jpeg_std_error(&e->mgr);
    e->mgr.error_exit = on_error_exit;
    e->mgr.output_message = on_output_message;
    jpeg_create_decompress(cinfo);
    jpeg_mem_src(cinfo, (const unsigned char *)data, (unsigned long)len);
    jpeg_read_header(cinfo, TRUE);
    return 0;
}

int caprof_jpeg_info(const uint8_t *data, size_t len, uint32_t *width, uint32_t *height,
                     char *err, size_t err_len) {
    if (!is_jpeg(data, len)) { set_err(err, err_len, "not a JPEG file (no SOI marker)"); return CAPROF_JPEG_NOT_JPEG; }
    struct jpeg_decompress_struct cinfo;
    error_t_ e;
    e.err = err; e.err_len = err_len;
    if (setjmp(e.jump)) { jpeg_destroy_decompress(&cinfo); return CAPROF_JPEG_CORRUPT; }
    open_jpeg(&cinfo, &e, data, len);
    *width = cinfo.image_width;
    *height = cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    return CAPROF_JPEG_OK;
}

int caprof_jpeg_decode(const uint8_t *data, size_t len, uint32_t max_side, uint8_t *out, size_t out_len,
                       char *err, size_t err_len) {
    if (!is_jpeg(data, len)) { set_err(err, err_len, "not a JPEG file (no SOI marker)"); return CAPROF_JPEG_NOT_JPEG; }
    struct jpeg_decompress_struct cinfo;
    error_t_ e;
    e.err = err; e.err_len = err_len;
    if (setjmp(e.jump)) { jpeg_destroy_decompress(&cinfo); return CAPROF_JPEG_CORRUPT; }
    open_jpeg(&cinfo, &e, data, len);
    if (cinfo.image_width > max_side || cinfo.image_height > max_side) {
        char msg[128];
        snprintf(msg, sizeof msg, "image is %u×%u pixels; the limit is %u per side",
                 (unsigned)cinfo.image_width, (unsigned)cinfo.image_height, (unsigned)max_side);
        set_err(err, err_len, msg);
        jpeg_destroy_decompress(&cinfo);
        return CAPROF_JPEG_TOO_LARGE;
    }
    if ((size_t)cinfo.image_width * cinfo.image_height * 4 != out_len) {
        set_err(err, err_len, "output buffer size does not match the image");
        jpeg_destroy_decompress(&cinfo);
        return CAPROF_JPEG_BUFFER;
    }
    // CMYK/YCCK cannot be converted to RGBA by libjpeg: read CMYK and convert below (Adobe's
    // inverted CMYK, as Photoshop writes it). Everything else converts to RGBA directly.
    struct jpeg_progress_mgr progress = { .progress_monitor = on_progress };
    cinfo.progress = &progress;
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = out + (size_t)cinfo.output_scanline * stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
        if (cmyk) {
            uint8_t *p = row;
            for (uint32_t x = 0; x < cinfo.output_width; x++, p += 4) {
                unsigned k = p[3];
                p[0] = (uint8_t)((p[0] * k + 127) / 255);
                p[1] = (uint8_t)((p[1] * k + 127) / 255);
                p[2] = (uint8_t)((p[2] * k + 127) / 255);
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return CAPROF_JPEG_OK;
}
