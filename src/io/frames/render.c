/* render.c — a frame drawn with cairo: the run's camera (view.h), ground with shadows, spheres, colliders,
 * stretch-coloured surfaces and springs back to front, the colour bar (stretch_colours.c) and a caption. */
/* SPDX-License-Identifier: MIT */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facing.h"
#include "frame_format.h"
#include "pieces.h"
#include "stretch_colours.h"
#include "world.h"

#define PI 3.14159265358979323846

static const hk_rgb stage = {224, 222, 216}, stage_line = {203, 201, 195}, stage_edge = {160, 158, 152},
                    background = {246, 246, 243};

/* ---- camera -------------------------------------------------------------- */

static void normalise(double v[3])
{
    const double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0)
        for (int c = 0; c < 3; c++) v[c] /= n;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void hk_render_viewport(int width, int height, double vp[4])
{
    vp[0] = 0;
    vp[1] = 30;
    vp[2] = width - 84;
    vp[3] = height;
}

typedef struct hk_render_camera {
    double centre[3];               /* looked-at point [m] */
    double right[3], up[3], dir[3]; /* orthonormal; dir points into the picture */
    double half_extent;             /* half the visible height of the viewport [m] */
} hk_render_camera;

/* The ground is shown when there is one within twice the box's size below it. */
static int ground_near(const hk_world *w, const double lo[3], const double hi[3])
{
    const double size = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    return w->def.ground.model != HK_GROUND_NONE && w->def.ground.height >= lo[1] - 2 * size &&
           w->def.ground.height <= hi[1] && isfinite(w->def.ground.height);
}

/* The camera of the run: from the front right, 30 degrees round from +z and 30 degrees above, looking at the
 * middle of the box (the view's, with the ground's stage when it is drawn), everything in it in the viewport. */
static void camera_fit(const double lo[3], const double hi[3], int width, int height, hk_render_camera *cam)
{
    const double el = 30 * PI / 180, az = 30 * PI / 180, world_up[3] = {0, 1, 0};
    double dir[3] = {-sin(az) * cos(el), -sin(el), -cos(az) * cos(el)};
    normalise(dir);
    cross(dir, world_up, cam->right);
    normalise(cam->right);
    cross(cam->right, dir, cam->up);
    for (int c = 0; c < 3; c++) {
        cam->dir[c] = dir[c];
        cam->centre[c] = 0.5 * (lo[c] + hi[c]);
    }
    double vp[4];
    hk_render_viewport(width, height, vp);
    const double aspect = (vp[2] - vp[0]) / (vp[3] - vp[1]);
    /* half extent: the largest projected distance of a box corner, with a margin */
    double half = 0;
    for (int k = 0; k < 8; k++) {
        const double q[3] = {(k & 1 ? hi[0] : lo[0]) - cam->centre[0], (k & 2 ? hi[1] : lo[1]) - cam->centre[1],
                             (k & 4 ? hi[2] : lo[2]) - cam->centre[2]};
        half = fmax(half, fmax(fabs(dot(q, cam->right)) / aspect, fabs(dot(q, cam->up))));
    }
    cam->half_extent = half > 0 && isfinite(half) ? 1.04 * half : 1.0;
}

/* ---- colours ------------------------------------------------------------- */

static hk_rgb shaded(hk_rgb c, double s)
{
    return (hk_rgb){(uint8_t)lround(c.r * s), (uint8_t)lround(c.g * s), (uint8_t)lround(c.b * s)};
}

/* ---- the scene ----------------------------------------------------------- */

typedef struct view {
    hk_render_camera cam;
    double scale, ox, oy; /* pixels per metre; the screen position of the camera's centre */
} view;

static void project(const view *v, double x, double y, double z, double out[3])
{
    const double q[3] = {x - v->cam.centre[0], y - v->cam.centre[1], z - v->cam.centre[2]};
    out[0] = v->ox + v->scale * dot(q, v->cam.right);
    out[1] = v->oy - v->scale * dot(q, v->cam.up);
    out[2] = dot(q, v->cam.dir);
}

/* What is drawn back to front: a surface triangle, a spring of a body without a surface, such a body's particle,
 * a sphere, a collider's face, a piece of one. At equal depth, in that order, then by index. */
enum { ITEM_TRI, ITEM_LINE, ITEM_POINT, ITEM_SPHERE, ITEM_COLLIDER_FACE, ITEM_COLLIDER_PIECE };
typedef struct item {
    double depth; /* [m] along the view direction; larger is farther */
    int32_t kind, index;
} item;

