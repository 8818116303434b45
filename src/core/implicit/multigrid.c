/* multigrid.c — aggregation multigrid on lattice bodies: Galerkin coarse levels, K-cycle, coarsest Cholesky. */
/* SPDX-License-Identifier: MIT */
#include "multigrid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mg_level.h"
#include "pairs.h"
#include "response.h"
#include "team.h"

static int64_t lin(const mg_level *L, int i, int j, int k) { return i + L->sy * j + L->sz * k; }

static void level_free(mg_level *L)
{
    free(L->mem);
    free(L->dots);
}

/* A level of n[0] x n[1] x n[2] nodes, all arrays zero. */
static int level_init(mg_level *L, const int n[3])
{
    memset(L, 0, sizeof *L);
    for (int d = 0; d < 3; d++) L->n[d] = n[d];
    L->sy = n[0];
    L->sz = (int64_t)n[0] * n[1];
    L->nodes = L->sz * n[2];
    L->guard = L->sz + L->sy + 1;
    for (int s = 0; s < 27; s++) L->slot[s] = -1;
    for (int k = -1; k <= 1; k++)
        for (int j = -1; j <= 1; j++)
            for (int i = -1; i <= 1; i++) {
                const int positive = k > 0 || (k == 0 && (j > 0 || (j == 0 && i > 0)));
                if (!positive || (i && n[0] == 1) || (j && n[1] == 1) || (k && n[2] == 1)) continue;
                L->off[L->noff][0] = i;
                L->off[L->noff][1] = j;
                L->off[L->noff][2] = k;
                L->loff[L->noff] = lin(L, i, j, k);
                L->slot[(i + 1) + 3 * (j + 1) + 9 * (k + 1)] = L->noff;
                L->noff++;
            }
    const int arrays = 12 + 6 * L->noff + 15;
    const size_t len = (size_t)(L->nodes + 2 * L->guard);
    L->mem = calloc((size_t)arrays * len, sizeof(hk_real));
    if (!L->mem) return -1;
    hk_real *next = L->mem + L->guard;
    for (int e = 0; e < 6; e++, next += len) L->d[e] = next;
    for (int e = 0; e < 6; e++, next += len) L->dinv[e] = next;
    for (int o = 0; o < L->noff; o++)
        for (int e = 0; e < 6; e++, next += len) L->c[o][e] = next;
    for (int c = 0; c < 3; c++, next += len) L->x[c] = next;
    for (int c = 0; c < 3; c++, next += len) L->b[c] = next;
    for (int c = 0; c < 3; c++, next += len) L->r[c] = next;
    for (int c = 0; c < 3; c++, next += len) L->k1[c] = next;
    for (int c = 0; c < 3; c++, next += len) L->k2[c] = next;
    hk_level_view *v = &L->view;
    for (int e = 0; e < 6; e++) {
        v->d[e] = L->d[e];
        v->dinv[e] = L->dinv[e];
        for (int o = 0; o < L->noff; o++) v->c[o][e] = L->c[o][e];
    }
    for (int o = 0; o < L->noff; o++) v->loff[o] = L->loff[o];
    v->noff = L->noff;
    for (int c = 0; c < 3; c++) {
        v->x[c] = L->x[c];
        v->b[c] = L->b[c];
        v->r[c] = L->r[c];
    }
    L->dots = malloc((size_t)(n[1] * n[2]) * MG_KRYLOV_SUMS * sizeof *L->dots);
    if (L->dots) return 0;
    free(L->mem);
    return -1;
}

/* The coarsest level's half bandwidth in unknowns: its couplings reach at
 * most this far from the diagonal (nodes in lattice order, 3 unknowns
 * each), and so do the entries of its Cholesky factor. */
static int64_t coarsest_band(const mg_level *L)
{
    int64_t most = 0;
    for (int o = 0; o < L->noff; o++) most = L->loff[o] > most ? L->loff[o] : most; /* loff > 0: half stencil */
    return 3 * most + 2;
}

/* Whether body bi is a lattice whose families all reach at most 2 nodes
 * along each axis (then aggregates of 2 are neighbours at most 1 apart). */
static int body_qualifies(const hk_world *w, int bi)
{
    const hk_body *b = &w->bodies[bi];
    const int64_t nodes = (int64_t)b->nx * b->ny * (b->nz ? b->nz : 1);
    if (b->nx < 1 || b->ny < 1 || nodes != b->count || nodes < HK_MG_MIN_NODES) return 0;
    int lattice = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != bi || f->kind != HK_FAMILY_LATTICE) continue;
        if (abs(f->di) > 2 || abs(f->dj) > 2 || abs(f->dk) > 2) return 0;
        lattice = 1;
    }
    return lattice;
}

void hk_mg_free(hk_mg *mg)
{
    if (!mg) return;
    for (int i = 0; i < mg->count; i++) {
        for (int l = 0; l < mg->b[i].levels; l++) level_free(&mg->b[i].lv[l]);
        free(mg->b[i].lv);
        if (mg->b[i].free) free(mg->b[i].free - mg->b[i].guard);
        free(mg->b[i].chol);
        free(mg->b[i].work);
        free(mg->b[i].msg);
    }
    free(mg->b);
    free(mg);
}

