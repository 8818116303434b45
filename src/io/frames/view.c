/* view.c — the fixed camera box of a run's PNG frames (where its bodies can go), its stretch colour range (1-2-5
 * steps, never narrowed), and the index DIR/frames_png.csv that lets a restart continue both. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "view.h"

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kept_rows.h"
#include "numbers.h"
#include "outfile.h"
#include "plot_axis.h"
#include "world.h"

/* ---- the camera's box ------------------------------------------------------ */

static void grow(hk_view *v, double x, double y, double z)
{
    const double p[3] = {x, y, z};
    for (int c = 0; c < 3; c++) {
        v->lo[c] = fmin(v->lo[c], p[c]);
        v->hi[c] = fmax(v->hi[c], p[c]);
    }
}

static int finite3(const double *x) { return isfinite(x[0]) && isfinite(x[1]) && isfinite(x[2]); }

/* The height nothing falls below [m]: the ground's plane, the walls' bottom; -INFINITY without either. */
static double floor_height(const hk_world *w)
{
    double f = -INFINITY;
    if (w->def.ground.model != HK_GROUND_NONE && isfinite(w->def.ground.height)) f = w->def.ground.height;
    if (w->def.has_walls && isfinite(w->def.walls_min.y)) f = fmax(f, w->def.walls_min.y);
    return f;
}

/* 1 if a spring of body b can break (its pins may then let go). */
static int body_can_break(const hk_world *w, int b)
{
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].body == b && w->families[f].broken) return 1;
    return 0;
}

/* Body b's reach into v (hk_view_fit). */
static void body_reach(hk_view *v, const hk_world *w, int b, const double *pos, const char *drawn, double floor,
                       int down)
{
    const hk_body *body = &w->bodies[b];
    double pin_lo[3] = {INFINITY, INFINITY, INFINITY}, pin_hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = body->first; i < body->first + body->count; i++)
        if (w->p.inv_mass[i] == 0 && finite3(pos + 3 * (size_t)i))
            for (int c = 0; c < 3; c++) {
                pin_lo[c] = fmin(pin_lo[c], pos[3 * (size_t)i + c]);
                pin_hi[c] = fmax(pin_hi[c], pos[3 * (size_t)i + c]);
            }
    const int pinned = pin_lo[0] <= pin_hi[0];
    /* the axes across the pins: those the pins' box is flat in (all three for one pin) */
    int across[3] = {0, 0, 0};
    if (pinned) {
        const double span = fmax(fmax(pin_hi[0] - pin_lo[0], pin_hi[1] - pin_lo[1]), pin_hi[2] - pin_lo[2]);
        for (int c = 0; c < 3; c++) across[c] = pin_hi[c] - pin_lo[c] <= 1e-6 * fmax(span, 1e-3);
    }
    const int falls = down && isfinite(floor) && (!pinned || body_can_break(w, b));
    double width = 0; /* a free body's horizontal size [m] (a pinned one turns about its pins, below) */
    if (falls && !pinned) {
        double blo[2] = {INFINITY, INFINITY}, bhi[2] = {-INFINITY, -INFINITY};
        for (int i = body->first; i < body->first + body->count; i++)
            if (drawn[i] && finite3(pos + 3 * (size_t)i))
                for (int c = 0; c < 2; c++) {
                    blo[c] = fmin(blo[c], pos[3 * (size_t)i + 2 * c]);
                    bhi[c] = fmax(bhi[c], pos[3 * (size_t)i + 2 * c]);
                }
        width = blo[0] <= bhi[0] ? fmax(bhi[0] - blo[0], bhi[1] - blo[1]) : 0;
    }
    for (int i = body->first; i < body->first + body->count; i++) {
        const double *x = pos + 3 * (size_t)i;
        if (!drawn[i] || !finite3(x)) continue;
        grow(v, x[0], x[1], x[2]);
        if (falls) {
            grow(v, x[0] - width, floor, x[2] - width);
            grow(v, x[0] + width, floor, x[2] + width);
        }
        if (pinned && down) {
            /* p: the nearest point of the pins' box, d: how far the particle is from it. The body turns about its
             * pins: across a line of pins (a cloth's edge, a flag's pole) and every way about a point; so the
             * particle reaches d to either side across the line (sideways), and hangs as far as d below it */
            double p[3], d2 = 0;
            for (int c = 0; c < 3; c++) {
                p[c] = fmin(fmax(x[c], pin_lo[c]), pin_hi[c]);
                d2 += (x[c] - p[c]) * (x[c] - p[c]);
            }
            const double d = sqrt(d2);
            for (int c = 0; c < 3; c += 2) /* x and z */
                if (across[c]) {
                    double q[3] = {x[0], x[1], x[2]};
                    q[c] = p[c] - d;
                    grow(v, q[0], q[1], q[2]);
                    q[c] = p[c] + d;
                    grow(v, q[0], q[1], q[2]);
                }
            grow(v, p[0], p[1] - d, p[2]);
        }
    }
}

