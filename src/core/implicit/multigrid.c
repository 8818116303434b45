/* multigrid.c — aggregation multigrid on lattice bodies: the levels, the K-cycle, the coarsest solve. */
/* SPDX-License-Identifier: MIT */
#include "multigrid.h"

#include <stdlib.h>
#include <string.h>

#include "mg_level.h"
#include "team.h"

static void level_free(mg_level *L)
{
    free(L->mem);
    free(L->dots);
}

/* A level of n[0] x n[1] x n[2] nodes holding the rows [wa, we), all arrays zero. */
static int level_init(mg_level *L, const int n[3], int wa, int we)
{
    memset(L, 0, sizeof *L);
    for (int d = 0; d < 3; d++) L->n[d] = n[d];
    L->sy = n[0];
    L->sz = (int64_t)n[0] * n[1];
    L->nodes = L->sz * n[2];
    L->wa = wa;
    L->we = we;
    for (int s = 0; s < 27; s++) L->slot[s] = -1;
    for (int k = -1; k <= 1; k++)
        for (int j = -1; j <= 1; j++)
            for (int i = -1; i <= 1; i++) {
                const int positive = k > 0 || (k == 0 && (j > 0 || (j == 0 && i > 0)));
                if (!positive || (i && n[0] == 1) || (j && n[1] == 1) || (k && n[2] == 1)) continue;
                L->off[L->noff][0] = i;
                L->off[L->noff][1] = j;
                L->off[L->noff][2] = k;
                L->loff[L->noff] = mg_node(L, i, j, k);
                L->slot[(i + 1) + 3 * (j + 1) + 9 * (k + 1)] = L->noff;
                if (L->loff[L->noff] > L->guard) L->guard = L->loff[L->noff];
                L->noff++;
            }
    L->guard += 1; /* past the farthest neighbour (a row and a node in 2-D, a plane, a row and a node in 3-D) */
    const int arrays = 12 + 6 * L->noff + 15;
    const size_t len = (size_t)((we - wa) * L->sy + 2 * L->guard);
    L->mem = calloc((size_t)arrays * len, sizeof(hk_real));
    if (!L->mem) return -1;
    /* node I at [I - wa sy] of its array: the held rows, between the guards */
    hk_real *next = L->mem + L->guard - wa * L->sy;
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
    if (b->nx < 1 || b->ny < 1 || nodes != b->total || nodes < HK_MG_MIN_NODES) return 0;
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
        free(mg->b[i].free_mem);
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
    B->first = hk_body_base(b); /* node 0's storage (a slab's window holds nodes [lo, hi) of the body) */
    B->lo = b->lo;
    B->hi = (int64_t)b->lo + b->count;
    B->n[0] = b->nx;
    B->n[1] = b->ny;
    B->n[2] = b->nz ? b->nz : 1;
    int n[3] = {B->n[0], B->n[1], B->n[2]}, levels = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        const int64_t off = f->offset < 0 ? -(int64_t)f->offset : f->offset;
        if (f->body == bi && f->kind == HK_FAMILY_LATTICE && off > B->guard) B->guard = off;
    }
    B->free_mem = calloc((size_t)(b->count + 2 * B->guard), sizeof *B->free);
    if (!B->free_mem) return -1;
    B->free = B->free_mem + B->guard - B->lo;
    B->lv = calloc(32, sizeof *B->lv);
    if (!B->lv) return -1;
    int all = 0; /* how many levels: halving until HK_MG_COARSEST nodes or one */
    for (int c[3] = {n[0], n[1], n[2]};;) {
        for (int d = 0; d < 3; d++) c[d] = (c[d] + 1) / 2;
        all++;
        if ((int64_t)c[0] * c[1] * c[2] <= HK_MG_COARSEST || (c[0] == 1 && c[1] == 1 && c[2] == 1)) break;
    }
    for (;;) {
        for (int d = 0; d < 3; d++) n[d] = (n[d] + 1) / 2;
        int wa = 0, we = n[1] * n[2]; /* the first level: a distributed run's rank holds its rows and their halo */
        if (levels == 0) hk_mg_level_window(w, B, n, all, &wa, &we);
        if (level_init(&B->lv[levels], n, wa, we) != 0) return -1;
        B->levels = ++levels;
        if (B->lv[levels - 1].nodes <= HK_MG_COARSEST || (n[0] == 1 && n[1] == 1 && n[2] == 1)) break;
    }
    if (hk_mg_windowed(w, B) && hk_mg_plan_halo(w, B) != 0) return -1; /* its halo's messages, from the start */
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
        const int k = im->own[i], g1 = im->block[2 * k + 1];
        double s = 0, sq = 0;
        for (int g = im->block[2 * k]; g < g1; g++) {
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
