/* pair_lanes_isa.h — one instruction set's pair passes (pair_lanes.h), written once over lanes64.h. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_LANES_ISA_H
#define HOOKE_PAIR_LANES_ISA_H

/* The including file (pair_lanes_avx512.c, pair_lanes_avx2.c,
 * pair_lanes_scalar.c) defines HK_ISA_<name> and is compiled with the
 * matching -m flags. Each lane performs the operations of pair_force.c's
 * evaluate and of geometry.h's nearest points in their order: the
 * comments name the scalar lines each block stands for. */

#include <math.h>
#include <string.h>

#include "check.h"
#include "lanes64.h"
#include "pair_lanes.h"
#include "pairs.h"

/* The offsets of the pairs lb[0 .. n) keeps: not lb[i] > far[i] (evaluate's test, which keeps a NaN bound), lb a
 * float bound not above the pair's (each converted to double exactly). */
static int L64_SUFFIX(pair_select)(const float *lb, const double *far, int n, int32_t *off)
{
    int m = 0;
#if defined(HK_ISA_AVX512)
    const __m256i step = _mm256_set1_epi32(8);
    __m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int i = 0; i < n; i += 8, idx = _mm256_add_epi32(idx, step)) {
        const __mmask8 in = (__mmask8)(n - i >= 8 ? 0xFF : (1u << (n - i)) - 1);
        const __m512d b = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(in, lb + i));
        const __mmask8 keep = _mm512_mask_cmp_pd_mask(in, b, _mm512_maskz_loadu_pd(in, far + i), _CMP_NGT_UQ);
        _mm256_storeu_si256((__m256i *)(off + m), _mm256_maskz_compress_epi32(keep, idx));
        m += __builtin_popcount(keep);
    }
#else
    for (int i = 0; i < n; i++) {
        off[m] = i;
        m += !((double)lb[i] > far[i]);
    }
#endif
    return m;
}

/* The rows of the corners of pairs off (in->xv's, row[c][l]: corner c of lane l), and the corners' places x[c][e]. */
static inline void L64_SUFFIX(corners)(const pair_lane_in *in, const int32_t *off, const double *row[4][L64_W],
                                       l64 x[4][3])
{
    for (int l = 0; l < L64_W; l++) {
        const int32_t *at = in->at + 4 * (int64_t)off[l];
        for (int c = 0; c < 4; c++) row[c][l] = in->xv + PAIR_LANES_ROW * (int64_t)at[c];
    }
    for (int c = 0; c < 4; c++) {
        l64 col[4];
        l64_rows4(row[c], col);
        x[c][0] = col[0], x[c][1] = col[1], x[c][2] = col[2];
    }
}

/* evaluate's box tests: lo, hi of the two sides (the first `split` corners, then the others), the axis test, the
 * squared box distance s2 (box_gap2) and boxes_apart; returns the lanes the boxes leave in. */
static inline l64m L64_SUFFIX(boxes)(const l64 x[4][3], int split, double th, l64 *s2)
{
    l64 lo[2][3], hi[2][3];
    for (int e = 0; e < 3; e++) {
        /* lo = g_min(lo, x) from INFINITY corner by corner: g_min(INFINITY, x) is x, NaN or not */
        lo[0][e] = hi[0][e] = x[0][e];
        for (int c = 1; c < split; c++) lo[0][e] = l64_min(lo[0][e], x[c][e]), hi[0][e] = l64_max(hi[0][e], x[c][e]);
        lo[1][e] = hi[1][e] = x[split][e];
        for (int c = split + 1; c < 4; c++)
            lo[1][e] = l64_min(lo[1][e], x[c][e]), hi[1][e] = l64_max(hi[1][e], x[c][e]);
    }
    const l64 t = l64_set(th), zero = l64_set(0);
    l64m apart = l64_lt(t, t); /* none */
    l64 s = zero;
    for (int e = 0; e < 3; e++) {
        apart = l64_or(apart, l64_or(l64_gt(lo[0][e], l64_add(hi[1][e], t)), l64_gt(lo[1][e], l64_add(hi[0][e], t))));
        const l64 d = l64_max(l64_sub(lo[0][e], hi[1][e]), l64_sub(lo[1][e], hi[0][e]));
        s = l64_add(s, l64_keep(l64_gt(d, zero), l64_mul(d, d))); /* if (s > 0) s2 += s * s */
    }
    *s2 = s;
    const l64m over = l64_gt(s, l64_set(th * th)); /* boxes_apart; lim > th: none apart where no lane is over */
    if (l64_bits(over)) {
        l64 big = zero;
        for (int sd = 0; sd < 2; sd++)
            for (int e = 0; e < 3; e++) big = l64_max(big, l64_max(l64_abs(lo[sd][e]), l64_abs(hi[sd][e])));
        const l64 lim = l64_add(l64_set(th * (1 + 1e-9)), l64_mul(l64_set(1e-12), big));
        apart = l64_or(apart, l64_and(over, l64_gt(s, l64_mul(lim, lim))));
    }
    return l64_not(apart);
}

