/* pieces.c — the colliders' faces of a picture, and the pieces cut from their triangles where something drawn over
 * the same pixels lies behind their plane or another collider shares them: a grid of screen cells and halving. */
/* SPDX-License-Identifier: MIT */
#include "pieces.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

#define CELL 8.0        /* a cell's side [px] */
#define MAX_HALVINGS 12 /* a triangle in at most 2^12 pieces */

/* The screen in cells: the covers that each meets, and which collider's triangles meet it. */
typedef struct grid {
    int w, h;
    int64_t *at;    /* cell k's covers: list[at[k] .. at[k + 1]) */
    int64_t *list;  /* cover indices */
    int32_t *owner; /* per cell: the collider whose front triangles meet it, -1 none, -2 several */
    int64_t *last;  /* per cell: the last triangle that marked it */
} grid;

static void grid_free(grid *gr)
{
    free(gr->at);
    free(gr->list);
    free(gr->owner);
    free(gr->last);
}

/* The cells c[0]..c[2] across, c[1]..c[3] down that the screen box meets, clipped to the grid; 0 when it misses
 * it (or is not a number). */
static int cells_of(const grid *gr, const double box[4], int c[4])
{
    if (!(box[2] >= 0 && box[3] >= 0 && box[0] < gr->w * CELL && box[1] < gr->h * CELL)) return 0;
    c[0] = box[0] <= 0 ? 0 : (int)(box[0] / CELL);
    c[1] = box[1] <= 0 ? 0 : (int)(box[1] / CELL);
    c[2] = box[2] >= (gr->w - 1) * CELL ? gr->w - 1 : (int)(box[2] / CELL);
    c[3] = box[3] >= (gr->h - 1) * CELL ? gr->h - 1 : (int)(box[3] / CELL);
    return 1;
}

/* The covers into the grid's cells (a counting sort); 0, or -1 when out of memory. */
static int grid_make(grid *gr, int width, int height, const hk_cover *cover, int64_t n)
{
    memset(gr, 0, sizeof *gr);
    gr->w = (int)ceil(width / CELL);
    gr->h = (int)ceil(height / CELL);
    const size_t cells = (size_t)gr->w * (size_t)gr->h;
    gr->at = calloc(cells + 2, sizeof *gr->at);
    gr->owner = malloc((cells + 1) * sizeof *gr->owner);
    gr->last = malloc((cells + 1) * sizeof *gr->last);
    if (!gr->at || !gr->owner || !gr->last) return -1;
    for (size_t k = 0; k < cells; k++) gr->owner[k] = -1;
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t i = 0; i < n; i++) {
            int c[4];
            if (!cells_of(gr, cover[i].box, c)) continue;
            for (int y = c[1]; y <= c[3]; y++)
                for (int x = c[0]; x <= c[2]; x++) {
                    const size_t k = (size_t)y * (size_t)gr->w + (size_t)x;
                    if (pass == 0)
                        gr->at[k + 2]++;
                    else
                        gr->list[gr->at[k + 1]++] = i;
                }
        }
        if (pass == 0) {
            for (size_t k = 0; k < cells; k++) gr->at[k + 2] += gr->at[k + 1];
            if (!(gr->list = malloc((size_t)gr->at[cells + 1] * sizeof *gr->list + 1))) return -1;
        }
    }
    return 0;
}

/* 0 if the screen triangle s (3 x, y [px]) lies wholly on the far side of the line of one of its edges from the
 * rectangle x0..x1, y0..y1, else 1: a cell that may meet the triangle (a flat one meets its whole box). */
static int meets(const double s[3][2], double x0, double y0, double x1, double y1)
{
    const double area = (s[1][0] - s[0][0]) * (s[2][1] - s[0][1]) - (s[1][1] - s[0][1]) * (s[2][0] - s[0][0]);
    if (!(fabs(area) > 1e-9)) return 1;
    const double sign = area > 0 ? 1 : -1, cx[4] = {x0, x1, x1, x0}, cy[4] = {y0, y0, y1, y1};
    for (int e = 0; e < 3; e++) {
        const double *a = s[e], *b = s[(e + 1) % 3];
        int outside = 1;
        for (int k = 0; k < 4 && outside; k++)
            outside = sign * ((b[0] - a[0]) * (cy[k] - a[1]) - (b[1] - a[1]) * (cx[k] - a[0])) < 0;
        if (outside) return 0;
    }
    return 1;
}

