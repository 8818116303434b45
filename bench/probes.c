/* probes.c — hardware probes and synthetic kernels that bound the engine: the triad, instruction rates, idealised rows.
 */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "bench.h"
#include "engine.h"
#include "kernels.h"

/* STREAM-style triad a = b + s c over n Mi floats per array: memory bandwidth */
typedef struct triad {
    float *a, *b, *c;
    size_t n;
} triad;

void *hk_bench_setup_triad(int n_mi, int threads, const char *kernels)
{
    (void)kernels;
    hk_bench_set_threads(threads);
    triad *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n = (size_t)n_mi << 20;
    t->a = aligned_alloc(64, t->n * sizeof(float));
    t->b = aligned_alloc(64, t->n * sizeof(float));
    t->c = aligned_alloc(64, t->n * sizeof(float));
    if (!t->a || !t->b || !t->c) {
        free(t->a);
        free(t->b);
        free(t->c);
        free(t);
        return NULL;
    }
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (size_t i = 0; i < t->n; i++) { /* first touch by the thread that uses it */
        t->a[i] = 0;
        t->b[i] = 1;
        t->c[i] = 2;
    }
    return t;
}

void hk_bench_run_triad(void *s)
{
    triad *t = s;
    float *restrict a = t->a;
    const float *restrict b = t->b, *restrict c = t->c;
    const size_t n = t->n;
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(static)
#endif
    for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0f * c[i];
}

int64_t hk_bench_triad_items(void *s) { return (int64_t)(3 * ((triad *)s)->n * sizeof(float)); }

void hk_bench_triad_free(void *s)
{
    triad *t = s;
    free(t->a);
    free(t->b);
    free(t->c);
    free(t);
}

/* Instruction probes: how many of one instruction the core retires per
 * second, so docs/performance-notes.md can say which unit bounds a kernel. Each
 * iteration runs 12 independent instructions 2^16 times (x86-64 only). */
#if defined(__x86_64__)
typedef struct probe {
    int kind;
    float *buf;
} probe;

static void *setup_probe(int kind, int threads, const char *kernels)
{
    (void)threads;
    (void)kernels;
    __builtin_cpu_init();
    if ((kind <= 5 || kind == 8) && !__builtin_cpu_supports("avx512f")) return NULL;
    probe *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->kind = kind;
    p->buf = aligned_alloc(64, 64 * 64);
    if (!p->buf) {
        free(p);
        return NULL;
    }
    memset(p->buf, 0, 64 * 64);
    return p;
}

#define HK_R12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define HK_ADDZ(i) "vaddps %%zmm12, %%zmm" #i ", %%zmm" #i "\n\t"
#define HK_MULZ(i) "vmulps %%zmm12, %%zmm" #i ", %%zmm" #i "\n\t"
#define HK_LOADZ(i) "vmovups " #i "*64(%1), %%zmm" #i "\n\t"
#define HK_STOREZ(i) "vmovups %%zmm" #i ", " #i "*64(%1)\n\t"
#define HK_SQRTZ(i) "vsqrtps %%zmm12, %%zmm" #i "\n\t"
#define HK_DIVZ(i) "vdivps %%zmm12, %%zmm13, %%zmm" #i "\n\t"
#define HK_ADDY(i) "vaddps %%ymm12, %%ymm" #i ", %%ymm" #i "\n\t"
#define HK_SHUFY(i) "vshufps $0x44, %%ymm12, %%ymm" #i ", %%ymm" #i "\n\t"
/* 16 lanes gathered from buf with the lane indices held in zmm13 (all in one
 * cache line pair); the mask register is refilled before every gather */
