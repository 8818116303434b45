/* distribute.c — cuts a world into the ranks' shares from the engine's plans (slabs, ranges of nodes, whole bodies). */
/* SPDX-License-Identifier: MIT */
#include "check.h"
#include "constraints.h"
#include "engine.h"
#include "hold.h"
#include "integrators.h"
#include "pairs.h"
#include "part.h"
#include "sweep.h"
#include "system.h"

#include <stdlib.h>
#include <string.h>

/* Work of each row of a lattice body: its nodes and the springs whose
 * source node lies in it (what the sweep computes for the row). */
static void row_work(const hk_world *w, int b, const hk_sweep_plan *sp, int64_t *out)
{
    const hk_body *bd = &w->bodies[b];
    for (int r = 0; r < sp->nrows; r++) out[r] = bd->nx;
    for (int q = 0; q < sp->nfam; q++) {
        const hk_family *f = &w->families[sp->fam[q]];
        const int64_t per = f->i1 > f->i0 ? f->i1 - f->i0 : 0;
        for (int k = f->k0; k < f->k1; k++)
            for (int j = f->j0; j < f->j1; j++) out[(int64_t)k * bd->ny + j] += per;
    }
}

/* Cuts n items of work w[0 .. n) into `ranks` contiguous ranges, rank r's
 * share being the fraction cap[r] / cap[ranks] of the total, where cap
 * holds the ranks' cumulative capacities (cap[0] = 0): cut[r] is the first
 * item of rank r, the first whose work before it reaches rank r's start. */
static void cut_items(const int64_t *w, int n, const int64_t *cap, int ranks, int *cut)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) total += w[i];
    cut[0] = 0;
    cut[ranks] = n;
    int i = 0;
    int64_t before = 0; /* work of items [0, i) */
    for (int r = 1; r < ranks; r++) {
        const int64_t at = cap[ranks] > 0 ? (int64_t)((__int128)total * cap[r] / cap[ranks]) : total * r / ranks;
        while (i < n && before + w[i] / 2 < at) before += w[i++]; /* an item goes where most of it lies */
        cut[r] = i;
    }
}

/* cut_items over the rows of split body b, whose row work is rw[0 ..
 * nrows); an implicit world's cuts fall on whole units of rows
 * (hk_part_unit_rows), the unit's work being its rows'. */
static void cut_slab(const hk_world *w, int b, int64_t *rw, int nrows, const int64_t *cap, int R, int *rows)
{
    const int u = hk_integrator_info_of(w->integrator.kind)->implicit ? hk_part_unit_rows(&w->bodies[b]) : 1;
    if (u <= 1) {
        cut_items(rw, nrows, cap, R, rows);
        return;
    }
    const int n = (nrows + u - 1) / u;
    for (int i = 0; i < n; i++) { /* in place: unit i's rows [u i, u i + u) lie at or after slot i */
        int64_t s = 0;
        for (int r = i * u; r < (i + 1) * u && r < nrows; r++) s += rw[r];
        rw[i] = s;
    }
    cut_items(rw, n, cap, R, rows);
    for (int r = 0; r <= R; r++) rows[r] = rows[r] * u < nrows ? rows[r] * u : nrows;
}

/* Appends [a, e) to rank r's spans (merging with the last one when they touch); 0 or -1. */
static int add_span(struct hk_part *pt, int r, int64_t a, int64_t e, int *cap)
{
    if (a >= e) return 0;
    int n = pt->nspan[r];
    if (n > 0 && pt->span[r][2 * n - 1] == a) {
        pt->span[r][2 * n - 1] = (int)e;
        return 0;
    }
    if (n == cap[r]) {
        const int c = cap[r] ? 2 * cap[r] : 8;
        int *s = realloc(pt->span[r], (size_t)c * 2 * sizeof *s);
        if (!s) return -1;
        pt->span[r] = s;
        cap[r] = c;
    }
    pt->span[r][2 * n] = (int)a;
    pt->span[r][2 * n + 1] = (int)e;
    pt->nspan[r] = n + 1;
    return 0;
}

