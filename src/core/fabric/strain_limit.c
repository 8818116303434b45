/* strain_limit.c — springs kept within their strain limits: a projection after each substep, colour by colour. */
/* SPDX-License-Identifier: MIT */
#include "strain_limit.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "check.h"
#include "constraints.h"
#include "kernels.h"
#include "moves.h"
#include "part.h"
#include "tethers.h"
#include "spring_vec.h"

/*
 * After an integrator's substep h, every spring of a family with limits (ratios hi = 1 + strain_limit, lo = 1 -
 * compress_limit, or 0 without one) whose length r lies past hi L0 or below lo L0 is projected to just inside the
 * limit: its ends, a and b (d = x_a - x_b, inverse masses w_a, w_b, W = w_a + w_b), move along d by
 *   x_a -= w_a g d,  x_b += w_b g d,  g = (r - r*) / (r W),   r* = (1 + 0.98 (hi - 1)) L0 or (1 - 0.98 (1 - lo)) L0
 * (the length r* and the centre of mass kept; a pinned or driven end, w = 0, stays), and their velocities by the
 * same moves over h, v_a -= w_a g d / h, v_b += w_b g d / h: the substep's displacement is then the velocity's, as a
 * position-based solver's is (a spring held at its limit moves its ends as one along it: a cloth hanging at its
 * limit hangs at rest), and the momentum is kept. The first projection of limits just set (a new world's, or
 * hk_world_set_strain_limits'), which may find springs far past them, moves the particles without giving them the
 * moves as velocity: a limit set on a stretched cloth pulls it back in, it does not launch it. The integrators'
 * history takes the same changes: the implicit integrators' velocity change takes the velocity's and bdf2's
 * displacement the move; position Verlet's previous positions move by the move less h times the velocity's change,
 * so that its velocity (x - x_prev) / h changes as v does.
 * A projected spring is left inside its limit by 2 % of the limit's width (GIVE; 1.049 L0 for a limit of 0.05, and
 * at least 2^10 of the precision's epsilon, 1.2e-4 in float, of its length, so that its length formed again from
 * rounded positions stays inside): the small moves its neighbours' projections give it then leave it within the
 * limit, and the sweeps end in tens, not hundreds, where every spring of a long chain is at its limit.
 *
 * The springs are swept in the colours of iterate/constraints.h: a colour's springs share no particle, so they are
 * projected in any order, on any number of tasks, with the same bits; the colours follow each other in order (the
 * serial list colour on one task), and a sweep follows another until one moves nothing: then every spring is
 * within its limits at once, and that sweep measured them. At w->def.strain_sweeps sweeps a last sweep measures
 * what is left (hk_strain_stats unconverged). A lattice row is first measured by one vectorised pass (its largest
 * and smallest r^2: kernel_table.h length2_range); only a row with a spring past a limit, or of a breakable family,
 * is projected spring by spring.
 */

/* A family's limits as lengths in the kernels' precision: a spring is past them where r > top or r < bottom, and
 * is projected to aim_top or aim_bottom. */
typedef struct limits {
    hk_real top, bottom, aim_top, aim_bottom;
} limits;

/* What one task found in one sweep (its slot, a cache line of its own). */
typedef struct limit_part {
    double max, min; /* r / L0 */
    int64_t moved;   /* springs projected */
    int64_t over;    /* springs found past a limit (moved, or held by both ends) */
    char pad[32];
} limit_part;

/* What the sweeps read, and what they leave (task 0 writes the figures). */
typedef struct limit_pass {
    hk_particles *p;
    const hk_family *fams;
    const hk_constraints *c;
    const hk_kernels *k;   /* the world's path; NULL: the reference path */
    const double *hi, *lo; /* per family: the limit ratios, hi 0 where the family has no limit */
    int families;
    const int *lat; /* the lattice families with a limit, in order (a body's together) */
    int lat_count;
    const limits *fam_limits; /* per family: its limits for the family's rest length L0 (lattice, list default) */
    hk_moves mv;       /* what a move changes (moves.h) */
    int sweeps_max, T; /* T: the team asked for; the team that runs may be smaller (team.h) */
    limit_part *part;  /* [2][T]: the sweeps' slots, by the sweep's parity */
    limit_part first, last;
    int64_t projected;
    int sweeps;
} limit_pass;