static void box_of(const double s[3][2], double box[4])
{
    box[0] = fmin(s[0][0], fmin(s[1][0], s[2][0]));
    box[1] = fmin(s[0][1], fmin(s[1][1], s[2][1]));
    box[2] = fmax(s[0][0], fmax(s[1][0], s[2][0]));
    box[3] = fmax(s[0][1], fmax(s[1][1], s[2][1]));
}

/* Marks the cells that collider c's screen triangle s (triangle t) may meet: c where none was, -2 where another
 * collider's was, or another triangle of a collider that is not convex (a mesh may cover itself). */
static void mark_collider(grid *gr, const double s[3][2], int32_t c, int64_t t, int convex)
{
    double box[4];
    int r[4];
    box_of(s, box);
    if (!cells_of(gr, box, r)) return;
    for (int y = r[1]; y <= r[3]; y++)
        for (int x = r[0]; x <= r[2]; x++) {
            if (!meets(s, x * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL)) continue;
            const size_t k = (size_t)y * (size_t)gr->w + (size_t)x;
            if (gr->owner[k] == -1)
                gr->owner[k] = c;
            else if (gr->owner[k] != c || (!convex && gr->last[k] != t))
                gr->owner[k] = -2;
            gr->last[k] = t;
        }
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* 1 if cover k lies behind the plane n.x = d (n: the outward normal), at least partly. */
static int behind(const hk_world *w, const hk_geometry *g, const hk_cover *k, const double n[3], double d)
{
    const double tol = 1e-9 * (1 + fabs(d));
    if (k->kind == HK_COVER_SPHERE) {
        const hk_sphere_def *s = &w->spheres[k->index];
        const double x[3] = {s->center.x, s->center.y, s->center.z};
        return dot3(n, x) - d - s->radius < -tol;
    }
    const int32_t *idx = k->kind == HK_COVER_TRI    ? g->tri + 3 * (size_t)k->index
                         : k->kind == HK_COVER_LINE ? g->line + 2 * (size_t)k->index
                                                    : &k->index;
    const int points = k->kind == HK_COVER_TRI ? 3 : k->kind == HK_COVER_LINE ? 2 : 1;
    for (int p = 0; p < points; p++)
        if (dot3(n, g->pos + 3 * (size_t)idx[p]) - d < -tol) return 1;
    return 0;
}

/* One front triangle as it is cut: the cells of its screen box (r) in which it must be ordered against something
 * else (need, row by row), and the pieces so far. */
typedef struct cutting {
    int r[4];
    unsigned char *need;
    int64_t t;
    double size;
    int whole;     /* the triangle is drawn whole, over all it shares pixels with */
    double *x;     /* 9 per piece */
    int64_t *from; /* per piece */
    unsigned char *over;
    int64_t n, cap;
} cutting;

static int emit(cutting *k, const double x[3][3])
{
    if (k->n == k->cap) {
        const int64_t cap = k->cap ? 2 * k->cap : 256;
        double *grown = realloc(k->x, (size_t)(9 * cap) * sizeof *grown);
        if (grown) k->x = grown;
        int64_t *from = realloc(k->from, (size_t)cap * sizeof *from);
        if (from) k->from = from;
        unsigned char *over = realloc(k->over, (size_t)cap);
        if (over) k->over = over;
        if (!grown || !from || !over) return -1;
        k->cap = cap;
    }
    memcpy(k->x + 9 * k->n, x, 9 * sizeof(double));
    k->from[k->n] = k->t;
    k->over[k->n++] = (unsigned char)k->whole;
    return 0;
}

/* 1 if the screen triangle s meets a cell where the triangle being cut must be ordered against something. */
static int needed(const cutting *k, const double s[3][2])
{
    double box[4];
    box_of(s, box);
    const int x0 = (int)fmax(k->r[0], floor(box[0] / CELL)), x1 = (int)fmin(k->r[2], floor(box[2] / CELL));
    const int y0 = (int)fmax(k->r[1], floor(box[1] / CELL)), y1 = (int)fmin(k->r[3], floor(box[3] / CELL));
    const int w = k->r[2] - k->r[0] + 1;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            if (k->need[(size_t)(y - k->r[1]) * (size_t)w + (size_t)(x - k->r[0])] &&
                meets(s, x * CELL, y * CELL, (x + 1) * CELL, (y + 1) * CELL))
                return 1;
    return 0;
}

/* The triangle x (world) with screen corners s, halved where needed, into k. 0, or -1. */
static int cut(cutting *k, const double x[3][3], const double s[3][2], int depth)
{
    if (!needed(k, s)) return 0; /* its face covers it */
    int e = 0;                   /* the longest edge: corners e and e + 1 */
    double longest = 0;
    for (int i = 0; i < 3; i++) {
        const double *a = x[i], *b = x[(i + 1) % 3];
        const double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]}, len = sqrt(dot3(d, d));
        if (len > longest) longest = len, e = i;
    }
    if (depth >= MAX_HALVINGS || !(longest > k->size)) return emit(k, x);
    /* halved at the middle of its longest edge, both halves turned as x */
    const int j = (e + 1) % 3;
    double mx[3], ms[2];
    for (int d = 0; d < 3; d++) mx[d] = 0.5 * (x[e][d] + x[j][d]);
    for (int d = 0; d < 2; d++) ms[d] = 0.5 * (s[e][d] + s[j][d]);
    for (int half = 0; half < 2; half++) {
        double px[3][3], ps[3][2];
        memcpy(px, x, sizeof px);
        memcpy(ps, s, sizeof ps);
        const int moved = half ? e : j; /* the first half keeps corner e, the second corner e + 1 */
        memcpy(px[moved], mx, sizeof mx);
        memcpy(ps[moved], ms, sizeof ms);
        if (cut(k, px, ps, depth + 1) != 0) return -1;
    }
    return 0;
}

