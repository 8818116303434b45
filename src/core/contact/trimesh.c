/* trimesh.c — a collider mesh's normals, pseudo-normals and tree of boxes, and its nearest-point and entry queries. */
/* SPDX-License-Identifier: MIT */
#include "trimesh.h"

#include <stdlib.h>
#include <string.h>

#include "geometry.h"

/* Queries walk the tree with an explicit stack of this many nodes at most
 * (a tree of median splits over fewer than 2^30 faces is far shallower). */
#define HK_TRIMESH_STACK 64

static const double *vertex(const hk_trimesh *m, int f, int k) { return m->v + 3 * (size_t)m->t[3 * (size_t)f + k]; }

typedef struct half_edge {
    int lo, hi, face, slot; /* slot: the edge's index e within its face */
} half_edge;

static int half_edge_cmp(const void *a, const void *b)
{
    const half_edge *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    return x->face < y->face ? -1 : x->face > y->face;
}

/* Face normals, the angle-weighted vertex pseudo-normals and the edge
 * pseudo-normals (each edge's two faces, which hk_mesh_validate made sure of). */
static int normals(hk_trimesh *m)
{
    for (int f = 0; f < m->nt; f++) {
        const double *a = vertex(m, f, 0), *b = vertex(m, f, 1), *c = vertex(m, f, 2);
        double e1[3], e2[3], *n = m->fn + 3 * (size_t)f;
        g_sub(b, a, e1);
        g_sub(c, a, e2);
        g_cross(e1, e2, n);
        g_normalise(n);
        for (int k = 0; k < 3; k++) { /* the angle at corner k */
            const double *p = vertex(m, f, k), *q = vertex(m, f, (k + 1) % 3), *r = vertex(m, f, (k + 2) % 3);
            double u[3], w[3];
            g_sub(q, p, u);
            g_sub(r, p, w);
            g_normalise(u);
            g_normalise(w);
            double cs = g_dot(u, w);
            cs = cs > 1 ? 1 : cs < -1 ? -1 : cs;
            const double angle = acos(cs);
            double *vn = m->vn + 3 * (size_t)m->t[3 * (size_t)f + k];
            for (int c3 = 0; c3 < 3; c3++) vn[c3] += angle * n[c3];
        }
    }
    for (int v = 0; v < m->nv; v++) g_normalise(m->vn + 3 * (size_t)v);
    const size_t ne = 3 * (size_t)m->nt;
    half_edge *he = malloc(ne * sizeof *he);
    if (!he) return -1;
    for (int f = 0; f < m->nt; f++)
        for (int e = 0; e < 3; e++) {
            const int a = m->t[3 * (size_t)f + e], b = m->t[3 * (size_t)f + (e + 1) % 3];
            he[3 * (size_t)f + e] = (half_edge){a < b ? a : b, a < b ? b : a, f, e};
        }
    qsort(he, ne, sizeof *he, half_edge_cmp);
    for (size_t i = 0; i + 1 < ne; i += 2) { /* pairs: every edge is in exactly two faces */
        const half_edge *x = &he[i], *y = &he[i + 1];
        double s[3];
        for (int c = 0; c < 3; c++) s[c] = m->fn[3 * (size_t)x->face + c] + m->fn[3 * (size_t)y->face + c];
        g_normalise(s);
        memcpy(m->en + 3 * (3 * (size_t)x->face + (size_t)x->slot), s, sizeof s);
        memcpy(m->en + 3 * (3 * (size_t)y->face + (size_t)y->slot), s, sizeof s);
    }
    free(he);
    return 0;
}

/* The faces order[a, b) sorted along an axis by their centroids (ties by index). */
typedef struct centroid_key {
    double c;
    int face;
} centroid_key;

static int centroid_cmp(const void *a, const void *b)
{
    const centroid_key *x = a, *y = b;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return x->face < y->face ? -1 : x->face > y->face;
}

static void face_box(const hk_trimesh *m, int f, double lo[3], double hi[3])
{
    for (int k = 0; k < 3; k++) {
        const double *p = vertex(m, f, k);
        for (int c = 0; c < 3; c++) {
            if (p[c] < lo[c]) lo[c] = p[c];
            if (p[c] > hi[c]) hi[c] = p[c];
        }
    }
}

/* Node `at` over faces order[a, b): its box, then a leaf or two children
 * split at the median along the longest side of the centroids' box. */