#define HK_GATHERZ(i) "kxnorw %%k0, %%k0, %%k1\n\tvgatherdps (%1,%%zmm13,4), %%zmm" #i "%{%%k1%}\n\t"
#define HK_PROBE(BODY, buf)                                                                                            \
    do {                                                                                                               \
        long n = 1 << 16;                                                                                              \
        __asm__ volatile("vxorps %%xmm12, %%xmm12, %%xmm12\n\tvxorps %%xmm13, %%xmm13, %%xmm13\n\t1:\n\t" BODY         \
                         "dec %0\n\tjnz 1b"                                                                            \
                         : "+r"(n)                                                                                     \
                         : "r"(buf)                                                                                    \
                         : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",   \
                           "xmm10", "xmm11", "xmm12", "xmm13");                                                        \
    } while (0)

__attribute__((target("avx512f"))) void hk_bench_run_probe(void *s)
{
    probe *p = s;
    switch (p->kind) {
    case 0: HK_PROBE(HK_R12(HK_ADDZ), p->buf); break;
    case 1: HK_PROBE(HK_R12(HK_MULZ), p->buf); break;
    case 2: HK_PROBE(HK_R12(HK_LOADZ), p->buf); break;
    case 3: HK_PROBE(HK_R12(HK_STOREZ), p->buf); break;
    case 4: HK_PROBE(HK_R12(HK_SQRTZ), p->buf); break;
    case 5: HK_PROBE(HK_R12(HK_DIVZ), p->buf); break;
    case 6: HK_PROBE(HK_R12(HK_ADDY), p->buf); break;
    case 7: HK_PROBE(HK_R12(HK_SHUFY), p->buf); break;
    default: {
        /* gather indices 0, 4, 8, ... (64 floats = 4 lines) loaded into zmm13 */
        static const int32_t idx[16]
            __attribute__((aligned(64))) = {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60};
        long n = 1 << 16;
        __asm__ volatile("vmovdqa32 (%2), %%zmm13\n\t1:\n\t" HK_R12(HK_GATHERZ) "dec %0\n\tjnz 1b"
                         : "+r"(n)
                         : "r"(p->buf), "r"(idx)
                         : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                           "xmm10", "xmm11", "xmm13", "k1");
        break;
    }
    }
}

int64_t hk_bench_probe_items(void *s)
{
    (void)s;
    return 12 << 16;
}

void hk_bench_probe_free(void *s)
{
    probe *p = s;
    free(p->buf);
    free(p);
}

/* The idealised cloth row: the bound docs/performance-notes.md compares the lattice
 * sweep with. One 256-node source row of a cloth and the two rows below it,
 * all in L1; the six families (structural, shear, bend) of every source run
 * as group_row runs them in sweep.c's order (the relative model's
 * arithmetic of spring_lanes; the same loads, shifts and stores, the row
 * two below written fresh, the row below's three families as one run, the
 * down-left one on shifted sources), but with every offset, shift and
 * constant known at compile time, no masks (every lane is a spring) and no
 * row set-up. Items: springs. */
#define HK_IDEAL_NX 256
#define HK_IDEAL_LEN (HK_IDEAL_NX + 128) /* 64 floats of margin on each side */
/* array c of row r: x, y, z, vx, vy, vz (c = 0..5), then the force sums fx, fy, fz (c = 6..8) */
#define HK_IDEAL(m, r, c) ((m) + ((r)*9 + (c)) * HK_IDEAL_LEN + 64)

/* The probe memory of an idealised row: `rows` rows of 9 arrays of len
 * floats (x, y, z, vx, vy, vz, then zeroed force sums), each node a small
 * step from its neighbours; with plane set, the rows after the second lie
 * one plane further in z (the jelly's next plane). NULL without AVX-512. */
static float *ideal_memory(int rows, int len, int plane)
{
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f")) return NULL;
    float *m = aligned_alloc(64, (size_t)9 * rows * len * sizeof(float));
    if (!m) return NULL;
    for (int c = 0; c < 9 * rows; c++)
        for (int i = 0; i < len; i++) {
            const int a = c % 9, row = c / 9;
            m[c * len + i] = a == 0            ? 0.01f * (float)i
                             : a == 1          ? 0.01f * (float)row
                             : a == 2 && plane ? 0.01f * (float)(row > 1)
                             : a < 6           ? 1e-3f * (float)((i * 7 + a) % 5)
                                               : 0.0f;
        }
    return m;
}

void *hk_bench_setup_ideal_row(int n, int threads, const char *kernels)
{
    (void)n, (void)threads, (void)kernels;
    return ideal_memory(3, HK_IDEAL_LEN, 0);
}

/* F of the springs from the sources of row 0 with values A (a: i .. i + 15;
 * b: i + 1 .., the shifted sources of a down-left family) to the nodes i +
 * off .. in row r of the probe memory m, whose array c is at AT(m, r, c),
 * with the constants KL0, K, C: spring_lanes' relative-model arithmetic */
#define HK_PROBE_SPRING(AT, A, r, off, KL0, K, C)                                                                      \
    do {                                                                                                               \
        const __m512 dx = _mm512_sub_ps(A[0], _mm512_loadu_ps(AT(m, r, 0) + i + (off)));                               \
        const __m512 dy = _mm512_sub_ps(A[1], _mm512_loadu_ps(AT(m, r, 1) + i + (off)));                               \
        const __m512 dz = _mm512_sub_ps(A[2], _mm512_loadu_ps(AT(m, r, 2) + i + (off)));                               \
        const __m512 dvx = _mm512_sub_ps(A[3], _mm512_loadu_ps(AT(m, r, 3) + i + (off)));                              \
        const __m512 dvy = _mm512_sub_ps(A[4], _mm512_loadu_ps(AT(m, r, 4) + i + (off)));                              \
        const __m512 dvz = _mm512_sub_ps(A[5], _mm512_loadu_ps(AT(m, r, 5) + i + (off)));                              \
        const __m512 r2 = _mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_mul_ps(dx, dx)));                     \
        const __mmask16 live = _mm512_cmp_ps_mask(r2, _mm512_setzero_ps(), _CMP_NEQ_UQ);                               \
        const __m512 g = _mm512_sub_ps(_mm512_div_ps(KL0, _mm512_sqrt_ps(r2)), K);                                     \
        f[0] = _mm512_maskz_fmsub_ps(live, g, dx, _mm512_mul_ps(C, dvx));                                              \
        f[1] = _mm512_maskz_fmsub_ps(live, g, dy, _mm512_mul_ps(C, dvy));                                              \
        f[2] = _mm512_maskz_fmsub_ps(live, g, dz, _mm512_mul_ps(C, dvz));                                              \
    } while (0)