/* pair_geometry of a triangle pair: g_closest_on_triangle_w of particle p = x[0] and triangle x[1] x[2] x[3]
 * (its regions tested in order, the first that holds giving q and w), alpha = (1, -w), d = p - q. */
static inline void L64_SUFFIX(vt_nearest)(const l64 x[4][3], l64 a[4], l64 d[3])
{
    l64 ab[3], ac[3], ap[3], bp[3], cp[3], cb[3];
    for (int e = 0; e < 3; e++) {
        ab[e] = l64_sub(x[2][e], x[1][e]), ac[e] = l64_sub(x[3][e], x[1][e]), ap[e] = l64_sub(x[0][e], x[1][e]);
        bp[e] = l64_sub(x[0][e], x[2][e]), cp[e] = l64_sub(x[0][e], x[3][e]), cb[e] = l64_sub(x[3][e], x[2][e]);
    }
    const l64 zero = l64_set(0), one = l64_set(1);
    const l64 d1 = l64_dot(ab, ap), d2 = l64_dot(ac, ap), d3 = l64_dot(ab, bp), d4 = l64_dot(ac, bp);
    const l64 d5 = l64_dot(ab, cp), d6 = l64_dot(ac, cp);
    const l64 vc = l64_sub(l64_mul(d1, d4), l64_mul(d3, d2));
    const l64 vb = l64_sub(l64_mul(d5, d2), l64_mul(d1, d6));
    const l64 va = l64_sub(l64_mul(d3, d6), l64_mul(d5, d4));
    const l64 e43 = l64_sub(d4, d3), e56 = l64_sub(d5, d6);
    const l64m r0 = l64_and(l64_le(d1, zero), l64_le(d2, zero));
    const l64m r1 = l64_and(l64_ge(d3, zero), l64_le(d4, d3));
    const l64m r2 = l64_and(l64_and(l64_le(vc, zero), l64_ge(d1, zero)), l64_le(d3, zero));
    const l64m r3 = l64_and(l64_ge(d6, zero), l64_le(d5, d6));
    const l64m r4 = l64_and(l64_and(l64_le(vb, zero), l64_ge(d2, zero)), l64_le(d6, zero));
    const l64m r5 = l64_and(l64_and(l64_le(va, zero), l64_ge(e43, zero)), l64_ge(e56, zero));
    /* each region's parameter (only the regions some lane is in are divided for) */
    const unsigned any = l64_bits(l64_or(l64_or(r2, r4), r5)) | l64_bits(l64_not(l64_or(l64_or(r0, r1), r3)));
    l64 v2 = zero, t4 = zero, t5 = zero, vf = zero, tf = zero;
    if (any) {
        v2 = l64_div(d1, l64_sub(d1, d3));
        t4 = l64_div(d2, l64_sub(d2, d6));
        t5 = l64_div(e43, l64_add(e43, e56));
        const l64 den = l64_div(one, l64_add(l64_add(va, vb), vc));
        vf = l64_mul(vb, den), tf = l64_mul(vc, den);
    }
    /* w, from the face back to the first region (the first that holds is chosen last) */
    l64 w[3] = {l64_sub(l64_sub(one, vf), tf), vf, tf};
    l64 q[3];
    for (int e = 0; e < 3; e++) q[e] = l64_add(l64_add(x[1][e], l64_mul(ab[e], vf)), l64_mul(ac[e], tf));
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r5, l64_add(x[2][e], l64_mul(t5, cb[e])), q[e]);
    w[0] = l64_sel(r5, zero, w[0]), w[1] = l64_sel(r5, l64_sub(one, t5), w[1]), w[2] = l64_sel(r5, t5, w[2]);
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r4, l64_add(x[1][e], l64_mul(t4, ac[e])), q[e]);
    w[0] = l64_sel(r4, l64_sub(one, t4), w[0]), w[1] = l64_sel(r4, zero, w[1]), w[2] = l64_sel(r4, t4, w[2]);
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r3, x[3][e], q[e]);
    w[0] = l64_sel(r3, zero, w[0]), w[1] = l64_sel(r3, zero, w[1]), w[2] = l64_sel(r3, one, w[2]);
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r2, l64_add(x[1][e], l64_mul(v2, ab[e])), q[e]);
    w[0] = l64_sel(r2, l64_sub(one, v2), w[0]), w[1] = l64_sel(r2, v2, w[1]), w[2] = l64_sel(r2, zero, w[2]);
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r1, x[2][e], q[e]);
    w[0] = l64_sel(r1, zero, w[0]), w[1] = l64_sel(r1, one, w[1]), w[2] = l64_sel(r1, zero, w[2]);
    for (int e = 0; e < 3; e++) q[e] = l64_sel(r0, x[1][e], q[e]);
    w[0] = l64_sel(r0, one, w[0]), w[1] = l64_sel(r0, zero, w[1]), w[2] = l64_sel(r0, zero, w[2]);
    a[0] = one, a[1] = l64_neg(w[0]), a[2] = l64_neg(w[1]), a[3] = l64_neg(w[2]);
    for (int e = 0; e < 3; e++) d[e] = l64_sub(x[0][e], q[e]);
}

