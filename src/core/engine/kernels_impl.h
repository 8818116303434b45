/* kernels_impl.h — the spring, force and integration kernels, written once over simd.h and compiled per ISA. */
#ifndef HOOKE_KERNELS_IMPL_H
#define HOOKE_KERNELS_IMPL_H

#include "kernels.h"
#include "simd.h"
#include "springs.h"

/* The arithmetic of every lane, in this order (it is the order of
 * hk_spring_force in springs.h, so a lane's F equals the reference's bits):
 *   d = x_a - x_b, r2 = fma(dz, dz, fma(dy, dy, dx dx)), r = sqrt(r2),
 *   along:    q = 1 / r, g = fma(fma(-(c (dv . d)), q, kL0), q, -k),  F = g d
 *   relative: g = kL0 / r - k,                      F = fma(g, d, -(c dv))
 * (fma(a, b, c) = a b + c rounded once; kL0 = k * L0, rounded once;
 * dv . d = fma(dvz, dz, fma(dvy, dy, dvx dx))). Both are
 * -(k (r - L0) + c (dv . u)) u, resp. -k (r - L0) u - c dv, with u = d / r,
 * written without the unit vector. e = r - L0 decides slack springs under a
 * behaviour. Lanes with r = 0, a broken spring, or a slack one give F = 0.
 * The fused multiply-adds are IEEE operations with one rounding (C99 fma on
 * the scalar path), so every path still gives the same bits; they take five
 * of the 16 adds and subtracts per spring off the add pipes. */
static inline void spring_lanes(hk_w dx, hk_w dy, hk_w dz, hk_w dvx, hk_w dvy, hk_w dvz, hk_w L0, hk_w kL0, hk_w k,
                                hk_w c, hk_wm live, hk_damping_model model, hk_behaviour behaviour, hk_w *fx, hk_w *fy,
                                hk_w *fz)
{
    const hk_w zero = w_set1(0);
    hk_w r2 = w_fmadd(dz, dz, w_fmadd(dy, dy, w_mul(dx, dx)));
    live = wm_and(live, w_neq(r2, zero));
    hk_w r = w_sqrt(r2);
    hk_w e = w_sub(r, L0);
    if (behaviour == HK_SPRING_TENSION_ONLY) live = wm_and(live, w_gt(e, zero));
    if (behaviour == HK_SPRING_COMPRESSION_ONLY) live = wm_and(live, w_lt(e, zero));
    if (model == HK_DAMP_ALONG) {
        hk_w inv_r = w_div(w_set1(1), r);
        hk_w dot = w_fmadd(dvz, dz, w_fmadd(dvy, dy, w_mul(dvx, dx)));
        hk_w g = w_fmsub(w_fnmadd(w_mul(c, dot), inv_r, kL0), inv_r, k);
        *fx = w_keep(live, w_mul(g, dx));
        *fy = w_keep(live, w_mul(g, dy));
        *fz = w_keep(live, w_mul(g, dz));
    } else {
        hk_w g = w_sub(w_div(kL0, r), k);
        *fx = w_keep(live, w_fmsub(g, dx, w_mul(c, dvx)));
        *fy = w_keep(live, w_fmsub(g, dy, w_mul(c, dvy)));
        *fz = w_keep(live, w_fmsub(g, dz, w_mul(c, dvz)));
    }
}

/* 0, 1, 2, ... : lane numbers, for masks at the ends of a row */
static const hk_real lane_index[16]
    __attribute__((aligned(64))) = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* x, y, z, vx, vy, vz of the source ends i .. i + W - 1 of a row */
static inline __attribute__((always_inline)) void source_lanes(const hk_real *const src[6], int i, hk_w a[6])
{
    for (int c = 0; c < 6; c++) a[c] = w_loadu(src[c] + i);
}

/* F of family f for the sources i .. i + W - 1 of a row (a: their values,
 * from source_lanes); lanes outside [i0, i1), broken springs and r = 0 give 0 */
static inline __attribute__((always_inline)) hk_w family_lanes(const hk_family *f, const hk_real *const src[6],
                                                               const hk_w a[6], const uint8_t *broken, int i, hk_w iota,
                                                               int full, hk_damping_model model, hk_behaviour behaviour,
                                                               hk_w *fy, hk_w *fz)
{
    const hk_w L0 = w_set1(f->rest), kL0 = w_set1(f->k_rest), k = w_set1(f->k), c = w_set1(f->c);
    const int64_t off = f->offset;
    hk_wm live;
    if (full || (i >= f->i0 && i + HK_W <= f->i1)) {
        live = wm_all();
    } else {
        hk_w idx = w_add(w_set1((hk_real)i), iota);
        live = wm_and(w_ge(idx, w_set1((hk_real)f->i0)), w_lt(idx, w_set1((hk_real)f->i1)));
    }
    if (behaviour == HK_SPRING_BREAKABLE && broken) live = wm_and(live, wm_unbroken(broken + i));
    hk_w dx = w_sub(a[0], w_loadu(src[0] + off + i));
    hk_w dy = w_sub(a[1], w_loadu(src[1] + off + i));
    hk_w dz = w_sub(a[2], w_loadu(src[2] + off + i));
    hk_w dvx = w_sub(a[3], w_loadu(src[3] + off + i));
    hk_w dvy = w_sub(a[4], w_loadu(src[4] + off + i));
    hk_w dvz = w_sub(a[5], w_loadu(src[5] + off + i));
    hk_w fx;
    spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, kL0, k, c, live, model, behaviour, &fx, fy, fz);
    return fx;
}

/* The springs of one family whose sources lie in one row, with the damping
 * model and behaviour fixed at compile time (one loop per combination):
 *   acc_src[i] += F(i)                 for every source i in [i0, i1)
 *   dst[i + di] -= F(i)                when the targets are in a row ahead
 *   buf[i] = F(i)                      when they are in this row (dr == 0);
 *                                      subtracted by the caller afterwards
 * Loops run over whole vectors from i0 rounded down; lanes outside
 * [i0, i1), broken springs and r = 0 give F = 0. Every entry receives its
 * terms family by family, each as one add or subtract, so every ISA (and
 * group_row's shifted pass, which AVX-512 uses for |di| < W) gives the same
 * bits. */
static inline __attribute__((always_inline)) void family_row(const hk_family *f, const hk_real *const src[6],
                                                             int64_t local0, hk_real *const acc_src[3],
                                                             hk_real *const out[3], int same_row,
                                                             hk_damping_model model, hk_behaviour behaviour)
{
    const int i0 = f->i0, i1 = f->i1, di = f->di;
    const uint8_t *broken = f->broken ? f->broken + local0 : NULL;
    const hk_w iota = w_load(lane_index);
    hk_real *ax = acc_src[0], *ay = acc_src[1], *az = acc_src[2];
    hk_real *ox = out[0], *oy = out[1], *oz = out[2];
    const int start = i0 / HK_W * HK_W;
    for (int i = start; i < i1; i += HK_W) {
        hk_w a[6], fy, fz;
        source_lanes(src, i, a);
        hk_w fx = family_lanes(f, src, a, broken, i, iota, 0, model, behaviour, &fy, &fz);
        w_store(ax + i, w_add(w_load(ax + i), fx));
        w_store(ay + i, w_add(w_load(ay + i), fy));
        w_store(az + i, w_add(w_load(az + i), fz));
        if (same_row) {
            w_store(ox + i, fx);
            w_store(oy + i, fy);
            w_store(oz + i, fz);
        } else {
            w_storeu(ox + i + di, w_sub(w_loadu(ox + i + di), fx));
            w_storeu(oy + i + di, w_sub(w_loadu(oy + i + di), fy));
            w_storeu(oz + i + di, w_sub(w_loadu(oz + i + di), fz));
        }
    }
    if (same_row) { /* targets in this row: subtract F(i - di) at i, from the buffer */
        const int lo = (i0 + di) / HK_W * HK_W, hi = i1 + di;
        for (int c = 0; c < 3; c++) {
            hk_real *acc = acc_src[c];
            const hk_real *b = out[c] - di;
            for (int i = lo; i < hi; i += HK_W) w_store(acc + i, w_sub(w_load(acc + i), w_loadu(b + i)));
            /* leave the buffer zero for the next family (its margins are read) */
            for (int i = start; i < i1; i += HK_W) w_store(out[c] + i, w_set1(0));
        }
    }
}