#define HK_IDEAL_SPRING(A, r, off) HK_PROBE_SPRING(HK_IDEAL, A, r, off, kL0, k, c)

/* lanes of (prev, cur) delayed by S (the lane shift) */
#define HK_IN(prev, cur, S)                                                                                            \
    _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(cur), _mm512_castps_si512(prev), 16 - (S)))

__attribute__((target("avx512f"))) void hk_bench_run_ideal_row(void *s)
{
    float *const m = s;
    const __m512 kL0 = _mm512_set1_ps(60.0f), k = _mm512_set1_ps(6000.0f), c = _mm512_set1_ps(0.02f);
    const __m512 z = _mm512_setzero_ps();
    __m512 p1[3] = {z, z, z}, p2[3] = {z, z, z}, pr[3] = {z, z, z}, pl[3] = {z, z, z};
    for (int i = 0; i < HK_IDEAL_NX; i += 16) {
        __m512 a[6], b[6], s3[3], f[3], t[3];
        for (int q = 0; q < 6; q++) a[q] = _mm512_load_ps(HK_IDEAL(m, 0, q) + i);
        for (int q = 0; q < 3; q++) s3[q] = _mm512_load_ps(HK_IDEAL(m, 0, 6 + q) + i);
        HK_IDEAL_SPRING(a, 0, 1); /* structural, same row: its targets through the shift */
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_sub_ps(_mm512_add_ps(s3[q], f[q]), HK_IN(p1[q], f[q], 1));
            p1[q] = f[q];
        }
        HK_IDEAL_SPRING(a, 0, 2); /* bend, same row */
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_sub_ps(_mm512_add_ps(s3[q], f[q]), HK_IN(p2[q], f[q], 2));
            p2[q] = f[q];
        }
        HK_IDEAL_SPRING(a, 2, 0); /* bend, two rows below: the row's first terms, written fresh */
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_add_ps(s3[q], f[q]);
            _mm512_store_ps(HK_IDEAL(m, 2, 6 + q) + i, _mm512_sub_ps(z, f[q]));
        }
        HK_IDEAL_SPRING(a, 1, 0); /* the row below as one run: structural */
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_add_ps(s3[q], f[q]);
            t[q] = _mm512_sub_ps(_mm512_load_ps(HK_IDEAL(m, 1, 6 + q) + i), f[q]);
        }
        HK_IDEAL_SPRING(a, 1, 1); /* shear, down right */
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_add_ps(s3[q], f[q]);
            t[q] = _mm512_sub_ps(t[q], HK_IN(pr[q], f[q], 1));
            pr[q] = f[q];
        }
        /* shear, down left, on the sources i + 1 ..: its targets are the
         * vector i, its source terms come in through the shift */
        for (int q = 0; q < 6; q++) b[q] = _mm512_loadu_ps(HK_IDEAL(m, 0, q) + i + 1);
        HK_IDEAL_SPRING(b, 1, 0);
        for (int q = 0; q < 3; q++) {
            s3[q] = _mm512_add_ps(s3[q], HK_IN(pl[q], f[q], 1));
            _mm512_store_ps(HK_IDEAL(m, 1, 6 + q) + i, _mm512_sub_ps(t[q], f[q]));
            pl[q] = f[q];
        }
        for (int q = 0; q < 3; q++) _mm512_store_ps(HK_IDEAL(m, 0, 6 + q) + i, s3[q]);
    }
}

