/* frames.h — the frames written by `hooke run --out DIR --format LIST`, and the table of frame formats. */
#ifndef HOOKE_FRAMES_H
#define HOOKE_FRAMES_H

#include <stddef.h>

#include "geometry.h"
#include "hooke/hooke.h"

/* One format's frames of one run: where they go and what its writer keeps
 * from frame to frame (a collection, a camera): state starts NULL, and
 * free_state, when the writer sets it, releases it with the series. */
typedef struct hk_frame_series {
    const char *dir;
    void *state;
    void (*free_state)(void *state);
    const char *failed; /* set by a writer that failed on a file other than its frame's */
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

/* The formats, in table order; NULL past the last. */
const hk_frame_format *hk_frame_format_at(int i);

typedef struct hk_frames hk_frames;

/* Parses a comma-separated list of format names into a mask (bit i: format
 * i of the table); -1 on an unknown or empty name. */
int hk_frames_parse_formats(const char *list);
/* "vtk, obj, png, blender", for messages. */
const char *hk_frames_format_names(void);

/* Creates DIR if needed. NULL with a message in err on failure. */
hk_frames *hk_frames_open(const char *dir, int formats, char *err, size_t errlen);
/* Writes the frame of every chosen format for the world's current step
 * (DIR/frame_<step>.<extension>, or the series' own files). 0, or -1 with
 * a message in err. */
int hk_frames_write(hk_frames *fr, const hk_world *w, char *err, size_t errlen);
void hk_frames_close(hk_frames *fr);

#endif