static int item_cmp(const void *a, const void *b)
{
    const item *p = a, *q = b;
    if (p->depth != q->depth) return p->depth > q->depth ? -1 : 1;
    if (p->kind != q->kind) return p->kind < q->kind ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

/* The frame's data: particles on the screen and their mean spring stretch. */
typedef struct scene {
    const hk_world *w;
    const hk_geometry *g;
    const hk_view *view; /* the run's box and colour range */
    view v;
    double *s;           /* 3 per particle: x, y [px], depth [m] */
    double *stretch;     /* per particle: the mean r / L0 of its unbroken springs (1 without) */
    char *drawn;         /* per particle: it is drawn (a corner of a triangle, or of a body without a surface) */
    char *surface;       /* per body: it has surface triangles */
    signed char *facing; /* per surface triangle: +1 or -1 turns it outward, 0 unknown (facing.h) */
    double ground;       /* the ground's height [m], or NAN when not drawn */
    double grid;         /* its grid spacing [m] */
    double stage[4];     /* its extent: x0, x1, z0, z1 [m] */
} scene;

/* 1 if particle i has a place on the screen. */
static int shown(const scene *sc, int i) { return isfinite(sc->s[3 * i]) && isfinite(sc->s[3 * i + 1]); }

/* The stage under the view's box: its x-z extent with a margin, on whole cells of the view's ground grid (the same
 * spacing for every frame of the run). */
static void ground_stage(scene *sc, const double lo[3], const double hi[3])
{
    const double size = fmax(fmax(hi[0] - lo[0], hi[2] - lo[2]), fmax(hi[1] - lo[1], 1e-3));
    sc->grid = sc->view->grid;
    const double m = 0.15 * size;
    sc->stage[0] = sc->grid * floor((lo[0] - m) / sc->grid);
    sc->stage[1] = sc->grid * ceil((hi[0] + m) / sc->grid);
    sc->stage[2] = sc->grid * floor((lo[2] - m) / sc->grid);
    sc->stage[3] = sc->grid * ceil((hi[2] + m) / sc->grid);
}

static void ground_path(cairo_t *cr, const scene *sc)
{
    const double x[4] = {sc->stage[0], sc->stage[1], sc->stage[1], sc->stage[0]};
    const double z[4] = {sc->stage[2], sc->stage[2], sc->stage[3], sc->stage[3]};
    for (int k = 0; k < 4; k++) {
        double p[3];
        project(&sc->v, x[k], sc->ground, z[k], p);
        if (k == 0)
            cairo_move_to(cr, p[0], p[1]);
        else
            cairo_line_to(cr, p[0], p[1]);
    }
    cairo_close_path(cr);
}

/* A vertical drop of the point onto the ground, on the screen. */
static void drop(const scene *sc, int i, double out[3])
{
    const double *x = sc->g->pos + 3 * (size_t)i;
    project(&sc->v, x[0], sc->ground, x[2], out);
}

/* A triangle dropped onto the ground (its corners on the screen) as a path, every one turned the same way round:
 * a closed surface's upper and lower faces land with opposite turns, and under the winding rule they would cancel
 * to no shadow at all. */
static void shadow_path(cairo_t *cr, const double p[3][3])
{
    const double turn = (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]);
    const int last = turn < 0 ? 2 : 1, other = 3 - last;
    cairo_move_to(cr, p[0][0], p[0][1]);
    cairo_line_to(cr, p[last][0], p[last][1]);
    cairo_line_to(cr, p[other][0], p[other][1]);
    cairo_close_path(cr);
}