int64_t hk_bench_ideal_row_items(void *s)
{
    (void)s;
    return 6 * HK_IDEAL_NX;
}

void hk_bench_ideal_row_free(void *s) { free(s); }

/* The idealised jelly row: an interior source row of a 26-neighbour jelly
 * (64 nodes) and its 13 families, run exactly as group_row runs them in
 * sweep.c's order (four passes over the row: the same-row family and the
 * farthest row's three, then the next plane's other two rows and the next
 * row, each row's three as one run; the same loads, shifts and stores),
 * with the target rows at
 * distances 1, 63, 64, 65 laid out as the next four rows (all in L1), but
 * with every offset and shift known at compile time, the three spring
 * classes' constants hoisted, no masks (every lane a spring: 13 x 64 per
 * row) and no row set-up. Items: springs. */
#define HK_JNX 64
#define HK_JLEN (HK_JNX + 128)
#define HK_JI(m, r, c) ((m) + ((r)*9 + (c)) * HK_JLEN + 64)

void *hk_bench_setup_ideal_jelly(int n, int threads, const char *kernels)
{
    (void)n, (void)threads, (void)kernels;
    return ideal_memory(5, HK_JLEN, 1);
}

/* the springs from the sources A to the nodes off further on in probe row r, with class K's constants */
#define HK_JSPRING(A, r, off, K) HK_PROBE_SPRING(HK_JI, A, r, off, kL0[K], k[K], c[K])
/* the same-row family (di = 1); p: its carry */
#define HK_JSAME(K, p)                                                                                                 \
    do {                                                                                                               \
        HK_JSPRING(a, 0, 1, K);                                                                                        \
        for (int q = 0; q < 3; q++) {                                                                                  \
            s3[q] = _mm512_sub_ps(_mm512_add_ps(s3[q], f[q]), HK_IN(p[q], f[q], 1));                                   \
            p[q] = f[q];                                                                                               \
        }                                                                                                              \
    } while (0)
/* one pass over the row: source ends and sums loaded once per vector */
#define HK_JPASS(BODY)                                                                                                 \
    for (int i = 0; i < HK_JNX; i += 16) {                                                                             \
        __m512 a[6], b[6], s3[3], f[3], t[3];                                                                          \
        for (int q = 0; q < 6; q++) a[q] = _mm512_load_ps(HK_JI(m, 0, q) + i);                                         \
        for (int q = 0; q < 3; q++) s3[q] = _mm512_load_ps(HK_JI(m, 0, 6 + q) + i);                                    \
        BODY;                                                                                                          \
        for (int q = 0; q < 3; q++) _mm512_store_ps(HK_JI(m, 0, 6 + q) + i, s3[q]);                                    \
    }

/* one run (group_row's joined families): the down, down right and down
 * left families of target row r with class constants KD, KR, KL, reading
 * and writing each vector of the row once; the down-left family on the
 * sources i + 1 .., so its targets are the vector i and its source terms
 * come in through the shift */
#define HK_JRUN(r, KD, KR, KL, pR, pL)                                                                                 \
    do {                                                                                                               \
        HK_JSPRING(a, r, 0, KD);                                                                                       \
        for (int q = 0; q < 3; q++) {                                                                                  \
            s3[q] = _mm512_add_ps(s3[q], f[q]);                                                                        \
            t[q] = _mm512_sub_ps(_mm512_load_ps(HK_JI(m, r, 6 + q) + i), f[q]);                                        \
        }                                                                                                              \
        HK_JSPRING(a, r, 1, KR);                                                                                       \
        for (int q = 0; q < 3; q++) {                                                                                  \
            s3[q] = _mm512_add_ps(s3[q], f[q]);                                                                        \
            t[q] = _mm512_sub_ps(t[q], HK_IN(pR[q], f[q], 1));                                                         \
            pR[q] = f[q];                                                                                              \
        }                                                                                                              \
        for (int q = 0; q < 6; q++) b[q] = _mm512_loadu_ps(HK_JI(m, 0, q) + i + 1);                                    \
        HK_JSPRING(b, r, 0, KL);                                                                                       \
        for (int q = 0; q < 3; q++) {                                                                                  \
            s3[q] = _mm512_add_ps(s3[q], HK_IN(pL[q], f[q], 1));                                                       \
            _mm512_store_ps(HK_JI(m, r, 6 + q) + i, _mm512_sub_ps(t[q], f[q]));                                        \
            pL[q] = f[q];                                                                                              \
        }                                                                                                              \
    } while (0)

