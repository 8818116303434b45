/* pair_force.c — the pairs' force passes: their evaluation on the team, the touching lists and sums, the solve's. */
/* SPDX-License-Identifier: MIT */
#include "pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "geometry.h"
#include "pair_eval.h"
#include "pair_kernels.h"
#include "soft.h"
#include "team.h"

/* The pairs kept apart while far: an evaluation that sets the bounds (the first for a choice of pairs, or one where
 * a particle has moved more than FAR_SLACK thicknesses from where the last set them and the last that kept them
 * evaluated more than FAR_TAKEN of the pairs) keeps each pair's box distance (box_gap2) and the places; an
 * evaluation after it leaves out, without reading its places, every pair whose bound less twice the largest motion
 * of its own particles since (mj, pair_far) is more than the thickness: every point of a side has moved at most
 * that motion (a weighted mean of its corners'), so its sides are further apart than the thickness, which is what
 * evaluate finds of it. Where the pairs' parts move apart at different speeds (a cloth folding onto itself), the
 * bounds of the slow parts' pairs keep them out while the fast ones' are evaluated. The margins (1e-9 of the reach,
 * 1e-12 of the largest coordinate) cover the roundings as in boxes_apart. */
#define FAR_SLACK 0.25
#define FAR_TAKEN 0.5
/* What each task of an evaluation writes to far: its largest motion since xr and coordinate, its particles past
 * their bounds, and the pairs it evaluated (-1: it set the bounds). */
enum { FAR_MOVED, FAR_BIG, FAR_PAST, FAR_TOOK, HK_FAR_N };

/* Pair k's bound for evaluate: its sides are further apart than the thickness where lb[k] is above it, each of its
 * particles having moved at most mj from xr; slack: the margin of the largest coordinate's roundings. */
static inline double pair_far(const hk_pairs *pr, int64_t k, double slack)
{
    return (pr->th + 2 * hk_pair_corners_max(pr->mj, pr->at + 4 * k)) * (1 + 1e-9) + slack;
}

/* The places of the pairs' particles now, into xs (each task its share); with vel, into xv too with their inverse
 * masses and velocities (what the lanes read). */
static void gather(const hk_team *tm, const hk_world *w, hk_pairs *pr, double *xs, int vel)
{
    const hk_particles *p = &w->p;
    int a, n;
    hk_team_range(tm, 0, pr->ninv, &a, &n);
    const hk_body *b = n > 0 ? &w->bodies[hk_body_of(w, pr->inv[a])] : NULL;
    for (int j = a; j < a + n; j++) {
        const int i = pr->inv[j];
        while (i >= b->first + b->count) b++; /* inv ascends, and so do the bodies' ranges */
        hk_particle_position(w, b, i, xs + 3 * (int64_t)j);
        if (!vel) continue;
        double *r = pr->xv + PAIR_LANES_ROW * (int64_t)j;
        const double *x = xs + 3 * (int64_t)j;
        r[0] = x[0], r[1] = x[1], r[2] = x[2], r[3] = 0;
        r[4] = p->vx[i], r[5] = p->vy[i], r[6] = p->vz[i], r[7] = p->inv_mass[i];
    }
}

/* What the tasks of a pairs' pass share. */
typedef struct pair_pass {
    hk_world *w;
    hk_pairs *pr;
    double h;
    hk_real *const *f;
    int64_t *tslots;            /* touching_task: per task, the slots of its share of the particles */
    const hk_pair_lanes *lanes; /* the pairs' passes in lanes of the world's kernel path, or NULL: evaluate alone */
    int64_t vt_end;             /* the first edge pair (the triangle pairs come first) */
} pair_pass;

/* A task's touching pairs as its evaluation finds them. Of a run (a particle's triangle pairs, or an edge pair) the
 * nearest that acts so far holds the task's next place in the lists, ev[k0 + on], until the run ends. */
typedef struct pair_runs {
    hk_pair_eval rec; /* a pair evaluated alone */
    int64_t best;     /* the run's nearest pair that acts so far, or -1 */
    double gap;       /* its gap [m] */
    int nc;           /* its corners */
    int32_t key;      /* the run's particle's place in inv (triangle pairs; -1: none) */
    int64_t k0;       /* the task's first pair: its touching pairs go to on[k0 + ...] */
    int64_t on;       /* how many it has found */
    int32_t *hist;
} pair_runs;

/* The run ends: its nearest pair that acts, if any, joins the task's touching pairs. */
static void run_end(hk_pairs *pr, pair_runs *r)
{
    if (r->best < 0) return;
    pr->on[r->k0 + r->on++] = r->best;
    for (int c = 0; c < r->nc; c++) r->hist[pr->at[4 * r->best + c]]++;
    r->best = -1;
}

