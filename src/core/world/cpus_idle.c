/* cpus_idle.c — which processors the machine leaves idle: /proc/stat's idle time of a set of processors. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* sched_getcpu */
#include "cpus_idle.h"

#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int hk_cpu_now(void)
{
#ifdef __linux__
    return sched_getcpu();
#else
    return -1;
#endif
}

void hk_cpus_add(hk_cpus *set, int c)
{
    if (c >= 0 && c < 64 * HK_CPU_WORDS) set->bits[c / 64] |= (uint64_t)1 << (c % 64);
}

int hk_cpus_count(const hk_cpus *set)
{
    int n = 0;
    for (int k = 0; k < HK_CPU_WORDS; k++) n += __builtin_popcountll(set->bits[k]);
    return n;
}

int64_t hk_cpus_idle_ns(const hk_cpus *set)
{
#ifdef __linux__
    const long tick = sysconf(_SC_CLK_TCK);
    FILE *f = tick > 0 ? fopen("/proc/stat", "r") : NULL;
    if (!f) return -1;
    char line[512];
    long long ticks = 0;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned c;
        long long user, nice, sys, idle, iowait;
        if (sscanf(line, "cpu%u %lld %lld %lld %lld %lld", &c, &user, &nice, &sys, &idle, &iowait) != 6) continue;
        if (c >= 64 * HK_CPU_WORDS || !(set->bits[c / 64] >> (c % 64) & 1)) continue;
        ticks += idle + iowait;
        found++;
    }
    fclose(f);
    return found ? (int64_t)(ticks * (1000000000 / tick)) : -1;
#else
    (void)set;
    return -1;
#endif
}
