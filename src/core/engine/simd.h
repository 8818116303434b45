/* simd.h — one private wide-float type per ISA (AVX-512, AVX2, scalar) over hk_real; never in public headers. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SIMD_H
#define HOOKE_SIMD_H

/* The including file picks the ISA by defining one of HK_ISA_AVX512,
 * HK_ISA_AVX2 or HK_ISA_SCALAR and is compiled with matching -m flags
 * (-mfma with either SIMD set). Every operation is a correctly rounded IEEE
 * one (add, sub, mul, div, sqrt, and the fused multiply-add, which the
 * scalar path computes with C99 fma; no approximate reciprocal), so a lane
 * computes bit-for-bit what the scalar code computes from the same inputs in
 * the same order. */

#include <stdint.h>
#include <string.h>

#include "hd.h"
#include "hooke/hooke.h"

#if defined(HK_ISA_AVX512) || defined(HK_ISA_AVX2)
#include <immintrin.h>
#endif

#if defined(HK_ISA_AVX512) && !defined(HOOKE_DOUBLE)
#define HK_W 16
typedef __m512 hk_w;
typedef __mmask16 hk_wm;
#define HK_SUFFIX(name) name##_avx512
static inline hk_w w_load(const hk_real *p) { return _mm512_load_ps(p); }
static inline hk_w w_loadu(const hk_real *p) { return _mm512_loadu_ps(p); }
static inline void w_store(hk_real *p, hk_w v) { _mm512_store_ps(p, v); }
static inline void w_storeu(hk_real *p, hk_w v) { _mm512_storeu_ps(p, v); }
static inline hk_w w_set1(hk_real x) { return _mm512_set1_ps(x); }
static inline hk_w w_add(hk_w a, hk_w b) { return _mm512_add_ps(a, b); }
static inline hk_w w_sub(hk_w a, hk_w b) { return _mm512_sub_ps(a, b); }
static inline hk_w w_mul(hk_w a, hk_w b) { return _mm512_mul_ps(a, b); }
static inline hk_w w_div(hk_w a, hk_w b) { return _mm512_div_ps(a, b); }
static inline hk_w w_sqrt(hk_w a) { return _mm512_sqrt_ps(a); }
/* a b + c, a b - c and c - a b, each rounded once */
static inline hk_w w_fmadd(hk_w a, hk_w b, hk_w c) { return _mm512_fmadd_ps(a, b, c); }
static inline hk_w w_fmsub(hk_w a, hk_w b, hk_w c) { return _mm512_fmsub_ps(a, b, c); }
static inline hk_w w_fnmadd(hk_w a, hk_w b, hk_w c) { return _mm512_fnmadd_ps(a, b, c); }
static inline hk_wm w_gt(hk_w a, hk_w b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
static inline hk_wm w_lt(hk_w a, hk_w b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
static inline hk_wm w_ge(hk_w a, hk_w b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OQ); }
static inline hk_wm w_neq(hk_w a, hk_w b) { return _mm512_cmp_ps_mask(a, b, _CMP_NEQ_UQ); }
/* every lane true */
static inline hk_wm wm_all(void) { return (hk_wm)0xFFFF; }
static inline hk_wm wm_and(hk_wm a, hk_wm b) { return (hk_wm)(a & b); }
/* lanes where m is false become 0 */
static inline hk_w w_keep(hk_wm m, hk_w a) { return _mm512_maskz_mov_ps(m, a); }
/* m ? b : a */
static inline hk_w w_select(hk_wm m, hk_w a, hk_w b) { return _mm512_mask_blend_ps(m, a, b); }
/* a > b ? a : b and a < b ? a : b (b where either is NaN) */
static inline hk_w w_max(hk_w a, hk_w b) { return _mm512_max_ps(a, b); }
static inline hk_w w_min(hk_w a, hk_w b) { return _mm512_min_ps(a, b); }
/* lanes whose byte is 0 (spring not broken) */
static inline hk_wm wm_unbroken(const uint8_t *p)
{
    return _mm512_cmpeq_epi32_mask(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)), _mm512_setzero_si512());
}
static inline hk_w w_gather(const hk_real *base, const int32_t *idx)
{
    return _mm512_i32gather_ps(_mm512_loadu_si512(idx), base, 4);
}
static inline void w_scatter(hk_real *base, const int32_t *idx, hk_w v)
{
    _mm512_i32scatter_ps(base, _mm512_loadu_si512(idx), v, 4);
}
/* lanes [0, n) of p, the others 0; and lanes [0, n) stored to p (0 < n <= W):
 * the tail of a range, without touching memory past it */
