/* team.h — how hooke runs work in parallel: a team of tasks (OpenMP's threads or a host's pool), its barrier and
 * shares, the threshold, the floating-point mode. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TEAM_H
#define HOOKE_TEAM_H

#include <stdint.h>

#include "cpus_idle.h"
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

/* Whether a world's held team beats its calling thread alone, judged as it runs: the caller times each pass it
 * hands out, its wall time and its own task's work (its time less its waits at barriers: the pass's time on one
 * thread is about the tasks times that, their shares being even), and a call's start and end (the join waits for
 * every held thread). The team loses a judgement when its passes took HK_LOSS_NS longer than one thread's estimate
 * (times HK_TEAM_LOSS: judged at once), or any longer once they took HK_JUDGE_NS, the caller's own time off its core
 * meanwhile (its run delay, times the team) counted against it: one thread with a core of its own would not wait
 * it. Two losses in a row, or one of HK_LOSS_BIG_NS, and the team rests: the passes run on the caller alone (the
 * calls without a region) for `rest_ns`, which doubles each time the team rests (up to HK_REST_MAX_NS) and halves
 * each time it wins (down to HK_REST_MIN_NS). When a rest is over, the team comes back only if the other threads'
 * processors were idle for HK_IDLE_SHARE of it (where the machine says: hk_cpus_idle_ns), and then one loss rests it
 * again; else the rest goes on, HK_REST_MIN_NS at a time, and costs nothing to look at. Only the speed depends on
 * it: the bits do not depend on the team. A world keeps one (world.h), zero at first. */
typedef struct hk_team_pace {
    int64_t rest_until; /* until when the passes run on the caller alone [ns of hk_now_ns] */
    int64_t rest_from;  /* when the rest began [ns of hk_now_ns] (0: not resting) */
    int64_t idle_from;  /* the other processors' idle time then [ns] (hk_cpus_idle_ns; -1: unknown) */
    hk_cpus cpus;       /* the other held threads' processors */
    int64_t rest_ns;    /* how long the next rest lasts [ns] (0: HK_REST_MIN_NS) */
    int64_t span, one;  /* since the last judgement: the passes' wall time, and one thread's estimate of it [ns] */
    int64_t delay_from; /* the caller's run delay when the judgement began [ns] (-1: not read) */
    const void *caller; /* the thread that began it */
    int strikes;        /* judgements lost in a row (a team back from a rest starts with one) */
} hk_team_pace;
#define HK_LOSS_NS 1500000       /* a loss this large is judged at once [ns] */
#define HK_LOSS_BIG_NS 4000000   /* a loss this large rests the team at once (else two in a row do) [ns] */
#define HK_JUDGE_NS 2000000      /* the passes' time a judgement takes [ns] */
#define HK_TEAM_LOSS 1.0         /* the team loses when its passes take longer than this times one thread's [1] */
#define HK_REST_MIN_NS 20000000  /* the shortest rest (two of /proc/stat's ticks) [ns] */
#define HK_REST_MAX_NS 800000000 /* the longest rest [ns] */
#define HK_IDLE_SHARE 0.25       /* the share of a rest the other processors must have been idle for [1] */

/* Runs body(arg) on the calling thread with OpenMP's threads of a team of
 * `team` held for its passes, one parallel region for the whole call
 * instead of one per pass: *slot points to the session while body runs
 * (NULL after), for hk_team_launch, which hands each pass's tasks to the
 * held threads that can take them at once (team.c: a thread that another
 * process keeps off its core sits out, team_wait.h; full 1: every held
 * thread takes a task of every pass, and the team never rests). While
 * *pace rests (above; also until the first held thread that sits out is
 * back), and for a team of 1, a build without OpenMP or no memory for a
 * large team's seats, every pass of the call runs on the calling thread
 * alone, without a region. The results are the same bits either way. */
void hk_team_hold(int team, int full, hk_team_pace *pace, hk_team_session **slot, void (*body)(void *), void *arg);
/* Tests only (NULL otherwise, the default): until when held thread i (its
 * OpenMP thread number) counts as crowded, beside its own finding
 * (team_wait.h) [ns of the monotonic clock; 0: not]: how a test makes a
 * thread sit out. Read by every held thread. */
extern int64_t (*hk_team_test_crowded)(int thread);
/* Tests only (NULL otherwise): called by held thread i before each task it runs; a test that sleeps in it holds the
 * thread off its core as another process would. */
extern void (*hk_team_test_stall)(int thread);
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
