/* row_group.h — register blocking: several lattice families of one source row in one pass (AVX-512: lane shifts). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ROW_GROUP_H
#define HOOKE_ROW_GROUP_H

/* Included by kernels_isa.h after row_family.h, on ISAs with a lane shift
 * (simd.h, HK_HAS_SHIFT).
 *
 * Several families of one source row in a single pass over the row. The
 * source ends are loaded once per vector and shared, the source row's sums
 * stay in registers across the families (a same-row family's targets fold
 * in through the shift), and only the targets in rows ahead are read and
 * written, as aligned vectors, with the previous vector of every family that
 * shifts carried in registers. A family with di < 0 (down left) is evaluated
 * on the sources i - di .. i - di + W - 1, so that its targets are the
 * aligned vector i like a down family's, and its terms for the sources come
 * in through the shift instead. Consecutive families with targets in the
 * same row can form a run (joins): the run reads and writes each vector of
 * that row once for all of them instead of once per family. A family that
 * forms no group runs through here alone (n = 1). Each entry receives
 * exactly the terms family_row (the AVX2 and scalar pass) gives it, in the
 * same order.
 *
 * A group's shape is a compile-time constant where it runs (group_row is
 * inlined with a pointer into the tables below), so the carries of families
 * that do not shift cost nothing, and for the rows of the shipped stencils
 * di is fixed too, so each shift is one valignd with an immediate. */

/* the fewest whole vectors for which group_row runs its copy without row-end tests */
#define HK_FULL_MIN 8
/* a family as seen from its source row: dr = 0; dr > 0 with di = 0, > 0, < 0 */
enum { HK_K_SAME, HK_K_DOWN, HK_K_DOWN_RIGHT, HK_K_DOWN_LEFT };
#define HK_GROUP_MAX 6
#define HK_DI_ANY 99 /* di read from the family at run time */

typedef struct hk_group {
    int n;                   /* families, 1 .. HK_GROUP_MAX */
    int kind[HK_GROUP_MAX];  /* HK_K_* of each family */
    int di[HK_GROUP_MAX];    /* each family's di, or HK_DI_ANY */
    int joins[HK_GROUP_MAX]; /* 1: the family joins the run of the one before it (one target row) */
} hk_group;

#define S_ HK_K_SAME
#define D_ HK_K_DOWN
#define R_ HK_K_DOWN_RIGHT
#define L_ HK_K_DOWN_LEFT
#define X_ HK_DI_ANY
/* The groups that get a blocked pass: the rows of the shipped stencils (rope,
 * cloth, 26- and 52-neighbour jelly) as group_at splits them (the sweep's
 * family order, sweep.c), with their di fixed; and the kinds that cloths
 * with a radius stencil form with other di. Any other run goes family by
 * family. The first that fits is taken (group_at). */
static const hk_group hk_groups[] = {
    {2, {S_, S_}, {1, 2}, {0, 0}},                                          /* rope: chain, skip */
    {6, {S_, S_, D_, D_, R_, L_}, {1, 2, 0, 0, 1, -1}, {0, 0, 0, 0, 1, 1}}, /* cloth: the row, 2 down, 1 down */
    {4, {S_, D_, R_, L_}, {1, 0, 1, -1}, {0, 0, 1, 1}},                     /* jelly: the row and the farthest */
    {3, {D_, R_, L_}, {0, 1, -1}, {0, 1, 1}},                               /* jelly: each nearer target row */
    {5, {S_, S_, D_, R_, L_}, {1, 2, 0, 2, -2}, {0, 0, 0, 1, 1}},           /* 52-neighbour jelly */
    {5, {S_, S_, D_, R_, L_}, {1, 2, 0, 1, -1}, {0, 0, 0, 1, 1}},           /* rows without a farthest */
    {3, {D_, R_, L_}, {0, 2, -2}, {0, 1, 1}},                               /* 52-neighbour jelly: ring 2 */
    {2, {S_, S_}, {X_, X_}, {0, 0}},                                        /* radius cloth rows: any di */
    {2, {R_, L_}, {X_, X_}, {0, 1}},                                        /* radius cloth rows: a run */
};
#define HK_GROUP_COUNT ((int)(sizeof hk_groups / sizeof hk_groups[0]))
/* lattice_row's cases, one per group of hk_groups */
#define HK_GROUP_INDICES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8)
_Static_assert(HK_GROUP_COUNT == 9, "HK_GROUP_INDICES must list every group of hk_groups");
/* A family alone, of each kind (di read at run time) */
static const hk_group hk_alone[4] = {
    {1, {S_}, {X_}, {0}},
    {1, {D_}, {X_}, {0}},
    {1, {R_}, {X_}, {0}},
    {1, {L_}, {X_}, {0}},
};
#undef S_
#undef D_
#undef R_
#undef L_
#undef X_

