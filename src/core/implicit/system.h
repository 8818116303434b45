/* system.h — the implicit integrators' linear system M + sum S, applied matrix-free, and its block-Jacobi
 * preconditioner. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SYSTEM_H
#define HOOKE_SYSTEM_H

#include "part.h"
#include "world.h"

/* Vectors of the solver, three arrays (x, y, z) of the particle capacity each. */
enum {
    HK_SYS_X0, /* positions at the start of the substep [m] */
    HK_SYS_V0, /* velocities at the start of the substep [m/s] */
    HK_SYS_F0, /* forces there [N] */
    HK_SYS_B,  /* right-hand side [N s] */
    HK_SYS_DV, /* the solution: velocity change [m/s] */
    HK_SYS_R,  /* CG residual */
    HK_SYS_Z,  /* preconditioned residual */
    HK_SYS_P,  /* search direction */
    HK_SYS_Q,  /* A p */
    HK_SYS_T,  /* work vector of the multigrid preconditioner */
    HK_SYS_VK, /* the minimisation's line start: velocities [m/s] (minimise.c) */
    HK_SYS_XB, /* a multistep minimisation's base: x = xb + hb v [m] (minimise.c, bdf2) ... */
    HK_SYS_VB, /* ... and the velocities its kinetic term is about [m/s] (HK_SYS_XB + 1) */
    HK_SYS_VECTORS
};

/* Particles per block of the reductions: every dot product is summed
 * within fixed blocks of at most this many particles, then over the blocks
 * in order, so its bits do not depend on the thread count, nor on the
 * number of ranks: blocks start afresh at every body and at every unit of
 * rows that a distributed run may cut a body at (hk_part_unit_rows), so
 * that one rank computes each block whole. */
#define HK_SYS_BLOCK HK_PART_BLOCK

/* The multigrid hierarchy (multigrid.h), held by the solver's state. */
typedef struct hk_mg hk_mg;

/* What a preconditioner built on the system's 3x3 blocks (the multigrid)
 * takes from hk_system_blocks. Every task of its team (team.h) calls each
 * hook: begin once the diagonal holds the masses, family after lattice
 * family fi's spring blocks are in blk (by local source node), finish at
 * the end. */
typedef struct hk_block_hooks {
    void (*begin)(void *ctx, const hk_team *tm, const hk_world *w);
    void (*family)(void *ctx, const hk_team *tm, const hk_world *w, int fi, hk_real *const blk[6]);
    void (*finish)(void *ctx, const hk_team *tm, const hk_world *w);
    void *ctx;
} hk_block_hooks;

/* The implicit solver's state: the vectors above, the inverted 3x3
 * diagonal blocks, per lattice family a buffer of spring products, and the
 * statistics the world reports (hooke.h, hk_solver_stats). */
typedef struct hk_implicit {
    int capacity;  /* particles the arrays hold */
    int count;     /* particles when they were made */
    hk_real *slab; /* the vectors and blocks, one allocation */
    hk_real *v[HK_SYS_VECTORS][3];
    hk_real *inv[6];           /* inverse diagonal blocks (xx, xy, xz, yy, yz, zz); 0 for fixed particles */
    hk_real *tslab;            /* per lattice family t[3] over its body's nodes, then blk */
    hk_real **t;               /* 3 per family (NULL for list families), indexed by local node */
    struct hk_jac_view *views; /* the lattice families' t, body by body (engine/kernels.h) */
    int *view_family;          /* the family of each view */
    int *body_view;            /* body b's views: [body_view[b], body_view[b + 1]) */
    int *span;                 /* 2 per span: first body, end body; a run of bodies without views
                                * and chunks is one span (one mass-term pass), any other body its own */
    int span_count;
    const struct hk_family *const *lists; /* every list spring once (engine.h hk_engine_lists) */
    int list_count;
    hk_real *blk[6];   /* one lattice family's blocks over the largest lattice body's held nodes, zero guards (at its
                          family's body: hk_system_block_buffer) */
    int64_t blk_guard; /* reals of each guard: the largest |offset| at least */
    int families;      /* families t was made for */
    unsigned char *by_chunks;        /* per body: 1 when its product runs chunk by chunk (system.c) */
    hk_real *chunk_buf;              /* per thread the rings of source rows of the largest such body */
    struct hk_jac_view *chunk_views; /* per thread ring_views views of one target row */
    int ring_views;                  /* families of the chunked body with the most */
    int chunk_threads;               /* threads chunk_buf and chunk_views have room for */
    int64_t chunk_stride;            /* reals per thread in chunk_buf */
    hk_real *stop;                   /* per particle the force rule's weight 1 / (h F_i) [1/(N s)], 0 for fixed
                                        particles (cg.h hk_cg_weights) */
    double stop_energy;              /* the energy rule's floor sum_i m_i (g h)^2 over free particles [J]
                                        (hk_cg_weights) */
    double stop_newton;              /* the newton rule's floor: a tenth of the energy at which the minimisation
                                        stops, set before each of its solves (minimise.c) [J] */
    double *partial;                 /* four partial results per reduction block */
    int *block_body, *block_at;      /* reduction block k: body block_body[k]'s particles [block_at[2 k],
                                        block_at[2 k + 1]), body-local (the same blocks on every rank of a
                                        distributed world) */
    int *block;                      /* 2 per block k: this rank's storage of its particles [block[2 k], block[2 k +
                                        1]) where it computes the block (im->own), else 0, 0 */
    int block_count;
    int *own; /* the blocks this rank computes, ascending (all of them in one process) */
    int own_count;
    const struct hk_part *own_part; /* the shares own was made for */
    int *fixed;                     /* particles with inverse mass 0 */
    int fixed_count;
    hk_mg *mg;                        /* multigrid on the lattice bodies (multigrid.h), or NULL; made by implicit.c */
    hk_preconditioner preconditioner; /* what mg was made for */
    int mg_stale;                     /* the arrays were made again since mg was: make it again */
    hk_solver_stats stats;            /* hooke.h */
} hk_implicit;

