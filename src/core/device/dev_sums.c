/* dev_sums.c — a check where the state lies: its sums reduced on the device, one record read back, not the state. */
/* SPDX-License-Identifier: MIT */
#include "dev_sums.h"

#include <stdlib.h>

#include "dev_world.h"
#include "strain.h"

/* Family fi as the SCAN pass reads it. */
static hkd_scan_fam scan_fam(const hk_world *w, const hk_device *d, int fi)
{
    const hk_family *f = &w->families[fi];
    hkd_scan_fam S = {.list = f->kind == HK_FAMILY_LIST};
    if (S.list) {
        const dev_list *dl = &d->list[fi];
        S.a = dl->a, S.b = dl->b, S.rest = dl->rest, S.broken = d->broken[fi];
        for (int c = 0; c < 3; c++) S.rv[c] = dl->rv[c];
    } else {
        const hk_body *bd = &w->bodies[f->body];
        S.fam = hk_dev_fam(f, d->broken[fi]);
        S.base = hk_body_base(bd), S.nx = bd->nx, S.ny = bd->ny;
    }
    S.L0 = f->rest, S.half_k = 0.5 * f->params.k, S.behaviour = (int32_t)f->params.behaviour;
    S.nblocks = hk_scan_blocks(f->count), S.rows = hk_scan_rows(f);
    return S;
}

/* The memory of the check's passes, made at the first check (the world does not grow while it is on the device: a
 * world that grew is made again, device.c). 0, or -1 where the device cannot sum this world's particles in their
 * global order (a body's particles not where the one before ends: the state is read instead) or a call failed. */
static int room(const hk_world *w, hk_device *d)
{
    dev_sums_mem *m = &d->sums;
    if (m->usable) return m->usable > 0 && !d->failed ? 0 : -1;
    m->usable = -1;
    const int nb = w->body_count, nf = w->family_count;
    if (nb == 0 && w->p.count > 0) return -1;
    for (int b = 0, at = 0; b < nb; at += w->bodies[b].count, b++)
        if (w->bodies[b].first != at || w->bodies[b].gfirst != at || w->bodies[b].lo != 0 ||
            (b == nb - 1 && at + w->bodies[b].count != w->p.count))
            return -1;
    m->blocks = (w->p.count + HK_SUMS_BLOCK - 1) / HK_SUMS_BLOCK;
    int64_t *sf = malloc((size_t)(nf + 1) * sizeof *sf);
    int64_t *bf = malloc((size_t)(nb + 1) * sizeof *bf);
    double *o = malloc((size_t)(nb ? nb : 1) * 3 * sizeof *o);
    if (!sf || !bf || !o) {
        free(sf), free(bf), free(o);
        return -1;
    }
    sf[0] = 0;
    for (int f = 0; f < nf; f++)
        sf[f + 1] = sf[f] + (hk_scan_rows(&w->families[f]) > 0 ? hk_scan_blocks(w->families[f].count) : 0);
    for (int b = 0; b < nb; b++) {
        bf[b] = w->bodies[b].first;
        for (int c = 0; c < 3; c++) o[3 * b + c] = w->bodies[b].origin[c];
    }
    bf[nb] = w->p.count;
    hkd_scan_fam *fams = malloc((size_t)(nf ? nf : 1) * sizeof *fams);
    if (!fams) {
        free(sf), free(bf), free(o);
        return -1;
    }
    for (int f = 0; f < nf; f++) fams[f] = scan_fam(w, d, f);
    const size_t blocks = (size_t)(m->blocks ? m->blocks : 1);
    m->first = d->drv->alloc(d->ctx, blocks * HK_FINITE_ARRAYS * sizeof *m->first);
    m->part = d->drv->alloc(d->ctx, blocks * sizeof *m->part);
    m->scan = d->drv->alloc(d->ctx, (size_t)(sf[nf] ? sf[nf] : 1) * sizeof *m->scan);
    m->scan_first = d->drv->alloc(d->ctx, (size_t)(nf + 1) * sizeof *m->scan_first);
    m->body_first = d->drv->alloc(d->ctx, (size_t)(nb + 1) * sizeof *m->body_first);
    m->origin = d->drv->alloc(d->ctx, (size_t)(nb ? nb : 1) * 3 * sizeof *m->origin);
    m->out = d->drv->alloc(d->ctx, sizeof *m->out);
    m->scan_fam = d->drv->alloc(d->ctx, (size_t)(nf ? nf : 1) * sizeof *m->scan_fam);
    m->host_scan_first = sf;
    int ok = m->first && m->part && m->scan && m->scan_first && m->body_first && m->origin && m->out && m->scan_fam;
    ok = ok && d->drv->put(d->ctx, m->scan_first, sf, (size_t)(nf + 1) * sizeof *sf) == 0 &&
         (nf == 0 || d->drv->put(d->ctx, m->scan_fam, fams, (size_t)nf * sizeof *fams) == 0) &&
         d->drv->put(d->ctx, m->body_first, bf, (size_t)(nb + 1) * sizeof *bf) == 0 &&
         (nb == 0 || d->drv->put(d->ctx, m->origin, o, (size_t)nb * 3 * sizeof *o) == 0);
    free(bf), free(o), free(fams);
    m->usable = ok ? 1 : -1; /* without device memory for them (or a failed copy) the state is read instead */
    return ok ? 0 : -1;
}

int hk_dev_sums(const hk_world *w, int what, hk_device_sums *out)
{
    hk_device *d = w->device;
    if (!d || d->failed || room(w, d) != 0) return -1;
    const dev_sums_mem *m = &d->sums;
    hkd_args a = {.kind = HKD_FINITE};
    hkd_sums_args *sa = &a.u.sums;
    sa->q = hk_dev_vec(d->q[d->cur]), sa->r = hk_dev_vec(d->r), sa->v = hk_dev_vec(d->v[d->cur]);
    sa->mass = d->mass, sa->inv_mass = d->inv_mass, sa->count = w->p.count;
    sa->body_first = m->body_first, sa->origin = m->origin, sa->bodies = w->body_count;
    sa->first = m->first, sa->part = m->part, sa->def = w->def;
    hk_dev_run(d, &a, m->blocks, NULL);
    if (what & HK_SUMS_ENERGY) {
        a.kind = HKD_ENERGY;
        hk_dev_run(d, &a, m->blocks, NULL);
    }
    if ((what & HK_SUMS_SCAN) && m->host_scan_first[w->family_count] > 0) {
        hkd_args sc = {.kind = HKD_SCAN};
        hkd_scan_args *ca = &sc.u.scan;
        ca->q = sa->q, ca->fam = m->scan_fam, ca->first = m->scan_first, ca->families = w->family_count;
        ca->part = m->scan;
        hk_dev_run(d, &sc, m->host_scan_first[w->family_count], NULL);
    }
    hkd_args fold = {.kind = HKD_FOLD};
    hkd_fold_args *fa = &fold.u.fold;
    fa->first = m->first, fa->blocks = m->blocks, fa->out = m->out;
    fa->part = what & HK_SUMS_ENERGY ? m->part : NULL;
    fa->scan = what & HK_SUMS_SCAN ? m->scan : NULL;
    fa->scan_first = m->scan_first, fa->families = w->family_count;
    hk_dev_run(d, &fold, 1, NULL);
    hk_dev_get(d, out, m->out, sizeof *out);
    return d->failed ? -1 : 0;
}
