/* geometry.c — frame geometry shared by the VTK, OBJ and PNG writers: spring lines, body and collider surfaces. */
/* SPDX-License-Identifier: MIT */
#include "geometry.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "builders.h"
#include "response.h"
#include "springs.h"
#include "world.h"

typedef struct line_ctx {
    hk_geometry *m;
    const hk_particles *p;
    int64_t cap;
    int oom;
} line_ctx;

static void add_line(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    line_ctx *c = vctx;
    hk_geometry *m = c->m;
    if (c->oom || m->lines >= c->cap) {
        c->oom = 1;
        return;
    }
    hk_real d[3];
    hk_spring_delta(f, c->p, slot, a, b, d);
    const double dx = d[0], dy = d[1], dz = d[2];
    m->line[2 * m->lines] = (int32_t)a;
    m->line[2 * m->lines + 1] = (int32_t)b;
    m->line_body[m->lines] = f->body;
    m->stretch[m->lines] = L0 > 0 ? sqrt(dx * dx + dy * dy + dz * dz) / (double)L0 : 1.0;
    m->lines++;
}

/* The closed triangle surface of a mesh or icosphere body (surface.c), or NULL. */
static const hk_surface *mesh_surface(const hk_world *w, int b)
{
    const hk_body *body = &w->bodies[b];
    if (body->surface < 0 || strcmp(body->kind, "cloth") == 0) return NULL; /* a cloth's wind faces: cloth_tris */
    const hk_surface *s = &w->surfaces[body->surface];
    return s->dim == 3 ? s : NULL;
}

int hk_geometry_body_has_surface(const hk_world *w, int b)
{
    const hk_body *body = &w->bodies[b];
    if (strcmp(body->kind, "cloth") == 0) return body->nx >= 2 && body->ny >= 2;
    if (strcmp(body->kind, "jelly") == 0) return body->nx >= 2 && body->ny >= 2 && body->nz >= 2;
    return mesh_surface(w, b) != NULL;
}

static int64_t surface_tris(const hk_world *w, int bi)
{
    const hk_body *b = &w->bodies[bi];
    const int64_t nx = b->nx, ny = b->ny, nz = b->nz;
    if (strcmp(b->kind, "cloth") == 0) return 2 * (nx - 1) * (ny - 1);
    if (strcmp(b->kind, "jelly") == 0) return 4 * ((nx - 1) * (ny - 1) + (nx - 1) * (nz - 1) + (ny - 1) * (nz - 1));
    const hk_surface *s = mesh_surface(w, bi);
    return s ? s->nfaces : 0;
}

static void add_tri(hk_geometry *m, int body, int a, int b, int c)
{
    int32_t *t = m->tri + 3 * m->tris;
    t[0] = a;
    t[1] = b;
    t[2] = c;
    m->tri_body[m->tris++] = body;
}

/* The lattice family of body with stencil (di, dj, dk), or NULL. */
static const hk_family *stencil(const hk_world *w, int body, int di, int dj, int dk)
{
    for (int f = 0; f < w->family_count; f++) {
        const hk_family *fa = &w->families[f];
        if (fa->body == body && fa->kind == HK_FAMILY_LATTICE && fa->di == di && fa->dj == dj && fa->dk == dk)
            return fa;
    }
    return NULL;
}

static int broken_at(const hk_family *f, int64_t local) { return f && f->broken && f->broken[local]; }

static void cloth_tris(const hk_world *w, int bi, hk_geometry *m)
{
    const hk_body *b = &w->bodies[bi];
    const hk_family *fu = stencil(w, bi, 1, 0, 0), *fv = stencil(w, bi, 0, 1, 0);
    for (int j = 0; j + 1 < b->ny; j++)
        for (int i = 0; i + 1 < b->nx; i++) {
            int t[6];
            hk_cloth_cell_tris(b->nx, i, j, t);
            /* a triangle is left out once one of its two lattice edges has broken: the first uses the u edge
             * and the v edge at (i, j), the second the v edge at (i + 1, j) and the u edge at (i, j + 1) */
            if (!broken_at(fu, t[0]) && !broken_at(fv, t[0]))
                add_tri(m, bi, b->first + t[0], b->first + t[1], b->first + t[2]);
            if (!broken_at(fv, t[3]) && !broken_at(fu, t[5]))
                add_tri(m, bi, b->first + t[3], b->first + t[4], b->first + t[5]);
        }
}

/* Two triangles per cell of one face of a jelly box: nodes base + s*du + t*dv. */
static void face(hk_geometry *m, int bi, int base, int ns, int nt, int du, int dv)
{
    for (int t = 0; t + 1 < nt; t++)
        for (int s = 0; s + 1 < ns; s++) {
            const int A = base + s * du + t * dv, B = A + du, C = A + dv, D = C + du;
            add_tri(m, bi, A, B, D);
            add_tri(m, bi, A, D, C);
        }
}

