/* facing.c — which way the triangles of a body's closed surface face: each turned outward, for back-face culling. */
/* SPDX-License-Identifier: MIT */
#include "facing.h"

#include <stdlib.h>

/* A triangle's edge: its corners' indices, the lower first; the triangle, and whether it runs low to high. */
typedef struct edge {
    int32_t lo, hi;
    int32_t tri; /* the triangle's index within its body's run */
    int32_t up;  /* 1: the triangle goes lo -> hi along it */
} edge;

static int edge_cmp(const void *a, const void *b)
{
    const edge *p = a, *q = b;
    if (p->lo != q->lo) return p->lo < q->lo ? -1 : 1;
    if (p->hi != q->hi) return p->hi < q->hi ? -1 : 1;
    return (p->tri > q->tri) - (p->tri < q->tri);
}

/* Six times the signed volume of the tetrahedron of the origin and triangle (a, b, c), about the centre o. */
static double volume6(const double *pos, const double o[3], const int32_t *v, int flip)
{
    double a[3], b[3], c[3];
    for (int k = 0; k < 3; k++) {
        a[k] = pos[3 * (size_t)v[0] + k] - o[k];
        b[k] = pos[3 * (size_t)v[flip ? 2 : 1] + k] - o[k];
        c[k] = pos[3 * (size_t)v[flip ? 1 : 2] + k] - o[k];
    }
    return a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) + a[2] * (b[0] * c[1] - b[1] * c[0]);
}

/* The n triangles tri (3 corners each) of one body into out (+1, -1, or 0 for all when the surface is not closed
 * and orientable). e: room for 3n edges, adj: 3n, stack: n, comp: n. */
static void orient_body(const double *pos, const int32_t *tri, int64_t n, signed char *out, edge *e, int64_t *adj,
                        int64_t *stack, int64_t *comp)
{
    for (int64_t t = 0; t < n; t++) {
        out[t] = 0;
        comp[t] = -1;
        for (int k = 0; k < 3; k++) {
            const int32_t a = tri[3 * t + k], b = tri[3 * t + (k + 1) % 3];
            e[3 * t + k] = (edge){a < b ? a : b, a < b ? b : a, (int32_t)t, a < b};
        }
    }
    qsort(e, (size_t)(3 * n), sizeof *e, edge_cmp);
    /* closed: every edge is shared by exactly two triangles; adj[3t + k]: the neighbour over t's k-th edge found,
     * with 2 * neighbour + (1 when both run the edge the same way: one of them is turned) */
    int64_t *seen = stack; /* how many of t's edges are listed so far */
    for (int64_t t = 0; t < n; t++) seen[t] = 0;
    for (int64_t i = 0; i < 3 * n; i += 2) {
        if (i + 1 >= 3 * n || e[i].lo != e[i + 1].lo || e[i].hi != e[i + 1].hi ||
            (i + 2 < 3 * n && e[i + 2].lo == e[i].lo && e[i + 2].hi == e[i].hi) || e[i].lo == e[i].hi)
            return;
        const int64_t p = e[i].tri, q = e[i + 1].tri, same = e[i].up == e[i + 1].up;
        adj[3 * p + seen[p]++] = 2 * q + same;
        adj[3 * q + seen[q]++] = 2 * p + same;
    }
    /* each connected piece turned one way (out[t] = +1 kept, -1 turned), then outward by its signed volume */
    for (int64_t s = 0; s < n; s++) {
        if (comp[s] >= 0) continue;
        int64_t top = 0, first = s;
        comp[s] = s;
        out[s] = 1;
        stack[top++] = s;
        double o[3] = {0, 0, 0}, vol = 0;
        for (int k = 0; k < 3; k++) o[k] = pos[3 * (size_t)tri[3 * s] + k];
        while (top > 0) {
            const int64_t t = stack[--top];
            vol += volume6(pos, o, tri + 3 * t, out[t] < 0);
            for (int k = 0; k < 3; k++) {
                const int64_t q = adj[3 * t + k] / 2;
                const signed char want = (signed char)(adj[3 * t + k] % 2 ? -out[t] : out[t]);
                if (comp[q] < 0) {
                    comp[q] = s;
                    out[q] = want;
                    stack[top++] = q;
                } else if (out[q] != want) { /* not orientable: nothing of this body is culled */
                    for (int64_t u = 0; u < n; u++) out[u] = 0;
                    return;
                }
            }
        }
        if (!(vol != 0)) { /* flat or not finite: this piece is never culled */
            for (int64_t u = first; u < n; u++)
                if (comp[u] == s) out[u] = 0;
        } else if (vol < 0) {
            for (int64_t u = first; u < n; u++)
                if (comp[u] == s) out[u] = (signed char)-out[u];
        }
    }
}

int hk_facing_outward(const hk_geometry *g, signed char *out)
{
    int64_t most = 0;
    for (int64_t t0 = 0, t1; t0 < g->tris; t0 = t1) {
        for (t1 = t0 + 1; t1 < g->tris && g->tri_body[t1] == g->tri_body[t0];) t1++;
        if (t1 - t0 > most) most = t1 - t0;
    }
    edge *e = malloc((size_t)(3 * most + 1) * sizeof *e);
    int64_t *adj = malloc((size_t)(3 * most + 1) * sizeof *adj);
    int64_t *stack = malloc((size_t)(most + 1) * sizeof *stack);
    int64_t *comp = malloc((size_t)(most + 1) * sizeof *comp);
    const int ok = e && adj && stack && comp;
    for (int64_t t0 = 0, t1; ok && t0 < g->tris; t0 = t1) {
        for (t1 = t0 + 1; t1 < g->tris && g->tri_body[t1] == g->tri_body[t0];) t1++;
        orient_body(g->pos, g->tri + 3 * t0, t1 - t0, out + t0, e, adj, stack, comp);
    }
    free(e);
    free(adj);
    free(stack);
    free(comp);
    return ok ? 0 : -1;
}
