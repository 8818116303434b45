/* team.h — the calling thread's place in the OpenMP team of a parallel region, and its barrier (serial without OpenMP).
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TEAM_H
#define HOOKE_TEAM_H

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#define HK_THREAD() omp_get_thread_num()
#define HK_THREADS() omp_get_num_threads()
#define HK_BARRIER()                                                                                                   \
    do {                                                                                                               \
        _Pragma("omp barrier")                                                                                         \
    } while (0)
#else
#define HK_THREAD() 0
#define HK_THREADS() 1
#define HK_BARRIER()                                                                                                   \
    do {                                                                                                               \
    } while (0)
#endif

#include <stdint.h>

/* The calling thread's share [*g0, *g0 + *n) of the particles [first,
 * first + count), split evenly over the team in thread order. */
static inline void hk_team_range(int first, int count, int *g0, int *n)
{
    const int t = HK_THREAD(), T = HK_THREADS();
    const int a = (int)((int64_t)count * t / T), b = (int)((int64_t)count * (t + 1) / T);
    *g0 = first + a;
    *n = b - a;
}

#endif
