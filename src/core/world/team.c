/* team.c — runs a pass on a team: inline, on OpenMP's threads (held for a call, or a region per pass) or on a
 * host's pool, with hooke's own barrier and waits (team_wait.h). */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* nanosleep */
#include "team.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "fpmode.h"
#include "team_wait.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

const hk_team hk_team_one = {0, 1, NULL};

int hk_default_threads(int64_t springs, int cores)
{
    const int64_t fit = springs > 0 ? (springs + HK_SPRINGS_PER_THREAD - 1) / HK_SPRINGS_PER_THREAD : 1;
    return cores < 1 ? 1 : fit < cores ? (int)fit : cores;
}

/* Checking builds: whether the calling thread is running a task (passes never nest). */
#if HK_CHECKS
static _Thread_local int in_team;
#define HK_IN_TEAM(v) (in_team = (v))
#else
#define HK_IN_TEAM(v) ((void)0)
#endif

/* ---- the barrier --------------------------------------------------------- */

/* A team's barrier: a counter of arrivals and a generation that the last to arrive advances. */
struct hk_team_sync {
    _Alignas(64) atomic_uint arrived;    /* tasks at the barrier of this generation */
    _Alignas(64) atomic_uint generation; /* barriers passed; the word waiters read and sleepers wait on */
    atomic_uint sleepers;                /* tasks asleep on generation */
};

static void sync_init(hk_team_sync *s)
{
    atomic_init(&s->arrived, 0);
    atomic_init(&s->generation, 0);
    atomic_init(&s->sleepers, 0);
}

/* Where the calling thread adds the time it waits at barriers [ns], or NULL: the caller of a timed pass (run_held). */
static _Thread_local int64_t *waits;

void hk_team_sync_wait(hk_team_sync *s, int tasks)
{
    HK_ASSERT(s && tasks > 1);
    const unsigned gen = atomic_load_explicit(&s->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&s->arrived, 1, memory_order_acq_rel) + 1 == (unsigned)tasks) {
        /* the last to arrive: every task's work before the barrier happens before this (the arrivals' release
         * sequence), and before every task's return from it (the generation, released) */
        atomic_store_explicit(&s->arrived, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&s->generation, 1, memory_order_seq_cst);
        hk_wake_sleepers(&s->generation, &s->sleepers);
        return;
    }
    if (!waits) {
        hk_wait_past(&s->generation, gen, &s->sleepers, NULL);
        return;
    }
    const int64_t from = hk_now_ns();
    hk_wait_past(&s->generation, gen, &s->sleepers, NULL);
    *waits += hk_now_ns() - from;
}

/* Task t of T of a pass, on the calling thread, in the solver's floating-point mode. */
static void run_task(hk_team_fn fn, void *ctx, int t, int T, hk_team_sync *sync)
{
    const hk_team tm = {t, T, sync};
    HK_IN_TEAM(1);
    HK_FP_SCOPE fn(&tm, ctx);
    HK_IN_TEAM(0);
}

/* ---- a host's pool --------------------------------------------------------- */

/* A pass on a host's pool: its barrier and the count of tasks that have returned. */
typedef struct host_pass {
    hk_team_sync sync;
    _Alignas(64) atomic_uint done;
    int tasks;
    hk_team_fn fn;
    void *ctx;
} host_pass;

/* One task of a host's team (hk_task_fn): the pass on task t, then counted as returned, its last touch of p. */
static void host_task(void *pass, int t)
{
    host_pass *p = pass;
    HK_ASSERT(t >= 0 && t < p->tasks);
    run_task(p->fn, p->ctx, t, p->tasks, &p->sync);
    atomic_fetch_add_explicit(&p->done, 1, memory_order_release);
}

/* The host's pool runs the team; returns once every task has returned (a run that returns sooner is waited for: no
 * task outlives p). The tasks do not wake the caller (p lives on its stack until it has seen them all): it spins,
 * then naps. */
