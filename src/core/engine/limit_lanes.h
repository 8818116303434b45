/* limit_lanes.h — the longest and shortest springs of lattice rows on W lanes, for the strain limits' look (one ISA).
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LIMIT_LANES_H
#define HOOKE_LIMIT_LANES_H

/* Included by kernels_isa.h after simd.h. Each spring's square length is formed as every kernel forms it, d =
 * (q_a - q_b) - D, r^2 = fma(dz, dz, fma(dy, dy, dx dx)), so that its square root is the r the scalar path of
 * fabric/strain_limit.c compares with the limits. A figure is a largest or smallest, so the order in which the
 * springs are measured, and a spring measured twice, change nothing. */

/* The families a pass measures at once: their largest and smallest so far stay in registers. */
#if HK_W >= 8
#define HK_LOOK_GROUP 6
#else
#define HK_LOOK_GROUP 3
#endif

/* r^2 of the W springs whose sources are entry i of a (a loaded: ax, ay, az) and targets entry i + off. */
static inline __attribute__((always_inline)) hk_w length2_at(hk_real *const a[3], hk_w ax, hk_w ay, hk_w az,
                                                             int64_t off, const hk_w D[3], int64_t i)
{
    const hk_w dx = w_sub(w_sub(ax, w_loadu(a[0] + i + off)), D[0]);
    const hk_w dy = w_sub(w_sub(ay, w_loadu(a[1] + i + off)), D[1]);
    const hk_w dz = w_sub(w_sub(az, w_loadu(a[2] + i + off)), D[2]);
    return w_fmadd(dz, dz, w_fmadd(dy, dy, w_mul(dx, dx)));
}

/* Springs [x0, x1) of a family whose sources end at `end` (end - W at least its first source), in vectors from x0
 * on, the last one ending at `end` at the latest. */
static inline __attribute__((always_inline)) void look_cover(hk_real *const a[3], int64_t off, const hk_w D[3],
                                                             int64_t x0, int64_t x1, int64_t end, hk_w *mx, hk_w *mn)
{
    for (int64_t i = x0; i < x1; i += HK_W) {
        const int64_t at = i + HK_W <= end ? i : end - HK_W;
        const hk_w r2 = length2_at(a, w_loadu(a[0] + at), w_loadu(a[1] + at), w_loadu(a[2] + at), off, D, at);
        *mx = w_max(r2, *mx);
        *mn = w_min(r2, *mn);
    }
}

/* length2_rows for NF families (a constant where it is inlined): the columns all of them have, in whole vectors,
 * with each vector of the source row loaded once for all; each family's columns before and after those in vectors
 * of its own; a family with fewer springs in a row than a vector one by one. */
static inline __attribute__((always_inline)) void look_rows(hk_real *const q[3], int64_t first, int64_t rows,
                                                            int64_t stride, const hk_look_family *f, const int NF,
                                                            hk_real *most, hk_real *least)
{
    hk_w D[HK_LOOK_GROUP][3], mx[HK_LOOK_GROUP], mn[HK_LOOK_GROUP];
    int64_t lo = f[0].i0, hi = f[0].i1;
    int vec[HK_LOOK_GROUP], all = 1; /* all: every family long enough for a vector */
    for (int m = 0; m < NF; m++) {
        for (int c = 0; c < 3; c++) D[m][c] = w_set1(f[m].D[c]);
        mx[m] = w_set1(0);
        mn[m] = w_set1(INFINITY);
        vec[m] = f[m].i1 - f[m].i0 >= HK_W;
        all &= vec[m];
        lo = f[m].i0 > lo ? f[m].i0 : lo;
        hi = f[m].i1 < hi ? f[m].i1 : hi;
    }
    const int64_t whole = all && hi > lo ? (hi - lo) / HK_W * HK_W : 0;
    hk_real sm[HK_LOOK_GROUP], sl[HK_LOOK_GROUP];
    for (int m = 0; m < NF; m++) {
        sm[m] = 0;
        sl[m] = INFINITY;
    }
    for (int64_t t = 0; t < rows; t++) {
        const int64_t o = first + t * stride;
        hk_real *const a[3] = {q[0] + o, q[1] + o, q[2] + o};
        for (int64_t i = lo; i < lo + whole; i += HK_W) {
            const hk_w ax = w_loadu(a[0] + i), ay = w_loadu(a[1] + i), az = w_loadu(a[2] + i);
            for (int m = 0; m < NF; m++) {
                const hk_w r2 = length2_at(a, ax, ay, az, f[m].offset, D[m], i);
                mx[m] = w_max(r2, mx[m]);
                mn[m] = w_min(r2, mn[m]);
            }
        }
        for (int m = 0; m < NF; m++) {
            if (!vec[m]) { /* one by one */
                hk_real *const b[3] = {a[0] + f[m].offset, a[1] + f[m].offset, a[2] + f[m].offset};
                hk_real r2m, r2l;
                hk_length2_range_scalar((hk_real *const[3]){a[0] + f[m].i0, a[1] + f[m].i0, a[2] + f[m].i0},
                                        (hk_real *const[3]){b[0] + f[m].i0, b[1] + f[m].i0, b[2] + f[m].i0}, f[m].D,
                                        f[m].i1 - f[m].i0, &r2m, &r2l);
                sm[m] = r2m > sm[m] ? r2m : sm[m];
                sl[m] = r2l < sl[m] ? r2l : sl[m];
                continue;
            }
            if (whole == 0) { /* no columns in common: the family's row alone */
                look_cover(a, f[m].offset, D[m], f[m].i0, f[m].i1, f[m].i1, &mx[m], &mn[m]);
                continue;
            }
            const int64_t right = lo + whole > f[m].i0 ? lo + whole : f[m].i0;
            look_cover(a, f[m].offset, D[m], f[m].i0, lo < f[m].i1 ? lo : f[m].i1, f[m].i1, &mx[m], &mn[m]);
            look_cover(a, f[m].offset, D[m], right, f[m].i1, f[m].i1, &mx[m], &mn[m]);
        }
    }
    for (int m = 0; m < NF; m++) {
        hk_real x[HK_W], y[HK_W], big = sm[m], small = sl[m];
        w_store_lanes(x, mx[m], HK_W);
        w_store_lanes(y, mn[m], HK_W);
        for (int l = 0; l < HK_W; l++) {
            big = x[l] > big ? x[l] : big;
            small = y[l] < small ? y[l] : small;
        }
        most[m] = big;
        least[m] = small;
    }
}

/* The largest and smallest r^2 of nf families over rows (kernel_table.h length2_rows): HK_LOOK_GROUP families a
 * pass. */
static void HK_SUFFIX(length2_rows)(hk_real *const q[3], int64_t first, int64_t rows, int64_t stride,
                                    const hk_look_family *f, int nf, hk_real *most, hk_real *least)
{
    for (int g = 0; g < nf; g += HK_LOOK_GROUP) {
        const int n = nf - g < HK_LOOK_GROUP ? nf - g : HK_LOOK_GROUP;
        switch (n) {
#define HK_LOOK_CASE(N)                                                                                                \
    case N: look_rows(q, first, rows, stride, f + g, N, most + g, least + g); break;
            HK_LOOK_CASE(1)
            HK_LOOK_CASE(2)
            HK_LOOK_CASE(3)
#if HK_LOOK_GROUP > 3
            HK_LOOK_CASE(4)
            HK_LOOK_CASE(5)
            HK_LOOK_CASE(6)
#endif
#undef HK_LOOK_CASE
        }
    }
}

#endif
