/* progress.c — a progress line on stderr redrawn in place on a terminal: `hooke run`'s bar, `hooke stability`'s runs.
 */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int hk_progress_tty(void) { return isatty(STDERR_FILENO); }

double hk_progress_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

const char *hk_progress_eta(double seconds, char *buf, size_t len)
{
    if (!isfinite(seconds) || seconds < 0)
        snprintf(buf, len, "%s", "");
    else if (seconds < 99.5)
        snprintf(buf, len, "ETA %.0f s", seconds);
    else if (seconds < 99.5 * 60)
        snprintf(buf, len, "ETA %.0f min", seconds / 60);
    else
        snprintf(buf, len, "ETA %.1f h", fmin(seconds / 3600, 1e6));
    return buf;
}

void hk_progress_start(hk_progress *pr, int enabled)
{
    memset(pr, 0, sizeof *pr);
    pr->enabled = enabled != 0;
    pr->t_start = pr->t_last = hk_progress_clock();
}

/* Columns of the terminal on stderr; 80 when it does not say. */
static int columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

void hk_progress_draw(hk_progress *pr, const char *text, int force)
{
    if (!pr->enabled) return;
    const double now = hk_progress_clock();
    if (!force && pr->shown && now - pr->t_last < 0.25) return;
    pr->t_last = now;
    int n = (int)strlen(text);
    const int room = columns() - 1;
    if (n > room) n = room > 0 ? room : 0;
    /* blanks over what is left of a longer previous line */
    fprintf(stderr, "\r%.*s%*s", n, text, pr->shown > n ? pr->shown - n : 0, "");
    pr->shown = n > 0 ? n : 1;
    fflush(stderr);
}

void hk_progress_end(hk_progress *pr)
{
    if (!pr->enabled || !pr->shown) return;
    fprintf(stderr, "\r%*s\r", pr->shown, "");
    fflush(stderr);
    pr->shown = 0;
}

void hk_progress_begin(hk_progress *pr, int quiet, int64_t first_step, int64_t total_steps, int64_t updates)
{
    hk_progress_start(pr, !quiet && isatty(STDOUT_FILENO) && hk_progress_tty());
    pr->first = first_step;
    pr->total = total_steps;
    pr->updates0 = updates;
}

void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates)
{
    if (!pr->enabled) return;
    const double now = hk_progress_clock();
    if (now - pr->t_last < 0.25 && step < pr->total) return;
    const double el = now - pr->t_start, frac = pr->total > 0 ? (double)step / (double)pr->total : 1;
    const double done = (double)(step - pr->first), left = (double)(pr->total - step);
    const double eta = done > 0 ? el / done * left : 0, rate = el > 0 ? (double)(updates - pr->updates0) / el : 0;
    char bar[31], line[200], eta_text[32];
    const int filled = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
    bar[30] = '\0';
    /* the ETA before the rate: a narrow terminal cuts the end of the line */
    snprintf(line, sizeof line, "[%s] %3.0f%% step %lld/%lld t=%.4g s %s, %.3g spring updates/s", bar, 100 * frac,
             (long long)step, (long long)pr->total, sim_time, hk_progress_eta(eta, eta_text, sizeof eta_text), rate);
    hk_progress_draw(pr, line, 1);
}