static void draw_ground(hk_canvas *c, const scene *sc)
{
    cairo_t *cr = c->cr;
    ground_path(cr, sc);
    hk_canvas_colour(c, stage, 1);
    cairo_fill(cr);
    /* grid lines, at most a few dozen (the grid has about 5 cells across the box) */
    cairo_set_line_width(cr, 1);
    for (int axis = 0; axis < 2; axis++) {
        const double a0 = sc->stage[2 * axis], a1 = sc->stage[2 * axis + 1];
        const double b0 = sc->stage[2 - 2 * axis], b1 = sc->stage[3 - 2 * axis];
        const long long n = llround((a1 - a0) / sc->grid);
        for (long long k = 1; k < n && n < 200; k++) {
            const double a = a0 + (double)k * sc->grid;
            double p[3], q[3];
            project(&sc->v, axis ? b0 : a, sc->ground, axis ? a : b0, p);
            project(&sc->v, axis ? b1 : a, sc->ground, axis ? a : b1, q);
            cairo_move_to(cr, p[0], p[1]);
            cairo_line_to(cr, q[0], q[1]);
        }
    }
    hk_canvas_colour(c, stage_line, 1);
    cairo_stroke(cr);
    /* shadows: everything dropped straight down, one translucent layer clipped to the stage */
    const hk_geometry *g = sc->g;
    cairo_save(cr);
    ground_path(cr, sc);
    cairo_clip(cr);
    cairo_push_group(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (int64_t t = 0; t < g->tris; t++) {
        const int32_t *v = g->tri + 3 * t;
        if (!shown(sc, v[0]) || !shown(sc, v[1]) || !shown(sc, v[2])) continue;
        double p[3][3];
        for (int k = 0; k < 3; k++) drop(sc, v[k], p[k]);
        shadow_path(cr, p);
    }
    for (int64_t t = 0; t < g->ctris; t++) { /* the colliders' triangles */
        double p[3][3];
        for (int k = 0; k < 3; k++) {
            const double *x = g->cpos + 3 * (size_t)g->ctri[3 * t + k];
            project(&sc->v, x[0], sc->ground, x[2], p[k]);
        }
        shadow_path(cr, p);
    }
    for (int k = 0; k < sc->w->sphere_count; k++) {
        const hk_sphere_def *s = &sc->w->spheres[k];
        for (int j = 0; j < 48; j++) {
            const double a = 2 * PI * j / 48;
            double p[3];
            project(&sc->v, s->center.x + s->radius * cos(a), sc->ground, s->center.z + s->radius * sin(a), p);
            if (j == 0)
                cairo_move_to(cr, p[0], p[1]);
            else
                cairo_line_to(cr, p[0], p[1]);
        }
        cairo_close_path(cr);
    }
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    cairo_fill(cr);
    cairo_set_line_width(cr, 2);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int64_t l = 0; l < g->lines; l++) {
        if (sc->surface[g->line_body[l]] || !shown(sc, g->line[2 * l]) || !shown(sc, g->line[2 * l + 1])) continue;
        double p[3], q[3];
        drop(sc, g->line[2 * l], p);
        drop(sc, g->line[2 * l + 1], q);
        cairo_move_to(cr, p[0], p[1]);
        cairo_line_to(cr, q[0], q[1]);
    }
    cairo_stroke(cr);
    cairo_pop_group_to_source(cr);
    cairo_paint_with_alpha(cr, 0.16);
    cairo_restore(cr);
    ground_path(cr, sc);
    hk_canvas_colour(c, stage_edge, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

/* The stretch a surface triangle shows: the mean of its corners'. */
static double tri_stretch(const scene *sc, int64_t t)
{
    const int32_t *v = sc->g->tri + 3 * t;
    return (sc->stretch[v[0]] + sc->stretch[v[1]] + sc->stretch[v[2]]) / 3;
}

/* Half the width of the line between two triangles of a surface [px]: a small triangle's fill reaches this far past
 * its edges, which covers the seams to its neighbours; a large one's edges are drawn darker over twice the width. */
#define SEAM 0.35

/* Corner q of the triangle (p, q, r) on screen, moved so that both its edges lie d further out (inwards where d < 0;
 * a mitre, at most 3 |d| from q on a sharp corner) into g. */
static void grown_corner(const double *p, const double *q, const double *r, double d, double g[2])
{
    const double side = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]) > 0 ? 1 : -1;
    double n[2][2];
    const double *ends[2][2] = {{p, q}, {q, r}};
    for (int e = 0; e < 2; e++) { /* each edge's outward unit normal */
        const double dx = ends[e][1][0] - ends[e][0][0], dy = ends[e][1][1] - ends[e][0][1], l = hypot(dx, dy);
        n[e][0] = l > 0 ? side * dy / l : 0; /* right of the edge: outside when p, q, r turn left */
        n[e][1] = l > 0 ? -side * dx / l : 0;
    }
    const double m[2] = {n[0][0] + n[1][0], n[0][1] + n[1][1]};
    const double c = 1 + n[0][0] * n[1][0] + n[0][1] * n[1][1]; /* 1 + cos of the angle between the normals */
    double f = c > 1e-9 ? d / c : 0;
    const double len = fabs(f) * hypot(m[0], m[1]);
    if (len > 3 * fabs(d)) f *= 3 * fabs(d) / len;
    g[0] = q[0] + f * m[0];
    g[1] = q[1] + f * m[1];
}

/* Fills the screen triangle (a, b, e) grown by d [px] on every side (shrunk where d < 0) in col. */
static void fill_grown(hk_canvas *c, const double *a, const double *b, const double *e, double d, hk_rgb col)
{
    const double *p[3] = {a, b, e};
    for (int k = 0; k < 3; k++) {
        double g[2];
        grown_corner(p[(k + 2) % 3], p[k], p[(k + 1) % 3], d, g);
        if (k == 0)
            cairo_move_to(c->cr, g[0], g[1]);
        else
            cairo_line_to(c->cr, g[0], g[1]);
    }
    cairo_close_path(c->cr);
    hk_canvas_colour(c, col, 1);
    cairo_fill(c->cr);
}

