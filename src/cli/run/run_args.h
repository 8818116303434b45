/* run_args.h — `hooke run`'s command line: its options, their checks and the help text. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RUN_ARGS_H
#define HOOKE_RUN_ARGS_H

#include <stdint.h>
#include <stdio.h>

#include "view.h"

/* What the command line of `hooke run` asks for. */
typedef struct run_opts {
    const char *scene;
    int64_t steps; /* the run's end step (0: not given) */
    double time;   /* the run's end time [s] (0: not given) */
    double dt;
    int integrator; /* -1: scene's */
    int64_t threads, every;
    const char *stats, *state_out;
    int quiet;
    const char *checkpoint, *restart;
    int64_t checkpoint_every;
    int checkpoint_on_exit;
    const char *out_dir;
    int formats;
    hk_camera camera; /* the PNG frames' (--camera); run unless given */
    int camera_given;
    double stretch_limit;
    int device; /* --device: an hk_device_kind (default cpu) */
} run_opts;

/* Reads argv (argv[1] is "run") into o: HK_EXIT_OK, HK_EXIT_INPUT (the message printed) or HK_RUN_HELP (the help
 * printed). */
enum { HK_RUN_HELP = -1 };
int hk_run_parse(int argc, char **argv, run_opts *o);

/* The help of `hooke run`: its options, frame formats, integrators, exit
 * statuses; synopsis 1: starting with its usage line. */
void hk_run_help(FILE *f, int synopsis);

#endif