/* Whether pair k of the run (acting, at gap [m], with nc corners) is the nearest so far, the first of equals; then
 * it takes the run's place, where the caller puts its evaluation. */
static int run_take(pair_runs *r, int64_t k, double gap, int nc)
{
    if (r->best >= 0 && !(gap < r->gap)) return 0;
    r->best = k, r->gap = gap, r->nc = nc;
    return 1;
}

/* Whether pair k is the first of a particle's triangle pairs, or an edge or particle pair (the triangle pairs come
 * first, a particle's together). */
static int run_starts(const hk_pairs *pr, int64_t k)
{
    return k == 0 || pr->pair[k].kind != HK_PAIR_VT || pr->pair[k].p[0] != pr->pair[k - 1].p[0];
}

/* The float next below f (a number above -infinity), nextafterf(f, -INFINITY) without the call: one step of its
 * bits away from zero below it, towards zero above it, and the negative smallest subnormal from a zero. */
static inline float float_below(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u = f > 0 ? u - 1 : f < 0 ? u + 1 : 0x80000001u;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Pairs [kb, ke)'s bounds, set, rounded down to floats for the lanes' select (a float not above the bound: a pair
 * the bound leaves out may be evaluated, and found not to touch, but none it keeps is left out). */
static void bounds_down(hk_pairs *pr, int64_t kb, int64_t ke)
{
    for (int64_t k = kb; k < ke; k++) {
        float f = (float)pr->lb[k];
        if ((double)f > pr->lb[k]) f = float_below(f);
        pr->lbf[k] = f;
    }
}

/* Entry i of chunk ch, the evaluation of a pair that acts, into ev's entry e. */
static void chunk_put(hk_pair_evals *ev, int64_t e, const pair_chunk *ch, int i)
{
    for (int c = 0; c < 4; c++) ev->a[c][e] = ch->a[c][i];
    for (int c = 0; c < 3; c++) ev->n[c][e] = ch->n[c][i], ev->vr[c][e] = ch->vr[c][i];
    ev->fn[e] = ch->fn[i], ev->m[e] = ch->m[i];
}

/* Whether chunk entry i (a pair the lanes found touching) is through to the other side (hk_pair_crossed). */
static int lane_crossed(const hk_pairs *pr, const pair_chunk *ch, int64_t kb, int i)
{
    const double n[3] = {ch->n[0][i], ch->n[1][i], ch->n[2][i]};
    return hk_pair_crossed(pr, kb + ch->off[i], n);
}

/* Pairs [k0, k1) of an evaluation (slack: pair_far's, INFINITY where it sets the bounds; past: some particle is
 * past its step's bound; taken: the pairs not left out, added to) in lanes, chunk by chunk into ch, each chunk's pairs
 * that act (or that the lanes leave to evaluate) then taken into their runs in order, as evaluate's results are. Where
 * a particle is past its bound, evaluate takes every pair of such a particle alone (in_step may leave it out). A run's
 * particle (key) needs only be read of pairs that act: a particle's triangle pairs are consecutive, so two that act
 * with the same particle are of one run. */
static void evaluate_lanes(const pair_pass *pp, pair_chunk *ch, pair_runs *r, int64_t k0, int64_t k1, double slack,
                           int past, int64_t *taken)
{
    hk_pairs *pr = pp->pr;
    const int set = !(slack < INFINITY);
    pair_lane_in in = {.xv = pr->xv, .th = pr->th, .k = pr->def.stiffness, .z2 = 2 * pr->def.damping_ratio, .set = set};
    for (int64_t kb = k0, ke; kb < k1; kb = ke) {
        const int kind = kb < pp->vt_end ? HK_PAIR_VT : HK_PAIR_EE; /* one kind a chunk (the triangle pairs first) */
        HK_ASSERT(pr->pair[kb].kind == kind);
        ke = kb + PAIR_CHUNK < k1 ? kb + PAIR_CHUNK : k1;
        if (kind == HK_PAIR_VT && ke > pp->vt_end) ke = pp->vt_end;
        int n = (int)(ke - kb);
        if (set)
            for (int i = 0; i < n; i++) ch->off[i] = i;
        else {
            for (int i = 0; i < n; i++) ch->far[i] = pair_far(pr, kb + i, slack);
            n = pp->lanes->select(pr->lbf + kb, ch->far, n, ch->off);
        }
        *taken += n;
        in.at = pr->at + 4 * kb;
        int nhit = pp->lanes->eval(&in, ch, n, kind);
        if (set)
            for (int i = 0; i < n; i++) pr->lb[kb + ch->off[i]] = ch->lb[i];
        if (past) { /* every pair of a particle past its bound, alone (a status is written only for a hit) */
            for (int i = 0, h = 0; i < n; i++) {
                const int32_t *at = pr->at + 4 * (kb + ch->off[i]);
                const int hit = h < nhit && ch->hit[h] == i;
                h += hit;
                ch->st[i] = hit ? ch->st[i] : PAIR_LANE_NONE;
                if (pr->past[at[0]] | pr->past[at[1]] | pr->past[at[2]] | pr->past[at[3]]) ch->st[i] = PAIR_LANE_ALONE;
            }
            nhit = 0;
            for (int i = 0; i < n; i++)
                if (ch->st[i] != PAIR_LANE_NONE) ch->hit[nhit++] = i;
        }
        for (int h = 0; h < nhit; h++) /* a pair found through: evaluate's sign (pair_eval.c), alone */
            if (ch->st[ch->hit[h]] != PAIR_LANE_ALONE && lane_crossed(pr, ch, kb, ch->hit[h]))
                ch->st[ch->hit[h]] = PAIR_LANE_ALONE;
        if (kind == HK_PAIR_EE && !past) { /* every edge pair that acts is a run of its own: straight to the lists */
            int alone = 0;
            for (int h = 0; h < nhit; h++) alone |= ch->st[ch->hit[h]] == PAIR_LANE_ALONE;
            if (!alone) {
                run_end(pr, r);
                r->key = -1;
                const int64_t e = r->k0 + r->on;
                const int m = pp->lanes->emit(ch, n, kb, &pr->ev, e, pr->on);
                HK_ASSERT(m == nhit);
                for (int64_t q = e; q < e + m; q++) {
                    const int32_t *at = pr->at + 4 * pr->on[q];
                    for (int c = 0; c < 4; c++) r->hist[at[c]]++;
                }
                r->on += m;
                if (set) bounds_down(pr, kb, ke);
                continue;
            }
        }
        for (int h = 0; h < nhit; h++) {
            const int i = ch->hit[h];
            const int64_t k = kb + ch->off[i];
            const int32_t key = pr->at[4 * k];
            HK_ASSERT(k < ke && (h == 0 || i > ch->hit[h - 1]) && ch->st[i] != PAIR_LANE_NONE);
            if (kind != HK_PAIR_VT || key != r->key) { /* a run starts (run_starts) */
                run_end(pr, r);
                r->key = kind == HK_PAIR_VT ? key : -1;
            }
            if (ch->st[i] == PAIR_LANE_ALONE) {
                if (hk_pair_evaluate(pp->w, pr, k, &r->rec, set ? INFINITY : ch->far[ch->off[i]]) &&
                    run_take(r, k, r->rec.gap, 4))
                    hk_pair_evals_put(&pr->ev, r->k0 + r->on, &r->rec);
            } else if (run_take(r, k, ch->gap[i], 4)) {
                chunk_put(&pr->ev, r->k0 + r->on, ch, i);
            }
        }
        if (set) bounds_down(pr, kb, ke);
    }
}

/* The places now, then each pair's force and blocks; of a particle's triangle pairs that touch (consecutive, a run)
 * the nearest alone acts. Each task takes the runs that start in its share, so one task sees a whole run; an edge
 * pair is a run of its own. */
static void evaluate_task(const hk_team *tm, void *ctx)
{
    const pair_pass *pp = ctx;
    hk_pairs *pr = pp->pr;
    gather(tm, pp->w, pr, pr->xs, pp->lanes != NULL);
    int a, n;
    hk_team_range(tm, 0, pr->ninv, &a, &n);
    double moved = 0, big = 0, past = 0;
    for (int j = a; j < a + n; j++) {
        const double *x = pr->xs + 3 * (int64_t)j;
        pr->past[j] = (uint8_t)hk_pairs_past(pr, pr->inv[j], x);
        past += pr->past[j];
        pr->mj[j] = pr->lb_set ? sqrt(g_dist2(x, pr->xr + 3 * (int64_t)j)) : 0;
        moved = g_max(moved, pr->mj[j]);
        for (int c = 0; c < 3; c++) big = g_max(big, fabs(x[c]));
    }
    double *mine = pr->far + HK_FAR_N * tm->t;
    mine[FAR_MOVED] = moved, mine[FAR_BIG] = big, mine[FAR_PAST] = past;
    hk_team_barrier(tm);
    past = 0;
    for (int t = 0; t < tm->T; t++) {
        const double *f = pr->far + HK_FAR_N * t;
        moved = g_max(moved, f[FAR_MOVED]), big = g_max(big, f[FAR_BIG]), past += f[FAR_PAST];
    }
    const int set = !pr->lb_set || (!(moved <= FAR_SLACK * pr->th) &&
                                    (double)pr->taken > FAR_TAKEN * (double)pr->npair); /* it sets the bounds */
    const double slack = set ? INFINITY : 1e-12 * big;
    if (set) memcpy(pr->xr + 3 * (int64_t)a, pr->xs + 3 * (int64_t)a, 3 * (size_t)n * sizeof *pr->xr);
    const int64_t np = pr->npair;
    hk_team_range(tm, 0, np > 0x7fffffff ? 0x7fffffff : (int)np, &a, &n);
    int64_t k0 = a, k1 = (int64_t)a + n;
    while (k0 < np && !run_starts(pr, k0)) k0++;
    while (k1 < np && !run_starts(pr, k1)) k1++;
    /* its share of the touching lists: from on[k0], the pairs that act, ascending; each particle's corners in them */
    int64_t *sh = pr->share + HK_SHARE_N * tm->t;
    pair_runs r = {.best = -1, .key = -1, .k0 = k0, .hist = pr->hist + (int64_t)tm->t * pr->ninv};
    memset(r.hist, 0, (size_t)pr->ninv * sizeof *r.hist);
    int64_t taken = 0;
    if (pp->lanes)
        evaluate_lanes(pp, &pr->chunk[tm->t], &r, k0, k1, slack, past > 0, &taken);
    else
        for (int64_t k = k0; k < k1; k++) {
            if (run_starts(pr, k)) run_end(pr, &r);
            const double far = set ? INFINITY : pair_far(pr, k, slack);
            taken += !(pr->lb[k] > far);
            if (hk_pair_evaluate(pp->w, pr, k, &r.rec, far) &&
                run_take(&r, k, r.rec.gap, hk_pair_corners(&pr->pair[k])))
                hk_pair_evals_put(&pr->ev, k0 + r.on, &r.rec);
        }
    run_end(pr, &r);
    sh[HK_SHARE_K0] = k0, sh[HK_SHARE_ON] = r.on;
    mine[FAR_TOOK] = set ? -1 : (double)taken; /* read after the pass alone */
    if (tm->t == 0) pr->shares = tm->T;
}

/* Each particle's corners in pair order, added to f. */
static void sum_task(const hk_team *tm, void *ctx)
{
    const pair_pass *pp = ctx;
    const hk_pairs *pr = pp->pr;
    int a, n;
    hk_team_range(tm, 0, pr->ninv, &a, &n);
    for (int j = a; j < a + n; j++) {
        const int i = pr->inv[j];
        double s[3] = {0, 0, 0};
        for (int q = pr->on_start[j]; q < pr->on_start[j + 1]; q++) {
            const double al = pr->slot_a[q], *tf = pr->tf + 3 * (int64_t)(pr->on_slot[q] / 4);
            for (int c = 0; c < 3; c++) s[c] += al * tf[c];
        }
        for (int c = 0; c < 3; c++) pp->f[c][i] = (hk_real)((double)pp->f[c][i] + s[c]);
    }
}

/* The forces of one share's touching pairs (the first from on[k0], at q0 in the lists; m of them) with their
 * friction in lanes, its triangle pairs, then its edge pairs (pair order); with acc, not into tf but added to each
 * particle's sum in acc (sum_in_order's, formed as the forces are). */
static void friction_lanes(const pair_pass *pp, int64_t k0, int64_t q0, int64_t m, double *acc)
{
    hk_pairs *pr = pp->pr;
    int64_t lo = 0, hi = m; /* the share's first edge pair */
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (pr->on[k0 + mid] < pp->vt_end)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int part = 0; part < 2; part++) {
        const int64_t a = part ? lo : 0, e = part ? m : lo;
        for (int64_t b = a; b < e; b += 1 << 20) { /* (ranges of int size) */
            const int n = (int)(e - b < 1 << 20 ? e - b : 1 << 20);
            const int64_t i = k0 + b;
            pair_friction_in in = {.xv = pr->xv,
                                   .at = pr->at,
                                   .inv = pr->inv,
                                   .on = pr->on + i,
                                   .fn = pr->ev.fn + i,
                                   .m = pr->ev.m + i,
                                   .pcand = pr->pcand,
                                   .pan = pr->pan,
                                   .anch = pr->anch,
                                   .nanch = pr->nanch,
                                   .anch_next = pr->anch_next + q0 + b,
                                   .tf = pr->tf + 3 * (q0 + b),
                                   .acc = acc,
                                   .mu = pr->def.friction,
                                   .h = pp->h,
                                   .first = pr->first,
                                   .walk = hk_pairs_anchors_walk(pr)};
            for (int c = 0; c < 4; c++) in.a[c] = pr->ev.a[c] + i;
            for (int c = 0; c < 3; c++) in.n[c] = pr->ev.n[c] + i, in.vr[c] = pr->ev.vr[c] + i;
            pp->lanes->friction(&in, n, part ? HK_PAIR_EE : HK_PAIR_VT);
        }
    }
}