static void run_on_host(const hk_task_hook *hook, int team, hk_team_fn fn, void *ctx)
{
    host_pass p;
    sync_init(&p.sync);
    atomic_init(&p.done, 0);
    p.tasks = team;
    p.fn = fn;
    p.ctx = ctx;
    hook->run(hook->host, team, host_task, &p);
    for (unsigned n; (n = atomic_load_explicit(&p.done, memory_order_acquire)) != (unsigned)team;)
        if (!hk_spin_past(&p.done, n, NULL)) {
            const struct timespec nap = {0, 50000};
            nanosleep(&nap, NULL);
        }
}

/* ---- OpenMP's threads, a region per pass ---------------------------------------- */

#ifdef HOOKE_USE_OPENMP
/* A pass on a parallel region of its own: every thread runs its task; the others count themselves out and go to the
 * region's end, where the caller joins them once it has counted them all (hooke's wait, not OpenMP's). */
static void run_region(int team, hk_team_fn fn, void *ctx)
{
    hk_team_sync sync;
    hk_count done;
    sync_init(&sync);
    hk_count_init(&done);
#pragma omp parallel num_threads(team)
    {
        const int t = omp_get_thread_num(), T = omp_get_num_threads();
        run_task(fn, ctx, t, T, &sync);
        if (t > 0)
            hk_count_in(&done, (unsigned)T - 1);
        else
            hk_count_await(&done, (unsigned)T - 1);
    }
}
#endif

/* ---- OpenMP's threads held for a call ------------------------------------------- */

/* A held thread's seat: where it is handed jobs and says whether it can take them. */
typedef struct seat {
    _Alignas(64) atomic_uint job; /* the number of the last job handed to it: the word it waits on */
    atomic_uint sleepers;         /* 1 while it sleeps on job */
    int task;                     /* its task of the job's pass (written before the job is handed out) */
    _Atomic int64_t beat;         /* when it last looked at its seat, spinning, or returned from a task [ns] */
    _Atomic int64_t crowded;      /* until when it is crowded (team_wait.h) and sits out passes [ns] */
    _Atomic int cpu;              /* the processor it was on when it last returned from a task (-1: unknown) */
} seat;

enum { INLINE_SEATS = 8 };
#define FRESH_NS 100000 /* a seat whose thread looked at it this recently has it on its core [ns] */

/* OpenMP's threads held for a call: thread 0 is the caller, which runs the call and hands each pass's other tasks
 * to the seats of the held threads that can take them at once; a job (a pass, or leaving) is written before it is
 * handed out and left alone until every thread it went to has counted itself done. */
struct hk_team_session {
    int size;      /* threads held, the caller's included */
    int full;      /* every held thread takes a task of every pass */
    seat *seats;   /* [size]: seat i is thread i's (seat 0 unused) */
    unsigned jobs; /* jobs handed out */
    /* the job: */
    int leave;          /* 1: the held threads leave the region */
    int tasks;          /* the pass's T */
    unsigned sent;      /* threads it went to, the count that ends it */
    hk_team_fn fn;      /* the pass, on tasks 0 .. tasks - 1 */
    void *ctx;          /* its context */
    hk_team_sync sync;  /* the pass's barrier */
    hk_count done;      /* threads done with the job */
    hk_team_pace *pace; /* whether the team beats the caller alone (judged as the passes run) */
};

int hk_team_session_size(const hk_team_session *s) { return s->size; }

/* Whether held thread i can take a task now: not crowded, and on its core (spinning on its seat, just back from a
 * task, or on its way into the region: a step's first pass often comes before it has looked) or asleep on it
 * (woken: a quiet core's thread after a long serial stretch). Only the pass's speed depends on the answer: its bits
 * do not depend on its task count. */
static int can_take(const seat *me, int64_t now)
{
    if (now < atomic_load_explicit(&me->crowded, memory_order_relaxed)) return 0;
    const int64_t beat = atomic_load_explicit(&me->beat, memory_order_relaxed);
    return atomic_load_explicit(&me->sleepers, memory_order_relaxed) > 0 || beat > now || now - beat < FRESH_NS;
}

