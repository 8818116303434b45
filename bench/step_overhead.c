/* step_overhead.c — the time of one hk_world_step on a tiny world, the base of Python's world.step() overhead. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hooke_step_overhead SCENE [CALLS] [--check]
 *
 * Loads SCENE (bench/step_overhead.scene: a rope of 10 particles, one
 * substep a step), on one thread, and times CALLS (default 100000) calls of
 * hk_world_step in a plain loop, each status checked. With --check, the loop
 * also checks for a blow-up where `hooke run` and World.step do: every
 * hk_check_cadence steps (every step on a world this small),
 * hk_world_check_stats with the scene's stretch limit and the energy bound
 * (cli/run/diagnosis.h). Prints one line:
 * `calls=N ns_per_call=T state_hash=0x...`: the hash lets bench/step_overhead.py,
 * which runs this and the same loop in Python in turn, check that both
 * stepped the same world as far.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diagnosis.h"
#include "hooke/hooke.h"

int main(int argc, char **argv)
{
    const int checks = argc > 2 && strcmp(argv[argc - 1], "--check") == 0;
    if (argc - checks < 2 || argc - checks > 3) {
        fprintf(stderr, "usage: hooke_step_overhead SCENE [CALLS] [--check]\n");
        return 2;
    }
    char *end = NULL;
    const long calls = argc - checks == 3 ? strtol(argv[2], &end, 10) : 100000;
    if (calls < 1 || (end && *end != '\0')) {
        fprintf(stderr, "hooke_step_overhead: CALLS must be a whole number >= 1, got '%s'\n", argv[2]);
        return 2;
    }
    char err[1024];
    hk_run_settings run;
    hk_world *w = hk_world_load_scene(argv[1], &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "hooke_step_overhead: %s\n", err);
        return 1;
    }
    if (hk_world_set_threads(w, 1) != HK_OK) {
        fprintf(stderr, "hooke_step_overhead: one thread refused\n");
        hk_world_destroy(w);
        return 1;
    }
    const double limit = run.stretch_limit > 0 ? run.stretch_limit : HK_STRETCH_LIMIT;
    const int64_t cadence = hk_check_cadence(w);
    hk_energy_guard guard;
    hk_energy_guard_init(&guard, w);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < calls; i++) {
        if (hk_world_step(w) != HK_OK) {
            fprintf(stderr, "hooke_step_overhead: step %ld: %s\n", i + 1, hk_world_error(w));
            hk_world_destroy(w);
            return 1;
        }
        const int64_t s = hk_world_step_count(w);
        hk_blowup b;
        hk_stats st;
        if (checks && s % cadence == 0 &&
            (hk_world_check_stats(w, limit, &b, &st) || hk_energy_runaway(&guard, &st, s * hk_world_substeps(w)))) {
            fprintf(stderr, "hooke_step_overhead: step %ld: blow-up\n", i + 1);
            hk_world_destroy(w);
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const double ns = 1e9 * (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec);
    printf("calls=%ld ns_per_call=%.1f state_hash=0x%016" PRIx64 "\n", calls, ns / (double)calls,
           hk_world_state_hash(w));
    hk_world_destroy(w);
    return 0;
}