/* Splits one-row body b (a rope) into ranges of nodes, cut on whole
 * vectors (the sweep's windows start on them), balanced by each node's
 * springs; its halo is the windows' (hk_sweep_window_halo). 0 or -1. */
static int cut_nodes(const hk_world *w, struct hk_part *pt, int b, const int64_t *cap)
{
    const hk_sweep_plan *sp = hk_engine_plan(w, b);
    hk_part_body *pb = &pt->body[b];
    const int R = pt->ranks, n = (sp->nx + HK_ROW_VEC - 1) / HK_ROW_VEC;
    int64_t *vw = calloc((size_t)(n ? n : 1), sizeof *vw); /* work per vector of nodes */
    pb->rows = malloc(((size_t)R + 1) * sizeof *pb->rows);
    if (!vw || !pb->rows) {
        free(vw);
        return -1;
    }
    for (int i = 0; i < sp->nx; i++) vw[i / HK_ROW_VEC] += 1;
    for (int q = 0; q < sp->nfam; q++) {
        const hk_family *f = &w->families[sp->fam[q]];
        for (int i = f->i0; i < f->i1; i++) vw[i / HK_ROW_VEC] += 1;
    }
    cut_items(vw, n, cap, R, pb->rows);
    for (int r = 0; r <= R; r++) pb->rows[r] = pb->rows[r] * HK_ROW_VEC < sp->nx ? pb->rows[r] * HK_ROW_VEC : sp->nx;
    for (int r = 0; r < R; r++)
        for (int v = pb->rows[r] / HK_ROW_VEC; v < (pb->rows[r + 1] + HK_ROW_VEC - 1) / HK_ROW_VEC; v++)
            pt->work[r] += vw[v];
    free(vw);
    pb->owner = -1;
    pb->nodes = 1;
    pb->halo = hk_sweep_window_halo(w, sp);
    return 0;
}

/* Whether unit u holds a body that takes part in contact between bodies (pairs.h): such units go whole to rank
 * 0, which alone finds and sums the pairs, with every particle they join current on it. */
static int in_pairs(const hk_world *w, const hk_unit_view *u)
{
    const hk_contact_def d = hk_world_contact(w);
    for (int b = u->first; b < u->end; b++)
        if (hk_pairs_takes_part(&d, w, b)) return 1;
    return 0;
}

/* Whether unit u is shared out over the ranks (slabs of a lattice, ranges
 * of a rope's nodes, a run of solo bodies) rather than given whole: a rope
 * under an implicit integrator goes whole (the solver splits rows). */
static int shared_out(const hk_world *w, const hk_unit_view *u)
{
    if (in_pairs(w, u)) return 0;
    if (u->by_body) return 1;
    if (!u->slabs) return 0;
    return hk_engine_plan(w, u->first)->nrows > 1 || !hk_integrator_info_of(w->integrator.kind)->implicit;
}

/* The shares: whole units to the least loaded rank (largest first), then
 * the divisible work (slabs, runs of solo bodies) cut so that every rank
 * comes as near the mean as it can. 0 or -1 (out of memory). */