static inline hk_w w_loadn(const hk_real *p, int n) { return _mm512_maskz_loadu_ps((__mmask16)((1u << n) - 1), p); }
static inline void w_storen(hk_real *p, hk_w v, int n) { _mm512_mask_storeu_ps(p, (__mmask16)((1u << n) - 1), v); }
/* w_scatter of lanes [0, n) only */
static inline void w_scattern(hk_real *base, const int32_t *idx, hk_w v, int n)
{
    _mm512_mask_i32scatter_ps(base, (__mmask16)((1u << n) - 1), _mm512_loadu_si512(idx), v, 4);
}
#define HK_HAS_SHIFT 1
/* w_alignc(hi, lo, n): lanes n .. n + 15 of (lo, hi) for a compile-time n in
 * 1..15, one valignd. Its count must be a literal: GCC folds a constant n
 * through the inlining first, clang's front end wants it as written (hence
 * the cases, which a constant n folds to one). */
#if defined(__clang__)
#define HK_ALIGN(n) _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(hi), _mm512_castps_si512(lo), n))
static inline __attribute__((always_inline)) hk_w w_alignc(hk_w hi, hk_w lo, int n)
{
    switch (n) {
    case 1: return HK_ALIGN(1);
    case 2: return HK_ALIGN(2);
    case 3: return HK_ALIGN(3);
    case 4: return HK_ALIGN(4);
    case 5: return HK_ALIGN(5);
    case 6: return HK_ALIGN(6);
    case 7: return HK_ALIGN(7);
    case 8: return HK_ALIGN(8);
    case 9: return HK_ALIGN(9);
    case 10: return HK_ALIGN(10);
    case 11: return HK_ALIGN(11);
    case 12: return HK_ALIGN(12);
    case 13: return HK_ALIGN(13);
    case 14: return HK_ALIGN(14);
    default: return HK_ALIGN(15);
    }
}
#undef HK_ALIGN
#else
#define w_alignc(hi, lo, n)                                                                                            \
    _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(hi), _mm512_castps_si512(lo), n))
#endif
/* lanes l of the element sequence (prev, cur) delayed by s in 0..W:
 * shift_in:  l >= s ? cur[l - s] : prev[W + l - s]
 * An s known at compile time takes one valignd, any other a vpermt2ps. */
static inline __attribute__((always_inline)) hk_w w_shift_in(hk_w prev, hk_w cur, int s)
{
    if (__builtin_constant_p(s) && s > 0 && s < 16) return w_alignc(cur, prev, 16 - s);
    const __m512i idx = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                         _mm512_set1_epi32(16 - s));
    return _mm512_permutex2var_ps(prev, idx, cur);
}

/* The 2W entries at p as W springs' ends: w_split puts the entries of the even runs of d (d = 1 or 2, runs
 * counted from p) into *a and those of the odd runs into *b, entry p[j + d] in b's lane where p[j] is in a's (the lane
 * order is the ISA's own, the same in both); w_merge writes a and b back where w_split found them. */
#define HK_HAS_SPLIT 1
static inline void w_split(const hk_real *p, int d, hk_w *a, hk_w *b)
{
    const __m512d lo = _mm512_castps_pd(_mm512_loadu_ps(p)), hi = _mm512_castps_pd(_mm512_loadu_ps(p + 16));
    if (d == 1) {
        const __m512 l = _mm512_castpd_ps(lo), h = _mm512_castpd_ps(hi);
        *a = _mm512_permutex2var_ps(l, _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30), h);
        *b = _mm512_permutex2var_ps(l, _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31), h);
    } else {
        *a = _mm512_castpd_ps(_mm512_permutex2var_pd(lo, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), hi));
        *b = _mm512_castpd_ps(_mm512_permutex2var_pd(lo, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), hi));
    }
}
static inline void w_merge(hk_real *p, int d, hk_w a, hk_w b)
{
    if (d == 1) {
        _mm512_storeu_ps(
            p, _mm512_permutex2var_ps(a, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), b));
        _mm512_storeu_ps(p + 16,
                         _mm512_permutex2var_ps(
                             a, _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), b));
    } else {
        const __m512d x = _mm512_castps_pd(a), y = _mm512_castps_pd(b);
        _mm512_storeu_ps(p,
                         _mm512_castpd_ps(_mm512_permutex2var_pd(x, _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), y)));
        _mm512_storeu_ps(p + 16,
                         _mm512_castpd_ps(_mm512_permutex2var_pd(x, _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15), y)));
    }
}

