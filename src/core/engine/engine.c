/* engine.c — one force pass or fused substep over every body: plans, per-thread work space, packed records. */
/* SPDX-License-Identifier: MIT */
#include "engine.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "colour.h"
#include "part.h"
#include "response.h"
#include "surface.h"
#include "sweep.h"

/* What the engine keeps between passes. */
/* A unit of the engine's pass:
 *   TEAM   one body that the team computes together;
 *   SOLO   a run of consecutive solo bodies (sweep.h) that the threads share
 *          out by their work, each body whole on one thread, no barrier;
 *   GROUP  a run of consecutive small bodies of listed springs alike (the
 *          same families, parameters for parameters): their springs as one
 *          family per family of theirs (hk_colour_merge), swept by the team
 *          like one body's. The same bits as each body alone, without a
 *          pass per body (200 000 quads cost what one body of their
 *          springs costs). */
enum { UNIT_TEAM, UNIT_SOLO, UNIT_GROUP };
typedef struct hk_unit {
    int first, end; /* bodies [first, end) */
    int kind;
    int64_t *work; /* SOLO and GROUP: work[b - first] = work of the bodies before b, end - first + 1 entries */
    /* GROUP: the merged families, pointers to them, their particles, whether
     * few, whether the per-particle forces see every body in one frame (hk_external_same_frame) */
    hk_family *merged;
    const hk_family **mfp;
    int nmerged, p0, pn, serial, one_frame;
    /* the bodies this process computes: a distributed run's share of a
     * solo run (dist/part.h), else [first, end) */
    int mine_lo, mine_hi;
} hk_unit;

struct hk_engine {
    hk_sweep_plan *plans;             /* one per body */
    int plans_bodies, plans_families; /* the body and family counts they were made for */
    hk_unit *units;                   /* the bodies in order, as the pass takes them */
    int unit_count;
    const hk_family **lists; /* every listed spring once: each unit's list families, a group's merged */
    int list_count;
    size_t space;   /* work-space entries a thread needs for any body's sweep */
    hk_real **ws;   /* per-thread work space, first touched by its thread */
    size_t *ws_len; /* entries in ws[t] */
    int ws_threads;
    hk_packed packed; /* list bodies' records (rec NULL: none) */
};

static void plans_free(hk_sweep_plan *plans, int bodies)
{
    for (int b = 0; b < bodies; b++) hk_sweep_plan_free(&plans[b]);
    free(plans);
}

static void units_free(hk_engine *e)
{
    free(e->lists);
    e->lists = NULL;
    e->list_count = 0;
    for (int u = 0; u < e->unit_count; u++) {
        hk_unit *un = &e->units[u];
        free(un->work);
        for (int q = 0; q < un->nmerged; q++) hk_family_free(&un->merged[q]);
        free(un->merged);
        free(un->mfp);
    }
    free(e->units);
    e->units = NULL;
    e->unit_count = 0;
}

/* Frees the plans and the units made from them (ensure_plans makes them again). */
static void drop_plans(hk_engine *e)
{
    if (e->plans) plans_free(e->plans, e->plans_bodies);
    units_free(e);
    e->plans = NULL;
}

void hk_engine_free(hk_engine *e)
{
    if (!e) return;
    drop_plans(e);
    free(e->packed.rec);
    free(e->packed.f);
    for (int t = 0; t < e->ws_threads; t++) hk_free_reals(e->ws[t]);
    free(e->ws);
    free(e->ws_len);
    free(e);
}

int hk_engine_lists(hk_world *w, const hk_family *const **out)
{
    if (hk_engine_prepare(w) != 0) return -1;
    *out = w->engine->lists;
    return w->engine->list_count;
}

const hk_packed *hk_engine_packed(const hk_world *w)
{
    return w->engine && w->engine->packed.rec ? &w->engine->packed : NULL;
}

