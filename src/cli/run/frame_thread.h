/* frame_thread.h — a device run's frames, written by a thread of their own from a copy of the state. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRAME_THREAD_H
#define HOOKE_FRAME_THREAD_H

#include "frames.h"
#include "scene.h"

/* Where a world steps on a device, the host's cores are free while it steps: a frame's state is copied (the check
 * before it has brought it back) into a second world built from the same scene, and a thread of its own writes the
 * frame from there while the device takes the next steps. The files are the bytes written in line: the same state,
 * the same writer. The next frame waits for the one before to be written; the run's end waits for the last. */
typedef struct hk_frame_thread hk_frame_thread;

/* A writer of frames into `frames` (which it then owns, closing it) for the world of `scene` built with base, its
 * writing on `threads` - 1 OpenMP threads (one core left to the thread that drives the device): NULL with the
 * message in err where it cannot be made (the caller then writes in line). */
hk_frame_thread *hk_frame_thread_open(hk_frames *frames, const char *scene, const hk_world_def *base, int threads,
                                      char *err, size_t errlen);
/* Hands w's state at its current step to the writer, once the frame before is written: 0, or -1 with the message
 * of the frame before's failure in err (this one is not taken). */
int hk_frame_thread_put(hk_frame_thread *fw, const hk_world *w, char *err, size_t errlen);
/* Waits until the frame in hand is written: 0, or -1 with its message in err. *written (may be NULL): the step of
 * the last frame written, or -1. */
int hk_frame_thread_wait(hk_frame_thread *fw, int64_t *written, char *err, size_t errlen);
/* Waits for the frame in hand, ends the thread, closes the frames and frees the copy. */
void hk_frame_thread_close(hk_frame_thread *fw);

#endif