/* Each particle's corners in the touching pairs of one share (the first from on[k0], m of them, at 0 in the lists),
 * their forces summed in pair order as sum_task sums them, without the lists: pair by pair into acc (from 0, each
 * particle's terms in the order its slots would hold them) as the friction in lanes forms each pair's force, then
 * added to f. */
static void sum_in_order(const pair_pass *pp, int64_t k0, int64_t m)
{
    hk_pairs *pr = pp->pr;
    double *acc = pr->acc;
    memset(acc, 0, 3 * (size_t)pr->ninv * sizeof *acc);
    friction_lanes(pp, k0, 0, m, acc);
    for (int j = 0; j < pr->ninv; j++) {
        const int i = pr->inv[j];
        for (int c = 0; c < 3; c++) pp->f[c][i] = (hk_real)((double)pp->f[c][i] + acc[3 * (int64_t)j + c]);
    }
}

/* The touching pairs (ascending) and each particle's corners in them, in pair order (what the sums and the implicit
 * solve's products run over), made by the team as one task would: each task's share of the particles finds where
 * their corners start, each task's corners taking their places in task order (the tasks' pairs ascend with the
 * tasks); then each task places its pairs' corners. Then each particle's sum, as sum_task. With one share, the
 * friction in lanes and no solve, no lists: the share's friction, then the sums in pair order (sum_in_order). */