/* pair_geometry of an edge pair: g_closest_segments of edges x[0] x[1] and x[2] x[3] (its general case; *odd: the
 * lanes of an edge of no length, which evaluate takes), alpha = (1 - s, s, -(1 - t), -t), d = edge_gap; *inside:
 * the lanes whose nearest points lie inside both edges. */
static inline void L64_SUFFIX(ee_nearest)(const l64 x[4][3], l64 a[4], l64 d[3], l64m *inside, l64m *odd)
{
    l64 d1[3], d2[3], r[3];
    for (int e = 0; e < 3; e++)
        d1[e] = l64_sub(x[1][e], x[0][e]), d2[e] = l64_sub(x[3][e], x[2][e]), r[e] = l64_sub(x[0][e], x[2][e]);
    const l64 zero = l64_set(0), one = l64_set(1), tiny = l64_set(1e-300);
    const l64 aa = l64_dot(d1, d1), ee = l64_dot(d2, d2), f = l64_dot(d2, r);
    *odd = l64_or(l64_le(aa, tiny), l64_le(ee, tiny));
    const l64 c = l64_dot(d1, r), b = l64_dot(d1, d2), den = l64_sub(l64_mul(aa, ee), l64_mul(b, b));
    const l64 s0 = l64_min(one, l64_max(zero, l64_div(l64_sub(l64_mul(b, f), l64_mul(c, ee)), den)));
    l64 s = l64_sel(l64_gt(den, zero), s0, zero);
    l64 t = l64_div(l64_add(l64_mul(b, s), f), ee);
    const l64m lt = l64_lt(t, zero), gt = l64_gt(t, one);
    if (l64_bits(l64_or(lt, gt))) {
        const l64 sl = l64_min(one, l64_max(zero, l64_div(l64_neg(c), aa)));
        const l64 sg = l64_min(one, l64_max(zero, l64_div(l64_sub(b, c), aa)));
        s = l64_sel(lt, sl, l64_sel(gt, sg, s));
        t = l64_sel(lt, zero, l64_sel(gt, one, t));
    }
    *inside = l64_and(l64_and(l64_gt(s, zero), l64_lt(s, one)), l64_and(l64_gt(t, zero), l64_lt(t, one)));
    a[0] = l64_sub(one, s), a[1] = s, a[2] = l64_neg(l64_sub(one, t)), a[3] = l64_neg(t);
    for (int e = 0; e < 3; e++)
        d[e] = l64_sub(l64_add(x[0][e], l64_mul(s, d1[e])), l64_add(x[2][e], l64_mul(t, d2[e])));
}