__attribute__((target("avx512f"))) void hk_bench_run_ideal_jelly(void *s)
{
    float *const m = s;
    /* the classes K1, K2, K3 (1, 2, 3 non-zero offset components) */
    const __m512 kL0[3] = {_mm512_set1_ps(5.0f), _mm512_set1_ps(7.07f), _mm512_set1_ps(8.66f)};
    const __m512 k[3] = {_mm512_set1_ps(500.0f), _mm512_set1_ps(500.0f), _mm512_set1_ps(500.0f)};
    const __m512 c[3] = {_mm512_set1_ps(0.02f), _mm512_set1_ps(0.02f), _mm512_set1_ps(0.02f)};
    const __m512 z = _mm512_setzero_ps();
    /* probe rows: 1 = distance 1, 2 = 63, 3 = 64, 4 = 65; the same row and
     * the farthest row in one pass, then each nearer row in a pass of its
     * own (no owed terms: on these rows the engine's are all zero and skipped) */
    {
        __m512 ps[3] = {z, z, z}, pr[3] = {z, z, z}, pl[3] = {z, z, z};
        HK_JPASS(HK_JSAME(0, ps); HK_JRUN(4, 1, 2, 2, pr, pl))
    }
#define HK_JROW(r, KD, KR)                                                                                             \
    {                                                                                                                  \
        __m512 pr[3] = {z, z, z}, pl[3] = {z, z, z};                                                                   \
        HK_JPASS(HK_JRUN(r, KD, KR, KR, pr, pl))                                                                       \
    }
    HK_JROW(3, 0, 1)
    HK_JROW(2, 1, 2)
    HK_JROW(1, 0, 1)
#undef HK_JROW
}

int64_t hk_bench_ideal_jelly_items(void *s)
{
    (void)s;
    return 13 * HK_JNX;
}

/* The engine's own blocked kernel (lattice_row, AVX-512) on one source row
 * of a stencil and the rows its targets lie in, all in L1, called as the
 * sweep calls it. probe_cloth_row_engine: the idealised row's data and its
 * six cloth families with the same constants; against probe_cloth_row_ideal
 * it prices the kernel's generality alone (run-time offsets, masks and
 * family table; no memory hierarchy, no row finish).
 * probe_jelly_row_engine: an interior row of the 64^3 jelly (n = 64; n =
 * 256 the same stencil on longer rows), its 13 families in engine.c's
 * order with their row ends (823 springs at n = 64); the target rows at
 * distances 1, 63, 64 and 65 are laid out as the next four rows, so
 * everything stays in L1. Against jelly26_force it prices the memory
 * hierarchy and the sweep around the kernel, against
 * probe_jelly_row_ideal the kernel's generality. Items: springs. */
#define HK_ENGINE_FAMS 13
typedef struct engine_row {
    hk_particles p;
    hk_family fam[HK_ENGINE_FAMS];
    hk_row_family rf[HK_ENGINE_FAMS];
    int nfam, nx;
    int64_t items;
    hk_real *mem;
    hk_real *acc_src[3];
    const hk_kernels *k;
} engine_row;

/* nfam families of di[q], each with targets in probe row slot[q] (0: the
 * source row) at row distance dr[q], on rows of nx nodes */
