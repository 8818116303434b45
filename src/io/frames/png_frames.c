/* png_frames.c — the png frame format: a picture per frame (render.c) with the camera of --camera and the run's
 * colour range, continued from DIR/frames_png.csv after a restart. */
/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_format.h"
#include "render.h"
#include "view.h"

/* The series of a run's PNG frames: its view, fitted at the first frame (or continued from the index an earlier
 * run left in the folder, after a restart), and the index, open for appending. */
typedef struct png_series {
    hk_view view;
    FILE *index;
    char path[4200]; /* DIR/frames_png.csv */
} png_series;

static void series_free(void *state)
{
    png_series *ps = state;
    if (ps && ps->index) fclose(ps->index);
    free(ps);
}

static int write_png(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    png_series *ps = s->state;
    if (!ps) {
        if (!(ps = calloc(1, sizeof *ps))) return -1;
        s->state = ps;
        s->free_state = series_free;
        snprintf(ps->path, sizeof ps->path, "%s/%s", s->dir, HK_VIEW_INDEX);
        char *kept = NULL;
        if (!hk_view_continue(ps->path, s->first, &ps->view, &kept) && hk_render_fit(&ps->view, w, g, 1) != 0) {
            errno = ENOMEM;
            return -1;
        }
        ps->index = hk_view_index_open(ps->path, kept);
        free(kept);
    }
    if (!ps->index) {
        s->failed = ps->path;
        return -1;
    }
    if (s->camera.kind == HK_CAMERA_BOX) {
        hk_view_box(&ps->view, &s->camera);
    } else if (s->camera.kind == HK_CAMERA_FOLLOW) { /* this frame's bodies, the run's colour range */
        hk_view here;
        if (hk_render_fit(&here, w, g, 0) != 0) {
            errno = ENOMEM;
            return -1;
        }
        memcpy(ps->view.lo, here.lo, sizeof here.lo);
        memcpy(ps->view.hi, here.hi, sizeof here.hi);
        ps->view.grid = here.grid;
        ps->view.fixed = 1;
    }
    if (hk_render_png(path, w, g, &ps->view, 640, 480, NULL) != 0) return -1;
    if (hk_view_index_row(ps->index, hk_world_step_count(w), hk_world_time(w), &ps->view) != 0) {
        s->failed = ps->path;
        return -1;
    }
    return 0;
}

const hk_frame_format hk_frame_format_png = {
    "png", "png", "pictures, 640 x 480, one colour range a run, the camera of --camera (index: " HK_VIEW_INDEX ")",
    write_png};