/* A mask of lanes from its bits (lane l: bit l). */
static inline l64m L64_SUFFIX(mask_of)(unsigned bits)
{
#if defined(HK_ISA_AVX512)
    return (l64m)bits;
#elif defined(HK_ISA_AVX2)
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(
        _mm256_and_si256(_mm256_set1_epi64x((long long)bits), _mm256_setr_epi64x(1, 2, 4, 8)), _mm256_setzero_si256()));
#else
    return (l64m)(bits & 1);
#endif
}

/* evaluate of the chunk's pairs, in three passes over its vectors of lanes (each vector's operations those of
 * evaluate, in its order): the corners, boxes and nearest points; the distances and normals; the law where a pair
 * is within the thickness. */
static int L64_SUFFIX(pair_eval)(const pair_lane_in *in, pair_chunk *ch, int n, int kind)
{
    int nhit = 0;
    if (n <= 0) return 0;
    for (int i = n; i < n + PAIR_LANES_PAD; i++) ch->off[i] = ch->off[n - 1]; /* the tail's lanes: a copy */
    const int ee = kind == HK_PAIR_EE;
    const l64 zero = l64_set(0), one = l64_set(1), th = l64_set(in->th), k = l64_set(in->k), z2 = l64_set(in->z2);
    for (int i = 0; i < n; i += L64_W) { /* the boxes and nearest points */
        l64 x[4][3], s2, a[4] = {zero, zero, zero, zero}, d[3] = {zero, zero, zero};
        const double *row[4][L64_W];
        L64_SUFFIX(corners)(in, ch->off + i, row, x);
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < L64_W; l++) ch->row[c][i + l] = row[c][l];
        const l64m box = L64_SUFFIX(boxes)(x, ee ? 2 : 1, in->th, &s2);
        l64m inside = l64_first(L64_W), odd = l64_not(inside);
        if (l64_bits(box)) {
            if (ee)
                L64_SUFFIX(ee_nearest)(x, a, d, &inside, &odd);
            else
                L64_SUFFIX(vt_nearest)(x, a, d);
        }
        ch->box[i] = (uint8_t)l64_bits(box), ch->inside[i] = (uint8_t)l64_bits(inside);
        ch->odd[i] = (uint8_t)l64_bits(odd);
        l64_store(ch->s2 + i, s2);
        for (int c = 0; c < 4; c++) l64_store(ch->a[c] + i, a[c]);
        for (int e = 0; e < 3; e++) l64_store(ch->d[e] + i, d[e]);
    }
    for (int i = 0; i < n; i += L64_W) { /* the distances and normals */
        const l64m box = L64_SUFFIX(mask_of)(ch->box[i]);
        l64 dist = zero, d[3];
        l64m acts = l64_lt(zero, zero), alone = acts;
        if (ch->box[i]) {
            for (int e = 0; e < 3; e++) d[e] = l64_load(ch->d[e] + i);
            dist = l64_sqrt(l64_dot(d, d));                                                       /* g_norm */
            const l64 gap = l64_sel(L64_SUFFIX(mask_of)(ch->inside[i]), dist, l64_set(INFINITY)); /* not inside */
            alone = l64_and(box, l64_or(L64_SUFFIX(mask_of)(ch->odd[i]), l64_not(l64_gt(dist, zero))));
            acts = l64_and(l64_and(box, l64_not(alone)), l64_lt(gap, th));
            for (int e = 0; e < 3; e++) l64_store(ch->n[e] + i, l64_div(d[e], dist));
            l64_store(ch->gap + i, gap);
        }
        ch->acts[i] = (uint8_t)l64_bits(acts), ch->alone[i] = (uint8_t)l64_bits(alone);
        if (in->set) { /* the bound: the boxes' distance, or where they leave the pair in, its sides' distance */
            const l64 b = l64_sqrt(l64_load(ch->s2 + i));
            l64_store(ch->lb + i, l64_sel(box, l64_max(b, dist), b));
        }
    }
    for (int i = 0; i < n; i += L64_W) { /* the law: vr = sum alpha_i v_i, 1 / m = sum alpha_i^2 / m_i, from 0 */
        l64m acts = L64_SUFFIX(mask_of)(ch->acts[i]);
        unsigned law_off = 0; /* within the thickness but no push: evaluate's, alone (a pair through pushes) */
        if (ch->acts[i]) {
            l64 a[4], n3[3], vr[3] = {zero, zero, zero}, inv = zero;
            for (int c = 0; c < 4; c++) a[c] = l64_load(ch->a[c] + i);
            for (int e = 0; e < 3; e++) n3[e] = l64_load(ch->n[e] + i);
            const l64 gap = l64_load(ch->gap + i);
            for (int c = 0; c < 4; c++) {
                const double *vrow[L64_W];
                l64 v[4];
                for (int l = 0; l < L64_W; l++) vrow[l] = ch->row[c][i + l] + 4;
                l64_rows4(vrow, v);
                for (int e = 0; e < 3; e++) vr[e] = l64_add(vr[e], l64_mul(a[c], v[e]));
                inv = l64_add(inv, l64_mul(l64_mul(a[c], a[c]), v[3]));
            }
            const l64 m = l64_div(one, inv), vn = l64_dot(vr, n3);
            const l64 c = ee ? zero : l64_mul(z2, l64_sqrt(l64_mul(k, m)));       /* hk_soft_make; none for edges */
            const l64 fn = l64_sub(l64_mul(k, l64_sub(th, gap)), l64_mul(c, vn)); /* hk_soft_force */
            const l64m law = l64_and(l64_gt(inv, zero), l64_gt(fn, zero));
            law_off = l64_bits(l64_and(acts, l64_not(law)));
            acts = l64_and(acts, law);
            l64_store(ch->fn + i, fn), l64_store(ch->m + i, m);
            for (int e = 0; e < 3; e++) l64_store(ch->vr[e] + i, vr[e]);
        }
        const unsigned tail = l64_bits(l64_first(n - i)), on = l64_bits(acts) & tail,
                       by = (ch->alone[i] | law_off) & tail;
        ch->acts[i] = (uint8_t)on;
        if (!(on | by)) continue; /* (a status is read only where the entry is a hit) */
        for (int l = 0; l < L64_W; l++)
            ch->st[i + l] = on >> l & 1 ? PAIR_LANE_ACTS : by >> l & 1 ? PAIR_LANE_ALONE : PAIR_LANE_NONE;
        nhit += l64_indices(ch->hit + nhit, on | by, i);
    }
    return nhit;
}

