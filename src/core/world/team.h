/* team.h — how hooke runs work in parallel: a team of tasks (OpenMP's threads or a host's pool), its barrier and
 * shares, the threshold, the floating-point mode. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TEAM_H
#define HOOKE_TEAM_H

#include <stdint.h>

#include "hooke/hooke.h"

/*
 * Every parallel pass of hooke is a function of a team: each of its T tasks
 * calls it with its index t, and the pass divides its work by (t, T) alone,
 * never by which thread runs which task. Tasks meet at hk_team_barrier.
 * Every pass is written so that its results do not depend on T either
 * (fixed orders of every sum, docs/determinism.md): the same bits for any
 * team and on any pool.
 *
 * hk_team_run(w, team, fn, ctx) (world.h: the world's hook) runs fn on a
 * team of `team` tasks (hk_team_launch):
 *   - one task: on the calling thread, no fork, no barrier;
 *   - the world has a task hook (hooke.h, hk_task_hook): the host's pool runs
 *     the tasks, all at once, and the barrier is hooke's own (team.c: spins,
 *     then sleeps on a futex); T = team exactly;
 *   - otherwise an OpenMP parallel region of `team` threads and OpenMP's
 *     barrier (T is what OpenMP gives: fewer inside another region).
 * Each task runs in the solver's floating-point mode (fpmode.h), the
 * thread's own restored after. A task never calls hk_team_run itself (a
 * host's pool would need a second team of threads; checked in checking
 * builds), and returns only when its share is done: the call returns after
 * every task has.
 */

/* Particles up to which a world runs its per-particle passes, contacts and
 * implicit solver on one task: a fork and join would cost more than the
 * work. The engine's force pass always runs on the world's team (its small
 * bodies go whole to one task each: sweep.h). */
#define HK_PARALLEL_MIN 8192

typedef struct hk_team_sync hk_team_sync; /* a host's team: its barrier (team.c) */

/* The calling task's place: task t of T. */
typedef struct hk_team {
    int t, T;
    hk_team_sync *sync; /* a host's team: hooke's barrier; NULL: OpenMP's (none needed when T = 1) */
} hk_team;

/* One task alone (a serial caller of a team function). */
extern const hk_team hk_team_one;

typedef void (*hk_team_fn)(const hk_team *tm, void *ctx);

/* Runs fn(tm, ctx) on a team of `team` tasks (above): on hook's pool when
 * hook->run is set, else on OpenMP's threads. */
void hk_team_launch(const hk_task_hook *hook, int team, hk_team_fn fn, void *ctx);

/* A parallel for: fn(ctx, a, e) over [0, n) cut into `team` contiguous
 * shares in task order, one per task (none for an empty share). */
typedef void (*hk_range_fn)(void *ctx, int64_t a, int64_t e);
void hk_team_launch_for(const hk_task_hook *hook, int team, int64_t n, hk_range_fn fn, void *ctx);

/* Waits until every task of the team has arrived (a host's team). */
void hk_team_sync_wait(hk_team_sync *s);

/* Every task of tm's team waits here until all have arrived. */
static inline void hk_team_barrier(const hk_team *tm)
{
    if (tm->T <= 1) return;
    if (tm->sync) {
        hk_team_sync_wait(tm->sync);
        return;
    }
#ifdef HOOKE_USE_OPENMP
    _Pragma("omp barrier");
#endif
}

/* The calling task's share [*a, *a + *n) of [first, first + count), split
 * evenly over the team in task order. */
static inline void hk_team_range(const hk_team *tm, int first, int count, int *a, int *n)
{
    const int lo = (int)((int64_t)count * tm->t / tm->T), hi = (int)((int64_t)count * (tm->t + 1) / tm->T);
    *a = first + lo;
    *n = hi - lo;
}

#endif