/* What a projected spring is left inside its limit: the part GIVE of the limit's width (a stretch limit of 0.05 leaves
 * it at 1.049 L0), at least 2^10 of the precision's epsilon (1.2e-4 in float) of its length. */
#define GIVE 0.02
static hk_real margin(void) { return (hk_real)ldexp(sizeof(hk_real) == 8 ? 0x1p-52 : 0x1p-23, 10); }

/* The next value of the build's precision after x toward y. */
static hk_real next_real(hk_real x, hk_real y)
{
#ifdef HOOKE_DOUBLE
    return nextafter(x, y);
#else
    return nextafterf(x, y);
#endif
}

/* L0's limits: the largest length within hi L0 and the smallest within lo L0, in the kernels' precision. */
static limits limits_of(double hi, double lo, hk_real L0)
{
    const double t = hi * (double)L0, b = lo * (double)L0;
    limits l;
    l.top = (hk_real)t;
    if ((double)l.top > t) l.top = next_real(l.top, 0);
    l.bottom = (hk_real)b;
    if ((double)l.bottom < b) l.bottom = next_real(l.bottom, INFINITY);
    const hk_real give_top = (hk_real)((1 + (hi - 1) * (1 - GIVE)) * (double)L0), least_top = l.top * (1 - margin());
    const hk_real give_bottom = (hk_real)((1 - (1 - lo) * (1 - GIVE)) * (double)L0);
    const hk_real least_bottom = l.bottom * (1 + margin());
    l.aim_top = give_top < least_top ? give_top : least_top;
    l.aim_bottom = lo > 0 && give_bottom > least_bottom ? give_bottom : least_bottom;
    return l;
}

/* One spring (its family f, slot, global ends a, b, rest length L0): measured into pt, projected when past a limit
 * (project: 1; else measured only). */
static inline __attribute__((always_inline)) void limit_one(const limit_pass *s, const hk_family *f, int64_t slot,
                                                            int64_t a, int64_t b, hk_real L0, const limits *l,
                                                            int project, limit_part *pt)
{
    if (f->broken && f->broken[slot]) return;
    hk_particles *p = s->p;
    hk_real d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    const hk_real r = hk_spring_length(d[0], d[1], d[2]);
    const double ratio = (double)r / (double)L0;
    pt->max = ratio > pt->max ? ratio : pt->max;
    pt->min = ratio < pt->min ? ratio : pt->min;
    if (!(r > l->top) && !(r < l->bottom)) return;
    pt->over++;
    const hk_real wa = p->inv_mass[a], wb = p->inv_mass[b], W = wa + wb;
    if (!project || W == 0 || r == 0) return;
    const hk_real g = (r - (r > l->top ? l->aim_top : l->aim_bottom)) / (r * W);
    const hk_real ma[3] = {wa * (g * d[0]), wa * (g * d[1]), wa * (g * d[2])};
    const hk_real mb[3] = {wb * (g * d[0]), wb * (g * d[1]), wb * (g * d[2])};
    hk_move(&s->mv, a, ma, -1);
    hk_move(&s->mv, b, mb, 1);
    pt->moved++;
}

/* The first look at span springs of lattice family f from global particle a0 on (kernel_table.h length2_range):
 * their largest and smallest r / L0 into pt; whether one is past a limit l. */
static int row_look(const limit_pass *s, const hk_family *f, int64_t a0, int64_t span, const limits *l, limit_part *pt)
{
    hk_real *const q[3] = {s->p->qx, s->p->qy, s->p->qz};
    hk_real *const qa[3] = {q[0] + a0, q[1] + a0, q[2] + a0};
    hk_real *const qb[3] = {q[0] + a0 + f->offset, q[1] + a0 + f->offset, q[2] + a0 + f->offset};
    hk_real most, least;
    (s->k ? s->k->length2_range : hk_length2_range_scalar)(qa, qb, f->rest_vec, span, &most, &least);
    const hk_real rmax = (hk_real)sqrt(most), rmin = (hk_real)sqrt(least);
    const double hi = (double)rmax / (double)f->rest, lo = (double)rmin / (double)f->rest;
    pt->max = hi > pt->max ? hi : pt->max;
    pt->min = lo < pt->min ? lo : pt->min;
    return rmax > l->top || rmin < l->bottom;
}