static void draw_triangle(hk_canvas *c, const scene *sc, int64_t t, const double light[3])
{
    const double *pos = sc->g->pos;
    const int32_t *v = sc->g->tri + 3 * t;
    const double *a = sc->s + 3 * v[0], *b = sc->s + 3 * v[1], *d = sc->s + 3 * v[2];
    double e[2][3], n[3];
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++) e[k][c] = pos[3 * v[k + 1] + c] - pos[3 * v[0] + c];
    cross(e[0], e[1], n);
    normalise(n);
    const hk_rgb col =
        shaded(hk_render_stretch_colour(sc->view, tri_stretch(sc, t)), 0.45 + 0.55 * fabs(dot(n, light)));
    const double edge =
        fmax(hypot(a[0] - b[0], a[1] - b[1]), fmax(hypot(b[0] - d[0], b[1] - d[1]), hypot(d[0] - a[0], d[1] - a[1])));
    if (edge < 3) { /* a triangle of a few pixels: sampled at pixel centres, so neighbours tile without seams */
        cairo_t *cr = c->cr;
        cairo_move_to(cr, a[0], a[1]);
        cairo_line_to(cr, b[0], b[1]);
        cairo_line_to(cr, d[0], d[1]);
        cairo_close_path(cr);
        hk_canvas_colour(c, col, 1);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
        cairo_fill(cr);
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    } else if (edge >
               10) { /* a large triangle: its edges darker, to show the mesh (two fills cost less than a stroke) */
        fill_grown(c, a, b, d, SEAM, shaded(col, 0.88));
        fill_grown(c, a, b, d, -SEAM, col);
    } else {
        fill_grown(c, a, b, d, SEAM, col);
    }
}

/* A collider's shade: flat grey, lit as the bodies' surfaces are, by the unit normal n. */
static hk_rgb collider_colour(const double n[3], const double light[3])
{
    return shaded((hk_rgb){176, 172, 164}, 0.5 + 0.5 * fabs(dot(n, light)));
}

/* A triangle of corners x (9 numbers [m]) into the current path. */
static void triangle_path(cairo_t *cr, const view *v, const double *x)
{
    for (int k = 0; k < 3; k++) {
        double p[3];
        project(v, x[3 * k], x[3 * k + 1], x[3 * k + 2], p);
        if (k == 0)
            cairo_move_to(cr, p[0], p[1]);
        else
            cairo_line_to(cr, p[0], p[1]);
    }
    cairo_close_path(cr);
}

/* Fills the current path in col, with a stroke of it that hides the seams to its neighbours. */
static void fill_collider(hk_canvas *c, hk_rgb col)
{
    hk_canvas_colour(c, col, 1);
    cairo_fill_preserve(c->cr);
    cairo_set_line_width(c->cr, 0.6);
    cairo_stroke(c->cr);
}