/* Makes room for `threads` work spaces (called outside parallel regions). */
static int ensure_ws_slots(hk_engine *e, int threads)
{
    if (e->ws_threads >= threads) return 0;
    hk_real **ws = realloc(e->ws, (size_t)threads * sizeof *ws);
    if (!ws) return -1;
    e->ws = ws;
    size_t *len = realloc(e->ws_len, (size_t)threads * sizeof *len);
    if (!len) return -1;
    e->ws_len = len;
    for (int t = e->ws_threads; t < threads; t++) {
        e->ws[t] = NULL;
        e->ws_len[t] = 0;
    }
    e->ws_threads = threads;
    return 0;
}

/* This thread's work space of at least n entries, allocated (and so first
 * touched) by the thread itself; NULL if out of memory. */
static hk_real *thread_ws(hk_engine *e, int t, size_t n)
{
    if (e->ws_len[t] < n) {
        /* not hk_alloc_reals: its parallel zeroing would nest a parallel
         * region here, and this thread alone should touch its pages */
        hk_free_reals(e->ws[t]);
        const size_t bytes = (hk_padded(n) * sizeof(hk_real) + 63) / 64 * 64;
        e->ws[t] = aligned_alloc(64, bytes);
        if (e->ws[t]) memset(e->ws[t], 0, bytes);
        e->ws_len[t] = e->ws[t] ? n : 0;
    }
    return e->ws[t];
}

/* The packed records, when the world has list springs and k list kernels
 * over records; 0 or -1 (out of memory). */
static int ensure_packed(hk_world *w, hk_engine *e)
{
    if (!hk_world_facts(w)->lists || e->packed.cap >= w->p.count) return 0;
    free(e->packed.rec);
    free(e->packed.f);
    const size_t n = (size_t)w->p.capacity;
    e->packed.rec = aligned_alloc(64, n * 8 * sizeof(float));
    e->packed.f = aligned_alloc(64, n * 4 * sizeof(float));
    e->packed.cap = (e->packed.rec && e->packed.f) ? w->p.capacity : 0;
    if (e->packed.cap) return 0;
    free(e->packed.rec);
    free(e->packed.f);
    e->packed.rec = e->packed.f = NULL;
    return -1;
}

/* Whether body b can join a group: solo, listed springs only, each family
 * coloured, without broken flags or rest vectors. */
static int groupable(const hk_sweep_plan *sp)
{
    if (!sp->solo || sp->nfam > 0 || sp->nlist == 0) return 0;
    for (int q = 0; q < sp->nlist; q++) {
        const hk_family *f = sp->list_fam[q];
        if (!f->colour_start || f->broken || f->rvec[0]) return 0;
    }
    return 1;
}

/* Whether bodies with plans a and b are alike: their families in order
 * with the same parameters, rest lengths for all or none. */
static int alike(const hk_sweep_plan *a, const hk_sweep_plan *b)
{
    if (a->nlist != b->nlist) return 0;
    for (int q = 0; q < a->nlist; q++) {
        const hk_family *f = a->list_fam[q], *g = b->list_fam[q];
        if (memcmp(&f->params, &g->params, sizeof f->params) != 0 || (f->rest_list != NULL) != (g->rest_list != NULL))
            return 0;
    }
    return 1;
}

static int group_at(const hk_sweep_plan *plans, int b, int bodies)
{
    return b + 1 < bodies && groupable(&plans[b]) && groupable(&plans[b + 1]) && alike(&plans[b], &plans[b + 1]);
}

/* u's prefix sums of its bodies' work; 0 or -1. */
static int unit_work(hk_unit *u, const hk_sweep_plan *plans)
{
    u->work = malloc((size_t)(u->end - u->first + 1) * sizeof *u->work);
    if (!u->work) return -1;
    u->work[0] = 0;
    for (int q = u->first; q < u->end; q++) u->work[q - u->first + 1] = u->work[q - u->first] + plans[q].work;
    return 0;
}

