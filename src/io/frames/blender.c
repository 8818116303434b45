/* blender.c — the blender frame format: the first frame's mesh as one OBJ (and an object per collider), every frame's
 * positions in a PC2 point cache; split into a vertex set per triangle and edge where springs can break. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_format.h"
#include "kept_rows.h"
#include "obj_out.h"
#include "outfile.h"
#include "pc2.h"
#include "world.h"

/* Where springs can break, triangles and edges go during the run, and Blender's Mesh Cache keeps the first
 * frame's faces. Then every triangle and every edge of a body without surface has vertices of its own (the split
 * layout), and in a frame where it is gone its vertices meet at its centre: a face or edge of no size, which
 * draws nothing. The first frame's cells are remembered as particle indices, and written into frames.obj as
 * "#t a b c" and "#e a b" comment lines so that a restart finds them again. */
typedef struct split_cells {
    int64_t tris, edges;
    int32_t *tri;  /* 3 particles per triangle */
    int32_t *edge; /* 2 per edge */
} split_cells;

typedef struct blender_series {
    hk_pc2 pc2;
    FILE *index;    /* frames_pc2.csv, open for appending */
    float *xyz;     /* one sample */
    int32_t points; /* vertices of the cache: particles, or the split layout's */
    int split;      /* the split layout */
    split_cells cells;
    unsigned char *surface; /* per body: it has triangles (its springs are not edges) */
    char obj[4200], cache[4200], csv[4200];
} blender_series;

static void series_free(void *state)
{
    blender_series *b = state;
    if (!b) return;
    hk_pc2_close(&b->pc2);
    if (b->index) fclose(b->index);
    free(b->xyz);
    free(b->cells.tri);
    free(b->cells.edge);
    free(b->surface);
    free(b);
}

static const char index_header[] = "sample,step,time\n";

/* A row of DIR/frames_pc2.csv (kept_rows.h): "sample,step,time", sample n. */
static int pc2_row(const char *line, int64_t n, int64_t *step, void *ctx)
{
    (void)ctx;
    long long sample, s;
    double t;
    char end;
    if (sscanf(line, "%lld,%lld,%lg%c", &sample, &s, &t, &end) != 4 || end != '\n' || sample != n) return -1;
    *step = s;
    return 0;
}

/* Writes the index with its header, rows (text, may be NULL) and the row of
 * `sample`, whole; then opens it for appending. */
static int start_index(blender_series *b, const char *rows, int32_t sample, const hk_world *w)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, b->csv, "w");
    if (!f) return -1;
    fprintf(f, "%s%s%" PRId32 ",%lld,%.17g\n", index_header, rows ? rows : "", sample,
            (long long)hk_world_step_count(w), hk_world_time(w));
    b->index = hk_out_keep(&o);
    return b->index ? 0 : -1;
}

static int can_break(const hk_world *w)
{
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].broken) return 1;
    return 0;
}

/* The first frame's cells from its geometry: every triangle, and the lines of bodies without surface. */
static int cells_from(blender_series *b, const hk_geometry *g)
{
    split_cells *c = &b->cells;
    c->tris = g->tris;
    c->edges = 0;
    for (int64_t l = 0; l < g->lines; l++) c->edges += !b->surface[g->line_body[l]];
    c->tri = malloc((size_t)(3 * c->tris + 1) * sizeof *c->tri);
    c->edge = malloc((size_t)(2 * c->edges + 1) * sizeof *c->edge);
    if (!c->tri || !c->edge) return -1;
    memcpy(c->tri, g->tri, (size_t)(3 * c->tris) * sizeof *c->tri);
    int64_t e = 0;
    for (int64_t l = 0; l < g->lines; l++)
        if (!b->surface[g->line_body[l]]) {
            c->edge[2 * e] = g->line[2 * l];
            c->edge[2 * e + 1] = g->line[2 * l + 1];
            e++;
        }
    return 0;
}

