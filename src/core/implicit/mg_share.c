/* mg_share.c — the multigrid over MPI ranks: the rows a rank computes, the shared levels, the halo of the first one. */
/* SPDX-License-Identifier: MIT */
#include "mg_level.h"

#include <stdlib.h>

void hk_mg_coarse_rows(const int n[3], const int cn[3], int lo, int hi, int *ca, int *ce)
{
    if (n[2] > 1) {
        *ca = cn[1] * (lo / n[1] / 2);
        *ce = cn[1] * ((hi / n[1] + 1) / 2);
    } else {
        *ca = lo / 2;
        *ce = (hi + 1) / 2;
    }
}

void hk_mg_own_rows(const hk_world *w, const mg_body *B, int *fa, int *fe, int *ca, int *ce)
{
    int lo = 0, hi = B->n[1] * B->n[2];
    if (!hk_part_rows(w, B->body, &lo, &hi, NULL) && !hk_part_computes(w, B->body)) lo = hi = 0;
    *fa = lo;
    *fe = hi;
    hk_mg_coarse_rows(B->n, B->lv[0].n, lo, hi, ca, ce);
}

void hk_mg_share_rows(const hk_world *w, const mg_level *L, hk_real *const *a, int n, int ca, int ce)
{
    const int64_t rows = (int64_t)L->n[1] * L->n[2];
    for (int q = 0; q < n; q++) {
        for (int64_t I = 0; I < ca * L->sy; I++) a[q][I] = (hk_real)-0.0;
        for (int64_t I = ce * L->sy; I < rows * L->sy; I++) a[q][I] = (hk_real)-0.0;
        hk_part_share_reals(w, a[q], L->nodes);
    }
}

/* The rows of aggregates a halo holds beside a rank's on a level of cn nodes: the couplings reach one aggregate
 * along j and k, a row (a plane and a row in 3-D). */
static int halo_rows(const int cn[3]) { return cn[2] > 1 ? cn[1] + 1 : 1; }

void hk_mg_level_window(const hk_world *w, const mg_body *B, const int cn[3], int levels, int *wa, int *we)
{
    const int rows = cn[1] * cn[2];
    *wa = 0;
    *we = rows;
    if (!w->part || levels <= 1) return; /* one process, or the coarsest level: solved whole on every rank */
    int lo = 0, hi = B->n[1] * B->n[2], ca, ce;
    if (!hk_part_rows(w, B->body, &lo, &hi, NULL) && !hk_part_computes(w, B->body)) lo = hi = 0;
    hk_mg_coarse_rows(B->n, cn, lo, hi, &ca, &ce);
    if (ca >= ce) { /* none of it here: no rows */
        *wa = *we = 0;
        return;
    }
    const int h = halo_rows(cn);
    *wa = ca - h > 0 ? ca - h : 0;
    *we = ce + h < rows ? ce + h : rows;
}

int hk_mg_plan_halo(const hk_world *w, mg_body *B)
{
    const struct hk_part *pt = w->part;
    const mg_level *L = &B->lv[0];
    int *rows = malloc(((size_t)pt->ranks + 1) * sizeof *rows);
    hk_halo_msg *msg = malloc(2 * (size_t)pt->ranks * sizeof *msg);
    if (!rows || !msg) {
        free(rows);
        free(msg);
        return -1;
    }
    const hk_part_body *pb = &pt->body[B->body];
    for (int r = 0; r <= pt->ranks; r++) {
        int ce;
        if (pb->owner >= 0) /* whole: the owner's rows are all of them */
            rows[r] = r <= pb->owner ? 0 : all_rows_of(L);
        else if (pb->rows[r] >= B->n[1] * B->n[2]) /* past the last row: the partial aggregates included */
            rows[r] = all_rows_of(L);
        else
            hk_mg_coarse_rows(B->n, L->n, pb->rows[r], pb->rows[r], &rows[r], &ce);
    }
    free(B->msg);
    B->msg = msg;
    /* the couplings reach one aggregate along j and k: a row, or a plane and a row */
    B->nmsg = hk_part_plan_halo(pt, rows, halo_rows(L->n), 0, 0, L->sy, msg);
    B->msg_part = pt;
    free(rows);
    return 0;
}

/* Without memory for the messages, a level held whole goes through a share instead (a level held in part has its
 * messages from the start: hk_mg_create). */
void hk_mg_level_halo(const hk_world *w, mg_body *B, hk_real *const *a, int n, int ra, int re)
{
    if (B->msg_part != w->part && hk_mg_plan_halo(w, B) != 0) {
        hk_mg_share_rows(w, &B->lv[0], a, n, ra, re);
        return;
    }
    hk_part_exchange_messages(w, B->msg, B->nmsg, a, n);
}
