/* stats_csv.h — the statistics CSV of `hooke run --stats`: how a run writes and continues it, how `hooke plot` reads
 * it. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STATS_CSV_H
#define HOOKE_STATS_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "hooke/hooke.h"

/* A stats CSV in memory: the header's column names and every data row, by column. */
typedef struct hk_stats_table {
    int cols, rows, cap; /* cap: rows allocated per column */
    int cut_line;        /* the line of a last row left out as cut short (no newline at its end); 0: none */
    char **names;        /* cols names, in header order (names[0] "step", names[1] "time") */
    double **v;          /* v[col][row] */
} hk_stats_table;

/* The rules (docs/user-guide.md, "Plots of the run statistics"): the first
 * line is the header, comma-separated names starting with step,time, at most
 * 256 columns, none empty; every other line that is not blank holds exactly
 * as many fields; each field (blanks and a CR trimmed) is a whole number as
 * strtod reads it: finite, or nan / inf spelled out (kept as they are; hooke
 * plot leaves a gap there), but not a finite-looking number beyond the range
 * of a double (1e999); at least 2 data rows. Every row ends in a newline: a
 * last line without one is a row whose writing did not finish (a full disk,
 * a killed run), whatever it holds (its last number may be cut too); it is
 * left out, and cut_line says where it was (the caller warns).
 *
 * hk_stats_read reads the file at path (regular files up to HK_LIMIT_STATS,
 * io/readfile.c) and parses it. Returns 0 with t filled, or -1 with t
 * empty and err set to "PATH:LINE: what is wrong and what was expected" (or
 * "PATH: cannot open stats CSV: REASON"); the caller adds "hooke: error: ". */
int hk_stats_read(const char *path, hk_stats_table *t, char *err, size_t errlen);

/* The same rules on text in memory (a fuzz harness's entry point): len bytes
 * followed by a NUL byte, split in place; name stands for the file in
 * messages. A NUL byte inside the len bytes is refused. */
int hk_stats_parse(char *text, size_t len, const char *name, hk_stats_table *t, char *err, size_t errlen);

/* Frees what a successful read allocated and empties t (safe on an empty table). */
void hk_stats_free(hk_stats_table *t);

/* ---- writing: a run's rows ---------------------------------------------- */

typedef struct hk_stats_csv {
    int fd;            /* the open file (-1: none) */
    const char *path;  /* its name */
    int64_t rows;      /* data rows written whole by this run [1] */
    int64_t last_step; /* the step of the last of them */
    int failed;        /* a row could not be written (and said why) */
    off_t end;         /* the file's length after its last whole row [bytes] */
    dev_t dev;         /* the file opened, which the path must still name */
    ino_t ino;
    char warning[1024]; /* after a restart's open: what was dropped that the caller should warn of ("": nothing) */
    int first_due;      /* a distributed world's open left its first row to every rank's hk_stats_csv_row */
} hk_stats_csv;

/* Opens the stats file of a run whose world is at step `from`, writing a
 * row every `every` steps (at_from below: `from` is on that grid, the run
 * has a row there). A run from step 0 (re)writes the file: the header and
 * the row of step 0 (of a world shared out over ranks, whose figures are
 * reductions that every rank takes part in, the row is left to the caller:
 * s->first_due). A restart (from > 0) keeps the header and the rows before
 * step `from` of the file that is there, and its row at `from` when at_from
 * (later rows, and a row at `from` off the grid, written by the run that
 * was interrupted, are dropped), rewriting it whole (NAME.tmp, then
 * rename), and appends after them (first the row of step `from`, when
 * at_from and the file had none); a file that is missing or empty starts
 * with the header, and one whose header differs from this world's columns,
 * whose rows do not read, or whose rows up to `from` are not this run's (a
 * row at each step 0, every, 2 every, ... below `from`, none missing, with
 * the header's fields and the run's time at its step) is refused, the file
 * untouched. A path written through (a FIFO or a character device,
 * outfile.h) keeps no rows. A last row cut short (no newline at its end:
 * its writing did not finish) is dropped with a warning in s->warning when
 * it is past the rows kept, and the file refused when it may be one of them
 * (lost rows). 0, -1 (it cannot be read or written) or -2 (not this run's
 * stats: bad input), with the message in err. */
int hk_stats_csv_open(hk_stats_csv *s, const char *path, const hk_world *w, int64_t from, int64_t every, char *err,
                      size_t errlen);
/* Appends the row of the world's current step, whole: formatted in memory and written at once, so a reader never
 * meets half a row; a write that cannot finish (a full disk: ENOSPC, a file size limit: EFBIG) takes its part back
 * off, leaving the file at its last whole row, and fails with "cannot write PATH: REASON after N rows (the last of
 * step S): the file ends with its last whole row". The row fails too when the path no longer names the file (its folder
 * or the file removed, or replaced, during the run: the rows would be written where no one can read them). known: the
 * world's statistics at this step when the caller has them (hk_world_check_stats), else NULL. 0, or -1 with the
 * message. */
int hk_stats_csv_row(hk_stats_csv *s, const hk_world *w, const hk_stats *known, char *err, size_t errlen);
/* On a distributed world every rank makes each row (its figures are reductions over the ranks) and rank 0 writes
 * it: the other ranks' writer is never opened (fd -1), and the row then goes nowhere. */
/* Closes the file (safe on one never opened, or zeroed); with err, fails as a row does when the path no longer
 * names the file. 0, or -1 with the message. */
int hk_stats_csv_close(hk_stats_csv *s, char *err, size_t errlen);

#endif
