/* stats.c — energies, stretch and broken-spring counts, and blow-up detection. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>

#include "external.h"
#include "spring_vec.h"
#include "strain.h"
#include "team.h"
#include "world.h"

/* Particles up to which the check for non-finite values runs on the calling
 * thread (no launch). */
#define HK_STATS_PARALLEL_MIN 65536

/* The statistics of w whose springs scanned to `springs`. */
/* The potential of every per-particle force (external.h) is in the total,
 * gravity's also on its own. Built twice like the spring scans
 * (HK_FMA_CLONES): the AVX build's three-operand instructions drop the SSE
 * build's register copies; -ffp-contract=off keeps every product and sum as
 * written, so both give the same bits. */
HK_FMA_CLONES static hk_stats stats_of(const hk_world *w, const hk_spring_scan *springs)
{
    hk_stats s = {0};
    const hk_particles *p = &w->p;
    double potential[HK_EXTERNAL_TERM_COUNT] = {0};
    for (int b = 0; b < w->body_count; b++) {
        const hk_body *bd = &w->bodies[b];
        for (int i = bd->first; i < bd->first + bd->count; i++) {
            /* every particle's values read before the test, so that the compiler reads the arrays' addresses
             * once, not per particle */
            double m = p->mass[i], vx = p->vx[i], vy = p->vy[i], vz = p->vz[i], x[3];
            hk_particle_position(w, bd, i, x);
            if (p->inv_mass[i] == 0) continue; /* pinned and driven particles carry no free energy */
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
    hk_state_read(w);
    const hk_spring_scan springs = hk_springs_scan(w);
    return stats_of(w, &springs);
}

/* The arrays the check for non-finite values tests, in the order its
 * verdicts rank (the first array with one names the cause), and each one's
 * cause. */
static const struct {
    size_t offset; /* of the array's pointer in hk_particles */
    const char *cause;
} finite_arrays[] = {
    {offsetof(hk_particles, qx), "non-finite position"}, {offsetof(hk_particles, qy), "non-finite position"},
    {offsetof(hk_particles, qz), "non-finite position"}, {offsetof(hk_particles, vx), "non-finite velocity"},
    {offsetof(hk_particles, vy), "non-finite velocity"}, {offsetof(hk_particles, vz), "non-finite velocity"},
};
enum { FINITE_ARRAYS = sizeof finite_arrays / sizeof finite_arrays[0] };

/* The first particle of each array whose value is not finite (the particle
 * count: none): each task scans its share of every array in order and the
 * lowest index found wins, as in a serial scan. */
typedef struct finite_pass {
    const hk_real *a[FINITE_ARRAYS];
    atomic_int first[FINITE_ARRAYS];
} finite_pass;

/* The first particle in [i0, i1) of each array whose value is not finite,
 * lowered into fp->first. Whether there is one at all is found first, by a
 * pass without a branch per value (the compiler vectorises it, eight values
 * at a time in the AVX build of HK_FMA_CLONES); the search for it runs only
 * then. */
HK_FMA_CLONES static void finite_share(void *ctx, int64_t i0, int64_t i1)
{
    finite_pass *fp = ctx;
    int any = 0;
    for (int64_t i = i0; i < i1; i++)
        for (int k = 0; k < FINITE_ARRAYS; k++) any |= !isfinite(fp->a[k][i]);
    if (!any) return;
    for (int k = 0; k < FINITE_ARRAYS; k++)
        for (int64_t i = i0; i < i1; i++) {
            if (isfinite(fp->a[k][i])) continue;
            int seen = atomic_load_explicit(&fp->first[k], memory_order_relaxed);
            while ((int)i < seen && !atomic_compare_exchange_weak_explicit(&fp->first[k], &seen, (int)i,
                                                                           memory_order_relaxed, memory_order_relaxed))
                ;
            break;
        }
}

/* The check for non-finite positions and velocities: one pass over every
 * array, on the world's team for a large world and on the calling thread
 * otherwise (a launch would cost more than the test). 1 with *out filled at
 * the first array's first such particle, else 0. */
static int finite_or_report(const hk_world *w, hk_blowup *out)
{
    const int n = w->p.count;
    finite_pass fp;
    for (int k = 0; k < FINITE_ARRAYS; k++) {
        fp.a[k] = *(hk_real *const *)((const char *)&w->p + finite_arrays[k].offset);
        atomic_init(&fp.first[k], n);
    }
    const int team = hk_team_size(w, n, HK_STATS_PARALLEL_MIN);
    if (team > 1)
        hk_team_for(w, team, n, finite_share, &fp);
    else
        finite_share(&fp, 0, n);
    for (int k = 0; k < FINITE_ARRAYS; k++) {
        const int first = atomic_load_explicit(&fp.first[k], memory_order_relaxed);
        if (first == n) continue;
        out->cause = finite_arrays[k].cause;
        out->particle = first;
        out->body = hk_body_of(w, first);
        out->value = fp.a[k][first];
        return 1;
    }
    return 0;
}

int hk_world_check_stats(const hk_world *w, double stretch_limit, hk_blowup *out, hk_stats *stats)
{
    hk_state_read(w);
    hk_blowup b = {NULL, -1, -1, -1, -1, 0.0};
    if (w->step_failed) {
        b.cause = w->step_failed == HK_ERR_DIVERGED       ? "implicit solve broke down"
                  : w->step_failed == HK_ERR_UNSUPPORTED ? "a step could not be taken on the device"
                                                         : "a step could not be taken (out of memory)";
        *out = b;
        return 1;
    }
    if (finite_or_report(w, &b)) {
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