static int body_init(mg_body *B, const hk_world *w, int bi)
{
    const hk_body *b = &w->bodies[bi];
    B->body = bi;
    B->first = b->first;
    B->n[0] = b->nx;
    B->n[1] = b->ny;
    B->n[2] = b->nz ? b->nz : 1;
    int n[3] = {B->n[0], B->n[1], B->n[2]}, levels = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        const int64_t off = f->offset < 0 ? -(int64_t)f->offset : f->offset;
        if (f->body == bi && f->kind == HK_FAMILY_LATTICE && off > B->guard) B->guard = off;
    }
    B->free = calloc((size_t)(b->count + 2 * B->guard), sizeof *B->free);
    if (!B->free) return -1;
    B->free += B->guard;
    B->lv = calloc(32, sizeof *B->lv);
    if (!B->lv) return -1;
    for (;;) {
        for (int d = 0; d < 3; d++) n[d] = (n[d] + 1) / 2;
        if (level_init(&B->lv[levels], n) != 0) return -1;
        B->levels = ++levels;
        if (B->lv[levels - 1].nodes <= HK_MG_COARSEST || (n[0] == 1 && n[1] == 1 && n[2] == 1)) break;
    }
    const int64_t m = 3 * B->lv[levels - 1].nodes;
    B->band = coarsest_band(&B->lv[levels - 1]);
    B->chol = malloc((size_t)(m * m) * sizeof *B->chol);
    B->work = malloc((size_t)m * sizeof *B->work);
    return B->chol && B->work ? 0 : -1;
}

hk_mg *hk_mg_create(const hk_world *w)
{
    int count = 0;
    for (int bi = 0; bi < w->body_count; bi++) count += body_qualifies(w, bi);
    if (!count) return NULL;
    hk_mg *mg = calloc(1, sizeof *mg);
    if (!mg) return NULL;
    mg->b = calloc((size_t)count, sizeof *mg->b);
    if (!mg->b) {
        free(mg);
        return NULL;
    }
    for (int bi = 0; bi < w->body_count; bi++) {
        if (!body_qualifies(w, bi)) continue;
        if (body_init(&mg->b[mg->count++], w, bi) != 0) {
            hk_mg_free(mg);
            return NULL;
        }
    }
    return mg;
}

/* ---- building the coarse matrices (called by every thread of a team) ---- */

/* P^T C P of the colliders' contact blocks C (contact/response.h): each
 * free particle's block into its aggregate's diagonal, for the aggregates
 * [j0, j1) of body B on level 0, in particle order; then each particle's
 * share of its pairs' blocks (contact/pairs.h), alpha_i^2 B, without their
 * couplings: positive semi-definite in place of theirs in P^T C P, so the
 * cycle stays symmetric and positive definite. */
static void add_contacts(const hk_mg *mg, const hk_world *w, const mg_body *B, int64_t j0, int64_t j1)
{
    const int *particle, *active;
    const hk_contact_rec *rec;
    const int n = hk_contact_touching(w, &particle, &active, &rec);
    const mg_level *L = &B->lv[0];
    for (int k = 0; k < n; k++) {
        const int64_t l = particle[active[k]] - B->first;
        if (l < 0 || l >= w->bodies[B->body].count) continue;
        const int64_t i = l % B->n[0], j = l / B->n[0] % B->n[1], kk = l / ((int64_t)B->n[0] * B->n[1]);
        const int64_t J = i / 2 + L->sy * (j / 2) + L->sz * (kk / 2);
        if (J < j0 || J >= j1) continue;
        hk_real blk[6];
        hk_contact_block(&rec[active[k]], mg->sK, mg->sD, blk);
        for (int e = 0; e < 6; e++) L->d[e][J] += blk[e];
    }
    const hk_pairs *pr = hk_pairs_of(w); /* the pairs' diagonal terms alpha_i^2 B (their couplings left out) */
    for (int j = 0; pr && hk_contact_in_system(w) && j < pr->ninv; j++) {
        hk_real blk[6];
        const int64_t l = hk_pairs_diag(pr, j, mg->sK, mg->sD, blk) - B->first;
        if (l < 0 || l >= w->bodies[B->body].count) continue;
        const int64_t i = l % B->n[0], jj = l / B->n[0] % B->n[1], kk = l / ((int64_t)B->n[0] * B->n[1]);
        const int64_t J = i / 2 + L->sy * (jj / 2) + L->sz * (kk / 2);
        if (J < j0 || J >= j1) continue;
        for (int e = 0; e < 6; e++) L->d[e][J] += blk[e];
    }
}

