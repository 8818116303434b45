/* kept_rows.c — the rows of a frame series' index that a restart keeps (frames_pc2.csv, frames_png.csv). */
/* SPDX-License-Identifier: MIT */
#include "kept_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"

int64_t hk_kept_rows(const char *path, const char *header, int64_t first_step, hk_index_row_fn row, void *ctx,
                     char **kept)
{
    *kept = NULL;
    FILE *f = hk_out_kind(path) == 0 ? fopen(path, "r") : NULL; /* a FIFO or device written through keeps no rows */
    if (!f) return 0;
    char line[1024];
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    int64_t n = 0, last = -1, step;
    if (out && fgets(line, sizeof line, f) && strcmp(line, header) == 0)
        while (fgets(line, sizeof line, f) && row(line, n, &step, ctx) == 0 && step > last && step < first_step &&
               n < INT32_MAX) {
            const size_t k = strlen(line);
            if (len + k + 1 > cap) {
                char *grown = realloc(out, cap *= 2);
                if (!grown) break;
                out = grown;
            }
            memcpy(out + len, line, k + 1);
            len += k;
            last = step;
            n++;
        }
    fclose(f);
    if (n == 0) {
        free(out);
        return 0;
    }
    *kept = out;
    return n;
}