/* Cuts front triangle t (its unit normal n) of collider c where it must be ordered against something, into k. */
static int cut_triangle(cutting *k, const grid *gr, const hk_world *w, const hk_geometry *g, const hk_cover *cover,
                        const double *screen, int64_t t, const double n[3])
{
    double x[3][3], s[3][2], box[4];
    for (int i = 0; i < 3; i++) {
        const size_t v = (size_t)g->ctri[3 * t + i];
        memcpy(x[i], g->cpos + 3 * v, sizeof x[i]);
        for (int d = 0; d < 2; d++) s[i][d] = screen[3 * v + d];
    }
    box_of(s, box);
    if (!cells_of(gr, box, k->r)) return 0;
    const int32_t c = g->ctri_collider[t];
    const double d = dot3(n, x[0]);
    const int cw = k->r[2] - k->r[0] + 1;
    int any = 0, in_front = 0; /* a cell where it must be ordered; something drawn over it that lies in front */
    for (int y = k->r[1]; y <= k->r[3]; y++)
        for (int xc = k->r[0]; xc <= k->r[2]; xc++) {
            const size_t cell = (size_t)y * (size_t)gr->w + (size_t)xc;
            unsigned char need = 0;
            if (meets(s, xc * CELL, y * CELL, (xc + 1) * CELL, (y + 1) * CELL)) {
                need = gr->owner[cell] != c && gr->owner[cell] != -1;
                in_front |= need;
                for (int64_t j = gr->at[cell]; j < gr->at[cell + 1] && !(need && in_front); j++) {
                    const int b = behind(w, g, &cover[gr->list[j]], n, d);
                    need |= (unsigned char)b;
                    in_front |= !b;
                }
            }
            k->need[(size_t)(y - k->r[1]) * (size_t)cw + (size_t)(xc - k->r[0])] = need;
            any |= need;
        }
    k->t = t;
    if (!any) return 0;
    /* all it shares pixels with lies behind its plane: it is drawn whole, over them */
    k->whole = !in_front;
    return k->whole ? emit(k, x) : cut(k, x, s, 0);
}

void hk_collider_faces_free(hk_collider_faces *cf)
{
    free(cf->front);
    free(cf->face_of);
    free(cf->face);
    free(cf->normal);
    free(cf->piece);
    free(cf->from);
    free(cf->over);
    memset(cf, 0, sizeof *cf);
}

