/* engine.c — one force pass or fused substep over every body: plans, per-thread work space, packed records. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "fpmode.h"
#include "surface.h"
#include "sweep.h"
#include "team.h"

/* What the engine keeps between passes. */
struct hk_engine {
    hk_sweep_plan *plans;             /* one per body */
    int plans_bodies, plans_families; /* the body and family counts they were made for */
    size_t space;                     /* work-space entries a thread needs for any body's sweep */
    hk_real **ws;                     /* per-thread work space, first touched by its thread */
    size_t *ws_len;                   /* entries in ws[t] */
    int ws_threads;
    hk_packed packed; /* list bodies' records (rec NULL: none) */
};

hk_engine_hook hk_engine_after_pass = NULL;

static void plans_free(hk_sweep_plan *plans, int bodies)
{
    for (int b = 0; b < bodies; b++) hk_sweep_plan_free(&plans[b]);
    free(plans);
}

void hk_engine_free(hk_engine *e)
{
    if (!e) return;
    if (e->plans) plans_free(e->plans, e->plans_bodies);
    free(e->packed.rec);
    free(e->packed.f);
    for (int t = 0; t < e->ws_threads; t++) hk_free_reals(e->ws[t]);
    free(e->ws);
    free(e->ws_len);
    free(e);
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
    int lists = 0;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].kind == HK_FAMILY_LIST) lists = 1;
    if (!lists || e->packed.cap >= w->p.count) return 0;
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

/* The plan of every body. A plan depends only on the bodies and their
 * families, which only grow (or shrink back when an add fails), so it is
 * built once and kept while their counts stay the same; 0 or -1. */
static int ensure_plans(hk_world *w, hk_engine *e)
{
    if (e->plans && e->plans_bodies == w->body_count && e->plans_families == w->family_count) return 0;
    if (e->plans) plans_free(e->plans, e->plans_bodies);
    e->plans = NULL;
    e->space = 0;
    hk_sweep_plan *plans = calloc((size_t)(w->body_count ? w->body_count : 1), sizeof *plans);
    if (!plans) return -1;
    for (int b = 0; b < w->body_count; b++) {
        if (hk_sweep_plan_body(w, b, &plans[b]) != 0) {
            plans_free(plans, b);
            return -1;
        }
        const size_t s = hk_sweep_space(&plans[b]);
        if (plans[b].nfam > 0 && s > e->space) e->space = s;
    }
    e->plans = plans;
    e->plans_bodies = w->body_count;
    e->plans_families = w->family_count;
    return 0;
}

int hk_engine_prepare(hk_world *w)
{
    if (hk_world_optimise(w, 0) != 0) return -1;
    if (!w->engine && !(w->engine = calloc(1, sizeof *w->engine))) return hk_fail(w, "out of memory for the engine");
    hk_engine *e = w->engine;
    if (ensure_packed(w, e) != 0) return hk_fail(w, "out of memory for packed particle records");
    if (ensure_plans(w, e) != 0) return hk_fail(w, "out of memory for the sweep plan");
    if (ensure_ws_slots(e, hk_world_team(w)) != 0) return hk_fail(w, "out of memory for thread work space");
    return 0;
}

void hk_engine_run(hk_world *w, const hk_kernels *k, const hk_update *u)
{
    if (hk_engine_prepare(w) != 0) return;
    hk_engine *e = w->engine;
    const hk_packed *pk = k->list_range_packed && e->packed.rec ? &e->packed : NULL;
    hk_step_ctx fused, add;
    hk_external_init(&fused.ext, &w->def);
    add.ext = fused.ext;
    fused.upd = *u;
    add.upd = (hk_update){HK_UPDATE_NONE, u->h, u->dt_a, u->dt_v, u->alpha};
    const int update = u->kind != HK_UPDATE_NONE;
    int failed = 0;
    /* the world's team: no more than the work-space slots hk_engine_prepare
     * made for it (num_threads caps a team; it never grows one) */
    const int team = hk_world_team(w);
    (void)team;
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel num_threads(team)
#endif
    {
        const unsigned fp = hk_fp_enter(); /* every thread in the solver's mode (fpmode.h) */
        const int t = HK_THREAD();
        hk_real *space = e->space ? thread_ws(e, t, e->space) : NULL;
        if (e->space && !space) {
#ifdef HOOKE_USE_OPENMP
#pragma omp atomic write
#endif
            failed = 1;
        }
        HK_BARRIER();
        for (int body = 0; body < w->body_count && !failed; body++) {
            if (body > 0) HK_BARRIER(); /* one body after the other */
            const hk_sweep_plan *sp = &e->plans[body];
            /* the external forces in the body's frame (its ground height) */
            hk_step_ctx bfused = fused, badd = add;
            hk_external_frame(&bfused.ext, &w->def, w->bodies[body].origin[1]);
            badd.ext = bfused.ext;
            /* face forces need every spring force first: no fused sweep */
            const int pure_lattice = sp->nfam > 0 && !sp->has_list && sp->surface < 0;
            if (update && pure_lattice) {
                hk_sweep_run(w, k, sp, &bfused, space);
                continue;
            }
            int g0, n;
            hk_team_range(w->bodies[body].first, w->bodies[body].count, &g0, &n);
            /* f = external + lattice springs; without lattice springs over
             * packed records, the packing computes the external forces */
            const int ext_in_pack = sp->nfam == 0 && sp->has_list && pk;
            if (sp->nfam > 0)
                hk_sweep_run(w, k, sp, &badd, space);
            else if (!ext_in_pack)
                k->external_forces(&badd.ext, &w->p, g0, n);
            if (!ext_in_pack) HK_BARRIER();
            if (sp->has_list) hk_lists_run(w, k, pk, body, sp->serial_lists, ext_in_pack ? &badd.ext : NULL);
            if (sp->surface >= 0) hk_surface_forces(w, &w->surfaces[sp->surface]); /* ends in a barrier */
            if (update) k->integrate(&fused.upd, &w->p, g0, n);
        }
        if (hk_engine_after_pass) {
            HK_BARRIER();
            hk_engine_after_pass(w, t, HK_THREADS());
        }
        hk_fp_leave(fp);
    }
    if (failed) hk_fail(w, "out of memory for thread work space");
    w->spring_updates += hk_world_spring_count(w);
}