/* A group's merged families, one per family of its bodies; 0 or -1. */
static int merge_group(const hk_world *w, hk_unit *u, const hk_sweep_plan *plans)
{
    const int n = plans[u->first].nlist, m = u->end - u->first;
    u->p0 = w->bodies[u->first].first;
    u->pn = w->bodies[u->end - 1].first + w->bodies[u->end - 1].count - u->p0;
    u->merged = calloc((size_t)n, sizeof *u->merged);
    u->mfp = malloc((size_t)n * sizeof *u->mfp);
    const hk_family **members = malloc((size_t)m * sizeof *members);
    if (!u->merged || !u->mfp || !members) {
        free(members);
        return -1;
    }
    for (int q = 0; q < n; q++) {
        for (int b = 0; b < m; b++) members[b] = plans[u->first + b].list_fam[q];
        if (hk_colour_merge(&u->merged[q], members, m, u->p0, u->pn) != 0) {
            free(members);
            return -1;
        }
        u->nmerged = q + 1;
        u->mfp[q] = &u->merged[q];
    }
    free(members);
    u->serial = hk_lists_serial(w, u->mfp, u->nmerged);
    u->one_frame = 1;
    for (int b = u->first + 1; b < u->end; b++)
        u->one_frame &= hk_external_same_frame(&w->def, w->bodies[b].origin, w->bodies[u->first].origin);
    return 0;
}

/* The units of the pass: groups of alike bodies, runs of other consecutive
 * solo bodies, and every other body a unit of its own; on a distributed
 * world the units its shares were cut from (part.h), since the bodies
 * another rank holds have no springs here (a group this rank does not hold
 * is not merged). 0 or -1. */
static int plan_units(const hk_world *w, hk_engine *e, int bodies)
{
    e->units = calloc((size_t)(bodies ? bodies : 1), sizeof *e->units);
    if (!e->units) return -1;
    const hk_sweep_plan *plans = e->plans;
    const struct hk_part *pt = w->part;
    for (int q = 0; pt && q < pt->unit_count; q++) {
        hk_unit *u = &e->units[e->unit_count++];
        u->first = u->mine_lo = pt->unit[q].first;
        u->end = u->mine_hi = pt->unit[q].end;
        u->kind = pt->unit[q].kind;
        if (u->kind != UNIT_TEAM && unit_work(u, plans) != 0) return -1;
        if (u->kind == UNIT_GROUP && w->bodies[u->first].count > 0 && merge_group(w, u, plans) != 0) return -1;
    }
    for (int b = pt ? bodies : 0; b < bodies;) {
        hk_unit *u = &e->units[e->unit_count++];
        u->first = b;
        u->end = b + 1;
        u->mine_lo = b;
        if (group_at(plans, b, bodies)) {
            u->kind = UNIT_GROUP;
            while (u->end < bodies && groupable(&plans[u->end]) && alike(&plans[b], &plans[u->end])) u->end++;
            if (unit_work(u, plans) != 0 || merge_group(w, u, plans) != 0) return -1;
        } else if (plans[b].solo) {
            u->kind = UNIT_SOLO;
            while (u->end < bodies && plans[u->end].solo && !group_at(plans, u->end, bodies)) u->end++;
            if (unit_work(u, plans) != 0) return -1;
        } else {
            u->kind = UNIT_TEAM;
        }
        b = u->mine_hi = u->end;
    }
    /* the list families unit by unit (hk_engine_lists) */
    int n = 0;
    for (int q = 0; q < e->unit_count; q++) {
        const hk_unit *u = &e->units[q];
        if (u->kind == UNIT_GROUP)
            n += u->nmerged;
        else
            for (int b = u->first; b < u->end; b++) n += plans[b].nlist;
    }
    e->lists = malloc((size_t)(n ? n : 1) * sizeof *e->lists);
    if (!e->lists) return -1;
    for (int q = 0; q < e->unit_count; q++) {
        const hk_unit *u = &e->units[q];
        if (u->kind == UNIT_GROUP)
            for (int m = 0; m < u->nmerged; m++) e->lists[e->list_count++] = u->mfp[m];
        else
            for (int b = u->first; b < u->end; b++)
                for (int m = 0; m < plans[b].nlist; m++) e->lists[e->list_count++] = plans[b].list_fam[m];
    }
    return 0;
}

