/* dev_pass.h — the device backend's passes: their arguments and per-element steps, one text for every driver. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_PASS_H
#define HOOKE_DEV_PASS_H

/*
 * Every pass of a step on a device is a loop over elements (a body's
 * nodes, a surface's faces and vertices, particles, a family's springs)
 * whose body is one function here, hkd_<pass>(args, i). The drivers
 * (dev_host.c on the CPU's team, omp/dev_omp.c through OpenMP target
 * offload, cuda/dev_cuda.cu through CUDA) are thin loops over these
 * functions and own nothing of the arithmetic.
 *
 * The arithmetic is the CPU engine's own: the scalar instruction set of
 * engine/simd.h (one lane) under engine/spring_lanes.h, the per-particle
 * terms of engine/external.h and the updates of engine/update.h, the
 * obstacles' step of contact/obstacle_push.h, the wind of
 * model/face_force.h and the spring length of world/spring_length.h; each
 * node sums its springs in the order the CPU's sweep sums them (sweep.c:
 * the terms from the rows before it, farthest first, then its own row's,
 * family by family), so a step on a device ends in the CPU's bits. How
 * each compiler is kept from contracting or approximating an operation is
 * docs/determinism.md's "On a GPU".
 *
 * Plain C, compiled by gcc for the host and for the offload target and by
 * nvcc (C++): every function is HK_HD (world/hd.h), and nothing here
 * includes world.h.
 */

#include <stdint.h>

#ifndef HK_ISA_SCALAR
#define HK_ISA_SCALAR
#endif
#include "simd.h"

#include "external.h" /* after simd.h: the formulas too */
#include "face_force.h"
#include "obstacle_push.h"
#include "spring_lanes.h"
#include "spring_length.h"
#include "update.h"

/* A lattice family as the break pass reads it (world.h hk_family). */
typedef struct hkd_fam {
    int64_t offset;                  /* target - source [particles] */
    int di, dj, dk;                  /* the stencil offset */
    int i0, i1, j0, j1, k0, k1;      /* the box of source nodes */
    hk_real D[3];                    /* rest vector [m] */
    hk_real k, c, rest, break_ratio; /* [N/m], [N*s/m], [m], [1] */
    int model, behaviour;            /* hk_damping_model, hk_behaviour */
    uint8_t *broken;                 /* device: 1 = broken, by the body's local source node; NULL: none */
} hkd_fam;

/* One term of a node's sum, resolved for the node (dev_world.c plan_body): the spring of a lattice family between
 * the node and the node `off` from it, the node its source or its target. The term is the CPU's: d = (q_source -
 * q_target) - D, dv = v_source - v_target, the force added where the node is the source and subtracted where it is
 * the target (the node's own side of the sum would negate the spring's d, which flips the sign of a zero, and a sum
 * can be -0 where a subnormal was flushed: the CPU's operations keep its bits). A body's terms are in the CPU's
 * order. */
typedef struct hkd_term {
    hk_real D[3];             /* the family's rest vector [m] */
    hk_real rest, k, c;       /* [m], [N/m], [N*s/m] */
    int32_t off;              /* the other end's index - the node's [particles] */
    int32_t target;           /* 1: the node is the spring's target (its source is the other end) */
    int32_t lo[3], hi[3];     /* the nodes (i, j, k) of the body that have this term: lo <= (i, j, k) < hi */
    int32_t model, behaviour; /* hk_damping_model, hk_behaviour */
    const uint8_t *broken; /* device: the family's broken flags by local source node (HK_SPRING_BREAKABLE); else NULL */
} hkd_term;

/* The most terms a node pass carries (its kernel parameters): 2 per lattice family of the body; the builders make at
 * most 26 families a body (a jelly of 52 neighbours). */
#define HKD_TERMS_MAX 64

