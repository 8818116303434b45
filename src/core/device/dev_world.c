/* dev_world.c — a world's state on its device: memory taken, terms planned, state loaded and pulled. */
/* SPDX-License-Identifier: MIT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dev_world.h"
#include "engine.h"
#include "mesh.h"
#include "surface.h"
#include "sweep.h"

hkd_fam hk_dev_fam(const hk_family *f, uint8_t *broken)
{
    hkd_fam F = {.offset = f->offset,
                 .di = f->di,
                 .dj = f->dj,
                 .dk = f->dk,
                 .i0 = f->i0,
                 .i1 = f->i1,
                 .j0 = f->j0,
                 .j1 = f->j1,
                 .k0 = f->k0,
                 .k1 = f->k1,
                 .k = f->k,
                 .c = f->c,
                 .rest = f->rest,
                 .break_ratio = f->break_ratio,
                 .model = (int)f->params.damping_model,
                 .behaviour = (int)f->params.behaviour,
                 .broken = broken};
    for (int c = 0; c < 3; c++) F.D[c] = f->rest_vec[c];
    return F;
}

size_t hk_dev_broken_bytes(const hk_world *w, int fi)
{
    const hk_family *f = &w->families[fi];
    return (size_t)(f->kind == HK_FAMILY_LIST ? f->count : w->bodies[f->body].count);
}

/* A failed driver call: the device's state is lost from here (its message kept). */
static void failed(hk_device *d, const char *what)
{
    if (d->failed) return;
    d->failed = 1;
    const char *why = d->drv && d->ctx ? d->drv->error(d->ctx) : "";
    snprintf(d->error, sizeof d->error, "%s: %s", what, why && *why ? why : "the driver gave no reason");
}

static void *dev_alloc(hk_device *d, size_t n)
{
    if (d->failed) return NULL;
    void *p = d->drv->alloc(d->ctx, n ? n : 1);
    if (!p) failed(d, "out of device memory");
    return p;
}

hk_real *hk_dev_reals(hk_device *d, size_t n) { return dev_alloc(d, n * sizeof(hk_real)); }

static void put(hk_device *d, void *dev, const void *host, size_t n)
{
    if (!d->failed && n && d->drv->put(d->ctx, dev, host, n) != 0) failed(d, "a copy to the device failed");
}

void hk_dev_get(hk_device *d, void *host, const void *dev, size_t n)
{
    if (!d->failed && n && d->drv->get(d->ctx, host, dev, n) != 0) failed(d, "a copy from the device failed");
}

void hk_dev_run(hk_device *d, const hkd_args *a, int64_t n, long long *count)
{
    if (count) *count = 0;
    if (d->failed || n <= 0) return;
    if (d->drv->run(d->ctx, a, n, count) != 0) failed(d, "a pass failed");
}

/* Term of family f (in w) seen from its source node (target 0) or its target node (target 1), in the node's
 * coordinates (dev_pass.h hkd_term). */
static hkd_term resolve_term(const hk_family *f, const uint8_t *broken, int target)
{
    const int32_t off = (int32_t)(target ? -f->offset : f->offset);
    const int d[3] = {target ? f->di : 0, target ? f->dj : 0, target ? f->dk : 0};
    hkd_term T = {.rest = f->rest,
                  .k = f->k,
                  .c = f->c,
                  .off = off,
                  .target = target,
                  .lo = {f->i0 + d[0], f->j0 + d[1], f->k0 + d[2]},
                  .hi = {f->i1 + d[0], f->j1 + d[1], f->k1 + d[2]},
                  .model = (int32_t)f->params.damping_model,
                  .behaviour = (int32_t)f->params.behaviour,
                  .broken = broken};
    for (int c = 0; c < 3; c++) T.D[c] = f->rest_vec[c];
    return T;
}

/* Body b's terms in the CPU's order (the sweep's: the families of the rows before the node, farthest first, as
 * targets, then family by family the node as source, and as target where the family stays in the row), the box
 * every term has, and how its nodes sum them. */
