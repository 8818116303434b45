/* kernel_table.h — what one instruction set's kernels are: the table every path fills, and the contexts they take. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_KERNEL_TABLE_H
#define HOOKE_KERNEL_TABLE_H

#include "external.h"
#include "update.h"
#include "world.h"

/* Row strides are padded to this many entries (the widest SIMD); a lattice
 * kernel's vector store reaches at most this far past either end of a row. */
#define HK_ROW_VEC 16

/* Everything a per-particle pass needs: the external forces to add to the
 * spring forces, and the update to apply with the total. */
typedef struct hk_step_ctx {
    hk_external ext;
    hk_update upd;
} hk_step_ctx;

/* The vectors a blocked row pass runs over (plan_row): [lo, hi) rounded up
 * to whole vectors, and within them [full_lo, full_hi), where every
 * family's lanes are springs (no row-end tests; empty: full_lo = full_hi). */
typedef struct hk_row_span {
    int lo, hi, full_lo, full_hi;
} hk_row_span;

/* One lattice family as seen from one source row (the sweep fills f, dr,
 * dst and fresh; the kernels' plan_row fills pass and span and may clear
 * fresh). */
typedef struct hk_row_family {
    const hk_family *f;
    hk_real *dst;     /* accumulator row r + dr: x, then y and z at bstride and 2 bstride (lattice_row) */
    int dr;           /* row distance; 0: same row */
    int fresh;        /* the target row holds nothing yet: the kernel writes all of its vectors [0, nx_pad)
                       * without reading them (plan_row keeps the flag only where its kernel does) */
    int pass;         /* the kernel's blocked pass that starts at this family, 0: none (plan_row) */
    hk_row_span span; /* that pass's vectors (plan_row) */
} hk_row_family;

/* One lattice family's products as the gather of jacobian_gather sees them:
 * t[c][l] for local node l, readable (and 0) from l - |offset| to
 * l + |offset| past the body's nodes. */
typedef struct hk_jac_view {
    const hk_real *t[3];
    int64_t offset;
} hk_jac_view;

/* One coarse level of the multigrid preconditioner (implicit/mg_level.h)
 * as its kernels see it: per node its diagonal block d and inverse dinv
 * (xx, xy, xz, yy, yz, zz), the couplings A(I, I + loff[o]) = -c[o](I) for
 * the noff offsets in use, and the vectors x, b, r; every array has zero
 * guards of at least the largest |loff| on both sides. */
#define HK_LEVEL_OFFSETS 13
typedef struct hk_level_view {
    const hk_real *d[6], *dinv[6];
    const hk_real *c[HK_LEVEL_OFFSETS][6];
    int64_t loff[HK_LEVEL_OFFSETS];
    int noff;
    hk_real *x[3], *b[3], *r[3];
} hk_level_view;

/* One run of xpbd's springs (iterate/xpbd.c) whose ends lie in contiguous arrays: spring s joins a = entry s of
 * the a arrays and b = entry s of the b arrays (rows of a lattice family, or copies of them), none twice. */
typedef struct hk_xpbd_span {
    hk_real *qa[3], *qb[3];       /* the ends' displacements from rest [m] */
    const hk_real *pa[3], *pb[3]; /* the same at the substep's start [m] */
    const hk_real *wa, *wb;       /* the ends' inverse masses [1/kg] */
    hk_real *u[3];                /* each spring's force so far times h^2 [kg m]: read unless fresh, written if keep */
    const uint8_t *broken;        /* per spring, 1 = broken; NULL: none can break */
    hk_real D[3];                 /* the rest vector r_b - r_a [m] */
    hk_real L0, K, Dn, Dv;        /* rest length [m]; k h^2, c h along the spring, c h of the relative velocity [kg] */
    hk_behaviour behaviour;
} hk_xpbd_span;

/* One lattice family as the strain limits' look measures it (kernel_table.h length2_rows): a row's springs join the
 * entries i in [i0, i1) of the row to the entries offset past them. */
typedef struct hk_look_family {
    int64_t offset; /* the target's entry past the source's */
    int64_t i0, i1; /* the sources' columns in a row */
    hk_real D[3];   /* the rest vector r_b - r_a [m] */
} hk_look_family;