/* The team of session s rests from now [ns] (hk_team_pace): the other held threads' processors and their idle
 * time are noted. */
static void rest(hk_team_pace *p, const hk_team_session *s, int64_t now)
{
    p->rest_from = now;
    p->rest_until = now + p->rest_ns;
    p->rest_ns = p->rest_ns < HK_REST_MAX_NS / 2 ? 2 * p->rest_ns : HK_REST_MAX_NS;
    p->cpus = (hk_cpus){{0}};
    const int own = hk_cpu_now();
    for (int i = 1; i < s->size; i++) {
        const int c = atomic_load_explicit(&s->seats[i].cpu, memory_order_relaxed);
        if (c != own) hk_cpus_add(&p->cpus, c);
    }
    p->idle_from = hk_cpus_idle_ns(&p->cpus);
}

#ifdef HOOKE_USE_OPENMP
/* Whether the team rests now [ns] (hk_team_pace): within a rest; at its end, unless the other processors were idle
 * for HK_IDLE_SHARE of it, the rest goes on. */
static int resting(hk_team_pace *p, int64_t now)
{
    if (now < p->rest_until) return 1;
    if (p->rest_from == 0) return 0;
    const int n = hk_cpus_count(&p->cpus);
    const int64_t idle = n > 0 && p->idle_from >= 0 ? hk_cpus_idle_ns(&p->cpus) : -1;
    if (idle >= 0 && (double)(idle - p->idle_from) < HK_IDLE_SHARE * n * (double)(now - p->rest_from)) {
        p->rest_from = now;
        p->rest_until = now + HK_REST_MIN_NS;
        p->idle_from = idle;
        return 1;
    }
    p->rest_from = 0; /* the team comes back, on probation: one loss rests it again */
    p->strikes = 1;
    return 0;
}
#endif

/* Identifies the calling thread (its run delay is its own). */
static _Thread_local char this_thread;

/* After a pass the caller timed, or a call's start and end (span: its wall time; one: n times task 0's work, one
 * thread's estimate of it, 0 for a call's start and end [ns]): the judgement of hk_team_pace, now [ns]. A team that
 * already lost HK_LOSS_NS loses at once; else it is judged once its passes took HK_JUDGE_NS, the caller's own time
 * off its core meanwhile (its run delay) taken off its work: one thread with a core of its own does not wait it. */
static void judge(hk_team_session *s, int64_t span, int64_t one, int64_t now)
{
    hk_team_pace *p = s->pace;
    if (p->rest_ns == 0) p->rest_ns = HK_REST_MIN_NS;
    if (p->span == 0 && (p->caller != &this_thread || p->delay_from < 0)) { /* a judgement begins, unread */
        p->caller = &this_thread;
        p->delay_from = hk_run_delay_now();
    }
    p->span += span;
    p->one += one;
    double lost = (double)p->span - HK_TEAM_LOSS * (double)p->one;
    if (lost <= HK_LOSS_NS && p->span < HK_JUDGE_NS) return;
    int64_t delay = -1; /* read, it begins the next judgement too */
    if (lost <= HK_LOSS_NS && p->caller == &this_thread && p->delay_from >= 0) {
        delay = hk_run_delay_now();
        if (delay >= p->delay_from) lost += HK_TEAM_LOSS * (double)s->size * (double)(delay - p->delay_from);
    }
    p->delay_from = delay;
    if (lost <= 0) {
        p->strikes = 0;
        p->rest_ns = p->rest_ns > 2 * HK_REST_MIN_NS ? p->rest_ns / 2 : HK_REST_MIN_NS;
    } else if (++p->strikes >= 2 || lost > HK_LOSS_BIG_NS) {
        rest(p, s, now);
    }
    p->span = p->one = 0;
}

/* Hands the job written to held threads pick[1 .. n - 1] (task j to pick[j]) and waits until they have counted
 * themselves done; the caller runs task 0 (when fn is set) in between, timed and judged (above) when the session
 * judges its team (s->pace: not full). */
