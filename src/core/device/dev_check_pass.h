/* dev_check_pass.h — the device's passes of a check: non-finite values, the springs' scan, the particles' energies. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_CHECK_PASS_H
#define HOOKE_DEV_CHECK_PASS_H

/* Included by dev_pass.h (after hkd_vec and hkd_fam): each sum is state_sums.h's, in its blocks and order, so the
 * host reads one hk_device_sums instead of the state (dev_sums.c). */

#include "state_sums.h"

/* FINITE and ENERGY: block b of HK_SUMS_BLOCK particles (n: the blocks). FINITE writes each array's first particle in
 * it that is not finite (INT64_MAX: none) to first[HK_FINITE_ARRAYS b + k]; ENERGY sums its free particles' energies
 * in order into part[b], each particle's world position from its body's origin. */
typedef struct hkd_sums_args {
    hkd_vec q, r, v;
    const hk_real *mass, *inv_mass;
    int64_t count;             /* the particles */
    const int64_t *body_first; /* device: each body's first particle, then the particle count (bodies + 1) */
    const double *origin;      /* device: each body's origin, 3 a body [m] */
    int32_t bodies;
    int64_t *first;         /* device: FINITE's, HK_FINITE_ARRAYS a block */
    hk_particle_sums *part; /* device: ENERGY's, one a block */
    hk_world_def def;       /* the world's forces (external.h hk_external_energy) */
} hkd_sums_args;

/* A family as SCAN reads it (dev_sums.c loads one a family once; engine/strain.c scan_rows): a lattice's source
 * rows (the sources i0 .. i1 - 1 of each; the broken flags by the body's local source node), a list's springs. */
typedef struct hkd_scan_fam {
    hkd_fam fam;                /* a lattice: its box, offset, rest vector and flags */
    int64_t base;               /* a lattice: its body's first particle */
    int32_t nx, ny, list;       /* list: a list family (then the fields below) */
    const int32_t *a, *b;       /* device: a list's ends */
    const hk_real *rest;        /* device: a list's rest lengths, or NULL (L0) */
    const hk_real *rv[3];       /* device: a list's rest vectors, or NULL */
    const uint8_t *broken;      /* device: a list's broken flags by spring, or NULL */
    hk_real L0;                 /* the family's rest length [m] */
    double half_k;              /* half its k [N/m] */
    int32_t behaviour, nblocks; /* hk_behaviour; its blocks */
    int64_t rows;               /* its rows: a lattice's source rows, a list's springs */
} hkd_scan_fam;

/* SCAN: every family's blocks in one pass (n: all of them), element e block e - first[f] of the family f whose
 * blocks hold it, scanned from zero into part[e]. */
typedef struct hkd_scan_args {
    hkd_vec q;
    const hkd_scan_fam *fam; /* device: each family's */
    const int64_t *first;    /* device: family f's blocks are elements first[f] .. first[f + 1] - 1 */
    int32_t families;
    hk_scan_part *part; /* device: one a block */
} hkd_scan_args;

/* FOLD (one element): FINITE's blocks, and where part and scan are not NULL ENERGY's and every family's SCAN blocks,
 * folded in order into *out. */
typedef struct hkd_fold_args {
    const int64_t *first;         /* device: FINITE's */
    const hk_particle_sums *part; /* device: ENERGY's, or NULL */
    const hk_scan_part *scan;     /* device: every family's blocks, family by family, or NULL */
    const int64_t *scan_first;    /* device: family f's blocks are scan[scan_first[f] .. scan_first[f + 1]) */
    int64_t blocks;               /* the particles' blocks */
    int32_t families;
    hk_device_sums *out; /* device */
} hkd_fold_args;

/* The last of first[0 .. n) at most x (first ascending, first[0] <= x): the body of a particle, the family of a
 * block. */