static int plan_body(hk_world *w, hk_device *d, int b)
{
    const hk_sweep_plan *sp = hk_engine_plan(w, b);
    dev_body *db = &d->body[b];
    const hk_body *bd = &w->bodies[b];
    db->surface = bd->surface >= 0 && hk_surface_active(w, &w->surfaces[bd->surface]) ? bd->surface : -1;
    db->nfam = sp->nfam;
    db->nterm = 0;
    db->sum = HKD_SUM_GENERIC;
    db->nlist = sp->nlist;
    if (sp->nlist > 0) { /* its list families, in the engine's order (engine/lists.c) */
        db->lists = calloc((size_t)sp->nlist, sizeof *db->lists);
        if (!db->lists) return -1;
        for (int q = 0; q < sp->nlist; q++) db->lists[q] = (int)(sp->list_fam[q] - w->families);
    }
    if (sp->nfam == 0) return 0;
    HK_ASSERT(2 * sp->nfam <= HKD_TERMS_MAX); /* the builders make at most 26 lattice families a body (jelly, 52) */
    db->term = calloc((size_t)sp->nfam * 2, sizeof *db->term);
    if (!db->term) return -1;
    int n = 0;
    for (int q = 0; q < sp->nfam; q++)
        if (sp->dr[q] > 0) db->term[n++] = resolve_term(&w->families[sp->fam[q]], d->broken[sp->fam[q]], 1);
    for (int q = 0; q < sp->nfam; q++) {
        db->term[n++] = resolve_term(&w->families[sp->fam[q]], d->broken[sp->fam[q]], 0);
        if (sp->dr[q] == 0) db->term[n++] = resolve_term(&w->families[sp->fam[q]], d->broken[sp->fam[q]], 1);
    }
    db->nterm = n;
    int same = 1;
    for (int c = 0; c < 3; c++) db->inside_lo[c] = INT32_MIN, db->inside_hi[c] = INT32_MAX;
    for (int t = 0; t < n; t++) {
        const hkd_term *T = &db->term[t];
        same &= T->model == db->term[0].model && T->behaviour == HK_SPRING_NORMAL;
        for (int c = 0; c < 3; c++) {
            db->inside_lo[c] = T->lo[c] > db->inside_lo[c] ? T->lo[c] : db->inside_lo[c];
            db->inside_hi[c] = T->hi[c] < db->inside_hi[c] ? T->hi[c] : db->inside_hi[c];
        }
    }
    if (same) db->sum = db->term[0].model == HK_DAMP_ALONG ? HKD_SUM_FAST_ALONG : HKD_SUM_FAST_RELATIVE;
    return 0;
}

/* List family fi's springs on the device: their ends, rest lengths and rest vectors where it has them. */
static void plan_list(hk_world *w, hk_device *d, int fi)
{
    const hk_family *f = &w->families[fi];
    dev_list *dl = &d->list[fi];
    const size_t n = (size_t)(f->count ? f->count : 1);
    _Static_assert(sizeof(int) == sizeof(int32_t), "a family's ends are 32-bit on the device");
    dl->a = dev_alloc(d, n * sizeof(int32_t));
    dl->b = dev_alloc(d, n * sizeof(int32_t));
    put(d, dl->a, f->a, (size_t)f->count * sizeof(int32_t));
    put(d, dl->b, f->b, (size_t)f->count * sizeof(int32_t));
    if (f->rest_list) {
        dl->rest = hk_dev_reals(d, n);
        put(d, dl->rest, f->rest_list, (size_t)f->count * sizeof(hk_real));
    }
    for (int c = 0; f->rvec[0] && c < 3; c++) {
        dl->rv[c] = hk_dev_reals(d, n);
        put(d, dl->rv[c], f->rvec[c], (size_t)f->count * sizeof(hk_real));
    }
}

