/* lists.h — the listed springs of a body (meshes, all-to-all ropes, points), coloured and banded over the team. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LISTS_H
#define HOOKE_LISTS_H

#include "kernels.h"
#include "team.h"

/*
 * List families are coloured once (colour.h): within a colour no particle
 * occurs twice, so threads and SIMD lanes add into f without conflicts. The
 * sweep goes by bands of HK_BAND particles (colour.h), a band's near springs
 * colour by colour. Near springs of a band touch only it and the next band.
 * Each thread takes a run of even bands and sweeps, after each even band 2j,
 * the odd band 2j - 1 behind it; a barrier; the odd band closing each run
 * (it shares a band with the next run); a barrier; then the far springs
 * colour by colour with a barrier after each. A particle's terms thus
 * arrive in one order fixed by the springs alone (those of the even band
 * touching it, then of the odd one, then the far colours), the order of all
 * even bands before all odd ones. The overflow colour runs last on one
 * thread. No atomics, no reductions.
 */

/* The packed particle records the AVX2 and AVX-512 list kernels read
 * (packed_pass.h), owned by the engine: rec {x, y, z, vx, vy, vz, 0, 0} and
 * f {fx, fy, fz, 0} per particle, for cap particles. */
typedef struct hk_packed {
    float *rec, *f;
    int cap;
} hk_packed;

/* Whether the list springs of fams are few enough to run on one thread (a
 * barrier per colour would cost more): fewer than w's list_parallel_min
 * (hk_world_def; a 48-particle all-to-all net has 63 colours). The bits are
 * the same either way. */
int hk_lists_serial(const hk_world *w, const hk_family *const *fams, int nfams);

/* Adds the springs of the list families fams[0 .. nfams), which join
 * particles of [first, first + count) (a body's, or a group's), into f, in the banded order of
 * this file. A task takes a
 * run of even bands 2j, j0 <= j < j1, and after each even band 2j the odd
 * band 2j - 1 before it, whose particles (bands 2j - 1 and 2j) it has just
 * swept and which no other thread touches; the odd band 2 j1 - 1, which
 * shares band 2 j1 with the next thread, waits for a barrier. Each particle
 * still gets the even band's terms before the odd band's, so the order is
 * that of all even bands, then all odd ones, whatever the thread count.
 * With packed records pk (NULL: none) the first list family packs bands 2j and
 * 2j + 1 just before it sweeps them (their records are then in cache for
 * both bands' springs), and the forces are unpacked at the end; otherwise
 * the kernels gather and scatter the particle arrays. ext: packed only, the
 * forces start from the external forces of ext (computed while packing)
 * instead of from f. Every task of the team (team.h) calls it. A serial
 * body (few springs) runs on task 0 alone, without the barriers. */
void hk_lists_run(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_packed *pk, int first, int count,
                  const hk_family *const *fams, int nfams, int serial, const hk_external *ext);
/* The same by the calling thread alone, without a barrier (a solo body,
 * engine.c): the same bits. */
void hk_lists_solo(hk_world *w, const hk_kernels *k, const hk_packed *pk, int first, int count,
                   const hk_family *const *fams, int nfams, const hk_external *ext);

#endif