static int share(hk_world *w, struct hk_part *pt, const hk_unit_view *u, int nu)
{
    const int R = pt->ranks;
    int64_t *unit_work = calloc((size_t)(nu ? nu : 1), sizeof *unit_work), *cap = calloc((size_t)R + 1, sizeof *cap);
    int *order = malloc((size_t)(nu ? nu : 1) * sizeof *order), *cut = malloc(((size_t)R + 1) * sizeof *cut);
    int *span_cap = calloc((size_t)R, sizeof *span_cap);
    int failed = !unit_work || !cap || !order || !cut || !span_cap;
    int64_t divisible = 0, whole = 0;
    for (int q = 0; q < nu && !failed; q++) {
        for (int b = u[q].first; b < u[q].end; b++) unit_work[q] += hk_engine_plan(w, b)->work;
        if (shared_out(w, &u[q]))
            divisible += unit_work[q];
        else
            whole += unit_work[q];
    }
    /* whole units, largest first (ties: in body order), each to the least loaded rank (ties: the lowest) */
    int n_whole = 0;
    for (int q = 0; q < nu && !failed; q++) {
        if (shared_out(w, &u[q])) continue;
        int p = n_whole++;
        while (p > 0 && unit_work[order[p - 1]] < unit_work[q]) {
            order[p] = order[p - 1];
            p--;
        }
        order[p] = q;
    }
    for (int i = 0; i < n_whole && !failed; i++) {
        const hk_unit_view *un = &u[order[i]];
        int best = 0;
        for (int r = 1; r < R && !in_pairs(w, un); r++)
            if (pt->work[r] < pt->work[best]) best = r;
        pt->work[best] += unit_work[order[i]];
        for (int b = un->first; b < un->end; b++) pt->body[b].owner = best;
    }
    /* capacities: what each rank lacks of the mean, cumulated */
    const int64_t mean = (whole + divisible + R - 1) / R;
    for (int r = 0; r < R && !failed; r++) cap[r + 1] = cap[r] + (pt->work[r] < mean ? mean - pt->work[r] : 0);
    for (int q = 0; q < nu && !failed; q++) {
        if (!shared_out(w, &u[q])) continue;
        if (u[q].slabs && hk_engine_plan(w, u[q].first)->nrows == 1) { /* one row: ranges of nodes */
            failed = cut_nodes(w, pt, u[q].first, cap) != 0;
        } else if (u[q].slabs) {
            const int b = u[q].first;
            const hk_sweep_plan *sp = hk_engine_plan(w, b);
            hk_part_body *pb = &pt->body[b];
            int64_t *rw = malloc((size_t)(sp->nrows ? sp->nrows : 1) * sizeof *rw);
            pb->rows = malloc(((size_t)R + 1) * sizeof *pb->rows);
            if (!rw || !pb->rows) {
                free(rw);
                failed = 1;
                break;
            }
            row_work(w, b, sp, rw);
            cut_slab(w, b, rw, sp->nrows, cap, R, pb->rows);
            for (int r = 0; r < R; r++)
                for (int row = pb->rows[r]; row < pb->rows[r + 1]; row++) pt->work[r] += rw[row];
            free(rw);
            pb->owner = -1;
            pb->halo = sp->maxdr;
        } else {
            const int n = u[q].end - u[q].first;
            int64_t *bw = malloc((size_t)n * sizeof *bw);
            if (!bw) {
                failed = 1;
                break;
            }
            for (int i = 0; i < n; i++) bw[i] = hk_engine_plan(w, u[q].first + i)->work;
            cut_items(bw, n, cap, R, cut);
            for (int r = 0; r < R; r++)
                for (int i = cut[r]; i < cut[r + 1]; i++) {
                    pt->body[u[q].first + i].owner = r;
                    pt->work[r] += bw[i];
                }
            free(bw);
        }
    }
    /* every rank's particles as global indices, in body order */
    for (int b = 0; b < w->body_count && !failed; b++) {
        const hk_body *bd = &w->bodies[b];
        const hk_part_body *pb = &pt->body[b];
        if (pb->owner >= 0) {
            failed = add_span(pt, pb->owner, bd->gfirst, (int64_t)bd->gfirst + bd->total, span_cap) != 0;
            continue;
        }
        const int64_t stride = pb->nodes ? 1 : bd->nx;
        for (int r = 0; r < R && !failed; r++)
            failed = add_span(pt, r, bd->gfirst + pb->rows[r] * stride, bd->gfirst + pb->rows[r + 1] * stride,
                              span_cap) != 0;
    }
    /* the units, for the engine to keep */
    pt->unit = malloc((size_t)(nu ? nu : 1) * sizeof *pt->unit);
    failed |= !pt->unit;
    for (int q = 0; q < nu && !failed; q++) pt->unit[q] = (hk_part_unit){u[q].first, u[q].end, u[q].kind};
    pt->unit_count = failed ? 0 : nu;
    free(unit_work);
    free(cap);
    free(order);
    free(cut);
    free(span_cap);
    return failed ? -1 : 0;
}