static int L64_SUFFIX(pair_emit)(const pair_chunk *ch, int n, int64_t kb, hk_pair_evals *ev, int64_t e, int64_t *on)
{
    const int64_t e0 = e;
    for (int i = 0; i < n; i += L64_W) {
        const unsigned bits = ch->acts[i];
        if (!bits) continue;
        for (int c = 0; c < 4; c++) l64_compress(ev->a[c] + e, bits, l64_load(ch->a[c] + i));
        for (int c = 0; c < 3; c++) {
            l64_compress(ev->n[c] + e, bits, l64_load(ch->n[c] + i));
            l64_compress(ev->vr[c] + e, bits, l64_load(ch->vr[c] + i));
        }
        l64_compress(ev->fn + e, bits, l64_load(ch->fn + i));
        l64_compress(ev->m + e, bits, l64_load(ch->m + i));
        int32_t idx[L64_W];
        const int m = l64_indices(idx, bits, i);
        for (int j = 0; j < m; j++) on[e + j] = kb + ch->off[idx[j]];
        e += m;
    }
    return (int)(e - e0);
}

/* hk_pairs_friction of pairs [0, n) of in's range (its force alone: no blocks), lane by lane its operations in
 * order: the pair's mass shared among the touching pairs of its particles, the anchor's offset, its drag at a first
 * evaluation, and the anchored spring and damper at most Coulomb's limit (friction.c's hk_friction_anchored), or
 * the viscous friction of a pair that holds no anchor after the first evaluation (hk_friction_viscous). */