typedef struct hk_kernels {
    const char *isa; /* "avx512", "avx2", "scalar" */
    int width;       /* lanes of hk_real */
    /* All lattice springs whose source nodes lie in one row: the row starts at
     * global particle row0 (node (0,j,k)), body-local index local0. For each
     * family q of fams (those with sources in this row): F_q(i) for sources
     * i in [i0, i1); acc_src[i] += sum_q F_q(i); fams[q].dst[i + di] -= F_q(i).
     * nx_pad is the row length padded to 16; buf holds 3 rows of stride
     * bstride per family with dr == 0 (those subtract from acc_src after the
     * row, through buf, so no store overlaps a later load). fams has been
     * through plan_row. */
    void (*lattice_row)(const hk_particles *p, int64_t row0, int64_t local0, int nx_pad,
                        const struct hk_row_family *fams, int nfam, hk_real *const acc_src[3], hk_real *buf,
                        int bstride);
    /* Sets fams[q].pass and span for a list of row families (f, dr and fresh
     * filled) that lattice_row will be given as it is, on rows of nx_pad
     * nodes: once per list, not per row. Clears fams[q].fresh where the
     * kernel would not write the whole target row [0, nx_pad) from that
     * family on: the caller then zeroes the row before the pass. */
    void (*plan_row)(struct hk_row_family *fams, int nfam, int nx_pad);
    /* Springs [s0, s1) of list family f, all in one colour (no particle twice):
     * f[a] += F, f[b] -= F. */
    void (*list_range)(const hk_family *f, hk_particles *p, int64_t s0, int64_t s1);
    /* The same over packed records (NULL where the ISA has no such kernel):
     * rec holds {x, y, z, vx, vy, vz, 0, 0} per particle (32-byte aligned),
     * facc {fx, fy, fz, 0} (16-byte aligned); the force arithmetic and the
     * order of the adds into each particle are those of list_range. */
    void (*list_range_packed)(const hk_family *f, const float *rec, float *facc, int64_t s0, int64_t s1);
    /* Particles [g0, g0 + n) into those records (x, v into rec; into facc f,
     * or when ext is given the external forces of ext, f untouched), and facc
     * back into f; present exactly when list_range_packed is. */
    void (*list_pack)(const hk_external *ext, const hk_particles *p, float *rec, float *facc, int64_t g0, int n);
    void (*list_unpack)(hk_particles *p, const float *facc, int64_t g0, int n);
    /* Finishes particles [g0, g0 + n) given their summed spring forces acc,
     * then zeroes the row's margins acc[c][-HK_ROW_VEC, 0) and
     * [n rounded up to HK_ROW_VEC, + HK_ROW_VEC) (each acc[c] starts on a
     * whole SIMD vector); the row itself is zeroed or written fresh before
     * its next use (plan_row). */
    void (*finish_row)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n, hk_real *const acc[3]);
    /* f = gravity + air drag + ground for particles [g0, g0 + n). */
    void (*external_forces)(const hk_external *ext, hk_particles *p, int64_t g0, int n);
    /* The update u of particles [g0, g0 + n) from their forces in f. */
    void (*integrate)(const hk_update *u, hk_particles *p, int64_t g0, int n);

    /* The implicit solver's spring stiffness blocks S = sK K + sD D at the
     * current positions (the formula: jacobian_lanes.h), over a vector y:
     * t[c][l - tbase] = S_l (y_a - y_b) for the sources l in [local0,
     * local0 + n) of lattice family f (one row of its box; l a local node). */
    void (*jacobian_lattice)(const hk_family *f, const hk_particles *p, hk_real sK, hk_real sD, hk_real *const y[3],
                             hk_real *const t[3], int64_t tbase, int64_t local0, int n);
    /* blk[e][l] = entry e (xx, xy, xz, yy, yz, zz) of S_l, the same sources. */
    void (*jacobian_lattice_blocks)(const hk_family *f, const hk_particles *p, hk_real sK, hk_real sD,
                                    hk_real *const blk[6], int64_t local0, int n);
    /* List springs [s0, s1) of f, all of one colour (no particle twice):
     * out[a] += S (y_a - y_b), out[b] -= S (y_a - y_b). */
    void (*jacobian_list)(const hk_family *f, const hk_particles *p, hk_real sK, hk_real sD, hk_real *const y[3],
                          hk_real *const out[3], int64_t s0, int64_t s1);
    /* out[c][l] = (mass ? m[l] y[c][l] : 0) + sum over the views q in order
     * of t_q[c][l] - t_q[c][l - offset_q], for local nodes l in [l0, l0 + n)
     * of one body (m, y and out start at the body's first particle). */
    void (*jacobian_gather)(const hk_real *m, const hk_real *const y[3], hk_real *const out[3], const hk_jac_view *v,
                            int nview, int64_t l0, int n, int mass);
    /* The same springs: blk[e][a] and blk[e][b] += entry e of S. */
    void (*jacobian_list_blocks)(const hk_family *f, const hk_particles *p, hk_real sK, hk_real sD,
                                 hk_real *const blk[6], int64_t s0, int64_t s1);

    /* The multigrid's coarse levels: r = b - A x over nodes [a, e) (the
     * diagonal, then each coupling in order), and x = (first ? 0 : x) +
     * omega dinv (first ? b : r), the damped block-Jacobi step. */
    void (*level_residual)(const hk_level_view *L, int64_t a, int64_t e);
    void (*level_smooth)(const hk_level_view *L, hk_real omega, int first, int64_t a, int64_t e);

    /* xpbd's steps of springs [0, n) of s (xpbd_lanes.h); fresh: u is 0 (the substep's first sweep), keep: u is
     * written (a sweep follows). */
    void (*xpbd_span)(const hk_xpbd_span *s, int64_t n, int fresh, int keep);
    /* The same over `blocks` blocks of 2 width entries from s's a arrays (s's b arrays unused): in each, the entries
     * of the even runs of d (1 or 2) are the sources and the entry d past each its target, as a lattice family along
     * i colours its rows (NULL where the ISA has no such kernel: width 1). */
    void (*xpbd_pairs)(const hk_xpbd_span *s, int d, int64_t blocks, int fresh, int keep);
    /* The strain limits' measure of nf lattice families of `rows` source rows, stride entries apart, the first row's
     * node 0 at entry `first` of q: each family's largest and smallest r^2 over those rows into most[m] and
     * least[m], formed as the kernels form them (limit_lanes.h); every family's springs in a row at least one. */
    void (*length2_rows)(hk_real *const q[3], int64_t first, int64_t rows, int64_t stride, const hk_look_family *f,
                         int nf, hk_real *most, hk_real *least);
} hk_kernels;

#endif