/* The plan of every body and the units. A plan depends only on the bodies
 * and their families, which only grow (or shrink back when an add fails),
 * so it is built once and kept while their counts stay the same; 0 or -1.
 * Each body's plan gets its families from one pass over them (a counting
 * sort by body), so planning is linear in bodies and families. */
static int ensure_plans(hk_world *w, hk_engine *e)
{
    if (e->plans && e->plans_bodies == w->body_count && e->plans_families == w->family_count) return 0;
    drop_plans(e);
    e->space = 0;
    const int B = w->body_count, F = w->family_count;
    hk_sweep_plan *plans = calloc((size_t)(B ? B : 1), sizeof *plans);
    int *start = NULL, *fams = NULL;
    if (!plans || hk_world_body_families(w, &start, &fams) != 0) {
        free(plans);
        return -1;
    }
    int failed = 0;
    for (int b = 0; b < B && !failed; b++) {
        failed = hk_sweep_plan_body(w, b, fams + start[b], start[b + 1] - start[b], &plans[b]) != 0;
        if (failed) {
            plans_free(plans, b);
            break;
        }
        const size_t s = hk_sweep_space(&plans[b]);
        if (plans[b].nfam > 0 && s > e->space) e->space = s;
    }
    free(start);
    free(fams);
    if (failed) return -1;
    e->plans = plans;
    e->plans_bodies = B;
    e->plans_families = F;
    if (plan_units(w, e, B) != 0) {
        drop_plans(e);
        return -1;
    }
    return w->part ? hk_engine_apply_part(w) : 0;
}

int hk_engine_apply_part(hk_world *w)
{
    hk_engine *e = w->engine;
    if (!e || !e->plans) return hk_engine_prepare(w);
    if (w->part && w->part->body_count != w->body_count)
        return hk_fail(w, "bodies were added after the world was shared out over ranks");
    e->space = 0;
    for (int b = 0; b < e->plans_bodies; b++) {
        hk_sweep_plan *sp = &e->plans[b];
        sp->split = hk_part_rows(w, b, &sp->lo, &sp->hi, NULL) || hk_part_nodes(w, b, &sp->lo, &sp->hi, NULL);
        if (!sp->split) sp->lo = 0, sp->hi = sp->nrows;
        const size_t s = hk_sweep_space(sp);
        if (sp->nfam > 0 && s > e->space) e->space = s;
    }
    for (int q = 0; q < e->unit_count; q++) { /* a solo run's bodies of this rank: contiguous (part.c) */
        hk_unit *u = &e->units[q];
        u->mine_lo = u->first;
        u->mine_hi = u->end;
        if (u->kind != UNIT_SOLO || !w->part) continue;
        while (u->mine_lo < u->end && !hk_part_computes(w, u->mine_lo)) u->mine_lo++;
        u->mine_hi = u->mine_lo;
        while (u->mine_hi < u->end && hk_part_computes(w, u->mine_hi)) u->mine_hi++;
        if (HK_CHECKS)
            for (int b = u->mine_hi; b < u->end; b++) HK_ASSERT(!hk_part_computes(w, b)); /* one range of the run */
    }
    return 0;
}