static void hk_mg_begin(hk_mg *mg, const hk_team *tm, const hk_world *w)
{
    for (int bi = 0; bi < mg->count; bi++) {
        mg_body *B = &mg->b[bi];
        mg_level *L = &B->lv[0];
        int g0, gn;
        hk_team_range(tm, 0, w->bodies[B->body].count, &g0, &gn);
        for (int64_t l = g0; l < g0 + gn; l++) B->free[l] = w->p.inv_mass[B->first + l] != 0;
        int j0, jn;
        hk_team_range(tm, 0, (int)L->nodes, &j0, &jn);
        for (int e = 0; e < 6; e++) memset(L->d[e] + j0, 0, (size_t)jn * sizeof(hk_real));
        for (int o = 0; o < L->noff; o++)
            for (int e = 0; e < 6; e++) memset(L->c[o][e] + j0, 0, (size_t)jn * sizeof(hk_real));
        int fa, fe, ca, ce; /* the masses of this rank's aggregates */
        hk_mg_own_rows(w, B, &fa, &fe, &ca, &ce);
        hk_team_range(tm, (int)(ca * L->sy), (int)((ce - ca) * L->sy), &j0, &jn);
        for (int64_t J = j0; J < j0 + jn; J++) {
            const int ci = (int)(J % L->sy), cj = (int)(J / L->sy % L->n[1]), ck = (int)(J / L->sz);
            hk_real m = 0;
            for (int k = 2 * ck; k < 2 * ck + 2 && k < B->n[2]; k++)
                for (int j = 2 * cj; j < 2 * cj + 2 && j < B->n[1]; j++)
                    for (int i = 2 * ci; i < 2 * ci + 2 && i < B->n[0]; i++) {
                        const int64_t g = B->first + i + (int64_t)B->n[0] * (j + (int64_t)B->n[1] * k);
                        if (w->p.inv_mass[g] != 0) m += w->p.mass[g];
                    }
            L->d[0][J] = L->d[3][J] = L->d[5][J] = m;
        }
        add_contacts(mg, w, B, j0, j0 + jn);
    }
    hk_team_barrier(tm);
}

static mg_body *body_of(hk_mg *mg, int bi)
{
    for (int i = 0; i < mg->count; i++)
        if (mg->b[i].body == bi) return &mg->b[i];
    return NULL;
}

/* floor(x / 2) */
static int half_down(int x) { return x >= 0 ? x / 2 : -((1 - x) / 2); }

/* Where the partner at sgn d of a fine node of parity q (bit c: coordinate
 * c odd) lies among the aggregates, level C: -2 in the node's own
 * aggregate, else C's coupling slot of that aggregate's offset (-1: the
 * other half of the offsets, stored by that aggregate). */
static int partner_slot(const mg_level *C, int q, int sgn, const int d[3])
{
    int o[3];
    for (int c = 0; c < 3; c++) o[c] = half_down(((q >> c) & 1) + sgn * d[c]);
    return !o[0] && !o[1] && !o[2] ? -2 : C->slot[(o[0] + 1) + 3 * (o[1] + 1) + 9 * (o[2] + 1)];
}

/* How one end of a family's springs at a fine node of one parity enters
 * its aggregate's row: the block goes to the diagonal d unless the partner
 * is free and in the same aggregate (P^T S P = 0 there), and to the
 * coupling of slot u when the partner is free and its aggregate lies at a
 * stored offset (u < 0: the other aggregate stores it). */
typedef struct mg_end {
    int inside; /* the partner's aggregate is this one */
    int u;      /* the coupling it adds to, among the family's used ones, or -1 */
} mg_end;

/* A fine node's term into its aggregate row, for its spring block b as
 * one end of a spring, f and p the free flags (1 or 0) of the node and of
 * the partner: into the diagonal f (1 - p) b where the partner's aggregate
 * is the node's own (inside 1: P^T S P adds nothing there when both are
 * free), else f b (inside 0: f (1 - 0 p) = f exactly); into a coupling
 * f p b. */
static inline hk_real diag_term(hk_real f, hk_real p, hk_real inside, hk_real b) { return f * (1 - inside * p) * b; }
static inline hk_real coupling_term(hk_real f, hk_real p, hk_real b) { return f * p * b; }

/* Aggregate row (ci, j, k)'s terms of the fine row from row (nx nodes;
 * node l = 2 ci + qi of parity qi), each node as source (partner l + off)
 * and as target (partner l - off), added without tests: blocks are zero
 * outside the family's box and in the guards, fr is 0 for fixed nodes, so
 * a term that does not apply adds an exact zero. end: parity 0 as source
 * and as target, then parity 1's. Each sum takes its terms node by node
 * (2 ci before 2 ci + 1), each node's in end order: the diagonal's in one
 * loop, a coupling's in a loop of its own per end (two ends may share a
 * coupling), so the loops have no tests and run in vector lanes. */
static void add_fine_row(hk_real *const d[6], hk_real *const c[][6], hk_real *const blk[6], const hk_real *fr,
                         int64_t row, int64_t off, int nx, const mg_end end[4])
{
    const hk_real *restrict f = fr + row, *restrict fs = fr + row + off, *restrict ft = fr + row - off;
    const hk_real in0 = (hk_real)end[0].inside, in1 = (hk_real)end[1].inside;
    const hk_real in2 = (hk_real)end[2].inside, in3 = (hk_real)end[3].inside;
    const int64_t even = nx / 2, last = nx - 1; /* an odd row's last node: parity 0, alone in its aggregate */
    for (int e = 0; e < 6; e++) {
        const hk_real *restrict bs = blk[e] + row, *restrict bt = blk[e] + row - off;
        hk_real *restrict de = d[e];
        for (int64_t ci = 0; ci < even; ci++) {
            const int64_t l = 2 * ci, m = l + 1;
            hk_real v = de[ci];
            v += diag_term(f[l], fs[l], in0, bs[l]);
            v += diag_term(f[l], ft[l], in1, bt[l]);
            v += diag_term(f[m], fs[m], in2, bs[m]);
            v += diag_term(f[m], ft[m], in3, bt[m]);
            de[ci] = v;
        }
        if (nx & 1) {
            de[even] += diag_term(f[last], fs[last], in0, bs[last]);
            de[even] += diag_term(f[last], ft[last], in1, bt[last]);
        }
        for (int k = 0; k < 4; k++) {
            if (end[k].u < 0) continue;
            hk_real *restrict cu = c[end[k].u][e];
            const hk_real *restrict b = k & 1 ? bt : bs, *restrict p = k & 1 ? ft : fs;
            const int64_t q = k >> 1;
            for (int64_t ci = 0; ci < even; ci++) cu[ci] += coupling_term(f[2 * ci + q], p[2 * ci + q], b[2 * ci + q]);
            if ((nx & 1) && q == 0) cu[even] += coupling_term(f[last], p[last], b[last]);
        }
    }
}