#ifdef HK_HAS_SHIFT
/* Register blocking: several families of one source row in a single pass
 * over the row. The source ends are loaded once per vector and shared, the
 * source row's sums stay in registers across the families (a same-row
 * family's targets fold in through the shift), and only the targets in rows
 * ahead are read and written, as aligned vectors, with the previous vector
 * of every family that shifts carried in registers. A family with di < 0
 * (down left) is evaluated on the sources i - di .. i - di + W - 1, so that
 * its targets are the aligned vector i like a down family's, and its terms
 * for the sources come in through the shift instead. Consecutive families
 * with targets in the same row can form a run (joined in the signature):
 * the run reads and writes each vector of that row once for all of them
 * instead of once per family. A family that forms no group runs through
 * here alone (n = 1). Each entry receives exactly the terms family_row (the
 * AVX2 and scalar pass) gives it, in the same order.
 *
 * The kinds of the group's families are compile-time constants (so the
 * carries of families that do not shift cost nothing), and for the rows of
 * the shipped stencils their di too (so each shift is one valignd with an
 * immediate): a signature holds the count n in bits 0-2, the kind of family
 * q in bits 3 + 2q, 4 + 2q, di + 16 of family q in bits 16 + 5q to
 * 20 + 5q (0 there: di is read from the family at run time), and in bit
 * 46 + q whether family q joins the run of family q - 1. */
/* the fewest whole vectors for which group_row runs its copy without row-end tests */
#define HK_FULL_MIN 8
enum { HK_K_SAME, HK_K_DOWN, HK_K_DOWN_RIGHT, HK_K_DOWN_LEFT }; /* dr = 0; dr > 0 with di = 0, > 0, < 0 */
#define HK_GROUP_MAX 6
#define HK_KIND(sig, q) ((int)(((sig) >> (3 + 2 * (q))) & 3u))
#define HK_DICODE(sig, q) ((int)(((sig) >> (16 + 5 * (q))) & 31u))
#define HK_DIBITS(q, d) ((uint64_t)((d) + 16) << (16 + 5 * (q))) /* the code of di = d for family q */
#define HK_JN(q) (1ull << (46 + (q)))                            /* family q joins the run of q - 1 */
#define HK_JOINED(sig, q) ((q) > 0 && ((sig)&HK_JN(q)))
/* di of family q of a group: fixed in the signature, else the family's */
#define HK_GROUP_DI(sig, q, f) (HK_DICODE(sig, q) ? HK_DICODE(sig, q) - 16 : (f)->di)

/* Whether family q starts its run (reads the target vector) */
static inline __attribute__((always_inline)) int run_first(uint64_t sig, int q) { return !HK_JOINED(sig, q); }
/* Whether family q ends its run (writes the target vector back) */
static inline __attribute__((always_inline)) int run_last(uint64_t sig, int q)
{
    return q + 1 >= (int)(sig & 7u) || !HK_JOINED(sig, q + 1);
}

/* The vectors [lo, hi rounded up) a group's pass runs over: vector i
 * evaluates the sources i + e .. i + e + W - 1 of each family, e = -di for a
 * down-left family and 0 otherwise, and the pass covers every vector that
 * holds a source or a term. span[2..3]: the vectors [full_lo, full_hi) in
 * which every family's lanes are all springs, or [hi, hi) where those are
 * fewer than HK_FULL_MIN. Worked out once per row class (plan_row). */
static void group_span(const hk_row_family *fams, uint64_t sig, int span[4])
{
    int lo = 1 << 30, hi = 0, full_lo = -(1 << 30), full_hi = 1 << 30;
    for (int q = 0; q < (int)(sig & 7u); q++) {
        const hk_family *f = fams[q].f;
        const int e = HK_KIND(sig, q) == HK_K_DOWN_LEFT ? -HK_GROUP_DI(sig, q, f) : 0;
        const int a0 = (f->i0 - e + HK_W - 1) / HK_W * HK_W, a1 = (f->i1 - e) / HK_W * HK_W;
        if ((f->i0 - e) / HK_W * HK_W < lo) lo = (f->i0 - e) / HK_W * HK_W;
        if (f->i1 > hi) hi = f->i1;
        if (a0 > full_lo) full_lo = a0;
        if (a1 < full_hi) full_hi = a1;
    }
    if (full_lo < lo) full_lo = lo;
    if (full_hi > hi) full_hi = hi;
    if (full_hi - full_lo < HK_FULL_MIN * HK_W) full_lo = full_hi = hi; /* never reached: one copy */
    span[0] = lo, span[1] = hi, span[2] = full_lo, span[3] = full_hi;
}

/* group_row is inlined into lattice_row once per signature, damping model
 * and copy (split), so that those are constants there. Unoptimised (the
 * sanitizer builds) it is a function of its own: there nothing is folded,
 * and the inlined copies' locals, never shared, made lattice_row's stack
 * frame larger than an OpenMP thread's stack. */