static void jelly_tris(const hk_world *w, int bi, hk_geometry *m)
{
    const hk_body *b = &w->bodies[bi];
    const int nx = b->nx, ny = b->ny, nz = b->nz, sy = nx, sz = nx * ny, f0 = b->first;
    face(m, bi, f0, nx, ny, 1, sy);                 /* k = 0 */
    face(m, bi, f0 + (nz - 1) * sz, nx, ny, 1, sy); /* k = nz-1 */
    face(m, bi, f0, nx, nz, 1, sz);                 /* j = 0 */
    face(m, bi, f0 + (ny - 1) * sy, nx, nz, 1, sz); /* j = ny-1 */
    face(m, bi, f0, ny, nz, sy, sz);                /* i = 0 */
    face(m, bi, f0 + nx - 1, ny, nz, sy, sz);       /* i = nx-1 */
}

/* The colliders' surfaces one after the other, and each particle's contacts; 0 or -1 (out of memory). */
static int collider_tris(const hk_world *w, hk_geometry *m)
{
    const hk_collider *col;
    const int n = hk_colliders(w, &col);
    if (n == 0) return 0;
    m->contacts = calloc((size_t)w->p.count + 1, sizeof *m->contacts);
    if (!m->contacts) return -1;
    (void)hk_contact_counts(w, m->contacts);
    for (int c = 0; c < n; c++) {
        double *xyz;
        int *tri, nv, nt;
        if (hk_collider_surface(&col[c], hk_world_time(w), HK_GEOMETRY_AROUND, &xyz, &nv, &tri, &nt) != 0) {
            free(xyz);
            free(tri);
            return -1;
        }
        double *pos = realloc(m->cpos, 3 * (size_t)(m->cverts + nv) * sizeof *pos);
        if (pos) m->cpos = pos;
        int32_t *ct = realloc(m->ctri, 3 * (size_t)(m->ctris + nt) * sizeof *ct);
        if (ct) m->ctri = ct;
        int32_t *cc = realloc(m->ctri_collider, (size_t)(m->ctris + nt) * sizeof *cc);
        if (cc) m->ctri_collider = cc;
        if (pos && ct && cc) {
            memcpy(m->cpos + 3 * m->cverts, xyz, 3 * (size_t)nv * sizeof *xyz);
            for (int t = 0; t < nt; t++) {
                for (int k = 0; k < 3; k++) m->ctri[3 * (m->ctris + t) + k] = (int32_t)(m->cverts + tri[3 * t + k]);
                m->ctri_collider[m->ctris + t] = c;
            }
            m->cverts += nv;
            m->ctris += nt;
        }
        free(xyz);
        free(tri);
        if (!pos || !ct || !cc) return -1;
    }
    return 0;
}

int hk_geometry_build(const hk_world *w, hk_geometry *m)
{
    memset(m, 0, sizeof *m);
    int64_t springs = hk_world_spring_count(w), tris = 0;
    for (int b = 0; b < w->body_count; b++)
        if (hk_geometry_body_has_surface(w, b)) tris += surface_tris(w, b);
    m->line = malloc((size_t)(2 * springs + 1) * sizeof *m->line);
    m->line_body = malloc((size_t)(springs + 1) * sizeof *m->line_body);
    m->stretch = malloc((size_t)(springs + 1) * sizeof *m->stretch);
    m->tri = malloc((size_t)(3 * tris + 1) * sizeof *m->tri);
    m->tri_body = malloc((size_t)(tris + 1) * sizeof *m->tri_body);
    m->pos = malloc((3 * (size_t)w->p.count + 1) * sizeof *m->pos);
    if (!m->line || !m->line_body || !m->stretch || !m->tri || !m->tri_body || !m->pos) {
        hk_geometry_free(m);
        return -1;
    }
    hk_world_positions(w, 0, w->p.count, m->pos);
    if (collider_tris(w, m) != 0) {
        hk_geometry_free(m);
        return -1;
    }
    line_ctx c = {m, &w->p, springs, 0};
    for (int f = 0; f < w->family_count; f++) hk_springs_visit(&w->families[f], add_line, &c);
    for (int b = 0; b < w->body_count; b++) {
        if (!hk_geometry_body_has_surface(w, b)) continue;
        const hk_surface *ms = mesh_surface(w, b);
        if (ms)
            for (int f = 0; f < ms->nfaces; f++)
                add_tri(m, b, ms->face[3 * f], ms->face[3 * f + 1], ms->face[3 * f + 2]);
        else if (strcmp(w->bodies[b].kind, "cloth") == 0)
            cloth_tris(w, b, m);
        else
            jelly_tris(w, b, m);
    }
    return 0;
}

void hk_geometry_free(hk_geometry *m)
{
    free(m->pos);
    free(m->line);
    free(m->line_body);
    free(m->stretch);
    free(m->tri);
    free(m->tri_body);
    free(m->cpos);
    free(m->ctri);
    free(m->ctri_collider);
    free(m->contacts);
    memset(m, 0, sizeof *m);
}
