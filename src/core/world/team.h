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
 * hk_team_run(w, team, fn, ctx) (world.h: the world's hook and session)
 * runs fn on a team of `team` tasks (hk_team_launch):
 *   - one task: on the calling thread, no fork, no barrier;
 *   - the world has a task hook (hooke.h, hk_task_hook): the host's pool runs
 *     the tasks, all at once; T = team exactly;
 *   - the world's OpenMP threads are held (hk_team_hold, for a whole step):
 *     the held threads take the tasks, T = team, or the threads held if
 *     fewer;
 *   - otherwise an OpenMP parallel region of `team` threads for this pass
 *     alone (T is what OpenMP gives: fewer inside another region).
 * Every wait is hooke's own (team.c): a spin of about HK_SPIN_US (hooke.h),
 * then a sleep on a futex, so a waiting task soon gives its core back to
 * one the machine has descheduled; OpenMP's barrier is never used, and the
 * end of a parallel region is reached by every thread at once. Each task
 * runs in the solver's floating-point mode (fpmode.h), the thread's own
 * restored after. A task never calls hk_team_run itself (a host's pool
 * would need a second team of threads; checked in checking builds), and
 * returns only when its share is done: the call returns after every task
 * has.
 */

/* Particles up to which a world runs its per-particle passes, contacts and
 * implicit solver on one task: a fork and join would cost more than the
 * work. The engine's force pass always runs on the world's team (its small
 * bodies go whole to one task each: sweep.h). */
#define HK_PARALLEL_MIN 8192

typedef struct hk_team_sync hk_team_sync;       /* a team's barrier (team.c) */
typedef struct hk_team_session hk_team_session; /* OpenMP's threads held for a call (team.c) */

/* The calling task's place: task t of T. */
typedef struct hk_team {
    int t, T;
    hk_team_sync *sync; /* the team's barrier (NULL when T = 1) */
} hk_team;

/* One task alone (a serial caller of a team function). */
extern const hk_team hk_team_one;

typedef void (*hk_team_fn)(const hk_team *tm, void *ctx);

/* hooke's default thread count (hooke.h hk_default_threads). */
int hk_default_threads(int64_t springs, int cores);

/* Runs body(arg) on the calling thread with OpenMP's threads of a team of
 * `team` held for its passes, one parallel region for the whole call
 * instead of one per pass: *slot points to the session while body runs
 * (NULL after), for hk_team_launch, which hands each pass's tasks to the
 * held threads that can take them at once (team.c: a thread that another
 * process keeps off its core sits out, team_wait.h; full 1: every held
 * thread takes a task of every pass). *rest (the caller's,
 * 0 at first) is until when every held thread sits out [ns]: until then,
 * and for a team of 1, a build without OpenMP or no memory for a large
 * team's seats, every pass of the call runs on the calling thread alone,
 * without a region. The results are the same bits either way. */
void hk_team_hold(int team, int full, int64_t *rest, hk_team_session **slot, void (*body)(void *), void *arg);
/* Tests only (NULL otherwise, the default): until when held thread i (its
 * OpenMP thread number) counts as crowded, beside its own finding
 * (team_wait.h) [ns of the monotonic clock; 0: not]: how a test makes a
 * thread sit out. Read by every held thread. */
extern int64_t (*hk_team_test_crowded)(int thread);
/* The threads a session holds (the caller's included), >= 1. */
int hk_team_session_size(const hk_team_session *s);

/* Runs fn(tm, ctx) on a team of `team` tasks (above): on hook's pool when
 * hook->run is set, else on the session's held threads when s is not NULL,
 * else on a parallel region of OpenMP's threads. */
void hk_team_launch(const hk_task_hook *hook, hk_team_session *s, int team, hk_team_fn fn, void *ctx);

/* A parallel for: fn(ctx, a, e) over [0, n) cut into `team` contiguous
 * shares in task order, one per task (none for an empty share). */
typedef void (*hk_range_fn)(void *ctx, int64_t a, int64_t e);
void hk_team_launch_for(const hk_task_hook *hook, hk_team_session *s, int team, int64_t n, hk_range_fn fn, void *ctx);

/* Waits until all `tasks` tasks of the team have arrived. */
void hk_team_sync_wait(hk_team_sync *s, int tasks);

/* Every task of tm's team waits here until all have arrived. */
static inline void hk_team_barrier(const hk_team *tm)
{
    if (tm->T > 1) hk_team_sync_wait(tm->sync, tm->T);
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