/* How a node pass sums its terms: at every node the generic loop (each term's box tested, its damping model and
 * behaviour read); FAST_*: the nodes inside the box every term has (inside) by a loop with no test, its model
 * fixed, every term's behaviour HK_SPRING_NORMAL. */
enum { HKD_SUM_GENERIC = 0, HKD_SUM_FAST_ALONG, HKD_SUM_FAST_RELATIVE };

/* The state arrays a pass reads and writes: x, y, z each. */
typedef struct hkd_vec {
    hk_real *c[3];
} hkd_vec;

/* NODES: one lattice body's nodes (or a body of points: no terms): f =
 * external + springs, and with an update its new state into qo, vo. The
 * terms ride in the pass's arguments (a kernel's parameters); indices are
 * 32-bit (a world holds at most 2^30 particles). */
typedef struct hkd_nodes_args {
    hkd_vec q, v, qo, vo, f, r;
    const hk_real *mass, *inv_mass;
    int32_t first, nx, ny;
    int32_t nterm, lattice, sum;        /* lattice: the body has lattice families (f = ext + the sum, else f = ext) */
    int32_t inside_lo[3], inside_hi[3]; /* the nodes every term has (sum != GENERIC) */
    hk_external ext;                    /* in the body's frame; contact NULL */
    hk_update upd;
    hkd_term term[HKD_TERMS_MAX];
} hkd_nodes_args;

/* INTEGRATE: the one-evaluation update of a body's particles from f (q, v in; qo, vo out). */
typedef struct hkd_integrate_args {
    hkd_vec q, v, qo, vo, f;
    const hk_real *inv_mass;
    int64_t first;
    hk_update upd;
} hkd_integrate_args;

/* VERLET, KICK, RK4: the multi-evaluation schemes' per-particle updates, in place (update.h). */
typedef struct hkd_multi_args {
    hkd_vec q, v, f, prev, x0, v0, sx, sv;
    const hk_real *inv_mass;
    hk_real h, h2, inv2h, hh, wt, ah;
    int first_step, book_start, drift, stage;
} hkd_multi_args;

/* COPY: x0 = q, v0 = v (RK4's start state). */

/* VOLUME, PRESSURE, FACES and VERTS: a surface's pressure and wind (model/surface.c hk_surface_forces, the
 * formulas of model/face_force.h): VOLUME sums block b's faces' volume terms (face_block faces a block) in order;
 * PRESSURE (one element) sums the blocks in order into pv[1] and puts P = pump nrt / V (0 where V <= 0) into pv[0];
 * FACES computes each face's normal and corner force (P from pv where it is not NULL, else 0), VERTS adds each
 * vertex's faces' force (and the vertex wind) to f. */
typedef struct hkd_surface_args {
    hkd_vec q, r, v, f;
    const int *face; /* dim per face, global particle indices */
    const int *vf_start, *vf_face;
    double *face_f, *face_n;
    double *block; /* device: one partial volume per block of faces [m^3] */
    double *pv;    /* device: the pressure [Pa] and the volume [m^3] of this evaluation; NULL: no pressure */
    int dim, wind, face_block;
    int64_t first, nfaces;       /* the body's first particle, its faces */
    double pump, nrt, wv[3], cw; /* [1], [J], [m/s], [1] */
} hkd_surface_args;

/* WALLS and SPHERE: one body's free particles against the walls or one sphere (contact/obstacle_push.h); the
 * particles moved are counted. */
typedef struct hkd_obstacle_args {
    hkd_vec q, r, v, prev; /* prev.c[0] NULL: no history */
    const hk_real *inv_mass;
    int64_t first;
    double o[3];
    double lo[3], hi[3];      /* walls */
    double c[3], cv[3], R, e; /* sphere */
    hk_real keep, dt;
} hkd_obstacle_args;

/* BREAK: a breakable lattice family's springs by source node of its box (n = the box's nodes); the springs that
 * broke are counted. */
