/* mesh.c — closed triangle mesh storage, validation (watertight, oriented, non-degenerate), volume and icosphere. */
/* SPDX-License-Identifier: MIT */
#include "mesh.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hk_mesh_free(hk_mesh *m)
{
    if (!m) return;
    free(m->vertices);
    free(m->faces);
    free(m->face_lines);
    memset(m, 0, sizeof *m);
}

int hk_mesh_error(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
{
    if (!err || errlen == 0) return -1;
    int n = line > 0 ? snprintf(err, errlen, "%s:%d: error: ", name, line) : snprintf(err, errlen, "%s: error: ", name);
    if (n >= 0 && (size_t)n < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int hk_mesh_push_vertex(hk_mesh *m, int *cap, hk_vec3 v)
{
    if (m->vertex_count == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        hk_vec3 *nv = realloc(m->vertices, (size_t)ncap * sizeof *nv);
        if (!nv) return -1;
        m->vertices = nv;
        *cap = ncap;
    }
    m->vertices[m->vertex_count++] = v;
    return 0;
}

int hk_mesh_push_face(hk_mesh *m, int *cap, int a, int b, int c, int line)
{
    if (m->face_count == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        int *nf = realloc(m->faces, (size_t)ncap * 3 * sizeof *nf);
        if (!nf) return -1;
        m->faces = nf;
        int *nl = realloc(m->face_lines, (size_t)ncap * sizeof *nl);
        if (!nl) return -1;
        m->face_lines = nl;
        *cap = ncap;
    }
    int *f = m->faces + 3 * (size_t)m->face_count;
    f[0] = a, f[1] = b, f[2] = c;
    m->face_lines[m->face_count++] = line;
    return 0;
}

/* ---- validation ----------------------------------------------------------- */

typedef struct edge_rec {
    int lo, hi; /* vertices, lo < hi */
    int face;
    int forward; /* 1: the face runs lo -> hi */
} edge_rec;

static int edge_cmp(const void *pa, const void *pb)
{
    const edge_rec *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->face > b->face) - (a->face < b->face);
}

static int face_line(const hk_mesh *m, int f) { return m->face_lines ? m->face_lines[f] : 0; }

int hk_mesh_validate(hk_mesh *m, const char *name, int fix, char *err, size_t errlen)
{
    if (m->vertex_count < 4 || m->face_count < 1)
        return hk_mesh_error(err, errlen, name, 0,
                             "a closed mesh needs at least 4 vertices and 4 faces (got %d vertices, %d faces)",
                             m->vertex_count, m->face_count);
    for (int v = 0; v < m->vertex_count; v++) {
        const hk_vec3 *p = &m->vertices[v];
        if (!isfinite(p->x) || !isfinite(p->y) || !isfinite(p->z))
            return hk_mesh_error(err, errlen, name, 0, "vertex %d is not finite", v);
    }
    char *used = calloc((size_t)m->vertex_count, 1);
    edge_rec *e = malloc((size_t)m->face_count * 3 * sizeof *e);
    if (!used || !e) {
        free(used);
        free(e);
        return hk_mesh_error(err, errlen, name, 0, "out of memory");
    }
    int rc = 0;
    for (int f = 0; f < m->face_count && rc == 0; f++) {
        const int *c = m->faces + 3 * (size_t)f;
        for (int k = 0; k < 3 && rc == 0; k++)
            if (c[k] < 0 || c[k] >= m->vertex_count)
                rc = hk_mesh_error(err, errlen, name, face_line(m, f), "face %d: vertex index %d out of range [0, %d]",
                                   f, c[k], m->vertex_count - 1);
        if (rc) break;
        if (c[0] == c[1] || c[1] == c[2] || c[0] == c[2]) {
            rc = hk_mesh_error(err, errlen, name, face_line(m, f),
                               "face %d (%d %d %d) is degenerate: a repeated vertex", f, c[0], c[1], c[2]);
            break;
        }
        const hk_vec3 *a = &m->vertices[c[0]], *b = &m->vertices[c[1]], *d = &m->vertices[c[2]];
        double ux = b->x - a->x, uy = b->y - a->y, uz = b->z - a->z;
        double vx = d->x - a->x, vy = d->y - a->y, vz = d->z - a->z;
        double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        double n2 = nx * nx + ny * ny + nz * nz, s2 = (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz);
        if (!(n2 > 1e-24 * s2) || n2 == 0) {
            rc = hk_mesh_error(err, errlen, name, face_line(m, f), "face %d (%d %d %d) is degenerate: zero area", f,
                               c[0], c[1], c[2]);
            break;
        }
        for (int k = 0; k < 3; k++) {
            int p = c[k], q = c[(k + 1) % 3];
            used[p] = 1;
            e[3 * (size_t)f + k] = (edge_rec){p < q ? p : q, p < q ? q : p, f, p < q};
        }
    }
    for (int v = 0; v < m->vertex_count && rc == 0; v++)
        if (!used[v]) rc = hk_mesh_error(err, errlen, name, 0, "vertex %d is not used by any face", v);
    free(used);
    const size_t ne = (size_t)m->face_count * 3;
    if (rc == 0) qsort(e, ne, sizeof *e, edge_cmp);
    for (size_t i = 0; i < ne && rc == 0;) {
        size_t j = i;
        while (j < ne && e[j].lo == e[i].lo && e[j].hi == e[i].hi) j++;
        const edge_rec *a = &e[i];
        if (j - i == 1) {
            rc = hk_mesh_error(err, errlen, name, face_line(m, a->face),
                               "edge %d-%d is used only by face %d: the mesh is not closed (open edge)", a->lo, a->hi,
                               a->face);
        } else if (j - i > 2) {
            rc = hk_mesh_error(err, errlen, name, face_line(m, e[i + 2].face),
                               "edge %d-%d is shared by %d faces (%d, %d, %d...): non-manifold edge", a->lo, a->hi,
                               (int)(j - i), e[i].face, e[i + 1].face, e[i + 2].face);
        } else if (e[i].forward == e[i + 1].forward) {
            rc = hk_mesh_error(err, errlen, name, face_line(m, e[i + 1].face),
                               "faces %d and %d run edge %d-%d in the same direction: inconsistent orientation "
                               "(flip face %d)",
                               e[i].face, e[i + 1].face, a->lo, a->hi, e[i + 1].face);
        }
        i = j;
    }
    free(e);
    if (rc) return rc;
    double vol = hk_mesh_volume(m, HK_VOLUME_GAUSS);
    if (!(vol > 0)) {
        if (!fix || !(vol < 0))
            return hk_mesh_error(err, errlen, name, 0,
                                 "the faces point inward (signed volume %g <= 0): list each face's corners "
                                 "counter-clockwise seen from outside",
                                 vol);
        for (int f = 0; f < m->face_count; f++) {
            int *c = m->faces + 3 * (size_t)f, t = c[1];
            c[1] = c[2];
            c[2] = t;
        }
    }
    return 0;
}

/* ---- volume ---------------------------------------------------------------- */

double hk_mesh_volume(const hk_mesh *m, hk_volume_method method)
{
    if (m->vertex_count == 0) return 0;
    if (method == HK_VOLUME_BOX || method == HK_VOLUME_ELLIPSOID) {
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int v = 0; v < m->vertex_count; v++) {
            const double p[3] = {m->vertices[v].x, m->vertices[v].y, m->vertices[v].z};
            for (int c = 0; c < 3; c++) {
                if (p[c] < lo[c]) lo[c] = p[c];
                if (p[c] > hi[c]) hi[c] = p[c];
            }
        }
        double box = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
        return method == HK_VOLUME_BOX ? box : 3.14159265358979323846 / 6.0 * box;
    }
    double total = 0;
    for (int b0 = 0; b0 < m->face_count; b0 += HK_FACE_BLOCK) {
        double block = 0;
        int b1 = b0 + HK_FACE_BLOCK < m->face_count ? b0 + HK_FACE_BLOCK : m->face_count;
        for (int f = b0; f < b1; f++) {
            const int *c = m->faces + 3 * (size_t)f;
            const hk_vec3 *a = &m->vertices[c[0]], *b = &m->vertices[c[1]], *d = &m->vertices[c[2]];
            const double p1[3] = {a->x, a->y, a->z}, p2[3] = {b->x, b->y, b->z}, p3[3] = {d->x, d->y, d->z};
            block += hk_face_volume(method, p1, p2, p3);
        }
        total += block;
    }
    return total;
}

/* ---- icosphere ------------------------------------------------------------- */

/* Midpoint of edge (a, b), created once: open addressing on the pair. */
typedef struct mid_table {
    int64_t *key;
    int *val;
    size_t cap;
} mid_table;

static int midpoint(hk_mesh *m, int *vcap, mid_table *t, int a, int b, double r, hk_vec3 c)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    int64_t key = (int64_t)lo << 32 | (uint32_t)hi;
    size_t h = (size_t)((uint64_t)key * 0x9E3779B97F4A7C15ull >> 17) & (t->cap - 1);
    while (t->key[h] >= 0) {
        if (t->key[h] == key) return t->val[h];
        h = (h + 1) & (t->cap - 1);
    }
    const hk_vec3 *p = &m->vertices[a], *q = &m->vertices[b];
    double x = 0.5 * (p->x + q->x) - c.x, y = 0.5 * (p->y + q->y) - c.y, z = 0.5 * (p->z + q->z) - c.z;
    double s = r / sqrt(x * x + y * y + z * z);
    if (hk_mesh_push_vertex(m, vcap, (hk_vec3){c.x + s * x, c.y + s * y, c.z + s * z})) return -1;
    t->key[h] = key;
    t->val[h] = m->vertex_count - 1;
    return t->val[h];
}

