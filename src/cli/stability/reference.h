/* reference.h — the stability profiler's converged reference and a run's distance from it. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_REFERENCE_H
#define HOOKE_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "hooke/hooke.h"

/* A run at dt is compared with the reference at the end of each quarter of its first T seconds: after
 * ceil(q * ceil(T / dt) / HK_REF_CHECKS) steps, q = 1 .. HK_REF_CHECKS (hk_reference_checks). */
#define HK_REF_CHECKS 4
/* The reference's step is the sweep's smallest dt over this (the default of --reference). */
#define HK_REF_FACTOR 10
/* Its solves: CG to |r| <= HK_REF_CG_TOLERANCE |b| (cg_stop relative), at most HK_REF_NEWTON Newton iterations a
 * step. At its small step the first iteration is already close: on the tilted strand at dt = 1/600 s, 100 iterations
 * (at 20 times the CPU time) move the particles 4.5e-7 m RMS over 1 s from 4 iterations', against the reference's
 * own error of 8.5e-3 m there; in the float build its stiff springs' forces are not resolved finer, so all 100 would
 * be taken. */
#define HK_REF_CG_TOLERANCE 1e-6
#define HK_REF_NEWTON 4

/* The reference: implicit Euler at dt (and at 2 dt, for its own error), its particles' places at every time a
 * sweep's run is compared at. */
typedef struct hk_reference {
    double dt;          /* its step [s]; 0: no reference (--reference 0) */
    double time;        /* the first T seconds the runs are measured over [s] */
    int ok;             /* 1: both runs reached every time; else why says what stopped them */
    char why[2][256];   /* per run: "" or why it did not finish */
    int n;              /* particles */
    int slots;          /* points * HK_REF_CHECKS times, slot i * HK_REF_CHECKS + q - 1 for dt i and quarter q */
    double *t;          /* [slots] the times [s] */
    double *x[2];       /* [slots * n * 3] the places [m]: at dt, and at 2 dt (freed once compared) */
    double *inv_mass;   /* [n] each particle's inverse mass [1/kg]: the free ones (> 0) are compared */
    int64_t steps[2];   /* each run's steps (an estimate until it has run: the progress line's work) */
    double size;        /* the bodies' size: the diagonal of the box around every particle at the start [m] */
    double own_error;   /* the largest over the times of the RMS distance between the runs at dt and 2 dt [m] */
    double max_stretch; /* the largest r / L0 over the first T seconds (the steps that end by T) [1] */
    double cpu_per_s;   /* its thread's CPU time in its steps per simulated second [s/s] */
    double cg_per_step; /* CG iterations per step [1] */
} hk_reference;

/* The steps after which a run at dt is compared (the first T = time seconds: ceil(T / dt) steps). */
void hk_reference_checks(double dt, double time, int64_t steps[HK_REF_CHECKS]);
/* Plans the reference of a sweep over dts[points] for time T at step dt_ref (0: none), n particles. 0, or -1 out
 * of memory. */
int hk_reference_plan(hk_reference *r, const double *dts, int points, double time, double dt_ref, int n);
/* Runs the reference at its dt (which 0) or at twice it (which 1) from the scene file, on this thread; the two
 * may run at once on two threads. 0 (r->why[which] says if it did not finish), or -1 with err set when the scene
 * cannot be loaded. */
int hk_reference_run(hk_reference *r, const char *scene, int which, char *err, size_t errlen);
/* After both runs: ok and own_error, and the places at 2 dt freed. */
void hk_reference_finish(hk_reference *r);
/* The RMS over w's free particles (inverse mass > 0) of their distance from the reference's places at slot [m]. */
double hk_reference_error(const hk_reference *r, int slot, const hk_world *w);
/* The CPU time of the calling thread [s] (CLOCK_THREAD_CPUTIME_ID): what a run on one thread costs. */
double hk_thread_cpu_s(void);
void hk_reference_free(hk_reference *r);

#endif