static void hk_mg_add_family(hk_mg *mg, const hk_team *tm, const hk_world *w, int fi, hk_real *const blk[6])
{
    const hk_family *f = &w->families[fi];
    mg_body *B = body_of(mg, f->body);
    if (!B) return;
    mg_level *L = &B->lv[0];
    const int nx = B->n[0], ny = B->n[1], nz = B->n[2];
    const int d[3] = {f->di, f->dj, f->dk};
    /* per parity q of a fine node (bit c: coordinate c odd) and end (0: the
     * spring's source, partner at +d; 1: its target, partner at -d), where
     * the partner's aggregate lies; the couplings touched (at most a few)
     * numbered in order of first use */
    mg_end end[8][2];
    int used[MG_OFFSETS], nused = 0;
    for (int q = 0; q < 8; q++)
        for (int e = 0; e < 2; e++) {
            const int slot = partner_slot(L, q, e ? -1 : 1, d);
            end[q][e].inside = slot == -2;
            end[q][e].u = -1;
            if (slot < 0) continue;
            int u = 0;
            while (u < nused && used[u] != slot) u++;
            if (u == nused) used[nused++] = slot;
            end[q][e].u = u;
        }
    const int64_t off = f->offset;
    const hk_real *fr = B->free;
    /* aggregate rows split over the team; within a row, the fine nodes of
     * each aggregate in (k, j, i) order, each as source, then as target:
     * every sum keeps one order on any team */
    int fa, fe, ca, ce, r0, rn; /* this rank's aggregate rows */
    hk_mg_own_rows(w, B, &fa, &fe, &ca, &ce);
    hk_team_range(tm, ca, ce - ca, &r0, &rn);
    for (int cr = r0; cr < r0 + rn; cr++) {
        const int cj = cr % L->n[1], ck = cr / L->n[1];
        const int64_t J0 = (int64_t)cr * L->sy;
        hk_real *dr[6], *cr_[MG_OFFSETS][6];
        for (int e = 0; e < 6; e++) dr[e] = L->d[e] + J0;
        for (int u = 0; u < nused; u++)
            for (int e = 0; e < 6; e++) cr_[u][e] = L->c[used[u]][e] + J0;
        for (int qk = 0; qk < 2; qk++)
            for (int qj = 0; qj < 2; qj++) {
                const int j = 2 * cj + qj, k = 2 * ck + qk;
                if (j >= ny || k >= nz) continue;
                const int64_t row = (int64_t)nx * (j + (int64_t)ny * k);
                const int q = 2 * qj + 4 * qk;
                const mg_end ends[4] = {end[q][0], end[q][1], end[q + 1][0], end[q + 1][1]};
                add_fine_row(dr, cr_, blk, fr, row, off, nx, ends);
            }
    }
}

/* 0 if every coupling of level L between a node and a neighbour outside
 * the lattice is zero, read where coarsen reads it (the node's own
 * block, or its partner's place, a guard entry along j and k); else -1
 * with the first that is not in why. */
static int level_closed(const mg_level *L, int l, char *why, size_t len)
{
    for (int64_t I = 0; I < L->nodes; I++) {
        const int at[3] = {(int)(I % L->sy), (int)(I / L->sy % L->n[1]), (int)(I / L->sz)};
        for (int o = 0; o < L->noff; o++)
            for (int t = 0; t < 2; t++) {
                int out = 0;
                for (int c = 0; c < 3; c++) {
                    const int p = at[c] + (t ? -1 : 1) * L->off[o][c];
                    out |= p < 0 || p >= L->n[c];
                }
                const int64_t owner = t ? I - L->loff[o] : I;
                for (int e = 0; out && e < 6; e++)
                    if (L->c[o][e][owner] != 0) {
                        snprintf(why, len, "level %d: node (%d, %d, %d) couples to (%+d, %+d, %+d) outside: %g", l,
                                 at[0], at[1], at[2], (t ? -1 : 1) * L->off[o][0], (t ? -1 : 1) * L->off[o][1],
                                 (t ? -1 : 1) * L->off[o][2], (double)L->c[o][e][owner]);
                        return -1;
                    }
            }
    }
    return 0;
}

int hk_mg_check_levels(const hk_mg *mg, char *why, size_t len)
{
    for (int b = 0; mg && b < mg->count; b++)
        for (int l = 0; l < mg->b[b].levels; l++)
            if (level_closed(&mg->b[b].lv[l], l, why, len) != 0) return -1;
    return 0;
}

/* Where a coupling of a fine node of parity q (bit c: coordinate c odd)
 * enters its aggregate's row: the partner at sgn off[o] lies in the same
 * aggregate (the diagonal takes -c) or in the aggregate at a stored
 * offset of C (that coupling takes +c), or the coupling is another
 * aggregate's to store (nothing). */