/* di of family q of group g */
static inline __attribute__((always_inline)) int group_di(const hk_group *g, int q, const hk_family *f)
{
    return g->di[q] != HK_DI_ANY ? g->di[q] : f->di;
}
/* Whether family q starts its run (reads the target vector) */
static inline __attribute__((always_inline)) int run_first(const hk_group *g, int q) { return q == 0 || !g->joins[q]; }
/* Whether family q ends its run (writes the target vector back) */
static inline __attribute__((always_inline)) int run_last(const hk_group *g, int q)
{
    return q + 1 >= g->n || !g->joins[q + 1];
}

/* The vectors a group's pass runs over: vector i evaluates the sources
 * i + e .. i + e + W - 1 of each family, e = -di for a down-left family and
 * 0 otherwise, and the pass covers every vector that holds a source or a
 * term. The middle [full_lo, full_hi), where every family's lanes are all
 * springs, is empty ([hi, hi)) where it is shorter than HK_FULL_MIN
 * vectors. Worked out once per row class (plan_row). */
static hk_row_span group_span(const hk_row_family *fams, const hk_group *g)
{
    int lo = 1 << 30, hi = 0, full_lo = -(1 << 30), full_hi = 1 << 30;
    for (int q = 0; q < g->n; q++) {
        const hk_family *f = fams[q].f;
        const int e = g->kind[q] == HK_K_DOWN_LEFT ? -group_di(g, q, f) : 0;
        const int a0 = (f->i0 - e + HK_W - 1) / HK_W * HK_W, a1 = (f->i1 - e) / HK_W * HK_W;
        if ((f->i0 - e) / HK_W * HK_W < lo) lo = (f->i0 - e) / HK_W * HK_W;
        if (f->i1 > hi) hi = f->i1;
        if (a0 > full_lo) full_lo = a0;
        if (a1 < full_hi) full_hi = a1;
    }
    if (full_lo < lo) full_lo = lo;
    if (full_hi > hi) full_hi = hi;
    if (full_hi - full_lo < HK_FULL_MIN * HK_W) full_lo = full_hi = hi; /* never reached: one copy */
    return (hk_row_span){lo, hi, full_lo, full_hi};
}

/* group_row is inlined into lattice_row once per group, damping model and
 * copy (split), so that those are constants there. Unoptimised (the
 * sanitizer builds) it is a function of its own: there nothing is folded,
 * and the inlined copies' locals, never shared, made lattice_row's stack
 * frame larger than an OpenMP thread's stack. */