#if defined(__OPTIMIZE__)
#define HK_GROUP_INLINE static inline __attribute__((always_inline))
#else
#define HK_GROUP_INLINE static __attribute__((noinline))
#endif
HK_GROUP_INLINE void group_row(const hk_row_family *fams, const uint64_t sig, const hk_real *const src[6],
                               int64_t local0, hk_real *const acc[3], int bstride, hk_damping_model model,
                               hk_behaviour behaviour, const int split)
{
    const int n = (int)(sig & 7u);
    const int lo = fams[0].span[0], hi = fams[0].span[1], full_lo = fams[0].span[2], full_hi = fams[0].span[3];
    const hk_w iota = w_load(lane_index), zero = w_set1(0);
    hk_real *ax = acc[0], *ay = acc[1], *az = acc[2];
    hk_w px[HK_GROUP_MAX], py[HK_GROUP_MAX], pz[HK_GROUP_MAX];
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
            const int di = HK_GROUP_DI(sig, q, f), kind = HK_KIND(sig, q);                                             \
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
                hk_real *ox = fams[q].dst, *oy = ox + bstride, *oz = oy + bstride;                              \
                if (run_first(sig, q) && fams[q].fresh) { /* the row holds nothing yet */                              \
                    tx = ty = tz = zero;                                                                               \
                } else if (run_first(sig, q)) {                                                                        \
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
                if (run_last(sig, q)) {                                                                                \
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
     * cost more than the tests. The spans come from plan_row (group_span). */
    int i = lo;
    if (split) {
        while (i < hi) {
            if (i == full_lo) {
                for (; i < full_hi; i += HK_W) HK_GROUP_STEP(1);
                continue;
            }
            HK_GROUP_STEP(0);
            i += HK_W;
        }
    } else {
        for (; i < hi; i += HK_W) HK_GROUP_STEP(0);
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
        const int di = HK_GROUP_DI(sig, q, fams[q].f), kind = HK_KIND(sig, q);
        hk_real *const ox = kind == HK_K_SAME ? ax : fams[q].dst, *const oy = kind == HK_K_SAME ? ay : ox + bstride,
                       *const oz = kind == HK_K_SAME ? az : oy + bstride;
        if ((kind == HK_K_SAME || kind == HK_K_DOWN_RIGHT) && i - di < fams[q].f->i1) {
            w_store(ox + i, w_sub(w_load(ox + i), w_shift_in(px[q], zero, di)));
            w_store(oy + i, w_sub(w_load(oy + i), w_shift_in(py[q], zero, di)));
            w_store(oz + i, w_sub(w_load(oz + i), w_shift_in(pz[q], zero, di)));
        }
    }
}

/* Family q of a signature: kind k with di fixed at d (HK_FD) or read at run
 * time (HK_FK). */
#define HK_FK(q, k) ((uint64_t)(k) << (3 + 2 * (q)))
#define HK_FD(q, k, d) (HK_FK(q, k) | HK_DIBITS(q, d))
#define HK_SIG2(a, da, b, db) (2u | HK_FD(0, a, da) | HK_FD(1, b, db))
#define HK_SIG6(a, da, b, db, c, dc, d, dd, e, de, f, df)                                                              \
    (6u | HK_FD(0, a, da) | HK_FD(1, b, db) | HK_FD(2, c, dc) | HK_FD(3, d, dd) | HK_FD(4, e, de) | HK_FD(5, f, df))
/* a run of three families on one target row: down, down right by d, down left by d */
#define HK_RUN3(q, d)                                                                                                  \
    (HK_FD(q, HK_K_DOWN, 0) | HK_FD((q) + 1, HK_K_DOWN_RIGHT, d) | HK_JN((q) + 1) |                                    \
     HK_FD((q) + 2, HK_K_DOWN_LEFT, -(d)) | HK_JN((q) + 2))
#define HK_KINDS2(a, b) (2u | HK_FK(0, a) | HK_FK(1, b))
#define S_ HK_K_SAME
#define D_ HK_K_DOWN
#define R_ HK_K_DOWN_RIGHT
#define L_ HK_K_DOWN_LEFT
/* The groups that get a blocked pass: the rows of the shipped stencils (rope,
 * cloth, 26- and 52-neighbour jelly) as group_at splits them (engine.c's
 * order), with their di fixed; and the kinds that cloths with a radius
 * stencil form with other di. Any other run goes family by family. */
#define HK_GROUPS(X)                                                                                                   \
    X(HK_SIG2(S_, 1, S_, 2))                                                    /* rope: chain, skip */                \
    X(HK_SIG6(S_, 1, S_, 2, D_, 0, D_, 0, R_, 1, L_, -1) | HK_JN(4) | HK_JN(5)) /* cloth: the row, 2 down, 1 down */   \
    X(4u | HK_FD(0, S_, 1) | HK_RUN3(1, 1))                                     /* jelly: the row and the farthest */  \
    X(3u | HK_RUN3(0, 1))                                                       /* jelly: each nearer target row */    \
    X(5u | HK_FD(0, S_, 1) | HK_FD(1, S_, 2) | HK_RUN3(2, 2))                   /* 52-neighbour jelly */               \
    X(5u | HK_FD(0, S_, 1) | HK_FD(1, S_, 2) | HK_RUN3(2, 1))                   /* rows without a farthest */          \
    X(3u | HK_RUN3(0, 2))                                                                                              \
    X(HK_KINDS2(S_, S_)) /* radius cloth rows: any di */                                                               \
    X(HK_KINDS2(R_, L_) | HK_JN(1))

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

/* The families of fams (at most nfam) that a group takes first, with at
 * most `limit` carried vectors (every family that shifts carries one):
 * families go in by target row, the families of one row distance (dr > 0)
 * joined into one run; a row distance that does not fit starts the next
 * group, or when it is the first is taken family by family. Returns the
 * count; kinds, di and joins as in a signature, the carried vectors in
 * *units. */
static int group_take(const hk_row_family *fams, int nfam, int limit, uint64_t *kinds, uint64_t *dis, uint64_t *joins,
                      int *units)
{
    const hk_damping_model model = fams[0].f->params.damping_model;
    int n = 0;
    *kinds = *dis = *joins = 0;
    *units = 0;
    while (n < HK_GROUP_MAX && n < nfam) {
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
            *kinds |= HK_FK(q, row_kind(&fams[q]));
            *dis |= HK_DIBITS(q, fams[q].f->di);
            if (fams[n].dr != 0 && q > n) *joins |= HK_JN(q);
        }
        n += take;
        *units += need;
        if (take < b) break;
    }
    return n;
}

/* The next group of fams (at most nfam long) with a blocked pass: its
 * signature, or 0 if none (the family then goes alone). A group carries at
 * most five vectors, and four when it has six families (more spill the 32
 * vector registers: measured on the cloth, docs/benchmarks.md). */
static uint64_t group_at(const hk_row_family *fams, int nfam)
{
    uint64_t kinds, dis, joins;
    int units;
    int n = group_take(fams, nfam, 5, &kinds, &dis, &joins, &units);
    if (n == HK_GROUP_MAX && units > 4) n = group_take(fams, nfam, 4, &kinds, &dis, &joins, &units);
    /* the longest prefix with a listed signature: di fixed, else read at run
     * time; joined, else (every group is also right unjoined) unjoined */
    for (; n >= 2; n--) {
        const uint64_t joined = joins & ((1ull << (46 + n)) - 1);
        const uint64_t generic = (uint64_t)n | (kinds & ((1u << (3 + 2 * n)) - 8u));
        const uint64_t fixed = generic | (dis & (((1ull << (5 * n)) - 1) << 16));
        const uint64_t tries[4] = {fixed | joined, generic | joined, fixed, generic};
        for (int t = 0; t < 4; t++) {
#define HK_MATCH(S)                                                                                                    \
    if (tries[t] == (S)) return tries[t];
            HK_GROUPS(HK_MATCH)
#undef HK_MATCH
        }
    }
    return 0;
}
#endif

/* One (damping model, behaviour) pair as compile-time constants: STMT runs
 * with MODEL and BEH bound to the pair that equals (model, beh). */
#define HK_DISPATCH(model, beh, STMT)                                                                                  \
    do {                                                                                                               \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_NORMAL, STMT)                                             \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_NORMAL, STMT)                                                \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_TENSION_ONLY, STMT)                                       \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_TENSION_ONLY, STMT)                                          \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_COMPRESSION_ONLY, STMT)                                   \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_COMPRESSION_ONLY, STMT)                                      \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_BREAKABLE, STMT)                                          \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_BREAKABLE, STMT) {}                                          \
    } while (0)
#define HK_DISPATCH1(model, beh, M, B, STMT)                                                                           \
    if ((model) == (M) && (beh) == (B)) {                                                                              \
        const hk_damping_model MODEL = (M);                                                                            \
        const hk_behaviour BEH = (B);                                                                                  \
        STMT;                                                                                                          \
    } else

/* the scalar path's spring loops use the fused multiply-add instruction
 * where the CPU has it (springs.h); the SIMD files are built with -mfma */
#ifdef HK_ISA_SCALAR
#define HK_SPRING_LOOP HK_FMA_CLONES
#else
#define HK_SPRING_LOOP
#endif

