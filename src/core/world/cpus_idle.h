/* cpus_idle.h — which processors the machine leaves idle: a set of processors and their idle time so far. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CPUS_IDLE_H
#define HOOKE_CPUS_IDLE_H

#include <stdint.h>

/* A set of processors: bit c of word c / 64 for processor c (numbers below 64 * HK_CPU_WORDS). */
#define HK_CPU_WORDS 16
typedef struct hk_cpus {
    uint64_t bits[HK_CPU_WORDS];
} hk_cpus;

/* The calling thread's processor now, or -1 where unknown. */
int hk_cpu_now(void);
/* Adds processor c to *set (c outside the set's range, or -1: nothing). */
void hk_cpus_add(hk_cpus *set, int c);
/* The processors in *set [1]. */
int hk_cpus_count(const hk_cpus *set);
/* The time the processors of *set have been idle so far, summed [ns] (/proc/stat's idle and iowait, counted in its
 * clock ticks, 10 ms), or -1 where it cannot be read or *set names none of its processors. */
int64_t hk_cpus_idle_ns(const hk_cpus *set);

#endif
