/* hold.c — a distributed world's storage: the particles a rank holds (its slabs and their halo rows, its whole
 * bodies), built or copied into place once the world is cut. */
/* SPDX-License-Identifier: MIT */
#include "hold.h"

#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "constraints.h"
#include "vertices.h"
#include "engine.h"
#include "implicit.h"
#include "part.h"

/* Copies particles [from, from + n) of storage p into [to, to + n) of storage q. */
static void copy_particles(const hk_particles *p, int64_t from, hk_particles *q, int64_t to, int64_t n)
{
    const hk_real *const src[HK_PARTICLE_ARRAYS] = {p->qx, p->qy, p->qz,       p->vx,   p->vy, p->vz, p->fx,
                                                    p->fy, p->fz, p->inv_mass, p->mass, p->rx, p->ry, p->rz};
    hk_real *const dst[HK_PARTICLE_ARRAYS] = {q->qx, q->qy, q->qz,       q->vx,   q->vy, q->vz, q->fx,
                                              q->fy, q->fz, q->inv_mass, q->mass, q->rx, q->ry, q->rz};
    for (int a = 0; a < HK_PARTICLE_ARRAYS; a++) memcpy(dst[a] + to, src[a] + from, (size_t)n * sizeof(hk_real));
}

/* A lattice family's broken flags over its body's held nodes [lo, hi) (world.h: broken[l] for those l), the flags
 * the body had before (whole, or none yet) copied in; the count of them in the nodes this rank computes. 0 or -1. */
static int window_broken(const hk_world *w, hk_family *f, int64_t lo, int64_t hi)
{
    uint8_t *mem = calloc((size_t)(hi - lo) + 3 * HK_ROW_MARGIN, 1); /* room for a vector read on either side */
    if (!mem) return -1;
    uint8_t *broken = mem + HK_ROW_MARGIN - lo;
    if (f->broken)
        memcpy(broken + lo, f->broken + lo, (size_t)(hi - lo)); /* the body was held whole: broken[l] as here */
    free(f->broken_mem);
    f->broken_mem = mem;
    f->broken = broken;
    int64_t l0, l1, set = 0;
    if (hk_part_owned(w, f->body, &l0, &l1))
        for (int64_t l = l0; l < l1; l++) set += broken[l] != 0;
    f->broken_count = set;
    return 0;
}

/* Shifts list family f's endpoints by delta (its body moved in storage) and drops its colouring, which the engine
 * makes again for the new places (hk_world_optimise): the same colours, each particle's springs in the same
 * order. */
static void shift_list(hk_family *f, int delta)
{
    for (int64_t s = 0; s < f->count; s++) f->a[s] += delta, f->b[s] += delta;
    free(f->colour_start);
    free(f->near_end);
    free(f->band_start);
    f->colour_start = f->near_end = f->band_start = NULL;
    f->colour_count = f->overflow = f->band_count = f->band_first = 0;
}

/* Drops what list family f holds: another rank holds its body. Its description (kind, parameters, total) stays. */
static void drop_list(hk_family *f)
{
    hk_family_free(f);
    f->broken_mem = f->broken = NULL;
    f->a = f->b = NULL;
    f->rest_list = f->rvec[0] = f->rvec[1] = f->rvec[2] = NULL;
    f->colour_start = f->near_end = f->band_start = NULL;
    f->colour_count = f->overflow = f->band_count = f->band_first = 0;
    f->count = f->broken_count = 0;
}

/* Surface s follows its body: shifted by delta where it is held here, its faces dropped (its pressure state kept)
 * where it is not. */
static void move_surface(hk_surface *s, const hk_body *b, int delta)
{
    if (b->count > 0) {
        for (int64_t k = 0; k < (int64_t)s->nfaces * s->dim; k++) s->face[k] += delta;
        s->first = b->first;
        return;
    }
    free(s->face);
    free(s->vf_start);
    free(s->vf_face);
    free(s->face_f);
    free(s->face_n);
    free(s->block);
    s->face = s->vf_start = s->vf_face = NULL;
    s->face_f = s->face_n = s->block = NULL;
    s->nfaces = 0;
    s->first = b->first;
    s->count = 0;
}

int hk_world_hold(hk_world *w)
{
    const int B = w->body_count;
    int64_t *lo = malloc(2 * ((size_t)B + 1) * sizeof *lo), *hi = lo ? lo + B + 1 : NULL;
    int *delta = malloc(((size_t)B + 1) * sizeof *delta);
    if (!lo || !delta) {
        free(lo);
        free(delta);
        return hk_fail_memory(w, "out of memory for the storage of %d bodies", B);
    }
    int64_t n = 0;
    for (int b = 0; b < B; b++) {
        hk_part_held(w, b, &lo[b], &hi[b]);
        n += hi[b] - lo[b];
    }
    hk_particles np;
    if (n > (1 << 30) || hk_particles_make(w, (int)n, &np) != 0) {
        free(lo);
        free(delta);
        return n > (1 << 30) ? hk_fail(w, "too many particles held by one rank (%lld)", (long long)n) : hk_failed(w);
    }
    /* each body at its place in the new storage, in body order: a built one's held particles copied there */
    int64_t at = 0;
    for (int b = 0; b < B; b++) {
        hk_body *bd = &w->bodies[b];
        const int64_t len = hi[b] - lo[b];
        if (!bd->recipe && len > 0) copy_particles(&w->p, bd->first + (lo[b] - bd->lo), &np, at, len);
        delta[b] = (int)(at - bd->first);
        bd->first = (int)at;
        bd->lo = (int)lo[b];
        bd->count = (int)len;
        at += len;
    }
    hk_world_take_particles(w, &np);
    /* a deferred lattice's held rows, built from its recipe: the bits it would have held whole */
    for (int b = 0; b < B; b++) {
        hk_body *bd = &w->bodies[b];
        if (!bd->recipe) continue;
        if (bd->count > 0) hk_lattice_fill(w, b);
        free(bd->recipe->op);
        free(bd->recipe);
        bd->recipe = NULL;
    }
    int failed = 0;
    for (int fi = 0; fi < w->family_count && !failed; fi++) {
        hk_family *f = &w->families[fi];
        const hk_body *bd = &w->bodies[f->body];
        if (f->kind == HK_FAMILY_LATTICE) {
            f->base = hk_body_base(bd);
            f->lo = bd->lo;
            f->hi = (int64_t)bd->lo + bd->count;
            if (f->params.behaviour == HK_SPRING_BREAKABLE) failed = window_broken(w, f, f->lo, f->hi) != 0;
        } else if (bd->count == 0) {
            drop_list(f);
        } else {
            shift_list(f, delta[f->body]);
        }
    }
    for (int s = 0; s < w->surface_count; s++)
        move_surface(&w->surfaces[s], &w->bodies[w->surfaces[s].body], delta[w->surfaces[s].body]);
    free(lo);
    free(delta);
    if (failed) return hk_fail_memory(w, "out of memory for the breakable springs of this rank's rows");
    /* made again for the new storage when next asked for: the engine's plans and work space, the solver */
    w->coloured = 0;
    hk_engine_free(w->engine);
    w->engine = NULL;
    hk_implicit_release(w);
    hk_constraints_release(w);
    hk_vertex_graph_release(w);
    w->facts.bodies = w->facts.families = -1;
    const hk_contact_def contact = hk_world_contact(w); /* the pairs' surfaces found again for the new places */
    if ((contact.bodies || contact.self) && hk_world_set_contact(w, &contact) != 0) return hk_failed(w);
    return 0;
}