static void touching_task(const hk_team *tm, void *ctx)
{
    const pair_pass *pp = ctx;
    hk_pairs *pr = pp->pr;
    const int S = pr->shares, ninv = pr->ninv; /* the shares: the tasks that evaluated */
    int a, n;
    hk_team_range(tm, 0, ninv, &a, &n);
    const int lanes = pp->lanes && !pp->w->solves && pr->def.friction > 0; /* the friction in lanes */
    int64_t slots = 0;
    for (int j = a; j < a + n; j++) {
        int32_t c = 0;
        for (int s = 0; s < S; s++) c += pr->hist[(int64_t)s * ninv + j];
        slots += c;
        if (lanes) { /* what the friction's share of the mass reads (xv is there only for the lanes) */
            double *row = pr->xv + PAIR_LANES_ROW * (int64_t)j;
            row[3] = row[7] > 0 ? c : 0;
        }
    }
    pp->tslots[tm->t] = slots;
    hk_team_barrier(tm);
    if (tm->t == 0 && pr->first) pr->walk_next = lanes; /* the anchors this evaluation places, in pair order */
    if (lanes && S == 1) {                              /* (the same choice on every task) */
        if (tm->t == 0) {
            pr->unlisted = 1;
            sum_in_order(pp, pr->share[HK_SHARE_K0], pr->share[HK_SHARE_ON]);
        }
        return;
    }
    if (tm->t == 0) pr->unlisted = 0;
    int64_t next = 0;
    for (int t = 0; t < tm->t; t++) next += pp->tslots[t];
    for (int j = a; j < a + n; j++) {
        pr->on_start[j] = (int32_t)next;
        for (int s = 0; s < S; s++) {
            int32_t *h = pr->hist + (int64_t)s * ninv + j;
            const int32_t c = *h;
            *h = (int32_t)next;
            next += c;
        }
    }
    if (tm->t == tm->T - 1) pr->on_start[ninv] = (int32_t)next;
    hk_team_barrier(tm);
    for (int s = tm->t; s < S; s += tm->T) { /* the shares of this task */
        const int64_t *sh = pr->share + HK_SHARE_N * s, k0 = sh[HK_SHARE_K0], q0 = sh[HK_SHARE_Q], m = sh[HK_SHARE_ON];
        int32_t *place = pr->hist + (int64_t)s * ninv;
        for (int64_t i = 0; i < m; i++) {
            const int64_t k = pr->on[k0 + i], q = q0 + i;
            const int32_t *at = pr->at + 4 * k;
            for (int c = 0; c < 4; c++) { /* (a triangle or edge pair: four corners) */
                const int32_t slot = place[at[c]]++;
                pr->on_slot[slot] = (int32_t)(4 * q + c);
                pr->slot_a[slot] = pr->ev.a[c][k0 + i];
            }
            if (lanes) continue;
            hk_pair_eval rec, *ev = &rec;
            hk_pair_evals_get(&pr->ev, k0 + i, ev);
            /* the normal force and its blocks, then the friction; the blocks only where a solve reads them */
            const int blocks = pp->w->solves;
            double f[3], K[6] = {0}, D[6] = {0};
            for (int c = 0; c < 3; c++) f[c] = ev->fn * ev->n[c];
            if (blocks) {
                g_add_outer(K, pr->def.stiffness, ev->n);
                g_add_outer(D, hk_pair_normal_damping(&pr->def, pr->pair[k].kind == HK_PAIR_EE, ev->m), ev->n);
            }
            hk_pairs_friction(pp->w, pr, k, ev, q, pp->h, f, blocks ? K : NULL, blocks ? D : NULL);
            for (int c = 0; c < 3; c++) pr->tf[3 * q + c] = f[c];
            if (!blocks) continue;
            hk_pair_touch *t = &pr->touch[q]; /* packed for the solve's products */
            for (int c = 0; c < 4; c++) t->p[c] = pr->inv[at[c]], t->a[c] = ev->a[c];
            for (int e = 0; e < 6; e++) pr->kd[q].K[e] = (hk_real)K[e], pr->kd[q].D[e] = (hk_real)D[e];
        }
        if (lanes) friction_lanes(pp, k0, q0, m, NULL);
    }
    hk_team_barrier(tm);
    sum_task(tm, ctx);
}