typedef struct mg_into {
    int at;      /* the sum it adds to: C's coupling slot, C->noff the diagonal, -1 none (another's) */
    double sign; /* -1 for the diagonal, +1 for a coupling: the sum d - c is d + (-c) to the bit */
} mg_into;

/* Coarse nodes of a row that coarsen sums at once (its sums: 43 kB of
 * doubles on the stack in 3-D). */
#define MG_SEGMENT 64

/* Level c = P^T A P of level f: per aggregate, its fine nodes in (k, j, i)
 * order, each its diagonal block, then its couplings in offset order, each
 * as the block's owner, then as its partner, summed in double. A partner
 * outside the lattice adds an exact zero: a coupling to a node outside is
 * zero (levels are built so), and the guards are zero. The team takes
 * segments of MG_SEGMENT aggregates of a row, and each term goes to all of
 * a segment's sums at once (vector lanes, each aggregate's sums in the
 * order above). */
static void coarsen(const hk_team *tm, const mg_level *F, mg_level *C)
{
    const int diag = C->noff; /* the sums: C's couplings, then the diagonal */
    mg_into into[8][MG_OFFSETS][2];
    for (int q = 0; q < 8; q++)
        for (int o = 0; o < F->noff; o++)
            for (int t = 0; t < 2; t++) {
                const int s = partner_slot(C, q, t ? -1 : 1, F->off[o]);
                into[q][o][t] = s == -2 ? (mg_into){diag, -1.0} : (mg_into){s, 1.0}; /* s = -1: another's */
            }
    const int segments = (C->n[0] + MG_SEGMENT - 1) / MG_SEGMENT;
    int u0, un;
    hk_team_range(tm, 0, C->n[1] * C->n[2] * segments, &u0, &un);
    for (int u = u0; u < u0 + un; u++) {
        const int cr = u / segments, c0 = u % segments * MG_SEGMENT;
        const int cjj = cr % C->n[1], ckk = cr / C->n[1];
        const int cn = C->n[0] - c0 < MG_SEGMENT ? C->n[0] - c0 : MG_SEGMENT;
        double acc[MG_OFFSETS + 1][6][MG_SEGMENT];
        for (int a = 0; a <= diag; a++)
            for (int e = 0; e < 6; e++)
                for (int ci = 0; ci < cn; ci++) acc[a][e][ci] = 0;
        for (int k = 2 * ckk; k < 2 * ckk + 2 && k < F->n[2]; k++)
            for (int j = 2 * cjj; j < 2 * cjj + 2 && j < F->n[1]; j++)
                for (int qi = 0; qi < 2; qi++) {
                    const int i0 = 2 * c0 + qi; /* the segment's fine nodes i0 + 2 ci of this parity */
                    const int n = i0 >= F->n[0] ? 0 : (F->n[0] - i0 + 1) / 2 < cn ? (F->n[0] - i0 + 1) / 2 : cn;
                    const int q = qi | (j & 1) << 1 | (k & 1) << 2;
                    const int64_t I0 = lin(F, i0, j, k);
                    for (int e = 0; e < 6; e++) {
                        const hk_real *restrict src = F->d[e] + I0;
                        double *restrict a = acc[diag][e];
                        for (int ci = 0; ci < n; ci++) a[ci] += src[2 * ci];
                    }
                    for (int o = 0; o < F->noff; o++)
                        for (int t = 0; t < 2; t++) {
                            const mg_into in = into[q][o][t];
                            if (in.at < 0) continue;
                            const int64_t owner = t ? I0 - F->loff[o] : I0; /* the block's home */
                            for (int e = 0; e < 6; e++) {
                                const hk_real *restrict src = F->c[o][e] + owner;
                                double *restrict a = acc[in.at][e];
                                for (int ci = 0; ci < n; ci++) a[ci] += in.sign * src[2 * ci];
                            }
                        }
                }
        const int64_t J0 = (int64_t)cr * C->sy + c0;
        for (int e = 0; e < 6; e++)
            for (int ci = 0; ci < cn; ci++) C->d[e][J0 + ci] = (hk_real)acc[diag][e][ci];
        for (int o = 0; o < C->noff; o++)
            for (int e = 0; e < 6; e++)
                for (int ci = 0; ci < cn; ci++) C->c[o][e][J0 + ci] = (hk_real)acc[o][e][ci];
    }
}

/* dinv = the inverse of each node's diagonal block (0 where it is 0: an
 * aggregate of fixed particles only). */
static void invert_level(const hk_team *tm, mg_level *L)
{
    int j0, jn;
    hk_team_range(tm, 0, (int)L->nodes, &j0, &jn);
    for (int64_t J = j0; J < j0 + jn; J++) {
        const double a[6] = {L->d[0][J], L->d[1][J], L->d[2][J], L->d[3][J], L->d[4][J], L->d[5][J]};
        const double c00 = a[3] * a[5] - a[4] * a[4], c01 = a[2] * a[4] - a[1] * a[5], c02 = a[1] * a[4] - a[2] * a[3];
        const double c11 = a[0] * a[5] - a[2] * a[2], c12 = a[1] * a[2] - a[0] * a[4], c22 = a[0] * a[3] - a[1] * a[1];
        const double det = a[0] * c00 + a[1] * c01 + a[2] * c02;
        const double q = det > 0 ? 1 / det : 0;
        const double iv[6] = {c00 * q, c01 * q, c02 * q, c11 * q, c12 * q, c22 * q};
        for (int e = 0; e < 6; e++) L->dinv[e][J] = (hk_real)iv[e];
    }
}

