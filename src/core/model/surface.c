/* surface.c — surface bodies: faces and CSR incidence, parallel deterministic volume, pressure and wind forces. */
/* SPDX-License-Identifier: MIT */
#include "surface.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "face_force.h"
#include "mesh.h"
#include "team.h"

void hk_surface_free(hk_surface *s)
{
    free(s->face);
    free(s->vf_start);
    free(s->vf_face);
    free(s->face_f);
    free(s->face_n);
    free(s->block);
    memset(s, 0, sizeof *s);
}

int hk_surface_add(hk_world *w, int body, int dim, int closed, int nfaces, const int *face_local,
                   const hk_pressure_def *pr)
{
    if (body < 0 || body >= w->body_count) return hk_fail(w, "surface: no body %d", body);
    if (w->bodies[body].surface >= 0) return hk_fail(w, "surface: body %d already has one", body);
    if (nfaces < 1 || (dim != 2 && dim != 3)) return hk_fail(w, "surface: needs faces of 2 or 3 corners");
    if (pr && pr->nrt != 0) {
        if (!closed) return hk_fail(w, "pressure needs a closed surface");
        if (!(pr->nrt > 0) || !isfinite(pr->nrt)) return hk_fail(w, "pressure: nrt must be >= 0 (got %g)", pr->nrt);
        if (!(pr->pump_rate > 0 && pr->pump_rate <= 1))
            return hk_fail(w, "pressure: pump_rate must be in (0, 1] (got %g)", pr->pump_rate);
    }
    if (w->surface_count == w->surface_cap) {
        int cap = w->surface_cap ? 2 * w->surface_cap : 4;
        hk_surface *ns = realloc(w->surfaces, (size_t)cap * sizeof *ns);
        if (!ns) return hk_fail_memory(w, "out of memory for surfaces");
        w->surfaces = ns;
        w->surface_cap = cap;
    }
    const hk_body *b = &w->bodies[body];
    hk_surface s = {0};
    s.body = body;
    s.dim = dim;
    s.closed = closed;
    s.first = b->first;
    s.count = b->count;
    s.nfaces = nfaces;
    const size_t nc = (size_t)nfaces * (size_t)dim, nblocks = ((size_t)nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK;
    s.face = malloc(nc * sizeof *s.face);
    s.vf_start = calloc((size_t)b->count + 1, sizeof *s.vf_start);
    s.vf_face = malloc(nc * sizeof *s.vf_face);
    s.face_f = malloc((size_t)nfaces * 3 * sizeof *s.face_f);
    s.face_n = malloc((size_t)nfaces * 3 * sizeof *s.face_n);
    s.block = malloc(nblocks * sizeof *s.block);
    if (!s.face || !s.vf_start || !s.vf_face || !s.face_f || !s.face_n || !s.block) {
        hk_surface_free(&s);
        return hk_fail_memory(w, "out of memory for surface faces");
    }
    for (size_t k = 0; k < nc; k++) {
        if (face_local[k] < 0 || face_local[k] >= b->count) {
            hk_surface_free(&s);
            return hk_fail(w, "surface: face %d corner %d outside 0..%d", (int)(k / (size_t)dim), face_local[k],
                           b->count - 1);
        }
        s.face[k] = b->first + face_local[k];
        s.vf_start[face_local[k] + 1]++;
    }
    for (int v = 0; v < b->count; v++) s.vf_start[v + 1] += s.vf_start[v];
    int *fill = malloc((size_t)(b->count ? b->count : 1) * sizeof *fill);
    if (!fill) {
        hk_surface_free(&s);
        return hk_fail_memory(w, "out of memory for surface faces");
    }
    memcpy(fill, s.vf_start, (size_t)b->count * sizeof *fill);
    for (int f = 0; f < nfaces; f++) /* ascending faces per vertex */
        for (int k = 0; k < dim; k++) s.vf_face[fill[face_local[(size_t)f * dim + k]]++] = f;
    free(fill);
    if (pr) {
        s.nrt = pr->nrt;
        s.pump_rate = pr->pump_rate;
        s.pump = pr->pump_rate < 1 ? pr->pump_rate : 1;
    }
    w->surfaces[w->surface_count] = s;
    w->bodies[body].surface = w->surface_count++;
    w->forces_valid = 0;
    return 0;
}

int hk_surface_active(const hk_world *w, const hk_surface *s)
{
    return s->nrt > 0 || w->def.wind_model != HK_WIND_NONE;
}

/* Volume term of face f (2-D: area term of edge f) in double, in the body's frame: a closed surface's volume does
 * not depend on where its origin is. */
static double face_volume(const hk_particles *p, const hk_surface *s, int f, hk_volume_method method)
{
    const int *c = s->face + (size_t)f * s->dim;
    double pos[3][3] = {{0}};
    for (int q = 0; q < s->dim; q++)
        pos[q][0] = hk_local_x(p, c[q]), pos[q][1] = hk_local_y(p, c[q]), pos[q][2] = hk_local_z(p, c[q]);
    return hk_face_volume_term(s->dim, method, (const double(*)[3])pos);
}

/* Sum of the blocks of s->block in order (after pass 1). */
static double blocks_total(const hk_surface *s)
{
    const int nblocks = (s->nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK;
    double v = 0;
    for (int b = 0; b < nblocks; b++) v += s->block[b];
    return v;
}

void hk_surface_forces(const hk_team *tm, hk_world *w, hk_surface *s)
{
    const hk_particles *p = &w->p;
    const int nblocks = (s->nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK;
    const int wind = w->def.wind_model;
    const double wv[3] = {w->def.wind.x, w->def.wind.y, w->def.wind.z}, cw = w->def.wind_drag;
    int i0, in;
    if (s->nrt > 0) {
        hk_team_range(tm, 0, nblocks, &i0, &in);
        for (int b = i0; b < i0 + in; b++) {
            const int f1 = (b + 1) * HK_FACE_BLOCK < s->nfaces ? (b + 1) * HK_FACE_BLOCK : s->nfaces;
            double sum = 0;
            for (int f = b * HK_FACE_BLOCK; f < f1; f++) sum += face_volume(p, s, f, HK_VOLUME_GAUSS);
            s->block[b] = sum;
        }
        hk_team_barrier(tm);
    }
    /* every thread sums the blocks in the same order (the same bits): no
     * serial section and no barrier for it; task 0 keeps the figures */
    const double volume = s->nrt > 0 ? blocks_total(s) : 0;
    /* P = nRT / V, pumped; no pressure in an inverted (V <= 0) body */
    const double P = s->nrt > 0 && volume > 0 ? s->pump * s->nrt / volume : 0;
    if (s->nrt > 0 && tm->t == 0) {
        s->volume = volume;
        s->pressure = P;
    }
    hk_team_range(tm, 0, s->nfaces, &i0, &in);
    for (int f = i0; f < i0 + in; f++) {
        const int *c = s->face + (size_t)f * s->dim;
        double pos[3][3] = {{0}};
        hk_real vel[3][3] = {{0}};
        for (int q = 0; q < s->dim; q++) {
            pos[q][0] = hk_local_x(p, c[q]), pos[q][1] = hk_local_y(p, c[q]), pos[q][2] = hk_local_z(p, c[q]);
            vel[q][0] = p->vx[c[q]], vel[q][1] = p->vy[c[q]], vel[q][2] = p->vz[c[q]];
        }
        /* the area-weighted normal (|n| = area; 2-D: length), the corners' force */
        double *ff = s->face_f + 3 * (size_t)f, *fn = s->face_n + 3 * (size_t)f;
        hk_face_normal(s->dim, (const double(*)[3])pos, fn);
        hk_face_force(s->dim, P, wind, wv, cw, fn, (const hk_real(*)[3])vel, ff);
    }
    hk_team_barrier(tm);
    hk_particles *pw = &w->p;
    /* each task its share of the body's particles, as the update that
     * follows takes them (team.h hk_team_range): no barrier in between */
    int g0, gn;
    hk_team_range(tm, s->first, s->count, &g0, &gn);
    for (int v = g0 - s->first; v < g0 - s->first + gn; v++) {
        double F[3], N[3];
        hk_vertex_faces(s->vf_start, s->vf_face, s->face_f, s->face_n, v, F, N);
        const int g = s->first + v;
        if (wind == HK_WIND_VERTEX) {
            const hk_real vel[3] = {pw->vx[g], pw->vy[g], pw->vz[g]};
            hk_vertex_wind(wv, cw, vel, N, F);
        }
        pw->fx[g] += (hk_real)F[0];
        pw->fy[g] += (hk_real)F[1];
        pw->fz[g] += (hk_real)F[2];
    }
}

void hk_surfaces_forces(hk_world *w)
{
    for (int i = 0; i < w->surface_count; i++)
        if (hk_surface_active(w, &w->surfaces[i])) hk_surface_forces(&hk_team_one, w, &w->surfaces[i]);
}

int hk_surfaces_pump(hk_world *w)
{
    int changed = 0;
    for (int i = 0; i < w->surface_count; i++) {
        hk_surface *s = &w->surfaces[i];
        if (s->nrt > 0 && s->pump < 1) {
            s->pump = s->pump + s->pump_rate < 1 ? s->pump + s->pump_rate : 1;
            changed = 1;
        }
    }
    return changed;
}

/* ---- read-out ----------------------------------------------------------------- */

static const hk_surface *closed_surface(const hk_world *w, int body)
{
    if (body < 0 || body >= w->body_count || w->bodies[body].surface < 0) return NULL;
    const hk_surface *s = &w->surfaces[w->bodies[body].surface];
    return s->closed ? s : NULL;
}

double hk_world_body_volume(const hk_world *w, int body, hk_volume_method method)
{
    hk_state_read(w);
    const hk_surface *s = closed_surface(w, body);
    if (!s) return NAN;
    const hk_particles *p = &w->p;
    if (method == HK_VOLUME_BOX || method == HK_VOLUME_ELLIPSOID) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int v = s->first; v < s->first + s->count; v++) {
            const double a[3] = {hk_local_x(p, v), hk_local_y(p, v), hk_local_z(p, v)};
            for (int c = 0; c < 3; c++) {
                if (a[c] < lo[c]) lo[c] = a[c];
                if (a[c] > hi[c]) hi[c] = a[c];
            }
        }
        double box = (hi[0] - lo[0]) * (hi[1] - lo[1]);
        if (s->dim == 3) box *= hi[2] - lo[2];
        /* ellipsoid pi/6 dx dy dz; ellipse pi/4 dx dy */
        return method == HK_VOLUME_BOX ? box : 3.14159265358979323846 / (s->dim == 3 ? 6.0 : 4.0) * box;
    }
    if (s->dim == 2 && method == HK_VOLUME_TETRA) method = HK_VOLUME_GAUSS; /* 2-D: one formula */
    /* the same blocks as the force pass: the same bits */
    const int nblocks = (s->nfaces + HK_FACE_BLOCK - 1) / HK_FACE_BLOCK;
    double v = 0;
    for (int b = 0; b < nblocks; b++) {
        const int f1 = (b + 1) * HK_FACE_BLOCK < s->nfaces ? (b + 1) * HK_FACE_BLOCK : s->nfaces;
        double sum = 0;
        for (int f = b * HK_FACE_BLOCK; f < f1; f++) sum += face_volume(p, s, f, method);
        v += sum;
    }
    return v;
}

double hk_world_body_pressure(const hk_world *w, int body)
{
    hk_state_read(w); /* on a device: the pressure of its last evaluation comes back with the state */
    const hk_surface *s = closed_surface(w, body);
    return s && s->nrt > 0 ? s->pressure : 0;
}

int hk_world_body_has_pressure(const hk_world *w, int body)
{
    const hk_surface *s = closed_surface(w, body);
    return s && s->nrt > 0;
}
