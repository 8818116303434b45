/* png_write.c — PNG files from cairo's RGB24 images: Up-filtered rows, one run-length zlib stream, IDAT chunks. */
/* SPDX-License-Identifier: MIT */
#include "png_write.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define CHUNK (64 * 1024) /* the most bytes of compressed data per IDAT */

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* One chunk: length, type, data, and the CRC of type and data. 0, or -1. */
static int chunk(FILE *f, const char type[4], const unsigned char *data, size_t n)
{
    unsigned char head[8], crc[4];
    put32(head, (uint32_t)n);
    memcpy(head + 4, type, 4);
    uLong c = crc32(0L, (const Bytef *)type, 4);
    if (n) c = crc32(c, data, (uInt)n);
    put32(crc, (uint32_t)c);
    return fwrite(head, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) && fwrite(crc, 1, 4, f) == 4 ? 0 : -1;
}

int hk_png_write(FILE *f, cairo_surface_t *s)
{
    if (cairo_surface_get_type(s) != CAIRO_SURFACE_TYPE_IMAGE ||
        cairo_image_surface_get_format(s) != CAIRO_FORMAT_RGB24) {
        errno = EINVAL;
        return -1;
    }
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char *data = cairo_image_surface_get_data(s);
    if (!data || w <= 0 || h <= 0) {
        errno = EINVAL;
        return -1;
    }
    const size_t row = 1 + 3 * (size_t)w; /* the filter byte, then R G B per pixel */
    unsigned char *line = malloc(row), *out = malloc(CHUNK);
    z_stream z;
    memset(&z, 0, sizeof z);
    int rc = -1, zerr = 0;
    if (!line || !out || deflateInit2(&z, 1, Z_DEFLATED, 15, 6, Z_RLE) != Z_OK) {
        free(line);
        free(out);
        errno = ENOMEM;
        return -1;
    }
    unsigned char ihdr[13] = {0};
    put32(ihdr, (uint32_t)w);
    put32(ihdr + 4, (uint32_t)h);
    ihdr[8] = 8; /* bits per channel */
    ihdr[9] = 2; /* RGB; compression, filter method and interlace 0 */
    if (fwrite("\x89PNG\r\n\x1a\n", 1, 8, f) != 8 || chunk(f, "IHDR", ihdr, sizeof ihdr) != 0) goto done;
    z.next_out = out;
    z.avail_out = CHUNK;
    for (int y = 0; y <= h; y++) {
        if (y == 0) { /* the first row, each byte less the same channel of the pixel to its left (filter 1, Sub) */
            const uint32_t *px = (const uint32_t *)(const void *)data;
            unsigned char *o = line + 1, left[3] = {0, 0, 0};
            line[0] = 1;
            for (int x = 0; x < w; x++) {
                const unsigned char c[3] = {(unsigned char)(px[x] >> 16), (unsigned char)(px[x] >> 8),
                                            (unsigned char)px[x]};
                for (int k = 0; k < 3; k++) {
                    *o++ = (unsigned char)(c[k] - left[k]);
                    left[k] = c[k];
                }
            }
        } else if (y < h) { /* the others less the pixel above (filter 2, Up): what repeats the row above is 0 */
            const uint32_t *px = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
            const uint32_t *up = (const uint32_t *)(const void *)(data + (size_t)(y - 1) * (size_t)stride);
            unsigned char *o = line + 1;
            line[0] = 2;
            for (int x = 0; x < w; x++) {
                const uint32_t a = px[x], b = up[x];
                o[0] = (unsigned char)((a >> 16) - (b >> 16));
                o[1] = (unsigned char)((a >> 8) - (b >> 8));
                o[2] = (unsigned char)(a - b);
                o += 3;
            }
        }
        if (y < h) {
            z.next_in = line;
            z.avail_in = (uInt)row;
        }
        const int flush = y < h ? Z_NO_FLUSH : Z_FINISH;
        for (;;) {
            const int st = deflate(&z, flush);
            if (st == Z_STREAM_ERROR) {
                zerr = 1;
                goto done;
            }
            if (z.avail_out == 0 || (st == Z_STREAM_END && z.avail_out < CHUNK)) {
                if (chunk(f, "IDAT", out, CHUNK - z.avail_out) != 0) goto done;
                z.next_out = out;
                z.avail_out = CHUNK;
            }
            if (st == Z_STREAM_END || (flush == Z_NO_FLUSH && z.avail_in == 0)) break;
        }
    }
    rc = chunk(f, "IEND", NULL, 0);
done:
    deflateEnd(&z);
    free(line);
    free(out);
    if (rc != 0) errno = zerr ? ENOMEM : EIO;
    return rc;
}
