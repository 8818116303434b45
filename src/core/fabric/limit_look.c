/* limit_look.c — the strain limits' looks: a body's limited families in one pass, and a sweep's look at what moved. */
/* SPDX-License-Identifier: MIT */
#include "limit_pass.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"

/* Lattice family f as the look measures it (kernel_table.h hk_look_family). */
static hk_look_family look_family(const hk_family *f)
{
    return (hk_look_family){
        .offset = f->offset, .i0 = f->i0, .i1 = f->i1, .D = {f->rest_vec[0], f->rest_vec[1], f->rest_vec[2]}};
}

/* The largest and smallest r^2 of nf lattice families over `rows` source rows of a body, nx entries apart, the
 * first row's node 0 at global particle row0 (kernel_table.h length2_rows; row by row on the reference path). */
static void rows_measure(const limit_pass *s, int64_t row0, int64_t rows, int64_t nx, const hk_look_family *lf, int nf,
                         hk_real *most, hk_real *least)
{
    hk_real *const q[3] = {s->p->qx, s->p->qy, s->p->qz};
    if (s->k) {
        s->k->length2_rows(q, row0, rows, nx, lf, nf, most, least);
        return;
    }
    for (int m = 0; m < nf; m++) {
        most[m] = 0;
        least[m] = INFINITY;
        for (int64_t t = 0; t < rows; t++) {
            const int64_t a0 = row0 + t * nx + lf[m].i0, b0 = a0 + lf[m].offset;
            hk_real mx, mn;
            hk_length2_range_scalar((hk_real *const[3]){q[0] + a0, q[1] + a0, q[2] + a0},
                                    (hk_real *const[3]){q[0] + b0, q[1] + b0, q[2] + b0}, lf[m].D, lf[m].i1 - lf[m].i0,
                                    &mx, &mn);
            most[m] = mx > most[m] ? mx : most[m];
            least[m] = mn < least[m] ? mn : least[m];
        }
    }
}

/* Whether a largest and smallest r^2, most and least, pass a limit l. */
static int past_limit(const limits *l, hk_real most, hk_real least)
{
    return (hk_real)sqrt(most) > l->top || (hk_real)sqrt(least) < l->bottom;
}

/* A lattice family's largest and smallest r^2, most and least, as r / L0 into pt; whether they pass a limit l. */
static int look_figures(const hk_family *f, const limits *l, hk_real most, hk_real least, limit_part *pt)
{
    const double hi = (double)(hk_real)sqrt(most) / (double)f->rest,
                 lo = (double)(hk_real)sqrt(least) / (double)f->rest;
    pt->max = hi > pt->max ? hi : pt->max;
    pt->min = lo < pt->min ? lo : pt->min;
    return past_limit(l, most, least);
}

/* Sweep `sweep`'s look at lattice family lat[m] (fi), the task's share of its source rows: each row measured into pt
 * (one vectorised pass; a breakable family's spring by spring), and in a row past a limit every spring past it marks
 * its chain in dirty (hk_lattice_chain_of) for the sweep's projection. After the first sweep a row whose nodes
 * have not moved since the family's look before, and that was within the limits then, is not measured again: its
 * figures from then go into pt. */
