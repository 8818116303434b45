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

/* This rank's messages of the rows beside its own on body B's first coarse
 * level (every rank's rows from its slab: hk_mg_own_rows); 0, or -1 out of memory. */
static int plan_level_halo(const hk_world *w, mg_body *B)
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
    B->nmsg = hk_part_plan_halo(pt, rows, L->n[2] > 1 ? L->n[1] + 1 : 1, 0, 0, L->sy, msg);
    B->msg_part = pt;
    free(rows);
    return 0;
}

/* Without memory for the messages, the whole level goes through a share instead. */
void hk_mg_level_halo(const hk_world *w, mg_body *B, hk_real *const *a, int n, int ra, int re)
{
    if (B->msg_part != w->part && plan_level_halo(w, B) != 0) {
        hk_mg_share_rows(w, &B->lv[0], a, n, ra, re);
        return;
    }
    hk_part_exchange_messages(w, B->msg, B->nmsg, a, n);
}
