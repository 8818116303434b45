/* exec.h — the passes a step is told in, and who runs them: the CPU engine's table or a device's. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_EXEC_H
#define HOOKE_EXEC_H

#include "world.h"

/*
 * A step is told once (core/step/step.c: its substeps, each the integrator's substep between the anchors and the
 * contacts; the explicit integrators' substeps in core/step/integrators.c, told in these passes). Who runs a pass is
 * a table of these functions: the CPU engine's (core/step/exec_cpu.c: the engine's force pass, the team's
 * per-particle loops) or a device's (core/device/dev_step.c: the same passes on a GPU). A device runs only the
 * integrators whose row of the integrator table says so, and a world with what the device does not run (colliders,
 * strain limits, ...) never reaches it (core/device/device.c hk_device_refuses), so the story's other parts are
 * the CPU's own.
 */
typedef struct hk_exec {
    const char *name;
    /* Before the substeps: what the integrator keeps between steps made; 0, or -1 with w failed. */
    int (*begin)(hk_world *w);
    /* One force evaluation of every body, with the one-evaluation update `update` (engine/update.h
     * hk_update_kind; 0: none, the forces alone) of substep h fused where the engine fuses it; HK_OK or the
     * failure (the substep's start stays). */
    int (*forces)(hk_world *w, int update, hk_real h);
    /* The per-particle updates of the schemes with their own (engine/update.h's formulas): position Verlet's
     * (first: its first step; book_start: the book's), half a velocity Verlet kick (with the drift), RK4's start
     * state kept, one RK4 stage (weight wt, the next stage's state at ah). */
    void (*verlet)(hk_world *w, hk_real h, int first, int book_start);
    void (*kick)(hk_world *w, hk_real hh, int drift, hk_real h);
    void (*rk4_start)(hk_world *w);
    void (*rk4_stage)(hk_world *w, int stage, hk_real wt, hk_real ah, hk_real h);
    /* The driven anchors' places and velocities of this substep (advanced in w->bodies and w's particles) into
     * the state the passes read; NULL: they read w's. */
    void (*anchors)(hk_world *w);
    /* Breaking: the springs that broke now (count 0: 0 may be returned, the passes not waited for). */
    int64_t (*break_springs)(hk_world *w, int count);
    /* Sphere s (at its place of this substep) or the walls (s NULL) against every free particle, position
     * Verlet's previous positions (prev not NULL) moved with them: the particles moved (count 0: as above). */
    int64_t (*obstacle)(hk_world *w, const hk_sphere_def *s, double dt, hk_real *const prev[3], int count);
    /* After the step's substeps and its count; NULL: nothing. */
    void (*end)(hk_world *w);
    int counts_wait; /* 1: a count waits for the passes (a device): asked for only where velocity Verlet needs it */
} hk_exec;

#endif
