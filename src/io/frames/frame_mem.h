/* frame_mem.h — a frame's large buffers, kept for the next frame so that writing it does not fault their pages in. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRAME_MEM_H
#define HOOKE_FRAME_MEM_H

#include <stddef.h>

/*
 * A frame's arrays (its geometry, the interleaved copies, each compressed block's scratch and result) are as large
 * as the world's state, and the C library maps a fresh block of that size for every allocation and returns it to
 * the system when it is freed: every frame faulted each page in again, which cost more than compressing it (a
 * cloth_512 frame: docs/performance-notes.md, "Compressed VTK frames"). While a series of frames is open
 * (hk_frame_mem_hold), buffers of HK_FRAME_MEM_MIN bytes or more freed here wait for the next request they fit (at
 * most twice its size); the last series' close (hk_frame_mem_release) gives them back, and with none open they are
 * freed at once. Thread-safe: the frames' writer thread and the run's own use it alike.
 */
#define HK_FRAME_MEM_MIN ((size_t)1 << 20) /* [bytes] smaller buffers come and go through malloc */
#define HK_FRAME_MEM_SLOTS 32              /* buffers kept at most */

/* A buffer of at least `bytes` bytes (uninitialised), or NULL when out of memory. */
void *hk_frame_alloc(size_t bytes);
/* n x size bytes, zeroed, or NULL (out of memory, or n x size overflows). */
void *hk_frame_calloc(size_t n, size_t size);
/* p (from hk_frame_alloc or hk_frame_calloc, or NULL) kept for a later request, or freed. */
void hk_frame_free(void *p);
/* A series of frames opens: buffers freed from now on are kept, until the matching release. */
void hk_frame_mem_hold(void);
/* A series closes: the last one open gives every kept buffer back. */
void hk_frame_mem_release(void);
/* Every kept buffer freed (the series open keep the later ones). */
void hk_frame_mem_trim(void);
/* The buffers kept now, and their bytes into *bytes (may be NULL). */
int hk_frame_mem_kept(size_t *bytes);

#endif