int hk_engine_units(hk_world *w, hk_unit_view **out)
{
    if (hk_engine_prepare(w) != 0) return -1;
    const hk_engine *e = w->engine;
    hk_unit_view *v = malloc((size_t)(e->unit_count ? e->unit_count : 1) * sizeof *v);
    if (!v) return hk_fail_memory(w, "out of memory for the engine's units");
    for (int q = 0; q < e->unit_count; q++) {
        const hk_unit *u = &e->units[q];
        const hk_sweep_plan *sp = &e->plans[u->first];
        v[q].first = u->first;
        v[q].end = u->end;
        v[q].by_body = u->kind == UNIT_SOLO;
        v[q].slabs = u->kind == UNIT_TEAM && sp->nfam > 0 && !sp->has_list && sp->surface < 0;
        v[q].kind = u->kind;
    }
    *out = v;
    return e->unit_count;
}

const hk_sweep_plan *hk_engine_plan(const hk_world *w, int body) { return &w->engine->plans[body]; }

/* The optimise pass (hooke.h): the colouring, then the plans, so a run's
 * first step does not pay for them. Colouring anew (after a body or family
 * was added, or particles reordered) drops the plans: a group's merged
 * families copy its bodies' colourings. */
int hk_world_optimise(hk_world *w, int reorder_particles)
{
    if (reorder_particles)
        for (int b = 0; b < w->body_count; b++)
            if (hk_world_reorder_body(w, b, NULL) != 0) return -1;
    if (!w->coloured) {
        for (int f = 0; f < w->family_count; f++)
            if (w->families[f].kind == HK_FAMILY_LIST && !w->families[f].colour_start &&
                hk_colour_family(&w->families[f], w->bodies[w->families[f].body].first,
                                 w->bodies[w->families[f].body].count) != 0)
                return hk_fail_memory(w, "out of memory while colouring the %lld springs of family %s",
                                      (long long)w->families[f].count, w->families[f].name);
        w->coloured = 1;
        if (w->engine) drop_plans(w->engine);
    }
    if (!w->engine && !(w->engine = calloc(1, sizeof *w->engine)))
        return hk_fail_memory(w, "out of memory for the engine");
    hk_engine *e = w->engine;
    if (ensure_packed(w, e) != 0) return hk_fail_memory(w, "out of memory for packed particle records");
    if (ensure_plans(w, e) != 0) return hk_fail_memory(w, "out of memory for the sweep plan");
    if (ensure_ws_slots(e, hk_world_team(w)) != 0) return hk_fail_memory(w, "out of memory for thread work space");
    return 0;
}

int hk_engine_prepare(hk_world *w) { return hk_world_optimise(w, 0); }

/* What one pass needs on every thread: the kernels, the update, the two
 * step contexts (with the update fused, without), the packed records. */
typedef struct pass {
    const hk_kernels *k;
    hk_step_ctx fused, add;
    int update;
    const hk_packed *pk;
} pass;

/* One body on the whole team (every task calls it). */
static void team_body(const hk_team *tm, hk_world *w, const pass *ps, int body, const hk_sweep_plan *sp, hk_real *space)
{
    const hk_kernels *k = ps->k;
    /* the per-particle forces in the body's frame (external.h) */
    hk_step_ctx fused = ps->fused, add = ps->add;
    hk_external_frame(&fused.ext, &w->def, w->bodies[body].origin);
    add.ext = fused.ext;
    /* face forces need every spring force first: no fused sweep */
    const int pure_lattice = sp->nfam > 0 && !sp->has_list && sp->surface < 0;
    if (ps->update && pure_lattice) {
        hk_sweep_run(tm, w, k, sp, &fused, space);
        return;
    }
    int g0, n;
    hk_team_range(tm, w->bodies[body].first, w->bodies[body].count, &g0, &n);
    /* f = external + lattice springs; without lattice springs over packed
     * records, the packing computes the external forces */
    const int ext_in_pack = sp->nfam == 0 && sp->has_list && ps->pk;
    if (sp->nfam > 0)
        hk_sweep_run(tm, w, k, sp, &add, space);
    else if (!ext_in_pack)
        k->external_forces(&add.ext, &w->p, g0, n);
    /* the lists and faces add to forces other tasks started (a lattice
     * body's alone ends here: no barrier) */
    if (!ext_in_pack && (sp->has_list || sp->surface >= 0)) hk_team_barrier(tm);
    if (sp->has_list)
        hk_lists_run(tm, w, k, ps->pk, w->bodies[body].first, w->bodies[body].count, sp->list_fam, sp->nlist,
                     sp->serial_lists, ext_in_pack ? &add.ext : NULL);
    /* the face forces end in each task's share of the particles, which
     * the update takes as they are (surface.h) */
    if (sp->surface >= 0) hk_surface_forces(tm, w, &w->surfaces[sp->surface]);
    if (ps->update) k->integrate(&fused.upd, &w->p, g0, n);
}

