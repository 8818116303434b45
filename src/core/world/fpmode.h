/* fpmode.h — the floating-point mode every computation on the state runs in: subnormals flushed to zero. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FPMODE_H
#define HOOKE_FPMODE_H

/*
 * Motion that decays through damping alone (the tails of a wave ahead of its
 * front, a velocity under drag, a body settling at its exact rest shape)
 * shrinks geometrically until it reaches the subnormal numbers, below
 * 1.2e-38 in float, where x86 cores take a slow microcoded path: a cloth
 * falling from rest ran 1.6 times slower per step once its tails got there
 * (docs/performance-notes.md, "Subnormals"). Every thread that computes the
 * state therefore runs with subnormal results flushed to zero (FTZ) and
 * subnormal inputs read as zero (DAZ). The mode is part of the arithmetic:
 * the same on every thread and every kernel path, so the bits still do not
 * depend on the thread count (docs/determinism.md). It is set on entry to
 * each step or force evaluation and in every task of a parallel pass
 * (team.h: OpenMP's threads or a host's pool), and the thread's mode is
 * restored on the way out: the library never leaves it changed for its
 * caller's own code.
 */

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define HK_MXCSR_FTZ_DAZ 0x8040u /* bit 15 flush to zero, bit 6 denormals are zero */
/* Sets FTZ and DAZ on the calling thread; returns its previous mode. */
static inline unsigned hk_fp_enter(void)
{
    const unsigned old = _mm_getcsr();
    _mm_setcsr(old | HK_MXCSR_FTZ_DAZ);
    return old;
}
/* Restores a mode hk_fp_enter returned. */
static inline void hk_fp_leave(unsigned old) { _mm_setcsr(old); }
#else
static inline unsigned hk_fp_enter(void) { return 0; }
static inline void hk_fp_leave(unsigned old) { (void)old; }
#endif

/* The block after it runs with the mode set on the calling thread and the
 * caller's restored after it: HK_FP_SCOPE { ... } (no break or return out
 * of the block). team.c sets each task's. */
#define HK_FP_SCOPE for (unsigned hk_fp_old_ = hk_fp_enter(), hk_fp_once_ = 1; hk_fp_once_; hk_fp_leave(hk_fp_old_), hk_fp_once_ = 0)

#endif
