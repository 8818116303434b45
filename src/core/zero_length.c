/* zero_length.c — the rule that refuses springs of zero length: ends at one place, or a billionth of the body apart. */
#include "zero_length.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bounds.h"
#include "springs.h"

/* The diagonal of the box around particles [first, first + count) [m]. */
static double box_size(const hk_real *x, const hk_real *y, const hk_real *z, int64_t first, int64_t count)
{
    if (count <= 0) return 0;
    double lo[3] = {x[first], y[first], z[first]}, hi[3] = {lo[0], lo[1], lo[2]};
    for (int64_t i = first + 1; i < first + count; i++) {
        const double p[3] = {x[i], y[i], z[i]};
        for (int c = 0; c < 3; c++) {
            if (p[c] < lo[c]) lo[c] = p[c];
            if (p[c] > hi[c]) hi[c] = p[c];
        }
    }
    const double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* The rule: 1 (and the reason in why) if the spring from global particle a
 * to b, local indices la and lb, in a body `size` across, has no length. */
static int zero_length(const hk_real *x, const hk_real *y, const hk_real *z, int64_t a, int64_t b, int64_t la,
                       int64_t lb, double size, char *why, size_t cap)
{
    const double dx = (double)x[a] - x[b], dy = (double)y[a] - y[b], dz = (double)z[a] - z[b];
    const double r = sqrt(dx * dx + dy * dy + dz * dz);
    if (r > 0 && r >= HK_SPRING_MIN_FRACTION * size) return 0;
    if (!why || !cap) return 1;
    if (r == 0)
        snprintf(why, cap, "joins particles %lld and %lld at the same position (%g, %g, %g)", (long long)la,
                 (long long)lb, (double)x[a], (double)y[a], (double)z[a]);
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
    /* the positions as the solver will store them */
    hk_real *x = malloc(3 * (size_t)count * sizeof *x);
    if (!x) return -2;
    hk_real *y = x + count, *z = y + count;
    for (int i = 0; i < count; i++) x[i] = (hk_real)pos[i].x, y[i] = (hk_real)pos[i].y, z[i] = (hk_real)pos[i].z;
    const double size = box_size(x, y, z, 0, count);
    int64_t found = -1;
    for (int64_t s = 0; s < nsprings && found < 0; s++) {
        if (a[s] < 0 || a[s] >= count || b[s] < 0 || b[s] >= count) continue;
        if (zero_length(x, y, z, a[s], b[s], a[s], b[s], size, why, cap)) found = s;
    }
    free(x);
    return found;
}

typedef struct length_ctx {
    const hk_particles *p;
    int64_t first; /* the body's first particle */
    double size;
    int found;
    char why[320];
} length_ctx;

static void length_visit(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    (void)f, (void)slot, (void)L0;
    length_ctx *c = vctx;
    if (c->found) return;
    const hk_particles *p = c->p;
    c->found = zero_length(p->x, p->y, p->z, a, b, a - c->first, b - c->first, c->size, c->why, sizeof c->why);
}

int hk_family_check_lengths(hk_world *w, const hk_family *f)
{
    const hk_body *bd = &w->bodies[f->body];
    length_ctx c = {&w->p, bd->first, box_size(w->p.x, w->p.y, w->p.z, bd->first, bd->count), 0, ""};
    hk_springs_visit(f, length_visit, &c);
    if (!c.found) return 0;
    return hk_fail(w, "body %d (%s), family %s: spring %s", f->body, bd->kind, f->name, c.why);
}
