/* hk_test_png.h — decodes a PNG with libpng for tests: size, colour type, pixels. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_PNG_H
#define HK_TEST_PNG_H

#include "hk_test.h"

#include <png.h>

typedef struct hk_png {
    int w, h;
    unsigned char *rgb; /* w * h * 3, row 0 at the top */
} hk_png;

/* Reads an 8-bit RGB PNG (fails the test if libpng cannot decode it or it is not RGB). */
static inline hk_png hk_test_png_read(const char *path)
{
    hk_png p = {0, 0, NULL};
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_error("%s: cannot open\n", path);
        fail();
    }
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    assert_true(png && info);
    if (setjmp(png_jmpbuf(png))) {
        print_error("%s: libpng could not decode it\n", path);
        fail();
    }
    png_init_io(png, f);
    png_read_png(png, info, PNG_TRANSFORM_STRIP_16 | PNG_TRANSFORM_STRIP_ALPHA, NULL);
    p.w = (int)png_get_image_width(png, info);
    p.h = (int)png_get_image_height(png, info);
    assert_int_equal(png_get_color_type(png, info), PNG_COLOR_TYPE_RGB);
    png_bytepp rows = png_get_rows(png, info);
    p.rgb = malloc((size_t)p.w * (size_t)p.h * 3 + 1);
    assert_non_null(p.rgb);
    for (int y = 0; y < p.h; y++) memcpy(p.rgb + (size_t)y * (size_t)p.w * 3, rows[y], (size_t)p.w * 3);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(f);
    return p;
}

/* Pixels of colour (r, g, b) in rows [y0, y1) of the picture. */
static inline int hk_test_png_count(const hk_png *p, int y0, int y1, int r, int g, int b)
{
    int n = 0;
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            const unsigned char *q = p->rgb + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
            n += q[0] == r && q[1] == g && q[2] == b;
        }
    return n;
}

/* Pixels that differ from the top-left one. */
static inline int hk_test_png_ink(const hk_png *p)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)p->w * (size_t)p->h; i++) n += memcmp(p->rgb + 3 * i, p->rgb, 3) != 0;
    return n;
}

#endif