#if defined(__OPTIMIZE__)
#define HK_GROUP_INLINE static inline __attribute__((always_inline))
#else
#define HK_GROUP_INLINE static __attribute__((noinline))
#endif
HK_GROUP_INLINE void group_row(const hk_row_family *fams, const hk_group *g, const hk_real *const src[6],
                               int64_t local0, hk_real *const acc[3], int bstride, hk_damping_model model,
                               hk_behaviour behaviour, const int split)
{
    const int n = g->n;
    const hk_row_span span = fams[0].span;
    const hk_w iota = w_load(lane_index), zero = w_set1(0);
    hk_real *ax = acc[0], *ay = acc[1], *az = acc[2];
    hk_w px[HK_GROUP_MAX], py[HK_GROUP_MAX], pz[HK_GROUP_MAX]; /* each family's previous vector */
    for (int q = 0; q < HK_GROUP_MAX; q++) px[q] = py[q] = pz[q] = zero;
        /* one vector: FULL (a constant) says the lanes are all springs */
        // clang-format off
#define HK_GROUP_STEP(FULL)                                                                                            \
    do {                                                                                                               \
        hk_w a[6], tx, ty, tz; /* t: a run's target vector */                                                          \
        source_lanes(src, i, a);                                                                                       \
        hk_w sx = w_load(ax + i), sy = w_load(ay + i), sz = w_load(az + i);                                            \
_Pragma("GCC unroll 8")                                                                                                \
        for (int q = 0; q < HK_GROUP_MAX; q++) {                                                                       \
            if (q >= n) break;                                                                                         \
            const hk_family *f = fams[q].f;                                                                            \
            const uint8_t *broken = f->broken ? f->broken + local0 : NULL;                                             \
            const int di = group_di(g, q, f), kind = g->kind[q];                                                       \
            hk_w fy, fz, fx;                                                                                           \
            if (kind == HK_K_DOWN_LEFT) { /* sources i - di ..: targets i .. i + W - 1 */                              \
                hk_w b[6];                                                                                             \
                source_lanes(src, i - di, b);                                                                          \
                fx = family_lanes(f, src, b, broken, i - di, iota, FULL, model, behaviour, &fy, &fz);                  \
                sx = w_add(sx, w_shift_in(px[q], fx, -di));                                                            \
                sy = w_add(sy, w_shift_in(py[q], fy, -di));                                                            \
                sz = w_add(sz, w_shift_in(pz[q], fz, -di));                                                            \
            } else {                                                                                                   \
                fx = family_lanes(f, src, a, broken, i, iota, FULL, model, behaviour, &fy, &fz);                       \
                sx = w_add(sx, fx);                                                                                    \
                sy = w_add(sy, fy);                                                                                    \
                sz = w_add(sz, fz);                                                                                    \
            }                                                                                                          \
            if (kind == HK_K_SAME) { /* acc[i] = (acc[i] + F(i)) - F(i - di) */                                        \
                sx = w_sub(sx, w_shift_in(px[q], fx, di));                                                             \
                sy = w_sub(sy, w_shift_in(py[q], fy, di));                                                             \
                sz = w_sub(sz, w_shift_in(pz[q], fz, di));                                                             \
            } else { /* dst[i] -= F(i - di), once per run: read at its first family, written at its last */            \
                hk_real *ox = fams[q].dst, *oy = ox + bstride, *oz = oy + bstride;                                     \
                if (run_first(g, q) && fams[q].fresh) { /* the row holds nothing yet */                                \
                    tx = ty = tz = zero;                                                                               \
                } else if (run_first(g, q)) {                                                                          \
                    tx = w_load(ox + i);                                                                               \
                    ty = w_load(oy + i);                                                                               \
                    tz = w_load(oz + i);                                                                               \
                }                                                                                                      \
                if (kind == HK_K_DOWN_RIGHT) {                                                                         \
                    tx = w_sub(tx, w_shift_in(px[q], fx, di));                                                         \
                    ty = w_sub(ty, w_shift_in(py[q], fy, di));                                                         \
                    tz = w_sub(tz, w_shift_in(pz[q], fz, di));                                                         \
                } else {                                                                                               \
                    tx = w_sub(tx, fx);                                                                                \
                    ty = w_sub(ty, fy);                                                                                \
                    tz = w_sub(tz, fz);                                                                                \
                }                                                                                                      \
                if (run_last(g, q)) {                                                                                  \
                    w_store(ox + i, tx);                                                                               \
                    w_store(oy + i, ty);                                                                               \
                    w_store(oz + i, tz);                                                                               \
                }                                                                                                      \
            }                                                                                                          \
            px[q] = fx;                                                                                                \
            py[q] = fy;                                                                                                \
            pz[q] = fz;                                                                                                \
        }                                                                                                              \
        w_store(ax + i, sx);                                                                                           \
        w_store(ay + i, sy);                                                                                           \
        w_store(az + i, sz);                                                                                           \
    } while (0)
    // clang-format on
    /* With split (a constant: rows of at least HK_FULL_MIN + 2 vectors), the
     * vectors [full_lo, full_hi) where every family's lanes are all springs
     * run as a second copy of the step without the row-end tests (cloth
     * 256x256: 14 of 16 vectors). Short rows (a 64-node jelly row has 2 such
     * vectors of 4) keep the one copy: there the switch between two copies
     * cost more than the tests. The span comes from plan_row (group_span). */
    int i = span.lo;
    if (split) {
        while (i < span.hi) {
            if (i == span.full_lo) {
                for (; i < span.full_hi; i += HK_W) HK_GROUP_STEP(1);
                continue;
            }
            HK_GROUP_STEP(0);
            i += HK_W;
        }
    } else {
        for (; i < span.hi; i += HK_W) HK_GROUP_STEP(0);
    }
#undef HK_GROUP_STEP
    /* the terms the last vector still owes to the next: those of the
     * families that shift their targets, for the sources i - di .. i - 1,
     * where there are any (i - di < i1; else they are all 0, and subtracting
     * 0 changes no bits). A down-left family's owed terms would be for
     * sources >= hi: there are none. */
#pragma GCC unroll 8
    for (int q = 0; q < HK_GROUP_MAX; q++) {
        if (q >= n) break;
        const int di = group_di(g, q, fams[q].f), kind = g->kind[q];
        hk_real *const ox = kind == HK_K_SAME ? ax : fams[q].dst, *const oy = kind == HK_K_SAME ? ay : ox + bstride,
                       *const oz = kind == HK_K_SAME ? az : oy + bstride;
        if ((kind == HK_K_SAME || kind == HK_K_DOWN_RIGHT) && i - di < fams[q].f->i1) {
            w_store(ox + i, w_sub(w_load(ox + i), w_shift_in(px[q], zero, di)));
            w_store(oy + i, w_sub(w_load(oy + i), w_shift_in(py[q], zero, di)));
            w_store(oz + i, w_sub(w_load(oz + i), w_shift_in(pz[q], zero, di)));
        }
    }
}

