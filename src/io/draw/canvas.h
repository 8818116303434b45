/* canvas.h — a cairo drawing surface written whole as PNG, SVG or PDF, and the one way text is drawn on it. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CANVAS_H
#define HOOKE_CANVAS_H

#include <cairo.h>
#include <stdint.h>

typedef struct hk_rgb {
    uint8_t r, g, b;
} hk_rgb;

typedef enum hk_canvas_kind { HK_CANVAS_PNG, HK_CANVAS_SVG, HK_CANVAS_PDF } hk_canvas_kind;

/* The kind a file name asks for by its extension, .png, .svg or .pdf in
 * any case; -1 for any other name. */
int hk_canvas_kind_of(const char *path);

/* A picture w x h units (pixels in PNG, points in SVG and PDF), drawn with
 * cairo on cr. */
typedef struct hk_canvas {
    cairo_t *cr;
    cairo_surface_t *surface;
    hk_canvas_kind kind;
    int w, h;
    void *out; /* the vector kinds' output file, open while they draw */
} hk_canvas;

/* A canvas of the kind for path, filled with bg. PNG draws in memory (RGB,
 * no alpha) and writes at hk_canvas_close (png_write.h; path NULL: no file, hk_canvas_rgb reads the pixels); SVG
 * and PDF write to path.tmp as they draw. 0, or -1 with errno set (path.tmp cannot be created, out of
 * memory). */
int hk_canvas_open(hk_canvas *c, const char *path, hk_canvas_kind kind, int w, int h, hk_rgb bg);
/* ok = 1: finishes the file and renames it over path (outfile.h); ok = 0:
 * drops it. Frees the canvas either way. 0, or -1 with errno set (nothing
 * is then left at path.tmp, and path is unchanged). */
int hk_canvas_close(hk_canvas *c, int ok);
/* The pixels of a PNG canvas (path NULL at hk_canvas_open: kept in memory) as 8-bit R, G, B, row by row from the
 * top: w * h * 3 bytes into rgb. */
void hk_canvas_rgb(hk_canvas *c, uint8_t *rgb);

void hk_canvas_colour(const hk_canvas *c, hk_rgb rgb, double alpha);

/* What a piece of text is; the role sets its size and weight (canvas.c
 * `roles`), and a text hook sees it. */
typedef enum hk_text_role {
    HK_TEXT_TITLE,      /* a picture's title */
    HK_TEXT_SUBTITLE,   /* a line under it */
    HK_TEXT_AXIS_TITLE, /* what an axis or a panel shows, with its unit */
    HK_TEXT_TICK,       /* a tick label */
    HK_TEXT_LEGEND,     /* a legend entry */
    HK_TEXT_CAPTION,    /* a frame's caption, a colour bar's title */
    HK_TEXT_NOTE,       /* a small remark (a frame's ground grid spacing) */
    HK_TEXT_ROLE_COUNT,
} hk_text_role;

/* Draws UTF-8 text with its anchor at (x, y): ax 0 left, 0.5 centre, 1
 * right of the text's advance; ay 0 top, 0.5 middle, 1 bottom of the
 * font's line (ascent + descent), so texts of one role share a baseline. */
void hk_canvas_text(hk_canvas *c, double x, double y, double ax, double ay, hk_text_role role, hk_rgb colour,
                    const char *text);
/* The advance width of text in role's font. */
double hk_canvas_text_width(hk_canvas *c, hk_text_role role, const char *text);
/* The height of role's line (ascent + descent). */
double hk_canvas_text_height(hk_canvas *c, hk_text_role role);

/* Every text hk_canvas_text draws, from now on, is also passed to fn (NULL:
 * none), in drawing order: what the pictures say, for tests. Process-wide;
 * set it while no other thread draws. */
typedef void (*hk_text_hook)(void *ctx, hk_text_role role, const char *text);
void hk_canvas_set_text_hook(hk_text_hook fn, void *ctx);
/* Cairo's font caches and fontconfig's configuration released, so that a leak checker finds nothing left of
 * them: for a program at its very end, when nothing in the process draws any more. The library never calls
 * it (a host may still be drawing with cairo and fontconfig). */
void hk_canvas_release_fonts(void);

#endif