/* List spring `slot` of family fi (global ends a, b), its own rest length's limits where the family has them. */
static inline __attribute__((always_inline)) void list_one(const limit_pass *s, int fi, int64_t slot, int64_t a,
                                                           int64_t b, int project, limit_part *pt)
{
    const hk_family *f = &s->fams[fi];
    if (!f->rest_list) {
        limit_one(s, f, slot, a, b, f->rest, &s->fam_limits[fi], project, pt);
        return;
    }
    const hk_real L0 = f->rest_list[slot];
    const limits l = limits_of(s->hi[fi], s->lo[fi], L0);
    limit_one(s, f, slot, a, b, L0, &l, project, pt);
}

/* The rows [r0, r1) of lattice colour lc. */
HK_FMA_CLONES static void lattice_rows(const limit_pass *s, const hk_lattice_colour *lc, int r0, int r1, int project,
                                       limit_part *pt)
{
    const hk_family *f = &s->fams[lc->fam];
    const limits *l = &s->fam_limits[lc->fam];
    const int along_i = lc->axis == 0;
    const int n = along_i ? lc->picks : f->i1 - f->i0;
    if (n <= 0) return;
    /* the sources the row's measure spans: along i every source from the first pick to the last (both parities) */
    const int first = along_i ? lc->pick[0] : f->i0, span = along_i ? lc->pick[n - 1] - first + 1 : n;
    for (int r = r0; r < r1; r++) {
        const int64_t row = lc->row_node[r];
        /* a row within its limits is measured only (a row past them is measured again spring by spring) */
        limit_part look = *pt;
        if (!f->broken && !row_look(s, f, f->base + row + first, span, l, &look)) {
            *pt = look;
            continue;
        }
        for (int t = 0; t < n; t++) {
            const int64_t slot = row + (along_i ? lc->pick[t] : f->i0 + t), a = f->base + slot;
            limit_one(s, f, slot, a, a + f->offset, f->rest, l, project, pt);
        }
    }
}

/* The list springs [i0, i1) of list colour k, run by run (the runs of families without limits left out). */
HK_FMA_CLONES static void list_range(const limit_pass *s, int k, int64_t i0, int64_t i1, int project, limit_part *pt)
{
    const hk_constraints *c = s->c;
    for (int r = c->colour_run[k]; r < c->colour_run[k + 1]; r++) {
        const int fi = c->run_fam[r];
        if (!(s->hi[fi] > 0)) continue;
        const int64_t a = c->run_start[r] > i0 ? c->run_start[r] : i0;
        const int64_t e = c->run_start[r + 1] < i1 ? c->run_start[r + 1] : i1;
        for (int64_t i = a; i < e; i++) list_one(s, fi, c->slot[i], c->a[i], c->b[i], project, pt);
    }
}

/* Whether list colour k holds a run of a family with limits. */
static int list_colour_on(const limit_pass *s, int k)
{
    for (int r = s->c->colour_run[k]; r < s->c->colour_run[k + 1]; r++)
        if (s->hi[s->c->run_fam[r]] > 0) return 1;
    return 0;
}

/* Task tm's share [*a, *b) of n items. */
static void task_share(const hk_team *tm, int64_t n, int64_t *a, int64_t *b)
{
    *a = n * tm->t / tm->T;
    *b = n * (tm->t + 1) / tm->T;
}

/* The first look of a substep, before any sweep: every spring with a limit measured, a lattice body row by row
 * with every family of that source row in turn (the row's positions read from memory once for all of them), list
 * springs in their order; each task its share of each body's rows and of each list family's springs. */