/* One solo body (no surface) whole on the calling thread: the same passes
 * in the same order as team_body, without barriers. */
static void solo_body(hk_world *w, const pass *ps, int body, const hk_sweep_plan *sp, hk_real *space)
{
    const hk_kernels *k = ps->k;
    hk_step_ctx fused = ps->fused, add = ps->add;
    hk_external_frame(&fused.ext, &w->def, w->bodies[body].origin);
    add.ext = fused.ext;
    const int g0 = w->bodies[body].first, n = w->bodies[body].count;
    if (ps->update && sp->nfam > 0 && !sp->has_list) {
        hk_sweep_solo(w, k, sp, &fused, space);
        return;
    }
    const int ext_in_pack = sp->nfam == 0 && sp->has_list && ps->pk;
    if (sp->nfam > 0)
        hk_sweep_solo(w, k, sp, &add, space);
    else if (!ext_in_pack)
        k->external_forces(&add.ext, &w->p, g0, n);
    if (sp->has_list) hk_lists_solo(w, k, ps->pk, g0, n, sp->list_fam, sp->nlist, ext_in_pack ? &add.ext : NULL);
    if (ps->update) k->integrate(&fused.upd, &w->p, g0, n);
}

/* The first body of a solo run or group that task t of T takes: the one
 * in which the t/T-th part of the run's work falls (the run's bodies split
 * in T contiguous shares of about equal work; which task computes a body
 * does not change its bits). */
static int solo_share(const hk_unit *u, int t, int T)
{
    int lo = u->mine_lo - u->first, hi = u->mine_hi - u->first; /* the first q with work[q + 1] > at */
    const int64_t base = u->work[lo], at = base + (u->work[hi] - base) * t / T;
    while (lo < hi) {
        const int m = lo + (hi - lo) / 2;
        if (u->work[m + 1] > at)
            hi = m;
        else
            lo = m + 1;
    }
    HK_ASSERT(u->first + lo >= u->mine_lo && u->first + lo <= u->mine_hi);
    return u->first + lo;
}

/* A group on the whole team: f = the external forces (over the group's
 * particles at once, or body by body in each body's frame when a term that
 * reads the position sees them in different frames), its merged families,
 * the update. */
static void group_unit(const hk_team *tm, hk_world *w, const pass *ps, const hk_unit *un)
{
    const hk_kernels *k = ps->k;
    const int t = tm->t, T = tm->T;
    hk_external ext = ps->add.ext;
    if (!ext.reads || un->one_frame) {
        int g0, n;
        hk_team_range(tm, un->p0, un->pn, &g0, &n);
        hk_external_frame(&ext, &w->def, w->bodies[un->first].origin);
        k->external_forces(&ext, &w->p, g0, n);
    } else {
        const int b1 = t + 1 < T ? solo_share(un, t + 1, T) : un->mine_hi;
        for (int b = solo_share(un, t, T); b < b1; b++) {
            hk_external_frame(&ext, &w->def, w->bodies[b].origin);
            k->external_forces(&ext, &w->p, w->bodies[b].first, w->bodies[b].count);
        }
    }
    hk_team_barrier(tm);
    hk_lists_run(tm, w, k, ps->pk, un->p0, un->pn, un->mfp, un->nmerged, un->serial, NULL);
    if (ps->update) {
        int g0, n;
        hk_team_range(tm, un->p0, un->pn, &g0, &n);
        k->integrate(&ps->fused.upd, &w->p, g0, n);
    }
}