/* The coarsest level's dense matrix, factored A = L L^T in place (lower
 * triangle, then L^T copied into the upper one); aggregates of fixed
 * particles get identity rows. The factor of a band matrix keeps its band:
 * the entries outside it are zeros, which the loops leave out. */
static void factor_coarsest(mg_body *B)
{
    const mg_level *L = &B->lv[B->levels - 1];
    const int64_t m = 3 * L->nodes, bw = B->band;
    double *A = B->chol;
    memset(A, 0, (size_t)(m * m) * sizeof *A);
    static const int row[6] = {0, 0, 0, 1, 1, 2}, col[6] = {0, 1, 2, 1, 2, 2};
    for (int64_t I = 0; I < L->nodes; I++) {
        const int ii = (int)(I % L->sy), ij = (int)(I / L->sy % L->n[1]), ik = (int)(I / L->sz);
        for (int e = 0; e < 6; e++) {
            A[(3 * I + row[e]) * m + 3 * I + col[e]] = L->d[e][I];
            A[(3 * I + col[e]) * m + 3 * I + row[e]] = L->d[e][I];
        }
        if (L->d[0][I] == 0 && L->d[3][I] == 0 && L->d[5][I] == 0)
            for (int c = 0; c < 3; c++) A[(3 * I + c) * m + 3 * I + c] = 1;
        for (int o = 0; o < L->noff; o++) {
            const int pi = ii + L->off[o][0], pj = ij + L->off[o][1], pk = ik + L->off[o][2];
            if (pi < 0 || pi >= L->n[0] || pj < 0 || pj >= L->n[1] || pk >= L->n[2]) continue;
            const int64_t J = lin(L, pi, pj, pk);
            for (int e = 0; e < 6; e++) {
                const double v = -L->c[o][e][I];
                A[(3 * I + row[e]) * m + 3 * J + col[e]] = v;
                A[(3 * I + col[e]) * m + 3 * J + row[e]] = v;
                A[(3 * J + row[e]) * m + 3 * I + col[e]] = v;
                A[(3 * J + col[e]) * m + 3 * I + row[e]] = v;
            }
        }
    }
    B->chol_ok = 1;
    for (int64_t j = 0; j < m; j++) {
        double s = A[j * m + j];
        for (int64_t p = j > bw ? j - bw : 0; p < j; p++) s -= A[j * m + p] * A[j * m + p];
        if (!(s > 0)) {
            B->chol_ok = 0;
            return;
        }
        const double djj = sqrt(s);
        A[j * m + j] = djj;
        for (int64_t i = j + 1; i < m && i <= j + bw; i++) {
            double t = A[i * m + j];
            for (int64_t p = i - bw > 0 ? i - bw : 0; p < j; p++) t -= A[i * m + p] * A[j * m + p];
            A[i * m + j] = t / djj;
        }
    }
    for (int64_t j = 0; j < m; j++) /* L^T in the upper triangle: L's columns as rows (solve_coarsest) */
        for (int64_t i = j + 1; i < m && i <= j + bw; i++) A[j * m + i] = A[i * m + j];
}

static void hk_mg_finish(hk_mg *mg, const hk_team *tm, const hk_world *w)
{
    hk_team_barrier(tm);
    if (w->part && tm->t == 0) /* a distributed run: every rank's aggregates, on every rank */
        for (int bi = 0; bi < mg->count; bi++) {
            mg_body *B = &mg->b[bi];
            mg_level *L = &B->lv[0];
            int fa, fe, ca, ce;
            hk_mg_own_rows(w, B, &fa, &fe, &ca, &ce);
            hk_mg_share_rows(w, L, L->d, 6, ca, ce);
            for (int o = 0; o < L->noff; o++) hk_mg_share_rows(w, L, L->c[o], 6, ca, ce);
        }
    hk_team_barrier(tm);
    for (int bi = 0; bi < mg->count; bi++) {
        mg_body *B = &mg->b[bi];
        for (int l = 0; l < B->levels; l++) {
            if (l > 0) {
                coarsen(tm, &B->lv[l - 1], &B->lv[l]);
                hk_team_barrier(tm); /* coarsen splits by row segments, invert_level by nodes */
            }
            invert_level(tm, &B->lv[l]);
            hk_team_barrier(tm);
        }
        if (tm->t == 0) factor_coarsest(B);
    }
    if (tm->t == 0) HK_VALIDATE(hk_mg_check_levels, mg); /* what coarsen relied on */
    hk_team_barrier(tm);
}

/* ---- the cycle ---- */

/* A level's rows [ra, re) as the nodes of a pass (hk_team_for counts from 0). */
typedef struct level_pass {
    const hk_kernels *k;
    mg_level *L;
    int64_t first; /* node ra * sy */
    int zero;      /* smooth: the first sweep (x = 0) */
} level_pass;

static void residual_share(void *ctx, int64_t a, int64_t e)
{
    const level_pass *lp = ctx;
    lp->k->level_residual(&lp->L->view, lp->first + a, lp->first + e);
}

/* r = b - A x on level L's rows [ra, re). */
static void residual(const hk_world *w, mg_level *L, int ra, int re)
{
    level_pass lp = {hk_system_kernels(w), L, ra * L->sy, 0};
    hk_team_for(w, level_team(w, L), (re - ra) * L->sy, residual_share, &lp);
}

