/* spring_length.h — a spring's length from its vector, as every kernel forms it, and the fused multiply-add it uses. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SPRING_LENGTH_H
#define HOOKE_SPRING_LENGTH_H

#include <math.h>

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

#endif