HK_SPRING_LOOP static void HK_SUFFIX(lattice_row)(const hk_particles *p, int64_t row0, int64_t local0, int nx_pad,
                                                  const hk_row_family *fams, int nfam, hk_real *const acc_src[3],
                                                  hk_real *buf, int bstride)
{
    const int M = HK_ROW_MARGIN;
    const hk_real *const src[6] = {p->x + row0, p->y + row0, p->z + row0, p->vx + row0, p->vy + row0, p->vz + row0};
    hk_real *const row_buf[3] = {buf + M, buf + bstride + M, buf + 2 * bstride + M};
#ifdef HK_HAS_SHIFT
    /* rows long enough for group_row's copy without row-end tests */
    const int long_row = nx_pad >= (HK_FULL_MIN + 2) * HK_ROW_VEC;
#endif
    (void)nx_pad;
    for (int q = 0; q < nfam;) {
        const hk_family *f = fams[q].f;
        const hk_damping_model model = f->params.damping_model;
        const hk_behaviour beh = f->params.behaviour;
#ifdef HK_HAS_SHIFT
        const uint64_t sig = fams[q].group;
        if (sig) {
#define HK_RUN1(S, M, SPLIT) group_row(fams + q, (S), src, local0, acc_src, bstride, M, HK_SPRING_NORMAL, SPLIT)
#define HK_RUN(S)                                                                                                      \
    if (sig == (S)) {                                                                                                  \
        if (model == HK_DAMP_RELATIVE && long_row)                                                                     \
            HK_RUN1(S, HK_DAMP_RELATIVE, 1);                                                                           \
        else if (model == HK_DAMP_RELATIVE)                                                                            \
            HK_RUN1(S, HK_DAMP_RELATIVE, 0);                                                                           \
        else if (long_row)                                                                                             \
            HK_RUN1(S, HK_DAMP_ALONG, 1);                                                                              \
        else                                                                                                           \
            HK_RUN1(S, HK_DAMP_ALONG, 0);                                                                              \
    } else
            HK_GROUPS(HK_RUN) {}
#undef HK_RUN
#undef HK_RUN1
            q += (int)(sig & 7u);
            continue;
        }
        if (shift_fits(f)) { /* alone: the same pass with one family */
#define HK_ALONE(K)                                                                                                    \
    HK_DISPATCH(model, beh, group_row(fams + q, 1u | HK_FK(0, K), src, local0, acc_src, bstride, MODEL, BEH, 0))
            switch (row_kind(&fams[q])) {
            case HK_K_SAME: HK_ALONE(HK_K_SAME); break;
            case HK_K_DOWN: HK_ALONE(HK_K_DOWN); break;
            case HK_K_DOWN_RIGHT: HK_ALONE(HK_K_DOWN_RIGHT); break;
            default: HK_ALONE(HK_K_DOWN_LEFT); break;
            }
#undef HK_ALONE
            q++;
            continue;
        }
#endif
        if (fams[q].dr == 0)
            HK_DISPATCH(model, beh, family_row(f, src, local0, acc_src, row_buf, 1, MODEL, BEH));
        else {
            hk_real *const dst[3] = {fams[q].dst, fams[q].dst + bstride, fams[q].dst + 2 * bstride};
            HK_DISPATCH(model, beh, family_row(f, src, local0, acc_src, dst, 0, MODEL, BEH));
        }
        q++;
    }
}
#undef HK_DISPATCH
#undef HK_DISPATCH1

static void HK_SUFFIX(plan_row)(hk_row_family *fams, int nfam, int nx_pad)
{
    for (int q = 0; q < nfam; q++) fams[q].group = 0;
#ifdef HK_HAS_SHIFT
    for (int q = 0; q < nfam;) {
        uint64_t sig = group_at(fams + q, nfam - q);
        const hk_family *f = fams[q].f;
        if (!sig && !shift_fits(f)) { /* family_row: reads its targets */
            fams[q].fresh = 0;
            q++;
            continue;
        }
        fams[q].group = sig;
        if (!sig) sig = 1u | HK_FK(0, row_kind(&fams[q])); /* alone: group_row with one family */
        /* group_row writes the target row of a run from its first family on
         * every vector of its span */
        const int n = (int)(sig & 7u);
        group_span(fams + q, sig, fams[q].span);
        const int lo = fams[q].span[0], hi = fams[q].span[1];
        for (int p = 0; p < n; p++)
            if (HK_KIND(sig, p) == HK_K_SAME || !run_first(sig, p) || lo > 0 || (hi + HK_W - 1) / HK_W * HK_W < nx_pad)
                fams[q + p].fresh = 0;
        q += n;
    }
#else
    (void)nx_pad;
    for (int q = 0; q < nfam; q++) fams[q].fresh = 0;
#endif
}

/* List springs of one colour: gather both ends, compute, and add back. No
 * particle occurs twice in [s0, s1), so the lanes' scatters never collide. */
HK_SPRING_LOOP static void HK_SUFFIX(list_range)(const hk_family *f, hk_particles *p, int64_t s0, int64_t s1)
{
    const hk_w k = w_set1(f->k), c = w_set1(f->c), L0fam = w_set1(f->rest);
    const hk_w kL0fam = w_set1(f->k_rest);
    const hk_damping_model model = f->params.damping_model;
    const hk_behaviour beh = f->params.behaviour;
    int64_t s = s0;
    for (; s + HK_W <= s1; s += HK_W) {
        const int32_t *a = f->a + s, *b = f->b + s;
        hk_wm live = wm_all();
        if (f->broken) live = wm_and(live, wm_unbroken(f->broken + s));
        hk_w dx = w_sub(w_gather(p->x, a), w_gather(p->x, b));
        hk_w dy = w_sub(w_gather(p->y, a), w_gather(p->y, b));
        hk_w dz = w_sub(w_gather(p->z, a), w_gather(p->z, b));
        hk_w dvx = w_sub(w_gather(p->vx, a), w_gather(p->vx, b));
        hk_w dvy = w_sub(w_gather(p->vy, a), w_gather(p->vy, b));
        hk_w dvz = w_sub(w_gather(p->vz, a), w_gather(p->vz, b));
        hk_w L0 = f->rest_list ? w_loadu(f->rest_list + s) : L0fam;
        hk_w kL0 = f->rest_list ? w_mul(k, L0) : kL0fam;
        hk_w fx, fy, fz;
        if (model == HK_DAMP_ALONG)
            spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, kL0, k, c, live, HK_DAMP_ALONG, beh, &fx, &fy, &fz);
        else
            spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, kL0, k, c, live, HK_DAMP_RELATIVE, beh, &fx, &fy, &fz);
        w_scatter(p->fx, a, w_add(w_gather(p->fx, a), fx));
        w_scatter(p->fy, a, w_add(w_gather(p->fy, a), fy));
        w_scatter(p->fz, a, w_add(w_gather(p->fz, a), fz));
        w_scatter(p->fx, b, w_sub(w_gather(p->fx, b), fx));
        w_scatter(p->fy, b, w_sub(w_gather(p->fy, b), fy));
        w_scatter(p->fz, b, w_sub(w_gather(p->fz, b), fz));
    }
    for (; s < s1; s++) /* tail: one lane at a time, same arithmetic */
        if (!(f->broken && f->broken[s]))
            hk_apply_spring(f, p, f->a[s], f->b[s], f->rest_list ? f->rest_list[s] : f->rest);
}

/* External force on one particle: m g - c_air v, plus the ground model. The
 * order of operations is that of forces.c (the reference). */
static inline void external_one(const hk_step_ctx *ctx, hk_real m, hk_real x, hk_real y, hk_real z, hk_real vx,
                                hk_real vy, hk_real vz, hk_real *fx, hk_real *fy, hk_real *fz)
{
    (void)x;
    (void)z;
    hk_real gx = m * ctx->g[0] - ctx->air_drag * vx;
    hk_real gy = m * ctx->g[1] - ctx->air_drag * vy;
    hk_real gz = m * ctx->g[2] - ctx->air_drag * vz;
    if (ctx->ground == HK_GROUND_REPULSION && y < ctx->ground_h) {
        gx -= ctx->ground_fric * vx;
        gz -= ctx->ground_fric * vz;
        if (vy < 0) gy -= ctx->ground_abs * vy;
        gy += ctx->ground_krep * (ctx->ground_h - y);
    } else if (ctx->ground == HK_GROUND_SPRING && y < ctx->ground_h) {
        gy -= ctx->ground_k * (y - ctx->ground_h);
    }
    *fx = gx;
    *fy = gy;
    *fz = gz;
}