typedef struct hkd_break_args {
    hkd_vec q;
    hkd_fam fam;
    int64_t first; /* the body's first particle */
    int nx, ny;
    double ratio; /* break_ratio [1] */
} hkd_break_args;

/* SET: up to HKD_SET_MAX particles' q and v (the driven anchors of a substep). */
#define HKD_SET_MAX 16
typedef struct hkd_set_args {
    hkd_vec q, v;
    int64_t index[HKD_SET_MAX];
    hk_real qv[HKD_SET_MAX][6];
} hkd_set_args;

/* LIST and LIST_BREAK: springs of a list family (engine/list_pass.h list_lanes, engine/strain.c break_items). LIST:
 * the springs [s0, s0 + n) of one colour, none sharing a particle, each one's force added to its a end's f and
 * subtracted from its b end's; where parity is 0 or 1 only the near springs whose lower end lies in an even or an
 * odd band (of `band` particles, the body's first band first_band) are taken, the order the CPU's bands sum in;
 * with serial set, element 0 runs the springs [s0, s0 + count) in order (the overflow colour, whose particles
 * repeat). LIST_BREAK: spring s0 + e broken for good once r > ratio L0; 1 if it broke now. */
typedef struct hkd_list_args {
    hkd_vec q, v, f;
    const int32_t *a, *b; /* device: the ends (global indices) */
    const hk_real *rest;  /* device: each spring's rest length [m], or NULL (L0) */
    const hk_real *rv[3]; /* device: each spring's rest vector D [m] (a list in a lattice body), or NULL */
    uint8_t *broken;      /* device: 1 = broken, by spring; NULL: none */
    hk_real k, c, L0;     /* [N/m], [N*s/m], [m] */
    int32_t model, behaviour, serial, parity; /* parity: -1 every spring, else 0 even bands, 1 odd */
    int32_t band, first_band;
    int64_t s0, count;
    double ratio; /* break_ratio [1] */
} hkd_list_args;

#include "dev_check_pass.h" /* the check's passes: after hkd_vec and hkd_fam */

/* The passes: X(KIND, name, args member); element i of pass KIND is hkd_<name>(&args.u.<member>, i), which returns
 * what the pass counts (1: this element moved or broke), else 0. */
#define HKD_PASSES(X)                                                                                                  \
    X(HKD_NODES, nodes, nodes)                                                                                         \
    X(HKD_INTEGRATE, integrate, integrate)                                                                             \
    X(HKD_VERLET, verlet, multi)                                                                                       \
    X(HKD_KICK, kick, multi)                                                                                           \
    X(HKD_RK4, rk4, multi)                                                                                             \
    X(HKD_COPY, copy, multi)                                                                                           \
    X(HKD_VOLUME, volume, surface)                                                                                     \
    X(HKD_PRESSURE, pressure, surface)                                                                                 \
    X(HKD_FACES, faces, surface)                                                                                       \
    X(HKD_VERTS, verts, surface)                                                                                       \
    X(HKD_WALLS, walls, obstacle)                                                                                      \
    X(HKD_SPHERE, sphere, obstacle)                                                                                    \
    X(HKD_BREAK, break_springs, brk)                                                                                   \
    X(HKD_SET, set, set)                                                                                               \
    X(HKD_LIST, list, list)                                                                                            \
    X(HKD_LIST_BREAK, list_break, list)                                                                                \
    X(HKD_FINITE, finite, sums)                                                                                        \
    X(HKD_ENERGY, energy, sums)                                                                                        \
    X(HKD_SCAN, scan, scan)                                                                                            \
    X(HKD_FOLD, fold, fold)                                                                                            \
    X(HKD_PROBE, contract_probe, multi)

typedef enum hkd_kind {
#define HKD_KIND(K, name, m) K,
    HKD_PASSES(HKD_KIND)
#undef HKD_KIND
        HKD_KIND_COUNT
} hkd_kind;