/* v's grid: a 1-2-5 step near a fifth of its box's size. */
static void set_grid(hk_view *v)
{
    const double size = fmax(fmax(v->hi[0] - v->lo[0], v->hi[2] - v->lo[2]), fmax(v->hi[1] - v->lo[1], 1e-3));
    hk_plot_scale s;
    hk_plot_scale_set(&s, 0, size, 0);
    v->grid = s.mult * pow(10, s.pow10);
}

void hk_view_fit(hk_view *v, const hk_world *w, const double *pos, const char *drawn, int reach)
{
    for (int c = 0; c < 3; c++) {
        v->lo[c] = INFINITY;
        v->hi[c] = -INFINITY;
    }
    v->stretch_lo = 1 - HK_VIEW_STRETCH_STEP0;
    v->stretch_hi = 1 + HK_VIEW_STRETCH_STEP0;
    v->fixed = 0;
    const double floor = floor_height(w);
    const int down = reach && w->def.gravity.y < 0;
    for (int b = 0; b < w->body_count; b++) body_reach(v, w, b, pos, drawn, floor, down);
    for (int k = 0; k < w->sphere_count && reach; k++) {
        const hk_sphere_def *s = &w->spheres[k];
        grow(v, s->center.x - s->radius, s->center.y - s->radius, s->center.z - s->radius);
        grow(v, s->center.x + s->radius, s->center.y + s->radius, s->center.z + s->radius);
    }
    v->grid = 1;
    if (!(v->lo[0] <= v->hi[0])) return;
    if (isfinite(floor) && floor <= v->hi[1]) v->lo[1] = fmax(v->lo[1], floor);
    if (w->def.has_walls) { /* nothing leaves the room: the box within the walls, where it reaches them */
        const double wl[3] = {w->def.walls_min.x, w->def.walls_min.y, w->def.walls_min.z};
        const double wh[3] = {w->def.walls_max.x, w->def.walls_max.y, w->def.walls_max.z};
        for (int c = 0; c < 3; c++)
            if (fmax(v->lo[c], wl[c]) <= fmin(v->hi[c], wh[c])) {
                v->lo[c] = fmax(v->lo[c], wl[c]);
                v->hi[c] = fmin(v->hi[c], wh[c]);
            }
    }
    set_grid(v);
}

void hk_view_box(hk_view *v, const hk_camera *c)
{
    for (int k = 0; k < 3; k++) {
        v->lo[k] = c->lo[k];
        v->hi[k] = c->hi[k];
    }
    v->fixed = 1;
    set_grid(v);
}

int hk_camera_parse(const char *text, hk_camera *c, char *why, size_t cap)
{
    memset(c, 0, sizeof *c);
    if (!text) {
        snprintf(why, cap, "nothing given");
        return -1;
    }
    if (strcmp(text, "run") == 0 || strcmp(text, "follow") == 0) {
        c->kind = text[0] == 'r' ? HK_CAMERA_RUN : HK_CAMERA_FOLLOW;
        return 0;
    }
    static const char *const names[6] = {"X0", "Y0", "Z0", "X1", "Y1", "Z1"};
    double x[6];
    const char *p = text;
    for (int k = 0; k < 6; k++) {
        const size_t n = strcspn(p, ",");
        char field[64];
        if ((k < 5 && p[n] != ',') || (k == 5 && p[n] != '\0')) {
            snprintf(why, cap, "six numbers, comma separated, %s", k < 5 ? "found fewer" : "found more");
            return -1;
        }
        if (n < sizeof field) {
            memcpy(field, p, n);
            field[n] = '\0';
        }
        if (n >= sizeof field || hk_num_real(field, &x[k]) != HK_NUM_OK) {
            snprintf(why, cap, "%s: '%.*s' is not a number", names[k], (int)(n < 40 ? n : 40), p);
            return -1;
        }
        p += n + (k < 5);
    }
    for (int k = 0; k < 3; k++)
        if (x[k] > x[k + 3]) {
            snprintf(why, cap, "%s = %g is above %s = %g", names[k], x[k], names[k + 3], x[k + 3]);
            return -1;
        }
    if (!(fmax(x[3] - x[0], fmax(x[4] - x[1], x[5] - x[2])) >= 1e-3)) {
        snprintf(why, cap, "the box is less than 1 mm across");
        return -1;
    }
    c->kind = HK_CAMERA_BOX;
    for (int k = 0; k < 3; k++) {
        c->lo[k] = x[k];
        c->hi[k] = x[k + 3];
    }
    return 0;
}