static void build_node(hk_trimesh *m, centroid_key *key, int at, int a, int b, int depth)
{
    hk_trimesh_node *nd = &m->node[at];
    double clo[3], chi[3];
    for (int c = 0; c < 3; c++) nd->lo[c] = clo[c] = INFINITY, nd->hi[c] = chi[c] = -INFINITY;
    for (int i = a; i < b; i++) {
        face_box(m, m->order[i], nd->lo, nd->hi);
        for (int c = 0; c < 3; c++) {
            const double x =
                (vertex(m, m->order[i], 0)[c] + vertex(m, m->order[i], 1)[c] + vertex(m, m->order[i], 2)[c]) / 3;
            if (x < clo[c]) clo[c] = x;
            if (x > chi[c]) chi[c] = x;
        }
    }
    if (depth > m->depth) m->depth = depth;
    if (b - a <= HK_TRIMESH_LEAF) {
        nd->first = a;
        nd->count = b - a;
        return;
    }
    int axis = 0;
    for (int c = 1; c < 3; c++)
        if (chi[c] - clo[c] > chi[axis] - clo[axis]) axis = c;
    for (int i = a; i < b; i++) {
        const int f = m->order[i];
        key[i - a] = (centroid_key){vertex(m, f, 0)[axis] + vertex(m, f, 1)[axis] + vertex(m, f, 2)[axis], f};
    }
    qsort(key, (size_t)(b - a), sizeof *key, centroid_cmp);
    for (int i = a; i < b; i++) m->order[i] = key[i - a].face;
    const int mid = a + (b - a) / 2, left = m->nodes;
    m->nodes += 2;
    nd->first = left;
    nd->count = 0;
    build_node(m, key, left, a, mid, depth + 1);
    build_node(m, key, left + 1, mid, b, depth + 1);
}

int hk_trimesh_build(hk_trimesh *m, const hk_mesh *mesh, const double offset[3])
{
    memset(m, 0, sizeof *m);
    m->nv = mesh->vertex_count;
    m->nt = mesh->face_count;
    const size_t nv = (size_t)m->nv, nt = (size_t)m->nt;
    m->v = malloc(3 * nv * sizeof *m->v);
    m->t = malloc(3 * nt * sizeof *m->t);
    m->fn = calloc(3 * nt, sizeof *m->fn);
    m->en = calloc(9 * nt, sizeof *m->en);
    m->vn = calloc(3 * nv, sizeof *m->vn);
    m->order = malloc(nt * sizeof *m->order);
    m->node = malloc(2 * nt * sizeof *m->node); /* a tree of nt leaves at most has 2 nt - 1 nodes */
    centroid_key *key = malloc(nt * sizeof *key);
    if (!m->v || !m->t || !m->fn || !m->en || !m->vn || !m->order || !m->node || !key) {
        free(key);
        hk_trimesh_free(m);
        return -1;
    }
    for (int i = 0; i < m->nv; i++) {
        m->v[3 * (size_t)i] = mesh->vertices[i].x + offset[0];
        m->v[3 * (size_t)i + 1] = mesh->vertices[i].y + offset[1];
        m->v[3 * (size_t)i + 2] = mesh->vertices[i].z + offset[2];
    }
    memcpy(m->t, mesh->faces, 3 * nt * sizeof *m->t);
    for (int f = 0; f < m->nt; f++) m->order[f] = f;
    if (normals(m) != 0) {
        free(key);
        hk_trimesh_free(m);
        return -1;
    }
    m->nodes = 1;
    build_node(m, key, 0, 0, m->nt, 1);
    free(key);
    /* the boxes a little larger than their faces, so that rounding in the
     * slab test never turns away a segment that meets a face in a box's
     * plane (an axis-aligned face has a box of zero thickness) */
    double size = 0;
    for (int c = 0; c < 3; c++) size = fmax(size, m->node[0].hi[c] - m->node[0].lo[c]);
    for (int i = 0; i < m->nodes; i++)
        for (int c = 0; c < 3; c++) m->node[i].lo[c] -= 1e-9 * size, m->node[i].hi[c] += 1e-9 * size;
    memcpy(m->lo, m->node[0].lo, sizeof m->lo);
    memcpy(m->hi, m->node[0].hi, sizeof m->hi);
    return 0;
}

void hk_trimesh_free(hk_trimesh *m)
{
    free(m->v);
    free(m->t);
    free(m->fn);
    free(m->en);
    free(m->vn);
    free(m->order);
    free(m->node);
    memset(m, 0, sizeof *m);
}

