/* sweep.h — the lattice sweep: rows of a rope, cloth or jelly in blocks per thread, the same bits for any team. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SWEEP_H
#define HOOKE_SWEEP_H

#include "kernels.h"
#include "team.h"

/*
 * How the work is split, and why the result is the same bits for any number
 * of threads:
 *
 * A lattice body is a sequence of rows (a row is the nx nodes with the same
 * (j, k)). Every stencil family points forward in memory, so a spring whose
 * source node is in row r ends in row r + dr with 0 <= dr <= maxdr. A
 * thread owns a block of rows [a, b) and sweeps source rows from a - maxdr
 * ("halo": recomputed, also done by the previous thread) to b - 1, keeping
 * the force sums of rows r .. r + maxdr in a small ring:
 *
 *     source row r:   ring[r]       += F(r -> r + dr)   for every family
 *                     ring[r + dr]  -= F(r -> r + dr)
 *     after row r:    ring[r] is final (every spring into row r starts in
 *                     rows r - maxdr .. r) -> finish row r, reuse its slot
 *                     for row r + maxdr + 1: row r + 1 writes it first,
 *                     without reading it where the kernel can (kernels.h,
 *                     fresh), otherwise it is zeroed just before
 *
 *          rows:  a-maxdr ... a-1 | a ... a+maxdr-1 ... b-maxdr ... b-1 |
 *                 halo (discard)  | deferred  ...  in place  ... deferred |
 *
 * Every sum into one node is taken in the same order (by source row, then
 * family) whichever thread computes it, and the spring arithmetic is exact
 * IEEE (simd.h), so the bits do not depend on the partition. In a fused
 * substep "finish" integrates the row in place; the first and last maxdr
 * rows of a block are read by the neighbouring threads, so their finished
 * sums are parked and integrated after a barrier.
 *
 * The rows of a body fall into row classes (the rows whose sources have the
 * same families: interior rows, and those near a face); the kernel plans
 * each class's passes once per sweep (kernels.h, plan_row).
 */

/* What the engine knows of one body: its lattice sweep's geometry and row
 * classes, and whether list springs and surface forces follow. */
typedef struct hk_sweep_plan {
    int body;
    int64_t base; /* global index of node (0,0,0) */
    int nx, ny, nrows;
    int nx_pad;    /* nx padded to HK_ROW_VEC */
    int stride;    /* accumulator row stride: nx_pad plus a margin each side */
    int same_rows; /* families with dr == 0 (each needs a row buffer) */
    int maxdr, R;  /* largest row distance of a family; ring rows */
    int *fam;      /* lattice families of the body */
    int *dr;       /* their row distances */
    int nfam;
    /* Row classes: the rows whose sources have the same families. A row
     * (j, k) is in class cls[jcls[j] * nkcls + kcls[k]]; class c has
     * cls_n[c] families, the indices (into fam) cls_q[c * nfam ...]. */
    int *jcls, *kcls, nkcls;
    int *cls, ncls, *cls_n, *cls_q;
    int has_list;               /* the body also has list families */
    const hk_family **list_fam; /* they, in family order */
    int nlist;
    int serial_lists; /* its list springs are few: run them on one thread */
    int surface;      /* its active surface (pressure, wind), or -1 */
    int solo;         /* small, no surface: computed whole by one thread (engine.c) */
    int64_t work;     /* its particles and springs: the share of a solo body */
    /* A distributed run (dist/part.h): split = 1 when this rank sweeps only
     * the rows [lo, hi) of the body, a slab whose halo rows come from the
     * ranks around it (hk_sweep_run), or for a one-row body its nodes [lo,
     * hi); otherwise lo = 0, hi = nrows. */
    int split, lo, hi;
} hk_sweep_plan;

/* Plans body `body` of w, whose families are fams[0 .. nfam) (ascending),
 * into *sp; 0 or -1 (out of memory). */
int hk_sweep_plan_body(const hk_world *w, int body, const int *fams, int nfam, hk_sweep_plan *sp);
void hk_sweep_plan_free(hk_sweep_plan *sp);
/* Entries of work space one thread needs to sweep sp (hk_sweep_run). */
size_t hk_sweep_space(const hk_sweep_plan *sp);
/* Sweeps the lattice families of sp's body: f = external + springs (ctx's
 * update NONE), or that and the update in place. Called by every task of
 * a team (team.h), each with its own zeroed-or-reused work space of
 * hk_sweep_space(sp) entries; ends without a barrier.
 *
 * A split body (sp->split) sweeps this rank's slab [lo, hi) only: task 0
 * starts the halo exchange (w->part's ops), the team sweeps the interior
 * rows, which read no remote row, in blocks as above, task 0 waits for
 * the exchange, then the rows within maxdr of the slab's ends are swept as
 * two blocks of their own (each recomputing its halo): the same sums in
 * the same order as one process (three block spaces per thread). */
void hk_sweep_run(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx,
                  hk_real *space);
/* Nodes on each side of a window of a one-row body (a rope) that the
 * window's sources and partners reach: the farthest partner along the row
 * and a vector a kernel loads past its last source, in whole vectors.
 * A team sweeps such a body in windows of nodes, and a distributed run
 * splits it into node ranges whose halo is this many nodes (part.c). */
int hk_sweep_window_halo(const hk_world *w, const hk_sweep_plan *sp);
/* The same sweep by the calling thread alone, every row, no barrier (a solo
 * body: the same bits as the team's sweep). */
void hk_sweep_solo(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, hk_real *space);

#endif
