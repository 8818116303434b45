/* mg_level.h — the multigrid's levels and bodies, shared by its files (multigrid.c, mg_setup.c, ...; internal). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MG_LEVEL_H
#define HOOKE_MG_LEVEL_H

#include "kernel_table.h"
#include "part.h"
#include "system.h"

/* Damping of the block-Jacobi smoother (below 1: the largest eigenvalue of
 * D^-1 A of a spring network is at most 2) and the pre- and post-smoothing
 * sweeps on every level. */
#define MG_OMEGA 0.8
#define MG_SWEEPS 1
/* The K-cycle's test (mg_krylov.c): a coarse correction takes its second
 * Krylov step only where the first left more than this fraction of the
 * coarse residual. */
#define MG_KRYLOV_ENOUGH 0.25
/* Coarse levels with more nodes than this run on the world's team. */
#define MG_PARALLEL_MIN 1024
/* Neighbour offsets of a coarse node: half of {-1, 0, 1}^3 without 0. */
#define MG_OFFSETS HK_LEVEL_OFFSETS

typedef struct mg_level {
    int n[3];                     /* nodes along i, j, k */
    int64_t nodes, sy, sz, guard; /* strides of j and k; zero entries before and after every array */
    int wa, we;                   /* the rows (j, k) held: [wa, we), all of them but on a distributed run's first
                                     coarse level (a rank's rows and the halo rows beside them); the arrays are
                                     indexed by node (mg_node) and hold nodes wa sy .. we sy */
    int noff;                     /* offsets in use (those along dimensions with n > 1) */
    int off[MG_OFFSETS][3];       /* (i, j, k) of each, lexicographically positive in (k, j, i) */
    int64_t loff[MG_OFFSETS];     /* the same as index distances */
    int slot[27];                 /* offset (i+1) + 3 (j+1) + 9 (k+1) -> its index, -1 for the other half */
    hk_real *d[6], *dinv[6];      /* diagonal block (xx, xy, xz, yy, yz, zz) and its inverse */
    hk_real *c[MG_OFFSETS][6];    /* coupling: A(I, I + o) = -c[o](I), a symmetric block */
    hk_real *x[3], *b[3], *r[3];  /* correction, right-hand side, residual */
    hk_real *k1[3], *k2[3];       /* the K-cycle's first direction c1 and A c1 */
    double *dots;                 /* the K-cycle's sums, per row (j, k): MG_KRYLOV_SUMS each */
    hk_level_view view;           /* the same arrays for the kernels' residual and smoothing */
    hk_real *mem;
} mg_level;

typedef struct mg_body {
    int body;
    int64_t first;  /* the storage index of the body's node 0 (its held nodes [lo, hi) lie at first + l) */
    int64_t lo, hi; /* the body's nodes held here (all of them in one process) */
    int n[3];       /* the body's lattice */
    int64_t guard;  /* the largest |offset| of its families */
    hk_real *free;  /* per held node l, free[l]: 1 (free) or 0 (fixed), zero in guards of that size on both sides */
    hk_real *free_mem;
    int levels;
    mg_level *lv; /* lv[0]: the aggregates of the body's nodes */
    double *chol; /* coarsest level: Cholesky factor L of its dense matrix, 3N x 3N, L^T above the diagonal */
    int64_t band; /* its half bandwidth in unknowns (L and L^T are zero farther from the diagonal) */
    double *work;
    int chol_ok;
    /* a distributed run: this rank's messages of the first coarse level's
     * rows beside its own, made for the shares msg_part */
    hk_halo_msg *msg;
    int nmsg;
    const struct hk_part *msg_part;
} mg_body;

struct hk_mg {
    int count;
    mg_body *b;
    hk_real sK, sD; /* the scales of the system whose blocks the hooks take (hk_mg_hooks) */
};

/* The index of node (i, j, k) of level L. */
static inline int64_t mg_node(const mg_level *L, int i, int j, int k) { return i + L->sy * j + L->sz * k; }

static inline int level_team(const hk_world *w, const mg_level *L)
{
    return hk_team_size(w, L->nodes, MG_PARALLEL_MIN);
}

/* ---- the grid transfers (mg_transfer.c), on a team of `team` ---- */

