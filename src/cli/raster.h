/* raster.h — a small RGB canvas with a depth buffer: lines, triangles, a 5x7 font, PNG output (libpng). */
#ifndef HOOKE_RASTER_H
#define HOOKE_RASTER_H

#include <stdint.h>

typedef struct hk_rgb {
    uint8_t r, g, b;
} hk_rgb;

typedef struct hk_image {
    int w, h;
    uint8_t *rgb; /* w * h * 3, row 0 at the top */
    float *depth; /* w * h; smaller is nearer */
} hk_image;

/* 0 or -1 (out of memory); every pixel bg, depth +inf. */
int hk_image_init(hk_image *im, int w, int h, hk_rgb bg);
void hk_image_free(hk_image *im);
/* Pixel (x, y) if inside and nearer than what is there. */
void hk_image_plot(hk_image *im, int x, int y, float z, hk_rgb c);
/* Line from (x0, y0, z0) to (x1, y1, z1), depth interpolated; width 1 or 2 px. */
void hk_image_line(hk_image *im, double x0, double y0, double z0, double x1, double y1, double z1, hk_rgb c, int width);
/* Filled triangle with interpolated depth. */
void hk_image_triangle(hk_image *im, const double x[3], const double y[3], const double z[3], hk_rgb c);
/* Text in a 5x7 font (digits, letters, ". - + ( ) / = , : _ e"), scale x pixels per dot, top-left at (x, y). */
void hk_image_text(hk_image *im, int x, int y, const char *s, hk_rgb c, int scale);
/* Width in pixels of s at scale. */
int hk_image_text_width(const char *s, int scale);
/* Writes an 8-bit RGB PNG; 0 or -1. */
int hk_image_write_png(const hk_image *im, const char *path);

#endif