/* Surface s's faces and incidence on the device, and its scratch. */
static void plan_surface(hk_world *w, hk_device *d, int s)
{
    const hk_surface *sf = &w->surfaces[s];
    dev_surface *ds = &d->surf[s];
    const size_t corners = (size_t)sf->nfaces * (size_t)sf->dim;
    ds->face = dev_alloc(d, corners * sizeof(int));
    ds->vf_start = dev_alloc(d, ((size_t)sf->count + 1) * sizeof(int));
    ds->vf_face = dev_alloc(d, corners * sizeof(int));
    ds->face_f = dev_alloc(d, 3 * (size_t)sf->nfaces * sizeof(double));
    ds->face_n = dev_alloc(d, 3 * (size_t)sf->nfaces * sizeof(double));
    put(d, ds->face, sf->face, corners * sizeof(int));
    put(d, ds->vf_start, sf->vf_start, ((size_t)sf->count + 1) * sizeof(int));
    put(d, ds->vf_face, sf->vf_face, corners * sizeof(int));
    if (sf->nrt > 0) {
        ds->block = dev_alloc(d, (size_t)((sf->nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK + 1) * sizeof(double));
        ds->pv = dev_alloc(d, 2 * sizeof(double));
    }
}

int hk_dev_attach(hk_world *w, const hkd_driver *drv, void *module, char *why, size_t n)
{
    if (hk_engine_prepare(w) != 0) { /* the plans the terms come from */
        snprintf(why, n, "%s", hk_world_error(w));
        return -1;
    }
    hk_device_info info;
    char reason[512] = "";
    if (drv->devices(&info, 1, reason, sizeof reason) < 1) {
        snprintf(why, n, "%s", reason);
        return -1;
    }
    void *ctx = drv->open(0, reason, sizeof reason);
    if (!ctx) {
        snprintf(why, n, "driver %s could not open %s: %s", drv->name, info.name, reason);
        return -2;
    }
    hk_device *d = calloc(1, sizeof *d);
    if (d) {
        d->body = calloc((size_t)(w->body_count ? w->body_count : 1), sizeof *d->body);
        d->surf = calloc((size_t)(w->surface_count ? w->surface_count : 1), sizeof *d->surf);
        d->broken = calloc((size_t)(w->family_count ? w->family_count : 1), sizeof *d->broken);
        d->list = calloc((size_t)(w->family_count ? w->family_count : 1), sizeof *d->list);
    }
    if (!d || !d->body || !d->surf || !d->broken || !d->list) {
        if (d) free(d->body), free(d->surf), free(d->broken), free(d->list);
        free(d);
        drv->close(ctx);
        snprintf(why, n, "out of memory for the device's plan");
        return -2;
    }
    d->drv = drv;
    d->module = module;
    d->ctx = ctx;
    d->info = info;
    d->bodies = w->body_count;
    d->families = w->family_count;
    d->particles = w->p.count;
    d->surfaces = w->surface_count;
    const size_t np = (size_t)w->p.count;
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++) {
            d->q[k][c] = hk_dev_reals(d, np);
            d->v[k][c] = hk_dev_reals(d, np);
        }
    for (int c = 0; c < 3; c++) {
        d->f[c] = hk_dev_reals(d, np);
        d->r[c] = hk_dev_reals(d, np);
    }
    d->mass = hk_dev_reals(d, np);
    d->inv_mass = hk_dev_reals(d, np);
    /* position Verlet's history, which a world carries in (a checkpoint's, or its steps before) */
    if (hk_integrator_info_of(w->integrator.kind)->keeps_history)
        for (int c = 0; c < 3; c++) d->prev[c] = hk_dev_reals(d, np);
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].broken) d->broken[f] = dev_alloc(d, hk_dev_broken_bytes(w, f));
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].kind == HK_FAMILY_LIST) plan_list(w, d, f);
    int planned = 0;
    for (int b = 0; b < w->body_count && planned == 0; b++) planned = plan_body(w, d, b);
    for (int s = 0; s < w->surface_count; s++)
        if (hk_surface_active(w, &w->surfaces[s])) plan_surface(w, d, s);
    /* what does not change: the rest positions and the masses */
    for (int c = 0; c < 3; c++) put(d, d->r[c], c == 0 ? w->p.rx : c == 1 ? w->p.ry : w->p.rz, np * sizeof(hk_real));
    put(d, d->mass, w->p.mass, np * sizeof(hk_real));
    if (planned != 0 || d->failed) {
        snprintf(why, n, "%s", planned != 0 ? "out of memory for the device's plan" : d->error);
        d->module = NULL; /* the caller's to close */
        hk_dev_release(d);
        return -2;
    }
    w->device = d;
    w->device_pull = hk_dev_pull;
    if (hk_dev_upload(w) != 0) {
        snprintf(why, n, "%s", d->error);
        w->device = NULL;
        w->device_pull = NULL;
        d->module = NULL;
        hk_dev_release(d);
        return -2;
    }
    return 0;
}

int hk_dev_upload(hk_world *w)
{
    hk_device *d = w->device;
    const size_t bytes = (size_t)w->p.count * sizeof(hk_real);
    hk_particles *p = &w->p;
    hk_real *const q[3] = {p->qx, p->qy, p->qz}, *const v[3] = {p->vx, p->vy, p->vz},
                   *const f[3] = {p->fx, p->fy, p->fz};
    d->cur = 0;
    for (int c = 0; c < 3; c++) {
        put(d, d->q[0][c], q[c], bytes);
        put(d, d->v[0][c], v[c], bytes);
        put(d, d->f[c], f[c], bytes);
    }
    put(d, d->inv_mass, p->inv_mass, bytes); /* pins change it */
    if (d->prev[0] && w->history && w->px)
        for (int c = 0; c < 3; c++) put(d, d->prev[c], c == 0 ? w->px : c == 1 ? w->py : w->pz, bytes);
    for (int f = 0; f < w->family_count; f++)
        if (d->broken[f]) put(d, d->broken[f], w->families[f].broken, hk_dev_broken_bytes(w, f));
    w->device_stale = 0;
    w->device_newer = 0;
    if (d->failed) return hk_fail(w, "device: %s", d->error);
    return 0;
}

/* The host's history arrays for the device's, made at the first read back: the allocation unsets w->history (the
 * arrays are new), but the device's history holds the substep before's, so the flag stays set. */
static int host_history(hk_world *w)
{
    const int history = w->history;
    if (hk_world_alloc_history(w, 3) != 0) {
        failed(w->device, "no host memory for position Verlet's history");
        return -1;
    }
    w->history = history;
    return 0;
}

