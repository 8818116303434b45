/* bench_args.h — `hooke bench`'s options: what a run asks for, the parse of its command line and its refusals. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BENCH_ARGS_H
#define HOOKE_BENCH_ARGS_H

#include <stdint.h>

/* the most counts a list takes; `hooke bench`'s exit statuses (HK_BENCH_HELP: the help was printed) */
enum {
    HK_BENCH_MAX_COUNTS = 64,
    HK_BENCH_OK = 0,
    HK_BENCH_INPUT = 1,
    HK_BENCH_INVALID = 2,
    HK_BENCH_IO = 3,
    HK_BENCH_HELP = -1
};

/* What a `hooke bench` run asks for. */
typedef struct hk_bench_opts {
    const char *scene;
    const char *builtin;
    int counts[HK_BENCH_MAX_COUNTS]; /* thread counts */
    int ncounts;
    int rank_counts[HK_BENCH_MAX_COUNTS]; /* --ranks (none given: the launch's) */
    int nranks;
    int weak;
    int size; /* builtin edge N (0: the default) */
    int repeat, warmup;
    int64_t steps;
    const char *json;   /* --json FILE */
    const char *gbench; /* --gbench-json FILE */
    int device;         /* --device: an hk_device_kind */
} hk_bench_opts;

/* Usage text of `hooke bench`, for hooke --help. */
extern const char hk_bench_usage[];

/* The command line (argv[1] == "bench") into *o, with the defaults; HK_BENCH_OK, HK_BENCH_INPUT (the message
 * printed, on every rank over MPI ranks) or HK_BENCH_HELP (the help printed). */
int hk_bench_parse(int argc, char **argv, hk_bench_opts *o);

#endif
