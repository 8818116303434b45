/* progress.c — a one-line progress bar redrawn in place on a terminal, a few times a second. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void hk_progress_begin(hk_progress *pr, int quiet, int64_t first_step, int64_t total_steps, int64_t updates)
{
    pr->enabled = !quiet && isatty(STDOUT_FILENO) && isatty(STDERR_FILENO);
    pr->first = first_step;
    pr->total = total_steps;
    pr->t_start = pr->t_last = wall();
    pr->updates0 = updates;
}

void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates)
{
    if (!pr->enabled) return;
    const double now = wall();
    if (now - pr->t_last < 0.25 && step < pr->total) return;
    pr->t_last = now;
    const double el = now - pr->t_start, frac = pr->total > 0 ? (double)step / (double)pr->total : 1;
    const double done = (double)(step - pr->first), left = (double)(pr->total - step);
    const double eta = done > 0 ? el / done * left : 0, rate = el > 0 ? (double)(updates - pr->updates0) / el : 0;
    char bar[31];
    const int filled = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    fprintf(stderr, "\r[%s] %3.0f%% step %lld/%lld t=%.4g s %.3g spring updates/s ETA %.0f s  ", bar, 100 * frac,
            (long long)step, (long long)pr->total, sim_time, rate, eta);
    fflush(stderr);
}

void hk_progress_end(hk_progress *pr)
{
    if (!pr->enabled) return;
    fprintf(stderr, "\r%100s\r", "");
    fflush(stderr);
}
