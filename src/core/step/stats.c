/* stats.c — energies, stretch and broken-spring counts, and blow-up detection. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "external.h"
#include "state_sums.h"
#include "part.h"
#include "spring_vec.h"
#include "strain.h"
#include "team.h"
#include "world.h"

/* Particles up to which the check for non-finite values runs on the calling
 * thread (no launch). */
#define HK_STATS_PARALLEL_MIN 65536

/* What the particles' energies relay carries (state_sums.h): the blocks summed so far, the block in progress and its
 * index (-1: none yet). */
typedef struct energy_relay {
    hk_particle_sums done, open;
    int64_t block;
} energy_relay;

/* The energies of the particles [l0, l1) of body b (body-local), in order, added to the relay's state, each block of
 * HK_SUMS_BLOCK particles (in their global order) from zero. Built twice like the spring scans (HK_FMA_CLONES): the
 * AVX build's three-operand instructions drop the SSE build's register copies; -ffp-contract=off keeps every product
 * and sum as written, so both give the same bits. */
HK_FMA_CLONES static void particle_energies(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const hk_world *w = ctx;
    energy_relay *s = state;
    const hk_particles *p = &w->p;
    const hk_body *bd = &w->bodies[b];
    const int64_t base = hk_body_base(bd);
    for (int64_t l = l0; l < l1;) {
        const int64_t block = ((int64_t)bd->gfirst + l) / HK_SUMS_BLOCK, end = (block + 1) * HK_SUMS_BLOCK - bd->gfirst,
                      stop = end < l1 ? end : l1;
        if (block != s->block) {
            if (s->block >= 0) hk_particle_sums_add(&s->done, &s->open);
            s->open = hk_particle_sums_zero();
            s->block = block;
        }
        for (; l < stop; l++) {
            const int i = (int)(base + l);
            /* every particle's values read before the test, so that the compiler reads the arrays' addresses
             * once, not per particle */
            double m = p->mass[i], v[3] = {p->vx[i], p->vy[i], p->vz[i]}, x[3];
            hk_particle_position(w, bd, i, x);
            if (p->inv_mass[i] == 0) continue; /* pinned and driven particles carry no free energy */
            hk_particle_energy(&w->def, m, v, x, &s->open);
        }
    }
}

/* The particles' energies in their global order, relayed from rank to rank on a distributed world (part.h), so every
 * rank gets the one-process bits. */
static hk_particle_sums particle_sums(const hk_world *w)
{
    energy_relay st = {hk_particle_sums_zero(), hk_particle_sums_zero(), -1};
    hk_part_relay(w, 0, &st, sizeof st, particle_energies, (void *)w);
    if (st.block >= 0) hk_particle_sums_add(&st.done, &st.open);
    return st.done;
}

/* The statistics of w from its springs' scan, its particles' energies and its broken springs (every rank's). */
static hk_stats stats_of(const hk_spring_scan *springs, const hk_particle_sums *sum, int64_t broken)
{
    hk_stats s = {0};
    s.kinetic = sum->kinetic;
    s.gravity = sum->potential[HK_TERM_gravity];
    s.spring = springs->energy;
    s.max_stretch = springs->max_stretch;
    s.total = s.kinetic;
    for (int t = 0; t < HK_EXTERNAL_TERM_COUNT; t++) s.total += sum->potential[t];
    s.total += s.spring;
    s.broken = broken;
    return s;
}

/* The broken springs of every family: a rank counts its own rows' (strain.c), the sum over the ranks. */
static int64_t broken_springs(const hk_world *w)
{
    int64_t broken = 0;
    for (int f = 0; f < w->family_count; f++) broken += w->families[f].broken_count;
    hk_part_reduce(w, &broken, 1, HK_REDUCE_SUM_I64);
    return broken;
}

/* On a device whose state is newer than the host's, its sums of `what` (state_sums.h) where it lies: 1 with *out;
 * else 0, the state read back for the host's passes. */
static int device_sums(const hk_world *w, int what, hk_device_sums *out)
{
    if (w->device_newer && w->device_sums && w->device_sums(w, what, out) == 0) return 1;
    hk_state_read(w);
    return 0;
}

hk_stats hk_world_stats(const hk_world *w)
{
    hk_device_sums ds;
    if (device_sums(w, HK_SUMS_SCAN | HK_SUMS_ENERGY, &ds)) return stats_of(&ds.scan, &ds.particles, ds.broken);
    const hk_spring_scan springs = hk_springs_scan(w);
    const hk_particle_sums sum = particle_sums(w);
    return stats_of(&springs, &sum, broken_springs(w));
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
_Static_assert((int)FINITE_ARRAYS == (int)HK_FINITE_ARRAYS,
               "a device's check tests the arrays of this table (state_sums.h)");

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
    /* on a device, its sums where the state lies: the state comes back only when the check fires */
    hk_device_sums ds;
    const int what = (stretch_limit > 0 || stats ? HK_SUMS_SCAN : 0) | (stats ? HK_SUMS_ENERGY : 0);
    const int on_device = device_sums(w, what, &ds);
    int nonfinite = !on_device; /* whether the host's pass looks for a value that is not finite */
    for (int k = 0; on_device && k < HK_FINITE_ARRAYS; k++) nonfinite |= ds.first[k] != INT64_MAX;
    if (on_device && nonfinite) hk_state_read(w); /* the report's value, from the host's pass */
    hk_blowup b = {NULL, -1, -1, -1, -1, 0.0};
    int64_t failed = w->step_failed; /* a step that failed on any rank (every rank goes on to the same verdict) */
    hk_part_reduce(w, &failed, 1, HK_REDUCE_MIN_I64);
    /* a state that is not finite first, failed step or not: a step refused for it (contact's search) is its blow-up */
    if (nonfinite && finite_or_report(w, &b)) {
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
    const hk_spring_scan springs = on_device ? ds.scan : hk_springs_scan(w);
    if (stretch_limit > 0 && springs.family >= 0 && springs.max_stretch > stretch_limit) {
        hk_state_read(w); /* a device's state, for what reads the blow-up next */
        b.cause = "runaway stretch";
        b.family = springs.family;
        b.spring = springs.slot;
        b.body = w->families[springs.family].body;
        b.value = springs.max_stretch;
        *out = b;
        return 1;
    }
    if (stats && on_device) *stats = stats_of(&springs, &ds.particles, ds.broken);
    if (stats && !on_device) {
        const hk_particle_sums sum = particle_sums(w);
        *stats = stats_of(&springs, &sum, broken_springs(w));
    }
    return 0;
}

int hk_world_check(const hk_world *w, double stretch_limit, hk_blowup *out)
{
    return hk_world_check_stats(w, stretch_limit, out, NULL);
}