static void measure_task(const hk_team *tm, const limit_pass *s, limit_part *pt)
{
    const int *lat = s->lat;
    for (int g = 0; g < s->lat_count;) { /* a run of the limited lattice families of one body */
        int e = g + 1;
        while (e < s->lat_count && s->fams[lat[e]].body == s->fams[lat[g]].body) e++;
        const hk_family *f0 = &s->fams[lat[g]];
        int64_t a, b;
        task_share(tm, (int64_t)f0->ny * f0->nz, &a, &b);
        for (int64_t row = a; row < b; row++) {
            const int j = (int)(row % f0->ny), k = (int)(row / f0->ny);
            for (int m = g; m < e; m++) {
                const hk_family *f = &s->fams[lat[m]];
                if (j < f->j0 || j >= f->j1 || k < f->k0 || k >= f->k1 || f->i1 <= f->i0) continue;
                const limits *l = &s->fam_limits[lat[m]];
                const int64_t node = (int64_t)f->nx * row;
                if (f->broken) {
                    for (int i = f->i0; i < f->i1; i++)
                        limit_one(s, f, node + i, f->base + node + i, f->base + node + i + f->offset, f->rest, l, 0,
                                  pt);
                    continue;
                }
                pt->over += row_look(s, f, f->base + node + f->i0, f->i1 - f->i0, l, pt); /* rows past a limit */
            }
        }
        g = e;
    }
    for (int fi = 0; fi < s->families; fi++) {
        const hk_family *f = &s->fams[fi];
        if (f->kind != HK_FAMILY_LIST || !(s->hi[fi] > 0)) continue;
        int64_t a, b;
        task_share(tm, f->count, &a, &b);
        for (int64_t i = a; i < b; i++) list_one(s, fi, i, f->a[i], f->b[i], 0, pt);
    }
}

/* The slots of one round's tasks (the team that runs: tm->T, at most the pass's T) combined: the same figures on
 * every task. */
static limit_part combine(const limit_pass *s, const hk_team *tm, int round)
{
    limit_part all = {.max = 0, .min = INFINITY};
    for (int t = 0; t < tm->T; t++) {
        const limit_part *o = &s->part[(round & 1) * s->T + t];
        all.max = o->max > all.max ? o->max : all.max;
        all.min = o->min < all.min ? o->min : all.min;
        all.moved += o->moved;
        all.over += o->over;
    }
    return all;
}

/* Every sweep of the substep on one task of the team: each colour with limits split over the team (or on task 0: a
 * small colour, the serial one), a barrier after each; then every task reads the sweep's slots and takes the same
 * decision: another sweep, or the end. */
static void limit_task(const hk_team *tm, void *ctx)
{
    limit_pass *s = ctx;
    const hk_constraints *c = s->c;
    HK_ASSERT(tm->T <= s->T);
    /* the first look (round 0): where every spring is within its limits, that is all */
    limit_part *look = &s->part[tm->t];
    *look = (limit_part){.max = 0, .min = INFINITY};
    measure_task(tm, s, look);
    hk_team_barrier(tm);
    const limit_part first = combine(s, tm, 0);
    if (tm->t == 0) s->first = s->last = first;
    if (first.over == 0) {
        if (tm->t == 0) s->sweeps = 1;
        return;
    }
    /* the sweeps (rounds 1, 2, ...) */
    for (int sweep = 0;; sweep++) {
        const int project = sweep < s->sweeps_max;
        limit_part *pt = &s->part[((sweep + 1) & 1) * s->T + tm->t];
        *pt = (limit_part){.max = 0, .min = INFINITY};
        for (int k = 0; k < c->lattice_colours; k++) {
            const hk_lattice_colour *lc = &c->lc[k];
            if (!(s->hi[lc->fam] > 0)) continue;
            const hk_family *f = &s->fams[lc->fam];
            int64_t a, b;
            hk_colour_share(tm, lc->rows, (int64_t)lc->rows * (lc->axis == 0 ? lc->picks : f->i1 - f->i0), 0, &a, &b);
            if (a < b) lattice_rows(s, lc, (int)a, (int)b, project, pt);
            hk_team_barrier(tm);
        }
        for (int k = 0; k < c->colours; k++) {
            if (!list_colour_on(s, k)) continue;
            const int64_t first = c->colour_start[k], n = c->colour_start[k + 1] - first;
            int64_t a, b;
            hk_colour_share(tm, n, n, c->serial && k == c->colours - 1, &a, &b);
            if (a < b) list_range(s, k, first + a, first + b, project, pt);
            hk_team_barrier(tm);
        }
        const limit_part all = combine(s, tm, sweep + 1);
        if (tm->t == 0) s->projected += all.moved;
        if (!project || all.moved == 0) {
            if (tm->t == 0) {
                s->last = all;
                s->sweeps = sweep + 2; /* the first look counted */
            }
            return;
        }
    }
}