static void draw_sphere(hk_canvas *c, const scene *sc, int k)
{
    const hk_sphere_def *s = &sc->w->spheres[k];
    double p[3];
    project(&sc->v, s->center.x, s->center.y, s->center.z, p);
    const double r = s->radius * sc->v.scale;
    cairo_t *cr = c->cr;
    cairo_pattern_t *pat = cairo_pattern_create_radial(p[0] - 0.35 * r, p[1] - 0.4 * r, 0.05 * r, p[0], p[1], r);
    cairo_pattern_add_color_stop_rgb(pat, 0, 0.96, 0.96, 0.97);
    cairo_pattern_add_color_stop_rgb(pat, 1, 0.52, 0.54, 0.58);
    cairo_arc(cr, p[0], p[1], r, 0, 2 * PI);
    cairo_set_source(cr, pat);
    cairo_fill_preserve(cr);
    cairo_pattern_destroy(pat);
    hk_canvas_colour(c, (hk_rgb){110, 112, 118}, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

/* What the frame draws besides the colliders, and the screen boxes around it, into cover (room for every
 * triangle, line, particle and sphere); their count. */
static int64_t covers(const scene *sc, hk_cover *cover)
{
    const hk_world *w = sc->w;
    const hk_geometry *g = sc->g;
    int64_t n = 0;
    for (int64_t t = 0; t < g->tris; t++) {
        const int32_t *v = g->tri + 3 * t;
        if (!shown(sc, v[0]) || !shown(sc, v[1]) || !shown(sc, v[2])) continue;
        const double *a = sc->s + 3 * v[0], *b = sc->s + 3 * v[1], *d = sc->s + 3 * v[2];
        cover[n++] = (hk_cover){HK_COVER_TRI,
                                (int32_t)t,
                                {fmin(a[0], fmin(b[0], d[0])) - 1, fmin(a[1], fmin(b[1], d[1])) - 1,
                                 fmax(a[0], fmax(b[0], d[0])) + 1, fmax(a[1], fmax(b[1], d[1])) + 1}};
    }
    for (int64_t l = 0; l < g->lines; l++) {
        const int32_t i = g->line[2 * l], j = g->line[2 * l + 1];
        if (sc->surface[g->line_body[l]] || !shown(sc, i) || !shown(sc, j)) continue;
        const double *a = sc->s + 3 * i, *b = sc->s + 3 * j;
        cover[n++] =
            (hk_cover){HK_COVER_LINE,
                       (int32_t)l,
                       {fmin(a[0], b[0]) - 2, fmin(a[1], b[1]) - 2, fmax(a[0], b[0]) + 2, fmax(a[1], b[1]) + 2}};
    }
    for (int b = 0; b < w->body_count; b++)
        for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count && !sc->surface[b]; i++)
            if (shown(sc, i)) {
                const double *a = sc->s + 3 * i;
                cover[n++] = (hk_cover){HK_COVER_POINT, i, {a[0] - 3, a[1] - 3, a[0] + 3, a[1] + 3}};
            }
    for (int k = 0; k < w->sphere_count; k++) {
        const hk_sphere_def *s = &w->spheres[k];
        double p[3];
        project(&sc->v, s->center.x, s->center.y, s->center.z, p);
        const double r = s->radius * sc->v.scale + 1;
        cover[n++] = (hk_cover){HK_COVER_SPHERE, k, {p[0] - r, p[1] - r, p[0] + r, p[1] + r}};
    }
    return n;
}

/* The frame's collider faces and pieces (pieces.h) on a width x height picture; 0, or -1 when out of memory. */
static int collider_faces(hk_collider_faces *cf, const scene *sc, int width, int height)
{
    const hk_world *w = sc->w;
    const hk_geometry *g = sc->g;
    memset(cf, 0, sizeof *cf);
    if (g->ctris == 0) return 0;
    int64_t most = g->tris + g->lines + w->p.count + w->sphere_count;
    double *screen = malloc((3 * (size_t)g->cverts + 1) * sizeof *screen);
    hk_cover *cover = malloc((size_t)(most + 1) * sizeof *cover);
    int rc = -1;
    if (screen && cover) {
        for (int64_t i = 0; i < g->cverts; i++)
            project(&sc->v, g->cpos[3 * i], g->cpos[3 * i + 1], g->cpos[3 * i + 2], screen + 3 * i);
        rc = hk_collider_faces_make(cf, w, g, screen, sc->v.cam.dir, cover, covers(sc, cover), width, height,
                                    sc->v.cam.half_extent / 40);
    }
    free(screen);
    free(cover);
    return rc;
}

/* The farthest depth of the corners x (n of them, 3 numbers each [m]), or with sign -1 the nearest's, negated. */
static double farthest(const view *v, const double *x, int n, double sign)
{
    double far = -INFINITY;
    for (int k = 0; k < n; k++) {
        double p[3];
        project(v, x[3 * k], x[3 * k + 1], x[3 * k + 2], p);
        far = fmax(far, sign * p[2]);
    }
    return far;
}

/* How far behind its farthest corner a collider's face or piece is drawn: twice the thickest contact layer and
 * the bodies' triangles' mean edge, at least `bias` [m]: what rests on a collider (within its layer) is drawn
 * over it. */
static double collider_behind(const scene *sc, double bias)
{
    const hk_world *w = sc->w;
    const hk_geometry *g = sc->g;
    double behind = bias, edge = 0;
    for (int c = 0; c < hk_world_collider_count(w); c++) {
        hk_collider_def d;
        if (hk_world_collider(w, c, &d) == HK_OK) behind = fmax(behind, 2 * d.thickness);
    }
    const int64_t step = g->tris > 1000 ? g->tris / 1000 : 1; /* the mean edge of at most a thousand triangles */
    for (int64_t t = 0; t < g->tris; t += step) {
        const double *a = g->pos + 3 * (size_t)g->tri[3 * t], *b = g->pos + 3 * (size_t)g->tri[3 * t + 1];
        edge += sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }
    if (g->tris > 0 && isfinite(edge)) behind += edge / (double)((g->tris + step - 1) / step);
    return behind;
}

/* 1 if surface triangle t lies on the far side of its body's closed surface (facing.h): its body's triangles in
 * front cover it, and it is not drawn (half a closed body's fills). */
static int facing_away(const scene *sc, int64_t t)
{
    if (!sc->facing || sc->facing[t] == 0) return 0;
    const double *pos = sc->g->pos;
    const int32_t *v = sc->g->tri + 3 * t;
    double e[2][3], n[3];
    for (int k = 0; k < 2; k++)
        for (int c = 0; c < 3; c++) e[k][c] = pos[3 * v[k + 1] + c] - pos[3 * v[0] + c];
    cross(e[0], e[1], n);
    return sc->facing[t] * dot(n, sc->v.cam.dir) > 0;
}

/* Draws everything back to front; 0, or -1 when out of memory. */
static int draw_scene(hk_canvas *c, const scene *sc, hk_render_stats *stats)
{
    const hk_world *w = sc->w;
    const hk_geometry *g = sc->g;
    double light[3] = {-0.3, 0.8, 0.5};
    normalise(light);
    hk_collider_faces cf;
    if (collider_faces(&cf, sc, c->w, c->h) != 0) return -1;
    int64_t n = g->tris + w->sphere_count + cf.faces + cf.pieces;
    for (int64_t l = 0; l < g->lines; l++) n += !sc->surface[g->line_body[l]];
    for (int b = 0; b < w->body_count; b++) n += sc->surface[b] ? 0 : w->bodies[b].count;
    item *it = malloc((size_t)(n > 0 ? n : 1) * sizeof *it);
    if (!it) {
        hk_collider_faces_free(&cf);
        return -1;
    }
    int64_t m = 0;
    for (int64_t t = 0; t < g->tris; t++) {
        const int32_t *v = g->tri + 3 * t;
        if (shown(sc, v[0]) && shown(sc, v[1]) && shown(sc, v[2]) && !facing_away(sc, t))
            it[m++] =
                (item){(sc->s[3 * v[0] + 2] + sc->s[3 * v[1] + 2] + sc->s[3 * v[2] + 2]) / 3, ITEM_TRI, (int32_t)t};
    }
    for (int64_t l = 0; l < g->lines; l++) {
        const int32_t i = g->line[2 * l], j = g->line[2 * l + 1];
        if (!sc->surface[g->line_body[l]] && shown(sc, i) && shown(sc, j))
            it[m++] = (item){0.5 * (sc->s[3 * i + 2] + sc->s[3 * j + 2]), ITEM_LINE, (int32_t)l};
    }
    /* a particle a little in front of its springs, so it reads as their joint */
    const double bias = 2e-3 * sc->v.cam.half_extent;
    for (int b = 0; b < w->body_count; b++)
        if (!sc->surface[b])
            for (int i = w->bodies[b].first; i < w->bodies[b].first + w->bodies[b].count; i++)
                if (shown(sc, i)) it[m++] = (item){sc->s[3 * i + 2] - bias, ITEM_POINT, i};
    for (int k = 0; k < w->sphere_count; k++) {
        const hk_sphere_def *s = &w->spheres[k];
        double p[3];
        project(&sc->v, s->center.x, s->center.y, s->center.z, p);
        it[m++] = (item){p[2], ITEM_SPHERE, k};
    }
    const double behind = collider_behind(sc, bias);
    for (int64_t f = 0; f < cf.faces; f++) {
        double far = -INFINITY;
        for (int64_t t = cf.face[f]; t < cf.face[f + 1]; t++)
            if (cf.front[t])
                for (int k = 0; k < 3; k++)
                    far = fmax(far, farthest(&sc->v, g->cpos + 3 * (size_t)g->ctri[3 * t + k], 1, 1));
        it[m++] = (item){far + behind, ITEM_COLLIDER_FACE, (int32_t)f};
    }
    for (int64_t t = 0; t < cf.pieces; t++) { /* a whole triangle over what lies behind it: as if at its nearest */
        const double sign = cf.over[t] ? -1 : 1;
        it[m++] =
            (item){sign * (farthest(&sc->v, cf.piece + 9 * t, 3, sign) + behind), ITEM_COLLIDER_PIECE, (int32_t)t};
    }
    qsort(it, (size_t)m, sizeof *it, item_cmp);
    cairo_t *cr = c->cr;
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int64_t k = 0; k < m; k++) {
        const int32_t i = it[k].index;
        if (it[k].kind == ITEM_TRI) {
            draw_triangle(c, sc, i, light);
        } else if (it[k].kind == ITEM_LINE) {
            const double *a = sc->s + 3 * g->line[2 * i], *b = sc->s + 3 * g->line[2 * i + 1];
            cairo_move_to(cr, a[0], a[1]);
            cairo_line_to(cr, b[0], b[1]);
            hk_canvas_colour(c, hk_render_stretch_colour(sc->view, g->stretch[i]), 1);
            cairo_set_line_width(cr, 2.2);
            cairo_stroke(cr);
        } else if (it[k].kind == ITEM_POINT) {
            cairo_arc(cr, sc->s[3 * i], sc->s[3 * i + 1], 2.4, 0, 2 * PI);
            hk_canvas_colour(c, hk_frame_ink, 1);
            cairo_fill(cr);
        } else if (it[k].kind == ITEM_SPHERE) {
            draw_sphere(c, sc, i);
        } else if (it[k].kind == ITEM_COLLIDER_FACE) {
            for (int64_t t = cf.face[i]; t < cf.face[i + 1]; t++)
                if (cf.front[t]) {
                    double x[9];
                    for (int j = 0; j < 3; j++)
                        memcpy(x + 3 * j, g->cpos + 3 * (size_t)g->ctri[3 * t + j], 3 * sizeof *x);
                    triangle_path(cr, &sc->v, x);
                }
            fill_collider(c, collider_colour(cf.normal + 3 * i, light));
        } else {
            triangle_path(cr, &sc->v, cf.piece + 9 * (size_t)i);
            fill_collider(c, collider_colour(cf.normal + 3 * cf.face_of[cf.from[i]], light));
        }
    }
    if (stats) {
        stats->items = m;
        stats->collider_faces = cf.faces;
        stats->collider_pieces = cf.pieces;
    }
    free(it);
    hk_collider_faces_free(&cf);
    return 0;
}