static void hand_out(hk_team_session *s, const int *pick, int n, hk_team_fn fn, void *ctx)
{
    const int timed = fn && s->pace;
    const int64_t from = timed ? hk_now_ns() : 0;
    atomic_store_explicit(&s->done.n, 0, memory_order_relaxed);
    s->sent = (unsigned)n - 1;
    const unsigned job = ++s->jobs;
    for (int j = 1; j < n; j++) {
        seat *to = &s->seats[pick[j]];
        to->task = j;
        atomic_store_explicit(&to->job, job, memory_order_seq_cst);
        hk_wake_sleepers(&to->job, &to->sleepers);
    }
    if (!timed) {
        if (fn) run_task(fn, ctx, 0, n, &s->sync);
        hk_count_await(&s->done, s->sent);
        return;
    }
    int64_t waited = 0;
    waits = &waited;
    run_task(fn, ctx, 0, n, &s->sync);
    waits = NULL;
    const int64_t worked = hk_now_ns() - from - waited;
    hk_count_await(&s->done, s->sent);
    const int64_t now = hk_now_ns();
    judge(s, now - from, n * worked, now);
}

/* A pass on the held threads that can take a task now (at most team - 1 of them) and the caller. */
static void run_held(hk_team_session *s, int team, hk_team_fn fn, void *ctx)
{
    int inline_pick[INLINE_SEATS], *pick = s->size <= INLINE_SEATS ? inline_pick : (int *)(s->seats + s->size);
    const int64_t now = hk_now_ns();
    const int alone = s->pace && now < s->pace->rest_until; /* the team rests (hk_team_pace) */
    int n = 1;
    for (int i = 1; i < s->size && n < team && !alone; i++)
        if (s->full || can_take(&s->seats[i], now)) pick[n++] = i;
    if (n == 1) {
        run_task(fn, ctx, 0, 1, NULL);
        return;
    }
    s->leave = 0;
    s->tasks = n;
    s->fn = fn;
    s->ctx = ctx;
    hand_out(s, pick, n, fn, ctx);
}

int64_t (*hk_team_test_crowded)(int thread);
void (*hk_team_test_stall)(int thread);

#ifdef HOOKE_USE_OPENMP
/* Until when held thread i is crowded [ns]: its own finding, or a test's. */
static int64_t crowded_until(int i)
{
    const int64_t own = hk_crowded_until(), test = hk_team_test_crowded ? hk_team_test_crowded(i) : 0;
    return own > test ? own : test;
}

/* A held thread: waits on its seat for a job, runs its task of each pass it is handed, until it is told to leave;
 * says on its seat when it is on its core and whether it is crowded. */
static void held_thread(hk_team_session *s, int i)
{
    seat *me = &s->seats[i];
    hk_pace pace;
    hk_pace_start(&pace);
    atomic_store_explicit(&me->crowded, crowded_until(i), memory_order_relaxed);
    atomic_store_explicit(&me->beat, hk_now_ns(), memory_order_relaxed);
    for (unsigned seen = 0;;) {
        hk_wait_past(&me->job, seen, &me->sleepers, &me->beat);
        seen = atomic_load_explicit(&me->job, memory_order_acquire);
        const unsigned sent = s->sent; /* read before counting in: the next job may be written right after */
        const int leave = s->leave;
        if (!leave) {
            if (hk_team_test_stall) hk_team_test_stall(i);
            run_task(s->fn, s->ctx, me->task, s->tasks, &s->sync);
        }
        const int64_t now = hk_now_ns();
        hk_pace_look(&pace, now); /* crowded, when it was kept off its core meanwhile */
        if (leave) hk_pace_end(&pace);
        atomic_store_explicit(&me->beat, now, memory_order_relaxed);
        atomic_store_explicit(&me->crowded, crowded_until(i), memory_order_relaxed);
        atomic_store_explicit(&me->cpu, hk_cpu_now(), memory_order_relaxed);
        hk_count_in(&s->done, sent);
        if (leave) return;
    }
}
#endif