/* A family's limit ratios: *hi = 1 + strain_limit (infinite without one), *lo = 1 - compress_limit (0 without
 * one); *hi = 0 for a family with neither. */
static void limit_ratios(const hk_spring_params *sp, double *hi, double *lo)
{
    const int on = sp->strain_limit > 0 || sp->compress_limit > 0;
    *hi = !on ? 0 : sp->strain_limit > 0 ? 1 + sp->strain_limit : INFINITY;
    *lo = sp->compress_limit > 0 ? 1 - sp->compress_limit : 0;
}

int hk_strain_pins_check(const hk_world *w, int fi, char *why, size_t len)
{
    const hk_family *f = &w->families[fi];
    const hk_spring_params *sp = &f->params;
    if (!(sp->strain_limit > 0 || sp->compress_limit > 0)) return 0;
    const hk_body *bd = &w->bodies[f->body];
    if (bd->recipe || !hk_body_whole(bd)) return 0; /* not held here whole (a run over ranks refuses limits) */
    double hi, lo;
    limit_ratios(sp, &hi, &lo);
    const hk_particles *p = &w->p;
    const int lattice = f->kind == HK_FAMILY_LATTICE;
    /* a lattice's springs by source node (i, j, k) in its box, a list's by slot */
    const int64_t ni = lattice ? f->i1 - f->i0 : f->count, nj = lattice ? f->j1 - f->j0 : 1;
    const int64_t n = lattice ? ni * nj * (f->k1 - f->k0) : f->count;
    for (int64_t s = 0; s < n; s++) {
        const int64_t slot = !lattice ? s
                                      : (f->i0 + s % ni) + (int64_t)f->nx * ((f->j0 + s / ni % nj) +
                                                                             (int64_t)f->ny * (f->k0 + s / (ni * nj)));
        const int64_t a = lattice ? f->base + slot : f->a[s], b = lattice ? a + f->offset : f->b[s];
        if (p->inv_mass[a] != 0 || p->inv_mass[b] != 0) continue;
        const hk_real L0 = !lattice && f->rest_list ? f->rest_list[slot] : f->rest;
        hk_real d[3];
        hk_spring_delta(f, p, slot, a, b, d);
        const double ratio = (double)hk_spring_length(d[0], d[1], d[2]) / (double)L0;
        if (ratio > hi || ratio < lo) {
            snprintf(why, len,
                     "family %s: spring %lld joins two held particles (%lld and %lld, pinned or driven) at r / L0 = "
                     "%.7g, outside its limits [%.7g, %.7g]: no projection can move it back (a %s of at least %.7g)",
                     f->name, (long long)slot, (long long)a, (long long)b, ratio, lo, hi,
                     ratio > hi ? "strain_limit" : "compress_limit", ratio > hi ? ratio - 1 : 1 - ratio);
            return -1;
        }
    }
    return 0;
}

void hk_strain_step_begin(hk_world *w)
{
    hk_strain_stats *st = &w->strain;
    const int64_t all = st->projected_all;
    const double none = hk_world_facts(w)->limited > 0 ? 0 : NAN; /* tethers alone: no figures of springs */
    *st = (hk_strain_stats){.step = w->steps,
                            .before_max = none,
                            .after_max = none,
                            .before_min = none == 0 ? INFINITY : NAN,
                            .after_min = none == 0 ? INFINITY : NAN,
                            .projected_all = all};
}