static void gather_task(const hk_team *tm, void *ctx)
{
    const pair_pass *pp = ctx;
    gather(tm, pp->w, pp->pr, pp->pr->x0, 0);
}

/* Room for the touching lists of non pairs; 0 or -1 (pr->non 0). */
static int touching_room(hk_pairs *pr)
{
    pr->b_set = 0; /* the touching pairs change: their B is set again by the next solve */
    if (hk_pairs_room(&pr->touch, &pr->cap_touch, pr->non + 1, sizeof *pr->touch) == 0 &&
        hk_pairs_room(&pr->kd, &pr->cap_kd, pr->non + 1, sizeof *pr->kd) == 0 &&
        hk_pairs_room(&pr->on_slot, &pr->cap_on_slot, 4 * pr->non + 1, sizeof *pr->on_slot) == 0 &&
        hk_pairs_room(&pr->slot_a, &pr->cap_slot_a, 4 * pr->non + 1, sizeof *pr->slot_a) == 0 &&
        hk_pairs_room(&pr->tf, &pr->cap_tf, 3 * pr->non + 1, sizeof *pr->tf) == 0 &&
        hk_pairs_anchors_room(pr, pr->non) == 0)
        return 0;
    pr->non = 0;
    return -1;
}

int hk_pair_evals_room(hk_pair_evals *e, int64_t n)
{
    if (n <= e->cap) return 0;
    const int64_t cap = n + n / 2 + 16;
    double **arr[] = {&e->a[0], &e->a[1], &e->a[2],  &e->a[3],  &e->n[0],  &e->n[1],
                      &e->n[2], &e->fn,   &e->vr[0], &e->vr[1], &e->vr[2], &e->m};
    const int na = (int)(sizeof arr / sizeof *arr);
    double *p = malloc((size_t)na * (size_t)cap * sizeof *p);
    if (!p) return -1;
    free(e->a[0]); /* the first array holds them all */
    for (int r = 0; r < na; r++) *arr[r] = p + r * cap;
    e->cap = cap;
    return 0;
}

