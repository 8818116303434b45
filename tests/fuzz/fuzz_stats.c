/* fuzz_stats.c — libFuzzer harness: the stats CSV reader of `hooke plot` (hk_stats_parse). */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "fuzz.h"
#include "stats_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1); /* hk_stats_parse refuses a NUL byte itself */
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    hk_stats_table t;
    char err[2048];
    if (hk_stats_parse(text, size, "fuzz.csv", &t, err, sizeof err) == 0) {
        FUZZ_REQUIRE(t.cols >= 2 && t.rows >= 2, "%d columns, %d rows", t.cols, t.rows);
        FUZZ_REQUIRE(strcmp(t.names[0], "step") == 0 && strcmp(t.names[1], "time") == 0, "header %s,%s", t.names[0],
                     t.names[1]);
        for (int c = 0; c < t.cols; c++)
            for (int r = 0; r < t.rows; r++) (void)isfinite(t.v[c][r]); /* every cell is there to read */
        hk_stats_free(&t);
    } else {
        FUZZ_REQUIRE(fuzz_names(err, "fuzz.csv"), "the message does not name the file: '%s'", err);
        FUZZ_REQUIRE(t.cols == 0 && t.rows == 0 && t.names == NULL && t.v == NULL, "a refused CSV left a table");
    }
    free(text);
    return 0;
}