/* Collider triangle t's unit normal (zero for a triangle of no area). */
static void normal_of(const hk_geometry *g, int64_t t, double n[3])
{
    const double *x[3];
    double e[2][3];
    for (int k = 0; k < 3; k++) x[k] = g->cpos + 3 * (size_t)g->ctri[3 * t + k];
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 3; d++) e[k][d] = x[k + 1][d] - x[0][d];
    n[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    n[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    n[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
    const double len = sqrt(dot3(n, n));
    for (int d = 0; d < 3 && len > 0; d++) n[d] /= len;
}

/* The front triangles and their faces: a front triangle joins the face of the one before it when that is of its
 * collider and in its plane. Their normals into tn (3 per triangle). */
static void make_faces(hk_collider_faces *cf, const hk_geometry *g, const double dir[3], double *tn)
{
    for (int64_t t = 0; t < g->ctris; t++) {
        double *n = tn + 3 * t;
        normal_of(g, t, n);
        cf->front[t] = dot3(n, dir) < 0;
        cf->face_of[t] = -1;
        if (!cf->front[t]) continue;
        const double *prev = cf->faces ? cf->normal + 3 * (cf->faces - 1) : n;
        const double *x = g->cpos + 3 * (size_t)g->ctri[3 * t], *y = t ? g->cpos + 3 * (size_t)g->ctri[3 * t - 3] : x;
        const double gap[3] = {x[0] - y[0], x[1] - y[1], x[2] - y[2]};
        const int joins = t > 0 && cf->front[t - 1] && g->ctri_collider[t] == g->ctri_collider[t - 1] &&
                          dot3(n, prev) > 1 - 1e-12 && fabs(dot3(gap, prev)) <= 1e-9 * (1 + sqrt(dot3(gap, gap)));
        if (!joins) {
            cf->face[cf->faces] = t;
            memcpy(cf->normal + 3 * cf->faces, n, 3 * sizeof *n);
            cf->faces++;
        }
        cf->face_of[t] = cf->faces - 1;
    }
    cf->face[cf->faces] = g->ctris;
}

int hk_collider_faces_make(hk_collider_faces *cf, const hk_world *w, const hk_geometry *g, const double *screen,
                           const double dir[3], const hk_cover *cover, int64_t n, int width, int height, double size)
{
    memset(cf, 0, sizeof *cf);
    if (g->ctris == 0) return 0;
    grid gr;
    cutting k = {.size = size};
    double *tn = malloc((3 * (size_t)g->ctris + 1) * sizeof *tn);
    cf->front = malloc((size_t)g->ctris + 1);
    cf->face_of = malloc(((size_t)g->ctris + 1) * sizeof *cf->face_of);
    cf->face = malloc(((size_t)g->ctris + 1) * sizeof *cf->face);
    cf->normal = malloc((3 * (size_t)g->ctris + 1) * sizeof *cf->normal);
    int rc = -1;
    if (grid_make(&gr, width, height, cover, n) != 0 || !tn || !cf->front || !cf->face_of || !cf->face || !cf->normal ||
        !(k.need = malloc((size_t)gr.w * (size_t)gr.h + 1)))
        goto done;
    make_faces(cf, g, dir, tn);
    for (int64_t t = 0; t < g->ctris; t++) {
        if (!cf->front[t]) continue;
        hk_collider_def def;
        const int32_t c = g->ctri_collider[t];
        const int convex = hk_world_collider(w, c, &def) == HK_OK && def.shape != HK_COLLIDER_MESH;
        double s[3][2];
        for (int i = 0; i < 3; i++)
            for (int d = 0; d < 2; d++) s[i][d] = screen[3 * (size_t)g->ctri[3 * t + i] + d];
        mark_collider(&gr, s, c, t, convex);
    }
    for (int64_t t = 0; t < g->ctris; t++)
        if (cf->front[t] && cut_triangle(&k, &gr, w, g, cover, screen, t, tn + 3 * t) != 0) goto done;
    cf->piece = k.x;
    cf->from = k.from;
    cf->over = k.over;
    cf->pieces = k.n;
    k.x = NULL;
    k.from = NULL;
    k.over = NULL;
    rc = 0;
done:
    grid_free(&gr);
    free(k.need);
    free(k.x);
    free(k.from);
    free(k.over);
    free(tn);
    if (rc != 0) hk_collider_faces_free(cf);
    return rc;
}
