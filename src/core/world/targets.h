/* targets.h — kinematic targets: particles a host drives to positions, moved along a line over each step. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TARGETS_H
#define HOOKE_TARGETS_H

#include "world.h"

/*
 * A world's kinematic targets (hooke.h hk_world_set_targets) are a list of
 * driven particles, in the order their targets were first set, and a map
 * from particle to its place in the list. A driven particle has inverse
 * mass 0 (the updates leave it alone); the step moves it: at its start,
 * hk_targets_begin takes where each particle starts from (the place the
 * last step ended it at, in double, when the particle is still there; else
 * its position now) and its velocity (target - start) / dt; before each
 * substep, hk_targets_substep places it where the line puts it at that
 * substep's end (as a driven anchor is placed, forces.c) with that
 * velocity; hk_targets_end keeps where it ended. They are the host's input:
 * checkpoints leave them out.
 */

/* One driven particle. */
typedef struct hk_target {
    int particle;      /* world index */
    int was_pinned;    /* its inverse mass was 0 before its first target: pinned again when released */
    double target[3];  /* where the next step ends it [m] */
    double from[3];    /* where this step started it [m] */
    double vel[3];     /* its velocity over this step [m/s] */
    double at[3];      /* where the last step ended it [m] */
    hk_real placed[3]; /* its displacement then (hk_particles q), to see whether it is still there */
    int ended;         /* 1: at and placed hold a step's end */
} hk_target;

typedef struct hk_targets {
    hk_target *list;
    int count, cap;
    int *slot; /* slot[i]: particle i's place in list, -1: none; slot_cap particles */
    int slot_cap;
} hk_targets;

/* The step's start, each substep s of `substeps`, and its end, for every driven particle (step.c). */
void hk_targets_begin(hk_world *w);
void hk_targets_substep(hk_world *w, int s, int substeps);
void hk_targets_end(hk_world *w);
/* Frees them (the world has none after). */
void hk_targets_free(hk_world *w);

#endif
