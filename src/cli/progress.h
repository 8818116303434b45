/* progress.h — a progress line on stderr redrawn in place on a terminal: `hooke run`'s bar, `hooke stability`'s runs.
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PROGRESS_H
#define HOOKE_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* One progress line. Not thread-safe: callers on several threads serialise
 * their calls (hooke stability: an OpenMP critical section). */
typedef struct hk_progress {
    int enabled;
    int shown;              /* characters of the line now on the terminal (0: none) */
    int64_t first, total;   /* hooke run: steps */
    double t_start, t_last; /* wall clock [s]: start, last redraw */
    int64_t updates0;
} hk_progress;

/* Whether stderr is a terminal (where a line can be redrawn in place). */
int hk_progress_tty(void);
/* Monotonic wall clock [s]. */
double hk_progress_clock(void);
/* The estimate rounded: "ETA 35 s" (up to 99 s), "ETA 2 min" (up to 99 min),
 * "ETA 1.5 h"; "" when seconds is negative or not finite (no estimate yet).
 * Written into buf (24 bytes are enough), which is returned. */
const char *hk_progress_eta(double seconds, char *buf, size_t len);

/* A line that is drawn only when enabled (the caller's rule, e.g. not quiet
 * and hk_progress_tty()). */
void hk_progress_start(hk_progress *pr, int enabled);
/* Redraws the line as text (cut to the terminal's width less one, so it
 * never wraps), at most 4 times a second unless force; the first draw is
 * never held back. */
void hk_progress_draw(hk_progress *pr, const char *text, int force);
/* Clears the line (blanks over it, the cursor back at its start). */
void hk_progress_end(hk_progress *pr);

/* hooke run's bar: enabled only when both stdout and stderr are terminals
 * and not quiet; hk_progress_update redraws it at most 4 times a second:
 * bar, percent, step, simulated time, ETA, spring updates/s. */
void hk_progress_begin(hk_progress *pr, int quiet, int64_t first_step, int64_t total_steps, int64_t updates);
void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates);

#endif