/* dst = P^T (src - sub) (sub NULL: P^T src) over the aggregate rows [cr0,
 * cr1): each aggregate's sum of the (up to) 2 x 2 x 2 lattice nodes below
 * it, added in (k, j, i) order, row by row; src and sub are lattices of n
 * nodes, dst one of cn = ceil(n / 2). */
void hk_mg_restrict_rows(const hk_world *w, int team, const int n[3], hk_real *const src[3], hk_real *const sub[3],
                         const int cn[3], hk_real *const dst[3], int cr0, int cr1);
/* dst += P src (times keep[l], 1 or 0, per fine node where keep is given)
 * over the lattice rows [r0, r1) of n: every node takes its aggregate's
 * value. */
void hk_mg_prolong_rows(const hk_world *w, int team, const int n[3], hk_real *const dst[3], const int cn[3],
                        hk_real *const src[3], const hk_real *keep, int r0, int r1);

/* ---- the K-cycle (mg_krylov.c) ---- */

#define MG_KRYLOV_SUMS 5

/* What the first Krylov step of a coarse correction leaves for the second. */
typedef struct mg_krylov {
    double rho1, t; /* c1 . A c1 and the first step's length alpha1 / rho1 */
} mg_krylov;

/* After x = c1 = B b and r = b - A c1 on level C: the first step. Returns
 * 0 where it is the correction (x = t c1, done), 1 where a second step is
 * wanted: then k1 = c1, k2 = A c1, and b = b - t A c1, the rest to reduce. */
int hk_mg_krylov_first(const hk_world *w, mg_level *C, mg_krylov *k);
/* After x = c2 = B b and r = b - A c2 (b: the first step's rest): x = the
 * combination of c1 and c2 that minimises the error in the A-norm. */
void hk_mg_krylov_second(const hk_world *w, mg_level *C, const mg_krylov *k);

/* ---- a distributed run (mg_share.c) ---- */

/* All rows (j, k) of level L. */
static inline int all_rows_of(const mg_level *L) { return L->n[1] * L->n[2]; }
/* The rows (j, k) of the aggregates of a lattice of n nodes, a lattice of
 * cn nodes, above its rows [lo, hi), as [*ca, *ce): whole aggregate rows
 * when lo and hi are (a distributed run cuts on them: hk_part_unit_rows). */
void hk_mg_coarse_rows(const int n[3], const int cn[3], int lo, int hi, int *ca, int *ce);
/* The rows of body B this rank computes: body rows [*fa, *fe) and the
 * rows of the first coarse level's aggregates above them, [*ca, *ce). */
void hk_mg_own_rows(const hk_world *w, const mg_body *B, int *fa, int *fe, int *ca, int *ce);
/* Level L's rows of aggregates outside [ca, ce) in the n arrays a to -0,
 * then every rank's rows shared (hk_part_share_reals): every rank holds the
 * whole level (one thread calls it). */
void hk_mg_share_rows(const hk_world *w, const mg_level *L, hk_real *const *a, int n, int ca, int ce);
/* Whether body B's first coarse level is held in part (a distributed run with coarser levels below it): each rank
 * then holds its rows and the halo rows beside them (hk_mg_level_halo), and computes the second level's rows
 * above its own, which are then shared. */
static inline int hk_mg_windowed(const hk_world *w, const mg_body *B) { return w->part && B->levels > 1; }
/* The rows [*wa, *we) of body B's first coarse level, of cn nodes, that this rank holds when the body has `levels`
 * levels: all of them, or this rank's rows and the halo rows beside them (hk_mg_windowed). */
void hk_mg_level_window(const hk_world *w, const mg_body *B, const int cn[3], int levels, int *wa, int *we);
/* This rank's messages of the rows beside its own on body B's first coarse level (hk_mg_level_halo's); 0, or -1
 * out of memory. */
int hk_mg_plan_halo(const hk_world *w, mg_body *B);
/* Body B's first coarse level: the n arrays a in the rows beside this
 * rank's [ra, re), from the ranks that compute them (one thread calls it). */
void hk_mg_level_halo(const hk_world *w, mg_body *B, hk_real *const *a, int n, int ra, int re);

#endif