/* The pass's shared state: every task's work space ready before it
 * starts (ready), or a task found none (failed). */
typedef struct run_pass {
    hk_world *w;
    hk_engine *e;
    const pass *ps;
    int ready;
    atomic_int failed;
} run_pass;

static void run_task(const hk_team *tm, void *ctx)
{
    run_pass *rp = ctx;
    hk_world *w = rp->w;
    hk_engine *e = rp->e;
    const pass *ps = rp->ps;
    const int t = tm->t, T = tm->T;
    HK_ASSERT(t < e->ws_threads || !e->space);
    hk_real *space = e->space ? thread_ws(e, t, e->space) : NULL;
    if (!rp->ready) {
        if (e->space && !space) atomic_store_explicit(&rp->failed, 1, memory_order_relaxed);
        hk_team_barrier(tm); /* every task's flag is in */
    }
    /* the same on every task after the barrier: no barrier is skipped by one alone */
    if (atomic_load_explicit(&rp->failed, memory_order_relaxed)) return;
    /* no barrier between units: bodies share no particle, and each
     * body's own passes end in the barriers they need */
    for (int q = 0; q < e->unit_count; q++) {
        const hk_unit *un = &e->units[q];
        /* another rank's (a split body's sweep runs on every rank: each takes part in its exchanges) */
        if (un->kind != UNIT_SOLO && w->part && w->part->body[un->first].owner >= 0 && !hk_part_computes(w, un->first))
            continue;
        if (un->kind == UNIT_TEAM) {
            team_body(tm, w, ps, un->first, &e->plans[un->first], space);
            continue;
        }
        if (un->kind == UNIT_GROUP) {
            group_unit(tm, w, ps, un);
            continue;
        }
        const int b0 = solo_share(un, t, T), b1 = t + 1 < T ? solo_share(un, t + 1, T) : un->mine_hi;
        for (int body = b0; body < b1; body++) solo_body(w, ps, body, &e->plans[body], space);
    }
    if (w->after_pass) { /* a test's (world.h) */
        hk_team_barrier(tm);
        w->after_pass(w, t, T);
    }
}

void hk_engine_run(hk_world *w, const hk_kernels *k, const hk_update *u)
{
    if (hk_engine_prepare(w) != 0) {
        w->step_failed = hk_failed(w); /* the step stops here; hk_engine_prepare said why */
        return;
    }
    hk_engine *e = w->engine;
    pass ps;
    ps.k = k;
    ps.pk = k->list_range_packed && e->packed.rec ? &e->packed : NULL;
    hk_external_init(&ps.fused.ext, &w->def);
    hk_particle_force_arrays(w, ps.fused.ext.contact); /* computed by forces.c before the pass */
    ps.add.ext = ps.fused.ext;
    ps.fused.upd = *u;
    ps.add.upd = (hk_update){HK_UPDATE_NONE, u->h, u->dt_a, u->dt_v, u->alpha};
    ps.update = u->kind != HK_UPDATE_NONE;
    /* the world's team: no more than the work-space slots hk_engine_prepare
     * made for it (an OpenMP team is never larger than asked for) */
    const int team = hk_world_team(w);
    run_pass rp = {.w = w, .e = e, .ps = &ps, .ready = 1};
    atomic_init(&rp.failed, 0);
    /* every task's work space, when each already has one: no check, no barrier */
    for (int t = 0; t < team && rp.ready; t++) rp.ready = !e->space || (t < e->ws_threads && e->ws_len[t] >= e->space);
    hk_team_run(w, team, run_task, &rp);
    if (atomic_load(&rp.failed)) w->step_failed = hk_fail_memory(w, "out of memory for thread work space");
    w->spring_updates += hk_world_facts(w)->springs;
}
