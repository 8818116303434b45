/* springs.c — spring families: lattice stencils and index lists, their rest vectors and lengths. */
/* SPDX-License-Identifier: MIT */
#include "springs.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "zero_length.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

hk_family *hk_add_lattice_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int di,
                                 int dj, int dk)
{
    const hk_body *b = &w->bodies[body];
    hk_family *f = hk_world_new_family(w, body, name, params);
    if (!f) return NULL;
    f->kind = HK_FAMILY_LATTICE;
    /* Store the offset pointing forward in memory (its most significant
     * non-zero component, dk then dj then di, positive): the same set of
     * springs, and the lattice sweep then only ever writes to rows ahead. */
    if (dk < 0 || (dk == 0 && (dj < 0 || (dj == 0 && di < 0)))) {
        di = -di;
        dj = -dj;
        dk = -dk;
    }
    f->base = hk_body_base(b);
    f->lo = b->lo;
    f->hi = (int64_t)b->lo + b->count;
    f->nx = b->nx;
    f->ny = b->ny;
    f->nz = b->nz;
    f->di = di;
    f->dj = dj;
    f->dk = dk;
    f->offset = di + (int64_t)b->nx * (dj + (int64_t)b->ny * dk);
    /* valid sources: 0 <= i < nx and 0 <= i + di < nx, likewise j, k */
    f->i0 = imax(0, -di);
    f->i1 = imin(b->nx, b->nx - di);
    f->j0 = imax(0, -dj);
    f->j1 = imin(b->ny, b->ny - dj);
    f->k0 = imax(0, -dk);
    f->k1 = imin(b->nz, b->nz - dk);
    if (f->i1 < f->i0) f->i1 = f->i0;
    if (f->j1 < f->j0) f->j1 = f->j0;
    if (f->k1 < f->k0) f->k1 = f->k0;
    f->count = f->total = (int64_t)(f->i1 - f->i0) * (f->j1 - f->j0) * (f->k1 - f->k0);
    /* D = r(target) - r(source), rounded once; the rest length is |D| as the
     * kernels compute a length, so a lattice at rest has exactly r = L0 */
    for (int c = 0; c < 3; c++)
        f->rest_vec[c] = (hk_real)(di * b->axis[0][c] + dj * b->axis[1][c] + dk * b->axis[2][c]);
    if (!(params->rest_length > 0)) f->rest = hk_spring_length(f->rest_vec[0], f->rest_vec[1], f->rest_vec[2]);
    if (params->behaviour == HK_SPRING_BREAKABLE && !b->recipe) { /* a deferred body's: when its rows are held */
        f->broken = f->broken_mem = calloc((size_t)b->count + 2 * HK_ROW_MARGIN, 1); /* room for a vector read past
                                                                                         the end */
        if (!f->broken) {
            w->family_count--;
            hk_fail_memory(w, "out of memory for breakable springs");
            return NULL;
        }
    }
    if (hk_family_check_lengths(w, f) != 0) {
        hk_family_free(f);
        w->family_count--;
        return NULL;
    }
    return f;
}

void hk_lattice_family_narrow(hk_family *f, int i0, int i1, int j0, int j1)
{
    f->i0 = imax(f->i0, i0);
    f->i1 = imax(f->i0, imin(f->i1, i1));
    f->j0 = imax(f->j0, j0);
    f->j1 = imax(f->j0, imin(f->j1, j1));
    f->count = f->total = (int64_t)(f->i1 - f->i0) * (f->j1 - f->j0) * (f->k1 - f->k0);
}

int hk_add_list_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int64_t count,
                       const int *a, const int *b, const double *rest)
{
    for (int64_t s = 0; s < count; s++) {
        if (a[s] < 0 || a[s] >= w->p.count || b[s] < 0 || b[s] >= w->p.count)
            return hk_fail(w, "spring %lld joins particle %d and %d, outside 0..%d", (long long)s, a[s], b[s],
                           w->p.count - 1);
        if (a[s] == b[s]) return hk_fail(w, "spring %lld joins particle %d to itself", (long long)s, a[s]);
    }
    hk_family *f = hk_world_new_family(w, body, name, params);
    if (!f) return hk_failed(w);
    f->kind = HK_FAMILY_LIST;
    f->count = f->total = count;
    f->a = malloc((size_t)(count ? count : 1) * sizeof *f->a);
    f->b = malloc((size_t)(count ? count : 1) * sizeof *f->b);
    int own_rest = 0; /* a spring with a rest length of its own */
    for (int64_t s = 0; rest && s < count && !own_rest; s++) own_rest = rest[s] > 0;
    const int need_rest = own_rest || !(params->rest_length > 0);
    const hk_body *bd = &w->bodies[body];
    const size_t padded = hk_padded((size_t)count);
    if (need_rest) f->rest_list = hk_alloc_reals((size_t)count, w);
    if (bd->lattice) f->rvec[0] = hk_alloc_reals(3 * padded, w);
    if (params->behaviour == HK_SPRING_BREAKABLE) f->broken = f->broken_mem = calloc((size_t)(count ? count : 1), 1);
    if (!f->a || !f->b || (need_rest && !f->rest_list) || (bd->lattice && !f->rvec[0]) ||
        (params->behaviour == HK_SPRING_BREAKABLE && !f->broken)) {
        hk_family_free(f);
        w->family_count--;
        return hk_fail_memory(w, "out of memory for %lld springs", (long long)count);
    }
    memcpy(f->a, a, (size_t)count * sizeof *a);
    memcpy(f->b, b, (size_t)count * sizeof *b);
    if (bd->lattice) { /* D = r_b - r_a of each spring, from the lattice in double, rounded once */
        f->rvec[1] = f->rvec[0] + padded;
        f->rvec[2] = f->rvec[1] + padded;
        for (int64_t s = 0; s < count; s++) {
            double ra[3], rb[3];
            hk_body_rest(bd, a[s] - bd->first, ra);
            hk_body_rest(bd, b[s] - bd->first, rb);
            for (int c = 0; c < 3; c++) f->rvec[c][s] = (hk_real)(rb[c] - ra[c]);
        }
    }
    /* a spring's own rest length, else the family's, else the initial length as the kernels compute it (a spring
     * at rest then has r = L0 exactly) */
    for (int64_t s = 0; need_rest && s < count; s++) {
        hk_real d[3];
        hk_spring_delta(f, &w->p, s, a[s], b[s], d);
        f->rest_list[s] = rest && rest[s] > 0       ? (hk_real)rest[s]
                          : params->rest_length > 0 ? (hk_real)params->rest_length
                                                    : hk_spring_length(d[0], d[1], d[2]);
    }
    if (hk_family_check_lengths(w, f) != 0) {
        hk_family_free(f);
        w->family_count--;
        return hk_failed(w);
    }
    return 0;
}
