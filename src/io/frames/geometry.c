/* geometry.c — frame geometry shared by the VTK, OBJ and PNG writers: spring lines, body and collider surfaces. */
/* SPDX-License-Identifier: MIT */
#include "geometry.h"

#include "frame_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "faces.h"
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

int hk_geometry_body_has_surface(const hk_world *w, int b) { return hk_body_has_faces(w, b); }

/* The colliders' surfaces one after the other, and each particle's contacts; 0 or -1 (out of memory). */
static int collider_tris(const hk_world *w, hk_geometry *m)
{
    const hk_collider *col;
    const int n = hk_colliders(w, &col);
    if (n == 0) return 0;
    m->contacts = hk_frame_calloc((size_t)w->p.count + 1, sizeof *m->contacts);
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

int hk_geometry_colliders(const hk_world *w, hk_geometry *m)
{
    memset(m, 0, sizeof *m);
    if (collider_tris(w, m) == 0) return 0;
    hk_geometry_free(m);
    return -1;
}

int hk_geometry_build(const hk_world *w, hk_geometry *m)
{
    memset(m, 0, sizeof *m);
    int64_t springs = hk_world_spring_count(w), tris = 0;
    for (int b = 0; b < w->body_count; b++) tris += hk_body_face_capacity(w, b);
    m->line = hk_frame_alloc((size_t)(2 * springs + 1) * sizeof *m->line);
    m->line_body = hk_frame_alloc((size_t)(springs + 1) * sizeof *m->line_body);
    m->stretch = hk_frame_alloc((size_t)(springs + 1) * sizeof *m->stretch);
    m->tri = hk_frame_alloc((size_t)(3 * tris + 1) * sizeof *m->tri);
    m->tri_body = hk_frame_alloc((size_t)(tris + 1) * sizeof *m->tri_body);
    m->pos = hk_frame_alloc((3 * (size_t)w->p.count + 1) * sizeof *m->pos);
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
        const int64_t n = hk_body_faces(w, b, m->tri + 3 * m->tris);
        for (int64_t t = 0; t < n; t++) m->tri_body[m->tris++] = b;
    }
    return 0;
}

void hk_geometry_free(hk_geometry *m)
{
    hk_frame_free(m->pos);
    hk_frame_free(m->line);
    hk_frame_free(m->line_body);
    hk_frame_free(m->stretch);
    hk_frame_free(m->tri);
    hk_frame_free(m->tri_body);
    free(m->cpos);
    free(m->ctri);
    free(m->ctri_collider);
    hk_frame_free(m->contacts);
    memset(m, 0, sizeof *m);
}
