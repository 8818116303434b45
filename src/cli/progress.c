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

#include "check.h"

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

int hk_progress_room(void) { return columns() - 1; }

/* The width of the fields at one level (shown[] filled), or -1 when a field that is never dropped has no room. */
static int fit_level(const hk_progress_field *f, int n, int level, int *shown)
{
    int w = 0, first = 1;
    for (int i = 0; i < n; i++) {
        shown[i] = f[i].drop_at && level >= f[i].drop_at                       ? 0
                   : f[i].brief && f[i].shorten_at && level >= f[i].shorten_at ? 2
                                                                               : 1;
        if (!shown[i]) continue;
        w += (first ? 0 : (int)strlen(f[i].sep)) + (int)strlen(shown[i] == 2 ? f[i].brief : f[i].text);
        first = 0;
    }
    return w;
}

int hk_progress_fit(const hk_progress_field *f, int n, int room, int *shown)
{
    int last = 0; /* the highest level any field names */
    for (int i = 0; i < n; i++) {
        last = f[i].shorten_at > last ? f[i].shorten_at : last;
        last = f[i].drop_at > last ? f[i].drop_at : last;
    }
    for (int level = 0; level <= last; level++) {
        const int w = fit_level(f, n, level, shown);
        if (w <= room) return w;
    }
    for (int i = 0; i < n; i++) shown[i] = 0;
    return -1;
}

int hk_progress_join(char *buf, size_t len, const hk_progress_field *f, int n, const int *shown)
{
    size_t at = 0;
    int w = -1;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (!shown[i]) continue;
        const char *sep = w < 0 ? "" : f[i].sep, *text = shown[i] == 2 ? f[i].brief : f[i].text;
        w = (w < 0 ? 0 : w) + (int)(strlen(sep) + strlen(text));
        if (at < len) at += (size_t)snprintf(buf + at, len - at, "%s%s", sep, text);
    }
    return w;
}

int hk_progress_compose(char *buf, size_t len, const hk_progress_field *f, int n, int room)
{
    int shown[HK_PROGRESS_FIELDS];
    HK_ASSERT(n <= HK_PROGRESS_FIELDS);
    hk_progress_fit(f, n, room, shown);
    return hk_progress_join(buf, len, f, n, shown);
}

void hk_progress_draw(hk_progress *pr, const char *text, int force)
{
    if (!pr->enabled) return;
    const double now = hk_progress_clock();
    if (!force && pr->shown && now - pr->t_last < 0.25) return;
    pr->t_last = now;
    int n = (int)strlen(text);
    const int room = hk_progress_room();
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

/* A bar of marks marks, the fraction frac of them filled: "[###.......]". */
static void bar_marks(char *out, int marks, double frac)
{
    const int filled = (int)(frac * marks);
    out[0] = '[';
    for (int i = 0; i < marks; i++) out[1 + i] = i < filled ? '#' : '.';
    out[marks + 1] = ']';
    out[marks + 2] = '\0';
}

void hk_progress_bar_text(char *buf, size_t len, int room, int64_t step, int64_t total, double sim_time, double eta_s,
                          double rate)
{
    enum { MARKS = 30, FEWEST = 10 };
    const double frac = total > 0 ? (double)step / (double)total : 1;
    char bar[MARKS + 3], narrow[MARKS + 3], pct[16], steps[64], t[48], eta[32], rate_long[48], rate_short[48];
    bar_marks(bar, MARKS, frac);
    bar_marks(narrow, FEWEST, frac);
    snprintf(pct, sizeof pct, "%3.0f%%", 100 * frac);
    snprintf(steps, sizeof steps, "step %lld/%lld", (long long)step, (long long)total);
    snprintf(t, sizeof t, "t=%.4g s", sim_time);
    snprintf(rate_long, sizeof rate_long, "%.3g spring updates/s", rate);
    snprintf(rate_short, sizeof rate_short, "%.3g updates/s", rate);
    /* first shortened, then dropped: the bar to its fewest marks, the rate's words; then left out: the rate, the
     * time, the bar, the step, the ETA; the percent stays */
    hk_progress_field f[6] = {
        {"", bar, narrow, 1, 6}, {" ", pct, NULL, 0, 0}, {" ", steps, NULL, 0, 7},
        {" ", t, NULL, 0, 5},    {" ", eta, NULL, 0, 8}, {", ", rate_long, rate_short, 2, 4},
    };
    int n = 6;
    if (!*hk_progress_eta(eta_s, eta, sizeof eta)) { /* no estimate yet: no ETA field */
        f[4] = f[5];
        n = 5;
    }
    int shown[6];
    const int w = hk_progress_fit(f, n, room, shown);
    if (w >= 0 && shown[0] == 2) { /* the narrow bar widens into the room left, up to the full one */
        const int spare = room - w;
        bar_marks(narrow, FEWEST + (spare < MARKS - FEWEST ? spare : MARKS - FEWEST), frac);
    }
    hk_progress_join(buf, len, f, n, shown);
}

void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates, double output_s)
{
    if (!pr->enabled) return;
    const double now = hk_progress_clock();
    if (now - pr->t_last < 0.25 && step < pr->total) return;
    const double el = now - pr->t_start, busy = el - output_s;
    const double done = (double)(step - pr->first), left = (double)(pr->total - step);
    const double eta = done > 0 ? el / done * left : 0, rate = busy > 0 ? (double)(updates - pr->updates0) / busy : 0;
    char line[200];
    hk_progress_bar_text(line, sizeof line, hk_progress_room(), step, pr->total, sim_time, eta, rate);
    hk_progress_draw(pr, line, 1);
}