/* The world's solver state, (re)allocated for its current particles and
 * families; NULL after hk_fail on out of memory, or on a distributed world
 * whose slabs were not cut for an implicit integrator (hk_part_unit_rows).
 *
 * A distributed run (part.h) computes the solver on its own particles:
 * products, blocks, vector updates and each reduction block it owns; the
 * vectors a product reads are brought up to date in the halo rows first,
 * and every reduction's block sums are shared (hk_part_share_doubles)
 * before they are added in block order, so every rank gets the bits of one
 * process. The multigrid's coarse levels are shared and then solved on
 * every rank (multigrid.h). */
hk_implicit *hk_implicit_get(hk_world *w);
/* The block buffer placed for lattice family f's body: blk[e][l] for its held nodes l (and the guards beside). */
void hk_system_block_buffer(const hk_implicit *im, const struct hk_family *f, hk_real *blk[6]);
void hk_implicit_free(hk_implicit *im);

/* The tasks of the solver's passes: one up to HK_PARALLEL_MIN particles (no
 * fork and join per product; team.h), else the world's team. */
int hk_system_team(const hk_world *w);
/* The world's kernel table for the solver's passes (the scalar one where
 * the world has none). */
const struct hk_kernels *hk_system_kernels(const hk_world *w);
/* out = (mass ? M y : 0) + sum over springs of S (y_a - y_b) added to a and
 * subtracted from b, with S = sK K + sD D at the current positions
 * (engine/jacobian_lanes.h), + each collider contact's block (sK K + sD D)
 * y (contact/response.h); entries of fixed particles are set to 0. Every
 * particle receives its terms in one fixed order (lattice families in
 * family order, then list families colour by colour, then its contact), on
 * any thread count. */
void hk_system_apply(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, int mass, hk_real *const y[3],
                     hk_real *const out[3]);
/* im->inv = the inverses of the 3x3 diagonal blocks of M + sum S + the
 * contact blocks (fixed particles: 0); the springs' blocks also go to hooks
 * (NULL: none), which read the contact blocks themselves. */
void hk_system_blocks(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, const hk_block_hooks *hooks);
/* The vector passes below live in system_vec.c. z = inv r per particle (the vectors HK_SYS_Z and HK_SYS_R), times scale
 * unless it is 1; returns r . z and writes r . r into *rr, both summed over
 * free particles in fixed blocks, and, where worst is given, the largest
 * (|r_i| stop_i)^2 over free particles into *worst, or, where dvb is given
 * (not both), dv . b (HK_SYS_DV and HK_SYS_B) into *dvb. With alpha, each
 * block first takes the CG update dv += alpha p, r -= alpha q (one pass
 * over the vectors instead of two). */
double hk_system_precondition(hk_world *w, hk_implicit *im, const hk_real *alpha, hk_real scale, double *rr,
                              double *worst, double *dvb);
/* a . b over all particles, in fixed blocks (every rank calls it). */
double hk_system_dot(hk_world *w, hk_implicit *im, hk_real *const a[3], hk_real *const b[3]);
/* The largest (|a_i| stop_i)^2 over free particles (every rank calls it). */
double hk_system_worst(hk_world *w, hk_implicit *im, hk_real *const a[3]);
/* The blocks' partial results part[0 .. n blocks) after sharing them over
 * the ranks (part.h), n = nsum + nmax arrays of im->block_count each:
 * out[a] = the sum over the blocks in block order of array a < nsum, and
 * the largest block of each array after those (order does not matter to a
 * maximum). */
void hk_system_reduce(const hk_world *w, const hk_implicit *im, double *part, int nsum, int nmax, double *out);

/* The cofactors c of the symmetric 3x3 block a (xx, xy, xz, yy, yz, zz),
 * in the same order; returns det a (a^-1 = c / det a). In double: the
 * blocks' inverses of the solve and of the multigrid's levels. */
static inline double hk_sym3_cofactors(const double a[6], double c[6])
{
    c[0] = a[3] * a[5] - a[4] * a[4];
    c[1] = a[2] * a[4] - a[1] * a[5];
    c[2] = a[1] * a[4] - a[2] * a[3];
    c[3] = a[0] * a[5] - a[2] * a[2];
    c[4] = a[1] * a[2] - a[0] * a[4];
    c[5] = a[0] * a[3] - a[1] * a[1];
    return a[0] * c[0] + a[1] * c[1] + a[2] * c[2];
}

#endif
