/* team_wait.h — how the threads of a team wait for each other: a spin, then a sleep on a futex; short spins, and
 * sitting out, for a thread whose core another process wants. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TEAM_WAIT_H
#define HOOKE_TEAM_WAIT_H

#include <stdatomic.h>
#include <stdint.h>

/*
 * A waiting thread spins first: on a quiet machine the one it waits for
 * arrives within microseconds, while a sleeper's wake-up costs tens to
 * hundreds (the futex calls, the scheduler, an idle core's way back; a
 * cloth of 1728 particles ran 1.4 times slower on 2 threads when its
 * threads slept after 50 us, docs/performance-notes.md "Waiting"). It spins
 * up to HK_SPIN_LONG_NS, the time a step's serial work between two passes
 * may take, then sleeps on the word it waits for. A spin that finds it was
 * descheduled (the clock jumped by more than HK_OFF_CORE_NS between two of
 * its looks) stops there, and the thread's spins stay short
 * (HK_SPIN_SHORT_NS) for HK_SHORT_NS: its core is wanted.
 *
 * A thread that shares its core with another process is "crowded": the
 * share of its time it spends runnable but off its core (its run delay, the
 * scheduler's count of it; a moving average over about HK_CROWD_TAU_NS)
 * exceeds HK_CROWD_SHARE. Then, for HK_CROWDED_NS, its spins are short and
 * a held thread sits out its team's passes (team.c): they run on fewer
 * tasks (the same bits) and never wait for a thread the machine keeps
 * descheduling, and the thread sleeps, leaving the core to the other
 * process. An interrupt or another process's single time slice moves the
 * average little. Each thread keeps this about itself (thread-local: no
 * process-wide setting is changed).
 */
#define HK_SPIN_LONG_NS 1000000  /* a spin on a core of its own [ns] */
#define HK_SPIN_SHORT_NS 2000    /* a spin where the core is wanted [ns] */
#define HK_OFF_CORE_NS 300000    /* a spin descheduled this long stops [ns] */
#define HK_SHORT_NS 10000000     /* spins stay short this long after that [ns] */
#define HK_CROWD_TAU_NS 20000000 /* the time scale of the average of the run delay's share [ns] */
#define HK_CROWD_SHARE (1.0 / 3) /* the share above which a thread is crowded (one other busy process: 1/2) [1] */
#define HK_CROWDED_NS 100000000  /* how long a thread stays crowded [ns] */

/* The monotonic clock [ns]. */
int64_t hk_now_ns(void);

/* Until when the calling thread is crowded [ns of hk_now_ns]. */
int64_t hk_crowded_until(void);

/* Spins while *word is `seen`: 1 once it changed (acquire), 0 when the spin is over (its time is up, or it was
 * descheduled). beat (may be NULL) gets the clock at every look at it. */
int hk_spin_past(atomic_uint *word, unsigned seen, _Atomic int64_t *beat);

/* Waits until *word is no longer `seen` (acquire): spins, then sleeps on it, counted in *sleepers, which whoever
 * changes the word reads after the change (hk_wake_sleepers). */
void hk_wait_past(atomic_uint *word, unsigned seen, atomic_uint *sleepers, _Atomic int64_t *beat);
/* After a change of *word (seq_cst): wakes its sleepers, if any. */
void hk_wake_sleepers(atomic_uint *word, atomic_uint *sleepers);

/* A count that one thread waits to see reach a target (the tasks of a pass that have returned). */
typedef struct hk_count {
    _Alignas(64) atomic_uint n;
    atomic_uint sleepers;
} hk_count;
void hk_count_init(hk_count *c);
/* Counts the caller in; the one that makes it `target` wakes the waiter. The count is not touched after. */
void hk_count_in(hk_count *c, unsigned target);
void hk_count_await(hk_count *c, unsigned target);

/* What tells a crowded thread: its run delay (/proc/thread-self/schedstat on Linux, open while a region holds the
 * thread), looked at every HK_PACE_NS at most; the average is the thread's own (thread-local). */
typedef struct hk_pace {
    int fd; /* the schedstat file, or -1 (none: a thread is never found crowded) */
} hk_pace;
#define HK_PACE_NS 500000 /* looks at the run delay at most this often [ns] */
void hk_pace_start(hk_pace *p);
/* Looks at the run delay (now [ns of hk_now_ns]): marks the thread crowded when its average share passes
 * HK_CROWD_SHARE. */
void hk_pace_look(hk_pace *p, int64_t now);
void hk_pace_end(hk_pace *p);
/* The calling thread's run delay so far [ns] (the file opened and closed: for a look every few milliseconds), or -1
 * where it cannot be read. */
int64_t hk_run_delay_now(void);

#endif
