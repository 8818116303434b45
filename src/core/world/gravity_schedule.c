/* gravity_schedule.c — gravity that changes in time: keyframes, and the gravity of a moment between them. */
/* SPDX-License-Identifier: MIT */
#include "gravity_schedule.h"

#include <math.h>
#include <stdlib.h>

hk_vec3 hk_gravity_at(const hk_world *w, double t)
{
    const hk_gravity_schedule *s = w->gravity_schedule;
    if (!s || s->n == 0) return w->def.gravity;
    double ta = 0;
    hk_vec3 ga = s->g0;
    for (int k = 0; k < s->n; k++) {
        if (t < s->t[k]) { /* between keyframe k - 1 (or the start) and k */
            const double u = s->t[k] > ta ? (t - ta) / (s->t[k] - ta) : 1;
            return (hk_vec3){ga.x + u * (s->g[k].x - ga.x), ga.y + u * (s->g[k].y - ga.y),
                             ga.z + u * (s->g[k].z - ga.z)};
        }
        ta = s->t[k];
        ga = s->g[k];
    }
    return ga; /* after the last: held */
}

int hk_world_set_gravity_schedule(hk_world *w, int count, const double *times, const hk_vec3 *g)
{
    if (count < 0) return hk_fail(w, "set_gravity_schedule: count must be >= 0 (got %d)", count);
    if (count > 0 && (!times || !g)) return hk_fail(w, "set_gravity_schedule: %s is NULL", !times ? "times" : "g");
    for (int k = 0; k < count; k++) {
        if (!(times[k] >= 0) || !isfinite(times[k]))
            return hk_fail(w, "set_gravity_schedule: time %d must be finite and >= 0 s (got %g)", k, times[k]);
        if (k > 0 && times[k] < times[k - 1])
            return hk_fail(w,
                           "set_gravity_schedule: time %d (%g s) is before time %d (%g s): the times must not "
                           "decrease",
                           k, times[k], k - 1, times[k - 1]);
        if (!isfinite(g[k].x) || !isfinite(g[k].y) || !isfinite(g[k].z))
            return hk_fail(w, "set_gravity_schedule: gravity %d must be finite (got %g %g %g)", k, g[k].x, g[k].y,
                           g[k].z);
    }
    const hk_vec3 g0 = w->gravity_schedule ? w->gravity_schedule->g0 : w->def.gravity;
    hk_gravity_schedule_free(w);
    w->def.gravity = g0;
    if (count == 0) return HK_OK;
    hk_gravity_schedule *s = calloc(1, sizeof *s);
    if (s) {
        s->t = malloc((size_t)count * sizeof *s->t);
        s->g = malloc((size_t)count * sizeof *s->g);
    }
    if (!s || !s->t || !s->g) {
        if (s) free(s->t), free(s->g);
        free(s);
        return hk_fail_memory(w, "out of memory for the gravity schedule");
    }
    for (int k = 0; k < count; k++) s->t[k] = times[k], s->g[k] = g[k];
    s->n = count;
    s->g0 = g0;
    w->gravity_schedule = s;
    w->def.gravity = hk_gravity_at(w, w->time);
    return HK_OK;
}

int hk_world_gravity_schedule(const hk_world *w) { return w->gravity_schedule ? w->gravity_schedule->n : 0; }

void hk_gravity_schedule_free(hk_world *w)
{
    if (!w->gravity_schedule) return;
    free(w->gravity_schedule->t);
    free(w->gravity_schedule->g);
    free(w->gravity_schedule);
    w->gravity_schedule = NULL;
}