void hk_limit_family_look(const limit_pass *s, const hk_team *tm, int m, int sweep, limit_part *pt, uint8_t *dirty)
{
    const int fi = s->lat[m];
    const hk_family *f = &s->fams[fi];
    const limits *l = &s->fam_limits[fi];
    const int ni = f->i1 - f->i0, nj = f->j1 - f->j0;
    if (ni <= 0) return;
    const int64_t since = hk_limit_look_number(s, sweep - 1, m); /* the family's look before */
    const int all =
        (sweep == 0 && !s->seen.kept) || f->broken || __atomic_load_n(&s->seen.lists, __ATOMIC_RELAXED) > since;
    const int64_t *moved = s->seen.moved + s->seen.rows[m], drow = f->dj + (int64_t)f->ny * f->dk;
    hk_real *const most = s->seen.most + s->seen.box[m], *const least = s->seen.least + s->seen.box[m];
    uint8_t *const past = s->seen.past + s->seen.box[m];
    const hk_look_family lf = look_family(f);
    hk_real big = 0, small = INFINITY; /* the rows' figures within the limits */
    int64_t r0, r1;
    hk_colour_share(tm, (int64_t)nj * (f->k1 - f->k0), (int64_t)ni * nj * (f->k1 - f->k0), 0, &r0, &r1);
    for (int64_t r = r0; r < r1; r++) {
        const int j = f->j0 + (int)(r % nj), k = f->k0 + (int)(r / nj);
        const int64_t row = j + (int64_t)f->ny * k, node = (int64_t)f->nx * row;
        const int same = !all && !past[r] && __atomic_load_n(&moved[row], __ATOMIC_RELAXED) <= since &&
                         __atomic_load_n(&moved[row + drow], __ATOMIC_RELAXED) <= since; /* as at its last look */
        if (!f->broken) {
            if (!same) {
                rows_measure(s, f->base + node, 1, f->nx, &lf, 1, &most[r], &least[r]);
                past[r] = (uint8_t)past_limit(l, most[r], least[r]);
            }
            if (!past[r]) {
                big = most[r] > big ? most[r] : big;
                small = least[r] < small ? least[r] : small;
                continue;
            }
            look_figures(f, l, most[r], least[r], pt);
        }
        for (int i = f->i0; i < f->i1; i++) {
            const int64_t slot = node + i, a = f->base + slot;
            if (f->broken && f->broken[slot]) continue;
            hk_real d[3];
            hk_spring_delta(f, s->p, slot, a, a + f->offset, d);
            const hk_real rr = hk_spring_length(d[0], d[1], d[2]);
            if (f->broken) {
                const double ratio = (double)rr / (double)f->rest;
                pt->max = ratio > pt->max ? ratio : pt->max;
                pt->min = ratio < pt->min ? ratio : pt->min;
            }
            if (!(rr > l->top) && !(rr < l->bottom)) continue;
            pt->over++;
            __atomic_store_n(&dirty[hk_lattice_chain_of(f, &s->c->chains[fi], i, j, k)], 1, __ATOMIC_RELAXED);
        }
    }
    const int past_any = look_figures(f, l, big, small, pt); /* (no such row: 0 and infinity, which change nothing) */
    HK_ASSERT(!past_any);
    (void)past_any;
}

/* The most lattice families of a body the first look measures in one pass over the rows. */
#define LOOK_FAMILIES 16

/* The first look at lattice families lat[g, e) of one body (at most LOOK_FAMILIES; their rows' positions read
 * from memory once for all of them), source rows [a, b) (j + ny k): the rows taken in runs within one k in which
 * the same families have sources, each run in one call of length2_rows, or row by row where the look keeps each
 * row's figures for the sweeps (seen.kept); a breakable family spring by spring. */
static void body_look(const limit_pass *s, int g, int e, int64_t a, int64_t b, limit_part *pt)
{
    const hk_family *f0 = &s->fams[s->lat[g]];
    hk_real most[LOOK_FAMILIES], least[LOOK_FAMILIES], rm[LOOK_FAMILIES], rl[LOOK_FAMILIES];
    for (int m = 0; m < e - g; m++) {
        most[m] = 0;
        least[m] = INFINITY;
    }
    for (int64_t row = a; row < b;) {
        const int k = (int)(row / f0->ny), j = (int)(row % f0->ny);
        int je = (int)((b < (int64_t)(k + 1) * f0->ny ? b : (int64_t)(k + 1) * f0->ny) - (int64_t)f0->ny * k);
        hk_look_family lf[LOOK_FAMILIES];
        int idx[LOOK_FAMILIES], n = 0;
        for (int m = g; m < e; m++) { /* the families with sources in row j, and where that changes */
            const hk_family *f = &s->fams[s->lat[m]];
            if (k < f->k0 || k >= f->k1 || f->i1 <= f->i0 || j >= f->j1) continue;
            if (j < f->j0) {
                je = f->j0 < je ? f->j0 : je;
                continue;
            }
            je = f->j1 < je ? f->j1 : je;
            if (!f->broken) {
                lf[n] = look_family(f);
                idx[n++] = m - g;
            }
        }
        const int64_t node = (int64_t)f0->nx * (j + (int64_t)f0->ny * k);
        const int span = s->seen.kept ? 1 : je - j; /* rows a call: one where each row's figures are kept */
        for (int jj = j; n > 0 && jj < je; jj += span) {
            rows_measure(s, f0->base + node + (int64_t)f0->nx * (jj - j), span, f0->nx, lf, n, rm, rl);
            for (int t = 0; t < n; t++) {
                most[idx[t]] = rm[t] > most[idx[t]] ? rm[t] : most[idx[t]];
                least[idx[t]] = rl[t] < least[idx[t]] ? rl[t] : least[idx[t]];
                if (!s->seen.kept) continue;
                const int m = g + idx[t];
                const hk_family *f = &s->fams[s->lat[m]];
                const int64_t r = s->seen.box[m] + (jj - f->j0) + (int64_t)(f->j1 - f->j0) * (k - f->k0);
                s->seen.most[r] = rm[t];
                s->seen.least[r] = rl[t];
                s->seen.past[r] = (uint8_t)past_limit(&s->fam_limits[s->lat[m]], rm[t], rl[t]);
            }
        }
        for (int m = g; m < e; m++) { /* a breakable family's springs one by one */
            const hk_family *f = &s->fams[s->lat[m]];
            if (!f->broken || k < f->k0 || k >= f->k1 || j < f->j0 || j >= f->j1) continue;
            for (int64_t r = node; r < node + (int64_t)f->nx * (je - j); r += f->nx)
                for (int i = f->i0; i < f->i1; i++)
                    limit_one(s, f, r + i, f->base + r + i, f->base + r + i + f->offset, f->rest,
                              &s->fam_limits[s->lat[m]], 0, pt);
        }
        row += je - j;
    }
    for (int m = g; m < e; m++) {
        const hk_family *f = &s->fams[s->lat[m]];
        if (!f->broken) /* (a family without rows here: 0 and infinity, which change nothing) */
            pt->over += look_figures(f, &s->fam_limits[s->lat[m]], most[m - g], least[m - g], pt);
    }
}