int hk_view_follow(hk_view *v, const double *pos, const char *drawn, int n)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < n; i++)
        if (drawn[i] && finite3(pos + 3 * (size_t)i))
            for (int c = 0; c < 3; c++) {
                lo[c] = fmin(lo[c], pos[3 * (size_t)i + c]);
                hi[c] = fmax(hi[c], pos[3 * (size_t)i + c]);
            }
    if (!(lo[0] <= hi[0])) return 0;
    if (!(v->lo[0] <= v->hi[0])) {
        for (int c = 0; c < 3; c++) {
            v->lo[c] = lo[c];
            v->hi[c] = hi[c];
        }
        return 1;
    }
    const double size = fmax(fmax(v->hi[0] - v->lo[0], v->hi[1] - v->lo[1]), v->hi[2] - v->lo[2]);
    int out = 0;
    for (int c = 0; c < 3; c++) out |= lo[c] < v->lo[c] - 0.03 * size || hi[c] > v->hi[c] + 0.03 * size;
    if (!out) return 0;
    double nlo[3], nhi[3], grown = 0;
    for (int c = 0; c < 3; c++) {
        nlo[c] = fmin(v->lo[c], lo[c]);
        nhi[c] = fmax(v->hi[c], hi[c]);
        grown = fmax(grown, nhi[c] - nlo[c]);
    }
    for (int c = 0; c < 3; c++) {
        if (nlo[c] < v->lo[c]) nlo[c] -= 0.25 * grown;
        if (nhi[c] > v->hi[c]) nhi[c] += 0.25 * grown;
        v->lo[c] = nlo[c];
        v->hi[c] = nhi[c];
    }
    return 1;
}

/* ---- the colour range ----------------------------------------------------- */

double hk_view_step(double x)
{
    if (!(x > HK_VIEW_STRETCH_STEP0)) return HK_VIEW_STRETCH_STEP0;
    if (x >= 1e6) return 1e6;
    const int e = (int)floor(log10(x));
    const double unit = pow(10, e), m = x / unit;
    /* within rounding of a step is that step (0.2 stays 0.2) */
    const double mult = m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10;
    return mult * unit;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int hk_view_widen(hk_view *v, const double *values, int64_t n)
{
    double *s = malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s) return -1;
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(values[i])) s[m++] = values[i];
    int widened = 0;
    if (m > 0) {
        qsort(s, (size_t)m, sizeof *s, cmp_double);
        const double q01 = s[(int64_t)floor(0.01 * (double)(m - 1))], q99 = s[(int64_t)ceil(0.99 * (double)(m - 1))];
        if (q01 < v->stretch_lo) {
            const double d = hk_view_step(1 - q01);
            v->stretch_lo = d >= 1 ? 0 : 1 - d;
            widened = 1;
        }
        if (q99 > v->stretch_hi) {
            v->stretch_hi = 1 + hk_view_step(q99 - 1);
            widened = 1;
        }
    }
    free(s);
    return widened;
}

/* ---- the index ------------------------------------------------------------ */

static const char index_header[] = "step,time,stretch_min,stretch_max,box_x0,box_y0,box_z0,box_x1,box_y1,box_z1,grid\n";

/* A row of the index (kept_rows.h) into its step and the view in ctx. */
static int parse_row(const char *line, int64_t n, int64_t *step, void *ctx)
{
    (void)n;
    hk_view *v = ctx, r;
    long long s;
    double t;
    char end;
    if (sscanf(line, "%lld,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg%c", &s, &t, &r.stretch_lo, &r.stretch_hi, &r.lo[0],
               &r.lo[1], &r.lo[2], &r.hi[0], &r.hi[1], &r.hi[2], &r.grid, &end) != 12 ||
        end != '\n' || !(r.grid > 0) || !isfinite(r.grid))
        return -1;
    if (!(r.stretch_lo >= 0 && r.stretch_lo < 1 && r.stretch_hi > 1 && isfinite(r.stretch_hi))) return -1;
    for (int c = 0; c < 3; c++)
        if (!(r.lo[c] <= r.hi[c]) || !isfinite(r.lo[c]) || !isfinite(r.hi[c])) return -1;
    *step = s;
    r.fixed = 0;
    *v = r;
    return 0;
}

int hk_view_continue(const char *path, int64_t first_step, hk_view *v, char **kept)
{
    hk_view row;
    char *rows;
    if (hk_kept_rows(path, index_header, first_step, parse_row, &row, &rows) == 0) return 0;
    /* the view is the last kept row's (the reader went one row past it, or to the end) */
    const size_t len = strlen(rows);
    const char *last = rows + len - 1; /* its '\n' */
    while (last > rows && last[-1] != '\n') last--;
    int64_t step;
    parse_row(last, 0, &step, v);
    *kept = rows;
    return 1;
}

FILE *hk_view_index_open(const char *path, const char *kept)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return NULL;
    fprintf(f, "%s%s", index_header, kept ? kept : "");
    return hk_out_keep(&o);
}

/* x with the fewest significant digits (15 to 17) that read back as x. */
static void shortest(char out[32], double x)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(out, 32, "%.*g", digits, x);
        if (strtod(out, NULL) == x) return;
    }
}

int hk_view_index_row(FILE *f, int64_t step, double time, const hk_view *v)
{
    const double field[] = {time,     v->stretch_lo, v->stretch_hi, v->lo[0], v->lo[1],
                            v->lo[2], v->hi[0],      v->hi[1],      v->hi[2], v->grid};
    fprintf(f, "%lld", (long long)step);
    for (size_t k = 0; k < sizeof field / sizeof field[0]; k++) {
        char text[32];
        shortest(text, field[k]);
        fprintf(f, ",%s", text);
    }
    fputc('\n', f);
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
