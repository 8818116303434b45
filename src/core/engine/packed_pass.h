/* packed_pass.h — listed springs over packed particle records: no gathers, transposes instead (AVX2, AVX-512). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PACKED_PASS_H
#define HOOKE_PACKED_PASS_H

/* Included by kernels_isa.h after list_pass.h (list_tail), in float
 * builds on the AVX2 and AVX-512 paths. A list body's
 * particles are packed once per force pass into records {x, y, z, vx, vy,
 * vz, 0, 0} (32 bytes) and force records {fx, fy, fz, 0} (16 bytes): one
 * spring end is then one or two aligned loads, and the differences of 8
 * springs' ends come out of an 8x8 transpose. The force of each lane is
 * spring_lanes', in the same order of adds into each particle as
 * list_range's. */

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

/* The first n of 8 springs' forces (fx, fy, fz) added to their a ends' and
 * subtracted from their b ends' force records, lane by lane in order */
static inline __attribute__((always_inline)) void scatter_records8(float *facc, const int *a, const int *b, __m256 fx,
                                                                   __m256 fy, __m256 fz, int n)
{
    __m256 q[4];
    force_records8(fx, fy, fz, q);
    for (int l = 0; l < n; l++) {
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

/* The first n of 16 springs' forces into their ends' force records, lane by
 * lane in order (the order matters only in the overflow colour, where ends
 * repeat) */
static inline __attribute__((always_inline)) void scatter_records16(char *facc, const int *ia, const int *ib, __m512 fx,
                                                                    __m512 fy, __m512 fz, int n)
{
    const __m512 zero = _mm512_setzero_ps();
    const __m512 t0 = _mm512_unpacklo_ps(fx, fy), t1 = _mm512_unpackhi_ps(fx, fy);
    const __m512 t2 = _mm512_unpacklo_ps(fz, zero), t3 = _mm512_unpackhi_ps(fz, zero);
    /* q[k], 128-bit lane j: the record {fx, fy, fz, 0} of spring lane 4 j + k */
    const __m512 q[4] = {_mm512_shuffle_ps(t0, t2, 0x44), _mm512_shuffle_ps(t0, t2, 0xEE),
                         _mm512_shuffle_ps(t1, t3, 0x44), _mm512_shuffle_ps(t1, t3, 0xEE)};
#define HK_LANE4(j, get)                                                                                               \
    for (int k4 = 0; k4 < 4 && 4 * (j) + k4 < n; k4++) add_record(facc, ia[4 * (j) + k4], ib[4 * (j) + k4], get)
    HK_LANE4(0, _mm512_castps512_ps128(q[k4]));
    HK_LANE4(1, _mm512_extractf32x4_ps(q[k4], 1));
    HK_LANE4(2, _mm512_extractf32x4_ps(q[k4], 2));
    HK_LANE4(3, _mm512_extractf32x4_ps(q[k4], 3));
#undef HK_LANE4
}
#endif

/* The forces of W springs from the differences D of their ends (dx, dy, dz,
 * dvx, dvy, dvz), with broken bytes, rest lengths and rest vectors beside
 * them or NULL (as list_lanes). */
static inline __attribute__((always_inline)) void packed_forces(const list_consts *K, hk_w D[6], const uint8_t *broken,
                                                                const hk_real *rest, const hk_real *const rv[3],
                                                                hk_w F[3])
{
    hk_wm live = wm_all();
    if (broken) live = wm_and(live, wm_unbroken(broken));
    if (rv)
        for (int c = 0; c < 3; c++) D[c] = w_sub(D[c], w_loadu(rv[c]));
    const hk_w L0 = rest ? w_loadu(rest) : K->L0;
    if (K->model == HK_DAMP_ALONG)
        spring_lanes(D[0], D[1], D[2], D[3], D[4], D[5], L0, K->k, K->c, live, HK_DAMP_ALONG, K->beh, &F[0], &F[1],
                     &F[2]);
    else
        spring_lanes(D[0], D[1], D[2], D[3], D[4], D[5], L0, K->k, K->c, live, HK_DAMP_RELATIVE, K->beh, &F[0], &F[1],
                     &F[2]);
}

#if defined(HK_ISA_AVX512)
/* The end differences of the 16 springs a[l], b[l] as rows of 16 lanes */
static inline __attribute__((always_inline)) void packed_diffs(const char *recb, const int *ia, const int *ib,
                                                               __m512 D[6])
{
    __m512 z[8];
    for (int m = 0; m < 8; m++) z[m] = diff_pair16(recb, ia, ib, m);
    rows16(z, D);
}
#define HK_PACKED_SCATTER(facc, a, b, F, n) scatter_records16((char *)(facc), a, b, F[0], F[1], F[2], n)
#else
#define packed_diffs(rec, a, b, D) diff_records8((const float *)(rec), a, b, D)
#define HK_PACKED_SCATTER(facc, a, b, F, n) scatter_records8(facc, a, b, F[0], F[1], F[2], n)
#endif

/* List springs [s0, s1) of one colour over packed records: W springs per
 * step, the last m < W as one more step over a padded copy of their ends
 * (list_tail) whose first m lanes are added back. */
static void HK_SUFFIX(list_range_packed)(const hk_family *f, const float *rec, float *facc, int64_t s0, int64_t s1)
{
    const list_consts K = list_consts_of(f);
    const char *recb = (const char *)rec;
    int64_t s = s0;
    /* in blocks of up to 4 vectors, phase by phase (loads and transposes,
     * arithmetic, adds into the force records): one vector's chain from
     * index load to force store is longer than the out-of-order window
     * covers, the phases' vectors are independent and overlap */
    enum { PB = 4 };
    while (s + HK_W <= s1) {
        const int nb = (s1 - s) / HK_W < PB ? (int)((s1 - s) / HK_W) : PB;
        hk_w D[PB][6], F[PB][3];
        for (int v = 0; v < nb; v++) packed_diffs(recb, f->a + s + HK_W * v, f->b + s + HK_W * v, D[v]);
        for (int v = 0; v < nb; v++) {
            const int64_t sv = s + HK_W * v;
            const hk_real *rv[3];
            packed_forces(&K, D[v], f->broken ? f->broken + sv : NULL, f->rest_list ? f->rest_list + sv : NULL,
                          list_rvec(f, sv, rv), F[v]);
        }
        for (int v = 0; v < nb; v++) HK_PACKED_SCATTER(facc, f->a + s + HK_W * v, f->b + s + HK_W * v, F[v], HK_W);
        s += HK_W * nb;
    }
    if (s < s1) {
        list_tail t;
        hk_w D[6], F[3];
        list_tail_fill(f, s, (int)(s1 - s), &t);
        packed_diffs(recb, t.a, t.b, D);
        packed_forces(&K, D, f->broken ? t.broken : NULL, f->rest_list ? t.rest : NULL, f->rvec[0] ? t.rv : NULL, F);
        HK_PACKED_SCATTER(facc, t.a, t.b, F, (int)(s1 - s));
    }
}
#undef HK_PACKED_SCATTER

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

/* 8 particles' records {qx, qy, qz, vx, vy, vz, 0, 0} from the particle arrays */
static inline void store_records8(const hk_particles *p, float *rec, int64_t g)
{
    const __m256 zero = _mm256_setzero_ps();
    const __m256 r[8] = {_mm256_loadu_ps(p->qx + g),
                         _mm256_loadu_ps(p->qy + g),
                         _mm256_loadu_ps(p->qz + g),
                         _mm256_loadu_ps(p->vx + g),
                         _mm256_loadu_ps(p->vy + g),
                         _mm256_loadu_ps(p->vz + g),
                         zero,
                         zero};
    __m256 recs[8];
    transpose8x8(r, recs);
    for (int l = 0; l < 8; l++) _mm256_store_ps(rec + 8 * (g + l), recs[l]);
}

/* Particles [g0, g0 + n) into packed records: rec {qx, qy, qz, vx, vy, vz, 0,
 * 0} and facc {fx, fy, fz, 0}, through 8-particle transposes. The starting
 * force is f when ext is NULL, otherwise the external force of ext
 * (external_lanes: the bits external_forces writes; f is not touched),
 * which spares a pass over the particles. */
static void HK_SUFFIX(list_pack)(const hk_external *ext, const hk_particles *p, float *rec, float *facc, int64_t g0,
                                 int n)
{
    int64_t g = g0;
    if (ext) {
        for (; g + HK_W <= g0 + n; g += HK_W) {
            hk_w fx, fy, fz, x, y, z;
            const hk_real *const r[3] = {p->rx + g, p->ry + g, p->rz + g}, *const q[3] = {p->qx + g, p->qy + g,
                                                                                          p->qz + g};
            external_position(ext, r, q, HK_W, &x, &y, &z);
            external_lanes(ext, w_loadu(p->mass + g), x, y, z, w_loadu(p->vx + g), w_loadu(p->vy + g),
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
    if (g < g0 + n) { /* the last particles one by one, their external forces as one more vector */
        const int m = (int)(g0 + n - g);
        hk_real e[3][HK_W];
        if (ext) {
            hk_w fx, fy, fz, x, y, z;
            const hk_real *const r[3] = {p->rx + g, p->ry + g, p->rz + g}, *const q[3] = {p->qx + g, p->qy + g,
                                                                                          p->qz + g};
            external_position(ext, r, q, m, &x, &y, &z);
            external_lanes(ext, w_load_lanes(p->mass + g, m), x, y, z, w_load_lanes(p->vx + g, m),
                           w_load_lanes(p->vy + g, m), w_load_lanes(p->vz + g, m), &fx, &fy, &fz);
            w_storeu(e[0], fx);
            w_storeu(e[1], fy);
            w_storeu(e[2], fz);
        }
        for (int l = 0; l < m; l++, g++) {
            float *r = rec + 8 * g, *q = facc + 4 * g;
            r[0] = p->qx[g], r[1] = p->qy[g], r[2] = p->qz[g], r[3] = p->vx[g], r[4] = p->vy[g], r[5] = p->vz[g];
            r[6] = r[7] = 0;
            if (ext)
                q[0] = e[0][l], q[1] = e[1][l], q[2] = e[2][l];
            else
                q[0] = p->fx[g], q[1] = p->fy[g], q[2] = p->fz[g];
            q[3] = 0;
        }
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

#endif