/* The first look at every lattice body with a limited family (limit_pass.h): each task its share of each body's
 * rows, the body's limited families LOOK_FAMILIES at a time. */
void hk_limit_bodies_look(const hk_team *tm, const limit_pass *s, limit_part *pt)
{
    const int *lat = s->lat;
    for (int g = 0; g < s->lat_count;) { /* a run of the limited lattice families of one body */
        int e = g + 1;
        while (e < s->lat_count && e - g < LOOK_FAMILIES && s->fams[lat[e]].body == s->fams[lat[g]].body) e++;
        const hk_family *f0 = &s->fams[lat[g]];
        int64_t a, b;
        hk_limit_task_share(tm, (int64_t)f0->ny * f0->nz, &a, &b);
        if (a < b) body_look(s, g, e, a, b, pt);
        g = e;
    }
}

/* The sweeps' memory of what they measured (limit_pass seen), in two blocks: each lattice body's rows with a limited
 * family (moved, none moved yet) with the index arrays, and each limited family's source rows (most, least,
 * past); 0, or -1 out of memory. */
int hk_limit_seen_new(limit_pass *s)
{
    int64_t rows = 0, box = 0;
    for (int m = 0; m < s->lat_count; m++) {
        const hk_family *f = &s->fams[s->lat[m]];
        if (m == 0 || f->body != s->fams[s->lat[m - 1]].body) rows += (int64_t)f->ny * f->nz;
        box += (int64_t)(f->j1 - f->j0) * (f->k1 - f->k0);
    }
    const size_t L = (size_t)s->lat_count;
    s->seen.moved = calloc((size_t)rows + 2 * L + 1, sizeof(int64_t));
    s->seen.most = malloc((size_t)box * (2 * sizeof(hk_real) + 1) + 1);
    if (!s->seen.moved || !s->seen.most) {
        free(s->seen.moved);
        free(s->seen.most);
        s->seen.moved = NULL;
        s->seen.most = NULL;
        return -1;
    }
    s->seen.rows = s->seen.moved + rows;
    s->seen.box = s->seen.rows + L;
    s->seen.least = s->seen.most + box;
    s->seen.past = (uint8_t *)(s->seen.least + box);
    rows = box = 0;
    for (int m = 0; m < s->lat_count; m++) {
        const hk_family *f = &s->fams[s->lat[m]];
        const hk_family *e = m > 0 ? &s->fams[s->lat[m - 1]] : f; /* the family before */
        if (e->body != f->body) rows += (int64_t)e->ny * e->nz;
        s->seen.rows[m] = rows;
        s->seen.box[m] = box;
        box += (int64_t)(f->j1 - f->j0) * (f->k1 - f->k0);
    }
    return 0;
}
