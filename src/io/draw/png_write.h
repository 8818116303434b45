/* png_write.h — a cairo RGB24 image written as an 8-bit RGB PNG with zlib: quick to write, the same bytes each time. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PNG_WRITE_H
#define HOOKE_PNG_WRITE_H

#include <cairo.h>
#include <stdio.h>

/* Writes the image surface s (CAIRO_FORMAT_RGB24, flushed) to f as a PNG:
 * 8-bit RGB, not interlaced, the first row filtered by its left neighbour
 * (PNG filter 1, Sub), every other by the row above (filter 2, Up), and the
 * rows deflated as one zlib stream in run-length mode at memory level 6 (a
 * frame's flat background and shading are runs; the level's smaller symbol
 * buffer costs fewer instructions than the default's), in IDAT chunks of
 * at most 64 KiB. The same pixels give the same bytes. 0, or -1 with errno
 * set (EINVAL: not an RGB24 image; ENOMEM; EIO: f failed). */
int hk_png_write(FILE *f, cairo_surface_t *s);

#endif
