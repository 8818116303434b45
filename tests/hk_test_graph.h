/* hk_test_graph.h — spring graphs as edge lists (random, hubs, lattices, meshes, star) and sortable spring records. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_GRAPH_H
#define HK_TEST_GRAPH_H

#include "hk_test_forces.h"

/* ------------------------------------------------------------------------ */
/* Graphs as edge lists                                                      */

typedef struct graph {
    char name[64];
    int n;      /* particles */
    int m, cap; /* springs */
    int *a, *b;
} graph;

static inline void graph_init(graph *g, const char *name, int n)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->n = n;
}

static inline void graph_add(graph *g, int a, int b)
{
    assert_true(a >= 0 && a < g->n && b >= 0 && b < g->n && a != b);
    if (g->m == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->a = realloc(g->a, (size_t)g->cap * sizeof *g->a);
        g->b = realloc(g->b, (size_t)g->cap * sizeof *g->b);
        assert_non_null(g->a);
        assert_non_null(g->b);
    }
    g->a[g->m] = a;
    g->b[g->m] = b;
    g->m++;
}

static inline void graph_free(graph *g)
{
    free(g->a);
    free(g->b);
}

/* Random multigraph: m endpoint pairs drawn uniformly (a != b; repeated pairs
 * allowed, they are legal list springs and harder to colour). */
static inline void random_graph(graph *g, int n, int avg_degree, uint64_t seed)
{
    char name[64];
    snprintf(name, sizeof name, "random n=%d d=%d seed=%llu", n, avg_degree, (unsigned long long)seed);
    graph_init(g, name, n);
    hk_test_rng r = {seed * 7919u};
    const int m = n * avg_degree / 2;
    for (int s = 0; s < m; s++) {
        int a = hk_test_below(&r, n), b = hk_test_below(&r, n);
        if (a == b) b = (a + 1) % n;
        graph_add(g, a, b);
    }
}

/* A few hubs joined to many random particles: very uneven degrees. */
static inline void hub_graph(graph *g, int n, int hubs, int hub_degree, uint64_t seed)
{
    graph_init(g, "random hubs", n);
    hk_test_rng r = {seed};
    for (int h = 0; h < hubs; h++)
        for (int e = 0; e < hub_degree; e++) {
            int b = hubs + hk_test_below(&r, n - hubs);
            graph_add(g, h, b);
        }
    for (int s = 0; s < n; s++) { /* a sparse background */
        int a = hubs + hk_test_below(&r, n - hubs), b = hubs + hk_test_below(&r, n - hubs);
        if (a != b) graph_add(g, a, b);
    }
}

/* Cloth nx x ny: structural (1,0) (0,1), shear (1,1) (1,-1), bend (2,0) (0,2). */
static inline void cloth_graph(graph *g, int nx, int ny)
{
    graph_init(g, "cloth struct+shear+bend", nx * ny);
    static const int off[6][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}, {2, 0}, {0, 2}};
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            for (int o = 0; o < 6; o++) {
                int i2 = i + off[o][0], j2 = j + off[o][1];
                if (i2 >= 0 && i2 < nx && j2 >= 0 && j2 < ny) graph_add(g, i + nx * j, i2 + nx * j2);
            }
}

/* Jelly n^3 lattice: every node to its 26 neighbours (offsets in {-1,0,1}^3),
 * and with ring2 also to those offsets x 2 (52 neighbours). Each pair once:
 * only offsets pointing forward in memory. */
static inline void jelly_graph(graph *g, int n, int ring2)
{
    graph_init(g, ring2 ? "jelly 52-neighbour" : "jelly 26-neighbour", n * n * n);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                for (int ring = 1; ring <= (ring2 ? 2 : 1); ring++)
                    for (int dk = -1; dk <= 1; dk++)
                        for (int dj = -1; dj <= 1; dj++)
                            for (int di = -1; di <= 1; di++) {
                                if (!(dk > 0 || (dk == 0 && (dj > 0 || (dj == 0 && di > 0))))) continue;
                                int i2 = i + ring * di, j2 = j + ring * dj, k2 = k + ring * dk;
                                if (i2 < 0 || i2 >= n || j2 < 0 || j2 >= n || k2 < 0 || k2 >= n) continue;
                                graph_add(g, i + n * (j + n * k), i2 + n * (j2 + n * k2));
                            }
}

/* Triangle mesh of a torus, nu x nv quads each split by one diagonal: every
 * vertex has degree 6. */
static inline void torus_graph(graph *g, int nu, int nv)
{
    graph_init(g, "torus triangle mesh", nu * nv);
    for (int v = 0; v < nv; v++)
        for (int u = 0; u < nu; u++) {
            int p = u + nu * v;
            graph_add(g, p, (u + 1) % nu + nu * v);
            graph_add(g, p, u + nu * ((v + 1) % nv));
            graph_add(g, p, (u + 1) % nu + nu * ((v + 1) % nv));
        }
}

/* Complete graph K_n (the all_to_all rope). */
static inline void complete_graph(graph *g, int n)
{
    graph_init(g, "complete (all_to_all)", n);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) graph_add(g, a, b);
}

/* A star with more leaves than HK_MAX_COLOURS: forces the overflow colour. */
static inline void star_graph(graph *g, int leaves)
{
    graph_init(g, "star (overflow)", leaves + 1);
    for (int l = 1; l <= leaves; l++) graph_add(g, 0, l);
    for (int l = 1; l < leaves; l += 2) graph_add(g, l, l + 1); /* a rim, so other colours have company */
}

/* One spring as a sortable record. */
typedef struct spring_rec {
    int lo, hi;
    hk_real rest;
    int broken;
} spring_rec;

static inline int rec_cmp(const void *pa, const void *pb)
{
    const spring_rec *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    if (a->rest != b->rest) return a->rest < b->rest ? -1 : 1;
    return a->broken - b->broken;
}

#endif
