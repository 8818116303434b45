/* team_wait.c — a team's waits: a spin, then a futex; a thread found off its core spins short and sleeps. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* syscall (the futex) */
#include "team_wait.h"

#include <sched.h>
#include <time.h>

#ifdef __linux__
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static inline void pause_once(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

int64_t hk_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Until when this thread's spins are short, and until when it is crowded [ns]. */
static _Thread_local int64_t short_until, crowded_until;

int64_t hk_crowded_until(void) { return crowded_until; }

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

void hk_wake_sleepers(atomic_uint *word, atomic_uint *sleepers)
{
    if (atomic_load_explicit(sleepers, memory_order_seq_cst) == 0) return;
#ifdef __linux__
    syscall(SYS_futex, (unsigned *)(void *)word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)word;
#endif
}

/* The clock is read every 64 pauses, after the first 128 (a wait of a balanced pass ends within them). */
int hk_spin_past(atomic_uint *word, unsigned seen, _Atomic int64_t *beat)
{
    for (int i = 0; i < 128; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) != seen) return 1;
        pause_once();
    }
    int64_t last = hk_now_ns();
    const int64_t end = last + (last < short_until ? HK_SPIN_SHORT_NS : HK_SPIN_LONG_NS);
    for (;;) {
        if (beat) atomic_store_explicit(beat, last, memory_order_relaxed);
        for (int i = 0; i < 64; i++) {
            if (atomic_load_explicit(word, memory_order_acquire) != seen) return 1;
            pause_once();
        }
        const int64_t t = hk_now_ns();
        if (t - last > HK_OFF_CORE_NS) { /* descheduled between two looks: another process wants this core */
            short_until = t + HK_SHORT_NS;
            return 0;
        }
        if (t >= end) return 0;
        last = t;
    }
}

/* A sleeper is counted before its last look at the word: the changer either sees the sleeper and wakes it, or the
 * sleeper sees the new word and does not sleep. */
void hk_wait_past(atomic_uint *word, unsigned seen, atomic_uint *sleepers, _Atomic int64_t *beat)
{
    if (hk_spin_past(word, seen, beat)) return;
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    while (atomic_load_explicit(word, memory_order_seq_cst) == seen) sleep_on(word, seen);
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
}

void hk_count_init(hk_count *c)
{
    atomic_init(&c->n, 0);
    atomic_init(&c->sleepers, 0);
}

void hk_count_in(hk_count *c, unsigned target)
{
    if (atomic_fetch_add_explicit(&c->n, 1, memory_order_seq_cst) + 1 == target) hk_wake_sleepers(&c->n, &c->sleepers);
}

void hk_count_await(hk_count *c, unsigned target)
{
    for (unsigned n; (n = atomic_load_explicit(&c->n, memory_order_acquire)) != target;)
        hk_wait_past(&c->n, n, &c->sleepers, NULL);
}

/* The calling thread's time spent runnable but off its core so far [ns] (the second field of the scheduler's
 * /proc/thread-self/schedstat), or -1 where the file cannot be read. */
static int64_t run_delay(int fd)
{
#ifdef __linux__
    char text[96];
    const ssize_t n = fd >= 0 ? pread(fd, text, sizeof text - 1, 0) : -1;
    if (n <= 0) return -1;
    text[n] = '\0';
    const char *c = text;
    while (*c >= '0' && *c <= '9') c++; /* the time on the core */
    if (*c++ != ' ') return -1;
    int64_t d = 0;
    for (; *c >= '0' && *c <= '9'; c++) d = 10 * d + (*c - '0');
    return d;
#else
    (void)fd;
    return -1;
#endif
}

/* The calling thread's look at its run delay: when, the delay then, the average share [ns, ns, 1] (kept from one
 * held region to the next: the same OpenMP thread is held again). */
static _Thread_local struct {
    int64_t wall, delay;
    double share;
} seen;

void hk_pace_start(hk_pace *p)
{
#ifdef __linux__
    p->fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
#else
    p->fd = -1;
#endif
    if (seen.wall == 0) {
        seen.wall = hk_now_ns();
        seen.delay = run_delay(p->fd);
    }
}

void hk_pace_look(hk_pace *p, int64_t now)
{
    const int64_t span = now - seen.wall;
    if (span < HK_PACE_NS) return;
    const int64_t delay = run_delay(p->fd);
    if (delay < 0) return;
    if (seen.delay >= 0 && delay >= seen.delay) {
        const double w = span < HK_CROWD_TAU_NS ? (double)span / HK_CROWD_TAU_NS : 1;
        seen.share += w * ((double)(delay - seen.delay) / (double)span - seen.share);
        if (seen.share > HK_CROWD_SHARE) {
            crowded_until = short_until = now + HK_CROWDED_NS;
            seen.share = 0; /* measured afresh once the thread is back */
        }
    }
    seen.wall = now;
    seen.delay = delay;
}

int64_t hk_run_delay_now(void)
{
    hk_pace p;
    p.fd = -1;
#ifdef __linux__
    p.fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
#endif
    const int64_t d = run_delay(p.fd);
    hk_pace_end(&p);
    return d;
}

void hk_pace_end(hk_pace *p)
{
#ifdef __linux__
    if (p->fd >= 0) close(p->fd);
#endif
    p->fd = -1;
}