/* The cells from the "#t" and "#e" lines of an earlier run's frames.obj; 0, or -1 if it holds none or they do not
 * name particles of this world. */
static int cells_read(blender_series *b, int particles)
{
    FILE *f = fopen(b->obj, "r");
    if (!f) return -1;
    split_cells *c = &b->cells;
    int64_t cap[2] = {0, 0}, n[2] = {0, 0};
    int32_t **list[2] = {&c->tri, &c->edge};
    char line[256];
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        const int k = strncmp(line, "#t ", 3) == 0 ? 0 : strncmp(line, "#e ", 3) == 0 ? 1 : -1;
        if (k < 0) continue;
        long v[3];
        const int want = k ? 2 : 3;
        if (sscanf(line + 3, "%ld %ld %ld", &v[0], &v[1], &v[2]) < want) rc = -1;
        if (n[k] == cap[k]) {
            cap[k] = cap[k] ? 2 * cap[k] : 1024;
            int32_t *grown = realloc(*list[k], (size_t)(want * cap[k]) * sizeof **list[k]);
            if (grown)
                *list[k] = grown;
            else
                rc = -1;
        }
        for (int i = 0; i < want && rc == 0; i++) {
            if (v[i] < 0 || v[i] >= particles)
                rc = -1;
            else
                (*list[k])[want * n[k] + i] = (int32_t)v[i];
        }
        n[k]++;
    }
    fclose(f);
    c->tris = n[0];
    c->edges = n[1];
    return rc == 0 && n[0] + n[1] > 0 ? 0 : -1;
}

/* The split layout's OBJ: the "#t"/"#e" lines, a vertex per triangle corner and per edge end, the cloth UVs, then
 * the faces and edges on their own vertices. 0, or -1 with errno set. */
static int split_obj(const blender_series *b, const hk_world *w, const hk_geometry *g)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, b->obj, "w");
    if (!f) return -1;
    const split_cells *c = &b->cells;
    int64_t *vt = malloc(((size_t)w->body_count + 1) * sizeof *vt);
    int32_t *body = malloc(((size_t)w->p.count + 1) * sizeof *body);
    if (!vt || !body) {
        free(vt);
        free(body);
        errno = ENOMEM;
        return hk_out_close(&o, 0);
    }
    for (int k = 0; k < w->body_count; k++)
        for (int i = 0; i < w->bodies[k].count; i++) body[w->bodies[k].first + i] = k;
    fprintf(f,
            "# hooke %s: step %lld, t = %.9g s; split: %lld triangles and %lld edges, each on vertices of its own "
            "(one gone from a frame has them all at its centre in frames.pc2)\n",
            HOOKE_VERSION, (long long)hk_world_step_count(w), hk_world_time(w), (long long)c->tris,
            (long long)c->edges);
    for (int64_t t = 0; t < c->tris; t++)
        fprintf(f, "#t %d %d %d\n", c->tri[3 * t], c->tri[3 * t + 1], c->tri[3 * t + 2]);
    for (int64_t e = 0; e < c->edges; e++) fprintf(f, "#e %d %d\n", c->edge[2 * e], c->edge[2 * e + 1]);
    for (int64_t i = 0; i < 3 * c->tris + 2 * c->edges; i++) {
        const int32_t p = i < 3 * c->tris ? c->tri[i] : c->edge[i - 3 * c->tris];
        fprintf(f, "v %.9g %.9g %.9g\n", g->pos[3 * p], g->pos[3 * p + 1], g->pos[3 * p + 2]);
    }
    hk_obj_write_uvs(f, w, vt);
    fprintf(f, "o hooke\n");
    for (int64_t t = 0; t < c->tris; t++) {
        const int32_t *q = c->tri + 3 * t;
        const int bd = body[q[0]];
        if (vt[bd] >= 0) {
            const int64_t u = vt[bd] + 1 - w->bodies[bd].first;
            fprintf(f, "f %lld/%lld %lld/%lld %lld/%lld\n", (long long)(3 * t + 1), (long long)(q[0] + u),
                    (long long)(3 * t + 2), (long long)(q[1] + u), (long long)(3 * t + 3), (long long)(q[2] + u));
        } else {
            fprintf(f, "f %lld %lld %lld\n", (long long)(3 * t + 1), (long long)(3 * t + 2), (long long)(3 * t + 3));
        }
    }
    for (int64_t e = 0; e < c->edges; e++)
        fprintf(f, "l %lld %lld\n", (long long)(3 * c->tris + 2 * e + 1), (long long)(3 * c->tris + 2 * e + 2));
    free(vt);
    free(body);
    return hk_out_close(&o, hk_obj_write_colliders(f, w, g, 3 * c->tris + 2 * c->edges) == 0);
}