/* ---- annotations --------------------------------------------------------- */

/* "t = 0.0100 s   step 20" with as many decimals as the step length has, and the ground grid's spacing. */
static void draw_caption(hk_canvas *c, const scene *sc, const double vp[4])
{
    const hk_world *w = sc->w;
    const double dt = w->integrator.dt;
    const int decimals = dt > 0 && isfinite(dt) ? (int)fmin(9, fmax(0, ceil(-log10(dt) - 1e-9))) : 3;
    char text[160];
    snprintf(text, sizeof text, "t = %.*f s    step %lld", decimals, hk_world_time(w),
             (long long)hk_world_step_count(w));
    hk_canvas_text(c, vp[0] + 10, 8, 0, 0, HK_TEXT_CAPTION, hk_frame_ink, text);
    if (isfinite(sc->ground)) {
        const double g = sc->grid;
        if (g >= 1)
            snprintf(text, sizeof text, "ground grid %g m", g);
        else if (g >= 0.01)
            snprintf(text, sizeof text, "ground grid %g cm", g * 100);
        else
            snprintf(text, sizeof text, "ground grid %g mm", g * 1000);
        hk_canvas_text(c, vp[0] + 10, vp[3] - 6, 0, 1, HK_TEXT_NOTE, hk_frame_ink, text);
    }
}