static void smooth_share(void *ctx, int64_t a, int64_t e)
{
    const level_pass *lp = ctx;
    lp->k->level_smooth(&lp->L->view, (hk_real)MG_OMEGA, lp->zero, lp->first + a, lp->first + e);
}

/* x = (first ? 0 : x) + omega dinv (first ? b : r) on level L's rows [ra, re). */
static void smooth(const hk_world *w, mg_level *L, int first, int ra, int re)
{
    level_pass lp = {hk_system_kernels(w), L, ra * L->sy, first};
    hk_team_for(w, level_team(w, L), (re - ra) * L->sy, smooth_share, &lp);
}

/* C->b = P^T F->r over the aggregate rows [ca, ce) of C. */
static void restrict_level(const hk_world *w, const mg_level *F, mg_level *C, int ca, int ce)
{
    hk_mg_restrict_rows(w, level_team(w, F), F->n, (hk_real *const *)F->r, NULL, C->n, C->b, ca, ce);
}

/* F->x += P C->x over F's rows [fa, fe). */
static void prolong_level(const hk_world *w, mg_level *F, const mg_level *C, int fa, int fe)
{
    hk_mg_prolong_rows(w, level_team(w, F), F->n, F->x, C->n, (hk_real *const *)C->x, NULL, fa, fe);
}

/* x = A^-1 b on the coarsest level. */
static void solve_coarsest(const hk_world *w, mg_body *B)
{
    mg_level *L = &B->lv[B->levels - 1];
    if (!B->chol_ok) { /* not positive definite in float: smoothing only */
        smooth(w, L, 1, 0, all_rows_of(L));
        for (int s = 0; s < 8; s++) {
            residual(w, L, 0, all_rows_of(L));
            smooth(w, L, 0, 0, all_rows_of(L));
        }
        return;
    }
    const int64_t m = 3 * L->nodes, bw = B->band;
    const double *A = B->chol;
    double *y = B->work;
    /* L y = b by columns: y_i = (b_i - L_i0 y_0 - L_i1 y_1 - ...) / L_ii, each
     * y_i's terms taken in that order as by rows, the column of L (a row of
     * the upper triangle, L^T) subtracted from all the y below at once */
    for (int64_t i = 0; i < m; i++) y[i] = L->b[i % 3][i / 3];
    for (int64_t p = 0; p < m; p++) {
        const double yp = y[p] / A[p * m + p];
        y[p] = yp;
        const double *restrict col = A + p * m;
        double *restrict below = y;
        const int64_t end = p + bw + 1 < m ? p + bw + 1 : m;
        for (int64_t i = p + 1; i < end; i++) below[i] -= col[i] * yp;
    }
    for (int64_t i = m - 1; i >= 0; i--) {
        double s = y[i];
        const int64_t end = i + bw + 1 < m ? i + bw + 1 : m;
        for (int64_t p = i + 1; p < end; p++) s -= A[i * m + p] * y[p]; /* L_pi, from L^T */
        y[i] = s / A[i * m + i];
    }
    for (int64_t i = 0; i < m; i++) L->x[i % 3][i / 3] = (hk_real)y[i];
}

static void cycle(const hk_world *w, mg_body *B, int l, const int *own);

/* x = the K-cycle's correction on level c for its right-hand side b: one
 * or two steps of flexible conjugate gradients, each preconditioned by the
 * cycle below (mg_krylov.c). Plain aggregation loses accuracy level by
 * level; the Krylov steps restore it at about the cost of a W-cycle
 * (docs/performance-notes.md, "The multigrid preconditioner"). */
static void coarse_correction(const hk_world *w, mg_body *B, int c)
{
    mg_level *C = &B->lv[c];
    cycle(w, B, c, NULL);
    if (c == B->levels - 1) return; /* the exact solve */
    residual(w, C, 0, all_rows_of(C));
    mg_krylov k;
    if (!hk_mg_krylov_first(w, C, &k)) return;
    cycle(w, B, c, NULL);
    residual(w, C, 0, all_rows_of(C));
    hk_mg_krylov_second(w, C, &k);
}

/* x = B_l b on level l: smoothing from x = 0 and after the coarse
 * correction. On the first coarse level of a
 * distributed run (own set) each rank smooths its own rows [own[0],
 * own[1]) and restricts them, receiving x in the rows beside its own before
 * each residual (which reads them) and sharing the restricted right-hand
 * side; the levels below run on every rank. */
static void cycle(const hk_world *w, mg_body *B, int l, const int *own)
{
    if (l == B->levels - 1) {
        solve_coarsest(w, B);
        return;
    }
    mg_level *L = &B->lv[l], *C = &B->lv[l + 1];
    const int ra = own ? own[0] : 0, re = own ? own[1] : all_rows_of(L);
    int ca = 0, ce = all_rows_of(C);
    if (own) hk_mg_coarse_rows(L->n, C->n, ra, re, &ca, &ce);
    for (int s = 0; s < MG_SWEEPS; s++) {
        if (s > 0) {
            if (own) hk_mg_level_halo(w, B, L->x, 3, ra, re);
            residual(w, L, ra, re);
        }
        smooth(w, L, s == 0, ra, re);
    }
    if (own) hk_mg_level_halo(w, B, L->x, 3, ra, re);
    residual(w, L, ra, re);
    restrict_level(w, L, C, ca, ce);
    if (own) hk_mg_share_rows(w, C, C->b, 3, ca, ce);
    coarse_correction(w, B, l + 1);
    prolong_level(w, L, C, ra, re);
    for (int s = 0; s < MG_SWEEPS; s++) {
        if (own) hk_mg_level_halo(w, B, L->x, 3, ra, re);
        residual(w, L, ra, re);
        smooth(w, L, 0, ra, re);
    }
}

