/* frame_format.h — what a frame format is: the row each writer defines, and the series it writes into. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRAME_FORMAT_H
#define HOOKE_FRAME_FORMAT_H

#include "geometry.h"
#include "hooke/hooke.h"
#include "view.h"

/* One format's frames of one run: where they go and what its writer keeps
 * from frame to frame (a collection, a camera): state starts NULL, and
 * free_state, when the writer sets it, releases it with the series. */
typedef struct hk_frame_series {
    const char *dir;
    int64_t first; /* the run's first step: frames before it are the run's before a restart, kept from DIR */
    void *state;
    void (*free_state)(void *state);
    const char *failed; /* set by a writer that failed on a file other than its frame's */
    hk_camera camera;   /* the PNG frames' camera (render.c); run unless set */
} hk_frame_series;

/* A frame format: its name in --format, the extension of its frame files
 * (DIR/frame_<step>.<extension>; NULL for a format that keeps one set of
 * files for the whole series in DIR, whose writer then gets path NULL and
 * names its files itself, setting `failed` when one cannot be written), a
 * line for --help, and the writer of one frame at path; 0, or -1 with errno
 * set. Each writer defines its row (vtk.c, obj_out.c, render.c, blender.c)
 * and frames.c lists them. */
typedef struct hk_frame_format {
    const char *name;
    const char *extension;
    const char *description;
    int (*write)(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g);
} hk_frame_format;

#endif
