/* proc_stats.c — this process's resident memory (VmRSS, VmHWM, the lifetime peak) and its threads' run delay, from
 * /proc/self. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "proc_stats.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>

/* the largest VmHWM read before a reset lowered it [B] */
static double peak_before_resets = 0;

void hk_proc_resident(double *rss, double *peak)
{
    *rss = *peak = NAN;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    double kb;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "VmRSS: %lf kB", &kb) == 1) *rss = 1024 * kb;
        if (sscanf(line, "VmHWM: %lf kB", &kb) == 1) *peak = 1024 * kb;
    }
    fclose(f);
}

void hk_proc_reset_peak(void)
{
    double rss, peak;
    hk_proc_resident(&rss, &peak);
    if (peak > peak_before_resets) peak_before_resets = peak; /* NaN: not kept */
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return;
    fputs("5", f);
    fclose(f);
}

double hk_proc_lifetime_peak(void)
{
    double rss, peak;
    hk_proc_resident(&rss, &peak);
    if (isnan(peak)) return NAN;
    return peak > peak_before_resets ? peak : peak_before_resets;
}

double hk_proc_run_delay(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    unsigned long long total = 0;
    int read_any = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue; /* "." and ".." */
        char path[64];
        snprintf(path, sizeof path, "/proc/self/task/%.20s/schedstat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue; /* the thread ended since the listing */
        unsigned long long on_cpu, waited;
        if (fscanf(f, "%llu %llu", &on_cpu, &waited) == 2) {
            total += waited; /* nanoseconds */
            read_any = 1;
        }
        fclose(f);
    }
    closedir(d);
    return read_any ? 1e-9 * (double)total : -1;
}