/* The OBJ of one object "hooke" on the particles (obj_out.h), then an object per collider. 0, or -1. */
static int whole_obj(const blender_series *b, const hk_world *w, const hk_geometry *g)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, b->obj, "w");
    if (!f) return -1;
    return hk_out_close(&o, hk_obj_write(f, w, g, HK_OBJ_ONE_OBJECT) == 0 &&
                                hk_obj_write_colliders(f, w, g, w->p.count) == 0);
}

/* One sample of the split layout into b->xyz: each first-frame cell that the frame still has (the frame's cells
 * are those of the first frame with some left out, in the same order) at its particles, each one gone at its
 * centre. 0, or -1 (EINVAL) if the frame has a cell that the first did not. */
static int split_sample(blender_series *b, const hk_geometry *g)
{
    const split_cells *c = &b->cells;
    float *out = b->xyz;
    int64_t j = 0;
    for (int64_t t = 0; t < c->tris; t++) {
        const int32_t *q = c->tri + 3 * t;
        const int here = j < g->tris && memcmp(g->tri + 3 * j, q, 3 * sizeof *q) == 0;
        j += here;
        for (int k = 0; k < 3; k++)
            for (int d = 0; d < 3; d++)
                *out++ = (float)(here ? g->pos[3 * q[k] + d]
                                      : (g->pos[3 * q[0] + d] + g->pos[3 * q[1] + d] + g->pos[3 * q[2] + d]) / 3);
    }
    int64_t l = 0;
    for (int64_t e = 0; e < c->edges; e++) {
        const int32_t *q = c->edge + 2 * e;
        while (l < g->lines && b->surface[g->line_body[l]]) l++;
        const int here = l < g->lines && memcmp(g->line + 2 * l, q, 2 * sizeof *q) == 0;
        l += here;
        for (int k = 0; k < 2; k++)
            for (int d = 0; d < 3; d++)
                *out++ = (float)(here ? g->pos[3 * q[k] + d] : (g->pos[3 * q[0] + d] + g->pos[3 * q[1] + d]) / 2);
    }
    while (l < g->lines && b->surface[g->line_body[l]]) l++;
    if (j != g->tris || l != g->lines) {
        errno = EINVAL; /* topology only ever loses cells */
        return -1;
    }
    return 0;
}

/* The sample of this frame into b->xyz. */
static int sample(blender_series *b, const hk_world *w, const hk_geometry *g)
{
    if (b->split) return split_sample(b, g);
    for (size_t i = 0; i < 3 * (size_t)w->p.count; i++) b->xyz[i] = (float)g->pos[i]; /* PC2 holds floats */
    return 0;
}

