/* obj_out.c — writes a world as a Wavefront OBJ file: per-frame files and the mesh of the Blender point cache. */
/* SPDX-License-Identifier: MIT */
#include "obj_out.h"

#include "frame_format.h"
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collider.h"
#include "world.h"

static int is_cloth(const hk_world *w, int b)
{
    return strcmp(w->bodies[b].kind, "cloth") == 0 && hk_geometry_body_has_surface(w, b);
}

/* The items of each body, grouped: idx[at[b] .. at[b+1]) are body b's, in
 * their order (a counting sort of body[0 .. n)). NULL when out of memory. */
static int64_t *group_by_body(const int32_t *body, int64_t n, int bodies, int64_t **at)
{
    int64_t *idx = malloc((size_t)(n + 1) * sizeof *idx);
    *at = calloc((size_t)bodies + 2, sizeof **at);
    if (!idx || !*at) {
        free(idx);
        free(*at);
        *at = NULL;
        return NULL;
    }
    int64_t *a = *at;
    for (int64_t i = 0; i < n; i++) a[body[i] + 2]++;
    for (int b = 0; b < bodies; b++) a[b + 2] += a[b + 1];
    for (int64_t i = 0; i < n; i++) idx[a[body[i] + 1]++] = i;
    return idx;
}

static int by_pair(const void *x, const void *y)
{
    const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

typedef struct obj_ctx {
    FILE *f;
    const hk_world *w;
    const hk_geometry *m;
    unsigned char *used; /* per particle: a face or edge uses it */
    int64_t *vt;         /* per body: index of its first vt (0-based), or -1 */
} obj_ctx;

static void faces(obj_ctx *c, int b, const int64_t *idx, int64_t from, int64_t to)
{
    const int32_t first = c->w->bodies[b].first;
    for (int64_t k = from; k < to; k++) {
        const int32_t *t = c->m->tri + 3 * idx[k];
        for (int i = 0; i < 3; i++) c->used[t[i]] = 1;
        if (c->vt[b] >= 0) {
            const int64_t u = c->vt[b] + 1 - first;
            fprintf(c->f, "f %d/%lld %d/%lld %d/%lld\n", t[0] + 1, (long long)(t[0] + u), t[1] + 1,
                    (long long)(t[1] + u), t[2] + 1, (long long)(t[2] + u));
        } else {
            fprintf(c->f, "f %d %d %d\n", t[0] + 1, t[1] + 1, t[2] + 1);
        }
    }
}

/* The unbroken springs idx[from .. to) as edges, each pair of particles once. */
static int edges(obj_ctx *c, const int64_t *idx, int64_t from, int64_t to)
{
    const int64_t n = to - from;
    int64_t *pair = malloc((size_t)(n + 1) * sizeof *pair);
    if (!pair) return -1;
    for (int64_t k = 0; k < n; k++) {
        const int64_t a = c->m->line[2 * idx[from + k]], b = c->m->line[2 * idx[from + k] + 1];
        pair[k] = a < b ? a << 32 | b : b << 32 | a;
    }
    qsort(pair, (size_t)n, sizeof *pair, by_pair);
    for (int64_t k = 0; k < n; k++) {
        if (k && pair[k] == pair[k - 1]) continue;
        const int64_t a = pair[k] >> 32, b = pair[k] & 0xffffffff;
        c->used[a] = c->used[b] = 1;
        fprintf(c->f, "l %lld %lld\n", (long long)a + 1, (long long)b + 1);
    }
    free(pair);
    return 0;
}

/* HK_OBJ_ONE_OBJECT: an edge for every particle that nothing uses yet. */
static int cover(obj_ctx *c)
{
    const hk_geometry *m = c->m;
    const int n = c->w->p.count;
    int64_t *spring = malloc((size_t)n * sizeof *spring + 1); /* per particle: one of its springs, or -1 */
    if (!spring) return -1;
    for (int i = 0; i < n; i++) spring[i] = -1;
    for (int64_t l = m->lines - 1; l >= 0; l--) spring[m->line[2 * l]] = spring[m->line[2 * l + 1]] = l;
    for (int i = 0; i < n; i++) {
        if (c->used[i]) continue;
        int a = i, b = i > 0 ? i - 1 : 1;
        if (spring[i] >= 0) {
            a = m->line[2 * spring[i]];
            b = m->line[2 * spring[i] + 1];
        } else if (n < 2) {
            break; /* a lone vertex: with no face or edge in the file, Blender keeps every vertex */
        }
        c->used[a] = c->used[b] = 1;
        fprintf(c->f, "l %d %d\n", a + 1, b + 1);
    }
    free(spring);
    return 0;
}

void hk_obj_write_uvs(FILE *f, const hk_world *w, int64_t *vt)
{
    int64_t at = 0;
    for (int b = 0; b < w->body_count; b++) {
        const hk_body *bd = &w->bodies[b];
        vt[b] = is_cloth(w, b) ? at : -1;
        if (vt[b] < 0) continue;
        for (int j = 0; j < bd->ny; j++)
            for (int i = 0; i < bd->nx; i++)
                fprintf(f, "vt %.9g %.9g\n", (double)i / (bd->nx - 1), (double)j / (bd->ny - 1));
        at += (int64_t)bd->nx * bd->ny;
    }
}

int hk_obj_write(FILE *f, const hk_world *w, const hk_geometry *m, hk_obj_layout layout)
{
    const hk_particles *p = &w->p;
    obj_ctx c = {f, w, m, calloc((size_t)p->count + 1, 1), malloc(((size_t)w->body_count + 1) * sizeof(int64_t))};
    int64_t *tri_at = NULL, *line_at = NULL;
    int64_t *tris = group_by_body(m->tri_body, m->tris, w->body_count, &tri_at);
    int64_t *lines = group_by_body(m->line_body, m->lines, w->body_count, &line_at);
    int rc = -1;
    if (!c.used || !c.vt || !tris || !lines) goto done;
    fprintf(f, "# hooke %s: step %lld, t = %.9g s, %d particles\n", HOOKE_VERSION, (long long)hk_world_step_count(w),
            hk_world_time(w), p->count);
    for (int i = 0; i < p->count; i++)
        fprintf(f, "v %.9g %.9g %.9g\n", m->pos[3 * i], m->pos[3 * i + 1], m->pos[3 * i + 2]);
    hk_obj_write_uvs(f, w, c.vt);
    if (layout == HK_OBJ_ONE_OBJECT) fprintf(f, "o hooke\n");
    for (int b = 0; b < w->body_count; b++) {
        if (layout == HK_OBJ_PER_BODY) fprintf(f, "o body%d_%s\n", b, w->bodies[b].kind);
        if (hk_geometry_body_has_surface(w, b))
            faces(&c, b, tris, tri_at[b], tri_at[b + 1]);
        else if (edges(&c, lines, line_at[b], line_at[b + 1]) != 0)
            goto done;
    }
    if (layout == HK_OBJ_ONE_OBJECT && cover(&c) != 0) goto done;
    rc = 0;
done:
    if (rc != 0) errno = ENOMEM;
    free(c.used);
    free(c.vt);
    free(tris);
    free(tri_at);
    free(lines);
    free(line_at);
    return rc;
}

int hk_obj_write_colliders(FILE *f, const hk_world *w, const hk_geometry *g, int64_t vertices)
{
    int64_t t = 0;
    for (int c = 0; c < hk_world_collider_count(w); c++) {
        hk_collider_def d;
        if (hk_world_collider(w, c, &d) != HK_OK) {
            errno = EINVAL;
            return -1;
        }
        fprintf(f, "o collider%d_%s\n", c, hk_collider_shape_name(d.shape));
        int64_t lo = INT64_MAX, hi = -1; /* its vertices: those of its triangles, a run in g */
        for (int64_t k = t; k < g->ctris && g->ctri_collider[k] == c; k++)
            for (int i = 0; i < 3; i++) {
                lo = g->ctri[3 * k + i] < lo ? g->ctri[3 * k + i] : lo;
                hi = g->ctri[3 * k + i] > hi ? g->ctri[3 * k + i] : hi;
            }
        for (int64_t v = lo; v <= hi; v++)
            fprintf(f, "v %.9g %.9g %.9g\n", g->cpos[3 * v], g->cpos[3 * v + 1], g->cpos[3 * v + 2]);
        for (; t < g->ctris && g->ctri_collider[t] == c; t++)
            fprintf(f, "f %lld %lld %lld\n", (long long)(vertices + g->ctri[3 * t] - lo + 1),
                    (long long)(vertices + g->ctri[3 * t + 1] - lo + 1),
                    (long long)(vertices + g->ctri[3 * t + 2] - lo + 1));
        if (hi >= lo) vertices += hi - lo + 1;
    }
    return ferror(f) ? -1 : 0;
}

int hk_obj_write_file(const char *path, const hk_world *w, const hk_geometry *m, hk_obj_layout layout)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    return hk_out_close(&o, hk_obj_write(f, w, m, layout) == 0);
}

static int write_obj(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    (void)s;
    return hk_obj_write_file(path, w, g, HK_OBJ_PER_BODY);
}

const hk_frame_format hk_frame_format_obj = {"obj", "obj", "Wavefront OBJ per frame, an object per body", write_obj};