static void L64_SUFFIX(pair_friction)(const pair_friction_in *in, int n, int kind)
{
    const int tri = kind == HK_PAIR_VT;
    const l64 zero = l64_set(0), one = l64_set(1), half = l64_set(0.5), mu = l64_set(in->mu), h = l64_set(in->h);
    const l64 hh = l64_set(in->h * in->h);
    int64_t walk = 0; /* walking the anchors: the first whose pair is not below this range's first */
    if (in->walk && n > 0)
        for (int64_t hi = in->nanch; walk < hi;) {
            const int64_t mid = walk + (hi - walk) / 2;
            if (in->anch[mid].pair < in->on[0])
                walk = mid + 1;
            else
                hi = mid;
        }
    for (int i = 0; i < n; i += L64_W) {
        const int nl = n - i < L64_W ? n - i : L64_W;
        const double *row[4][L64_W];
        double hw[2][L64_W];
        int64_t ci[L64_W], ho[L64_W];
        unsigned held = 0;
        /* what pairs further on read, on its way while these are taken: two vectors on, their corners' places and
         * their anchors' places; one vector on, their corners' rows and sums and their anchors */
        for (int l = 0, f = i + 2 * L64_W; l < L64_W && f + l < n; l++) {
            const int64_t k = in->on[f + l];
            __builtin_prefetch(in->at + 4 * k);
            if (!in->walk) __builtin_prefetch(in->pan + k), __builtin_prefetch(in->pcand + k);
        }
        for (int l = 0, f = i + L64_W; l < L64_W && f + l < n; l++) {
            const int64_t k = in->on[f + l];
            const int32_t *at = in->at + 4 * k;
            for (int c = 0; c < 4; c++) {
                __builtin_prefetch(in->xv + PAIR_LANES_ROW * (int64_t)at[c]);
                if (in->acc) __builtin_prefetch(in->acc + 3 * (int64_t)at[c], 1);
            }
            const int64_t o = in->walk ? -1 : in->pan[k];
            if (o >= 0 && o < in->nanch) __builtin_prefetch(in->anch + o);
        }
        for (int l = 0; l < L64_W; l++) { /* each lane's corners and anchor (the tail's lanes: the last pair's) */
            const int64_t k = in->on[i + (l < nl ? l : nl - 1)];
            const int32_t *at = in->at + 4 * k;
            for (int c = 0; c < 4; c++) row[c][l] = in->xv + PAIR_LANES_ROW * (int64_t)at[c];
            int64_t o;
            int ok;
            if (in->walk) { /* the anchors ascend by pair: this pair's, if it holds one, is the next not below it */
                while (walk < in->nanch && in->anch[walk].pair < k) walk++;
                o = walk, ok = walk < in->nanch && in->anch[walk].pair == k;
                ci[l] = ok ? in->anch[o].cand : in->first ? in->pcand[k] : -1;
                HK_ASSERT(!ok || in->anch[o].cand == in->pcand[k]); /* the pair's candidate's: what pan finds */
            } else {
                o = in->pan[k], ci[l] = in->pcand[k];
                ok = o >= 0 && o < in->nanch && in->anch[o].cand == ci[l];
            }
            held |= (unsigned)ok << l;
            ho[l] = o;
            hw[0][l] = ok ? in->anch[o].w[0] : 0, hw[1][l] = ok ? in->anch[o].w[1] : 0;
        }
        l64 a[4], nn[3], vr[3], x[4][3];
        for (int c = 0; c < 4; c++) a[c] = l64_loadn(in->a[c] + i, nl);
        for (int e = 0; e < 3; e++) nn[e] = l64_loadn(in->n[e] + i, nl), vr[e] = l64_loadn(in->vr[e] + i, nl);
        const l64 fn = l64_loadn(in->fn + i, nl);
        l64 most = one; /* the most touching pairs a particle it moves is in */
        for (int c = 0; c < 4; c++) {
            l64 col[4];
            l64_rows4(row[c], col);
            x[c][0] = col[0], x[c][1] = col[1], x[c][2] = col[2];
            most = l64_sel(l64_and(l64_ne(a[c], zero), l64_gt(col[3], most)), col[3], most);
        }
        const l64 m = l64_div(l64_loadn(in->m + i, nl), most), vn = l64_dot(vr, nn), limit = l64_mul(mu, fn);
        l64 vt[3], f0[3];
        for (int e = 0; e < 3; e++) vt[e] = l64_sub(vr[e], l64_mul(vn, nn[e])), f0[e] = l64_mul(fn, nn[e]);
        /* the anchor's weights: held, or where the pair is now (weights_of), and its alpha (alpha_of) */
        const l64 now[2] = {tri ? l64_neg(a[1]) : a[1], tri ? l64_neg(a[2]) : l64_neg(a[3])};
        l64m hm = l64_lt(zero, zero);
#if defined(HK_ISA_AVX512)
        hm = (l64m)held;
#elif defined(HK_ISA_AVX2)
        hm = _mm256_castsi256_pd(
            _mm256_cmpgt_epi64(_mm256_and_si256(_mm256_set1_epi64x((long long)held), _mm256_setr_epi64x(1, 2, 4, 8)),
                               _mm256_setzero_si256()));
#else
        hm = (l64m)held;
#endif
        l64 wa[2] = {l64_sel(hm, l64_loadn(hw[0], L64_W), now[0]), l64_sel(hm, l64_loadn(hw[1], L64_W), now[1])};
        l64 al[4];
        if (tri)
            al[0] = one, al[1] = l64_neg(wa[0]), al[2] = l64_neg(wa[1]),
            al[3] = l64_neg(l64_sub(l64_sub(one, wa[0]), wa[1]));
        else
            al[0] = l64_sub(one, wa[0]), al[1] = wa[0], al[2] = l64_neg(l64_sub(one, wa[1])), al[3] = l64_neg(wa[1]);
        l64 r[3] = {zero, zero, zero}, d[3];
        for (int c = 0; c < 4; c++)
            for (int e = 0; e < 3; e++) r[e] = l64_add(r[e], l64_mul(al[c], x[c][e]));
        const l64 rn = l64_dot(r, nn);
        const l64 kt = l64_div(l64_mul(half, m), hh), ct = l64_div(m, h); /* hk_friction_spring */
        for (int e = 0; e < 3; e++) d[e] = l64_sub(r[e], l64_mul(rn, nn[e]));
        const l64 lim2 = l64_mul(limit, limit);
        if (in->first) { /* hk_friction_drag: sliding, the anchor dragged towards the weights now */
            const l64 off2 = l64_dot(d, d);
            const l64m drag = l64_gt(l64_mul(l64_mul(off2, kt), kt), lim2);
            if (l64_bits(drag)) {
                const l64 sd = l64_div(l64_div(limit, kt), l64_sqrt(off2));
                for (int c = 0; c < 2; c++)
                    wa[c] = l64_sel(drag, l64_add(now[c], l64_mul(sd, l64_sub(wa[c], now[c]))), wa[c]);
                for (int e = 0; e < 3; e++) d[e] = l64_sel(drag, l64_mul(d[e], sd), d[e]);
            }
        }
        l64 ft[3], f[3]; /* hk_friction_anchored */
        for (int e = 0; e < 3; e++) ft[e] = l64_sub(l64_mul(l64_neg(kt), d[e]), l64_mul(ct, vt[e]));
        const l64 size2 = l64_dot(ft, ft), size = l64_sel(l64_gt(size2, lim2), l64_sqrt(size2), zero);
        const l64 sa = l64_sel(l64_gt(size, limit), l64_div(limit, size), one);
        HK_ASSERT(!(l64_bits(l64_gt(l64_mul(l64_mul(sa, sa), size2), l64_mul(lim2, l64_set(1 + 1e-9)))) &
                    l64_bits(l64_first(nl))));
        for (int e = 0; e < 3; e++) f[e] = l64_add(f0[e], l64_mul(sa, ft[e]));
        if (!in->first && (held & l64_bits(l64_first(nl))) != l64_bits(l64_first(nl))) { /* hk_friction_viscous */
            const l64 st = l64_sqrt(l64_dot(vt, vt)), stick = l64_div(m, h), slip = l64_mul(stick, st);
            const l64 c = l64_sel(l64_le(slip, limit), stick, l64_div(limit, st));
            const l64m moves = l64_and(l64_not(hm), l64_gt(st, zero)), free = l64_not(hm);
            HK_ASSERT(!(l64_bits(l64_and(moves, l64_gt(l64_mul(c, st), l64_mul(limit, l64_set(1 + 1e-9))))) &
                        l64_bits(l64_first(nl))));
            for (int e = 0; e < 3; e++)
                f[e] = l64_sel(free, l64_sel(moves, l64_sub(f0[e], l64_mul(c, vt[e])), f0[e]), f[e]);
        }
        double fo[3][L64_W], wo[2][L64_W], ao[4][L64_W];
        for (int e = 0; e < 3; e++) l64_store(fo[e], f[e]);
        for (int c = 0; c < 2; c++) l64_store(wo[c], wa[c]);
        if (in->acc)
            for (int c = 0; c < 4; c++) l64_store(ao[c], a[c]);
        for (int l = 0; l < nl; l++) {
            const int64_t k = in->on[i + l];
            const int32_t *at = in->at + 4 * k;
            if (in->acc) /* the sums, pair by pair: s += alpha_c F, from 0 (sum_task's operations) */
                for (int c = 0; c < 4; c++) {
                    double *s = in->acc + 3 * (int64_t)at[c];
                    for (int e = 0; e < 3; e++) s[e] += ao[c][l] * fo[e][l];
                }
            else
                for (int e = 0; e < 3; e++) in->tf[3 * (int64_t)(i + l) + e] = fo[e][l];
            if (!in->first) continue;
            hk_pair_anchor *an = &in->anch_next[i + l]; /* every pair of a first evaluation holds its anchor */
            if (held >> l & 1) {                        /* the same pair's (its candidate's): its key */
                an->key = in->anch[ho[l]].key;
            } else {
                an->key.kind = kind;
                for (int c = 0; c < 4; c++) an->key.p[c] = in->inv[at[c]];
            }
            an->cand = ci[l], an->pair = k, an->w[0] = wo[0][l], an->w[1] = wo[1][l];
        }
    }
}

const hk_pair_lanes L64_SUFFIX(hk_pair_lanes) = {
    .isa = HK_ISA_NAME,
    .width = L64_W,
    .select = L64_SUFFIX(pair_select),
    .eval = L64_SUFFIX(pair_eval),
    .emit = L64_SUFFIX(pair_emit),
    .friction = L64_SUFFIX(pair_friction),
};

#endif
