/* progress.h — the terminal progress bar of `hooke run`: step, simulated time, spring updates/s, ETA. */
#ifndef HOOKE_PROGRESS_H
#define HOOKE_PROGRESS_H

#include <stdint.h>

typedef struct hk_progress {
    int enabled;
    int64_t first, total;   /* steps */
    double t_start, t_last; /* wall clock [s] */
    int64_t updates0;
} hk_progress;

/* Enabled only when both stdout and stderr are terminals and not quiet. */
void hk_progress_begin(hk_progress *pr, int quiet, int64_t first_step, int64_t total_steps, int64_t updates);
/* Redraws the bar on stderr at most 4 times a second. */
void hk_progress_update(hk_progress *pr, int64_t step, double sim_time, int64_t updates);
/* Clears the bar's line. */
void hk_progress_end(hk_progress *pr);

#endif