/* This rank's particles as storage indices, and its messages of every split body's halo: rows it reads from each
 * other rank (up to `halo` rows on each side of its slab) and rows of its own that each other rank reads; after the
 * storage is laid out (hk_world_hold). 0 or -1. */
static int plan_storage(const hk_world *w, struct hk_part *pt)
{
    int cap = 0;
    for (int b = 0; b < w->body_count; b++) {
        hk_part_body *pb = &pt->body[b];
        const hk_body *bd = &w->bodies[b];
        int64_t l0, l1;
        if (hk_part_owned(w, b, &l0, &l1)) {
            const int64_t a = hk_body_base(bd) + l0, e = hk_body_base(bd) + l1;
            if (pt->nmine > 0 && pt->mine[2 * pt->nmine - 1] == a) {
                pt->mine[2 * pt->nmine - 1] = (int)e;
            } else {
                if (pt->nmine == cap) {
                    cap = cap ? 2 * cap : 8;
                    int *m = realloc(pt->mine, (size_t)cap * 2 * sizeof *m);
                    if (!m) return -1;
                    pt->mine = m;
                }
                pt->mine[2 * pt->nmine] = (int)a;
                pt->mine[2 * pt->nmine + 1] = (int)e;
                pt->nmine++;
            }
        }
        if (pb->owner >= 0) continue;
        pb->msg = malloc((size_t)(2 * pt->ranks) * sizeof *pb->msg);
        if (!pb->msg) return -1;
        const int64_t stride = pb->nodes ? 1 : bd->nx;
        pb->nmsg = hk_part_plan_halo(pt, pb->rows, pb->halo, hk_body_base(bd), bd->gfirst, stride, pb->msg);
    }
    return 0;
}

int hk_world_distribute(hk_world *w, int rank, int ranks, const hk_part_ops *ops, void *ctx)
{
    if (w->part) return hk_fail(w, "the world is shared out over ranks already: each rank holds its part of it");
    if (ranks < 1 || rank < 0 || rank >= ranks) return hk_fail(w, "rank %d of %d: not a rank", rank, ranks);
    const hk_integrator_info *in = hk_integrator_info_of(w->integrator.kind);
    if (ranks > 1 && in->iterated) return hk_fail(w, HK_SWEEPS_NOT_OVER_RANKS, in->name);
    hk_unit_view *u = NULL;
    const int nu = hk_engine_units(w, &u);
    if (nu < 0) return -1;
    struct hk_part *pt = calloc(1, sizeof *pt);
    int failed = !pt;
    if (pt) {
        pt->rank = rank;
        pt->ranks = ranks;
        pt->ops = ops;
        pt->ctx = ctx;
        pt->body_count = w->body_count;
        pt->body = calloc((size_t)(w->body_count ? w->body_count : 1), sizeof *pt->body);
        pt->span = calloc((size_t)ranks, sizeof *pt->span);
        pt->nspan = calloc((size_t)ranks, sizeof *pt->nspan);
        pt->work = calloc((size_t)ranks, sizeof *pt->work);
        failed = !pt->body || !pt->span || !pt->nspan || !pt->work || share(w, pt, u, nu) != 0;
    }
    free(u);
    if (failed) {
        hk_part_free(pt);
        return hk_fail_memory(w, "out of memory for the shares of %d ranks", ranks);
    }
    /* each rank's storage: its slabs with their halo rows, its whole bodies (hold.c), then what indexes it */
    w->part = pt;
    if (hk_world_hold(w) != 0) return -1; /* hk_world_hold said why; the world cannot be stepped */
    if (plan_storage(w, pt) != 0) return hk_fail_memory(w, "out of memory for the shares of %d ranks", ranks);
    HK_VALIDATE(hk_part_check, w, pt);
    return hk_world_optimise(w, 0) != 0 ? hk_failed(w) : hk_engine_apply_part(w);
}