static int row_kind(const hk_row_family *rf)
{
    return rf->dr == 0 ? HK_K_SAME : rf->f->di == 0 ? HK_K_DOWN : rf->f->di > 0 ? HK_K_DOWN_RIGHT : HK_K_DOWN_LEFT;
}

/* Whether group_row can run family f: its lane shift |di| fits one vector
 * (lattice_row runs any other family through family_row) */
static inline int shift_fits(const hk_family *f) { return f->di > -HK_W && f->di < HK_W; }

/* Whether family f can be in a blocked group with damping model `model` */
static int groupable(const hk_family *f, hk_damping_model model)
{
    return f->params.behaviour == HK_SPRING_NORMAL && f->params.damping_model == model && shift_fits(f);
}

/* The shape of the longest group that fams (at most nfam long) can start
 * with at most `limit` carried vectors (every family that shifts carries
 * one): families go in by target row, the families of one row distance
 * (dr > 0) joined into one run; a row distance that does not fit starts the
 * next group, or when it is the first is taken family by family. Returns
 * the shape (n, kinds, di and joins) and the carried vectors in *units. */
static hk_group group_take(const hk_row_family *fams, int nfam, int limit, int *units)
{
    const hk_damping_model model = fams[0].f->params.damping_model;
    hk_group g = {0};
    *units = 0;
    while (g.n < HK_GROUP_MAX && g.n < nfam) {
        const int n = g.n;
        int b = 0, need = 0;
        while (n + b < nfam && fams[n + b].dr == fams[n].dr && groupable(fams[n + b].f, model)) {
            need += row_kind(&fams[n + b]) != HK_K_DOWN;
            b++;
        }
        if (b == 0) break;
        int take = b;
        if (n + b > HK_GROUP_MAX || *units + need > limit) {
            if (n > 0) break; /* the row distance starts the next group */
            for (take = 0, need = 0; take < b && take < HK_GROUP_MAX; take++) {
                const int c = row_kind(&fams[take]) != HK_K_DOWN;
                if (need + c > limit) break;
                need += c;
            }
        }
        for (int q = n; q < n + take; q++) {
            g.kind[q] = row_kind(&fams[q]);
            g.di[q] = fams[q].f->di;
            g.joins[q] = fams[n].dr != 0 && q > n;
        }
        g.n += take;
        *units += need;
        if (take < b) break;
    }
    return g;
}

/* Whether listed group g runs the first n families of shape s: the same
 * kinds; di as s's (fixed) or all read at run time (!fixed); s's joins
 * (joined) or none (every group is also right unjoined). */
static int group_fits(const hk_group *g, const hk_group *s, int n, int fixed, int joined)
{
    if (g->n != n) return 0;
    for (int q = 0; q < n; q++)
        if (g->kind[q] != s->kind[q] || g->di[q] != (fixed ? s->di[q] : HK_DI_ANY) ||
            g->joins[q] != (joined ? s->joins[q] : 0))
            return 0;
    return 1;
}

/* The blocked pass for the next group of fams (at most nfam long): 1 + its
 * index in hk_groups, or 0 if none (the family then goes alone). A group
 * carries at most five vectors, and four when it has six families (more
 * spill the 32 vector registers: docs/performance-notes.md, "The jelly"). The longest
 * prefix with a listed group is taken, preferring di fixed to di read at
 * run time, and joined runs to unjoined ones. */
static int group_at(const hk_row_family *fams, int nfam)
{
    int units;
    hk_group s = group_take(fams, nfam, 5, &units);
    if (s.n == HK_GROUP_MAX && units > 4) s = group_take(fams, nfam, 4, &units);
    for (int n = s.n; n >= 2; n--)
        for (int t = 0; t < 4; t++)
            for (int i = 0; i < HK_GROUP_COUNT; i++)
                if (group_fits(&hk_groups[i], &s, n, t == 0 || t == 2, t < 2)) return 1 + i;
    return 0;
}

#endif
