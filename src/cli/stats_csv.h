/* stats_csv.h — the statistics CSV of `hooke run --stats`: its columns, its rows, and how a restart continues it. */
#ifndef HOOKE_STATS_CSV_H
#define HOOKE_STATS_CSV_H

#include <stdio.h>

#include "hooke/hooke.h"

typedef struct hk_stats_csv {
    FILE *f;
    const char *path;
} hk_stats_csv;

/* Opens the stats file of a run whose world is at step `from`. A run from
 * step 0 (re)writes the file: the header and the row of step 0. A restart
 * (from > 0) keeps the header and the rows up to step `from` of the file
 * that is there (later rows, written after the checkpoint by the run that
 * was interrupted, are dropped), rewriting it whole (NAME.tmp, then
 * rename), and appends after them; a file that is missing or empty starts
 * with the header and the row of step `from`, and one whose header differs
 * from this world's columns, or whose rows do not read, is refused. 0, -1
 * (it cannot be read or written) or -2 (not this run's stats: bad input),
 * with the message in err. */
int hk_stats_csv_open(hk_stats_csv *s, const char *path, const hk_world *w, int64_t from, char *err, size_t errlen);
/* Appends the row of the world's current step and flushes it, so a write
 * error is noticed at the row that met it. 0, or -1 with the message. */
int hk_stats_csv_row(hk_stats_csv *s, const hk_world *w, char *err, size_t errlen);
/* Closes the file; 0, or -1 with the message. */
int hk_stats_csv_close(hk_stats_csv *s, char *err, size_t errlen);

#endif
