/* reference.c — the stability profiler's converged reference: implicit Euler landing on the runs' times. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "env.h"
#include "scene.h"

double hk_thread_cpu_s(void)
{
    struct timespec t;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return NAN;
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void hk_reference_checks(double dt, double time, int64_t steps[HK_REF_CHECKS])
{
    const int64_t window = (int64_t)ceil(time / dt);
    for (int q = 1; q <= HK_REF_CHECKS; q++) steps[q - 1] = (window * q + HK_REF_CHECKS - 1) / HK_REF_CHECKS;
}

int hk_reference_plan(hk_reference *r, const double *dts, int points, double time, double dt_ref, int n)
{
    memset(r, 0, sizeof *r);
    r->dt = dt_ref;
    r->time = time;
    r->n = n;
    r->own_error = r->max_stretch = r->cpu_per_s = r->cg_per_step = r->size = NAN;
    if (!(dt_ref > 0)) return 0;
    r->slots = points * HK_REF_CHECKS;
    r->t = malloc((size_t)r->slots * sizeof *r->t);
    for (int k = 0; k < 2; k++) r->x[k] = malloc((size_t)r->slots * (size_t)n * 3 * sizeof(double));
    r->inv_mass = calloc((size_t)(n > 0 ? n : 1), sizeof *r->inv_mass);
    if (!r->t || !r->x[0] || !r->x[1] || !r->inv_mass) return -1;
    double last = 0;
    for (int i = 0; i < points; i++) {
        int64_t at[HK_REF_CHECKS];
        hk_reference_checks(dts[i], time, at);
        for (int q = 0; q < HK_REF_CHECKS; q++) r->t[i * HK_REF_CHECKS + q] = (double)at[q] * dts[i];
        last = fmax(last, r->t[i * HK_REF_CHECKS + HK_REF_CHECKS - 1]);
    }
    r->steps[0] = (int64_t)ceil(last / dt_ref);
    r->steps[1] = (int64_t)ceil(last / (2 * dt_ref));
    return 0;
}

/* The slots in the order of their times (ties by slot). */
static int *time_order(const hk_reference *r)
{
    int *o = malloc((size_t)r->slots * sizeof *o);
    if (!o) return NULL;
    for (int i = 0; i < r->slots; i++) {
        int j = i;
        for (; j > 0 && r->t[o[j - 1]] > r->t[i]; j--) o[j] = o[j - 1];
        o[j] = i;
    }
    return o;
}

/* A reference run under way: its world, its integrator, and what it has measured. */
typedef struct ref_run {
    hk_world *w;
    hk_integrator_def def;
    char *why; /* "" while it goes on */
    size_t why_len;
    double t, cpu, stretch; /* its time [s] (kept by the caller), its steps' CPU time [s], the largest r / L0 [1] */
    double until;           /* the stretch is taken over the steps that end by this time [s] */
    int64_t steps;
} ref_run;

/* One step of h (the integrator set to it when it is not), its cost and its check; why set if it failed. */
static void advance(ref_run *u, double h)
{
    const double c0 = hk_thread_cpu_s();
    if (u->def.dt != h) {
        u->def.dt = h;
        if (hk_world_set_integrator(u->w, &u->def) != 0) {
            snprintf(u->why, u->why_len, "%s", hk_world_error(u->w));
            return;
        }
    }
    const hk_status rc = hk_world_step(u->w);
    u->cpu += hk_thread_cpu_s() - c0;
    u->steps++;
    hk_blowup b;
    hk_stats st;
    if (rc != HK_OK)
        snprintf(u->why, u->why_len, "%s", hk_world_error(u->w));
    else if (hk_world_check_stats(u->w, 0, &b, &st))
        snprintf(u->why, u->why_len, "%s at t = %g s", b.cause, hk_world_time(u->w));
    else if (u->t + h <= u->until)
        u->stretch = fmax(u->stretch, st.max_stretch);
}

/* The bodies' size: the diagonal of the box around every particle [m]. */
static double size_of(const hk_world *w, int n)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++) {
        const hk_vec3 p = hk_world_position(w, i);
        const double c[3] = {p.x, p.y, p.z};
        for (int d = 0; d < 3; d++) {
            lo[d] = fmin(lo[d], c[d]);
            hi[d] = fmax(hi[d], c[d]);
        }
    }
    return n > 0 ? sqrt(pow(hi[0] - lo[0], 2) + pow(hi[1] - lo[1], 2) + pow(hi[2] - lo[2], 2)) : 0;
}

