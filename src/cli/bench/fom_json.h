/* fom_json.h — `hooke bench`'s results as JSON: hooke's own report (--json) and Google Benchmark's shape
 * (--gbench-json). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FOM_JSON_H
#define HOOKE_FOM_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "build_info.h"
#include "topology.h"

/* One configuration's figures: a thread count (on a rank count, over MPI ranks). */
typedef struct hk_bench_row {
    int ranks;   /* MPI ranks that ran it (1 without MPI) */
    int threads; /* OpenMP team size (per rank) */
    int particles;
    int64_t springs, updates_per_step;
    double *times;           /* repeat entries, in the order run: wall-clock seconds per step */
    double *cpu_times;       /* repeat entries: the process's CPU seconds per step (every thread's) */
    double tmin, tmed, tmax; /* of times [s] */
    double fom;              /* spring updates per second, at tmed [1/s] */
    double ns_per_update;    /* [ns] */
    double efficiency;       /* fom / (ranks x threads x the 1-rank 1-thread fom) [1]: efficiency_base */
    uint64_t hash, ref_hash;
    double e_start, e_end, e_scale, e_floor; /* [J] */
    int implicit;                            /* the integrator solves a linear system per substep */
    double cg_per_step;                      /* CG iterations per timed step (implicit) [1] */
    double jacobian_per_s;   /* spring Jacobian products per second: system products x springs / time (implicit) */
    double sim_per_wall;     /* simulated seconds per wall-clock second [1] */
    double halo;             /* over MPI ranks: seconds per step in the halo exchange, the slowest rank's [s] */
    double rss, peak_rss;    /* resident memory of a rank after the timed steps (VmRSS) and at most since the
                                configuration began to build its problem (VmHWM), the largest rank's [B] */
    double run_delay;        /* seconds per timed step that the rank's threads were runnable but kept off a core,
                                summed over its threads, the largest rank's (schedstat); -1: the kernel keeps none [s] */
    double run_delay_share;  /* run_delay over the threads' time: threads x wall-clock time per step, the largest
                                rank's [1] */
    int *held;               /* ranks entries: the particles each rank holds (its own, and the halo rows beside
                                them) [1] */
    int contact;             /* the world has colliders or contact between bodies */
    double contact_phase[3]; /* its phases per timed step: broad, forces, safety net (rank 0's) [s] */
    int blew_up;
    char blowup[160];
    int gpu;          /* its steps ran on a GPU (--device gpu or auto) */
    char device[256]; /* "cpu", or "gpu: NAME (driver D)" */
} hk_bench_row;

/* 1 when the row's energy stayed within the bound the help text states. */
int hk_bench_energy_ok(const hk_bench_row *r);
/* The median of x[0..n) (x is left as it is); 0 when n < 1. */
double hk_bench_median(const double *x, int n);

/* A whole `hooke bench` run. */
typedef struct hk_bench_report {
    const char *scene;   /* the scene file as given, or NULL */
    const char *builtin; /* "cloth" or "jelly", or NULL */
    int size;            /* the builtin's edge N [nodes] */
    const char *problem; /* what ran, as the text report names it */
    int weak;            /* weak scaling (else strong) */
    int warmup, repeat;  /* steps; repetitions */
    int64_t steps;       /* per repetition */
    const hk_bench_row *rows;
    int nrows;
    int valid;                                 /* every row verified */
    double fom;                                /* the best row's [spring updates/s] */
    char date[32];                             /* when it started, ISO 8601 UTC: 2026-11-23T16:51:57Z */
    const hk_machine *machine;                 /* as read before the runs */
    int ranks;                                 /* over MPI ranks: how many the launch has (each row's threads are per
                                                  rank); 0: one process not started by an MPI launcher */
    int base_ranks, base_threads;              /* the row efficiencies are relative to (see fom.c); 0, 0: none */
    hk_context_item context[HK_CONTEXT_ITEMS]; /* the build, as read before the runs */
    const char *device;                        /* where the steps ran: "cpu", or "gpu: NAME (driver D)" */
    double *lifetime_peak;                     /* nlifetime_peak entries: each rank's most resident memory over the
                                                  whole run, the reference runs included (VmHWM; NaN: unread) [B] */
    int nlifetime_peak;                        /* the launch's ranks (1 without MPI) */
} hk_bench_report;

/* hooke's report: the build, the machine (CPU, caches, topology, mask,
 * OpenMP settings and placement), the problem, and per configuration (rank
 * and thread count) the figures and the verification. 0, or -1 when the writer was misused (a
 * bug); write errors show at the file's close. */
int hk_bench_write_json(FILE *f, const hk_bench_report *r);

/* Google Benchmark's JSON shape, so its tools/compare.py compares two runs:
 * {"context": {...}, "benchmarks": [...]}, per thread count one entry per
 * repetition (run_type "iteration": iterations = steps, real_time and
 * cpu_time per step in ns) and, with more than one repetition, their
 * median (run_type "aggregate"). Names are PROBLEM/SCALING/threads:N
 * (over MPI ranks PROBLEM/SCALING/ranks:R/threads:N), PROBLEM
 * "cloth/n:512", "jelly/n:64" or the scene file as given. 0 or -1
 * as above. */
int hk_bench_write_gbench(FILE *f, const hk_bench_report *r);

#endif
