/* raster.c — RGB canvas with depth: Bresenham-style lines, barycentric triangles, a 5x7 font, libpng output. */
#include "raster.h"

#include "outfile.h"

#include <ctype.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hk_image_init(hk_image *im, int w, int h, hk_rgb bg)
{
    im->w = w;
    im->h = h;
    im->rgb = malloc((size_t)w * (size_t)h * 3);
    im->depth = malloc((size_t)w * (size_t)h * sizeof(float));
    if (!im->rgb || !im->depth) {
        hk_image_free(im);
        return -1;
    }
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++) {
        im->rgb[3 * i] = bg.r;
        im->rgb[3 * i + 1] = bg.g;
        im->rgb[3 * i + 2] = bg.b;
        im->depth[i] = INFINITY;
    }
    return 0;
}

void hk_image_free(hk_image *im)
{
    free(im->rgb);
    free(im->depth);
    im->rgb = NULL;
    im->depth = NULL;
}

void hk_image_plot(hk_image *im, int x, int y, float z, hk_rgb c)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h) return;
    size_t i = (size_t)y * (size_t)im->w + (size_t)x;
    if (!(z <= im->depth[i])) return;
    im->depth[i] = z;
    im->rgb[3 * i] = c.r;
    im->rgb[3 * i + 1] = c.g;
    im->rgb[3 * i + 2] = c.b;
}

void hk_image_line(hk_image *im, double x0, double y0, double z0, double x1, double y1, double z1, hk_rgb c, int width)
{
    if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) return;
    double dx = x1 - x0, dy = y1 - y0;
    double n = ceil(fmax(fabs(dx), fabs(dy)));
    if (n > 4.0 * (im->w + im->h)) return; /* far off the canvas */
    if (n < 1) n = 1;
    for (int s = 0; s <= (int)n; s++) {
        double t = s / n;
        int x = (int)lround(x0 + t * dx), y = (int)lround(y0 + t * dy);
        float z = (float)(z0 + t * (z1 - z0));
        hk_image_plot(im, x, y, z, c);
        if (width > 1) {
            hk_image_plot(im, x + 1, y, z, c);
            hk_image_plot(im, x, y + 1, z, c);
        }
    }
}

void hk_image_triangle(hk_image *im, const double x[3], const double y[3], const double z[3], hk_rgb c)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(x[k]) || !isfinite(y[k]) || !isfinite(z[k])) return;
    double area = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
    if (fabs(area) < 1e-12) return;
    int xmin = (int)floor(fmin(x[0], fmin(x[1], x[2]))), xmax = (int)ceil(fmax(x[0], fmax(x[1], x[2])));
    int ymin = (int)floor(fmin(y[0], fmin(y[1], y[2]))), ymax = (int)ceil(fmax(y[0], fmax(y[1], y[2])));
    if (xmin < 0) xmin = 0;
    if (ymin < 0) ymin = 0;
    if (xmax >= im->w) xmax = im->w - 1;
    if (ymax >= im->h) ymax = im->h - 1;
    for (int py = ymin; py <= ymax; py++)
        for (int px = xmin; px <= xmax; px++) {
            double cx = px + 0.5, cy = py + 0.5;
            double w0 = ((x[1] - cx) * (y[2] - cy) - (x[2] - cx) * (y[1] - cy)) / area;
            double w1 = ((x[2] - cx) * (y[0] - cy) - (x[0] - cx) * (y[2] - cy)) / area;
            double w2 = 1 - w0 - w1;
            if (w0 < 0 || w1 < 0 || w2 < 0) continue;
            hk_image_plot(im, px, py, (float)(w0 * z[0] + w1 * z[1] + w2 * z[2]), c);
        }
}

typedef struct glyph {
    char ch;
    uint8_t rows[7];
} glyph;

static const glyph font[] = {
    {' ', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}}, {'(', {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}},
    {')', {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}}, {'+', {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}},
    {',', {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}}, {'-', {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}},
    {'.', {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}}, {'/', {0x01, 0x02, 0x02, 0x04, 0x08, 0x08, 0x10}},
    {'0', {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}}, {'1', {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}},
    {'2', {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}}, {'3', {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}},
    {'4', {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}}, {'5', {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}},
    {'6', {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}}, {'7', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}}, {'9', {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}},
    {':', {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}}, {'=', {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}},
    {'A', {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}}, {'B', {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}},
    {'C', {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}}, {'D', {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c}},
    {'E', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}}, {'F', {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}},
    {'G', {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}}, {'H', {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}},
    {'I', {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}}, {'J', {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}},
    {'K', {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}}, {'L', {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}},
    {'M', {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}}, {'N', {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}},
    {'O', {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}}, {'P', {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}},
    {'Q', {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}}, {'R', {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}},
    {'S', {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}}, {'T', {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}},
    {'U', {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}}, {'V', {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}},
    {'W', {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}}, {'X', {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}},
    {'Y', {0x11, 0x11, 0x11, 0x0a, 0x04, 0x04, 0x04}}, {'Z', {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}},
    {'_', {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f}},
};

static const glyph *find_glyph(char ch)
{
    ch = (char)toupper((unsigned char)ch);
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].ch == ch) return &font[i];
    return NULL;
}

int hk_image_text_width(const char *s, int scale) { return (int)strlen(s) * 6 * scale; }

void hk_image_text(hk_image *im, int x, int y, const char *s, hk_rgb c, int scale)
{
    for (; *s; s++, x += 6 * scale) {
        const glyph *g = find_glyph(*s);
        if (!g) continue;
        for (int r = 0; r < 7; r++)
            for (int col = 0; col < 5; col++)
                if (g->rows[r] & (0x10 >> col))
                    for (int a = 0; a < scale; a++)
                        for (int b = 0; b < scale; b++)
                            hk_image_plot(im, x + col * scale + a, y + r * scale + b, -INFINITY, c);
    }
}

int hk_image_write_png(const hk_image *im, const char *path)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        hk_out_close(&o, 0);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)im->w, (png_uint_32)im->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < im->h; y++) png_write_row(png, im->rgb + (size_t)y * (size_t)im->w * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return hk_out_close(&o, 1);
}
