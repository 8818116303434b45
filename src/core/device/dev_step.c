/* dev_step.c — the device's passes of a step (world/exec.h): forces, the schemes' updates, anchors, breaking,
 * obstacles. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "colour.h"
#include "dev_world.h"
#include "forces.h"
#include "integrators.h"
#include "mesh.h"
#include "surface.h"

/* The step is step.c's, told once; the schemes' stages are integrators.c's. Each pass of its table (hk_dev_exec)
 * is here one or more passes of dev_pass.h on the device. What the host keeps: the anchors' and the spheres' motion
 * (a few doubles a substep, advanced by step.c and handed to the passes), the counters, and the decisions. */

/* Surface s's face forces added to f (surface.c hk_surface_forces: its volume and pressure where it has nRT, its
 * face and vertex passes). */
static void surface_forces(hk_world *w, hk_device *d, int s)
{
    const hk_surface *sf = &w->surfaces[s];
    const dev_surface *ds = &d->surf[s];
    hkd_args a = {.kind = HKD_VOLUME};
    hkd_surface_args *sa = &a.u.surface;
    sa->q = hk_dev_vec(d->q[d->cur]), sa->r = hk_dev_vec(d->r), sa->v = hk_dev_vec(d->v[d->cur]),
    sa->f = hk_dev_vec(d->f);
    sa->face = ds->face, sa->vf_start = ds->vf_start, sa->vf_face = ds->vf_face;
    sa->face_f = ds->face_f, sa->face_n = ds->face_n, sa->block = ds->block;
    sa->pv = sf->nrt > 0 ? ds->pv : NULL;
    sa->dim = sf->dim, sa->wind = (int)w->def.wind_model, sa->face_block = HK_FACE_BLOCK;
    sa->first = sf->first, sa->nfaces = sf->nfaces, sa->pump = sf->pump, sa->nrt = sf->nrt;
    sa->wv[0] = w->def.wind.x, sa->wv[1] = w->def.wind.y, sa->wv[2] = w->def.wind.z, sa->cw = w->def.wind_drag;
    if (sa->pv) {
        hk_dev_run(d, &a, (sf->nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK, NULL);
        a.kind = HKD_PRESSURE;
        hk_dev_run(d, &a, 1, NULL);
    }
    a.kind = HKD_FACES;
    hk_dev_run(d, &a, sf->nfaces, NULL);
    a.kind = HKD_VERTS;
    hk_dev_run(d, &a, sf->count, NULL);
}

/* The springs of list family fi as a LIST or LIST_BREAK pass reads them: their ends, rest lengths, rest vectors and
 * broken flags on the device, the positions. */
static void list_springs(const hk_world *w, const hk_device *d, int fi, hkd_list_args *la)
{
    const dev_list *dl = &d->list[fi];
    la->q = hk_dev_vec(d->q[d->cur]);
    la->a = dl->a, la->b = dl->b, la->rest = dl->rest, la->broken = d->broken[fi];
    for (int c = 0; c < 3; c++) la->rv[c] = dl->rv[c];
    la->L0 = w->families[fi].rest;
}

/* List family fi's springs added to f in the CPU's order (engine/lists.c lists_span on one task, the order every
 * team count sums in): for each colour the near springs of the even bands, then for each colour those of the odd
 * bands, then each colour's far springs, then the overflow colour in order. */
static void list_forces(hk_world *w, hk_device *d, int fi)
{
    const hk_family *f = &w->families[fi];
    hkd_args a = {.kind = HKD_LIST};
    hkd_list_args *la = &a.u.list;
    list_springs(w, d, fi, la);
    la->v = hk_dev_vec(d->v[d->cur]), la->f = hk_dev_vec(d->f);
    la->k = f->k, la->c = f->c;
    la->model = (int32_t)f->params.damping_model, la->behaviour = (int32_t)f->params.behaviour;
    la->band = HK_BAND, la->first_band = f->band_first;
    const int regular = f->overflow ? f->colour_count - 1 : f->colour_count;
    for (int parity = 0; parity < 2; parity++) /* the near springs: even bands, then odd ones */
        for (int c = 0; c < regular; c++) {
            la->serial = 0, la->parity = parity;
            la->s0 = f->colour_start[c];
            hk_dev_run(d, &a, f->near_end[c] - f->colour_start[c], NULL);
        }
    for (int c = 0; c < regular; c++) { /* the far springs */
        la->serial = 0, la->parity = -1;
        la->s0 = f->near_end[c];
        hk_dev_run(d, &a, f->colour_start[c + 1] - f->near_end[c], NULL);
    }
    if (f->overflow) { /* particles repeat: one element, in order */
        la->serial = 1, la->parity = -1;
        la->s0 = f->colour_start[regular], la->count = f->colour_start[regular + 1] - f->colour_start[regular];
        hk_dev_run(d, &a, la->count > 0 ? 1 : 0, NULL);
    }
}

/* One force evaluation of every body (engine.c's pass), with the one-evaluation update of `kind` fused where the
 * engine fuses it (a body without an active surface) and after the surface's forces where it does not; NONE:
 * the forces alone. An update writes the state into the other buffer. */
static void forces(hk_world *w, hk_device *d, hk_update_kind kind, hk_real h)
{
    const hk_update u = hk_update_make(kind, h, &w->integrator),
                    none = hk_update_make(HK_UPDATE_NONE, h, &w->integrator);
    hk_external ext;
    hk_external_init(&ext, &w->def);
    const int cur = d->cur, nxt = 1 - cur;
    for (int b = 0; b < w->body_count; b++) {
        const hk_body *bd = &w->bodies[b];
        const dev_body *db = &d->body[b];
        hk_external_frame(&ext, &w->def, bd->origin);
        const int fused = kind != HK_UPDATE_NONE && db->surface < 0 && db->nlist == 0;
        hkd_args a = {.kind = HKD_NODES};
        hkd_nodes_args *na = &a.u.nodes;
        na->q = hk_dev_vec(d->q[cur]), na->v = hk_dev_vec(d->v[cur]), na->qo = hk_dev_vec(d->q[nxt]),
        na->vo = hk_dev_vec(d->v[nxt]);
        na->f = hk_dev_vec(d->f), na->r = hk_dev_vec(d->r), na->mass = d->mass, na->inv_mass = d->inv_mass;
        na->nterm = db->nterm, na->lattice = db->nfam > 0, na->sum = db->sum;
        if (db->nterm) memcpy(na->term, db->term, (size_t)db->nterm * sizeof *db->term);
        for (int c = 0; c < 3; c++) na->inside_lo[c] = db->inside_lo[c], na->inside_hi[c] = db->inside_hi[c];
        na->first = (int32_t)bd->first, na->nx = bd->nx > 0 ? bd->nx : 1, na->ny = bd->ny > 0 ? bd->ny : 1;
        na->ext = ext, na->upd = fused ? u : none;
        hk_dev_run(d, &a, bd->count, NULL);
        for (int q = 0; q < db->nlist; q++) list_forces(w, d, db->lists[q]);
        if (db->surface >= 0) surface_forces(w, d, db->surface);
        if (kind == HK_UPDATE_NONE || fused) continue;
        hkd_args g = {.kind = HKD_INTEGRATE};
        hkd_integrate_args *ga = &g.u.integrate;
        ga->q = hk_dev_vec(d->q[cur]), ga->v = hk_dev_vec(d->v[cur]), ga->qo = hk_dev_vec(d->q[nxt]),
        ga->vo = hk_dev_vec(d->v[nxt]);
        ga->f = hk_dev_vec(d->f), ga->inv_mass = d->inv_mass, ga->first = bd->first, ga->upd = u;
        hk_dev_run(d, &g, bd->count, NULL);
    }
    if (kind != HK_UPDATE_NONE) d->cur = nxt;
    w->spring_updates += hk_world_facts(w)->springs;
}

/* The passes of world/exec.h on the device: step.c tells the step (its substeps, integrators.c the schemes' stages),
 * each pass here one pass of dev_pass.h. */

static int dev_forces(hk_world *w, int update, hk_real h)
{
    forces(w, w->device, (hk_update_kind)update, h);
    return HK_OK; /* a pass's failure is the device's (hk_device_step's next call, or the step's end, reports it) */
}

/* A per-particle pass of a multi-evaluation scheme over every particle, in place. */
static void multi(hk_world *w, hk_device *d, hkd_kind kind, hkd_multi_args m)
{
    hkd_args a = {.kind = kind};
    m.q = hk_dev_vec(d->q[d->cur]), m.v = hk_dev_vec(d->v[d->cur]), m.f = hk_dev_vec(d->f),
    m.prev = hk_dev_vec(d->prev);
    m.x0 = hk_dev_vec(&d->scratch[0]), m.v0 = hk_dev_vec(&d->scratch[3]), m.sx = hk_dev_vec(&d->scratch[6]),
    m.sv = hk_dev_vec(&d->scratch[9]);
    m.inv_mass = d->inv_mass;
    a.u.multi = m;
    hk_dev_run(d, &a, w->p.count, NULL);
}

static void dev_verlet(hk_world *w, hk_real h, int first, int book_start)
{
    multi(w, w->device, HKD_VERLET,
          (hkd_multi_args){.h = h, .h2 = h * h, .inv2h = 1 / (2 * h), .first_step = first, .book_start = book_start});
}

static void dev_kick(hk_world *w, hk_real hh, int drift, hk_real h)
{
    multi(w, w->device, HKD_KICK, (hkd_multi_args){.hh = hh, .drift = drift, .h = h});
}

static void dev_rk4_start(hk_world *w) { multi(w, w->device, HKD_COPY, (hkd_multi_args){0}); }

static void dev_rk4_stage(hk_world *w, int stage, hk_real wt, hk_real ah, hk_real h)
{
    multi(w, w->device, HKD_RK4, (hkd_multi_args){.wt = wt, .ah = ah, .h = h, .stage = stage});
}

/* The driven anchors' places and velocities of this substep (advanced on the host: step.c), loaded into the
 * device's state. */
static void dev_anchors(hk_world *w)
{
    hk_device *d = w->device;
    hkd_args a = {.kind = HKD_SET};
    hkd_set_args *sa = &a.u.set;
    sa->q = hk_dev_vec(d->q[d->cur]), sa->v = hk_dev_vec(d->v[d->cur]);
    int n = 0;
    for (int b = 0; b <= w->body_count; b++) {
        if (n == HKD_SET_MAX || (b == w->body_count && n > 0)) {
            hk_dev_run(d, &a, n, NULL);
            n = 0;
        }
        if (b == w->body_count || !w->bodies[b].anchor) continue;
        const int i = w->bodies[b].first;
        sa->index[n] = i;
        const hk_real qv[6] = {w->p.qx[i], w->p.qy[i], w->p.qz[i], w->p.vx[i], w->p.vy[i], w->p.vz[i]};
        memcpy(sa->qv[n], qv, sizeof qv);
        n++;
    }
}

/* Breaking (engine/strain.c hk_springs_break): every breakable family's springs; the springs that broke now
 * (counted only where asked). */
static int64_t dev_break(hk_world *w, int count)
{
    hk_device *d = w->device;
    int64_t all = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (!d->broken[fi]) continue;
        if (f->kind == HK_FAMILY_LIST) { /* by spring */
            hkd_args a = {.kind = HKD_LIST_BREAK};
            hkd_list_args *la = &a.u.list;
            list_springs(w, d, fi, la);
            la->ratio = (double)f->break_ratio;
            long long now = 0;
            hk_dev_run(d, &a, f->count, count ? &now : NULL);
            all += now;
            continue;
        }
        const hk_body *bd = &w->bodies[f->body];
        hkd_args a = {.kind = HKD_BREAK};
        hkd_break_args *ba = &a.u.brk;
        ba->fam = hk_dev_fam(f, d->broken[fi]);
        ba->q = hk_dev_vec(d->q[d->cur]), ba->first = bd->first, ba->nx = bd->nx, ba->ny = bd->ny;
        ba->ratio = (double)f->break_ratio;
        const int64_t n = (int64_t)(f->i1 - f->i0) * (f->j1 - f->j0) * (f->k1 - f->k0);
        long long now = 0;
        hk_dev_run(d, &a, n, count ? &now : NULL);
        all += now;
    }
    return all;
}

