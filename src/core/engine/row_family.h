/* row_family.h — a lattice family's springs from one source row, on W lanes: the one-family row pass (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ROW_FAMILY_H
#define HOOKE_ROW_FAMILY_H

/* Included by kernels_isa.h after simd.h and spring_lanes.h. */

/* 0, 1, 2, ... : lane numbers, for masks at the ends of a row */
static const hk_real lane_index[16]
    __attribute__((aligned(64))) = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

/* qx, qy, qz, vx, vy, vz of the source ends i .. i + W - 1 of a row */
static inline __attribute__((always_inline)) void source_lanes(const hk_real *const src[6], int i, hk_w a[6])
{
    for (int c = 0; c < 6; c++) a[c] = w_loadu(src[c] + i);
}

/* F of family f for the sources i .. i + W - 1 of a row (a: their values,
 * from source_lanes); lanes outside [i0, i1), broken springs and r = 0 give
 * 0. full (a constant where the caller knows it): every lane is a spring. */
static inline __attribute__((always_inline)) hk_w family_lanes(const hk_family *f, const hk_real *const src[6],
                                                               const hk_w a[6], const uint8_t *broken, int i, hk_w iota,
                                                               int full, hk_damping_model model, hk_behaviour behaviour,
                                                               hk_w *fy, hk_w *fz)
{
    const hk_w L0 = w_set1(f->rest), k = w_set1(f->k), c = w_set1(f->c);
    const int64_t off = f->offset;
    hk_wm live;
    if (full || (i >= f->i0 && i + HK_W <= f->i1)) {
        live = wm_all();
    } else {
        hk_w idx = w_add(w_set1((hk_real)i), iota);
        live = wm_and(w_ge(idx, w_set1((hk_real)f->i0)), w_lt(idx, w_set1((hk_real)f->i1)));
    }
    if (behaviour == HK_SPRING_BREAKABLE && broken) live = wm_and(live, wm_unbroken(broken + i));
    /* d = (q_a - q_b) - D: the lattice's rest offset comes in exactly */
    hk_w dx = w_sub(w_sub(a[0], w_loadu(src[0] + off + i)), w_set1(f->rest_vec[0]));
    hk_w dy = w_sub(w_sub(a[1], w_loadu(src[1] + off + i)), w_set1(f->rest_vec[1]));
    hk_w dz = w_sub(w_sub(a[2], w_loadu(src[2] + off + i)), w_set1(f->rest_vec[2]));
    hk_w dvx = w_sub(a[3], w_loadu(src[3] + off + i));
    hk_w dvy = w_sub(a[4], w_loadu(src[4] + off + i));
    hk_w dvz = w_sub(a[5], w_loadu(src[5] + off + i));
    hk_w fx;
    spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, c, live, model, behaviour, &fx, fy, fz);
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
 * the blocked pass of row_group.h, which AVX-512 uses for |di| < W) gives
 * the same bits. */
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

#endif
