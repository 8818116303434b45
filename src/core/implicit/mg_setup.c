/* mg_setup.c — the multigrid's coarse matrices P^T A P from the system's blocks, the coarsest Cholesky factor. */
/* SPDX-License-Identifier: MIT */
#include "multigrid.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mg_level.h"
#include "pairs.h"
#include "response.h"
#include "team.h"

/* The first level's aggregate of body B's node l (its index in the body). */
static int64_t aggregate_of(const mg_body *B, int64_t l)
{
    const int64_t i = l % B->n[0], j = l / B->n[0] % B->n[1], k = l / ((int64_t)B->n[0] * B->n[1]);
    return mg_node(&B->lv[0], (int)(i / 2), (int)(j / 2), (int)(k / 2));
}

/* P^T C P of the colliders' contact blocks C (contact/response.h): each
 * free particle's block into its aggregate's diagonal, for the aggregates
 * [j0, j1) of body B on level 0, in particle order; then each particle's
 * share of its pairs' blocks bounded (contact/pairs.h hk_pairs_diag),
 * |alpha_i| sum_c |alpha_c| B, without their couplings: at least theirs in
 * P^T C P, so the cycle stays symmetric, positive definite and convergent. */
static void add_contacts(const hk_mg *mg, const hk_world *w, const mg_body *B, int64_t j0, int64_t j1)
{
    const int *particle, *active;
    const hk_contact_rec *rec;
    const int n = hk_contact_touching(w, &particle, &active, &rec);
    const mg_level *L = &B->lv[0];
    for (int k = 0; k < n; k++) {
        const int64_t l = particle[active[k]] - B->first;
        if (l < B->lo || l >= B->hi) continue;
        const int64_t J = aggregate_of(B, l);
        if (J < j0 || J >= j1) continue;
        hk_real blk[6];
        hk_contact_block(&rec[active[k]], mg->sK, mg->sD, blk);
        for (int e = 0; e < 6; e++) L->d[e][J] += blk[e];
    }
    const hk_pairs *pr = hk_pairs_of(w); /* the pairs' diagonal terms bounded (their couplings left out) */
    for (int j = 0; hk_contact_in_system(w) && j < hk_pairs_particles(pr); j++) {
        hk_real blk[6];
        const int64_t l = hk_pairs_diag(pr, j, mg->sK, mg->sD, 1, blk) - B->first;
        if (l < B->lo || l >= B->hi) continue;
        const int64_t J = aggregate_of(B, l);
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
        hk_team_range(tm, (int)B->lo, (int)(B->hi - B->lo), &g0, &gn);
        for (int64_t l = g0; l < g0 + gn; l++) B->free[l] = w->p.inv_mass[B->first + l] != 0;
        int j0, jn; /* the nodes held */
        hk_team_range(tm, (int)(L->wa * L->sy), (int)((L->we - L->wa) * L->sy), &j0, &jn);
        for (int e = 0; e < 6; e++) memset(L->d[e] + j0, 0, (size_t)jn * sizeof(hk_real));
        for (int o = 0; o < L->noff; o++)
            for (int e = 0; e < 6; e++) memset(L->c[o][e] + j0, 0, (size_t)jn * sizeof(hk_real));
        hk_team_barrier(tm); /* zeroed before the masses, which the team shares out otherwise (a rank's rows) */
        int fa, fe, ca, ce;  /* the masses of this rank's aggregates */
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
    for (int64_t I = L->wa * L->sy; I < L->we * L->sy; I++) { /* the nodes held (a halo's partner: a zero guard) */
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

/* Level c = P^T A P of level f over c's rows [ca, ce): per aggregate, its
 * fine nodes in (k, j, i)
 * order, each its diagonal block, then its couplings in offset order, each
 * as the block's owner, then as its partner, summed in double. A partner
 * outside the lattice adds an exact zero: a coupling to a node outside is
 * zero (levels are built so), and the guards are zero. The team takes
 * segments of MG_SEGMENT aggregates of a row, and each term goes to all of
 * a segment's sums at once (vector lanes, each aggregate's sums in the
 * order above). */
static void coarsen(const hk_team *tm, const mg_level *F, mg_level *C, int ca, int ce)
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
    hk_team_range(tm, ca * segments, (ce - ca) * segments, &u0, &un);
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
                    const int64_t I0 = mg_node(F, i0, j, k);
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
    int j0, jn; /* the nodes held */
    hk_team_range(tm, (int)(L->wa * L->sy), (int)((L->we - L->wa) * L->sy), &j0, &jn);
    for (int64_t J = j0; J < j0 + jn; J++) {
        const double a[6] = {L->d[0][J], L->d[1][J], L->d[2][J], L->d[3][J], L->d[4][J], L->d[5][J]};
        double c[6];
        const double det = hk_sym3_cofactors(a, c), q = det > 0 ? 1 / det : 0;
        for (int e = 0; e < 6; e++) L->dinv[e][J] = (hk_real)(c[e] * q);
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
            const int64_t J = mg_node(L, pi, pj, pk);
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

/* Level L's 6 + 6 noff arrays of its matrix (d, then each coupling's) in a. */
static int matrix_arrays(mg_level *L, hk_real **a)
{
    int n = 0;
    for (int e = 0; e < 6; e++) a[n++] = L->d[e];
    for (int o = 0; o < L->noff; o++)
        for (int e = 0; e < 6; e++) a[n++] = L->c[o][e];
    return n;
}

/* A distributed run (one thread calls it): the first level's rows beside this rank's, from the ranks that
 * computed them (held in part), or every rank's rows on every rank (held whole: the coarsest). */
static void share_first(const hk_world *w, mg_body *B)
{
    mg_level *L = &B->lv[0];
    hk_real *a[6 + 6 * MG_OFFSETS];
    const int n = matrix_arrays(L, a);
    int fa, fe, ca, ce;
    hk_mg_own_rows(w, B, &fa, &fe, &ca, &ce);
    if (hk_mg_windowed(w, B))
        hk_mg_level_halo(w, B, a, n, ca, ce);
    else
        hk_mg_share_rows(w, L, a, n, ca, ce);
}

/* The rows of body B's second level that this rank computes: those above its rows of the first (whole
 * aggregates: a distributed run cuts on them, hk_part_unit_rows), or all of them. */
static void second_rows(const hk_world *w, const mg_body *B, int *ca, int *ce)
{
    *ca = 0;
    *ce = all_rows_of(&B->lv[1]);
    if (!hk_mg_windowed(w, B)) return;
    int fa, fe, ra, re;
    hk_mg_own_rows(w, B, &fa, &fe, &ra, &re);
    hk_mg_coarse_rows(B->lv[0].n, B->lv[1].n, ra, re, ca, ce);
    if (ra >= re) *ca = *ce = 0;
}

static void hk_mg_finish(hk_mg *mg, const hk_team *tm, const hk_world *w)
{
    hk_team_barrier(tm);
    if (w->part && tm->t == 0)
        for (int bi = 0; bi < mg->count; bi++) share_first(w, &mg->b[bi]);
    hk_team_barrier(tm);
    for (int bi = 0; bi < mg->count; bi++) {
        mg_body *B = &mg->b[bi];
        for (int l = 0; l < B->levels; l++) {
            if (l > 0) {
                /* the second level from a first held in part: each rank its rows, then shared */
                int ca = 0, ce = all_rows_of(&B->lv[l]);
                if (l == 1) second_rows(w, B, &ca, &ce);
                coarsen(tm, &B->lv[l - 1], &B->lv[l], ca, ce);
                hk_team_barrier(tm); /* coarsen splits by row segments, invert_level by nodes */
                if (l == 1 && hk_mg_windowed(w, B)) {
                    if (tm->t == 0) {
                        hk_real *a[6 + 6 * MG_OFFSETS];
                        const int n = matrix_arrays(&B->lv[1], a);
                        hk_mg_share_rows(w, &B->lv[1], a, n, ca, ce);
                    }
                    hk_team_barrier(tm);
                }
            }
            invert_level(tm, &B->lv[l]);
            hk_team_barrier(tm);
        }
        if (tm->t == 0) factor_coarsest(B);
    }
    if (tm->t == 0) HK_VALIDATE(hk_mg_check_levels, mg); /* what coarsen relied on */
    hk_team_barrier(tm);
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