int hk_mesh_icosphere(hk_mesh *out, double radius, int level, hk_vec3 center)
{
    memset(out, 0, sizeof *out);
    if (!(radius > 0) || !isfinite(radius) || level < 0 || level > 9) return -1;
    const double g = (1.0 + sqrt(5.0)) / 2.0, s = radius / sqrt(1.0 + g * g);
    static const double base[12][3] = {{-1, 1, 0},  {1, 1, 0},  {-1, -1, 0}, {1, -1, 0}, {0, -1, 1},  {0, 1, 1},
                                       {0, -1, -1}, {0, 1, -1}, {1, 0, -1},  {1, 0, 1},  {-1, 0, -1}, {-1, 0, 1}};
    static const int tri[20][3] = {{0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                                   {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                                   {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    int vcap = 0, fcap = 0;
    for (int v = 0; v < 12; v++) {
        double p[3];
        /* (+-1, +-g, 0), (0, +-1, +-g), (+-g, 0, +-1) */
        if (v < 4)
            p[0] = base[v][0], p[1] = base[v][1] * g, p[2] = 0;
        else if (v < 8)
            p[0] = 0, p[1] = base[v][1], p[2] = base[v][2] * g;
        else
            p[0] = base[v][0] * g, p[1] = 0, p[2] = base[v][2];
        if (hk_mesh_push_vertex(out, &vcap, (hk_vec3){center.x + s * p[0], center.y + s * p[1], center.z + s * p[2]}))
            goto oom;
    }
    for (int f = 0; f < 20; f++)
        if (hk_mesh_push_face(out, &fcap, tri[f][0], tri[f][1], tri[f][2], 0)) goto oom;
    for (int l = 0; l < level; l++) {
        mid_table t;
        t.cap = 1;
        while (t.cap < (size_t)out->face_count * 4) t.cap <<= 1;
        t.key = malloc(t.cap * sizeof *t.key);
        t.val = malloc(t.cap * sizeof *t.val);
        hk_mesh next = {0};
        int ncap = 0;
        int ok = t.key && t.val;
        if (ok) memset(t.key, 0xff, t.cap * sizeof *t.key);
        for (int f = 0; ok && f < out->face_count; f++) {
            const int *c = out->faces + 3 * (size_t)f;
            int ab = midpoint(out, &vcap, &t, c[0], c[1], radius, center);
            int bc = midpoint(out, &vcap, &t, c[1], c[2], radius, center);
            int ca = midpoint(out, &vcap, &t, c[2], c[0], radius, center);
            ok = ab >= 0 && bc >= 0 && ca >= 0 && !hk_mesh_push_face(&next, &ncap, c[0], ab, ca, 0) &&
                 !hk_mesh_push_face(&next, &ncap, c[1], bc, ab, 0) &&
                 !hk_mesh_push_face(&next, &ncap, c[2], ca, bc, 0) && !hk_mesh_push_face(&next, &ncap, ab, bc, ca, 0);
        }
        free(t.key);
        free(t.val);
        free(out->faces);
        free(out->face_lines);
        out->faces = next.faces;
        out->face_count = next.face_count;
        out->face_lines = next.face_lines;
        fcap = ncap;
        if (!ok) goto oom;
    }
    free(out->face_lines); /* generated: no source lines */
    out->face_lines = NULL;
    return 0;
oom:
    hk_mesh_free(out);
    return HK_ERR_MEMORY;
}