/* The split layout's cells (from this frame, or from an earlier run's OBJ when `resume`) and the sample buffer. */
static int prepare(blender_series *b, const hk_world *w, const hk_geometry *g, int resume)
{
    if (b->split) {
        if (resume ? cells_read(b, w->p.count) : cells_from(b, g)) return -1;
        const int64_t v = 3 * b->cells.tris + 2 * b->cells.edges;
        if (v > INT32_MAX / 3) {
            errno = EOVERFLOW;
            return -1;
        }
        b->points = (int32_t)v;
    } else {
        b->points = w->p.count;
    }
    free(b->xyz);
    b->xyz = malloc(3 * (size_t)b->points * sizeof *b->xyz + 1);
    if (!b->xyz) errno = ENOMEM;
    return b->xyz ? sample(b, w, g) : -1;
}

/* The first frame of this process: continues the files of the run before
 * (a restart: the run's first step > 0, its OBJ, cache and index in DIR
 * agree; the samples before that step kept), else starts them. */
static int first_frame(blender_series *b, int64_t first, const hk_world *w, const hk_geometry *g, const char **failed)
{
    char *rows = NULL;
    const int32_t keep = first > 0 ? (int32_t)hk_kept_rows(b->csv, index_header, first, pc2_row, NULL, &rows) : 0;
    FILE *obj = keep > 0 && hk_out_kind(b->obj) == 0 ? fopen(b->obj, "r") : NULL; /* not a FIFO written through */
    const int have_obj = obj != NULL;
    if (obj) fclose(obj);
    *failed = b->obj;
    if (have_obj && prepare(b, w, g, 1) == 0 && hk_pc2_open(&b->pc2, b->cache, b->points, keep) == 0) {
        *failed = b->cache;
        if (hk_pc2_append(&b->pc2, b->xyz) != 0) {
            free(rows);
            return -1;
        }
        *failed = b->csv;
        const int rc = start_index(b, rows, keep, w);
        free(rows);
        return rc;
    }
    free(rows);
    free(b->cells.tri);
    free(b->cells.edge);
    memset(&b->cells, 0, sizeof b->cells);
    *failed = b->obj;
    if (prepare(b, w, g, 0) != 0) return -1;
    if ((b->split ? split_obj(b, w, g) : whole_obj(b, w, g)) != 0) return -1;
    *failed = b->cache;
    if (hk_pc2_create(&b->pc2, b->cache, b->points, b->xyz) != 0) return -1;
    *failed = b->csv;
    return start_index(b, NULL, 0, w);
}

static int write_blender(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    (void)path; /* a series format: its files are named here */
    blender_series *b = s->state;
    if (!b) {
        if (!(b = calloc(1, sizeof *b))) return -1;
        b->pc2.fd = -1;
        s->state = b;
        s->free_state = series_free;
        snprintf(b->obj, sizeof b->obj, "%s/frames.obj", s->dir);
        snprintf(b->cache, sizeof b->cache, "%s/frames.pc2", s->dir);
        snprintf(b->csv, sizeof b->csv, "%s/frames_pc2.csv", s->dir);
        b->split = can_break(w);
        if (!(b->surface = calloc((size_t)w->body_count + 1, 1))) return -1;
        for (int k = 0; k < w->body_count; k++) b->surface[k] = (unsigned char)hk_geometry_body_has_surface(w, k);
    }
    if (!b->index) {
        if (first_frame(b, s->first, w, g, &s->failed) != 0) return -1;
        s->failed = NULL;
        return 0;
    }
    s->failed = b->cache;
    if (sample(b, w, g) != 0 || hk_pc2_append(&b->pc2, b->xyz) != 0) return -1;
    s->failed = b->csv;
    fprintf(b->index, "%" PRId32 ",%lld,%.17g\n", b->pc2.samples - 1, (long long)hk_world_step_count(w),
            hk_world_time(w));
    if (fflush(b->index) != 0 || ferror(b->index)) return -1;
    s->failed = NULL;
    return 0;
}

const hk_frame_format hk_frame_format_blender = {
    "blender", NULL,
    "Blender: frames.obj (and an object per collider) and frames.pc2 (Mesh Cache modifier; split where springs "
    "can break)",
    write_blender};