/* The squared distance from p to the box (0 inside). */
static double box_distance2(const hk_trimesh_node *nd, const double p[3])
{
    double s = 0;
    for (int c = 0; c < 3; c++) {
        const double d = p[c] < nd->lo[c] ? nd->lo[c] - p[c] : p[c] > nd->hi[c] ? p[c] - nd->hi[c] : 0;
        s += d * d;
    }
    return s;
}

/* The pseudo-normal of the region r of face f where a closest point lies. */
static const double *pseudo_normal(const hk_trimesh *m, int f, int r)
{
    if (r == G_FACE) return m->fn + 3 * (size_t)f;
    if (r < G_VERT0) return m->en + 3 * (3 * (size_t)f + (size_t)(r - G_EDGE0));
    return m->vn + 3 * (size_t)m->t[3 * (size_t)f + (r - G_VERT0)];
}

int hk_trimesh_nearest(const hk_trimesh *m, const double p[3], double radius, double q[3], double n[3], double *phi)
{
    double best = radius * radius;
    int face = -1, region = 0;
    int stack[HK_TRIMESH_STACK], top = 0;
    stack[top++] = 0;
    while (top > 0) { /* nearer child first; a node is opened only while it may hold a nearer point */
        const hk_trimesh_node *nd = &m->node[stack[--top]];
        if (box_distance2(nd, p) > best) continue;
        if (nd->count == 0) {
            const double da = box_distance2(&m->node[nd->first], p), db = box_distance2(&m->node[nd->first + 1], p);
            const int near = da <= db ? nd->first : nd->first + 1;
            stack[top++] = near == nd->first ? nd->first + 1 : nd->first;
            stack[top++] = near;
            continue;
        }
        for (int i = nd->first; i < nd->first + nd->count; i++) {
            const int f = m->order[i];
            double c[3], d[3];
            const int r = g_closest_on_triangle(p, vertex(m, f, 0), vertex(m, f, 1), vertex(m, f, 2), c);
            g_sub(p, c, d);
            const double d2 = g_dot(d, d);
            if (d2 < best || (d2 == best && face < 0)) {
                best = d2;
                face = f;
                region = r;
                memcpy(q, c, sizeof c);
            }
        }
    }
    if (face < 0) return 0;
    const double *pn = pseudo_normal(m, face, region);
    double d[3];
    g_sub(p, q, d);
    const double dist = g_norm(d), side = g_dot(d, pn);
    if (dist > 1e-12 * (1 + g_norm(q))) {
        const double s = side < 0 ? -1 : 1;
        for (int c = 0; c < 3; c++) n[c] = s * d[c] / dist;
        *phi = s * dist;
    } else { /* on the surface: its pseudo-normal */
        memcpy(n, pn, 3 * sizeof *n);
        *phi = 0;
    }
    return 1;
}

/* Whether the segment p0 + s d, s in [0, *best), may meet the box (slabs). */
static int segment_hits_box(const hk_trimesh_node *nd, const double p0[3], const double d[3], double best)
{
    double t0 = 0, t1 = best;
    for (int c = 0; c < 3; c++) {
        if (d[c] == 0) {
            if (p0[c] < nd->lo[c] || p0[c] > nd->hi[c]) return 0;
            continue;
        }
        const double inv = 1 / d[c];
        double a = (nd->lo[c] - p0[c]) * inv, b = (nd->hi[c] - p0[c]) * inv;
        if (a > b) {
            const double t = a;
            a = b;
            b = t;
        }
        if (a > t0) t0 = a;
        if (b < t1) t1 = b;
        if (t0 > t1) return 0;
    }
    return 1;
}

double hk_trimesh_enters(const hk_trimesh *m, const double p0[3], const double p1[3], double n[3])
{
    double d[3], best = 2; /* past the segment's end: no entry yet */
    int face = -1;
    g_sub(p1, p0, d);
    int stack[HK_TRIMESH_STACK], top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const hk_trimesh_node *nd = &m->node[stack[--top]];
        if (!segment_hits_box(nd, p0, d, best < 1 ? best : 1)) continue;
        if (nd->count == 0) {
            stack[top++] = nd->first + 1;
            stack[top++] = nd->first;
            continue;
        }
        for (int i = nd->first; i < nd->first + nd->count; i++) {
            const int f = m->order[i];
            const double s = g_segment_enters_triangle(p0, p1, vertex(m, f, 0), vertex(m, f, 1), vertex(m, f, 2), 1e-9);
            if (s >= 0 && (s < best || (s == best && f < face))) {
                best = s;
                face = f;
            }
        }
    }
    if (face < 0) return -1;
    memcpy(n, m->fn + 3 * (size_t)face, 3 * sizeof *n);
    return best;
}