/* The fine level's passes: the smoother, given tmp = A z. */
typedef struct fine_pass {
    hk_implicit *im;
    hk_real *const *tmp;
} fine_pass;

static void fine_smooth_blocks(void *ctx, int64_t i0, int64_t i1)
{
    const fine_pass *fp = ctx;
    const hk_implicit *im = fp->im;
    const hk_real om = (hk_real)MG_OMEGA;
    hk_real *const *iv = im->inv, *const *z = im->v[HK_SYS_Z], *const *r = im->v[HK_SYS_R], *const *tmp = fp->tmp;
    hk_real *const *q = im->v[HK_SYS_Q];
    const int nb = im->block_count;
    for (int64_t i = i0; i < i1; i++) {
        const int k = im->own[i], g1 = im->block[k + 1];
        double s = 0, sq = 0;
        for (int g = im->block[k]; g < g1; g++) {
            const hk_real a = r[0][g] - tmp[0][g], b = r[1][g] - tmp[1][g], c = r[2][g] - tmp[2][g];
            z[0][g] += om * (iv[0][g] * a + iv[1][g] * b + iv[2][g] * c);
            z[1][g] += om * (iv[1][g] * a + iv[3][g] * b + iv[4][g] * c);
            z[2][g] += om * (iv[2][g] * a + iv[4][g] * b + iv[5][g] * c);
            s += (double)r[0][g] * z[0][g] + (double)r[1][g] * z[1][g] + (double)r[2][g] * z[2][g];
            sq += (double)q[0][g] * z[0][g] + (double)q[1][g] * z[1][g] + (double)q[2][g] * z[2][g];
        }
        im->partial[k] = s;
        im->partial[nb + k] = sq;
    }
}

/* z += omega inv (r - tmp), tmp = A z (omega inv: the fine smoother);
 * returns r . z and sets *zq = z . q, summed in the fixed blocks of
 * hk_system_dot. */
static double fine_smooth(hk_world *w, hk_implicit *im, hk_real *const tmp[3], double *zq)
{
    fine_pass fp = {im, tmp};
    hk_team_for(w, hk_team_of(w, w->p.count), im->own_count, fine_smooth_blocks, &fp);
    double out[2];
    hk_system_reduce(w, im, im->partial, 2, 0, out);
    *zq = out[1];
    return out[0];
}

hk_real hk_mg_omega(void) { return (hk_real)MG_OMEGA; }

double hk_mg_precondition(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, hk_real *const tmp[3], double *zq)
{
    hk_mg *mg = im->mg;
    hk_real *const *z = im->v[HK_SYS_Z];
    hk_real *const *r = im->v[HK_SYS_R];
    /* pre-smoothing: z = omega inv r, done */
    hk_system_apply(w, im, sK, sD, 1, z, tmp);
    for (int bi = 0; bi < mg->count; bi++) {
        mg_body *B = &mg->b[bi];
        mg_level *L = &B->lv[0];
        /* restrict the fine residual r - A z to the aggregates (fixed particles' entries are 0) */
        hk_real *const rb[3] = {r[0] + B->first, r[1] + B->first, r[2] + B->first};
        hk_real *const tb[3] = {tmp[0] + B->first, tmp[1] + B->first, tmp[2] + B->first};
        hk_real *const zb[3] = {z[0] + B->first, z[1] + B->first, z[2] + B->first};
        int fa, fe, ca, ce; /* a distributed run: this rank's aggregates, then every rank's */
        hk_mg_own_rows(w, B, &fa, &fe, &ca, &ce);
        hk_mg_restrict_rows(w, level_team(w, L), B->n, rb, tb, L->n, L->b, ca, ce);
        const int own[2] = {ca, ce};
        if (w->part && B->levels == 1) /* the coarsest level: solved on every rank */
            hk_mg_share_rows(w, L, L->b, 3, ca, ce);
        cycle(w, B, 0, w->part && B->levels > 1 ? own : NULL);
        /* prolong to the free particles */
        hk_mg_prolong_rows(w, hk_world_team(w), B->n, zb, L->n, L->x, B->free, fa, fe);
    }
    hk_system_apply(w, im, sK, sD, 1, z, tmp);
    return fine_smooth(w, im, tmp, zq);
}

static void hook_begin(void *mg, const hk_team *tm, const hk_world *w) { hk_mg_begin(mg, tm, w); }
static void hook_family(void *mg, const hk_team *tm, const hk_world *w, int fi, hk_real *const blk[6])
{
    hk_mg_add_family(mg, tm, w, fi, blk);
}
static void hook_finish(void *mg, const hk_team *tm, const hk_world *w) { hk_mg_finish(mg, tm, w); }

hk_block_hooks hk_mg_hooks(hk_mg *mg, hk_real sK, hk_real sD)
{
    mg->sK = sK;
    mg->sD = sD;
    return (hk_block_hooks){hook_begin, hook_family, hook_finish, mg};
}