void hk_pair_evals_free(hk_pair_evals *e)
{
    free(e->a[0]);
    *e = (hk_pair_evals){0};
}

/* Room for the lanes' rows of n particles, 64-byte aligned (each row one cache line); 0 or -1. */
static int xv_room(hk_pairs *pr, int64_t n)
{
    if (n + 1 <= pr->cap_xv) return 0;
    const int64_t cap = n + n / 2 + 16;
    double *p = aligned_alloc(64, (size_t)cap * PAIR_LANES_ROW * sizeof *p);
    if (!p) return -1;
    free(pr->xv);
    pr->xv = p, pr->cap_xv = cap;
    return 0;
}

void hk_pairs_forces(hk_world *w, hk_pairs *pr, double h, hk_real *const f[3])
{
    if (pr->def.model == HK_CONTACT_PARTICLES) { /* two spheres a pair: particle_force.c's passes */
        hk_particle_forces(w, pr, h, f);
        return;
    }
    const int64_t np = pr->npair;
    const int team = hk_pairs_team(w, np);
    pair_pass pp = {w, pr, h, f, NULL, pr->lanes_set ? pr->lanes : hk_pair_lanes_of(w), np};
    const int lists = hk_pairs_team(w, pr->ninv); /* the tasks of the lists */
    if (pp.lanes) {                               /* the first edge pair: the pairs are in kind order */
        int64_t lo = 0, hi = np;
        while (lo < hi) {
            const int64_t mid = lo + (hi - lo) / 2;
            if (pr->pair[mid].kind == HK_PAIR_VT)
                lo = mid + 1;
            else
                hi = mid;
        }
        pp.vt_end = lo;
    }
    if (hk_pairs_room(&pr->share, &pr->cap_share, (int64_t)HK_SHARE_N * team + lists, sizeof *pr->share) != 0 ||
        hk_pairs_room(&pr->hist, &pr->cap_hist, (int64_t)team * pr->ninv + 1, sizeof *pr->hist) != 0 ||
        hk_pairs_room(&pr->lb, &pr->cap_lb, np + 1, sizeof *pr->lb) != 0 ||
        hk_pairs_room(&pr->xr, &pr->cap_xr, 3 * (int64_t)pr->ninv + 1, sizeof *pr->xr) != 0 ||
        hk_pairs_room(&pr->mj, &pr->cap_mj, (int64_t)pr->ninv + 1, sizeof *pr->mj) != 0 ||
        hk_pairs_room(&pr->far, &pr->cap_far, (int64_t)HK_FAR_N * team + 1, sizeof *pr->far) != 0 ||
        (pp.lanes &&
         (xv_room(pr, pr->ninv) != 0 || hk_pairs_room(&pr->lbf, &pr->cap_lbf, np + 1, sizeof *pr->lbf) != 0 ||
          hk_pairs_room(&pr->chunk, &pr->cap_chunk, team, sizeof *pr->chunk) != 0 ||
          hk_pairs_room(&pr->acc, &pr->cap_acc, 3 * (int64_t)pr->ninv + 1, sizeof *pr->acc) != 0))) {
        pr->non = 0;
        w->step_failed = hk_fail_memory(w, "out of memory for the touching contact pairs");
        return;
    }
    pp.tslots = pr->share + (int64_t)HK_SHARE_N * team; /* after the shares */
    if (pp.lanes && !pr->lbf_set) pr->lb_set = 0;       /* the lanes' select reads lbf: set both (the same forces) */
    hk_team_run(w, team, evaluate_task, &pp);
    pr->taken = pr->far[FAR_TOOK] < 0 ? -1 : 0; /* every task set the bounds, or none */
    for (int t = 0; pr->taken >= 0 && t < team; t++) pr->taken += (int64_t)pr->far[HK_FAR_N * t + FAR_TOOK];
    pr->lb_set = 1, pr->lbf_set = pp.lanes != NULL;
    pr->non = 0;
    for (int s = 0; s < pr->shares; s++) { /* each share's first touching pair's place in the lists */
        pr->share[HK_SHARE_N * s + HK_SHARE_Q] = pr->non;
        pr->non += pr->share[HK_SHARE_N * s + HK_SHARE_ON];
    }
    if (touching_room(pr) != 0) {
        w->step_failed = hk_fail_memory(w, "out of memory for the touching contact pairs");
        return;
    }
    const int walks = pp.lanes && !w->solves && pr->def.friction > 0 && hk_pairs_anchors_walk(pr);
    if (!walks && pr->def.friction > 0) hk_pairs_anchors_pan(w, pr); /* the friction reads pan */
    hk_team_run(w, lists, touching_task, &pp);
}

