/* zero_length.c — the rule that refuses springs without a usable length: zero, a billionth of the body, or too long. */
/* SPDX-License-Identifier: MIT */
#include "zero_length.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bounds.h"
#include "spring_vec.h"

/* The diagonal of the box around n points held as x[c][i] [m]. */
static double box_size(const hk_real *const x[3], int64_t n)
{
    if (n <= 0) return 0;
    double lo[3] = {x[0][0], x[1][0], x[2][0]}, hi[3] = {lo[0], lo[1], lo[2]};
    for (int64_t i = 1; i < n; i++)
        for (int c = 0; c < 3; c++) {
            if (x[c][i] < lo[c]) lo[c] = x[c][i];
            if (x[c][i] > hi[c]) hi[c] = x[c][i];
        }
    const double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The rule: 1 (and the reason in why) if a spring whose vector is d, from
 * local particle la (at `at`, world coordinates) to lb, in a body `size`
 * across, has no length. */
static int zero_length(const hk_real d[3], const double at[3], int64_t la, int64_t lb, double size, char *why,
                       size_t cap)
{
    const double r = hypot(hypot((double)d[0], (double)d[1]), (double)d[2]); /* no overflow on the way */
    const int too_long = !(r <= HK_SPRING_MAX_LENGTH); /* NaN too: ends that are not finite as stored */
    if (!too_long && r > 0 && r >= HK_SPRING_MIN_FRACTION * size) return 0;
    if (!why || !cap) return 1;
    if (too_long) {
        snprintf(why, cap,
                 "joins particles %lld and %lld, %g m apart: longer than %g m, beyond this build's precision (the "
                 "forces square a spring's length)",
                 (long long)la, (long long)lb, r, HK_SPRING_MAX_LENGTH);
        return 1;
    }
    if (r == 0)
        snprintf(why, cap, "joins particles %lld and %lld at the same position (%g, %g, %g)", (long long)la,
                 (long long)lb, at[0], at[1], at[2]);
    else {
        char f[32];
        hk_short_g(HK_SPRING_MIN_FRACTION, f, sizeof f);
        snprintf(why, cap, "joins particles %lld and %lld, %g m apart in a body %g m across (less than %s of it)",
                 (long long)la, (long long)lb, r, size, f);
    }
    size_t n = 0;
    while (n < cap && why[n]) n++;
    snprintf(why + n, cap - n, ": a spring of zero length has no direction to act along");
    return 1;
}

int64_t hk_find_zero_length_spring(int count, const hk_vec3 *pos, int64_t nsprings, const int *a, const int *b,
                                   char *why, size_t cap)
{
    if (why && cap) why[0] = '\0';
    if (count <= 0 || nsprings <= 0) return -1;
    /* the points as the solver will store them: q = x - origin (builders.c) */
    hk_real *q = malloc(3 * (size_t)count * sizeof *q);
    if (!q) return -2;
    const hk_real *const x[3] = {q, q + count, q + 2 * (size_t)count};
    double o[3];
    hk_points_origin(count, pos, o);
    for (int i = 0; i < count; i++) {
        q[i] = (hk_real)(pos[i].x - o[0]);
        q[count + i] = (hk_real)(pos[i].y - o[1]);
        q[2 * (size_t)count + i] = (hk_real)(pos[i].z - o[2]);
    }
    const double size = box_size(x, count);
    int64_t found = -1;
    for (int64_t s = 0; s < nsprings && found < 0; s++) {
        if (a[s] < 0 || a[s] >= count || b[s] < 0 || b[s] >= count) continue;
        const hk_real d[3] = {x[0][a[s]] - x[0][b[s]], x[1][a[s]] - x[1][b[s]], x[2][a[s]] - x[2][b[s]]};
        const double at[3] = {pos[a[s]].x, pos[a[s]].y, pos[a[s]].z};
        if (zero_length(d, at, a[s], b[s], size, why, cap)) found = s;
    }
    free(q);
    return found;
}

typedef struct length_ctx {
    const hk_world *w;
    const hk_body *body;
    double size;
    int found;
    char why[320];
} length_ctx;

static void length_visit(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    (void)L0;
    length_ctx *c = vctx;
    if (c->found) return;
    hk_real d[3];
    double at[3];
    hk_spring_delta(f, &c->w->p, slot, a, b, d);
    hk_particle_position(c->w, c->body, (int)a, at);
    c->found = zero_length(d, at, a - c->body->first, b - c->body->first, c->size, c->why, sizeof c->why);
}

/* The rule on lattice family f of a deferred body (world.h hk_lattice_recipe), whose nodes are not built yet: they
 * will be at rest, every spring's vector then (0 - 0) - D = -D as the kernels form it (hk_spring_delta), so the
 * first spring, the one a visit of the built body reports, speaks for every one; and the box of the rest positions
 * is the box of the lattice's corners (r is affine in a node's indices, and rounding keeps order). */
static int check_lattice_at_rest(hk_world *w, const hk_family *f, const hk_body *bd)
{
    if (f->count == 0) return 0;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    const int nz = bd->nz > 1 ? bd->nz : 1;
    for (int corner = 0; corner < 8; corner++) {
        const int64_t i = corner & 1 ? bd->nx - 1 : 0, j = corner & 2 ? bd->ny - 1 : 0, k = corner & 4 ? nz - 1 : 0;
        double r[3];
        hk_body_rest(bd, i + (int64_t)bd->nx * (j + (int64_t)bd->ny * k), r);
        for (int c = 0; c < 3; c++) {
            const double x = (double)(hk_real)r[c];
            lo[c] = x < lo[c] ? x : lo[c];
            hi[c] = x > hi[c] ? x : hi[c];
        }
    }
    const double e[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    const double size = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    const int64_t la = f->i0 + (int64_t)f->nx * (f->j0 + (int64_t)f->ny * f->k0);
    hk_real d[3];
    double r[3], at[3];
    for (int c = 0; c < 3; c++) d[c] = (hk_real)0 - f->rest_vec[c];
    hk_body_rest(bd, la, r);
    for (int c = 0; c < 3; c++) at[c] = bd->origin[c] + (double)(hk_real)r[c];
    char why[320];
    if (!zero_length(d, at, la, la + f->offset, size, why, sizeof why)) return 0;
    return hk_fail(w, "body %d (%s), family %s: spring %s", f->body, bd->kind, f->name, why);
}

int hk_family_check_lengths(hk_world *w, const hk_family *f)
{
    const hk_body *bd = &w->bodies[f->body];
    if (bd->recipe) return check_lattice_at_rest(w, f, bd);
    /* the size of the body as stored: the box of r + q */
    hk_real *loc = malloc(3 * (size_t)(bd->count ? bd->count : 1) * sizeof *loc);
    if (!loc) return hk_fail_memory(w, "out of memory checking spring lengths");
    const hk_real *const x[3] = {loc, loc + bd->count, loc + 2 * (size_t)bd->count};
    for (int l = 0; l < bd->count; l++) {
        const int i = bd->first + l;
        loc[l] = w->p.rx[i] + w->p.qx[i];
        loc[bd->count + l] = w->p.ry[i] + w->p.qy[i];
        loc[2 * (size_t)bd->count + l] = w->p.rz[i] + w->p.qz[i];
    }
    length_ctx c = {w, bd, box_size(x, bd->count), 0, ""};
    free(loc);
    hk_springs_visit(f, length_visit, &c);
    if (!c.found) return 0;
    return hk_fail(w, "body %d (%s), family %s: spring %s", f->body, bd->kind, f->name, c.why);
}