/* One pass: its kind and its arguments (by value: a kernel's parameters). */
typedef struct hkd_args {
    hkd_kind kind;
    union {
        hkd_nodes_args nodes;
        hkd_integrate_args integrate;
        hkd_multi_args multi;
        hkd_surface_args surface;
        hkd_obstacle_args obstacle;
        hkd_break_args brk;
        hkd_set_args set;
        hkd_list_args list;
        hkd_sums_args sums;
        hkd_scan_args scan;
        hkd_fold_args fold;
    } u;
} hkd_args;

/* ---- the per-element steps ------------------------------------------------------------------------------------- */

/* Term T of the node at global index g (local l, its own position and velocity qn, vn) into the sum s, as the
 * sweep's row pass computes it (engine/row_family.h family_lanes): d = (q_s - q_t) - D, dv = v_s - v_t,
 * spring_lanes, added where the node is the source s and subtracted where it is the target t; a broken spring adds
 * 0. target, model and behaviour are constants of the caller's branch or loop (the compiler drops the tests). */
static inline HK_HD void hkd_term_add(const hkd_nodes_args *a, const hkd_term *T, int32_t g, int32_t l,
                                      const hk_real qn[3], const hk_real vn[3], int target, int model, int behaviour,
                                      hk_w s[3])
{
    const int32_t o = g + T->off;
    hk_wm live = wm_all();
    if (behaviour == HK_SPRING_BREAKABLE && T->broken)
        live = wm_and(live, wm_unbroken(T->broken + l + (target ? T->off : 0)));
    hk_w qo[3], vo[3], d[3], dv[3], f[3];
    for (int c = 0; c < 3; c++) {
        qo[c] = w_loadu(a->q.c[c] + o), vo[c] = w_loadu(a->v.c[c] + o);
        d[c] = w_sub(target ? w_sub(qo[c], qn[c]) : w_sub(qn[c], qo[c]), w_set1(T->D[c]));
        dv[c] = target ? w_sub(vo[c], vn[c]) : w_sub(vn[c], vo[c]);
    }
    spring_lanes(d[0], d[1], d[2], dv[0], dv[1], dv[2], w_set1(T->rest), w_set1(T->k), w_set1(T->c), live,
                 (hk_damping_model)model, (hk_behaviour)behaviour, &f[0], &f[1], &f[2]);
    for (int c = 0; c < 3; c++) s[c] = target ? w_sub(s[c], f[c]) : w_add(s[c], f[c]);
}

/* The node's terms in order into s: tested (box, T's model and behaviour: the generic sum) or, inside the box every
 * term has, with model fixed and every behaviour HK_SPRING_NORMAL (test 0: a fast sum). */
static inline HK_HD void hkd_terms(const hkd_nodes_args *a, int32_t g, int32_t l, const int32_t ijk[3],
                                   const hk_real qn[3], const hk_real vn[3], int test, int model, hk_w s[3])
{
    for (int32_t n = 0; n < a->nterm; n++) {
        const hkd_term *T = &a->term[n];
        if (test) {
            int in = 1;
            for (int c = 0; c < 3; c++) in &= ijk[c] >= T->lo[c] && ijk[c] < T->hi[c];
            if (!in) continue;
            if (T->target)
                hkd_term_add(a, T, g, l, qn, vn, 1, T->model, T->behaviour, s);
            else
                hkd_term_add(a, T, g, l, qn, vn, 0, T->model, T->behaviour, s);
        } else if (T->target) { /* the same for every node: no divergence */
            hkd_term_add(a, T, g, l, qn, vn, 1, model, HK_SPRING_NORMAL, s);
        } else {
            hkd_term_add(a, T, g, l, qn, vn, 0, model, HK_SPRING_NORMAL, s);
        }
    }
}

/* Node l of a body: its springs' sum in the CPU's order, then f = external + the sum (engine/particle_pass.h
 * finish_lanes), stored, and the update into qo, vo. */