int hk_pairs_touching(const hk_pairs *pr) { return pr->non > 0; }

void hk_pairs_substep_begin(hk_world *w, hk_pairs *pr)
{
    pr->first = 1;
    if (pr->def.model == HK_CONTACT_PARTICLES) return; /* no swept test reads the places at its start */
    pair_pass pp = {.w = w, .pr = pr};
    hk_team_run(w, hk_pairs_team(w, pr->ninv), gather_task, &pp);
}

/* ---- the implicit solve -------------------------------------------------------------------------------------- */

void hk_pairs_system(const hk_team *tm, hk_pairs *pr, hk_real sK, hk_real sD, int bound, hk_real *const y[3],
                     hk_real *const out[3], hk_real *const blk[6])
{
    HK_ASSERT(!pr->unlisted || pr->non == 0); /* a solve's evaluation made the lists */
    int a, n;
    hk_team_range(tm, 0, (int)pr->non, &a, &n);
    if (!out) { /* the diagonal pass (once a solve, before its products): each touching pair's B for them */
        for (int64_t q = a; q < a + n; q++)
            for (int e = 0; e < 6; e++) pr->touch[q].B[e] = sK * pr->kd[q].K[e] + sD * pr->kd[q].D[e];
        hk_team_barrier(tm);
        if (tm->t == 0) pr->b_sK = sK, pr->b_sD = sD, pr->b_set = 1;
    } else {
        const int set = pr->b_set && pr->b_sK == sK && pr->b_sD == sD;
        for (int64_t q = a; q < a + n; q++) { /* each touching pair's B u, u = sum_j alpha_j y_j, into its tf (the
                                               * force was summed into the particles before the solve: tf is free) */
            const hk_pair_touch *ev = &pr->touch[q];
            double *f = pr->tf + 3 * q;
            double u[3] = {0, 0, 0}, B[6];
            const int nc = ev->p[2] == ev->p[1] ? 2 : 4; /* a particle pair repeats its second particle (pairs.h) */
            for (int c = 0; c < nc; c++) {
                const int i = ev->p[c];
                u[0] += ev->a[c] * y[0][i], u[1] += ev->a[c] * y[1][i], u[2] += ev->a[c] * y[2][i];
            }
            for (int e = 0; e < 6; e++) B[e] = (double)(set ? ev->B[e] : sK * pr->kd[q].K[e] + sD * pr->kd[q].D[e]);
            f[0] = B[0] * u[0] + B[1] * u[1] + B[2] * u[2];
            f[1] = B[1] * u[0] + B[3] * u[1] + B[4] * u[2];
            f[2] = B[2] * u[0] + B[4] * u[1] + B[5] * u[2];
        }
    }
    hk_team_barrier(tm);
    hk_team_range(tm, 0, pr->ninv, &a, &n);
    for (int j = a; j < a + n; j++) {
        if (pr->on_start[j] == pr->on_start[j + 1]) continue;
        const int i = pr->inv[j];
        if (!out) {
            hk_real B[6];
            hk_pairs_diag(pr, j, sK, sD, bound, B);
            for (int e = 0; e < 6; e++) blk[e][i] += B[e];
            continue;
        }
        double s[3] = {0, 0, 0};
        for (int q = pr->on_start[j]; q < pr->on_start[j + 1]; q++) {
            const double al = pr->slot_a[q], *tf = pr->tf + 3 * (int64_t)(pr->on_slot[q] / 4);
            for (int c = 0; c < 3; c++) s[c] += al * tf[c];
        }
        for (int c = 0; c < 3; c++) out[c][i] += (hk_real)s[c];
    }
    hk_team_barrier(tm);
}

