/* lanes64.h — lanes of double per instruction set (AVX-512, AVX2, one lane) for contact's passes over its pairs. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LANES64_H
#define HOOKE_LANES64_H

/*
 * The including file picks the ISA by defining one of HK_ISA_AVX512,
 * HK_ISA_AVX2 or HK_ISA_SCALAR (as simd.h's users do) and is compiled with
 * the matching -m flags. The contact geometry is in double whatever hk_real
 * is, so these lanes are double: 8 (AVX-512), 4 (AVX2) or 1 (a plain
 * double: the one-lane path is the scalar C it stands for). Every
 * arithmetic operation is one correctly rounded IEEE operation and nothing
 * here fuses a multiply with an add: a lane computes bit for bit what the
 * scalar code computes from the same inputs in the same order. The
 * comparisons are ordered (false where a NaN is in), as C's < and >; l64_min
 * and l64_max are geometry.h's g_min and g_max (a < b ? a : b, a > b ? a :
 * b), which is what the min and max instructions do, NaNs and zeros
 * included.
 */

#include <math.h>
#include <stdint.h>

#if defined(HK_ISA_AVX512) || defined(HK_ISA_AVX2)
#include <immintrin.h>
#endif

#if defined(HK_ISA_AVX512)
#define L64_W 8
#define L64_SUFFIX(name) name##_avx512
typedef __m512d l64;
typedef __mmask8 l64m;
typedef __m256i l64i; /* 8 int32 */
/* the lanes [0, n) (all of them for n >= 8) */
static inline l64m l64_first(int n) { return (l64m)(n >= 8 ? 0xFF : (1u << n) - 1); }
static inline l64 l64_set(double x) { return _mm512_set1_pd(x); }
static inline l64 l64_load(const double *p) { return _mm512_loadu_pd(p); }
static inline void l64_store(double *p, l64 v) { _mm512_storeu_pd(p, v); }
static inline l64 l64_add(l64 a, l64 b) { return _mm512_add_pd(a, b); }
static inline l64 l64_sub(l64 a, l64 b) { return _mm512_sub_pd(a, b); }
static inline l64 l64_mul(l64 a, l64 b) { return _mm512_mul_pd(a, b); }
static inline l64 l64_div(l64 a, l64 b) { return _mm512_div_pd(a, b); }
static inline l64 l64_sqrt(l64 a) { return _mm512_sqrt_pd(a); }
static inline l64 l64_min(l64 a, l64 b) { return _mm512_min_pd(a, b); }
static inline l64 l64_max(l64 a, l64 b) { return _mm512_max_pd(a, b); }
static inline l64 l64_neg(l64 a)
{
    return _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(INT64_MIN)));
}
static inline l64 l64_abs(l64 a)
{
    return _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(INT64_MAX)));
}
static inline l64m l64_lt(l64 a, l64 b) { return _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ); }
static inline l64m l64_le(l64 a, l64 b) { return _mm512_cmp_pd_mask(a, b, _CMP_LE_OQ); }
static inline l64m l64_gt(l64 a, l64 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GT_OQ); }
static inline l64m l64_ge(l64 a, l64 b) { return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ); }
static inline l64m l64_ne(l64 a, l64 b) { return _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ); } /* C's != */
/* p[0 .. n) into the first lanes, the others 0 (nothing read past p + n) */
static inline l64 l64_loadn(const double *p, int n) { return _mm512_maskz_loadu_pd(l64_first(n), p); }
static inline l64m l64_and(l64m a, l64m b) { return (l64m)(a & b); }
static inline l64m l64_or(l64m a, l64m b) { return (l64m)(a | b); }
static inline l64m l64_not(l64m a) { return (l64m)~a; }
/* bit l set where lane l is true */
static inline unsigned l64_bits(l64m m) { return (unsigned)m; }
/* m ? t : f, lane by lane */
static inline l64 l64_sel(l64m m, l64 t, l64 f) { return _mm512_mask_blend_pd(m, f, t); }
static inline l64i l64i_load(const int32_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline l64i l64i_mul3(l64i i) { return _mm256_add_epi32(_mm256_add_epi32(i, i), i); }
static inline l64i l64i_mul4(l64i i) { return _mm256_slli_epi32(i, 2); }
static inline l64i l64i_add(l64i i, int c) { return _mm256_add_epi32(i, _mm256_set1_epi32(c)); }
/* base[i] for each lane's i */
static inline l64 l64_gather(const double *base, l64i i) { return _mm512_i32gather_pd(i, base, 8); }
/* The four columns of row[l] (lane l's four doubles) as lanes: out[c] = (row[0][c], .., row[7][c]); loads and a
 * transpose, which this many lanes do faster than four gathers. */
static inline void l64_rows4(const double *const row[8], l64 out[4])
{
    const __m512d z0 = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(row[0])), _mm256_loadu_pd(row[2]), 1);
    const __m512d z1 = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(row[1])), _mm256_loadu_pd(row[3]), 1);
    const __m512d z2 = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(row[4])), _mm256_loadu_pd(row[6]), 1);
    const __m512d z3 = _mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd(row[5])), _mm256_loadu_pd(row[7]), 1);
    const __m512d la = _mm512_unpacklo_pd(z0, z1), ha = _mm512_unpackhi_pd(z0, z1); /* rows 0-3, columns 0 2 / 1 3 */
    const __m512d lb = _mm512_unpacklo_pd(z2, z3), hb = _mm512_unpackhi_pd(z2, z3); /* rows 4-7 */
    out[0] = _mm512_shuffle_f64x2(la, lb, 0x88), out[2] = _mm512_shuffle_f64x2(la, lb, 0xDD);
    out[1] = _mm512_shuffle_f64x2(ha, hb, 0x88), out[3] = _mm512_shuffle_f64x2(ha, hb, 0xDD);
}
static inline l64i l64i_gather(const int32_t *base, l64i i) { return _mm256_i32gather_epi32(base, i, 4); }

