/* gravity_schedule.h — gravity that changes in time: keyframes, and the gravity of a moment between them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_GRAVITY_SCHEDULE_H
#define HOOKE_GRAVITY_SCHEDULE_H

#include "world.h"

/* A world's gravity schedule (hk_world_set_gravity_schedule): g(t) piecewise linear through (0, g0), (t[0], g[0]),
 * ..., (t[n-1], g[n-1]), held after the last; at a time two keyframes share, it jumps to the later one's. */
typedef struct hk_gravity_schedule {
    int n;
    double *t;  /* [s], nondecreasing, >= 0 */
    hk_vec3 *g; /* [m/s^2] */
    hk_vec3 g0; /* the world's gravity when the schedule was set [m/s^2] */
} hk_gravity_schedule;

/* g(t) of w's schedule [m/s^2]; the world's gravity where it has none. */
hk_vec3 hk_gravity_at(const hk_world *w, double t);
/* The gravity of w's schedule at time t, into w's definition (the forces read it there). */
static inline void hk_gravity_follow(hk_world *w, double t)
{
    if (w->gravity_schedule) w->def.gravity = hk_gravity_at(w, t);
}
/* Frees w's schedule (the world's end). */
void hk_gravity_schedule_free(hk_world *w);

#endif