/* Which particles a frame draws (drawn, per particle: a corner of a surface triangle, or of a body without a
 * surface) and which bodies have a surface (surface, per body). */
static void mark_drawn(const hk_world *w, const hk_geometry *g, char *drawn, char *surface)
{
    memset(drawn, 0, (size_t)w->p.count);
    for (int b = 0; b < w->body_count; b++) {
        surface[b] = (char)hk_geometry_body_has_surface(w, b);
        if (!surface[b]) memset(drawn + w->bodies[b].first, 1, (size_t)w->bodies[b].count);
    }
    for (int64_t t = 0; t < 3 * g->tris; t++) drawn[g->tri[t]] = 1;
}

int hk_render_fit(hk_view *v, const hk_world *w, const hk_geometry *g, int reach)
{
    char *drawn = malloc((size_t)(w->p.count > 0 ? w->p.count : 1));
    char *surface = malloc((size_t)(w->body_count > 0 ? w->body_count : 1));
    if (drawn && surface) {
        mark_drawn(w, g, drawn, surface);
        hk_view_fit(v, w, g->pos, drawn, reach);
    }
    free(drawn);
    free(surface);
    return drawn && surface ? 0 : -1;
}

/* Widens the view's colour range to what the frame colours: its surface triangles and the springs of its bodies
 * without a surface. 0, or -1 when out of memory. */
static int widen_range(hk_view *v, const scene *sc)
{
    const hk_geometry *g = sc->g;
    double *values = malloc((size_t)(g->tris + g->lines + 1) * sizeof *values);
    if (!values) return -1;
    int64_t n = 0;
    for (int64_t t = 0; t < g->tris; t++) values[n++] = tri_stretch(sc, t);
    for (int64_t l = 0; l < g->lines; l++)
        if (!sc->surface[g->line_body[l]]) values[n++] = g->stretch[l];
    const int rc = hk_view_widen(v, values, n);
    free(values);
    return rc < 0 ? -1 : 0;
}

