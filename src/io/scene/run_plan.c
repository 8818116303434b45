/* run_plan.c — a run's effective settings (hk_run_plan_of): its length in steps, its output interval, its stretch
 * limit, where the run settings leave them open. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hooke/hooke.h"

/* The reason into err, *plan zeroed: HK_ERR_INVALID. */
static int refuse(hk_run_plan *plan, char *err, size_t errlen, const char *fmt, ...)
{
    if (plan) memset(plan, 0, sizeof *plan);
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return HK_ERR_INVALID;
}

int hk_run_plan_of(const hk_run_settings *run, hk_run_plan *plan, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!run || !plan) return refuse(plan, err, errlen, "no run settings or no plan given");
    if (run->steps < 0) return refuse(plan, err, errlen, "steps must be >= 0 (got %lld)", (long long)run->steps);
    if (!(run->time >= 0) || isinf(run->time))
        return refuse(plan, err, errlen, "time must be 0 or a finite number of seconds > 0 (got %g)", run->time);
    if (run->every < 0) return refuse(plan, err, errlen, "every must be >= 0 (got %lld)", (long long)run->every);
    if (!(run->stretch_limit == 0 || run->stretch_limit > 1) || isinf(run->stretch_limit))
        return refuse(plan, err, errlen, "stretch_limit must be 0 (not given) or a finite ratio > 1 (got %g)",
                      run->stretch_limit);
    int64_t steps = run->steps;
    if (steps == 0) {
        const double t = run->time, dt = run->integrator.dt;
        if (t == 0) return refuse(plan, err, errlen, "no run length: steps and time are both 0");
        if (!(dt > 0) || isinf(dt))
            return refuse(plan, err, errlen, "integrator.dt must be a finite number of seconds > 0 (got %g)", dt);
        const double n = ceil(t / dt * (1 - 1e-12)); /* a time that is a whole number of steps, to rounding */
        if (!(n <= HK_RUN_MAX_STEPS))
            return refuse(plan, err, errlen,
                          "time %g s at dt = %g s is %.3g steps, more than a run can count (%.3g): shorten the run "
                          "or lengthen dt",
                          t, dt, n, HK_RUN_MAX_STEPS);
        steps = n < 1 ? 1 : (int64_t)n;
    }
    plan->steps = steps;
    plan->every_given = run->every > 0;
    /* about HK_RUN_OUTPUTS in the run (every step wrote 904 files for a 300-step rope), at least 1 */
    plan->every = run->every > 0 ? run->every : steps / HK_RUN_OUTPUTS + (steps % HK_RUN_OUTPUTS != 0);
    plan->stretch_limit = run->stretch_limit > 0 ? run->stretch_limit : HK_STRETCH_LIMIT;
    return HK_OK;
}
