/* kept_rows.h — the rows of a frame series' index (a CSV in DIR) that a restart keeps: those before its first step. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_KEPT_ROWS_H
#define HOOKE_KEPT_ROWS_H

#include <stdint.h>

/* One row of an index: 0 with its step in *step when line (with its '\n')
 * is the index's row number n (from 0), else -1; ctx is the caller's. */
typedef int (*hk_index_row_fn)(const char *line, int64_t n, int64_t *step, void *ctx);

/* The leading rows of the index at path, after its header line (which must
 * be `header`), that a restart at first_step keeps: each one row() takes,
 * their steps rising and below first_step. Their text into *kept
 * (malloc'd; NULL when none) and their count; 0 when the file is missing,
 * another file, or out of memory. */
int64_t hk_kept_rows(const char *path, const char *header, int64_t first_step, hk_index_row_fn row, void *ctx,
                     char **kept);

#endif
