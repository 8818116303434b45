/* fom.h — `hooke bench`: figure of merit, strong and weak scaling, verification, JSON. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FOM_H
#define HOOKE_FOM_H

/* Runs `hooke bench` with the program's argv (argv[1] == "bench"); returns
 * the exit status: 0 VALID, 1 bad input, 2 INVALID, 3 output not written. */
int hk_cmd_bench(int argc, char **argv);

/* Usage text of `hooke bench`, for hooke --help. */
extern const char hk_bench_usage[];

#endif