static inline HK_HD int hkd_nodes(const hkd_nodes_args *a, int64_t node)
{
    const int32_t l = (int32_t)node, g = a->first + l;
    const uint32_t jk = (uint32_t)l / (uint32_t)a->nx;
    const int32_t ijk[3] = {l - (int32_t)jk * a->nx, (int32_t)(jk % (uint32_t)a->ny), (int32_t)(jk / (uint32_t)a->ny)};
    const hk_real qn[3] = {a->q.c[0][g], a->q.c[1][g], a->q.c[2][g]};
    const hk_real vn[3] = {a->v.c[0][g], a->v.c[1][g], a->v.c[2][g]};
    hk_w s[3] = {w_set1(0), w_set1(0), w_set1(0)};
    int inside = a->sum != HKD_SUM_GENERIC;
    for (int c = 0; c < 3; c++) inside &= ijk[c] >= a->inside_lo[c] && ijk[c] < a->inside_hi[c];
    if (inside && a->sum == HKD_SUM_FAST_ALONG)
        hkd_terms(a, g, l, ijk, qn, vn, 0, HK_DAMP_ALONG, s);
    else if (inside)
        hkd_terms(a, g, l, ijk, qn, vn, 0, HK_DAMP_RELATIVE, s);
    else
        hkd_terms(a, g, l, ijk, qn, vn, 1, 0, s);
    const hk_real *const r[3] = {a->r.c[0] + g, a->r.c[1] + g, a->r.c[2] + g};
    const hk_real *const q[3] = {a->q.c[0] + g, a->q.c[1] + g, a->q.c[2] + g};
    hk_w px, py, pz, ex, ey, ez;
    external_position(&a->ext, r, q, 1, &px, &py, &pz);
    external_lanes(&a->ext, w_loadu(a->mass + g), px, py, pz, vn[0], vn[1], vn[2], &ex, &ey, &ez);
    const hk_w tx = a->lattice ? w_add(ex, s[0]) : ex, ty = a->lattice ? w_add(ey, s[1]) : ey,
               tz = a->lattice ? w_add(ez, s[2]) : ez;
    w_storeu(a->f.c[0] + g, tx);
    w_storeu(a->f.c[1] + g, ty);
    w_storeu(a->f.c[2] + g, tz);
    if (a->upd.kind == HK_UPDATE_NONE) return 0;
    hk_real x = qn[0], y = qn[1], z = qn[2], ux = vn[0], uy = vn[1], uz = vn[2];
    update_lanes(&a->upd, w_loadu(a->inv_mass + g), tx, ty, tz, &x, &y, &z, &ux, &uy, &uz, 1);
    a->qo.c[0][g] = x, a->qo.c[1][g] = y, a->qo.c[2][g] = z;
    a->vo.c[0][g] = ux, a->vo.c[1][g] = uy, a->vo.c[2][g] = uz;
    return 0;
}

/* Particle first + l: the one-evaluation update from its force (engine/particle_pass.h integrate). */
static inline HK_HD int hkd_integrate(const hkd_integrate_args *a, int64_t l)
{
    const int64_t g = a->first + l;
    hk_real x = a->q.c[0][g], y = a->q.c[1][g], z = a->q.c[2][g];
    hk_real ux = a->v.c[0][g], uy = a->v.c[1][g], uz = a->v.c[2][g];
    update_lanes(&a->upd, w_loadu(a->inv_mass + g), w_loadu(a->f.c[0] + g), w_loadu(a->f.c[1] + g),
                 w_loadu(a->f.c[2] + g), &x, &y, &z, &ux, &uy, &uz, 1);
    a->qo.c[0][g] = x, a->qo.c[1][g] = y, a->qo.c[2][g] = z;
    a->vo.c[0][g] = ux, a->vo.c[1][g] = uy, a->vo.c[2][g] = uz;
    return 0;
}