/* hk_render_png into path, or (path NULL) into rgb. */
static int render(const char *path, uint8_t *rgb, const hk_world *w, const hk_geometry *g, hk_view *view, int width,
                  int height, hk_render_stats *stats)
{
    hk_view own;
    scene sc = {.w = w, .g = g, .view = view ? view : &own, .ground = NAN};
    const hk_particles *p = &w->p;
    const size_t np = (size_t)(p->count > 0 ? p->count : 1);
    sc.s = malloc(np * 3 * sizeof *sc.s);
    sc.stretch = calloc(np, sizeof *sc.stretch);
    sc.drawn = calloc(np, 1);
    sc.surface = malloc((size_t)(w->body_count > 0 ? w->body_count : 1));
    int *springs = calloc(np, sizeof *springs);
    sc.facing = malloc((size_t)(g->tris > 0 ? g->tris : 1));
    hk_canvas c;
    int rc = -1;
    if (!sc.s || !sc.stretch || !sc.drawn || !sc.surface || !springs || !sc.facing ||
        hk_facing_outward(g, sc.facing) != 0) {
        errno = ENOMEM;
        goto out;
    }
    mark_drawn(w, g, sc.drawn, sc.surface);
    if (view && !view->fixed)
        hk_view_follow(view, g->pos, sc.drawn, p->count);
    else
        hk_view_fit(&own, w, g->pos, sc.drawn, 1);
    for (int64_t l = 0; l < g->lines; l++)
        for (int k = 0; k < 2; k++) {
            const int i = g->line[2 * l + k];
            sc.stretch[i] += g->stretch[l];
            springs[i]++;
        }
    for (int i = 0; i < p->count; i++) sc.stretch[i] = springs[i] ? sc.stretch[i] / springs[i] : 1;
    if (widen_range(view ? view : &own, &sc) != 0) {
        errno = ENOMEM;
        goto out;
    }
    /* the camera and the ground from the view's box alone: the same for every frame of the run */
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        lo[k] = sc.view->lo[0] <= sc.view->hi[0] ? sc.view->lo[k] : 0;
        hi[k] = sc.view->lo[0] <= sc.view->hi[0] ? sc.view->hi[k] : 0;
    }
    if (ground_near(w, lo, hi)) {
        sc.ground = w->def.ground.height;
        ground_stage(&sc, lo, hi);
        lo[1] = fmin(lo[1], sc.ground);
        lo[0] = fmin(lo[0], sc.stage[0]);
        hi[0] = fmax(hi[0], sc.stage[1]);
        lo[2] = fmin(lo[2], sc.stage[2]);
        hi[2] = fmax(hi[2], sc.stage[3]);
    }
    camera_fit(lo, hi, width, height, &sc.v.cam);
    double vp[4];
    hk_render_viewport(width, height, vp);
    sc.v.scale = 0.5 * (vp[3] - vp[1]) / sc.v.cam.half_extent;
    sc.v.ox = 0.5 * (vp[0] + vp[2]);
    sc.v.oy = 0.5 * (vp[1] + vp[3]);
    for (int i = 0; i < p->count; i++)
        project(&sc.v, g->pos[3 * i], g->pos[3 * i + 1], g->pos[3 * i + 2], sc.s + 3 * i);
    if (hk_canvas_open(&c, path, HK_CANVAS_PNG, width, height, background) != 0) goto out;
    cairo_save(c.cr);
    cairo_rectangle(c.cr, vp[0], vp[1], vp[2] - vp[0], vp[3] - vp[1]);
    cairo_clip(c.cr);
    if (isfinite(sc.ground)) draw_ground(&c, &sc);
    const int drawn = draw_scene(&c, &sc, stats);
    cairo_restore(c.cr);
    if (g->lines > 0) hk_stretch_bar(&c, vp, sc.view);
    draw_caption(&c, &sc, vp);
    if (rgb) hk_canvas_rgb(&c, rgb);
    rc = hk_canvas_close(&c, drawn == 0);
    if (drawn != 0) {
        errno = ENOMEM;
        rc = -1;
    }
out:
    free(sc.s);
    free(sc.stretch);
    free(sc.drawn);
    free(sc.surface);
    free(sc.facing);
    free(springs);
    return rc;
}

int hk_render_png(const char *path, const hk_world *w, const hk_geometry *g, hk_view *view, int width, int height,
                  hk_render_stats *stats)
{
    return render(path, NULL, w, g, view, width, height, stats);
}

int hk_render_rgb(uint8_t *rgb, const hk_world *w, const hk_geometry *g, hk_view *view, int width, int height)
{
    return render(NULL, rgb, w, g, view, width, height, NULL);
}
