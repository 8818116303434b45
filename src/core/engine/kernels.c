/* kernels.c — picks the kernel table (AVX-512, AVX2, scalar, or the reference path) once per process. */
/* SPDX-License-Identifier: MIT */
#include "kernels.h"

#include <stdio.h>
#include <string.h>

/* -1: not decided yet; 0: reference path; otherwise 1 + index into tables */
static int chosen = -1;

static const hk_kernels *const tables[] = {
#ifdef HOOKE_USE_SIMD
    &hk_kernels_avx512,
    &hk_kernels_avx2,
#endif
    &hk_kernels_scalar,
};
#define TABLE_COUNT ((int)(sizeof tables / sizeof tables[0]))

int hk_kernels_cpu_has(const char *isa)
{
    if (strcmp(isa, "reference") == 0) return 1;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (strcmp(isa, "avx512") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("fma");
    if (strcmp(isa, "avx2") == 0) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    if (strcmp(isa, "avx512") == 0 || strcmp(isa, "avx2") == 0) return 0;
#endif
    return strcmp(isa, "scalar") == 0;
}

/* 0 = reference, 1 + i = tables[i], -1 = unavailable */
static int lookup(const char *name)
{
    if (strcmp(name, "reference") == 0) return 0;
#ifdef HOOKE_FORCE_REFERENCE
    return -1;
#else
    for (int i = 0; i < TABLE_COUNT; i++)
        if (strcmp(name, tables[i]->isa) == 0) return hk_kernels_cpu_has(name) ? 1 + i : -1;
    return -1;
#endif
}

/* The process default, decided on first use: 0 = reference, 1 + i = tables[i]. */
static int decide(void)
{
    const int c = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (c >= 0) return c;
    int pick = 0;
#ifndef HOOKE_FORCE_REFERENCE
    for (int i = TABLE_COUNT - 1; i >= 0; i--)
        if (hk_kernels_cpu_has(tables[i]->isa)) pick = 1 + i; /* ends at the first (widest) the CPU has */
#endif
    /* worlds may be made on several threads at once: each decides the same value, written atomically */
    __atomic_store_n(&chosen, pick, __ATOMIC_RELAXED);
    return pick;
}

const hk_kernels *hk_kernels_active(void)
{
    const int c = decide();
    return c > 0 ? tables[c - 1] : NULL;
}

const char *hk_kernels_name(void)
{
    const hk_kernels *k = hk_kernels_active();
    return k ? k->isa : "reference";
}

int hk_kernel_path_available(const char *path) { return path && lookup(path) >= 0; }

int hk_kernels_check(const char *name, char *msg, size_t cap)
{
    if (!name || !*name || lookup(name) >= 0) return HK_OK;
    static const char *const known[] = {"avx512", "avx2", "scalar"}; /* the engine's paths, on some CPU or build */
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(name, known[i]) == 0) {
            snprintf(msg, cap, "kernel path '%s' is not available on this CPU and build (see hooke info)", name);
            return HK_ERR_UNSUPPORTED;
        }
    snprintf(msg, cap, "unknown kernel path '%s' (expected avx512, avx2, scalar or reference)", name);
    return HK_ERR_INVALID;
}

int hk_kernels_find(const char *name, const hk_kernels **k)
{
    if (!name || !*name) {
        *k = hk_kernels_active();
        return 0;
    }
    const int c = lookup(name);
    if (c < 0) return -1;
    *k = c > 0 ? tables[c - 1] : NULL;
    return 0;
}

int hk_kernels_select(const char *name)
{
    if (!name) { /* back to the automatic choice */
        __atomic_store_n(&chosen, -1, __ATOMIC_RELAXED);
        decide();
        return 0;
    }
    int c = lookup(name);
    if (c < 0) return -1;
    __atomic_store_n(&chosen, c, __ATOMIC_RELAXED);
    return 0;
}