#elif defined(HK_ISA_AVX2)
#define L64_W 4
#define L64_SUFFIX(name) name##_avx2
typedef __m256d l64;
typedef __m256d l64m; /* all ones where true */
typedef __m128i l64i; /* 4 int32 */
static inline l64 l64_set(double x) { return _mm256_set1_pd(x); }
static inline l64 l64_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void l64_store(double *p, l64 v) { _mm256_storeu_pd(p, v); }
static inline l64 l64_add(l64 a, l64 b) { return _mm256_add_pd(a, b); }
static inline l64 l64_sub(l64 a, l64 b) { return _mm256_sub_pd(a, b); }
static inline l64 l64_mul(l64 a, l64 b) { return _mm256_mul_pd(a, b); }
static inline l64 l64_div(l64 a, l64 b) { return _mm256_div_pd(a, b); }
static inline l64 l64_sqrt(l64 a) { return _mm256_sqrt_pd(a); }
static inline l64 l64_min(l64 a, l64 b) { return _mm256_min_pd(a, b); }
static inline l64 l64_max(l64 a, l64 b) { return _mm256_max_pd(a, b); }
static inline l64 l64_neg(l64 a) { return _mm256_xor_pd(a, _mm256_set1_pd(-0.0)); }
static inline l64 l64_abs(l64 a) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), a); }
static inline l64m l64_lt(l64 a, l64 b) { return _mm256_cmp_pd(a, b, _CMP_LT_OQ); }
static inline l64m l64_le(l64 a, l64 b) { return _mm256_cmp_pd(a, b, _CMP_LE_OQ); }
static inline l64m l64_gt(l64 a, l64 b) { return _mm256_cmp_pd(a, b, _CMP_GT_OQ); }
static inline l64m l64_ge(l64 a, l64 b) { return _mm256_cmp_pd(a, b, _CMP_GE_OQ); }
static inline l64m l64_ne(l64 a, l64 b) { return _mm256_cmp_pd(a, b, _CMP_NEQ_UQ); }
static inline l64m l64_and(l64m a, l64m b) { return _mm256_and_pd(a, b); }
static inline l64m l64_or(l64m a, l64m b) { return _mm256_or_pd(a, b); }
static inline l64m l64_not(l64m a) { return _mm256_xor_pd(a, _mm256_castsi256_pd(_mm256_set1_epi64x(-1))); }
static inline l64m l64_first(int n)
{
    return _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)));
}
static inline unsigned l64_bits(l64m m) { return (unsigned)_mm256_movemask_pd(m); }
static inline l64 l64_loadn(const double *p, int n)
{
    return _mm256_maskload_pd(p, _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3)));
}
static inline l64 l64_sel(l64m m, l64 t, l64 f) { return _mm256_blendv_pd(f, t, m); }
static inline l64i l64i_load(const int32_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline l64i l64i_mul3(l64i i) { return _mm_add_epi32(_mm_add_epi32(i, i), i); }
static inline l64i l64i_mul4(l64i i) { return _mm_slli_epi32(i, 2); }
static inline l64i l64i_add(l64i i, int c) { return _mm_add_epi32(i, _mm_set1_epi32(c)); }
static inline l64 l64_gather(const double *base, l64i i) { return _mm256_i32gather_pd(base, i, 8); }
static inline void l64_rows4(const double *const row[4], l64 out[4])
{
    const __m256d r0 = _mm256_loadu_pd(row[0]), r1 = _mm256_loadu_pd(row[1]), r2 = _mm256_loadu_pd(row[2]),
                  r3 = _mm256_loadu_pd(row[3]);
    const __m256d t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    const __m256d t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    out[0] = _mm256_permute2f128_pd(t0, t2, 0x20), out[2] = _mm256_permute2f128_pd(t0, t2, 0x31);
    out[1] = _mm256_permute2f128_pd(t1, t3, 0x20), out[3] = _mm256_permute2f128_pd(t1, t3, 0x31);
}
static inline l64i l64i_gather(const int32_t *base, l64i i) { return _mm_i32gather_epi32(base, i, 4); }

#else /* HK_ISA_SCALAR: one lane, the scalar C itself */
#define L64_W 1
#define L64_SUFFIX(name) name##_scalar
typedef double l64;
typedef int l64m;
typedef int32_t l64i;
static inline l64 l64_set(double x) { return x; }
static inline l64 l64_load(const double *p) { return *p; }
static inline void l64_store(double *p, l64 v) { *p = v; }
static inline l64 l64_add(l64 a, l64 b) { return a + b; }
static inline l64 l64_sub(l64 a, l64 b) { return a - b; }
static inline l64 l64_mul(l64 a, l64 b) { return a * b; }
static inline l64 l64_div(l64 a, l64 b) { return a / b; }
static inline l64 l64_sqrt(l64 a) { return sqrt(a); }
static inline l64 l64_min(l64 a, l64 b) { return a < b ? a : b; }
static inline l64 l64_max(l64 a, l64 b) { return a > b ? a : b; }
static inline l64 l64_neg(l64 a) { return -a; }
static inline l64 l64_abs(l64 a) { return fabs(a); }
static inline l64m l64_lt(l64 a, l64 b) { return a < b; }
static inline l64m l64_le(l64 a, l64 b) { return a <= b; }
static inline l64m l64_gt(l64 a, l64 b) { return a > b; }
static inline l64m l64_ge(l64 a, l64 b) { return a >= b; }
static inline l64m l64_ne(l64 a, l64 b) { return a != b; }
static inline l64 l64_loadn(const double *p, int n) { return n > 0 ? *p : 0; }
static inline l64m l64_and(l64m a, l64m b) { return a & b; }
static inline l64m l64_or(l64m a, l64m b) { return a | b; }
static inline l64m l64_not(l64m a) { return !a; }
static inline l64m l64_first(int n) { return n > 0; }
static inline unsigned l64_bits(l64m m) { return (unsigned)m; }
static inline l64 l64_sel(l64m m, l64 t, l64 f) { return m ? t : f; }
static inline l64i l64i_load(const int32_t *p) { return *p; }
static inline l64i l64i_mul3(l64i i) { return 3 * i; }
static inline l64i l64i_mul4(l64i i) { return 4 * i; }
static inline l64i l64i_add(l64i i, int c) { return i + c; }
static inline l64 l64_gather(const double *base, l64i i) { return base[i]; }
static inline void l64_rows4(const double *const row[1], l64 out[4])
{
    for (int c = 0; c < 4; c++) out[c] = row[0][c];
}
static inline l64i l64i_gather(const int32_t *base, l64i i) { return base[i]; }
#endif

/* The lanes of v set in `bits`, in order, to dst (nothing written past them). */
static inline void l64_compress(double *dst, unsigned bits, l64 v)
{
#if defined(HK_ISA_AVX512)
    const __mmask8 first = (__mmask8)((1u << __builtin_popcount(bits)) - 1);
    _mm512_mask_storeu_pd(dst, first, _mm512_maskz_compress_pd((__mmask8)bits, v));
#else
    double t[L64_W];
    l64_store(t, v);
    int n = 0;
    for (int l = 0; l < L64_W; l++) {
        dst[n] = t[l];
        n += bits >> l & 1;
    }
#endif
}

/* The lanes l < W set in `bits`, as base + l, into dst in order (dst has room for W); how many. */
static inline int l64_indices(int32_t *dst, unsigned bits, int base)
{
#if defined(HK_ISA_AVX512)
    const __m256i idx = _mm256_add_epi32(_mm256_set1_epi32(base), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_storeu_si256((__m256i *)dst, _mm256_maskz_compress_epi32((__mmask8)bits, idx));
    return __builtin_popcount(bits);
#else
    int n = 0;
    for (int l = 0; l < L64_W; l++) {
        dst[n] = base + l;
        n += bits >> l & 1;
    }
    return n;
#endif
}

/* keep(m, a): a where m, else +0 (adding it leaves a sum as it was: s + 0 = s for every s but -0) */
static inline l64 l64_keep(l64m m, l64 a) { return l64_sel(m, a, l64_set(0)); }
/* a . b of three lanes each, as g_dot: (a0 b0 + a1 b1) + a2 b2 */
static inline l64 l64_dot(const l64 a[3], const l64 b[3])
{
    return l64_add(l64_add(l64_mul(a[0], b[0]), l64_mul(a[1], b[1])), l64_mul(a[2], b[2]));
}

#endif