void hk_dev_pull(hk_world *w)
{
    hk_device *d = w->device;
    w->device_newer = 0;
    if (!d) return;
    if (!d->failed && d->drv->wait(d->ctx) != 0) failed(d, "the device's passes failed");
    const size_t bytes = (size_t)w->p.count * sizeof(hk_real);
    hk_particles *p = &w->p;
    hk_real *const q[3] = {p->qx, p->qy, p->qz}, *const v[3] = {p->vx, p->vy, p->vz},
                   *const f[3] = {p->fx, p->fy, p->fz};
    for (int c = 0; c < 3; c++) {
        hk_dev_get(d, q[c], d->q[d->cur][c], bytes);
        hk_dev_get(d, v[c], d->v[d->cur][c], bytes);
        hk_dev_get(d, f[c], d->f[c], bytes);
    }
    if (d->prev[0] && w->history && (w->px || host_history(w) == 0))
        for (int c = 0; c < 3; c++) hk_dev_get(d, c == 0 ? w->px : c == 1 ? w->py : w->pz, d->prev[c], bytes);
    for (int s = 0; s < w->surface_count; s++) /* the pressure and volume of the last evaluation */
        if (s < d->surfaces && d->surf[s].pv) {
            double pv[2] = {0, 0};
            hk_dev_get(d, pv, d->surf[s].pv, sizeof pv);
            w->surfaces[s].pressure = pv[0], w->surfaces[s].volume = pv[1];
        }
    for (int fi = 0; fi < w->family_count; fi++) {
        hk_family *f = &w->families[fi];
        if (!d->broken[fi]) continue;
        const size_t count = hk_dev_broken_bytes(w, fi);
        hk_dev_get(d, f->broken, d->broken[fi], count);
        int64_t broken = 0; /* each spring breaks once: the count is the flags set */
        for (size_t i = 0; i < count; i++) broken += f->broken[i] != 0;
        f->broken_count = broken;
    }
    if (d->failed) {
        w->step_failed = HK_ERR_UNSUPPORTED;
        hk_fail(w, "device: %s (the state is the host's before the device's steps)", d->error);
    }
}

void hk_dev_release(hk_device *d)
{
    if (!d) return;
    void **all[] = {(void **)&d->q[0][0], (void **)&d->q[0][1], (void **)&d->q[0][2], (void **)&d->q[1][0],
                    (void **)&d->q[1][1], (void **)&d->q[1][2], (void **)&d->v[0][0], (void **)&d->v[0][1],
                    (void **)&d->v[0][2], (void **)&d->v[1][0], (void **)&d->v[1][1], (void **)&d->v[1][2],
                    (void **)&d->f[0],    (void **)&d->f[1],    (void **)&d->f[2],    (void **)&d->r[0],
                    (void **)&d->r[1],    (void **)&d->r[2],    (void **)&d->mass,    (void **)&d->inv_mass,
                    (void **)&d->prev[0], (void **)&d->prev[1], (void **)&d->prev[2]};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        if (*all[k]) d->drv->release(d->ctx, *all[k]);
    for (int k = 0; k < 12; k++)
        if (d->scratch[k]) d->drv->release(d->ctx, d->scratch[k]);
    const dev_sums_mem *m = &d->sums;
    void *sums[] = {m->first, m->scan_first, m->scan_fam, m->part, m->scan, m->body_first, m->origin, m->out};
    for (size_t k = 0; k < sizeof sums / sizeof sums[0]; k++)
        if (sums[k]) d->drv->release(d->ctx, sums[k]);
    free(m->host_scan_first);
    for (int b = 0; b < d->bodies; b++) free(d->body[b].term), free(d->body[b].lists);
    for (int s = 0; s < d->surfaces; s++) {
        void *a[7] = {d->surf[s].face,   d->surf[s].vf_start, d->surf[s].vf_face, d->surf[s].face_f,
                      d->surf[s].face_n, d->surf[s].block,    d->surf[s].pv};
        for (int k = 0; k < 7; k++)
            if (a[k]) d->drv->release(d->ctx, a[k]);
    }
    for (int f = 0; f < d->families; f++)
        if (d->broken[f]) d->drv->release(d->ctx, d->broken[f]);
    for (int f = 0; f < d->families; f++) {
        void *a[6] = {d->list[f].a,     d->list[f].b,     d->list[f].rest,
                      d->list[f].rv[0], d->list[f].rv[1], d->list[f].rv[2]};
        for (int k = 0; k < 6; k++)
            if (a[k]) d->drv->release(d->ctx, a[k]);
    }
    d->drv->close(d->ctx);
    if (d->module) dlclose(d->module);
    free(d->body);
    free(d->surf);
    free(d->broken);
    free(d->list);
    free(d);
}
