/* team.c — runs a pass on a team: inline, on OpenMP's threads or on a host's pool (with hooke's own barrier). */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* syscall (the futex), sched_yield, nanosleep */
#include "team.h"

#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#include "check.h"
#include "fpmode.h"

#ifdef __linux__
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

const hk_team hk_team_one = {0, 1, NULL};

/* A host's team: its barrier (a counter of arrivals and a generation that
 * the last to arrive advances) and the count of tasks that have returned. */
struct hk_team_sync {
    _Alignas(64) atomic_uint arrived;    /* tasks at the barrier of this generation */
    _Alignas(64) atomic_uint generation; /* barriers passed; the word waiters read and sleepers wait on */
    atomic_uint sleepers;                /* tasks asleep on generation */
    _Alignas(64) atomic_uint done;       /* tasks returned */
    unsigned tasks;
    hk_team_fn fn;
    void *ctx;
};

/* Checking builds: whether the calling thread is running a task (passes never nest). */
#if HK_CHECKS
static _Thread_local int in_team;
#define HK_IN_TEAM(v) (in_team = (v))
#else
#define HK_IN_TEAM(v) ((void)0)
#endif

/* A waiting task first spins (a barrier of a busy team is passed within
 * microseconds), then yields (a team larger than the cores it has), then
 * sleeps until the word changes. */
enum { SPINS = 2000, YIELDS = 64 };

static inline void pause_once(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void sleep_on(atomic_uint *word, unsigned seen)
{
#ifdef __linux__
    syscall(SYS_futex, (unsigned *)(void *)word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
#else
    (void)word;
    (void)seen;
    sched_yield();
#endif
}

static void wake_all(atomic_uint *word)
{
#ifdef __linux__
    syscall(SYS_futex, (unsigned *)(void *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

void hk_team_sync_wait(hk_team_sync *s)
{
    const unsigned gen = atomic_load_explicit(&s->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&s->arrived, 1, memory_order_acq_rel) + 1 == s->tasks) {
        /* the last to arrive: every task's work before the barrier happens before this (the arrivals' release
         * sequence), and before every task's return from it (the generation, released) */
        atomic_store_explicit(&s->arrived, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&s->generation, 1, memory_order_seq_cst);
        if (atomic_load_explicit(&s->sleepers, memory_order_seq_cst) > 0) wake_all(&s->generation);
        return;
    }
    for (int i = 0; i < SPINS; i++) {
        if (atomic_load_explicit(&s->generation, memory_order_acquire) != gen) return;
        pause_once();
    }
    for (int i = 0; i < YIELDS; i++) {
        if (atomic_load_explicit(&s->generation, memory_order_acquire) != gen) return;
        sched_yield();
    }
    /* counted before the last check: the last to arrive either sees the sleeper or the sleeper sees its generation */
    atomic_fetch_add_explicit(&s->sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(&s->generation, memory_order_seq_cst) == gen) sleep_on(&s->generation, gen);
    atomic_fetch_sub_explicit(&s->sleepers, 1, memory_order_relaxed);
}

/* One task of a host's team (hk_task_fn): the pass on task t, then counted as returned, its last touch of s. */
static void host_task(void *pass, int t)
{
    hk_team_sync *s = pass;
    HK_ASSERT(t >= 0 && (unsigned)t < s->tasks);
    const hk_team tm = {t, (int)s->tasks, s};
    HK_IN_TEAM(1);
    HK_FP_SCOPE s->fn(&tm, s->ctx);
    HK_IN_TEAM(0);
    atomic_fetch_add_explicit(&s->done, 1, memory_order_release);
}

/* The host's pool runs the team; returns once every task has returned (a
 * run that returns sooner is waited for: no task outlives s). */
static void run_on_host(const hk_task_hook *hook, int team, hk_team_fn fn, void *ctx)
{
    hk_team_sync s;
    atomic_init(&s.arrived, 0);
    atomic_init(&s.generation, 0);
    atomic_init(&s.sleepers, 0);
    atomic_init(&s.done, 0);
    s.tasks = (unsigned)team;
    s.fn = fn;
    s.ctx = ctx;
    hook->run(hook->host, team, host_task, &s);
    for (unsigned i = 0; atomic_load_explicit(&s.done, memory_order_acquire) != s.tasks; i++) {
        if (i < SPINS) {
            pause_once();
        } else {
            const struct timespec nap = {0, 50000};
            nanosleep(&nap, NULL);
        }
    }
}

void hk_team_launch(const hk_task_hook *hook, int team, hk_team_fn fn, void *ctx)
{
    if (team > 1) {
#if HK_CHECKS
        HK_ASSERT(!in_team); /* a pass inside a pass */
#endif
        if (hook && hook->run) {
            run_on_host(hook, team, fn, ctx);
            return;
        }
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel num_threads(team)
        {
            const hk_team tm = {omp_get_thread_num(), omp_get_num_threads(), NULL};
            HK_IN_TEAM(1);
            HK_FP_SCOPE fn(&tm, ctx);
            HK_IN_TEAM(0);
        }
        return;
#endif
    }
    HK_FP_SCOPE fn(&hk_team_one, ctx);
}

typedef struct for_pass {
    hk_range_fn fn;
    void *ctx;
    int64_t n;
} for_pass;

static void for_task(const hk_team *tm, void *ctx)
{
    const for_pass *f = ctx;
    const int64_t a = f->n * tm->t / tm->T, e = f->n * (tm->t + 1) / tm->T;
    if (a < e) f->fn(f->ctx, a, e);
}

void hk_team_launch_for(const hk_task_hook *hook, int team, int64_t n, hk_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    for_pass f = {fn, ctx, n};
    hk_team_launch(hook, team < n ? team : (int)n, for_task, &f);
}
