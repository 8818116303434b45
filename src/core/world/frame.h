/* frame.h — a particle's place in world coordinates from its body's frame, and back: the one formula of each. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FRAME_H
#define HOOKE_FRAME_H

#include "hd.h"
#include "hooke/hooke.h"

/* One coordinate of particle i of a body with origin o (world.h): its place
 * relative to the origin, r + q in double; its world coordinate o + (r + q);
 * and the displacement q that puts it at world coordinate x, (x - o) - r in
 * double (the caller rounds it to hk_real once). */
static inline HK_HD double hk_frame_local(hk_real r, hk_real q) { return (double)r + (double)q; }
static inline HK_HD double hk_frame_world(double o, hk_real r, hk_real q) { return o + hk_frame_local(r, q); }
static inline HK_HD double hk_frame_disp(double x, double o, hk_real r) { return x - o - r; }

#endif
