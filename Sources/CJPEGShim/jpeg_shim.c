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

// A progressive JPEG may hold any number of scans, and each costs a pass over the blocks of the
// components it names, empty or not: 10,000 empty scans in 100 KB would take minutes, and 200
// empty scans of an 8192² CMYK image (3 KB) took 4–18 s. Real encoders write a few dozen scans
// at most (libjpeg's default script: 10), so more than CAPROF_JPEG_MAX_SCANS is refused as corrupt
// (libjpeg-turbo's djpeg -maxscans does the same), and so is a file whose scans together pass
// over more than CAPROF_JPEG_MAX_SCAN_BLOCKS 8×8 blocks: 2^25, 32 passes over every component of
// an 8192² 4:2:0 image (the default script makes about 7), about a second on these machines.
#define CAPROF_JPEG_MAX_SCANS 200
#define CAPROF_JPEG_MAX_SCAN_BLOCKS ((uint64_t)1 << 25)

// A JPEG with several scans (progressive, or sequential with one scan per component) is decoded
// through a buffer of every coefficient of the image (2 bytes each, 64 per block), before any
// pixel: 512 MiB for an 8192² CMYK image. Refused from the header past this: 192 MiB holds an
// 8192² 4:2:0 image, the largest the decoded-image limit lets through in the subsampling cameras
// and encoders write. libjpeg's own `max_memory_to_use` is set to it too, as a backstop.
#define CAPROF_JPEG_MAX_COEFFICIENT_BYTES ((size_t)192 << 20)

typedef struct {
    struct jpeg_progress_mgr mgr;
    int scan;             // the scan whose blocks were last counted
    uint64_t blocks;      // blocks the scans so far pass over
} progress_t_;

static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    progress_t_ *p = (progress_t_ *)cinfo->progress;
    error_t_ *e = (error_t_ *)cinfo->err;
    char msg[160];
    if (d->input_scan_number > CAPROF_JPEG_MAX_SCANS) {
        snprintf(msg, sizeof msg, "progressive JPEG with more than %d scans", CAPROF_JPEG_MAX_SCANS);
        set_err(e->err, e->err_len, msg);
        longjmp(e->jump, 1);
    }
    if (d->input_scan_number != p->scan) {
        p->scan = d->input_scan_number;
        for (int i = 0; i < d->comps_in_scan && i < MAX_COMPS_IN_SCAN; i++) {
            jpeg_component_info *c = d->cur_comp_info[i];
            if (c) p->blocks += (uint64_t)c->width_in_blocks * c->height_in_blocks;
        }
        if (p->blocks > CAPROF_JPEG_MAX_SCAN_BLOCKS) {
            snprintf(msg, sizeof msg, "JPEG whose %d scans pass over more than %llu blocks of 8×8 pixels (the limit; a pass per scan over the components it names)",
                     d->input_scan_number, (unsigned long long)CAPROF_JPEG_MAX_SCAN_BLOCKS);
            set_err(e->err, e->err_len, msg);
            longjmp(e->jump, 1);
        }
    }
}

// The bytes of the whole-image coefficient buffer a multi-scan JPEG is decoded through (0 for a
// single-scan one), from the header: each component's blocks rounded up to whole MCUs.
static size_t coefficient_bytes(j_decompress_ptr cinfo) {
    if (!jpeg_has_multiple_scans(cinfo)) return 0;
    size_t total = 0;
    for (int i = 0; i < cinfo->num_components; i++) {
        jpeg_component_info *c = &cinfo->comp_info[i];
        size_t w = ((size_t)c->width_in_blocks + c->h_samp_factor - 1) / c->h_samp_factor * c->h_samp_factor;
        size_t h = ((size_t)c->height_in_blocks + c->v_samp_factor - 1) / c->v_samp_factor * c->v_samp_factor;
        total += w * h * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

// Refuses a multi-scan JPEG whose coefficient buffer passes the limit, before anything is
// allocated for its pixels. Returns 0 or CAPROF_JPEG_TOO_LARGE with the message in `err`.
static int check_coefficients(j_decompress_ptr cinfo, char *err, size_t err_len) {
    size_t bytes = coefficient_bytes(cinfo);
    if (bytes <= CAPROF_JPEG_MAX_COEFFICIENT_BYTES) return 0;
    char msg[200];
    snprintf(msg, sizeof msg, "%s JPEG of %u×%u pixels in %d components needs %zu MiB of coefficients to decode; the limit is %zu MiB",
             cinfo->progressive_mode ? "progressive" : "multi-scan", (unsigned)cinfo->image_width,
             (unsigned)cinfo->image_height, cinfo->num_components, (bytes + (1 << 20) - 1) >> 20,
             CAPROF_JPEG_MAX_COEFFICIENT_BYTES >> 20);
    set_err(err, err_len, msg);
    return CAPROF_JPEG_TOO_LARGE;
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
    int refused = check_coefficients(&cinfo, err, err_len);
    jpeg_destroy_decompress(&cinfo);
    return refused ? refused : CAPROF_JPEG_OK;
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
    if (check_coefficients(&cinfo, err, err_len)) {
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
    progress_t_ progress = { .mgr = { .progress_monitor = on_progress }, .scan = 0, .blocks = 0 };
    cinfo.progress = &progress.mgr;
    cinfo.mem->max_memory_to_use = (long)CAPROF_JPEG_MAX_COEFFICIENT_BYTES + (16L << 20);
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
