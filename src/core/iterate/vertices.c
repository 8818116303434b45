/* vertices.c — each particle's springs in one table, and the particles coloured so that no two neighbours share one. */
/* SPDX-License-Identifier: MIT */
#include "vertices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "constraints.h"

/* The counting pass (degrees into start[i + 1]) and the filling pass (next[i] the next free entry of i). */
typedef struct graph_pass {
    hk_vertex_graph *g;
    int *next; /* NULL: counting */
} graph_pass;

static void graph_one(void *ctx, int fam, int64_t slot, int a, int b)
{
    graph_pass *s = ctx;
    hk_vertex_graph *g = s->g;
    if (!s->next) {
        g->start[a + 1]++;
        g->start[b + 1]++;
        return;
    }
    const int ends[2] = {a, b};
    for (int e = 0; e < 2; e++) {
        const int at = s->next[ends[e]]++;
        g->other[at] = ends[1 - e];
        g->fam[at] = fam;
        g->slot[at] = slot;
        g->is_b[at] = (uint8_t)e;
    }
}

static void graph_free(hk_vertex_graph *g)
{
    if (!g) return;
    free(g->start);
    free(g->other);
    free(g->fam);
    free(g->slot);
    free(g->is_b);
    free(g->colour_start);
    free(g->order);
    free(g);
}

void hk_vertex_graph_release(hk_world *w)
{
    graph_free(w->vertex_graph);
    w->vertex_graph = NULL;
}

/* Colours every particle (in index order, the lowest colour none of its coloured neighbours has) and lists them
 * colour by colour. 0 or -1 (out of memory). */
static int colour(hk_vertex_graph *g, int n)
{
    int *col = malloc((size_t)(n > 0 ? n : 1) * sizeof *col);
    int count[HK_VERTEX_COLOURS + 1] = {0};
    g->colour_start = calloc(HK_VERTEX_COLOURS + 2, sizeof *g->colour_start);
    g->order = malloc((size_t)(n > 0 ? n : 1) * sizeof *g->order);
    if (!col || !g->colour_start || !g->order) {
        free(col);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t used[HK_VERTEX_COLOURS / 64] = {0};
        for (int e = g->start[i]; e < g->start[i + 1]; e++) {
            const int j = g->other[e];
            if (j < i && col[j] < HK_VERTEX_COLOURS) used[col[j] / 64] |= 1ull << (col[j] % 64);
        }
        int c = HK_VERTEX_COLOURS; /* the serial colour */
        for (int k = 0; k < HK_VERTEX_COLOURS / 64; k++)
            if (~used[k]) {
                c = 64 * k + __builtin_ctzll(~used[k]);
                break;
            }
        col[i] = c;
        count[c]++;
    }
    int next[HK_VERTEX_COLOURS + 1], colours = 0;
    for (int c = 0; c <= HK_VERTEX_COLOURS; c++) {
        if (!count[c]) continue;
        next[c] = g->colour_start[colours];
        g->colour_start[++colours] = next[c] + count[c];
        g->serial = c == HK_VERTEX_COLOURS;
    }
    for (int i = 0; i < n; i++) g->order[next[col[i]]++] = i;
    g->colours = colours;
    free(col);
    return 0;
}

static hk_vertex_graph *build(hk_world *w)
{
    const int n = w->p.count;
    const int64_t springs = hk_world_facts(w)->springs, entries = 2 * springs;
    hk_vertex_graph *g = calloc(1, sizeof *g);
    int *next = NULL;
    if (g) {
        g->start = calloc((size_t)n + 1, sizeof *g->start);
        g->other = malloc((size_t)(entries > 0 ? entries : 1) * sizeof *g->other);
        g->fam = malloc((size_t)(entries > 0 ? entries : 1) * sizeof *g->fam);
        g->slot = malloc((size_t)(entries > 0 ? entries : 1) * sizeof *g->slot);
        g->is_b = malloc((size_t)(entries > 0 ? entries : 1));
        next = malloc((size_t)(n > 0 ? n : 1) * sizeof *next);
    }
    int failed = !g || !g->start || !g->other || !g->fam || !g->slot || !g->is_b || !next || entries > INT32_MAX;
    if (!failed) {
        graph_pass s = {g, NULL};
        hk_each_spring(w, graph_one, &s);
        for (int i = 0; i < n; i++) g->start[i + 1] += g->start[i];
        HK_ASSERT(g->start[n] == entries);
        memcpy(next, g->start, (size_t)n * sizeof *next);
        s.next = next;
        hk_each_spring(w, graph_one, &s);
        failed = colour(g, n) != 0;
    }
    free(next);
    if (failed) {
        graph_free(g);
        hk_fail_memory(w, "out of memory for the springs of %d particles", n);
        return NULL;
    }
    g->bodies = w->body_count;
    g->families = w->family_count;
    g->particles = n;
    g->coloured = w->coloured;
    g->springs = springs;
    return g;
}

hk_vertex_graph *hk_vertex_graph_of(hk_world *w)
{
    hk_vertex_graph *g = w->vertex_graph;
    if (g && g->bodies == w->body_count && g->families == w->family_count && g->particles == w->p.count &&
        g->coloured == w->coloured && g->springs == hk_world_facts(w)->springs)
        return g;
    hk_vertex_graph_release(w);
    return w->vertex_graph = build(w);
}

int hk_vertex_graph_check(const hk_world *w, const hk_vertex_graph *g, char *why, size_t len)
{
    const int n = w->p.count;
    int *col = malloc((size_t)(n > 0 ? n : 1) * sizeof *col);
    if (!col) return snprintf(why, len, "out of memory"), -1;
    for (int i = 0; i < n; i++) col[i] = -1;
    int bad = g->colour_start[g->colours] != n;
    if (bad) snprintf(why, len, "the colours hold %d particles of %d", g->colour_start[g->colours], n);
    for (int k = 0; k < g->colours && !bad; k++)
        for (int at = g->colour_start[k]; at < g->colour_start[k + 1] && !bad; at++) {
            const int i = g->order[at];
            if (i < 0 || i >= n || col[i] >= 0) {
                snprintf(why, len, "particle %d listed twice or out of range", i);
                bad = 1;
            } else
                col[i] = k;
        }
    const int last = g->serial ? g->colours - 1 : -1;
    for (int i = 0; i < n && !bad; i++)
        for (int e = g->start[i]; e < g->start[i + 1] && !bad; e++)
            if (col[g->other[e]] == col[i] && col[i] != last) {
                snprintf(why, len, "particles %d and %d share a spring and colour %d", i, g->other[e], col[i]);
                bad = 1;
            }
    if (!bad && g->start[n] != 2 * g->springs) {
        snprintf(why, len, "%d entries for %lld springs", g->start[n], (long long)g->springs);
        bad = 1;
    }
    free(col);
    return bad ? -1 : 0;
}