/* external_one over W lanes, same operations in the same order. */
static inline void external_lanes(const hk_step_ctx *ctx, hk_w m, hk_w y, hk_w vx, hk_w vy, hk_w vz, hk_w *fx, hk_w *fy,
                                  hk_w *fz)
{
    const hk_w c = w_set1(ctx->air_drag);
    hk_w gx = w_sub(w_mul(m, w_set1(ctx->g[0])), w_mul(c, vx));
    hk_w gy = w_sub(w_mul(m, w_set1(ctx->g[1])), w_mul(c, vy));
    hk_w gz = w_sub(w_mul(m, w_set1(ctx->g[2])), w_mul(c, vz));
    if (ctx->ground != HK_GROUND_NONE) {
        const hk_w h = w_set1(ctx->ground_h), zero = w_set1(0);
        const hk_wm below = w_lt(y, h);
        if (ctx->ground == HK_GROUND_REPULSION) {
            const hk_w cf = w_set1(ctx->ground_fric);
            gx = w_select(below, gx, w_sub(gx, w_mul(cf, vx)));
            gz = w_select(below, gz, w_sub(gz, w_mul(cf, vz)));
            gy = w_select(wm_and(below, w_lt(vy, zero)), gy, w_sub(gy, w_mul(w_set1(ctx->ground_abs), vy)));
            gy = w_select(below, gy, w_add(gy, w_mul(w_set1(ctx->ground_krep), w_sub(h, y))));
        } else {
            gy = w_select(below, gy, w_sub(gy, w_mul(w_set1(ctx->ground_k), w_sub(y, h))));
        }
    }
    *fx = gx;
    *fy = gy;
    *fz = gz;
}

