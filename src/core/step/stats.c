/* stats.c — energies, stretch and broken-spring counts, and blow-up detection. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "external.h"
#include "part.h"
#include "spring_vec.h"
#include "strain.h"
#include "team.h"
#include "world.h"

/* Particles up to which the check for non-finite values runs on the calling
 * thread (no launch). */
#define HK_STATS_PARALLEL_MIN 65536

/* The energies of the particles [l0, l1) of body b (body-local), in order, added to the relay's state: the
 * kinetic energy and each per-particle force's potential. */
typedef struct particle_sums {
    double kinetic;
    double potential[HK_EXTERNAL_TERM_COUNT];
} particle_sums;

/* The potential of every per-particle force (external.h) is in the total,
 * gravity's also on its own. Built twice like the spring scans
 * (HK_FMA_CLONES): the AVX build's three-operand instructions drop the SSE
 * build's register copies; -ffp-contract=off keeps every product and sum as
 * written, so both give the same bits. */
HK_FMA_CLONES static void particle_energies(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const hk_world *w = ctx;
    particle_sums *s = state;
    const hk_particles *p = &w->p;
    const hk_body *bd = &w->bodies[b];
    const int64_t base = hk_body_base(bd);
    for (int64_t l = l0; l < l1; l++) {
        const int i = (int)(base + l);
        /* every particle's values read before the test, so that the compiler reads the arrays' addresses
         * once, not per particle */
        double m = p->mass[i], vx = p->vx[i], vy = p->vy[i], vz = p->vz[i], x[3];
        hk_particle_position(w, bd, i, x);
        if (p->inv_mass[i] == 0) continue; /* pinned and driven particles carry no free energy */
        s->kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
        hk_external_energy(&w->def, m, x, s->potential);
    }
}

/* The statistics of w whose springs scanned to `springs`: the particles' sums in their global order, relayed
 * from rank to rank on a distributed world (part.h), so every rank gets the one-process bits. */
static hk_stats stats_of(const hk_world *w, const hk_spring_scan *springs)
{
    hk_stats s = {0};
    particle_sums sum = {0};
    hk_part_relay(w, 0, &sum, sizeof sum, particle_energies, (void *)w);
    s.kinetic = sum.kinetic;
    s.gravity = sum.potential[HK_TERM_gravity];
    s.spring = springs->energy;
    s.max_stretch = springs->max_stretch;
    s.total = s.kinetic;
    for (int t = 0; t < HK_EXTERNAL_TERM_COUNT; t++) s.total += sum.potential[t];
    s.total += s.spring;
    int64_t broken = 0; /* a rank counts its own rows' (strain.c): the sum over the ranks */
    for (int f = 0; f < w->family_count; f++) broken += w->families[f].broken_count;
    hk_part_reduce(w, &broken, 1, HK_REDUCE_SUM_I64);
    s.broken = broken;
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

/* The first particle of each array whose value is not finite (INT_MAX:
 * none): each task scans its share of every array in order and the lowest
 * index found wins, as in a serial scan. */
typedef struct finite_pass {
    const hk_real *a[FINITE_ARRAYS];
    atomic_int first[FINITE_ARRAYS];
} finite_pass;

/* A span of the pass: its particles counted from `at`. */
typedef struct finite_range {
    finite_pass *fp;
    int64_t at;
} finite_range;

/* The first particle in [i0, i1) of each array whose value is not finite,
 * lowered into fp->first. Whether there is one at all is found first, by a
 * pass without a branch per value (the compiler vectorises it, eight values
 * at a time in the AVX build of HK_FMA_CLONES); the search for it runs only
 * then. */
HK_FMA_CLONES static void finite_share(void *ctx, int64_t k0, int64_t k1)
{
    const finite_range *fr = ctx;
    finite_pass *fp = fr->fp;
    const int64_t i0 = fr->at + k0, i1 = fr->at + k1;
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
 * array's particles this process computes, on the world's team for a large
 * world and on the calling thread otherwise (a launch would cost more than
 * the test); each array's first such particle is the least global index
 * over the ranks. 1 with *out filled at the first array's first such
 * particle (its global index), else 0. */
static int finite_or_report(const hk_world *w, hk_blowup *out)
{
    finite_pass fp;
    int64_t first[FINITE_ARRAYS];
    for (int k = 0; k < FINITE_ARRAYS; k++) {
        fp.a[k] = *(hk_real *const *)((const char *)&w->p + finite_arrays[k].offset);
        atomic_init(&fp.first[k], INT_MAX);
    }
    int one[2];
    const int *span, spans = hk_world_spans(w, one, &span);
    for (int s = 0; s < spans; s++) {
        const int64_t n = span[2 * s + 1] - span[2 * s];
        const int team = hk_team_size(w, n, HK_STATS_PARALLEL_MIN);
        finite_range fr = {&fp, span[2 * s]};
        if (team > 1)
            hk_team_for(w, team, n, finite_share, &fr);
        else
            finite_share(&fr, 0, n);
    }
    for (int k = 0; k < FINITE_ARRAYS; k++) { /* as global indices */
        const int i = atomic_load_explicit(&fp.first[k], memory_order_relaxed);
        first[k] = i == INT_MAX ? INT64_MAX : hk_global_index(&w->bodies[hk_body_of(w, i)], i);
    }
    hk_part_reduce(w, first, FINITE_ARRAYS, HK_REDUCE_MIN_I64);
    for (int k = 0; k < FINITE_ARRAYS; k++) {
        if (first[k] == INT64_MAX) continue;
        /* the value, from the rank that holds it */
        const int owner = hk_part_rank_of(w, first[k]);
        double value = 0;
        int body = -1;
        for (int b = 0; b < w->body_count; b++)
            if (first[k] >= w->bodies[b].gfirst && first[k] < (int64_t)w->bodies[b].gfirst + w->bodies[b].total)
                body = b;
        if (!w->part || owner == w->part->rank) {
            const hk_body *bd = &w->bodies[body];
            value = fp.a[k][bd->first + (first[k] - bd->gfirst - bd->lo)];
        }
        hk_part_bcast(w, &value, sizeof value, owner);
        out->cause = finite_arrays[k].cause;
        out->particle = (int)first[k];
        out->body = body;
        out->value = value;
        return 1;
    }
    return 0;
}

int hk_world_check_stats(const hk_world *w, double stretch_limit, hk_blowup *out, hk_stats *stats)
{
    hk_state_read(w);
    hk_blowup b = {NULL, -1, -1, -1, -1, 0.0};
    int64_t failed = w->step_failed; /* a step that failed on any rank (every rank goes on to the same verdict) */
    hk_part_reduce(w, &failed, 1, HK_REDUCE_MIN_I64);
    /* a state that is not finite first, failed step or not: a step refused for it (contact's search) is its blow-up */
    if (finite_or_report(w, &b)) {
        *out = b;
        return 1;
    }
    if (failed) {
        static const struct {
            hk_status status;
            const char *cause;
        } failures[] = {
            {HK_ERR_DIVERGED, "implicit solve broke down"},
            {HK_ERR_UNSUPPORTED, "a step could not be taken on the device"},
            {HK_ERR_MEMORY, "a step could not be taken (out of memory)"},
        };
        b.cause = "a step could not be taken (the world's error says why)";
        for (size_t k = 0; k < sizeof failures / sizeof failures[0]; k++)
            if (failed == failures[k].status) b.cause = failures[k].cause;
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
