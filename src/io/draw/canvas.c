/* canvas.c — cairo surfaces for PNG (in memory, png_write.c), SVG and PDF (streamed), written through outfile.c; text
 * by role. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "canvas.h"

#include "outfile.h"
#include "png_write.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <fontconfig/fontconfig.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The font of every text: DejaVu Sans has the signs the labels use (x, superscripts, subscripts, omega). */
static const char font_family[] = "DejaVu Sans";

static const struct {
    double size; /* [px] */
    int bold;
} roles[HK_TEXT_ROLE_COUNT] = {
    [HK_TEXT_TITLE] = {17, 1}, [HK_TEXT_SUBTITLE] = {12, 0}, [HK_TEXT_AXIS_TITLE] = {12.5, 1},
    [HK_TEXT_TICK] = {11, 0},  [HK_TEXT_LEGEND] = {11.5, 0}, [HK_TEXT_CAPTION] = {13, 0},
    [HK_TEXT_NOTE] = {11, 0},
};

static hk_text_hook text_hook;
static void *text_hook_ctx;

void hk_canvas_set_text_hook(hk_text_hook fn, void *ctx)
{
    text_hook = fn;
    text_hook_ctx = ctx;
}

int hk_canvas_kind_of(const char *path)
{
    static const char *const ext[] = {[HK_CANVAS_PNG] = ".png", [HK_CANVAS_SVG] = ".svg", [HK_CANVAS_PDF] = ".pdf"};
    const size_t n = strlen(path);
    for (int k = 0; k < 3; k++)
        if (n > 4 && strcasecmp(path + n - 4, ext[k]) == 0) return k;
    return -1;
}

void hk_canvas_release_fonts(void)
{
    cairo_debug_reset_static_data();
    FcFini();
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, ((hk_outfile *)closure)->f) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

/* errno for a cairo status (out of memory, or an I/O error). */
static int status_errno(cairo_status_t st) { return st == CAIRO_STATUS_NO_MEMORY ? ENOMEM : EIO; }

int hk_canvas_open(hk_canvas *c, const char *path, hk_canvas_kind kind, int w, int h, hk_rgb bg)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->w = w;
    c->h = h;
    hk_outfile *o = NULL;
    if (path || kind != HK_CANVAS_PNG) { /* a PNG canvas without a path stays in memory (hk_canvas_rgb) */
        o = calloc(1, sizeof *o);
        if (!o) return -1;
        if (!hk_out_open(o, path, "wb")) {
            free(o);
            return -1;
        }
        c->out = o;
    }
    if (kind == HK_CANVAS_PNG)
        c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    else if (kind == HK_CANVAS_SVG)
        c->surface = cairo_svg_surface_create_for_stream(write_stream, o, w, h);
    else
        c->surface = cairo_pdf_surface_create_for_stream(write_stream, o, w, h);
    c->cr = cairo_create(c->surface);
    const cairo_status_t st = cairo_status(c->cr);
    if (st != CAIRO_STATUS_SUCCESS) {
        errno = status_errno(st);
        hk_canvas_close(c, 0);
        errno = status_errno(st);
        return -1;
    }
    if (kind == HK_CANVAS_PDF) cairo_pdf_surface_set_metadata(c->surface, CAIRO_PDF_METADATA_CREATOR, "hooke");
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF); /* the same layout in every kind */
    cairo_set_font_options(c->cr, fo);
    cairo_font_options_destroy(fo);
    hk_canvas_colour(c, bg, 1);
    cairo_paint(c->cr);
    return 0;
}

int hk_canvas_close(hk_canvas *c, int ok)
{
    const int wanted = ok;
    int err = 0;
    cairo_status_t st = c->cr ? cairo_status(c->cr) : CAIRO_STATUS_SUCCESS;
    if (c->cr) cairo_destroy(c->cr);
    if (ok && st == CAIRO_STATUS_SUCCESS && c->kind == HK_CANVAS_PNG && c->out) {
        cairo_surface_flush(c->surface);
        if (hk_png_write(((hk_outfile *)c->out)->f, c->surface) != 0) {
            ok = 0;
            err = errno;
        }
    }
    if (c->surface) {
        cairo_surface_finish(c->surface); /* the vector kinds write their end here */
        if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(c->surface);
        cairo_surface_destroy(c->surface);
    }
    if (st != CAIRO_STATUS_SUCCESS) {
        ok = 0;
        err = status_errno(st);
    }
    int rc = 0;
    if (c->out) {
        if (err) errno = err;
        rc = hk_out_close(c->out, ok);
        free(c->out);
    }
    memset(c, 0, sizeof *c);
    if (wanted && (!ok || rc != 0)) {
        if (err && rc == 0) errno = err;
        return -1;
    }
    return 0;
}

void hk_canvas_rgb(hk_canvas *c, uint8_t *rgb)
{
    cairo_surface_flush(c->surface);
    const unsigned char *data = cairo_image_surface_get_data(c->surface);
    const int stride = cairo_image_surface_get_stride(c->surface);
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            uint32_t px;
            memcpy(&px, data + (size_t)y * (size_t)stride + 4 * (size_t)x, 4); /* RGB24: xRGB in a native word */
            uint8_t *o = rgb + 3 * ((size_t)y * (size_t)c->w + (size_t)x);
            o[0] = (uint8_t)(px >> 16), o[1] = (uint8_t)(px >> 8), o[2] = (uint8_t)px;
        }
}

void hk_canvas_colour(const hk_canvas *c, hk_rgb rgb, double alpha)
{
    cairo_set_source_rgba(c->cr, rgb.r / 255.0, rgb.g / 255.0, rgb.b / 255.0, alpha);
}

static void select_font(hk_canvas *c, hk_text_role role)
{
    cairo_select_font_face(c->cr, font_family, CAIRO_FONT_SLANT_NORMAL,
                           roles[role].bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(c->cr, roles[role].size);
}

double hk_canvas_text_width(hk_canvas *c, hk_text_role role, const char *text)
{
    cairo_text_extents_t te;
    select_font(c, role);
    cairo_text_extents(c->cr, text, &te);
    return te.x_advance;
}

double hk_canvas_text_height(hk_canvas *c, hk_text_role role)
{
    cairo_font_extents_t fe;
    select_font(c, role);
    cairo_font_extents(c->cr, &fe);
    return fe.ascent + fe.descent;
}

void hk_canvas_text(hk_canvas *c, double x, double y, double ax, double ay, hk_text_role role, hk_rgb colour,
                    const char *text)
{
    if (text_hook) text_hook(text_hook_ctx, role, text);
    cairo_font_extents_t fe;
    cairo_text_extents_t te;
    select_font(c, role);
    cairo_font_extents(c->cr, &fe);
    cairo_text_extents(c->cr, text, &te);
    hk_canvas_colour(c, colour, 1);
    cairo_move_to(c->cr, x - ax * te.x_advance, y + fe.ascent - ay * (fe.ascent + fe.descent));
    cairo_show_text(c->cr, text);
    cairo_new_path(c->cr);
}
