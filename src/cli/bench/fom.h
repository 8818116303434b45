/* fom.h — `hooke bench`: figure of merit, strong and weak scaling, verification, JSON. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FOM_H
#define HOOKE_FOM_H

#include "bench_args.h" /* hk_bench_usage */

/* Runs `hooke bench` with the program's argv (argv[1] == "bench"); returns
 * the exit status: 0 VALID, 1 bad input, 2 INVALID, 3 output not written. */
int hk_cmd_bench(int argc, char **argv);

/* Tests only: when set, every world the bench makes gets it as its engine
 * hook (world.h after_pass), to break a kernel on purpose and show that the
 * verification catches it; NULL otherwise. The program's own, not the
 * library's: a world's hook is the world's. */
struct hk_world;
extern void (*hk_bench_after_pass)(struct hk_world *w, int t, int T);

#endif