#elif defined(HK_ISA_AVX512) && defined(HOOKE_DOUBLE)
#define HK_W 8
typedef __m512d hk_w;
typedef __mmask8 hk_wm;
#define HK_SUFFIX(name) name##_avx512
static inline hk_w w_load(const hk_real *p) { return _mm512_load_pd(p); }
static inline hk_w w_loadu(const hk_real *p) { return _mm512_loadu_pd(p); }
static inline void w_store(hk_real *p, hk_w v) { _mm512_store_pd(p, v); }
static inline void w_storeu(hk_real *p, hk_w v) { _mm512_storeu_pd(p, v); }
static inline hk_w w_set1(hk_real x) { return _mm512_set1_pd(x); }
static inline hk_w w_add(hk_w a, hk_w b) { return _mm512_add_pd(a, b); }
static inline hk_w w_sub(hk_w a, hk_w b) { return _mm512_sub_pd(a, b); }
static inline hk_w w_mul(hk_w a, hk_w b) { return _mm512_mul_pd(a, b); }
static inline hk_w w_div(hk_w a, hk_w b) { return _mm512_div_pd(a, b); }
static inline hk_w w_sqrt(hk_w a) { return _mm512_sqrt_pd(a); }
/* a b + c, a b - c and c - a b, each rounded once */
static inline hk_w w_fmadd(hk_w a, hk_w b, hk_w c) { return _mm512_fmadd_pd(a, b, c); }
static inline hk_w w_fmsub(hk_w a, hk_w b, hk_w c) { return _mm512_fmsub_pd(a, b, c); }
static inline hk_w w_fnmadd(hk_w a, hk_w b, hk_w c) { return _mm512_fnmadd_pd(a, b, c); }
static inline hk_wm w_gt(hk_w a, hk_w b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline hk_wm w_lt(hk_w a, hk_w b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline hk_wm w_ge(hk_w a, hk_w b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline hk_wm w_neq(hk_w a, hk_w b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); }
static inline hk_wm wm_all(void) { return (hk_wm)0xFF; }
static inline hk_wm wm_and(hk_wm a, hk_wm b) { return (hk_wm)(a & b); }
static inline hk_w w_keep(hk_wm m, hk_w a) { return _mm512_maskz_mov_pd(m, a); }
static inline hk_w w_select(hk_wm m, hk_w a, hk_w b) { return _mm512_mask_blend_pd(m, a, b); }
static inline hk_w w_max(hk_w a, hk_w b) { return _mm512_max_pd(a, b); }
static inline hk_w w_min(hk_w a, hk_w b) { return _mm512_min_pd(a, b); }
static inline hk_wm wm_unbroken(const uint8_t *p)
{
    __m128i bytes = _mm_loadl_epi64((const __m128i *)p);
    return _mm512_cmpeq_epi64_mask(_mm512_cvtepu8_epi64(bytes), _mm512_setzero_si512());
}
static inline hk_w w_gather(const hk_real *base, const int32_t *idx)
{
    return _mm512_i32gather_pd(_mm256_loadu_si256((const __m256i *)idx), base, 8);
}
static inline void w_scatter(hk_real *base, const int32_t *idx, hk_w v)
{
    _mm512_i32scatter_pd(base, _mm256_loadu_si256((const __m256i *)idx), v, 8);
}
static inline hk_w w_loadn(const hk_real *p, int n) { return _mm512_maskz_loadu_pd((__mmask8)((1u << n) - 1), p); }
static inline void w_storen(hk_real *p, hk_w v, int n) { _mm512_mask_storeu_pd(p, (__mmask8)((1u << n) - 1), v); }
static inline void w_scattern(hk_real *base, const int32_t *idx, hk_w v, int n)
{
    _mm512_mask_i32scatter_pd(base, (__mmask8)((1u << n) - 1), _mm256_loadu_si256((const __m256i *)idx), v, 8);
}
#define HK_HAS_SHIFT 1
/* w_alignc for 8 lanes (n in 1..7): one valignq */
#if defined(__clang__)
#define HK_ALIGN(n) _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(hi), _mm512_castpd_si512(lo), n))
static inline __attribute__((always_inline)) hk_w w_alignc(hk_w hi, hk_w lo, int n)
{
    switch (n) {
    case 1: return HK_ALIGN(1);
    case 2: return HK_ALIGN(2);
    case 3: return HK_ALIGN(3);
    case 4: return HK_ALIGN(4);
    case 5: return HK_ALIGN(5);
    case 6: return HK_ALIGN(6);
    default: return HK_ALIGN(7);
    }
}
#undef HK_ALIGN
#else
#define w_alignc(hi, lo, n)                                                                                            \
    _mm512_castsi512_pd(_mm512_alignr_epi64(_mm512_castpd_si512(hi), _mm512_castpd_si512(lo), n))
#endif
static inline __attribute__((always_inline)) hk_w w_shift_in(hk_w prev, hk_w cur, int s)
{
    if (__builtin_constant_p(s) && s > 0 && s < 8) return w_alignc(cur, prev, 8 - s);
    const __m512i idx = _mm512_add_epi64(_mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7), _mm512_set1_epi64(8 - s));
    return _mm512_permutex2var_pd(prev, idx, cur);
}

/* The 2W entries at p as W springs' ends: w_split puts the entries of the even runs of d (d = 1 or 2, runs
 * counted from p) into *a and those of the odd runs into *b, entry p[j + d] in b's lane where p[j] is in a's (the lane
 * order is the ISA's own, the same in both); w_merge writes a and b back where w_split found them. */
#define HK_HAS_SPLIT 1
static inline void w_split(const hk_real *p, int d, hk_w *a, hk_w *b)
{
    const __m512d lo = _mm512_loadu_pd(p), hi = _mm512_loadu_pd(p + 8);
    if (d == 1) {
        *a = _mm512_permutex2var_pd(lo, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), hi);
        *b = _mm512_permutex2var_pd(lo, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), hi);
    } else {
        *a = _mm512_permutex2var_pd(lo, _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13), hi);
        *b = _mm512_permutex2var_pd(lo, _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15), hi);
    }
}
static inline void w_merge(hk_real *p, int d, hk_w a, hk_w b)
{
    if (d == 1) {
        _mm512_storeu_pd(p, _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11), b));
        _mm512_storeu_pd(p + 8, _mm512_permutex2var_pd(a, _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15), b));
    } else {
        _mm512_storeu_pd(p, _mm512_permutex2var_pd(a, _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11), b));
        _mm512_storeu_pd(p + 8, _mm512_permutex2var_pd(a, _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15), b));
    }
}