int hk_reference_run(hk_reference *r, const char *scene, int which, char *err, size_t errlen)
{
    if (!(r->dt > 0)) return 0;
    hk_scene sc;
    hk_world_def base;
    if (hk_env_world_def(&base, err, errlen) != 0 || hk_scene_load_on(scene, &base, &sc, err, errlen) != 0) return -1;
    ref_run u = {.w = sc.world, .def = sc.integrator, .why = r->why[which], .why_len = sizeof r->why[which]};
    u.until = r->time * (1 + 1e-9);
    u.stretch = hk_world_stats(u.w).max_stretch;
    u.def.kind = HK_IMPLICIT_EULER;
    u.def.dt = 0; /* set by the first step */
    u.def.dt_max = 0;
    u.def.cg_stop = HK_CG_STOP_RELATIVE;
    u.def.cg_tolerance = HK_REF_CG_TOLERANCE;
    u.def.newton_iterations = HK_REF_NEWTON;
    const hk_particles_view v = hk_world_particles(u.w);
    int *order = time_order(r);
    if (!order || v.count != r->n) {
        snprintf(u.why, u.why_len, order ? "the scene has another particle count now" : "out of memory");
        free(order);
        hk_scene_free(&sc);
        return 0;
    }
    if (which == 0) {
        r->size = size_of(u.w, r->n);
        for (int i = 0; i < r->n; i++) r->inv_mass[i] = v.inv_mass[i];
    }
    const double h = which ? 2 * r->dt : r->dt;
    /* a time is reached when less than this is left: a millionth of a step, or less than a step may be */
    const double near = fmax(1e-6 * h, hk_bound_of(HK_BOUND_DT)->min);
    double landed = 0; /* the last time landed on; the time is landed + m h after m whole steps since */
    for (int k = 0; k < r->slots && !*u.why; k++) {
        const int s = order[k];
        /* whole steps while more than a step is left, then one step of what is left, landing on the time */
        for (int64_t m = 1; !*u.why && r->t[s] - u.t > h + near; m++) {
            advance(&u, h);
            u.t = landed + (double)m * h;
        }
        if (!*u.why && r->t[s] - u.t > near) advance(&u, r->t[s] - u.t);
        u.t = landed = r->t[s];
        if (!*u.why) hk_world_positions(u.w, 0, r->n, r->x[which] + (size_t)s * (size_t)r->n * 3);
    }
    r->steps[which] = u.steps;
    if (which == 0 && !*u.why) {
        r->max_stretch = u.stretch;
        r->cpu_per_s = u.t > 0 ? u.cpu / u.t : NAN;
        r->cg_per_step = u.steps > 0 ? (double)hk_world_solver_stats(u.w).cg_total / (double)u.steps : 0;
    }
    free(order);
    hk_scene_free(&sc);
    return 0;
}

/* The RMS distance of places a from places b over the free particles (inverse mass > 0). */
static double rms(const double *a, const double *b, int n, const double *inv_mass)
{
    double sum = 0;
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!(inv_mass[i] > 0)) continue;
        const double dx = a[3 * i] - b[3 * i], dy = a[3 * i + 1] - b[3 * i + 1], dz = a[3 * i + 2] - b[3 * i + 2];
        sum += dx * dx + dy * dy + dz * dz;
        count++;
    }
    return count ? sqrt(sum / count) : 0;
}

void hk_reference_finish(hk_reference *r)
{
    r->ok = r->dt > 0 && !r->why[0][0] && !r->why[1][0];
    if (r->ok) {
        r->own_error = 0;
        for (int s = 0; s < r->slots; s++) {
            const size_t at = (size_t)s * (size_t)r->n * 3;
            r->own_error = fmax(r->own_error, rms(r->x[0] + at, r->x[1] + at, r->n, r->inv_mass));
        }
    }
    free(r->x[1]);
    r->x[1] = NULL;
}

double hk_reference_error(const hk_reference *r, int slot, const hk_world *w)
{
    if (!r->ok) return NAN;
    HK_ASSERT(hk_world_particles(w).count == r->n && slot >= 0 && slot < r->slots);
    double *x = malloc((size_t)r->n * 3 * sizeof *x);
    if (!x) return NAN;
    hk_world_positions(w, 0, r->n, x);
    const double e = rms(x, r->x[0] + (size_t)slot * (size_t)r->n * 3, r->n, r->inv_mass);
    free(x);
    return e;
}

void hk_reference_free(hk_reference *r)
{
    free(r->t);
    free(r->x[0]);
    free(r->x[1]);
    free(r->inv_mass);
    memset(r, 0, sizeof *r);
}
