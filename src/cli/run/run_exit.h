/* run_exit.h — the exit statuses of `hooke run`. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RUN_EXIT_H
#define HOOKE_RUN_EXIT_H

/* Exit statuses of `hooke run` (also in --help, the README and the user
 * guide). A run stopped by SIGINT or SIGTERM exits with 128 + the signal
 * (130, 143) after finishing its step and closing its outputs. */
enum {
    HK_EXIT_OK = 0,      /* the run reached its end */
    HK_EXIT_INPUT = 1,   /* bad input: scene file, flags, checkpoint */
    HK_EXIT_BLOWUP = 2,  /* the simulation blew up (the report says where and why) */
    HK_EXIT_IO = 3,      /* an output file could not be written */
    HK_EXIT_NOTHING = 4, /* a restart at or past the run's end: nothing to run */
};

#endif
