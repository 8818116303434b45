/* direct.c — the implicit system of a small, banded world solved directly: probed columns, band Cholesky. */
/* SPDX-License-Identifier: MIT */
#include "direct.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pairs.h"
#include "part.h"

/* The band's half-width in particles: the largest |a - b| of any spring (a lattice's offset); past
 * HK_DIRECT_MAX_BAND, the first found beyond it (no band to use: the rest are not looked at). */
static int64_t band_particles(const hk_world *w)
{
    int64_t p = 0;
    for (int fi = 0; fi < w->family_count && p <= HK_DIRECT_MAX_BAND; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind == HK_FAMILY_LATTICE) {
            const int64_t o = f->offset < 0 ? -f->offset : f->offset;
            p = o > p ? o : p;
        } else {
            for (int64_t q = 0; q < f->count && p <= HK_DIRECT_MAX_BAND; q++) {
                const int64_t d = (int64_t)f->a[q] - f->b[q], ad = d < 0 ? -d : d;
                p = ad > p ? ad : p;
            }
        }
    }
    return p;
}

/* The factorisation's multiply-adds for n particles in a band of half-width p particles: 3n (3p + 3)^2. */
static double factor_flops(int n, int64_t p)
{
    const double bw = 3.0 * (double)p + 2;
    return 3.0 * n * (bw + 1) * (bw + 1);
}

int hk_direct_fits(const hk_world *w, int *half)
{
    if (w->part || w->cg_only || w->p.count <= 0) return 0; /* a distributed world's system is CG's */
    if (hk_pairs_of(w)) return 0;                           /* contact between particles joins any two: no band */
    if (factor_flops(w->p.count, 0) > HK_DIRECT_MAX_FLOPS) return 0; /* too large for any band: no scan */
    const int64_t p = band_particles(w);
    if (p > HK_DIRECT_MAX_BAND || factor_flops(w->p.count, p) > HK_DIRECT_MAX_FLOPS) return 0;
    *half = (int)p;
    return 1;
}

/* A = M + sum S column by column: the columns of particles j = r (mod 2 p + 1) and coordinate c at once (they touch
 * disjoint rows), into the lower band ab[(R - C) + C (bw + 1)] of the 3n x 3n matrix; a fixed particle's rows and
 * columns are the identity's. */
static void probe(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, int p, double *ab, int bw)
{
    const hk_particles *pt = &w->p;
    const int n = pt->count, m = 2 * p + 1, ld = bw + 1;
    hk_real *const *y = im->v[HK_SYS_P], *const *out = im->v[HK_SYS_Q];
    const size_t bytes = (size_t)n * sizeof(hk_real);
    for (int r = 0; r < m; r++)
        for (int c = 0; c < 3; c++) {
            for (int k = 0; k < 3; k++) memset(y[k], 0, bytes);
            for (int j = r; j < n; j += m) y[c][j] = pt->inv_mass[j] != 0 ? 1 : 0;
            hk_system_apply(w, im, sK, sD, 1, y, out);
            for (int i = 0; i < n; i++) {
                if (pt->inv_mass[i] == 0) continue;
                const int d = ((i - r) % m + m) % m, j = d <= p ? i - d : i + (m - d); /* the column's particle */
                if (j < 0 || j >= n || pt->inv_mass[j] == 0) continue;
                const int C = 3 * j + c;
                for (int ci = 0; ci < 3; ci++) {
                    const int R = 3 * i + ci;
                    if (R >= C) {
                        HK_ASSERT(R - C <= bw);
                        ab[(R - C) + (size_t)C * ld] = (double)out[ci][i];
                    }
                }
            }
        }
    for (int i = 0; i < n; i++)
        if (pt->inv_mass[i] == 0)
            for (int ci = 0; ci < 3; ci++) ab[(size_t)(3 * i + ci) * ld] = 1;
}

/* The band's Cholesky factor L in place (A = L L^T); 0, or -1 where a pivot is not positive. */
static int factor(double *ab, int n3, int bw)
{
    const int ld = bw + 1;
    for (int j = 0; j < n3; j++) {
        double d = ab[(size_t)j * ld];
        for (int k = j > bw ? j - bw : 0; k < j; k++) d -= ab[(j - k) + (size_t)k * ld] * ab[(j - k) + (size_t)k * ld];
        if (!(d > 0)) return -1;
        const double ljj = sqrt(d);
        ab[(size_t)j * ld] = ljj;
        const int last = j + bw < n3 - 1 ? j + bw : n3 - 1;
        for (int i = j + 1; i <= last; i++) {
            double s = ab[(i - j) + (size_t)j * ld];
            for (int k = i > bw ? i - bw : 0; k < j; k++)
                s -= ab[(i - k) + (size_t)k * ld] * ab[(j - k) + (size_t)k * ld];
            ab[(i - j) + (size_t)j * ld] = s / ljj;
        }
    }
    return 0;
}

/* x = (L L^T)^-1 x */
static void substitute(const double *ab, int n3, int bw, double *x)
{
    const int ld = bw + 1;
    for (int i = 0; i < n3; i++) {
        double s = x[i];
        for (int k = i > bw ? i - bw : 0; k < i; k++) s -= ab[(i - k) + (size_t)k * ld] * x[k];
        x[i] = s / ab[(size_t)i * ld];
    }
    for (int i = n3 - 1; i >= 0; i--) {
        double s = x[i];
        const int last = i + bw < n3 - 1 ? i + bw : n3 - 1;
        for (int k = i + 1; k <= last; k++) s -= ab[(k - i) + (size_t)i * ld] * x[k];
        x[i] = s / ab[(size_t)i * ld];
    }
}

hk_cg_result hk_direct_solve(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, int half, double *energy)
{
    hk_cg_result res = {HK_CG_CONVERGED, 0, 0};
    const int n = w->p.count, n3 = 3 * n, bw = 3 * half + 2;
    double *ab = calloc((size_t)n3 * (size_t)(bw + 1) + (size_t)n3, sizeof *ab);
    if (!ab) {
        res.status = HK_CG_BREAKDOWN; /* the caller takes CG instead */
        return res;
    }
    double *x = ab + (size_t)n3 * (size_t)(bw + 1);
    probe(w, im, sK, sD, half, ab, bw);
    if (factor(ab, n3, bw) != 0) {
        free(ab);
        res.status = HK_CG_BREAKDOWN;
        return res;
    }
    hk_real *const *b = im->v[HK_SYS_B], *const *dv = im->v[HK_SYS_DV];
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) x[3 * i + c] = w->p.inv_mass[i] != 0 ? (double)b[c][i] : 0;
    substitute(ab, n3, bw, x);
    double e = 0;
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            dv[c][i] = (hk_real)x[3 * i + c];
            e += x[3 * i + c] * (double)b[c][i];
        }
    free(ab);
    *energy = e;
    return res;
}
