/* state_sums.h — the checks' and the statistics' sums over springs and particles, as the CPU and a device form them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STATE_SUMS_H
#define HOOKE_STATE_SUMS_H

#include <stdint.h>

#include "external.h"
#include "frame.h"
#include "spring_length.h"

/*
 * The statistics sum over every spring and every particle. Each sum is cut
 * into fixed blocks, each summed from zero in order, and the blocks are
 * then summed in order: a team of any size, a world shared over ranks
 * (relayed, part.h) and a device (core/device, one element a block, then
 * one element that folds the blocks) give the same bits.
 *   - The springs' scan (engine/strain.c): a family of more than
 *     HK_SCAN_ONE_BLOCK springs is cut into HK_SCAN_BLOCKS blocks of its
 *     rows (hk_scan_block_start: a lattice's source rows, a list's
 *     springs), a smaller one is one block; the families' blocks are merged
 *     family by family (hk_scan_merge).
 *   - The particles' energies (step/stats.c): blocks of HK_SUMS_BLOCK
 *     particles in their global order; pinned and driven particles (inverse
 *     mass 0) carry none.
 * Plain C without world.h: core/device's passes (dev_check_pass.h) include it.
 */

enum { HK_SCAN_BLOCKS = 256, HK_SCAN_ONE_BLOCK = 65536, HK_SUMS_BLOCK = 1024 };

/* One pass over every unbroken spring: their potential energy, the largest
 * r / L0 and the first spring (in family then slot order) that has it. The
 * same bits for any thread count. */
typedef struct hk_spring_scan {
    double energy;      /* sum 1/2 k (r - L0)^2 over active springs [J] */
    double max_stretch; /* largest r / L0 [1] (0 without springs) */
    int family;         /* that spring's family, or -1 */
    int64_t slot;       /* its slot within the family, or -1 */
    double slope;       /* hk_springs_scan_along: d energy / d s along x + s y [J per unit of s] */
    double rounding;    /* hk_springs_scan_along: sum k |r - L0| r over active springs, the scale of the energy's
                           rounding (times the precision's epsilon) [J] */
} hk_spring_scan;
#define HK_SPRING_SCAN_ZERO ((hk_spring_scan){0.0, 0.0, -1, -1, 0.0, 0.0})

/* What one block of a family's springs finds: their energy [J] summed in order, and the first spring with the largest
 * r / L0 (slot -1: none above 0); along a direction the energy's slope and rounding scale; the broken springs it
 * passed over. */
typedef struct hk_scan_part {
    double energy, ratio;
    int64_t slot;
    double slope, rounding;
    int64_t broken;
} hk_scan_part;
#define HK_SCAN_PART_ZERO ((hk_scan_part){0.0, 0.0, -1, 0.0, 0.0, 0})

/* The blocks of a family of `springs` springs, and the first row of block b of its `rows` rows. */
static inline HK_HD int hk_scan_blocks(int64_t springs) { return springs <= HK_SCAN_ONE_BLOCK ? 1 : HK_SCAN_BLOCKS; }
static inline HK_HD int64_t hk_scan_block_start(int64_t rows, int nblocks, int64_t b) { return rows * b / nblocks; }

/* The spring of vector d (hk_spring_delta's, [m]) and rest length L0 [m] at `slot`, with half its k [N/m] and its
 * behaviour (hk_behaviour): its energy added to s and its r / L0 taken if it is the largest so far; a broken one
 * counted and nothing else. 1 when its energy counted, with its length *r and extension *ext [m] (the slope's). The
 * length is formed before the tests (a broken spring's too): the compiler then reads the arrays once a scan. */
static inline HK_HD int hk_scan_spring(const hk_real d[3], hk_real L0, double half_k, int behaviour, int broken,
                                       int64_t slot, hk_scan_part *s, double *r_out, double *ext_out)
{
    const double r = hk_spring_length(d[0], d[1], d[2]), ext = r - (double)L0;
    *r_out = r, *ext_out = ext;
    if (broken) {
        s->broken++;
        return 0;
    }
    if (L0 > 0 && r / L0 > s->ratio) s->ratio = r / L0, s->slot = slot;
    if (behaviour == HK_SPRING_TENSION_ONLY && !(ext > 0)) return 0;
    if (behaviour == HK_SPRING_COMPRESSION_ONLY && !(ext < 0)) return 0;
    s->energy += half_k * ext * ext;
    return 1;
}

/* Block s of family fi merged into out, which holds the families before it and the blocks of fi before this one. */
static inline HK_HD void hk_scan_merge(hk_spring_scan *out, int fi, const hk_scan_part *s)
{
    out->energy += s->energy;
    out->slope += s->slope;
    out->rounding += s->rounding;
    if (s->slot >= 0 && s->ratio > out->max_stretch) {
        out->max_stretch = s->ratio;
        out->family = fi;
        out->slot = s->slot;
    }
}

/* The particles' energies [J]: kinetic, and each per-particle force's potential (external.h's terms). */
typedef struct hk_particle_sums {
    double kinetic;
    double potential[HK_EXTERNAL_TERM_COUNT];
} hk_particle_sums;

/* Sums of nothing. */
static inline HK_HD hk_particle_sums hk_particle_sums_zero(void)
{
    hk_particle_sums s;
    s.kinetic = 0;
    for (int t = 0; t < HK_EXTERNAL_TERM_COUNT; t++) s.potential[t] = 0;
    return s;
}

/* A free particle of mass m [kg] and velocity v [m/s] at world position x [m] (def: the world's forces) added to s. */
static inline HK_HD void hk_particle_energy(const hk_world_def *def, double m, const double v[3], const double x[3],
                                            hk_particle_sums *s)
{
    s->kinetic += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    hk_external_energy(def, m, x, s->potential);
}

/* Block s added to the blocks before it, to. */
static inline HK_HD void hk_particle_sums_add(hk_particle_sums *to, const hk_particle_sums *s)
{
    to->kinetic += s->kinetic;
    for (int t = 0; t < HK_EXTERNAL_TERM_COUNT; t++) to->potential[t] += s->potential[t];
}

/* The arrays the check for non-finite values tests, in the order its verdicts rank (the first array with one names
 * the cause): qx, qy, qz, vx, vy, vz (step/stats.c's table). */
enum { HK_FINITE_ARRAYS = 6 };

/* What a check asks of the device's sums besides the non-finite values (world.h's device_sums). */
enum { HK_SUMS_SCAN = 1, HK_SUMS_ENERGY = 2 };

/* What a device reduces of its newer state for a check, so that the host reads these and not the state (core/device
 * dev_sums.c, through world.h's device_sums); each as the CPU forms it. */
typedef struct hk_device_sums {
    int64_t first[HK_FINITE_ARRAYS]; /* each array's first particle (storage index) not finite; INT64_MAX: none */
    hk_spring_scan scan;             /* the springs' scan (with stats) */
    hk_particle_sums particles;      /* the particles' energies (with stats) */
    int64_t broken;                  /* the broken springs of every family (with stats) */
} hk_device_sums;

#endif
