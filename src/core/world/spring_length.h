/* spring_length.h — a spring's length from its vector, as every kernel forms it, and the fused multiply-add it uses. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPRING_LENGTH_H
#define HOOKE_SPRING_LENGTH_H

#include <math.h>
#include <stdint.h>

#include "hd.h"
#include "hooke/hooke.h"

/* a b + c rounded once: C99 fma, the fused multiply-add of the SIMD kernels
 * (engine/simd.h), so both paths give the same bits */
static inline HK_HD hk_real hk_fma(hk_real a, hk_real b, hk_real c)
{
#ifdef HOOKE_DOUBLE
    return fma(a, b, c);
#else
    return fmaf(a, b, c);
#endif
}

/* |d| as every kernel computes a spring's length: r2 = fma(dz, dz, fma(dy,
 * dy, dx dx)), r = sqrt(r2), in the build's precision. */
static inline HK_HD hk_real hk_spring_length(hk_real dx, hk_real dy, hk_real dz)
{
    return (hk_real)sqrt(hk_fma(dz, dz, hk_fma(dy, dy, dx * dx)));
}

/* The largest and smallest r^2 of n springs whose ends are entry i of qa and of qb (rest vector D), one by one,
 * formed as the kernels form them: the strain limits' measure on the reference path and of a row too short for a
 * vector (engine/limit_lanes.h). */
static inline void hk_length2_range_scalar(hk_real *const qa[3], hk_real *const qb[3], const hk_real D[3], int64_t n,
                                           hk_real *most, hk_real *least)
{
    hk_real mx = 0, mn = INFINITY;
    for (int64_t i = 0; i < n; i++) {
        const hk_real dx = (qa[0][i] - qb[0][i]) - D[0], dy = (qa[1][i] - qb[1][i]) - D[1],
                      dz = (qa[2][i] - qb[2][i]) - D[2];
        const hk_real r2 = hk_fma(dz, dz, hk_fma(dy, dy, dx * dx));
        mx = r2 > mx ? r2 : mx;
        mn = r2 < mn ? r2 : mn;
    }
    *most = mx;
    *least = mn;
}

#endif