static inline HK_HD int32_t hkd_last_at_most(const int64_t *first, int32_t n, int64_t x)
{
    int32_t lo = 0, hi = n;
    while (hi - lo > 1) {
        const int32_t mid = lo + (hi - lo) / 2;
        if (first[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The particles [*i0, *i1) of block b of FINITE and ENERGY. */
static inline HK_HD void hkd_sums_block(const hkd_sums_args *a, int64_t b, int64_t *i0, int64_t *i1)
{
    *i0 = b * HK_SUMS_BLOCK;
    *i1 = *i0 + HK_SUMS_BLOCK < a->count ? *i0 + HK_SUMS_BLOCK : a->count;
}

/* Element b of FINITE. */
static inline HK_HD int hkd_finite(const hkd_sums_args *a, int64_t b)
{
    int64_t i0, i1;
    hkd_sums_block(a, b, &i0, &i1);
    const hk_real *const arr[HK_FINITE_ARRAYS] = {a->q.c[0], a->q.c[1], a->q.c[2], a->v.c[0], a->v.c[1], a->v.c[2]};
    for (int k = 0; k < HK_FINITE_ARRAYS; k++) {
        int64_t first = INT64_MAX;
        for (int64_t i = i0; i < i1 && first == INT64_MAX; i++)
            if (!isfinite(arr[k][i])) first = i;
        a->first[HK_FINITE_ARRAYS * b + k] = first;
    }
    return 0;
}

/* Element b of ENERGY. */
static inline HK_HD int hkd_energy(const hkd_sums_args *a, int64_t b)
{
    int64_t i0, i1;
    hkd_sums_block(a, b, &i0, &i1);
    int32_t lo = hkd_last_at_most(a->body_first, a->bodies, i0); /* the body of particle i0, then of each */
    hk_particle_sums s = hk_particle_sums_zero();
    for (int64_t i = i0; i < i1; i++) {
        while (i >= a->body_first[lo + 1]) lo++;
        const double *o = a->origin + 3 * lo;
        const double m = a->mass[i], v[3] = {a->v.c[0][i], a->v.c[1][i], a->v.c[2][i]};
        const double x[3] = {hk_frame_world(o[0], a->r.c[0][i], a->q.c[0][i]),
                             hk_frame_world(o[1], a->r.c[1][i], a->q.c[1][i]),
                             hk_frame_world(o[2], a->r.c[2][i], a->q.c[2][i])};
        if (a->inv_mass[i] == 0) continue;
        hk_particle_energy(&a->def, m, v, x, &s);
    }
    a->part[b] = s;
    return 0;
}

/* Element e of SCAN. */
static inline HK_HD int hkd_scan(const hkd_scan_args *a, int64_t e)
{
    const int32_t lo = hkd_last_at_most(a->first, a->families, e); /* the family whose blocks hold e */
    const hkd_scan_fam *S = &a->fam[lo];
    const hkd_fam *F = &S->fam;
    const int64_t b = e - a->first[lo], q0 = hk_scan_block_start(S->rows, S->nblocks, b),
                  q1 = hk_scan_block_start(S->rows, S->nblocks, b + 1);
    hk_scan_part s = HK_SCAN_PART_ZERO;
    double r, ext;
    for (int64_t q = q0; q < q1; q++) {
        hk_real d[3];
        if (S->list) {
            const int32_t i = S->a[q], j = S->b[q];
            for (int c = 0; c < 3; c++) d[c] = (a->q.c[c][i] - a->q.c[c][j]) - (S->rv[0] ? S->rv[c][q] : (hk_real)0);
            (void)hk_scan_spring(d, S->rest ? S->rest[q] : S->L0, S->half_k, S->behaviour, S->broken && S->broken[q], q,
                                 &s, &r, &ext);
            continue;
        }
        const int64_t jn = F->j1 - F->j0, row = (int64_t)S->nx * (F->j0 + q % jn + (int64_t)S->ny * (F->k0 + q / jn));
        for (int64_t i = F->i0; i < F->i1; i++) {
            const int64_t local = row + i, s0 = S->base + local, t = s0 + F->offset;
            for (int c = 0; c < 3; c++) d[c] = (a->q.c[c][s0] - a->q.c[c][t]) - F->D[c];
            (void)hk_scan_spring(d, S->L0, S->half_k, S->behaviour, F->broken && F->broken[local], local, &s, &r, &ext);
        }
    }
    a->part[e] = s;
    return 0;
}

/* Element 0 of FOLD. */
static inline HK_HD int hkd_fold(const hkd_fold_args *a, int64_t e)
{
    (void)e;
    hk_device_sums *o = a->out;
    for (int k = 0; k < HK_FINITE_ARRAYS; k++) {
        o->first[k] = INT64_MAX;
        for (int64_t b = 0; b < a->blocks && o->first[k] == INT64_MAX; b++)
            o->first[k] = a->first[HK_FINITE_ARRAYS * b + k];
    }
    o->particles = hk_particle_sums_zero();
    for (int64_t b = 0; a->part && b < a->blocks; b++) hk_particle_sums_add(&o->particles, &a->part[b]);
    o->scan = HK_SPRING_SCAN_ZERO;
    o->broken = 0;
    for (int32_t f = 0; a->scan && f < a->families; f++)
        for (int64_t b = a->scan_first[f]; b < a->scan_first[f + 1]; b++) {
            hk_scan_merge(&o->scan, f, &a->scan[b]);
            o->broken += a->scan[b].broken;
        }
    return 0;
}

#endif
