/* stats.c — energies, stretch and broken-spring counts, and blow-up detection. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdatomic.h>

#include "external.h"
#include "strain.h"
#include "team.h"
#include "world.h"

/* Particles up to which the check for non-finite values runs on one task. */
#define HK_STATS_PARALLEL_MIN 65536

/* The statistics of w whose springs scanned to `springs`. */
/* The potential of every per-particle force (external.h) is in the total,
 * gravity's also on its own. */
static hk_stats stats_of(const hk_world *w, const hk_spring_scan *springs)
{
    hk_stats s = {0};
    const hk_particles *p = &w->p;
    double potential[HK_EXTERNAL_TERM_COUNT] = {0};
    for (int b = 0; b < w->body_count; b++) {
        const hk_body *bd = &w->bodies[b];
        for (int i = bd->first; i < bd->first + bd->count; i++) {
            if (p->inv_mass[i] == 0) continue; /* pinned and driven particles carry no free energy */
            double m = p->mass[i], vx = p->vx[i], vy = p->vy[i], vz = p->vz[i], x[3];
            hk_particle_position(w, bd, i, x);
            s.kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
            hk_external_energy(&w->def, m, x, potential);
        }
    }
    s.gravity = potential[HK_TERM_gravity];
    s.spring = springs->energy;
    s.max_stretch = springs->max_stretch;
    s.total = s.kinetic;
    for (int t = 0; t < HK_EXTERNAL_TERM_COUNT; t++) s.total += potential[t];
    s.total += s.spring;
    for (int f = 0; f < w->family_count; f++) s.broken += w->families[f].broken_count;
    return s;
}

hk_stats hk_world_stats(const hk_world *w)
{
    const hk_spring_scan springs = hk_springs_scan(w);
    return stats_of(w, &springs);
}

/* The first particle whose value in `a` is not finite: each task scans its
 * share in order and the lowest index found wins, as in a serial scan. */
typedef struct finite_pass {
    const hk_real *a;
    atomic_int first;
} finite_pass;

static void finite_share(void *ctx, int64_t i0, int64_t i1)
{
    finite_pass *fp = ctx;
    for (int64_t i = i0; i < i1; i++)
        if (!isfinite(fp->a[i])) {
            int seen = atomic_load_explicit(&fp->first, memory_order_relaxed);
            while ((int)i < seen && !atomic_compare_exchange_weak_explicit(&fp->first, &seen, (int)i,
                                                                           memory_order_relaxed, memory_order_relaxed))
                ;
            return;
        }
}

static int finite_or_report(const hk_world *w, const hk_real *a, const char *cause, hk_blowup *out)
{
    const int n = w->p.count;
    finite_pass fp = {.a = a};
    atomic_init(&fp.first, n);
    hk_team_for(w, hk_team_size(w, n, HK_STATS_PARALLEL_MIN), n, finite_share, &fp);
    const int first = atomic_load(&fp.first);
    if (first == n) return 0;
    out->cause = cause;
    out->particle = first;
    out->body = hk_body_of(w, first);
    out->value = a[first];
    return 1;
}

int hk_world_check_stats(const hk_world *w, double stretch_limit, hk_blowup *out, hk_stats *stats)
{
    hk_blowup b = {NULL, -1, -1, -1, -1, 0.0};
    const hk_particles *p = &w->p;
    if (w->step_failed) {
        b.cause = w->step_failed == HK_ERR_DIVERGED ? "implicit solve broke down" : "a step could not be taken (out of memory)";
        *out = b;
        return 1;
    }
    if (finite_or_report(w, p->qx, "non-finite position", &b) ||
        finite_or_report(w, p->qy, "non-finite position", &b) ||
        finite_or_report(w, p->qz, "non-finite position", &b) ||
        finite_or_report(w, p->vx, "non-finite velocity", &b) ||
        finite_or_report(w, p->vy, "non-finite velocity", &b) ||
        finite_or_report(w, p->vz, "non-finite velocity", &b)) {
        *out = b;
        return 1;
    }
    if (!(stretch_limit > 0) && !stats) return 0;
    const hk_spring_scan springs = hk_springs_scan(w);
    if (stretch_limit > 0 && springs.family >= 0 && springs.max_stretch > stretch_limit) {
        b.cause = "runaway stretch";
        b.family = springs.family;
        b.spring = springs.slot;
        b.body = w->families[springs.family].body;
        b.value = springs.max_stretch;
        *out = b;
        return 1;
    }
    if (stats) *stats = stats_of(w, &springs);
    return 0;
}

int hk_world_check(const hk_world *w, double stretch_limit, hk_blowup *out)
{
    return hk_world_check_stats(w, stretch_limit, out, NULL);
}
