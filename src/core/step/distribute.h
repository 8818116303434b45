/* distribute.h — a world shared out over the ranks of a run: the cut, made once from the engine's plans. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DISTRIBUTE_H
#define HOOKE_DISTRIBUTE_H

#include "part.h"

/* Shares w out over `ranks` processes as this process, rank `rank`, and
 * keeps the shares on w (w->part; a share made before is replaced). The
 * world must be complete (bodies, springs, integrator) and is prepared for
 * the engine here. Every rank must call it with the same world. 0, or -1
 * with hk_world_error set (out of memory, or a world the engine cannot
 * plan). */
int hk_world_distribute(hk_world *w, int rank, int ranks, const hk_part_ops *ops, void *ctx);

#endif