/* Particle g: position Verlet's update (step/integrators.c verlet_span). */
static inline HK_HD int hkd_verlet(const hkd_multi_args *a, int64_t g)
{
    const hk_real im = a->inv_mass[g];
    for (int c = 0; c < 3; c++) {
        if (a->first_step)
            hk_verlet_first(im, a->f.c[c][g], &a->q.c[c][g], &a->v.c[c][g], &a->prev.c[c][g], a->h, a->h2,
                            a->book_start);
        else
            hk_verlet_next(im, a->f.c[c][g], &a->q.c[c][g], &a->v.c[c][g], &a->prev.c[c][g], a->h, a->h2, a->inv2h);
    }
    return 0;
}

/* Particle g: half a velocity Verlet kick, with the drift (kick_span). */
static inline HK_HD int hkd_kick(const hkd_multi_args *a, int64_t g)
{
    const hk_real im = a->inv_mass[g];
    if (im == 0) return 0;
    const hk_real f[3] = {a->f.c[0][g], a->f.c[1][g], a->f.c[2][g]};
    hk_real *const q[3] = {&a->q.c[0][g], &a->q.c[1][g], &a->q.c[2][g]};
    hk_real *const v[3] = {&a->v.c[0][g], &a->v.c[1][g], &a->v.c[2][g]};
    hk_kick(im, f, q, v, a->hh, a->drift, a->h);
    return 0;
}

/* Particle g: one RK4 stage (rk4_span). */
static inline HK_HD int hkd_rk4(const hkd_multi_args *a, int64_t g)
{
    const hk_real im = a->inv_mass[g];
    for (int c = 0; c < 3; c++)
        hk_rk4_stage(im, a->f.c[c][g], &a->q.c[c][g], &a->v.c[c][g], a->x0.c[c][g], a->v0.c[c][g], &a->sx.c[c][g],
                     &a->sv.c[c][g], a->stage, a->wt, a->ah, a->h);
    return 0;
}

/* Particle g: RK4's start state. */
static inline HK_HD int hkd_copy(const hkd_multi_args *a, int64_t g)
{
    for (int c = 0; c < 3; c++) {
        a->x0.c[c][g] = a->q.c[c][g];
        a->v0.c[c][g] = a->v.c[c][g];
    }
    return 0;
}

/* Face f's corners' places in the body's frame, and their velocities. */
static inline HK_HD void hkd_corners(const hkd_surface_args *a, int64_t f, double pos[3][3], hk_real vel[3][3])
{
    const int *c = a->face + f * a->dim;
    for (int q = 0; q < a->dim; q++)
        for (int k = 0; k < 3; k++) {
            pos[q][k] = hk_frame_local(a->r.c[k][c[q]], a->q.c[k][c[q]]);
            vel[q][k] = a->v.c[k][c[q]];
        }
}

/* Block b of a surface's faces: their volume terms summed in order (the CPU's pass 1). */
static inline HK_HD int hkd_volume(const hkd_surface_args *a, int64_t b)
{
    const int64_t f0 = b * a->face_block, f1 = f0 + a->face_block < a->nfaces ? f0 + a->face_block : a->nfaces;
    double sum = 0;
    for (int64_t f = f0; f < f1; f++) {
        double pos[3][3] = {{0}};
        hk_real vel[3][3] = {{0}};
        hkd_corners(a, f, pos, vel);
        sum += hk_face_volume_term(a->dim, HK_VOLUME_GAUSS, (const double(*)[3])pos);
    }
    a->block[b] = sum;
    return 0;
}

/* The surface's volume (its blocks in order) and pressure P = nRT / V, pumped; none in an inverted body. */
static inline HK_HD int hkd_pressure(const hkd_surface_args *a, int64_t e)
{
    (void)e;
    const int64_t nblocks = (a->nfaces + a->face_block - 1) / a->face_block;
    double v = 0;
    for (int64_t b = 0; b < nblocks; b++) v += a->block[b];
    a->pv[0] = v > 0 ? a->pump * a->nrt / v : 0;
    a->pv[1] = v;
    return 0;
}