#elif defined(HK_ISA_AVX2) && !defined(HOOKE_DOUBLE)
#define HK_W 8
typedef __m256 hk_w;
typedef __m256 hk_wm;
#define HK_SUFFIX(name) name##_avx2
static inline hk_w w_load(const hk_real *p) { return _mm256_load_ps(p); }
static inline hk_w w_loadu(const hk_real *p) { return _mm256_loadu_ps(p); }
static inline void w_store(hk_real *p, hk_w v) { _mm256_store_ps(p, v); }
static inline void w_storeu(hk_real *p, hk_w v) { _mm256_storeu_ps(p, v); }
static inline hk_w w_set1(hk_real x) { return _mm256_set1_ps(x); }
static inline hk_w w_add(hk_w a, hk_w b) { return _mm256_add_ps(a, b); }
static inline hk_w w_sub(hk_w a, hk_w b) { return _mm256_sub_ps(a, b); }
static inline hk_w w_mul(hk_w a, hk_w b) { return _mm256_mul_ps(a, b); }
static inline hk_w w_div(hk_w a, hk_w b) { return _mm256_div_ps(a, b); }
static inline hk_w w_sqrt(hk_w a) { return _mm256_sqrt_ps(a); }
/* a b + c, a b - c and c - a b, each rounded once */
static inline hk_w w_fmadd(hk_w a, hk_w b, hk_w c) { return _mm256_fmadd_ps(a, b, c); }
static inline hk_w w_fmsub(hk_w a, hk_w b, hk_w c) { return _mm256_fmsub_ps(a, b, c); }
static inline hk_w w_fnmadd(hk_w a, hk_w b, hk_w c) { return _mm256_fnmadd_ps(a, b, c); }
static inline hk_wm w_gt(hk_w a, hk_w b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline hk_wm w_lt(hk_w a, hk_w b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline hk_wm w_ge(hk_w a, hk_w b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline hk_wm w_neq(hk_w a, hk_w b) { return _mm256_cmp_ps(a, b, _CMP_NEQ_UQ); }
static inline hk_wm wm_all(void) { return _mm256_castsi256_ps(_mm256_set1_epi32(-1)); }
static inline hk_wm wm_and(hk_wm a, hk_wm b) { return _mm256_and_ps(a, b); }
static inline hk_w w_keep(hk_wm m, hk_w a) { return _mm256_and_ps(m, a); }
static inline hk_w w_select(hk_wm m, hk_w a, hk_w b) { return _mm256_blendv_ps(a, b, m); }
static inline hk_w w_max(hk_w a, hk_w b) { return _mm256_max_ps(a, b); }
static inline hk_w w_min(hk_w a, hk_w b) { return _mm256_min_ps(a, b); }
static inline hk_wm wm_unbroken(const uint8_t *p)
{
    __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p));
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256()));
}
static inline hk_w w_gather(const hk_real *base, const int32_t *idx)
{
    return _mm256_i32gather_ps(base, _mm256_loadu_si256((const __m256i *)idx), 4);
}
static inline void w_scatter(hk_real *base, const int32_t *idx, hk_w v)
{
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    for (int l = 0; l < 8; l++) base[idx[l]] = lanes[l];
}
/* the lanes l < n as a mask */
static inline __m256i lanes_below(int n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline hk_w w_loadn(const hk_real *p, int n) { return _mm256_maskload_ps(p, lanes_below(n)); }
static inline void w_storen(hk_real *p, hk_w v, int n) { _mm256_maskstore_ps(p, lanes_below(n), v); }
static inline void w_scattern(hk_real *base, const int32_t *idx, hk_w v, int n)
{
    float lanes[8];
    _mm256_storeu_ps(lanes, v);
    for (int l = 0; l < n; l++) base[idx[l]] = lanes[l];
}

/* The 2W entries at p as W springs' ends: w_split puts the entries of the even runs of d (d = 1 or 2, runs
 * counted from p) into *a and those of the odd runs into *b, entry p[j + d] in b's lane where p[j] is in a's (the lane
 * order is the ISA's own, the same in both); w_merge writes a and b back where w_split found them. */
#define HK_HAS_SPLIT 1
static inline void w_split(const hk_real *p, int d, hk_w *a, hk_w *b)
{
    const __m256 lo = _mm256_loadu_ps(p), hi = _mm256_loadu_ps(p + 8);
    if (d == 1) {
        *a = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
        *b = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    } else {
        const __m256d l = _mm256_castps_pd(lo), h = _mm256_castps_pd(hi);
        *a = _mm256_castpd_ps(_mm256_unpacklo_pd(l, h));
        *b = _mm256_castpd_ps(_mm256_unpackhi_pd(l, h));
    }
}
static inline void w_merge(hk_real *p, int d, hk_w a, hk_w b)
{
    if (d == 1) {
        _mm256_storeu_ps(p, _mm256_unpacklo_ps(a, b));
        _mm256_storeu_ps(p + 8, _mm256_unpackhi_ps(a, b));
    } else {
        const __m256d x = _mm256_castps_pd(a), y = _mm256_castps_pd(b);
        _mm256_storeu_ps(p, _mm256_castpd_ps(_mm256_unpacklo_pd(x, y)));
        _mm256_storeu_ps(p + 8, _mm256_castpd_ps(_mm256_unpackhi_pd(x, y)));
    }
}

#elif defined(HK_ISA_AVX2) && defined(HOOKE_DOUBLE)
#define HK_W 4
typedef __m256d hk_w;
typedef __m256d hk_wm;
#define HK_SUFFIX(name) name##_avx2
static inline hk_w w_load(const hk_real *p) { return _mm256_load_pd(p); }
static inline hk_w w_loadu(const hk_real *p) { return _mm256_loadu_pd(p); }
static inline void w_store(hk_real *p, hk_w v) { _mm256_store_pd(p, v); }
static inline void w_storeu(hk_real *p, hk_w v) { _mm256_storeu_pd(p, v); }
static inline hk_w w_set1(hk_real x) { return _mm256_set1_pd(x); }
static inline hk_w w_add(hk_w a, hk_w b) { return _mm256_add_pd(a, b); }
static inline hk_w w_sub(hk_w a, hk_w b) { return _mm256_sub_pd(a, b); }
static inline hk_w w_mul(hk_w a, hk_w b) { return _mm256_mul_pd(a, b); }
static inline hk_w w_div(hk_w a, hk_w b) { return _mm256_div_pd(a, b); }
static inline hk_w w_sqrt(hk_w a) { return _mm256_sqrt_pd(a); }
/* a b + c, a b - c and c - a b, each rounded once */
static inline hk_w w_fmadd(hk_w a, hk_w b, hk_w c) { return _mm256_fmadd_pd(a, b, c); }
static inline hk_w w_fmsub(hk_w a, hk_w b, hk_w c) { return _mm256_fmsub_pd(a, b, c); }
static inline hk_w w_fnmadd(hk_w a, hk_w b, hk_w c) { return _mm256_fnmadd_pd(a, b, c); }
static inline hk_wm w_gt(hk_w a, hk_w b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline hk_wm w_lt(hk_w a, hk_w b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline hk_wm w_ge(hk_w a, hk_w b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline hk_wm w_neq(hk_w a, hk_w b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }
static inline hk_wm wm_all(void) { return _mm256_castsi256_pd(_mm256_set1_epi64x(-1)); }
static inline hk_wm wm_and(hk_wm a, hk_wm b) { return _mm256_and_pd(a, b); }
static inline hk_w w_keep(hk_wm m, hk_w a) { return _mm256_and_pd(m, a); }
static inline hk_w w_select(hk_wm m, hk_w a, hk_w b) { return _mm256_blendv_pd(a, b, m); }
static inline hk_w w_max(hk_w a, hk_w b) { return _mm256_max_pd(a, b); }
static inline hk_w w_min(hk_w a, hk_w b) { return _mm256_min_pd(a, b); }
static inline hk_wm wm_unbroken(const uint8_t *p)
{
    int32_t four;
    memcpy(&four, p, 4);
    __m256i v = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(v, _mm256_setzero_si256()));
}
static inline hk_w w_gather(const hk_real *base, const int32_t *idx)
{
    return _mm256_i32gather_pd(base, _mm_loadu_si128((const __m128i *)idx), 8);
}
static inline void w_scatter(hk_real *base, const int32_t *idx, hk_w v)
{
    double lanes[4];
    _mm256_storeu_pd(lanes, v);
    for (int l = 0; l < 4; l++) base[idx[l]] = lanes[l];
}
static inline __m256i lanes_below(int n)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
}
static inline hk_w w_loadn(const hk_real *p, int n) { return _mm256_maskload_pd(p, lanes_below(n)); }
static inline void w_storen(hk_real *p, hk_w v, int n) { _mm256_maskstore_pd(p, lanes_below(n), v); }
static inline void w_scattern(hk_real *base, const int32_t *idx, hk_w v, int n)
{
    double lanes[4];
    _mm256_storeu_pd(lanes, v);
    for (int l = 0; l < n; l++) base[idx[l]] = lanes[l];
}

/* The 2W entries at p as W springs' ends: w_split puts the entries of the even runs of d (d = 1 or 2, runs
 * counted from p) into *a and those of the odd runs into *b, entry p[j + d] in b's lane where p[j] is in a's (the lane
 * order is the ISA's own, the same in both); w_merge writes a and b back where w_split found them. */
#define HK_HAS_SPLIT 1
static inline void w_split(const hk_real *p, int d, hk_w *a, hk_w *b)
{
    const __m256d lo = _mm256_loadu_pd(p), hi = _mm256_loadu_pd(p + 4);
    if (d == 1) {
        *a = _mm256_unpacklo_pd(lo, hi);
        *b = _mm256_unpackhi_pd(lo, hi);
    } else {
        *a = _mm256_permute2f128_pd(lo, hi, 0x20);
        *b = _mm256_permute2f128_pd(lo, hi, 0x31);
    }
}
static inline void w_merge(hk_real *p, int d, hk_w a, hk_w b)
{
    if (d == 1) {
        _mm256_storeu_pd(p, _mm256_unpacklo_pd(a, b));
        _mm256_storeu_pd(p + 4, _mm256_unpackhi_pd(a, b));
    } else {
        _mm256_storeu_pd(p, _mm256_permute2f128_pd(a, b, 0x20));
        _mm256_storeu_pd(p + 4, _mm256_permute2f128_pd(a, b, 0x31));
    }
}

#elif defined(HK_ISA_SCALAR)
#include <math.h>
#ifdef HOOKE_DOUBLE
#define HK_FMA fma
#else
#define HK_FMA fmaf
#endif
#define HK_W 1
typedef hk_real hk_w;
typedef int hk_wm;
#define HK_SUFFIX(name) name##_scalar
static inline HK_HD hk_w w_load(const hk_real *p) { return *p; }
static inline HK_HD hk_w w_loadu(const hk_real *p) { return *p; }
static inline HK_HD void w_store(hk_real *p, hk_w v) { *p = v; }
static inline HK_HD void w_storeu(hk_real *p, hk_w v) { *p = v; }
static inline HK_HD hk_w w_set1(hk_real x) { return x; }
static inline HK_HD hk_w w_add(hk_w a, hk_w b) { return a + b; }
static inline HK_HD hk_w w_sub(hk_w a, hk_w b) { return a - b; }
static inline HK_HD hk_w w_mul(hk_w a, hk_w b) { return a * b; }
static inline HK_HD hk_w w_div(hk_w a, hk_w b) { return a / b; }
static inline HK_HD hk_w w_sqrt(hk_w a) { return (hk_w)sqrt(a); }
/* a b + c, a b - c and c - a b, each rounded once (C99 fma) */
static inline HK_HD hk_w w_fmadd(hk_w a, hk_w b, hk_w c) { return HK_FMA(a, b, c); }
static inline HK_HD hk_w w_fmsub(hk_w a, hk_w b, hk_w c) { return HK_FMA(a, b, -c); }
static inline HK_HD hk_w w_fnmadd(hk_w a, hk_w b, hk_w c) { return HK_FMA(-a, b, c); }
static inline HK_HD hk_wm w_gt(hk_w a, hk_w b) { return a > b; }
static inline HK_HD hk_wm w_lt(hk_w a, hk_w b) { return a < b; }
static inline HK_HD hk_wm w_ge(hk_w a, hk_w b) { return a >= b; }
static inline HK_HD hk_wm w_neq(hk_w a, hk_w b) { return a != b; }
static inline HK_HD hk_wm wm_all(void) { return 1; }
static inline HK_HD hk_wm wm_and(hk_wm a, hk_wm b) { return a && b; }
static inline HK_HD hk_w w_keep(hk_wm m, hk_w a) { return m ? a : (hk_w)0; }
static inline HK_HD hk_w w_select(hk_wm m, hk_w a, hk_w b) { return m ? b : a; }
static inline HK_HD hk_w w_max(hk_w a, hk_w b) { return a > b ? a : b; }
static inline HK_HD hk_w w_min(hk_w a, hk_w b) { return a < b ? a : b; }
static inline HK_HD hk_wm wm_unbroken(const uint8_t *p) { return *p == 0; }
static inline HK_HD hk_w w_gather(const hk_real *base, const int32_t *idx) { return base[*idx]; }
static inline HK_HD void w_scatter(hk_real *base, const int32_t *idx, hk_w v) { base[*idx] = v; }
/* one lane: a range never has a partial tail */
static inline HK_HD hk_w w_loadn(const hk_real *p, int n) { return n > 0 ? *p : (hk_w)0; }
static inline HK_HD void w_storen(hk_real *p, hk_w v, int n)
{
    if (n > 0) *p = v;
}
static inline HK_HD void w_scattern(hk_real *base, const int32_t *idx, hk_w v, int n)
{
    if (n > 0) base[*idx] = v;
}

#else
#error "simd.h: define HK_ISA_AVX512, HK_ISA_AVX2 or HK_ISA_SCALAR before including"
#endif

/* The first n lanes (0 < n <= W) at p: a whole vector when n is W (a
 * constant in the full-vector loops), otherwise only those lanes are read
 * (the others are 0) or written. */
static inline __attribute__((always_inline)) HK_HD hk_w w_load_lanes(const hk_real *p, int n)
{
    return n == HK_W ? w_loadu(p) : w_loadn(p, n);
}
static inline __attribute__((always_inline)) HK_HD void w_store_lanes(hk_real *p, hk_w v, int n)
{
    if (n == HK_W)
        w_storeu(p, v);
    else
        w_storen(p, v, n);
}

#endif
