/* whole_frames.h — frames that need the whole world (obj, png, blender) of a world shared out over MPI ranks. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_WHOLE_FRAMES_H
#define HOOKE_WHOLE_FRAMES_H

#include "frames.h"
#include "scene.h"

/* The OBJ, PNG and Blender frames draw or list every particle at once, so a world shared out over ranks writes
 * them from the whole state on rank 0: rank 0 keeps a copy of the world built whole from the scene (its
 * memory is one process's), and before each frame every rank sends it the positions, velocities, forces and
 * broken springs of the particles it computes, one piece at a time (part.h hk_part_funnel: no message larger
 * than one rank's share), so the files are the bytes one process writes. (VTK frames are written in pieces,
 * each rank its own: vtk_piece.h.) */
typedef struct hk_whole_frames {
    hk_scene sc;       /* rank 0's copy of the world */
    hk_frames *frames; /* rank 0's series */
} hk_whole_frames;

/* Rank 0 builds the copy of scene (with base, the environment's tuning) and opens the series of the formats in
 * mask in dir for a run from step first; every rank calls it. 0, or -1 with the message in err (rank 0's; every
 * rank's verdict). */
int hk_whole_frames_open(hk_whole_frames *wf, const char *scene, const hk_world_def *base, const char *dir, int mask,
                         int64_t first, const hk_camera *camera, char *err, size_t errlen);
/* The frame of w's current step: its state brought to rank 0's copy, which rank 0 writes. Every rank calls it. 0,
 * or -1 with the message in err (every rank's verdict). */
int hk_whole_frames_write(hk_whole_frames *wf, const hk_world *w, char *err, size_t errlen);
void hk_whole_frames_close(hk_whole_frames *wf);

/* What a copy of w built from the same scene takes from it before a frame, besides the particles' state and the
 * broken springs: the step, the time, the spheres, the driven anchors. */
void hk_copy_held_alike(hk_world *copy, const hk_world *w);

#endif