static engine_row *engine_row_new(int nx, int nfam, const int *di, const int *dr, const int *slot)
{
    if (hk_kernels_select("avx512") != 0) return NULL;
    engine_row *e = calloc(1, sizeof *e);
    int rows = 1;
    for (int q = 0; q < nfam; q++)
        if (slot[q] + 1 > rows) rows = slot[q] + 1;
    const int len = rows * nx + 128, S = nx + 128; /* particle arrays; accumulator rows */
    if (!e || !(e->mem = aligned_alloc(64, (size_t)(6 * len + 3 * rows * S) * sizeof(hk_real)))) {
        free(e);
        hk_kernels_select(NULL);
        return NULL;
    }
    hk_real *arr[6];
    for (int c = 0; c < 6; c++) {
        arr[c] = e->mem + c * len + 64;
        for (int i = -64; i < len - 64; i++) {
            const int row = i < 0 ? 0 : i / nx, col = i < 0 ? 0 : i % nx;
            arr[c][i] = (hk_real)(c == 0 ? 0.01 * col : c == 1 ? 0.01 * row : 1e-3 * ((col * 7 + c) % 5));
        }
    }
    hk_real *acc = e->mem + 6 * len;
    memset(acc, 0, (size_t)3 * rows * S * sizeof(hk_real));
    e->p.count = e->p.capacity = rows * nx;
    e->p.qx = arr[0], e->p.qy = arr[1], e->p.qz = arr[2], e->p.vx = arr[3], e->p.vy = arr[4], e->p.vz = arr[5];
    for (int q = 0; q < nfam; q++) {
        hk_family *f = &e->fam[q];
        f->kind = HK_FAMILY_LATTICE;
        f->params.damping_model = HK_DAMP_RELATIVE;
        f->params.behaviour = HK_SPRING_NORMAL;
        f->k = 6000.0f, f->c = 0.02f;
        f->rest = 0.01f; /* rest_vec 0: the rows hold their places as q */
        f->nx = nx, f->ny = rows, f->nz = 1;
        f->di = di[q], f->dj = slot[q];
        f->offset = di[q] + (int64_t)nx * slot[q];
        f->i0 = di[q] < 0 ? -di[q] : 0;
        f->i1 = nx - (di[q] > 0 ? di[q] : 0);
        e->rf[q].f = f;
        e->rf[q].dr = dr[q];
        e->rf[q].dst = acc + 3 * slot[q] * S + 64; /* y and z follow at S and 2 S */
        e->items += f->i1 - f->i0;
    }
    for (int c = 0; c < 3; c++) e->acc_src[c] = acc + c * S + 64;
    e->nfam = nfam, e->nx = nx;
    e->k = hk_kernels_active();
    for (int q = 0; q < nfam; q++) e->rf[q].fresh = 0; /* the rows are zeroed above */
    e->k->plan_row(e->rf, nfam, nx);
    return e;
}

void *hk_bench_setup_engine_row(int n, int threads, const char *kernels)
{
    (void)n, (void)threads, (void)kernels;
    /* sweep.c's order: structural x, bend x, bend y, structural y, shear right, shear left */
    static const int di[6] = {1, 2, 0, 0, 1, -1}, dr[6] = {0, 0, 2, 1, 1, 1};
    return engine_row_new(HK_IDEAL_NX, 6, di, dr, dr);
}

void *hk_bench_setup_jelly_row(int n, int threads, const char *kernels)
{
    (void)threads, (void)kernels;
    /* sweep.c's order of the 26-neighbour families (order_families) */
    static const int di[13] = {1, 0, 1, -1, 0, 1, -1, 0, 1, -1, 0, 1, -1};
    static const int dr[13] = {0, 65, 65, 65, 64, 64, 64, 63, 63, 63, 1, 1, 1};
    static const int slot[13] = {0, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1};
    return engine_row_new(n, 13, di, dr, slot);
}

void hk_bench_run_engine_row(void *s)
{
    engine_row *e = s;
    e->k->lattice_row(&e->p, 0, 0, e->nx, e->rf, e->nfam, e->acc_src, NULL, e->nx + 128);
}

int64_t hk_bench_engine_row_items(void *s) { return ((engine_row *)s)->items; }

void hk_bench_engine_row_free(void *s)
{
    engine_row *e = s;
    free(e->mem);
    free(e);
    hk_kernels_select(NULL);
}

#define PROBE_SETUP(NAME, KIND)                                                                                        \
    void *hk_bench_setup_##NAME(int n, int t, const char *k)                                                           \
    {                                                                                                                  \
        (void)n;                                                                                                       \
        return setup_probe(KIND, t, k);                                                                                \
    }
PROBE_SETUP(probe_zmm_add, 0)
PROBE_SETUP(probe_zmm_mul, 1)
PROBE_SETUP(probe_zmm_load, 2)
PROBE_SETUP(probe_zmm_store, 3)
PROBE_SETUP(probe_zmm_sqrt, 4)
PROBE_SETUP(probe_zmm_div, 5)
PROBE_SETUP(probe_ymm_add, 6)
PROBE_SETUP(probe_ymm_shuffle, 7)
PROBE_SETUP(probe_zmm_gather, 8)
#endif
