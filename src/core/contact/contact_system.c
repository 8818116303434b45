/* contact_system.c — the contacts' stiffness and damping blocks in the implicit solve's products and diagonal. */
/* SPDX-License-Identifier: MIT */
#include "pairs.h"
#include "response.h"
#include "team.h"

int hk_contact_in_system(const hk_world *w) { return w->contact && w->contact->in_system; }

int hk_contact_touching(const hk_world *w, const int **particle, const int **active, const hk_contact_rec **rec)
{
    const struct hk_contact *ct = w->contact;
    if (!ct) return 0;
    *particle = ct->cand;
    *active = ct->active;
    *rec = ct->rec;
    return ct->nactive;
}

/* The calling thread's share of the touching candidates: out[i] += B y[i]
 * (a product), or blk[e][i] += B[e] (the diagonal blocks, out NULL), with B
 * = sK K + sD D of each. */
static void touching_blocks(const hk_team *tm, const hk_world *w, hk_real sK, hk_real sD, hk_real *const y[3],
                            hk_real *const out[3], hk_real *const blk[6])
{
    const struct hk_contact *ct = w->contact;
    if (!ct || ct->nactive == 0) return;
    int a, n;
    hk_team_range(tm, 0, ct->nactive, &a, &n);
    for (int k = a; k < a + n; k++) {
        const int j = ct->active[k], i = ct->cand[j];
        hk_real B[6];
        hk_contact_block(&ct->rec[j], sK, sD, B);
        if (!out) {
            for (int e = 0; e < 6; e++) blk[e][i] += B[e];
            continue;
        }
        const hk_real x = y[0][i], yy = y[1][i], z = y[2][i];
        out[0][i] += B[0] * x + B[1] * yy + B[2] * z;
        out[1][i] += B[1] * x + B[3] * yy + B[4] * z;
        out[2][i] += B[2] * x + B[4] * yy + B[5] * z;
    }
}

void hk_contact_apply(const hk_team *tm, const hk_world *w, hk_real sK, hk_real sD, hk_real *const y[3],
                      hk_real *const out[3])
{
    if (!hk_contact_in_system(w)) return;
    touching_blocks(tm, w, sK, sD, y, out, NULL);
    if (w->contact->pairs_touch) { /* after the colliders' terms, which each task added to its own particles */
        hk_team_barrier(tm);
        hk_pairs_system(tm, hk_pairs_of(w), sK, sD, 0, y, out, NULL);
    }
}

void hk_contact_blocks(const hk_team *tm, const hk_world *w, hk_real sK, hk_real sD, int bound, hk_real *const blk[6])
{
    if (!hk_contact_in_system(w)) return;
    touching_blocks(tm, w, sK, sD, NULL, NULL, blk);
    if (w->contact->pairs_touch) {
        hk_team_barrier(tm);
        hk_pairs_system(tm, hk_pairs_of(w), sK, sD, bound, NULL, NULL, blk);
    }
}

void hk_contact_motion_rhs(const hk_world *w, hk_real s, hk_real *const b[3])
{
    if (!hk_contact_in_system(w)) return;
    const struct hk_contact *ct = w->contact;
    for (int k = 0; k < ct->nactive; k++) { /* serially: each adds to its own particle */
        const int j = ct->active[k], i = ct->cand[j];
        const hk_real *R = ct->rec[j].R;
        if (w->p.inv_mass[i] == 0) continue;               /* fixed: keeps its state (b 0) */
        if (R[0] == 0 && R[1] == 0 && R[2] == 0) continue; /* no moving collider: b as it was, to the bit */
        for (int c = 0; c < 3; c++) b[c][i] += s * R[c];
    }
}
