/* engine.h — the parallel SIMD engine: lattice sweeps, coloured list springs, fused substeps. */
#ifndef HOOKE_ENGINE_H
#define HOOKE_ENGINE_H

#include "kernels.h"
#include "world.h"

/*
 * How the work is split (and why the result is the same bits for any number
 * of threads):
 *
 * Lattice bodies (rope, cloth, jelly). A body is a sequence of rows (a row is
 * the nx nodes with the same (j, k)). Every stencil family points forward in
 * memory, so a spring whose source node is in row r ends in row r + dr with
 * 0 <= dr <= maxdr. A thread owns a block of rows [a, b) and sweeps source rows
 * from a - maxdr ("halo": recomputed, also done by the previous thread) to
 * b - 1, keeping the force sums of rows r .. r + maxdr in a small ring:
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
 * substep "finish" integrates the row in place; the first and last maxdr rows
 * of a block are read by the neighbouring threads, so their finished sums are
 * parked and integrated after a barrier.
 *
 * List families (meshes, all-to-all ropes, points). Coloured once
 * (colour.h): within a colour no particle occurs twice, so threads and SIMD
 * lanes add into f without conflicts. The sweep goes by bands of HK_BAND
 * particles (colour.h), a band's near springs colour by colour. Near springs
 * of a band touch only it and the next band. Each thread takes a run of even
 * bands and sweeps, after each even band 2j, the odd band 2j - 1 behind it;
 * a barrier; the odd band closing each run (it shares a band with the next
 * run); a barrier; then the far springs colour by colour with a barrier
 * after each. A particle's terms thus arrive in one order fixed by the
 * springs alone (those of the even band touching it, then of the odd one,
 * then the far colours), the order of all even bands before all odd ones.
 * The overflow colour runs last on one thread.
 * No atomics, no reductions.
 *
 * Surface bodies with pressure or wind (surface.h) take the force-then-
 * integrate path: after the body's springs, its face forces are computed in
 * three work-shared passes (volume blocks, faces, vertex gathers in CSR
 * order) whose every sum has one fixed order.
 */

/* f = gravity + drag + ground + all springs (the engine's hk_forces_compute). */
void hk_engine_forces(hk_world *w, const hk_kernels *k);
/* One substep of a single-force-evaluation scheme (EULER, SEMI_IMPLICIT,
 * JELLY): fused sweep on pure lattice bodies, forces then update elsewhere. */
void hk_engine_substep(hk_world *w, const hk_kernels *k, hk_finish finish, hk_real h);
/* Colours every list family not yet coloured; 0 or -1. */
int hk_engine_prepare(hk_world *w);
/* Frees the per-thread work space. */
void hk_engine_release(hk_world *w);

#endif