/* Face f of a surface: its normal and corner force (model/surface.c's face pass). */
static inline HK_HD int hkd_faces(const hkd_surface_args *a, int64_t f)
{
    double pos[3][3] = {{0}};
    hk_real vel[3][3] = {{0}};
    hkd_corners(a, f, pos, vel);
    double *fn = a->face_n + 3 * f, *ff = a->face_f + 3 * f;
    hk_face_normal(a->dim, (const double(*)[3])pos, fn);
    hk_face_force(a->dim, a->pv ? a->pv[0] : 0, a->wind, a->wv, a->cw, fn, (const hk_real(*)[3])vel, ff);
    return 0;
}

/* Vertex l of a surface: its faces' sum and wind added to f (the vertex pass). */
static inline HK_HD int hkd_verts(const hkd_surface_args *a, int64_t l)
{
    double F[3], N[3];
    hk_vertex_faces(a->vf_start, a->vf_face, a->face_f, a->face_n, (int)l, F, N);
    const int64_t g = a->first + l;
    if (a->wind == HK_WIND_VERTEX) {
        const hk_real vel[3] = {a->v.c[0][g], a->v.c[1][g], a->v.c[2][g]};
        hk_vertex_wind(a->wv, a->cw, vel, N, F);
    }
    for (int k = 0; k < 3; k++) a->f.c[k][g] += (hk_real)F[k];
    return 0;
}

/* Particle first + l against the walls, or one sphere. */
static inline HK_HD int hkd_obstacle(const hkd_obstacle_args *a, int64_t l, int sphere)
{
    const int64_t g = a->first + l;
    if (a->inv_mass[g] == 0) return 0;
    const hk_real r[3] = {a->r.c[0][g], a->r.c[1][g], a->r.c[2][g]};
    hk_real *const q[3] = {&a->q.c[0][g], &a->q.c[1][g], &a->q.c[2][g]};
    hk_real *const v[3] = {&a->v.c[0][g], &a->v.c[1][g], &a->v.c[2][g]};
    hk_real *const prev[3] = {a->prev.c[0] ? &a->prev.c[0][g] : NULL, a->prev.c[1] ? &a->prev.c[1][g] : NULL,
                              a->prev.c[2] ? &a->prev.c[2][g] : NULL};
    return sphere ? hk_sphere_push(a->o, r, q, v, a->c, a->cv, a->R, a->e, a->dt, a->prev.c[0] ? prev : NULL)
                  : hk_walls_push(a->o, r, q, v, a->lo, a->hi, a->keep, a->dt, a->prev.c[0] ? prev : NULL);
}

static inline HK_HD int hkd_walls(const hkd_obstacle_args *a, int64_t l) { return hkd_obstacle(a, l, 0); }
static inline HK_HD int hkd_sphere(const hkd_obstacle_args *a, int64_t l) { return hkd_obstacle(a, l, 1); }

/* Source node n (in the family's box, i fastest) of a breakable family: broken for good once r > ratio L0
 * (step/strain.c break_items); 1 if it broke now. */
static inline HK_HD int hkd_break_springs(const hkd_break_args *a, int64_t n)
{
    const hkd_fam *F = &a->fam;
    const int64_t bi = F->i1 - F->i0, bj = F->j1 - F->j0;
    const int64_t i = F->i0 + n % bi, j = F->j0 + n / bi % bj, k = F->k0 + n / (bi * bj);
    const int64_t l = i + (int64_t)a->nx * (j + (int64_t)a->ny * k), s = a->first + l, t = s + F->offset;
    hk_real d[3];
    for (int c = 0; c < 3; c++) d[c] = a->q.c[c][s] - a->q.c[c][t] - F->D[c];
    if (F->broken[l] || !(hk_spring_length(d[0], d[1], d[2]) > a->ratio * F->rest)) return 0;
    F->broken[l] = 1;
    return 1;
}