/* Whether pair pa is within the thickness at the state now (its weights into a, and its gap into *gap). */
static int in_contact(const hk_world *w, const hk_pairs *pr, const hk_pair *pa, double a[4], double *gap)
{
    double x[4][3], n[3];
    for (int c = 0; c < 4; c++) hk_particle_position(w, &w->bodies[hk_body_of(w, pa->p[c])], pa->p[c], x[c]);
    *gap = hk_pair_geometry(pr, pa, x, a, n, 0);
    return *gap < pr->th;
}

void hk_pairs_survey(const hk_world *w, const hk_pairs *pr, int32_t *count, int64_t *touching, double *min_gap)
{
    double best = *min_gap;
    for (int64_t k = 0; k < pr->npair; k++) {
        const hk_pair *pa = &pr->pair[k];
        double a[4], gap;
        if (!in_contact(w, pr, pa, a, &gap)) continue;
        if (pa->kind == HK_PAIR_VT) best = g_min(best, gap);
        (*touching)++;
        for (int c = 0; count && c < 4; c++) count[pa->p[c]] += a[c] != 0;
    }
    *min_gap = best;
}

int64_t hk_pairs_contacts(const hk_world *w, const hk_pairs *pr, hk_pair *out)
{
    int64_t n = 0;
    for (int64_t k = 0; pr && k < pr->npair; k++) {
        double a[4], gap;
        if (!in_contact(w, pr, &pr->pair[k], a, &gap)) continue;
        if (out) out[n] = pr->pair[k];
        n++;
    }
    return n;
}

int hk_pairs_contacts_restore(hk_pairs *pr, int64_t n, const hk_pair *pairs, int64_t left)
{
    if (!pr) return 0; /* a rank that computes no pairs (rank 0 holds them) */
    if (pr->cappair < n + 1) {
        hk_pair *p = realloc(pr->pair, (size_t)(n + 1) * sizeof *p);
        if (!p) return -1;
        pr->pair = p, pr->cappair = n + 1;
    }
    if (n) memcpy(pr->pair, pairs, (size_t)n * sizeof *pairs);
    pr->npair = n;
    pr->lb_set = 0;
    pr->left = left;
    pr->builds = 0; /* the next step sets the frame qb, and finds its candidates and pairs anew (they replace these) */
    pr->cand_all = 1;
    pr->pairs_hold = 0;
    return 0;
}

int hk_pairs_diag(const hk_pairs *pr, int j, hk_real sK, hk_real sD, int bound, hk_real out[6])
{
    HK_ASSERT(!pr->unlisted || pr->non == 0);
    double s[6] = {0, 0, 0, 0, 0, 0};
    for (int q = pr->on_start[j]; q < pr->on_start[j + 1]; q++) {
        const int64_t t = pr->on_slot[q] / 4;
        const hk_pair_blocks *kd = &pr->kd[t];
        const double al = pr->slot_a[q];
        double wt = al * al;
        if (bound) { /* |alpha_i| sum_c |alpha_c|: diag(that) - alpha alpha^T is diagonally dominant */
            const double *a = pr->touch[t].a;
            wt = fabs(al) * (fabs(a[0]) + fabs(a[1]) + fabs(a[2]) + fabs(a[3]));
        }
        for (int e = 0; e < 6; e++) s[e] += wt * (double)(sK * kd->K[e] + sD * kd->D[e]);
    }
    for (int e = 0; e < 6; e++) out[e] = (hk_real)s[e];
    return pr->inv[j];
}
