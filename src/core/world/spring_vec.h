/* spring_vec.h — a spring's vector and length, formed as every kernel forms them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPRING_VEC_H
#define HOOKE_SPRING_VEC_H

#include "spring_length.h"
#include "world.h"

/* The rest vector D = r_b - r_a of spring `slot` of f: the family's (lattice), the spring's (a list in a lattice
 * body) or 0 [m]. */
static inline void hk_spring_rest_vec(const hk_family *f, int64_t slot, hk_real D[3])
{
    for (int c = 0; c < 3; c++)
        D[c] = f->kind == HK_FAMILY_LATTICE ? f->rest_vec[c] : f->rvec[0] ? f->rvec[c][slot] : 0;
}

/* The vector d = x_a - x_b of spring `slot` of f (global ends a, b) as the
 * kernels form it: (q_a - q_b) - D, D its rest vector (hk_spring_rest_vec) [m]. */
static inline void hk_spring_delta(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b,
                                   hk_real d[3])
{
    hk_real D[3];
    hk_spring_rest_vec(f, slot, D);
    d[0] = (p->qx[a] - p->qx[b]) - D[0];
    d[1] = (p->qy[a] - p->qy[b]) - D[1];
    d[2] = (p->qz[a] - p->qz[b]) - D[2];
}

/* On a function with scalar spring loops: build it twice where the compiler
 * can pick at load time, with the fused multiply-add instruction for CPUs
 * that have it and calling libm's fma elsewhere (both round once: the same
 * bits). Left out under the sanitizers, whose start-up precedes the pick. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* GCC */
#define HK_SANITIZED 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HK_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(HK_SANITIZED)
#define HK_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define HK_FMA_CLONES
#endif

#endif
