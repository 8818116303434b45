/* mg_transfer.c — the multigrid's grid transfers: restriction to the aggregates and prolongation back. */
/* SPDX-License-Identifier: MIT */
#include "mg_level.h"

/* A transfer between a lattice of n nodes and its aggregates' of cn. */
typedef struct transfer_pass {
    const int *n, *cn;
    hk_real *const *dst, *const *src, *const *sub;
    const hk_real *keep;
    int64_t first; /* the first row */
} transfer_pass;

static void restrict_share(void *ctx, int64_t a, int64_t e)
{
    const transfer_pass *tp = ctx;
    const int *n = tp->n, *cn = tp->cn;
    for (int cr = (int)(tp->first + a); cr < tp->first + e; cr++) {
        const int cj = cr % cn[1], ck = cr / cn[1], even = n[0] / 2;
        for (int c = 0; c < 3; c++) {
            hk_real *restrict d = tp->dst[c] + (int64_t)cr * cn[0];
            for (int ci = 0; ci < cn[0]; ci++) d[ci] = 0;
            for (int k = 2 * ck; k < 2 * ck + 2 && k < n[2]; k++)
                for (int j = 2 * cj; j < 2 * cj + 2 && j < n[1]; j++) {
                    const int64_t at = (int64_t)n[0] * (j + (int64_t)n[1] * k);
                    const hk_real *restrict row = tp->src[c] + at;
                    if (tp->sub) { /* row - sub, rounded as a vector of its own would be */
                        const hk_real *restrict sb = tp->sub[c] + at;
                        for (int ci = 0; ci < even; ci++) {
                            d[ci] += row[2 * ci] - sb[2 * ci];
                            d[ci] += row[2 * ci + 1] - sb[2 * ci + 1];
                        }
                        if (n[0] & 1) d[even] += row[n[0] - 1] - sb[n[0] - 1];
                        continue;
                    }
                    for (int ci = 0; ci < even; ci++) {
                        d[ci] += row[2 * ci];
                        d[ci] += row[2 * ci + 1];
                    }
                    if (n[0] & 1) d[even] += row[n[0] - 1];
                }
        }
    }
}

void hk_mg_restrict_rows(const hk_world *w, int team, const int n[3], hk_real *const src[3], hk_real *const sub[3],
                         const int cn[3], hk_real *const dst[3], int cr0, int cr1)
{
    transfer_pass tp = {n, cn, dst, src, sub, NULL, cr0};
    hk_team_for(w, team, cr1 - cr0, restrict_share, &tp);
}

static void prolong_share(void *ctx, int64_t a, int64_t e)
{
    const transfer_pass *tp = ctx;
    const int *n = tp->n, *cn = tp->cn;
    const hk_real *keep = tp->keep;
    for (int r = (int)(tp->first + a); r < tp->first + e; r++) {
        const int j = r % n[1], k = r / n[1];
        const int64_t crow = (int64_t)cn[0] * (j / 2 + (int64_t)cn[1] * (k / 2));
        for (int c = 0; c < 3; c++) {
            hk_real *restrict d = tp->dst[c] + (int64_t)r * n[0];
            const hk_real *restrict s = tp->src[c] + crow;
            const int even = n[0] / 2;
            if (keep) {
                const hk_real *restrict kp = keep + (int64_t)r * n[0];
                for (int ci = 0; ci < even; ci++) {
                    d[2 * ci] += kp[2 * ci] * s[ci];
                    d[2 * ci + 1] += kp[2 * ci + 1] * s[ci];
                }
                if (n[0] & 1) d[n[0] - 1] += kp[n[0] - 1] * s[even];
            } else {
                for (int ci = 0; ci < even; ci++) {
                    d[2 * ci] += s[ci];
                    d[2 * ci + 1] += s[ci];
                }
                if (n[0] & 1) d[n[0] - 1] += s[even];
            }
        }
    }
}

void hk_mg_prolong_rows(const hk_world *w, int team, const int n[3], hk_real *const dst[3], const int cn[3],
                        hk_real *const src[3], const hk_real *keep, int r0, int r1)
{
    transfer_pass tp = {n, cn, dst, src, NULL, keep, r0};
    hk_team_for(w, team, r1 - r0, prolong_share, &tp);
}
