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
#include "limit_pass.h"
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
 * A lattice family's springs are projected chain by chain (iterate/constraints.h, hk_lattice_chains): a chain with a
 * spring past a limit moves every one of its springs past a limit, or within the give of its aim (the hold band:
 * r >= 2 r*_top - hi L0, or r <= 2 r*_bottom - lo L0), to its aim at once (chain_one: a tridiagonal solve of the
 * chain's linearised conditions), so that a chain hanging at its limit whose every spring a substep's fall
 * stretched comes back in one solve, where a projection spring by spring passes the correction on by one spring a
 * sweep (of order n^2 sweeps for a chain of n). A family's chains share no particle: they are projected in any
 * order, on any number of tasks, with the same bits. List families' springs are swept in the colours of
 * constraints.h, spring by spring (a colour's springs share no particle; the serial colour on one task). The
 * families follow each other in order, and a sweep follows another until one moves nothing: then every spring is
 * within its limits at once, and that sweep measured them. At w->def.strain_sweeps sweeps a last sweep measures
 * what is left (hk_strain_stats unconverged). Before the first sweep, the first look measures a body's limited
 * lattice families in one vectorised pass over its rows (their largest and smallest r^2: kernel_table.h
 * length2_rows); where no spring is past a limit, that is all. A sweep measures again only the rows that a
 * projection moved, or that were past a limit, since the family's look before (limit_look.c, limit_pass.h seen; the
 * first look keeps each row's figures for that where the step before swept, else the first sweep measures every row).
 */

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
    l.hold_top = isfinite(l.top) ? l.aim_top - (l.top - l.aim_top) : l.top;
    l.hold_bottom = lo > 0 ? l.aim_bottom + (l.aim_bottom - l.bottom) : 0;
    return l;
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

/* One spring of a chain as chain_one solves it: its direction, what it is past its aim, the tridiagonal's pivots. */
typedef struct chain_node {
    double n[3];   /* unit vector from the spring's source to its target */
    double excess; /* r - r*: the length to take out (negative: to put in) [m] */
    double sub;    /* the system's entry coupling it to the spring before (0: not coupled) */
    double cp, dp; /* the forward sweep's factors */
    double lambda; /* its length change's share [m] */
    int on;        /* past a limit and movable */
} chain_node;

/* A chain's springs past a limit (its consecutive ones coupled), all moved to their aims at once: with n_t the unit
 * vector along spring t from its source (node t) to its target (node t + 1) and w the nodes' inverse masses, node t
 * moves by w_t (lambda_t n_t - lambda_{t-1} n_{t-1}) (lambda 0 for a spring within its limits), and the lambdas solve
 * the chain's linearised conditions r_t - r*_t = (w_t + w_{t+1}) lambda_t - w_t (n_{t-1}.n_t) lambda_{t-1} - w_{t+1}
 * (n_t.n_{t+1}) lambda_{t+1}, a symmetric tridiagonal system (Thomas's elimination, in double): a straight chain
 * stretched over its whole length is put within its limits by one solve, where a sweep spring by spring passes the
 * correction on by one spring. A lone spring's solve is the single projection: lambda = (r - r*) / (w_a + w_b). A
 * pivot below a thousandth of its diagonal (a taut chain between two held nodes, where the springs' conditions cannot
 * all hold) cuts the coupling there: the two sides are solved apart, and the next sweep goes on. */
static void chain_one(const limit_pass *s, const hk_family *f, int64_t src, int n, const limits *l, limit_part *pt,
                      chain_node *cn, int64_t *moved, int64_t mover)
{
    hk_particles *p = s->p;
    const hk_real *const im = p->inv_mass;
    const int64_t a0 = f->base + src, off = f->offset;
    int any = 0;
    for (int t = 0; t < n; t++) {
        chain_node *e = &cn[t];
        const int64_t slot = src + t * off, a = a0 + t * off;
        e->on = 0;
        if (f->broken && f->broken[slot]) continue;
        hk_real d[3];
        hk_spring_delta(f, p, slot, a, a + off, d);
        const hk_real r = hk_spring_length(d[0], d[1], d[2]);
        any |= r > l->top || r < l->bottom;
        if (!(r >= l->hold_top || r <= l->hold_bottom) || im[a] + im[a + off] == 0 || r == 0) continue;
        e->on = 1;
        for (int k = 0; k < 3; k++) e->n[k] = -(double)d[k] / (double)r; /* d = x_source - x_target */
        e->excess = (double)r - (double)(r >= l->hold_top ? l->aim_top : l->aim_bottom);
    }
    if (!any) return;
    /* the couplings of consecutive springs held, then the forward elimination */
    for (int t = n - 1; t > 0; t--) {
        const double *u = cn[t - 1].n, *v = cn[t].n;
        cn[t].sub = cn[t].on && cn[t - 1].on ? -im[a0 + t * off] * (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) : 0;
    }
    cn[0].sub = 0;
    for (int t = 0; t < n; t++) {
        chain_node *e = &cn[t];
        if (!e->on) continue;
        const double D = im[a0 + t * off] + im[a0 + (t + 1) * off];
        double m = D - (e->sub != 0 ? e->sub * cn[t - 1].cp : 0);
        if (e->sub != 0 && !(m > 1e-3 * D)) { /* cut: the spring before is solved without this one */
            e->sub = 0;
            cn[t - 1].cp = 0;
            m = D;
        }
        e->dp = (e->excess - (e->sub != 0 ? e->sub * cn[t - 1].dp : 0)) / m;
        e->cp = t + 1 < n ? cn[t + 1].sub / m : 0;
    }
    /* back substitution, then every node's move */
    for (int t = n - 1; t >= 0; t--) {
        chain_node *e = &cn[t];
        e->lambda = !e->on ? 0 : e->dp - (t + 1 < n && cn[t + 1].sub != 0 ? e->cp * cn[t + 1].lambda : 0);
        pt->moved += e->on;
    }
    for (int t = 0; t <= n; t++) {
        const double la = t < n && cn[t].on ? cn[t].lambda : 0, lb = t > 0 && cn[t - 1].on ? cn[t - 1].lambda : 0;
        if (la == 0 && lb == 0) continue;
        const int64_t i = a0 + t * off;
        const double w = im[i];
        if (w == 0) continue;
        hk_real m[3];
        for (int k = 0; k < 3; k++)
            m[k] = (hk_real)(w * ((la != 0 ? la * cn[t].n[k] : 0) - (lb != 0 ? lb * cn[t - 1].n[k] : 0)));
        hk_move(&s->mv, i, m, 1);
        __atomic_store_n(&moved[(i - f->base) / f->nx], mover, __ATOMIC_RELAXED); /* its row (j + ny k) */
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

/* The first look of a substep, before any sweep: every spring with a limit measured, the lattice bodies' rows
 * (limit_look.c hk_limit_bodies_look), then the list springs in their order; each task its share of each body's
 * rows and of each list family's springs. */
static void measure_task(const hk_team *tm, const limit_pass *s, limit_part *pt)
{
    hk_limit_bodies_look(tm, s, pt);
    for (int fi = 0; fi < s->families; fi++) {
        const hk_family *f = &s->fams[fi];
        if (f->kind != HK_FAMILY_LIST || !(s->hi[fi] > 0)) continue;
        int64_t a, b;
        hk_limit_task_share(tm, f->count, &a, &b);
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

/* The first look of the substep (round 0) on one task of the team: every limited spring measured (measure_task);
 * where none is past a limit, that is all. */
static void look_task(const hk_team *tm, void *ctx)
{
    limit_pass *s = ctx;
    HK_ASSERT(tm->T <= s->T);
    limit_part *look = &s->part[tm->t];
    *look = (limit_part){.max = 0, .min = INFINITY};
    measure_task(tm, s, look);
    hk_team_barrier(tm);
    if (tm->t == 0) {
        s->first = s->last = combine(s, tm, 0);
        s->sweeps = 1;
    }
}

/* The sweeps (rounds 1, 2, ...), after a first look that found a spring past a limit: each limited lattice family
 * looked at and its chains past a limit projected, then the list colours with limits, each split over the team
 * (or on task 0: a small colour, the serial one), a barrier after each; then every task reads the sweep's slots and
 * takes the same decision: another sweep, or the end. */
static void sweep_task(const hk_team *tm, void *ctx)
{
    limit_pass *s = ctx;
    const hk_constraints *c = s->c;
    HK_ASSERT(tm->T <= s->T);
    for (int sweep = 0;; sweep++) {
        const int project = sweep < s->sweeps_max;
        limit_part *pt = &s->part[((sweep + 1) & 1) * s->T + tm->t];
        *pt = (limit_part){.max = 0, .min = INFINITY};
        chain_node *cn = s->scratch + (size_t)tm->t * (size_t)(s->longest + 1);
        for (int m = 0; m < s->lat_count; m++) { /* each limited lattice family: a look, then its chains past a limit */
            const int fi = s->lat[m];
            const hk_family *f = &s->fams[fi];
            const hk_lattice_chains *ch = &c->chains[fi];
            hk_limit_family_look(s, tm, m, sweep, pt, s->dirty);
            hk_team_barrier(tm);
            if (!project) continue;
            const int64_t springs = (int64_t)(f->i1 - f->i0) * (f->j1 - f->j0) * (f->k1 - f->k0);
            int64_t a, b;
            hk_colour_share(tm, ch->count, springs, 0, &a, &b);
            for (int64_t i = a; i < b; i++) {
                if (!__atomic_load_n(&s->dirty[i], __ATOMIC_RELAXED)) continue;
                __atomic_store_n(&s->dirty[i], 0, __ATOMIC_RELAXED);
                chain_one(s, f, ch->start[i], ch->len[i], &s->fam_limits[fi], pt, cn, s->seen.moved + s->seen.rows[m],
                          hk_limit_look_number(s, sweep, m) + 1);
            }
            hk_team_barrier(tm);
        }
        for (int k = 0; k < c->colours; k++) {
            if (!list_colour_on(s, k)) continue;
            const int64_t first = c->colour_start[k], n = c->colour_start[k + 1] - first;
            int64_t a, b;
            hk_colour_share(tm, n, n, c->serial && k == c->colours - 1, &a, &b);
            const int64_t before = pt->moved;
            if (a < b) list_range(s, k, first + a, first + b, project, pt);
            if (pt->moved > before) /* every row looked at again in the next sweep */
                __atomic_store_n(&s->seen.lists, hk_limit_look_number(s, sweep + 1, 0) - 1, __ATOMIC_RELAXED);
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
    if (w->strain_swept && hk_limit_seen_new(&s) == 0)
        s.seen.kept = 1; /* sweeps likely again: each row's figures kept */
    hk_team_run(w, T, look_task, &s);
    w->strain_swept = s.first.over > 0;
    if (s.first.over > 0) { /* the sweeps, with each task's chain and the chains' marks */
        for (int fi = 0; fi < w->family_count; fi++) {
            s.longest = c->chains[fi].longest > s.longest ? c->chains[fi].longest : s.longest;
            s.most = c->chains[fi].count > s.most ? c->chains[fi].count : s.most;
        }
        s.scratch = malloc((size_t)T * (size_t)(s.longest + 1) * sizeof *s.scratch);
        s.dirty = calloc((size_t)(s.most > 0 ? s.most : 1), 1);
        if (s.scratch && s.dirty && (s.seen.kept || hk_limit_seen_new(&s) == 0))
            hk_team_run(w, T, sweep_task, &s);
        else
            w->step_failed = hk_fail_memory(w, "out of memory for the strain limits' chains");
        free(s.scratch);
        free(s.dirty);
    }
    free(s.seen.moved);
    free(s.seen.most);
    free(lim);
    free(part);
    if (w->step_failed) return 0;
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