int hk_strain_project(hk_world *w, hk_real h, hk_real *const dv[3], hk_real *const dq[3], hk_real *const prev[3])
{
    if (w->part && w->part->ranks > 1) {
        w->step_failed = hk_fail(w, HK_STRAIN_NOT_OVER_RANKS);
        return 0;
    }
    const int fresh = !w->strain_ready; /* limits or tethers just set, or bodies, families, pins changed */
    const hk_moves mv = {.p = &w->p,
                         .h = h,
                         .over_h = fresh ? 0 : 1 / h,
                         .dv = {dv ? dv[0] : NULL, dv ? dv[1] : NULL, dv ? dv[2] : NULL},
                         .dq = {dq ? dq[0] : NULL, dq ? dq[1] : NULL, dq ? dq[2] : NULL},
                         .prev = {prev ? prev[0] : NULL, prev ? prev[1] : NULL, prev ? prev[2] : NULL}};
    const int64_t tethered = w->strain.tethered;
    if (fresh) hk_tethers_stale(w);
    if (hk_tethers_on(w) && hk_tethers_project(w, &mv) != 0) return 0; /* the long paths first (tethers.h) */
    const int moved_by_tethers = w->strain.tethered > tethered;
    if (hk_world_facts(w)->limited == 0) {
        w->strain_ready = 1;
        return moved_by_tethers;
    }
    hk_constraints *c = hk_constraints_of(w);
    const size_t nf = (size_t)(w->family_count > 0 ? w->family_count : 1);
    double *lim = c ? malloc(2 * nf * sizeof *lim + nf * sizeof(limits) + nf * sizeof(int)) : NULL; /* one block */
    const int T = c ? hk_team_size(w, c->count, HK_PARALLEL_MIN) : 1;
    limit_part *part = lim ? aligned_alloc(64, 2 * (size_t)T * sizeof *part) : NULL;
    if (!c || !lim || !part) {
        free(lim);
        w->step_failed = c ? hk_fail_memory(w, "out of memory for the strain limits") : hk_failed(w);
        return 0;
    }
    limits *fam_limits = (limits *)(lim + 2 * nf);
    int *lat = (int *)(fam_limits + nf), lat_count = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        limit_ratios(&w->families[fi].params, &lim[fi], &lim[w->family_count + fi]);
        if (!(lim[fi] > 0)) continue;
        fam_limits[fi] = limits_of(lim[fi], lim[w->family_count + fi], w->families[fi].rest);
        if (w->families[fi].kind == HK_FAMILY_LATTICE) lat[lat_count++] = fi;
    }
    if (!w->strain_ready) { /* springs held at both ends past a limit: said once per layout */
        char why[400];
        for (int fi = 0; fi < w->family_count; fi++)
            if (hk_strain_pins_check(w, fi, why, sizeof why) != 0) {
                free(lim);
                free(part);
                w->step_failed = hk_fail(w, "%s", why);
                return 0;
            }
        w->strain_ready = 1;
    }
    limit_pass s = {.p = &w->p,
                    .fams = w->families,
                    .c = c,
                    .k = w->kernels,
                    .hi = lim,
                    .lo = lim + w->family_count,
                    .families = w->family_count,
                    .lat = lat,
                    .fam_limits = fam_limits,
                    .lat_count = lat_count,
                    .mv = mv,
                    .sweeps_max = w->def.strain_sweeps > 0 ? w->def.strain_sweeps : HK_STRAIN_SWEEPS,
                    .T = T,
                    .part = part};
    hk_team_run(w, T, limit_task, &s);
    free(lim);
    free(part);
    hk_strain_stats *st = &w->strain;
    st->before_max = fmax(st->before_max, s.first.max);
    st->before_min = fmin(st->before_min, s.first.min);
    st->after_max = fmax(st->after_max, s.last.max);
    st->after_min = fmin(st->after_min, s.last.min);
    st->projected += s.projected;
    st->projected_all += s.projected;
    st->sweeps = s.sweeps > st->sweeps ? s.sweeps : st->sweeps;
    st->unconverged += s.last.over > 0;
    return s.projected > 0 || moved_by_tethers;
}

hk_strain_stats hk_world_strain_stats(const hk_world *w) { return w->strain; }

int hk_world_strain_limited(const hk_world *w)
{
    int n = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        double hi, lo;
        limit_ratios(&w->families[fi].params, &hi, &lo);
        n += hi > 0;
    }
    return n;
}

int hk_world_set_strain_limits(hk_world *w, int family, double strain_limit, double compress_limit)
{
    if (family < 0 || family >= w->family_count)
        return hk_fail(w, "set_strain_limits: no family %d (the world has %d)", family, w->family_count);
    hk_family *f = &w->families[family];
    hk_spring_params p = f->params;
    p.strain_limit = strain_limit;
    p.compress_limit = compress_limit;
    char what[96];
    snprintf(what, sizeof what, "set_strain_limits: family %s", f->name);
    if (hk_check_spring_params(w, what, &p) != 0) return hk_failed(w);
    f->params = p;
    w->facts.families = -1; /* the limited families counted again */
    w->strain_ready = 0;
    return HK_OK;
}
