/* faces.c — the triangles of a body's surface (mesh, icosphere, cloth, jelly), for frames and for contact. */
/* SPDX-License-Identifier: MIT */
#include "faces.h"

#include <string.h>

#include "builders.h"

/* The closed triangle surface of a mesh or icosphere body (surface.c), or NULL. */
static const hk_surface *mesh_surface(const hk_world *w, int b)
{
    const hk_body *body = &w->bodies[b];
    if (body->surface < 0 || strcmp(body->kind, "cloth") == 0) return NULL; /* a cloth's wind faces: cloth_tris */
    const hk_surface *s = &w->surfaces[body->surface];
    return s->dim == 3 ? s : NULL;
}

int hk_body_has_faces(const hk_world *w, int b)
{
    const hk_body *body = &w->bodies[b];
    if (strcmp(body->kind, "cloth") == 0) return body->nx >= 2 && body->ny >= 2;
    if (strcmp(body->kind, "jelly") == 0) return body->nx >= 2 && body->ny >= 2 && body->nz >= 2;
    return mesh_surface(w, b) != NULL;
}

int64_t hk_body_face_capacity(const hk_world *w, int bi)
{
    if (!hk_body_has_faces(w, bi)) return 0;
    const hk_body *b = &w->bodies[bi];
    const int64_t nx = b->nx, ny = b->ny, nz = b->nz;
    if (strcmp(b->kind, "cloth") == 0) return 2 * (nx - 1) * (ny - 1);
    if (strcmp(b->kind, "jelly") == 0) return 4 * ((nx - 1) * (ny - 1) + (nx - 1) * (nz - 1) + (ny - 1) * (nz - 1));
    return mesh_surface(w, bi)->nfaces;
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

static int64_t put(int32_t *tri, int64_t n, int a, int b, int c)
{
    tri[3 * n] = a;
    tri[3 * n + 1] = b;
    tri[3 * n + 2] = c;
    return n + 1;
}

/* The cells of rows [j0, j1) of a cloth. */
static int64_t cloth_tris(const hk_world *w, int bi, int j0, int j1, int32_t *tri)
{
    const hk_body *b = &w->bodies[bi];
    const hk_family *fu = stencil(w, bi, 1, 0, 0), *fv = stencil(w, bi, 0, 1, 0);
    const int first = (int)hk_body_base(b);
    int64_t n = 0;
    for (int j = j0; j + 1 < b->ny && j < j1; j++)
        for (int i = 0; i + 1 < b->nx; i++) {
            int t[6];
            hk_cloth_cell_tris(b->nx, i, j, t);
            /* a triangle is left out once one of its two lattice edges has broken: the first uses the u edge
             * and the v edge at (i, j), the second the v edge at (i + 1, j) and the u edge at (i, j + 1) */
            if (!broken_at(fu, t[0]) && !broken_at(fv, t[0])) n = put(tri, n, first + t[0], first + t[1], first + t[2]);
            if (!broken_at(fv, t[3]) && !broken_at(fu, t[5])) n = put(tri, n, first + t[3], first + t[4], first + t[5]);
        }
    return n;
}

/* The nodes [a0, a1) a face's first corner A may be (body-local, as f0 + l): its triangles' range. */
typedef struct corners {
    int f0;
    int64_t a0, a1;
} corners;

/* Two triangles per cell of one face of a jelly box: nodes base + s*du + t*dv; a cell whose first corner A lies
 * outside the range left out. */
static int64_t face(int32_t *tri, int64_t n, const corners *in, int base, int ns, int nt, int du, int dv)
{
    for (int t = 0; t + 1 < nt; t++)
        for (int s = 0; s + 1 < ns; s++) {
            const int A = base + s * du + t * dv, B = A + du, C = A + dv, D = C + du;
            if (A - in->f0 < in->a0 || A - in->f0 >= in->a1) continue;
            n = put(tri, n, A, B, D);
            n = put(tri, n, A, D, C);
        }
    return n;
}

static int64_t jelly_tris(const hk_world *w, int bi, int64_t l0, int64_t l1, int32_t *tri)
{
    const hk_body *b = &w->bodies[bi];
    const int nx = b->nx, ny = b->ny, nz = b->nz, sy = nx, sz = nx * ny, f0 = (int)hk_body_base(b);
    const corners in = {f0, l0, l1};
    int64_t n = face(tri, 0, &in, f0, nx, ny, 1, sy);         /* k = 0 */
    n = face(tri, n, &in, f0 + (nz - 1) * sz, nx, ny, 1, sy); /* k = nz-1 */
    n = face(tri, n, &in, f0, nx, nz, 1, sz);                 /* j = 0 */
    n = face(tri, n, &in, f0 + (ny - 1) * sy, nx, nz, 1, sz); /* j = ny-1 */
    n = face(tri, n, &in, f0, ny, nz, sy, sz);                /* i = 0 */
    return face(tri, n, &in, f0 + nx - 1, ny, nz, sy, sz);    /* i = nx-1 */
}

int64_t hk_body_faces(const hk_world *w, int b, int32_t *tri)
{
    return hk_body_faces_from(w, b, 0, w->bodies[b].total, tri);
}

int64_t hk_body_faces_from(const hk_world *w, int b, int64_t l0, int64_t l1, int32_t *tri)
{
    if (!hk_body_has_faces(w, b)) return 0;
    const hk_surface *ms = mesh_surface(w, b);
    if (ms) { /* a body held whole */
        if (l0 > 0 || l1 < w->bodies[b].total) return 0;
        for (int f = 0; f < ms->nfaces; f++) put(tri, f, ms->face[3 * f], ms->face[3 * f + 1], ms->face[3 * f + 2]);
        return ms->nfaces;
    }
    const int nx = w->bodies[b].nx;
    return strcmp(w->bodies[b].kind, "cloth") == 0
               ? cloth_tris(w, b, (int)((l0 + nx - 1) / nx), (int)((l1 + nx - 1) / nx), tri)
               : jelly_tris(w, b, l0, l1, tri);
}
