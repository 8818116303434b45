/* frames.h — the time series of frames written by `hooke run --out DIR --format LIST`. */
#ifndef HOOKE_FRAMES_H
#define HOOKE_FRAMES_H

#include <stddef.h>

#include "hooke/hooke.h"

enum { HK_FRAME_VTK = 1, HK_FRAME_OBJ = 2, HK_FRAME_PNG = 4 };

typedef struct hk_frames hk_frames;

/* Parses a comma-separated list of vtk, obj, png into a mask; -1 on an unknown word. */
int hk_frames_parse_formats(const char *list);

/* Creates DIR if needed. NULL with a message in err on failure. */
hk_frames *hk_frames_open(const char *dir, int formats, char *err, size_t errlen);
/* Writes DIR/frame_<step>.vtp/.obj/.png for the world's current step and
 * rewrites DIR/frames.pvd (VTK), so an interrupted run still opens. When the
 * first frame written is past step 0 (a restart), the collection first lists
 * the frame_<step>.vtp already in DIR from earlier steps, times read from
 * their TimeValue, so frames.pvd covers the whole run. 0 or -1. */
int hk_frames_write(hk_frames *fr, const hk_world *w, char *err, size_t errlen);
int hk_frames_count(const hk_frames *fr);
void hk_frames_close(hk_frames *fr);

#endif