/* Entry n of a SET pass. */
static inline HK_HD int hkd_set(const hkd_set_args *a, int64_t n)
{
    const int64_t g = a->index[n];
    for (int c = 0; c < 3; c++) {
        a->q.c[c][g] = a->qv[n][c];
        a->v.c[c][g] = a->qv[n][3 + c];
    }
    return 0;
}

/* List spring s: d = (q_a - q_b) (- D), dv = v_a - v_b, spring_lanes; f_a += F, f_b -= F. */
static inline HK_HD void hkd_list_one(const hkd_list_args *a, int64_t s)
{
    const int32_t i = a->a[s], j = a->b[s];
    hk_wm live = wm_all();
    if (a->broken) live = wm_and(live, wm_unbroken(a->broken + s));
    hk_w d[3], dv[3], f[3];
    for (int c = 0; c < 3; c++) {
        d[c] = w_sub(w_loadu(a->q.c[c] + i), w_loadu(a->q.c[c] + j));
        if (a->rv[0]) d[c] = w_sub(d[c], w_loadu(a->rv[c] + s));
        dv[c] = w_sub(w_loadu(a->v.c[c] + i), w_loadu(a->v.c[c] + j));
    }
    spring_lanes(d[0], d[1], d[2], dv[0], dv[1], dv[2], a->rest ? w_loadu(a->rest + s) : w_set1(a->L0), w_set1(a->k),
                 w_set1(a->c), live, (hk_damping_model)a->model, (hk_behaviour)a->behaviour, &f[0], &f[1], &f[2]);
    for (int c = 0; c < 3; c++) a->f.c[c][i] = w_add(a->f.c[c][i], f[c]);
    for (int c = 0; c < 3; c++) a->f.c[c][j] = w_sub(a->f.c[c][j], f[c]);
}

/* Element e of a LIST pass. */
static inline HK_HD int hkd_list(const hkd_list_args *a, int64_t e)
{
    if (a->serial) {
        for (int64_t s = a->s0; s < a->s0 + a->count; s++) hkd_list_one(a, s);
        return 0;
    }
    const int64_t s = a->s0 + e;
    if (a->parity >= 0) {
        const int32_t lo = a->a[s] < a->b[s] ? a->a[s] : a->b[s];
        if ((lo / a->band - a->first_band) % 2 != a->parity) return 0;
    }
    hkd_list_one(a, s);
    return 0;
}

/* Element e of a LIST_BREAK pass: spring s0 + e against break_ratio L0. */
static inline HK_HD int hkd_list_break(const hkd_list_args *a, int64_t e)
{
    const int64_t s = a->s0 + e;
    const int32_t i = a->a[s], j = a->b[s];
    hk_real d[3];
    for (int c = 0; c < 3; c++) d[c] = (a->q.c[c][i] - a->q.c[c][j]) - (a->rv[0] ? a->rv[c][s] : (hk_real)0);
    const double L0 = a->rest ? (double)a->rest[s] : (double)a->L0;
    if (a->broken[s] || !(hk_spring_length(d[0], d[1], d[2]) > a->ratio * L0)) return 0;
    a->broken[s] = 1;
    return 1;
}

/* Particle g: q.x = q.x 1.25 + 0.3125, written as two operations, the shape a compiler that contracts would fuse
 * into one: tests/check_ptx.py finds it by its constants in each driver's PTX and requires a multiply and an add
 * there, the proof that the build's -ffp-contract=off (-fmad=false for nvcc) reached the device's compiler. No step
 * runs it. */
static inline HK_HD int hkd_contract_probe(const hkd_multi_args *a, int64_t g)
{
    a->q.c[0][g] = a->q.c[0][g] * (hk_real)1.25 + (hk_real)0.3125;
    return 0;
}

#endif