/* Sphere s (at its place: step.c moved it) or the walls (s NULL) against every body's particles
 * (contact/spheres_walls.c's passes); the particles moved (counted only where asked). The device keeps position
 * Verlet's previous positions itself: prev says only whether to move them. */
static int64_t dev_obstacle(hk_world *w, const hk_sphere_def *s, double dt, hk_real *const prev[3], int count)
{
    hk_device *d = w->device;
    hkd_args a = {.kind = s ? HKD_SPHERE : HKD_WALLS};
    hkd_obstacle_args *oa = &a.u.obstacle;
    if (s) {
        const double c[3] = {s->center.x, s->center.y, s->center.z};
        const double cv[3] = {s->velocity.x, s->velocity.y, s->velocity.z};
        memcpy(oa->c, c, sizeof c);
        memcpy(oa->cv, cv, sizeof cv);
        oa->R = s->radius, oa->e = 1.0 - s->loss;
    } else {
        const double lo[3] = {w->def.walls_min.x, w->def.walls_min.y, w->def.walls_min.z};
        const double hi[3] = {w->def.walls_max.x, w->def.walls_max.y, w->def.walls_max.z};
        memcpy(oa->lo, lo, sizeof lo);
        memcpy(oa->hi, hi, sizeof hi);
        oa->keep = (hk_real)(1.0 - w->def.walls_loss);
    }
    oa->q = hk_dev_vec(d->q[d->cur]), oa->r = hk_dev_vec(d->r), oa->v = hk_dev_vec(d->v[d->cur]);
    const hkd_vec none = {{NULL, NULL, NULL}};
    oa->prev = prev && d->prev[0] ? hk_dev_vec(d->prev) : none;
    oa->inv_mass = d->inv_mass, oa->dt = (hk_real)dt;
    int64_t all = 0;
    for (int b = 0; b < w->body_count; b++) {
        const hk_body *bd = &w->bodies[b];
        memcpy(oa->o, bd->origin, sizeof oa->o);
        oa->first = bd->first;
        long long moved = 0;
        hk_dev_run(d, &a, bd->count, count ? &moved : NULL);
        all += moved;
    }
    return all;
}

