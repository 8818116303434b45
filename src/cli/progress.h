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

/* One field of a progress line. A line that does not fit its terminal is
 * fitted field by field, never cut inside one: level 0 shows every field
 * whole; at each next level the fields whose shorten_at has come show their
 * brief form, and those whose drop_at has come are left out (0: never). */
typedef struct hk_progress_field {
    const char *sep;         /* written before the field unless it comes first (" ", ", ") */
    const char *text;        /* the field whole */
    const char *brief;       /* a shorter form, or NULL */
    int shorten_at, drop_at; /* levels 1, 2, ...; 0: never */
} hk_progress_field;

/* The first level at which the n fields fit in room columns: shown[i] is 0
 * (left out), 1 (text) or 2 (brief). Returns the width of that line, or -1
 * (every shown[i] 0) when not even the fields that are never dropped fit. */
int hk_progress_fit(const hk_progress_field *f, int n, int room, int *shown);
/* The fields shown (shown[i] as hk_progress_fit fills it), joined into buf
 * with their separators; returns the width, -1 when none is shown (buf ""). */
int hk_progress_join(char *buf, size_t len, const hk_progress_field *f, int n, const int *shown);
/* Both: the fields that fit in room columns into buf; the width or -1. At
 * most HK_PROGRESS_FIELDS fields. */
#define HK_PROGRESS_FIELDS 16
int hk_progress_compose(char *buf, size_t len, const hk_progress_field *f, int n, int room);
/* The columns a progress line may take on stderr's terminal: its width
 * less one (a line that fills the last column would wrap); 79 when it does
 * not say. */
int hk_progress_room(void);

/* A line that is drawn only when enabled (the caller's rule, e.g. not quiet
 * and hk_progress_tty()). */
void hk_progress_start(hk_progress *pr, int enabled);
/* Redraws the line as text, at most 4 times a second unless force; the
 * first draw is never held back. Text wider than hk_progress_room() is cut
 * there (so it never wraps): the lines made of numbers are fitted by
 * hk_progress_compose first. */
void hk_progress_draw(hk_progress *pr, const char *text, int force);
/* Clears the line (blanks over it, the cursor back at its start). */
void hk_progress_end(hk_progress *pr);

/* hooke run's bar as it shows in room columns, into buf (200 bytes are
 * enough): "[####......] 47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 spring
 * updates/s"; the bar's 30 marks are 10 to 30 as the room allows, then, where
 * the line is still too wide, the rate reads "updates/s", and the rate, the
 * time, the bar, the step and the ETA are left out in this order; "" when
 * not even the percent fits. No ETA while eta_s is NAN. */
void hk_progress_bar_text(char *buf, size_t len, int room, int64_t step, int64_t total, double sim_time, double eta_s,
                          double rate);

/* hooke run's bar: enabled only when both stdout and stderr are terminals
 * and not quiet; hk_progress_update redraws it at most 4 times a second.
 * Its rate is the spring updates over the wall time less the seconds the
 * run spent writing outputs (output_s, a running total), as in the summary
 * line; the ETA counts all of the time. */
void hk_progress_begin(hk_progress *pr, int quiet, int64_t first_step, int64_t total_steps, int64_t updates);
void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates, double output_s);

#endif