void hk_team_hold(int team, int full, hk_team_pace *pace, hk_team_session **slot, void (*body)(void *), void *arg)
{
    hk_team_session s = {.size = 1, .full = full, .pace = full ? NULL : pace};
#ifdef HOOKE_USE_OPENMP
    /* the seats, then room for a pass's picks of a large team */
    seat inline_seats[INLINE_SEATS];
    if (team > 1 && (full || !resting(pace, hk_now_ns())))
        s.seats = team <= INLINE_SEATS
                      ? inline_seats
                      : aligned_alloc(64, (size_t)team * sizeof(seat) + ((size_t)team * sizeof(int) + 63) / 64 * 64);
    if (s.seats) {
        /* the region's start and end (the join waits for every held thread) count as the team's time too */
        const int64_t start = s.pace ? hk_now_ns() : 0;
        int64_t in_body = 0;
        for (int i = 0; i < team; i++) {
            atomic_init(&s.seats[i].job, 0);
            atomic_init(&s.seats[i].sleepers, 0);
            atomic_init(&s.seats[i].beat, INT64_MAX); /* on its way: counted as on its core until it looks */
            atomic_init(&s.seats[i].crowded, hk_team_test_crowded ? hk_team_test_crowded(i) : 0);
            atomic_init(&s.seats[i].cpu, -1);
        }
        sync_init(&s.sync);
        hk_count_init(&s.done);
#pragma omp parallel num_threads(team)
        {
            const int i = omp_get_thread_num();
            if (i == 0) {
                s.size = omp_get_num_threads();
                *slot = &s;
                if (s.pace) in_body = hk_now_ns();
                body(arg);
                if (s.pace) in_body = hk_now_ns() - in_body;
                *slot = NULL;
                /* every held thread leaves (the region then ends at once); when all are crowded, the calls until
                 * the first of them is not run on the caller alone, without a region */
                int all[INLINE_SEATS], *pick = s.size <= INLINE_SEATS ? all : (int *)(s.seats + s.size);
                for (int j = 1; j < s.size; j++) pick[j] = j;
                s.leave = 1;
                hand_out(&s, pick, s.size, NULL, NULL);
                int64_t back = INT64_MAX;
                for (int j = 1; j < s.size; j++) {
                    const int64_t c = atomic_load_explicit(&s.seats[j].crowded, memory_order_relaxed);
                    if (c < back) back = c;
                }
                if (!full && s.size > 1 && back > hk_now_ns() && back > pace->rest_until) pace->rest_until = back;
            } else {
                held_thread(&s, i);
            }
        }
        if (s.pace) {
            const int64_t now = hk_now_ns();
            judge(&s, now - start - in_body, 0, now);
        }
        if (s.seats != inline_seats) free(s.seats);
        return;
    }
#endif
    (void)team;
    (void)full;
    (void)pace;
    *slot = &s; /* one thread: every pass of the call on the caller */
    body(arg);
    *slot = NULL;
}

/* ---- launching a pass ------------------------------------------------------- */

void hk_team_launch(const hk_task_hook *hook, hk_team_session *s, int team, hk_team_fn fn, void *ctx)
{
    if (s && !(hook && hook->run) && team > s->size) team = s->size;
    if (team > 1) {
#if HK_CHECKS
        HK_ASSERT(!in_team); /* a pass inside a pass */
#endif
        if (hook && hook->run) {
            run_on_host(hook, team, fn, ctx);
            return;
        }
        if (s) {
            run_held(s, team, fn, ctx);
            return;
        }
#ifdef HOOKE_USE_OPENMP
        run_region(team, fn, ctx);
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

void hk_team_launch_for(const hk_task_hook *hook, hk_team_session *s, int team, int64_t n, hk_range_fn fn, void *ctx)
{
    if (n <= 0) return;
    for_pass f = {fn, ctx, n};
    hk_team_launch(hook, s, team < n ? team : (int)n, for_task, &f);
}