#if (defined(HK_ISA_AVX2) || defined(HK_ISA_AVX512)) && !defined(HOOKE_DOUBLE)
/* An 8x8 transpose: out[c] lane l = r[l] lane c (records <-> rows). */
static inline void transpose8x8(const __m256 r[8], __m256 out[8])
{
    __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    out[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    out[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    out[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    out[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    out[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    out[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    out[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    out[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

/* spring_lanes on 8 lanes (ymm), operation for operation */
static inline void spring_lanes8(__m256 dx, __m256 dy, __m256 dz, __m256 dvx, __m256 dvy, __m256 dvz, __m256 L0,
                                 __m256 kL0, __m256 k, __m256 c, __m256 live, hk_damping_model model,
                                 hk_behaviour behaviour, __m256 *fx, __m256 *fy, __m256 *fz)
{
    const __m256 zero = _mm256_setzero_ps();
    __m256 r2 = _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_mul_ps(dx, dx)));
    live = _mm256_and_ps(live, _mm256_cmp_ps(r2, zero, _CMP_NEQ_UQ));
    __m256 r = _mm256_sqrt_ps(r2);
    __m256 e = _mm256_sub_ps(r, L0);
    if (behaviour == HK_SPRING_TENSION_ONLY) live = _mm256_and_ps(live, _mm256_cmp_ps(e, zero, _CMP_GT_OQ));
    if (behaviour == HK_SPRING_COMPRESSION_ONLY) live = _mm256_and_ps(live, _mm256_cmp_ps(e, zero, _CMP_LT_OQ));
    if (model == HK_DAMP_ALONG) {
        __m256 inv_r = _mm256_div_ps(_mm256_set1_ps(1), r);
        __m256 dot = _mm256_fmadd_ps(dvz, dz, _mm256_fmadd_ps(dvy, dy, _mm256_mul_ps(dvx, dx)));
        __m256 g = _mm256_fmsub_ps(_mm256_fnmadd_ps(_mm256_mul_ps(c, dot), inv_r, kL0), inv_r, k);
        *fx = _mm256_and_ps(live, _mm256_mul_ps(g, dx));
        *fy = _mm256_and_ps(live, _mm256_mul_ps(g, dy));
        *fz = _mm256_and_ps(live, _mm256_mul_ps(g, dz));
    } else {
        __m256 g = _mm256_sub_ps(_mm256_div_ps(kL0, r), k);
        *fx = _mm256_and_ps(live, _mm256_fmsub_ps(g, dx, _mm256_mul_ps(c, dvx)));
        *fy = _mm256_and_ps(live, _mm256_fmsub_ps(g, dy, _mm256_mul_ps(c, dvy)));
        *fz = _mm256_and_ps(live, _mm256_fmsub_ps(g, dz, _mm256_mul_ps(c, dvz)));
    }
}

/* (fx, fy, fz) x 8 lanes -> 8 force records {fx, fy, fz, 0}: lane l < 4 in
 * the low half of q[l], lane l >= 4 in the high half of q[l - 4] */
static inline void force_records8(__m256 fx, __m256 fy, __m256 fz, __m256 q[4])
{
    const __m256 zero = _mm256_setzero_ps();
    __m256 t0 = _mm256_unpacklo_ps(fx, fy), t1 = _mm256_unpackhi_ps(fx, fy);
    __m256 t2 = _mm256_unpacklo_ps(fz, zero), t3 = _mm256_unpackhi_ps(fz, zero);
    q[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    q[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
    q[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    q[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
}

/* 8 springs' forces (fx, fy, fz) added to their a ends' and subtracted from
 * their b ends' force records, lane by lane in order */
static inline void scatter_records8(float *facc, const int *a, const int *b, __m256 fx, __m256 fy, __m256 fz)
{
    __m256 q[4];
    force_records8(fx, fy, fz, q);
    for (int l = 0; l < 8; l++) {
        __m128 fl = l < 4 ? _mm256_castps256_ps128(q[l]) : _mm256_extractf128_ps(q[l - 4], 1);
        float *pa = facc + 4 * (int64_t)a[l], *pb = facc + 4 * (int64_t)b[l];
        _mm_store_ps(pa, _mm_add_ps(_mm_load_ps(pa), fl));
        _mm_store_ps(pb, _mm_sub_ps(_mm_load_ps(pb), fl));
    }
}

/* The record differences rec[a[l]] - rec[b[l]] of 8 springs as rows dx, dy,
 * dz, dvx, dvy, dvz of 8 lanes: subtracting before the transpose gives the
 * same bits (the transpose only moves values) with one transpose, not two */
static inline void diff_records8(const float *rec, const int *a, const int *b, __m256 out[6])
{
    __m256 r[8], t[8];
    for (int l = 0; l < 8; l++)
        r[l] = _mm256_sub_ps(_mm256_load_ps(rec + 8 * (int64_t)a[l]), _mm256_load_ps(rec + 8 * (int64_t)b[l]));
    transpose8x8(r, t); /* rows 6 and 7 (padding) unused */
    for (int m = 0; m < 6; m++) out[m] = t[m];
}

#if defined(HK_ISA_AVX512)
/* Records of two springs' ends subtracted, two springs per zmm: zmm m takes
 * spring lanes 8 (m / 4) + m % 4 (low half) and that + 4 (high half), the
 * order in which rows16 below hands lanes 0..15 back in order */
static inline __m512 diff_pair16(const char *rec, const int *ia, const int *ib, int m)
{
    const int l = 8 * (m >> 2) + (m & 3);
    const __m512 A =
        _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_load_ps((const float *)(rec + 32 * (size_t)(uint32_t)ia[l]))),
                           _mm256_load_ps((const float *)(rec + 32 * (size_t)(uint32_t)ia[l + 4])), 1);
    const __m512 B =
        _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_load_ps((const float *)(rec + 32 * (size_t)(uint32_t)ib[l]))),
                           _mm256_load_ps((const float *)(rec + 32 * (size_t)(uint32_t)ib[l + 4])), 1);
    return _mm512_sub_ps(A, B);
}

/* Rows dx, dy, dz, dvx, dvy, dvz of 16 lanes from the 8 zmm of diff_pair16:
 * two 4x4 transposes per 128-bit lane, then the 128-bit lanes gathered */
static inline void rows16(const __m512 z[8], __m512 out[6])
{
    __m512 s[2][4];
    for (int g = 0; g < 2; g++) {
        const __m512 *q = z + 4 * g;
        const __m512 u0 = _mm512_unpacklo_ps(q[0], q[1]), u1 = _mm512_unpackhi_ps(q[0], q[1]);
        const __m512 u2 = _mm512_unpacklo_ps(q[2], q[3]), u3 = _mm512_unpackhi_ps(q[2], q[3]);
        s[g][0] = _mm512_shuffle_ps(u0, u2, 0x44); /* per 128-bit lane: x | vy | x | vy */
        s[g][1] = _mm512_shuffle_ps(u0, u2, 0xEE); /* y | vz */
        s[g][2] = _mm512_shuffle_ps(u1, u3, 0x44); /* z | 0 */
        s[g][3] = _mm512_shuffle_ps(u1, u3, 0xEE); /* vx | 0 */
    }
    out[0] = _mm512_shuffle_f32x4(s[0][0], s[1][0], 0x88);
    out[1] = _mm512_shuffle_f32x4(s[0][1], s[1][1], 0x88);
    out[2] = _mm512_shuffle_f32x4(s[0][2], s[1][2], 0x88);
    out[3] = _mm512_shuffle_f32x4(s[0][3], s[1][3], 0x88);
    out[4] = _mm512_shuffle_f32x4(s[0][0], s[1][0], 0xDD);
    out[5] = _mm512_shuffle_f32x4(s[0][1], s[1][1], 0xDD);
}

/* One spring's force record added to its a end and subtracted from its b end */
static inline void add_record(char *facc, int ia, int ib, __m128 fl)
{
    float *pa = (float *)(facc + 16 * (size_t)(uint32_t)ia), *pb = (float *)(facc + 16 * (size_t)(uint32_t)ib);
    _mm_store_ps(pa, _mm_add_ps(_mm_load_ps(pa), fl));
    _mm_store_ps(pb, _mm_sub_ps(_mm_load_ps(pb), fl));
}

/* 16 springs' forces into their ends' force records, lane by lane in order
 * (the order matters only in the overflow colour, where ends repeat) */
static inline void scatter_records16(char *facc, const int *ia, const int *ib, __m512 fx, __m512 fy, __m512 fz)
{
    const __m512 zero = _mm512_setzero_ps();
    const __m512 t0 = _mm512_unpacklo_ps(fx, fy), t1 = _mm512_unpackhi_ps(fx, fy);
    const __m512 t2 = _mm512_unpacklo_ps(fz, zero), t3 = _mm512_unpackhi_ps(fz, zero);
    /* q[k], 128-bit lane j: the record {fx, fy, fz, 0} of spring lane 4 j + k */
    const __m512 q[4] = {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xEE),
                         _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xEE)};
#define HK_LANE4(j, get)                                                                                               \
    for (int k4 = 0; k4 < 4; k4++) add_record(facc, ia[4 * (j) + k4], ib[4 * (j) + k4], get)
    HK_LANE4(0, _mm512_castps512_ps128(q[k4]));
    HK_LANE4(1, _mm512_extractf32x4_ps(q[k4], 1));
    HK_LANE4(2, _mm512_extractf32x4_ps(q[k4], 2));
    HK_LANE4(3, _mm512_extractf32x4_ps(q[k4], 3));
#undef HK_LANE4
}
#endif

/* List springs of one colour over packed records: 8 springs per step (16 on
 * AVX-512), the ends' records subtracted and the differences transposed into
 * lanes (no gathers), the forces transposed back and added to the ends' force
 * records. */
static void HK_SUFFIX(list_range_packed)(const hk_family *f, const float *rec, float *facc, int64_t s0, int64_t s1)
{
    const __m256 c = _mm256_set1_ps(f->c), L0fam = _mm256_set1_ps(f->rest);
    const __m256 k8 = _mm256_set1_ps(f->k), kL0fam = _mm256_set1_ps(f->k_rest);
    const hk_damping_model model = f->params.damping_model;
    const hk_behaviour beh = f->params.behaviour;
    const __m256 all = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
    int64_t s = s0;
#if defined(HK_ISA_AVX512)
    /* 16 springs per step: the arithmetic of spring_lanes on zmm (the same
     * operations lane by lane) */
    {
        const hk_w k16 = w_set1(f->k), c16 = w_set1(f->c), L016 = w_set1(f->rest);
        const hk_w kL016 = w_set1(f->k_rest);
        const char *recb = (const char *)rec;
        char *faccb = (char *)facc;
        /* in blocks of up to 4 vectors, phase by phase (loads and transposes,
         * arithmetic, adds into the force records): one vector's chain from
         * index load to force store is longer than the out-of-order window
         * covers, the phases' vectors are independent and overlap */
        enum { PB = 4 };
        while (s + 16 <= s1) {
            const int nb = (s1 - s) / 16 < PB ? (int)((s1 - s) / 16) : PB;
            __m512 D[PB][6], F[PB][3];
            for (int v = 0; v < nb; v++) {
                const int *ia = f->a + s + 16 * v, *ib = f->b + s + 16 * v;
                __m512 z[8];
                for (int m = 0; m < 8; m++) z[m] = diff_pair16(recb, ia, ib, m);
                rows16(z, D[v]);
            }
                for (int v = 0; v < nb; v++) {
                    const int64_t sv = s + 16 * v;
                    hk_wm live = wm_all();
                    if (f->broken) live = wm_and(live, wm_unbroken(f->broken + sv));
                    const hk_w L0 = f->rest_list ? w_loadu(f->rest_list + sv) : L016;
                    const hk_w kL0 = f->rest_list ? w_mul(k16, L0) : kL016;
                    const __m512 *d = D[v];
                    if (model == HK_DAMP_ALONG)
                        spring_lanes(d[0], d[1], d[2], d[3], d[4], d[5], L0, kL0, k16, c16, live, HK_DAMP_ALONG, beh,
                                     &F[v][0], &F[v][1], &F[v][2]);
                    else
                        spring_lanes(d[0], d[1], d[2], d[3], d[4], d[5], L0, kL0, k16, c16, live, HK_DAMP_RELATIVE, beh,
                                     &F[v][0], &F[v][1], &F[v][2]);
                }
            for (int v = 0; v < nb; v++)
                scatter_records16(faccb, f->a + s + 16 * v, f->b + s + 16 * v, F[v][0], F[v][1], F[v][2]);
            s += 16 * nb;
        }
    }
#endif
    for (; s + 8 <= s1; s += 8) {
        const int *a = f->a + s, *b = f->b + s;
        __m256 D[6];
        diff_records8(rec, a, b, D);
        __m256 live = all;
        if (f->broken) {
            __m256i bytes = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(f->broken + s)));
            live = _mm256_castsi256_ps(_mm256_cmpeq_epi32(bytes, _mm256_setzero_si256()));
        }
        __m256 L0 = f->rest_list ? _mm256_loadu_ps(f->rest_list + s) : L0fam;
        __m256 kL0 = f->rest_list ? _mm256_mul_ps(k8, L0) : kL0fam;
        __m256 fx, fy, fz;
        const __m256 dx = D[0], dy = D[1], dz = D[2], dvx = D[3], dvy = D[4], dvz = D[5];
        if (model == HK_DAMP_ALONG)
            spring_lanes8(dx, dy, dz, dvx, dvy, dvz, L0, kL0, k8, c, live, HK_DAMP_ALONG, beh, &fx, &fy, &fz);
        else
            spring_lanes8(dx, dy, dz, dvx, dvy, dvz, L0, kL0, k8, c, live, HK_DAMP_RELATIVE, beh, &fx, &fy, &fz);
        scatter_records8(facc, a, b, fx, fy, fz);
    }
    for (; s < s1; s++) { /* tail: one spring at a time, same arithmetic */
        if (f->broken && f->broken[s]) continue;
        const float *ra = rec + 8 * (int64_t)f->a[s], *rb = rec + 8 * (int64_t)f->b[s];
        hk_real fo[3];
        if (!hk_spring_force(f, f->rest_list ? f->rest_list[s] : f->rest, ra[0] - rb[0], ra[1] - rb[1], ra[2] - rb[2],
                             ra[3] - rb[3], ra[4] - rb[4], ra[5] - rb[5], fo))
            continue;
        float *pa = facc + 4 * (int64_t)f->a[s], *pb = facc + 4 * (int64_t)f->b[s];
        for (int c3 = 0; c3 < 3; c3++) {
            pa[c3] += fo[c3];
            pb[c3] -= fo[c3];
        }
    }
}

/* 8 particles' force records {fx, fy, fz, 0} stored from rows of 8 lanes */
static inline void store_force_records8(float *q, __m256 fx, __m256 fy, __m256 fz)
{
    __m256 q4[4]; /* particles 0|4, 1|5, 2|6, 3|7 */
    force_records8(fx, fy, fz, q4);
    _mm256_storeu_ps(q + 0, _mm256_permute2f128_ps(q4[0], q4[1], 0x20));
    _mm256_storeu_ps(q + 8, _mm256_permute2f128_ps(q4[2], q4[3], 0x20));
    _mm256_storeu_ps(q + 16, _mm256_permute2f128_ps(q4[0], q4[1], 0x31));
    _mm256_storeu_ps(q + 24, _mm256_permute2f128_ps(q4[2], q4[3], 0x31));
}

/* 8 particles' records {x, y, z, vx, vy, vz, 0, 0} from the particle arrays */
static inline void store_records8(const hk_particles *p, float *rec, int64_t g)
{
    const __m256 zero = _mm256_setzero_ps();
    const __m256 r[8] = {_mm256_loadu_ps(p->x + g),
                         _mm256_loadu_ps(p->y + g),
                         _mm256_loadu_ps(p->z + g),
                         _mm256_loadu_ps(p->vx + g),
                         _mm256_loadu_ps(p->vy + g),
                         _mm256_loadu_ps(p->vz + g),
                         zero,
                         zero};
    __m256 recs[8];
    transpose8x8(r, recs);
    for (int l = 0; l < 8; l++) _mm256_store_ps(rec + 8 * (g + l), recs[l]);
}

/* Particles [g0, g0 + n) into packed records: rec {x, y, z, vx, vy, vz, 0,
 * 0} and facc {fx, fy, fz, 0}, through 8-particle transposes. The starting
 * force is f when ext is NULL, otherwise the external force of ext
 * (external_lanes, the same bits as external_forces writes; f is not
 * touched), which spares a pass over the particles. */
static void HK_SUFFIX(list_pack)(const hk_step_ctx *ext, const hk_particles *p, float *rec, float *facc, int64_t g0,
                                 int n)
{
    int64_t g = g0;
    if (ext) {
        for (; g + HK_W <= g0 + n; g += HK_W) {
            hk_w fx, fy, fz;
            external_lanes(ext, w_loadu(p->mass + g), w_loadu(p->y + g), w_loadu(p->vx + g), w_loadu(p->vy + g),
                           w_loadu(p->vz + g), &fx, &fy, &fz);
            for (int h = 0; h < HK_W; h += 8) {
                store_records8(p, rec, g + h);
#if defined(HK_ISA_AVX512)
                const __m256 hx = h ? _mm512_extractf32x8_ps(fx, 1) : _mm512_castps512_ps256(fx);
                const __m256 hy = h ? _mm512_extractf32x8_ps(fy, 1) : _mm512_castps512_ps256(fy);
                const __m256 hz = h ? _mm512_extractf32x8_ps(fz, 1) : _mm512_castps512_ps256(fz);
                store_force_records8(facc + 4 * (g + h), hx, hy, hz);
#else
                store_force_records8(facc + 4 * (g + h), fx, fy, fz);
#endif
            }
        }
    } else {
        for (; g + 8 <= g0 + n; g += 8) {
            store_records8(p, rec, g);
            store_force_records8(facc + 4 * g, _mm256_loadu_ps(p->fx + g), _mm256_loadu_ps(p->fy + g),
                                 _mm256_loadu_ps(p->fz + g));
        }
    }
    for (; g < g0 + n; g++) {
        float *r = rec + 8 * g, *q = facc + 4 * g;
        r[0] = p->x[g], r[1] = p->y[g], r[2] = p->z[g], r[3] = p->vx[g], r[4] = p->vy[g], r[5] = p->vz[g];
        r[6] = r[7] = 0;
        if (ext)
            external_one(ext, p->mass[g], p->x[g], p->y[g], p->z[g], p->vx[g], p->vy[g], p->vz[g], &q[0], &q[1], &q[2]);
        else
            q[0] = p->fx[g], q[1] = p->fy[g], q[2] = p->fz[g];
        q[3] = 0;
    }
}

/* The force records of particles [g0, g0 + n) back into f. */
static void HK_SUFFIX(list_unpack)(hk_particles *p, const float *facc, int64_t g0, int n)
{
    int64_t g = g0;
    for (; g + 8 <= g0 + n; g += 8) {
        const float *q = facc + 4 * g;
        const __m256 r01 = _mm256_loadu_ps(q), r23 = _mm256_loadu_ps(q + 8);
        const __m256 r45 = _mm256_loadu_ps(q + 16), r67 = _mm256_loadu_ps(q + 24);
        __m256 q0 = _mm256_permute2f128_ps(r01, r45, 0x20), q1 = _mm256_permute2f128_ps(r01, r45, 0x31);
        __m256 q2 = _mm256_permute2f128_ps(r23, r67, 0x20), q3 = _mm256_permute2f128_ps(r23, r67, 0x31);
        __m256 t0 = _mm256_unpacklo_ps(q0, q1), t1 = _mm256_unpackhi_ps(q0, q1);
        __m256 t2 = _mm256_unpacklo_ps(q2, q3), t3 = _mm256_unpackhi_ps(q2, q3);
        _mm256_storeu_ps(p->fx + g, _mm256_shuffle_ps(t0, t2, 0x44));
        _mm256_storeu_ps(p->fy + g, _mm256_shuffle_ps(t0, t2, 0xEE));
        _mm256_storeu_ps(p->fz + g, _mm256_shuffle_ps(t1, t3, 0x44));
    }
    for (; g < g0 + n; g++) {
        const float *q = facc + 4 * g;
        p->fx[g] = q[0], p->fy[g] = q[1], p->fz[g] = q[2];
    }
}
#define HK_LIST_PACKED HK_SUFFIX(list_range_packed)
#define HK_LIST_PACK HK_SUFFIX(list_pack)
#define HK_LIST_UNPACK HK_SUFFIX(list_unpack)
#else
#define HK_LIST_PACKED NULL
#define HK_LIST_PACK NULL
#define HK_LIST_UNPACK NULL
#endif

/* One particle's update from its total force; inverse mass 0 leaves it be. */
static inline void integrate_one(const hk_step_ctx *ctx, hk_real im, hk_real fx, hk_real fy, hk_real fz,
                                 hk_real *restrict x, hk_real *restrict y, hk_real *restrict z, hk_real *restrict vx,
                                 hk_real *restrict vy, hk_real *restrict vz)
{
    if (im == 0) return;
    const hk_real h = ctx->h;
    switch (ctx->finish) {
    case HK_FINISH_EULER:
        *x += *vx * h;
        *y += *vy * h;
        *z += *vz * h;
        *vx += fx * im * h;
        *vy += fy * im * h;
        *vz += fz * im * h;
        break;
    case HK_FINISH_SEMI_IMPLICIT:
        *vx += fx * im * h;
        *vy += fy * im * h;
        *vz += fz * im * h;
        *x += *vx * h;
        *y += *vy * h;
        *z += *vz * h;
        break;
    case HK_FINISH_JELLY:
        *vx += ctx->dt_a * fx * im;
        *vy += ctx->dt_a * fy * im;
        *vz += ctx->dt_a * fz * im;
        *x += ctx->dt_v * *vx;
        *y += ctx->dt_v * *vy;
        *z += ctx->dt_v * *vz;
        *vx *= ctx->alpha;
        *vy *= ctx->alpha;
        *vz *= ctx->alpha;
        break;
    default: break;
    }
}

/* integrate_one over W lanes; lanes with inverse mass 0 keep their state. */
static inline void integrate_lanes(const hk_step_ctx *ctx, hk_w im, hk_w fx, hk_w fy, hk_w fz, hk_real *x, hk_real *y,
                                   hk_real *z, hk_real *vx, hk_real *vy, hk_real *vz)
{
    const hk_wm free = w_neq(im, w_set1(0));
    const hk_w h = w_set1(ctx->h);
    hk_w px = w_loadu(x), py = w_loadu(y), pz = w_loadu(z);
    hk_w ux = w_loadu(vx), uy = w_loadu(vy), uz = w_loadu(vz);
    hk_w nx, ny, nz, nux, nuy, nuz;
    if (ctx->finish == HK_FINISH_EULER) {
        nx = w_add(px, w_mul(ux, h));
        ny = w_add(py, w_mul(uy, h));
        nz = w_add(pz, w_mul(uz, h));
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
    } else if (ctx->finish == HK_FINISH_SEMI_IMPLICIT) {
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
        nx = w_add(px, w_mul(nux, h));
        ny = w_add(py, w_mul(nuy, h));
        nz = w_add(pz, w_mul(nuz, h));
    } else {
        const hk_w dta = w_set1(ctx->dt_a), dtv = w_set1(ctx->dt_v), alpha = w_set1(ctx->alpha);
        nux = w_add(ux, w_mul(w_mul(dta, fx), im));
        nuy = w_add(uy, w_mul(w_mul(dta, fy), im));
        nuz = w_add(uz, w_mul(w_mul(dta, fz), im));
        nx = w_add(px, w_mul(dtv, nux));
        ny = w_add(py, w_mul(dtv, nuy));
        nz = w_add(pz, w_mul(dtv, nuz));
        nux = w_mul(nux, alpha);
        nuy = w_mul(nuy, alpha);
        nuz = w_mul(nuz, alpha);
    }
    w_storeu(x, w_select(free, px, nx));
    w_storeu(y, w_select(free, py, ny));
    w_storeu(z, w_select(free, pz, nz));
    w_storeu(vx, w_select(free, ux, nux));
    w_storeu(vy, w_select(free, uy, nuy));
    w_storeu(vz, w_select(free, uz, nuz));
}

static void HK_SUFFIX(finish_row)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n, hk_real *const acc[3])
{
    hk_real *const ax = acc[0], *const ay = acc[1], *const az = acc[2];
    const int update = ctx->finish != HK_FINISH_STORE_FORCE;
    /* the arrays as locals: the stores below cannot change them, so they
     * stay in registers instead of being read from p on every vector */
    const hk_real *const mass = p->mass + g0, *const inv_mass = p->inv_mass + g0;
    hk_real *const x = p->x + g0, *const y = p->y + g0, *const z = p->z + g0;
    hk_real *const vx = p->vx + g0, *const vy = p->vy + g0, *const vz = p->vz + g0;
    hk_real *const fx = p->fx + g0, *const fy = p->fy + g0, *const fz = p->fz + g0;
    const hk_w zero = w_set1(0);
    int i = 0;
    /* the total force is kept in f as well: hooke.h promises the force of the
     * last evaluation */
    for (; i + HK_W <= n; i += HK_W) {
        hk_w ex, ey, ez;
        external_lanes(ctx, w_loadu(mass + i), w_loadu(y + i), w_loadu(vx + i), w_loadu(vy + i), w_loadu(vz + i), &ex,
                       &ey, &ez);
        const hk_w tx = w_add(ex, w_load(ax + i)), ty = w_add(ey, w_load(ay + i)), tz = w_add(ez, w_load(az + i));
        w_storeu(fx + i, tx);
        w_storeu(fy + i, ty);
        w_storeu(fz + i, tz);
        if (update)
            integrate_lanes(ctx, w_loadu(inv_mass + i), tx, ty, tz, x + i, y + i, z + i, vx + i, vy + i, vz + i);
    }
    for (; i < n; i++) { /* the row's last partial vector, one particle at a time */
        hk_real ex, ey, ez;
        external_one(ctx, mass[i], x[i], y[i], z[i], vx[i], vy[i], vz[i], &ex, &ey, &ez);
        fx[i] = ex + ax[i];
        fy[i] = ey + ay[i];
        fz[i] = ez + az[i];
        if (update) integrate_one(ctx, inv_mass[i], fx[i], fy[i], fz[i], &x[i], &y[i], &z[i], &vx[i], &vy[i], &vz[i]);
    }
    /* the margins the lattice kernels write: one vector before the row and
     * one past the padded row (kernels.h) */
    const int pad = (n + HK_ROW_VEC - 1) / HK_ROW_VEC * HK_ROW_VEC;
    for (int c = 0; c < 3; c++) {
        for (i = -HK_ROW_VEC; i < 0; i += HK_W) w_store(acc[c] + i, zero);
        for (i = pad; i < pad + HK_ROW_VEC; i += HK_W) w_store(acc[c] + i, zero);
    }
}

static void HK_SUFFIX(external_forces)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n)
{
    int64_t g = g0;
    for (; g + HK_W <= g0 + n; g += HK_W) {
        hk_w fx, fy, fz;
        external_lanes(ctx, w_loadu(p->mass + g), w_loadu(p->y + g), w_loadu(p->vx + g), w_loadu(p->vy + g),
                       w_loadu(p->vz + g), &fx, &fy, &fz);
        w_storeu(p->fx + g, fx);
        w_storeu(p->fy + g, fy);
        w_storeu(p->fz + g, fz);
    }
    for (; g < g0 + n; g++)
        external_one(ctx, p->mass[g], p->x[g], p->y[g], p->z[g], p->vx[g], p->vy[g], p->vz[g], &p->fx[g], &p->fy[g],
                     &p->fz[g]);
}

static void HK_SUFFIX(integrate)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n)
{
    for (int64_t g = g0; g < g0 + n; g++)
        integrate_one(ctx, p->inv_mass[g], p->fx[g], p->fy[g], p->fz[g], &p->x[g], &p->y[g], &p->z[g], &p->vx[g],
                      &p->vy[g], &p->vz[g]);
}

const hk_kernels HK_SUFFIX(hk_kernels) = {
    HK_ISA_NAME,          HK_W,         HK_SUFFIX(lattice_row), HK_SUFFIX(plan_row),   HK_SUFFIX(list_range),
    HK_LIST_PACKED,       HK_LIST_PACK, HK_LIST_UNPACK,         HK_SUFFIX(finish_row), HK_SUFFIX(external_forces),
    HK_SUFFIX(integrate),
};

#endif