/* What the scheme keeps on the device between steps: position Verlet's history, RK4's scratch; 0 or -1. */
static int dev_begin(hk_world *w)
{
    hk_device *d = w->device;
    const hk_integrator_ops *ops = hk_integrator_ops_of(w->integrator.kind);
    const size_t np = (size_t)w->p.count;
    if (ops->info.keeps_history && !d->prev[0])
        for (int c = 0; c < 3; c++) d->prev[c] = hk_dev_reals(d, np);
    if (ops->scratch_arrays && !d->scratch[0])
        for (int k = 0; k < 12; k++) d->scratch[k] = hk_dev_reals(d, np);
    if (!d->failed) return 0;
    w->step_failed = HK_ERR_MEMORY;
    hk_fail(w, "device: %s", d->error);
    return -1;
}

/* After the step: the device's state is the newer; a pass that failed fails the world. */
static void dev_end(hk_world *w)
{
    hk_device *d = w->device;
    w->device_newer = 1;
    if (d->failed) {
        w->step_failed = HK_ERR_UNSUPPORTED;
        hk_fail(w, "device: %s", d->error);
    }
}

const hk_exec hk_dev_exec = {.name = "device",
                             .begin = dev_begin,
                             .forces = dev_forces,
                             .verlet = dev_verlet,
                             .kick = dev_kick,
                             .rk4_start = dev_rk4_start,
                             .rk4_stage = dev_rk4_stage,
                             .anchors = dev_anchors,
                             .break_springs = dev_break,
                             .obstacle = dev_obstacle,
                             .end = dev_end,
                             .counts_wait = 1};
