/* pair_check.c — the contact pairs' invariants checked: order, uniqueness, indices, no topological neighbours. */
/* SPDX-License-Identifier: MIT */
#include "pair_check.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pair_search.h"

/* Whether pair pa joins topological neighbours of one body: a particle and a triangle's corner, or two edges' ends,
 * or two particles, as the searches leave them out. */
static int joins_neighbours(const hk_world *w, const hk_pairs *pr, const hk_pair *pa)
{
    const int split = pa->kind == HK_PAIR_VT ? 1 : 2, nc = hk_pair_corners(pa);
    for (int a = 0; a < split; a++)
        for (int c = split; c < nc; c++) {
            const int b = hk_body_of(w, pa->p[a]);
            if (b == hk_body_of(w, pa->p[c]) && hk_pairs_neighbours(w, pr, b, pa->p[a], pa->p[c])) return 1;
        }
    return 0;
}

int hk_pairs_validate(const hk_world *w, const hk_pairs *pr, char *why, size_t len)
{
    const int n = w->p.count;
    for (int64_t k = 0; k < pr->npair; k++) {
        const hk_pair *pa = &pr->pair[k];
        if (pa->kind != HK_PAIR_VT && pa->kind != HK_PAIR_EE && pa->kind != HK_PAIR_PP) {
            snprintf(why, len, "pair %" PRId64 " of kind %d", k, (int)pa->kind);
            return -1;
        }
        for (int c = 0; c < 4; c++)
            if (pa->p[c] < 0 || pa->p[c] >= n) {
                snprintf(why, len, "pair %" PRId64 ": particle %d out of [0, %d)", k, (int)pa->p[c], n);
                return -1;
            }
        if (pa->kind == HK_PAIR_PP && !(pa->p[0] < pa->p[1] && pa->p[2] == pa->p[1] && pa->p[3] == pa->p[1])) {
            snprintf(why, len, "particle pair %" PRId64 " is not (a, b, b, b) with a < b", k);
            return -1;
        }
        if (joins_neighbours(w, pr, pa)) {
            snprintf(why, len, "pair %" PRId64 " (kind %d, particles %d %d %d %d) joins topological neighbours", k,
                     (int)pa->kind, (int)pa->p[0], (int)pa->p[1], (int)pa->p[2], (int)pa->p[3]);
            return -1;
        }
        if (k > 0 && hk_pair_order(&pr->pair[k - 1], pa) >= 0) {
            snprintf(why, len, "pairs %" PRId64 " and %" PRId64 " out of order or the same", k - 1, k);
            return -1;
        }
    }
    for (int64_t k = 0; k < pr->npair; k++) { /* then the corners' places, which follow the pairs */
        const hk_pair *pa = &pr->pair[k];
        for (int c = 0; c < 4; c++) {
            const int32_t at = pr->at[4 * k + c];
            if (at < 0 || at >= pr->ninv || pr->inv[at] != pa->p[c]) {
                snprintf(why, len, "pair %" PRId64 " corner %d: its place %d among the pairs' particles is wrong", k, c,
                         (int)at);
                return -1;
            }
        }
    }
    for (int j = 1; j < pr->ninv; j++)
        if (!(pr->inv[j - 1] < pr->inv[j])) {
            snprintf(why, len, "the pairs' particles %d and %d are not ascending", j - 1, j);
            return -1;
        }
    return 0;
}

int hk_pairs_validate_selection(const hk_pairs *pr, char *why, size_t len)
{
    double *b = malloc(((size_t)pr->nq + 1) * sizeof *b), *m = malloc(((size_t)pr->nq + 1) * sizeof *m);
    if (!b || !m) {
        free(b), free(m);
        snprintf(why, len, "out of memory for the check of the step's pairs");
        return -1;
    }
    for (int i = 0; i < pr->nq; i++) {
        b[i] = g_max(0, pr->b[i] - 1e-6 * pr->th);
        m[i] = hk_pairs_from_cand(pr, i, pr->qm + 3 * (int64_t)i) + b[i];
    }
    int64_t k = 0;
    for (; k < pr->ncand; k++) {
        const hk_pair *pa = &pr->cand[k];
        if (pr->sel[k] == 0 && hk_pairs_meet_within(pr, pr->qm, pa, sqrt(hk_pairs_gap2_at(pr->qm, pa)), b, b) &&
            hk_pairs_meet_within(pr, pr->qm, pa, pr->cd[k], m, b))
            break;
    }
    free(b), free(m);
    if (k == pr->ncand) return 0;
    const hk_pair *pa = &pr->cand[k];
    snprintf(why, len,
             "candidate %" PRId64 " (kind %d, particles %d %d %d %d) is left out of the step's pairs but can come "
             "within the thickness in the step",
             k, (int)pa->kind, (int)pa->p[0], (int)pa->p[1], (int)pa->p[2], (int)pa->p[3]);
    return -1;
}
