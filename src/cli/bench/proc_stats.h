/* proc_stats.h — what the kernel says of this process: resident memory now, at most and over its life, and how long
 * its threads waited for a core (/proc/self). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PROC_STATS_H
#define HOOKE_PROC_STATS_H

/* The resident memory of this process now (VmRSS) and at most since the last hk_proc_reset_peak (VmHWM) [B]; NaN
 * where /proc/self/status cannot be read. */
void hk_proc_resident(double *rss, double *peak);

/* Lowers VmHWM to the resident memory now, so that it measures what follows (Linux 4.0 and later; where it cannot,
 * VmHWM stays the process's largest so far). The peak it lowers is kept for hk_proc_lifetime_peak. */
void hk_proc_reset_peak(void);

/* The most resident memory this process has had since it started, over every hk_proc_reset_peak [B]; NaN where
 * /proc/self/status cannot be read. */
double hk_proc_lifetime_peak(void);

/* The time every thread of this process has spent runnable but kept off a core by the scheduler, summed over the
 * threads alive now (the second field of /proc/self/task/TID/schedstat) [s]; -1 where the kernel does not keep it.
 * A thread that has ended takes its share with it, so the difference of two readings counts the threads alive at
 * the second: a thread pool's, which lives on. */
double hk_proc_run_delay(void);

#endif
