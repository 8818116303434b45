/* frames.h — the frames written by `hooke run --out DIR --format LIST`, and the table of frame formats. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRAMES_H
#define HOOKE_FRAMES_H

#include <stddef.h>

#include "frame_format.h"
#include "hooke/hooke.h"

/* The formats, in table order; NULL past the last. */
const hk_frame_format *hk_frame_format_at(int i);

typedef struct hk_frames hk_frames;

/* Parses a comma-separated list of format names into a mask (bit i: format
 * i of the table); -1 on an unknown or empty name. */
int hk_frames_parse_formats(const char *list);
/* "vtk, obj, png, blender", for messages. */
const char *hk_frames_format_names(void);

/* Creates DIR if needed, for a run from step first_step (-1: the step of
 * the first frame written). A run from a step > 0 (a restart) continues
 * the frames in DIR: those of earlier steps are kept, and its first write
 * removes the frame files of its formats at first_step and after (the
 * interrupted run's, an uninterrupted run would not all have written) and
 * keeps the series' indices below first_step. NULL with a message in err
 * on failure. */
hk_frames *hk_frames_open(const char *dir, int formats, int64_t first_step, char *err, size_t errlen);
/* The camera of the PNG frames from now on (view.h; default: run). */
void hk_frames_set_camera(hk_frames *fr, const hk_camera *camera);
/* Writes the frame of every chosen format for the world's current step
 * (DIR/frame_<step>.<extension>, or the series' own files). 0, or -1 with
 * a message in err. */
int hk_frames_write(hk_frames *fr, const hk_world *w, char *err, size_t errlen);
void hk_frames_close(hk_frames *fr);

#endif
