/* pair_anchor.c — static friction between bodies: each sticking pair's anchor, its spring, and the anchors kept. */
/* SPDX-License-Identifier: MIT */
#include "pairs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction.h"
#include "geometry.h"
#include "team.h"

/*
 * A touching pair that sticks holds an anchor: its weights where it began
 * to stick. Its two sides' points at those weights move with the bodies;
 * the tangential part d of their offset (at the pair's normal) is how far
 * the pair slipped since, and a spring k_t = m / (2 h^2) pulls it back,
 * damped by c_t = m / h, at most Coulomb's limit, as a collider's anchor
 * (friction.h): a steady sideways load below the limit holds the pair a
 * fixed offset from its anchor, at rest. m is the pair's mass shared among
 * the touching pairs of its particles (pair_force.c): no particle's
 * springs and dampers sum to more than its own m / (2 h^2) and m / h, so
 * no explicit substep overshoots. The offset is linear in the weights and
 * is 0 at the weights where the two sides are nearest now (their offset
 * lies along the normal): where the spring would pull harder than the
 * limit, the substep's first evaluation drags the anchor along the line to
 * those weights until it pulls at the limit. A pair finds its anchor by
 * its place in the pool (pan), good where the entry there is its
 * candidate's: the places are carried from pairs to candidates and back as
 * the step's pairs are chosen (both in candidate order, so the copies
 * stream), and a new search finds each anchored pair again by its
 * particles (a binary search of the candidates, which are in their one
 * order). A checkpoint keeps the pool.
 */

/* The weights (w0, w1) of pair kind `kind` into its alpha: a triangle pair (1, -w0, -w1, -(1 - w0 - w1)), an edge
 * pair (1 - s, s, -(1 - t), -t). */
static void alpha_of(int kind, const double w[2], double al[4])
{
    if (kind == HK_PAIR_VT)
        al[0] = 1, al[1] = -w[0], al[2] = -w[1], al[3] = -(1 - w[0] - w[1]);
    else
        al[0] = 1 - w[0], al[1] = w[0], al[2] = -(1 - w[1]), al[3] = -w[1];
}

/* The weights of an alpha (alpha_of's inverse). */
static void weights_of(int kind, const double al[4], double w[2])
{
    if (kind == HK_PAIR_VT)
        w[0] = -al[1], w[1] = -al[2];
    else
        w[0] = al[1], w[1] = -al[3];
}

void hk_pairs_friction(const hk_world *w, hk_pairs *pr, int64_t k, const hk_pair_eval *ev, int64_t q, double h,
                       double f[3], double K[6], double D[6])
{
    const hk_particles *p = &w->p;
    const hk_pair *pa = &pr->pair[k];
    const double fn = ev->fn, mu = pr->def.friction, *n = ev->n;
    if (pr->first) pr->anch_next[q].cand = -1;
    if (!(mu > 0)) return;
    int most = 1; /* the most touching pairs a particle this pair moves is in */
    for (int c = 0; c < 4; c++) {
        const int32_t j = pr->at[4 * k + c], m = pr->on_start[j + 1] - pr->on_start[j];
        if (ev->a[c] != 0 && p->inv_mass[pa->p[c]] > 0 && m > most) most = m;
    }
    const double m = ev->m / most, vn = g_dot(ev->vr, n);
    hk_friction_contact fc = {.mu = mu, .fn = fn, .m = m, .h = h};
    for (int c = 0; c < 3; c++) fc.n[c] = n[c], fc.vt[c] = ev->vr[c] - vn * n[c];
    const int64_t ci = pr->pcand[k], at = pr->pan[k];
    const int64_t o = at >= 0 && at < pr->nanch && pr->anch[at].cand == ci ? at : -1;
    /* began to touch after the substep's first evaluation: no anchor yet; two particles hold none (their weights
     * cannot say where they began to stick) */
    if ((o < 0 && !pr->first) || pa->kind == HK_PAIR_PP) {
        hk_friction_viscous(mu, fn, m, h, n, fc.vt, f, D);
        return;
    }
    double now[2], wa[2], al[4], r[3] = {0, 0, 0}, d[3];
    weights_of(pa->kind, ev->a, now);
    for (int c = 0; c < 2; c++) wa[c] = o >= 0 ? pr->anch[o].w[c] : now[c];
    alpha_of(pa->kind, wa, al);
    for (int c = 0; c < 4; c++) {
        const double *x = pr->xs + 3 * (int64_t)pr->at[4 * k + c];
        for (int e = 0; e < 3; e++) r[e] += al[c] * x[e];
    }
    const double rn = g_dot(r, n);
    double kt, ct, s;
    hk_friction_spring(m, h, &kt, &ct);
    for (int e = 0; e < 3; e++) d[e] = r[e] - rn * n[e];
    if (pr->first) {
        /* sliding: dragged towards the nearest weights, to pull at the limit */
        if (hk_friction_drag(kt, mu * fn, d, &s)) {
            for (int c = 0; c < 2; c++) wa[c] = now[c] + s * (wa[c] - now[c]);
            for (int e = 0; e < 3; e++) d[e] *= s;
        }
        hk_pair_anchor *an = &pr->anch_next[q];
        an->key = *pa, an->cand = ci, an->pair = k, an->w[0] = wa[0], an->w[1] = wa[1];
    }
    hk_friction_anchored(&fc, kt, ct, d, f, K, D);
}

int hk_pairs_anchors_room(hk_pairs *pr, int64_t n)
{
    return hk_pairs_room(&pr->anch_next, &pr->cap_anch_next, n + 1, sizeof *pr->anch_next);
}

/* Touching pairs [a, e)'s places in the pool to come (each writes its own pair's). */
static void place_range(void *ctx, int64_t a, int64_t e)
{
    hk_pairs *pr = ctx;
    for (int64_t q = a; q < e; q++)
        if (pr->anch_next[q].cand >= 0) pr->pan[pr->anch_next[q].pair] = (int32_t)q;
}

/* Anchors [a, e)'s places in the pool held (each writes its own pair's). */
static void held_range(void *ctx, int64_t a, int64_t e)
{
    hk_pairs *pr = ctx;
    for (int64_t q = a; q < e; q++)
        if (pr->anch[q].cand >= 0) pr->pan[pr->anch[q].pair] = (int32_t)q;
}

void hk_pairs_anchors_commit(const hk_world *w, hk_pairs *pr, int team)
{
    if (!pr->first) return;
    pr->first = 0;
    const int64_t n = pr->non; /* the pairs' places: the old ones go stale with the pool they name */
    if (pr->walk_next)
        pr->pan_stale = 1; /* the friction walks these anchors: their places are set where pan is read */
    else
        hk_team_for(w, team, n, place_range, pr), pr->pan_stale = 0;
    hk_pair_anchor *t = pr->anch;
    const int64_t cap = pr->cap_anch;
    pr->anch = pr->anch_next, pr->cap_anch = pr->cap_anch_next;
    pr->anch_next = t, pr->cap_anch_next = cap;
    pr->nanch = n;
    pr->walk = pr->walk_next, pr->walk_selected = pr->selected, pr->walk_builds = pr->builds;
}

/* The places of a pool's anchors in pan, set later than its commit: a pair whose place is not set there names a
 * stale place, which its anchor check rejects whether it is the place of the last commit or of an earlier one
 * (another candidate's anchor, or past the pool), so pan reads the same as if each commit had set it. */
void hk_pairs_anchors_pan(const hk_world *w, hk_pairs *pr)
{
    if (!pr->pan_stale) return;
    hk_team_for(w, hk_pairs_team(w, pr->nanch), pr->nanch, held_range, pr);
    pr->pan_stale = 0;
}

/* Pairs [a, e)'s anchors to their candidates (each pair its own candidate's entry). */
static void keep_range(void *ctx, int64_t a, int64_t e)
{
    hk_pairs *pr = ctx;
    for (int64_t k = a; k < e; k++) pr->anc[pr->pcand[k]] = pr->pan[k];
}

/* Pairs [a, e)'s anchors from their candidates'. */
static void find_range(void *ctx, int64_t a, int64_t e)
{
    hk_pairs *pr = ctx;
    for (int64_t k = a; k < e; k++) pr->pan[k] = pr->anc ? pr->anc[pr->pcand[k]] : -1;
}

void hk_pairs_anchors_keep(const hk_world *w, hk_pairs *pr, int team)
{
    if (!pr->anc || pr->anc_fresh || !pr->pan) return; /* fresh: made for these candidates since the last pairs */
    hk_pairs_anchors_pan(w, pr);
    hk_team_for(w, team, pr->npair, keep_range, pr);
}

int hk_pairs_anchors_find(const hk_world *w, hk_pairs *pr, int team)
{
    if (hk_pairs_room(&pr->pan, &pr->cap_pan, pr->npair + 1, sizeof *pr->pan) != 0) return -1;
    hk_team_for(w, team, pr->npair, find_range, pr);
    pr->anc_fresh = 0, pr->pan_stale = 0;
    return 0;
}

/* The candidate whose pair is key, or -1: the candidates are in their one order (hk_pair_order). */
static int64_t find_candidate(const hk_pairs *pr, const hk_pair *key)
{
    int64_t lo = 0, hi = pr->ncand;
    while (lo < hi) {
        const int64_t m = lo + (hi - lo) / 2;
        if (hk_pair_order(&pr->cand[m], key) < 0)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < pr->ncand && hk_pair_order(&pr->cand[lo], key) == 0 ? lo : -1;
}

int hk_pairs_anchors_remap(hk_pairs *pr)
{
    if (hk_pairs_room(&pr->anc, &pr->cap_anc, pr->ncand + 1, sizeof *pr->anc) != 0) return -1;
    pr->anc_fresh = 1;
    for (int64_t k = 0; k < pr->ncand; k++) pr->anc[k] = -1;
    for (int64_t o = 0; o < pr->nanch; o++) { /* each held anchor's pair among the candidates, or none */
        if (pr->anch[o].cand == -1) continue;
        const int64_t k = find_candidate(pr, &pr->anch[o].key);
        pr->anch[o].cand = k;
        if (k >= 0) pr->anc[k] = (int32_t)o;
    }
    return 0;
}

int64_t hk_pairs_anchors_held(const hk_pairs *pr)
{
    int64_t n = 0;
    for (int64_t o = 0; pr && o < pr->nanch; o++) n += pr->anch[o].cand != -1;
    return n;
}

void hk_pairs_anchors_get(const hk_pairs *pr, int32_t *keys, double *weights)
{
    int64_t i = 0;
    for (int64_t o = 0; pr && o < pr->nanch; o++) {
        const hk_pair_anchor *an = &pr->anch[o];
        if (an->cand == -1) continue;
        keys[5 * i] = an->key.kind;
        for (int c = 0; c < 4; c++) keys[5 * i + 1 + c] = an->key.p[c];
        weights[2 * i] = an->w[0], weights[2 * i + 1] = an->w[1];
        i++;
    }
}

int hk_pairs_anchors_restore(hk_pairs *pr, int64_t n, const int32_t *keys, const double *weights)
{
    if (!pr) return 0; /* a rank that computes no pairs (rank 0 holds them): nothing to hold here */
    if (hk_pairs_room(&pr->anch, &pr->cap_anch, n + 1, sizeof *pr->anch) != 0) return -1;
    for (int64_t o = 0; o < n; o++) {
        hk_pair_anchor *an = &pr->anch[o];
        an->key.kind = keys[5 * o];
        for (int c = 0; c < 4; c++) an->key.p[c] = keys[5 * o + 1 + c];
        an->cand = -2, an->w[0] = weights[2 * o], an->w[1] = weights[2 * o + 1];
    }
    pr->nanch = n;
    pr->builds = 0; /* the next step sets the frame qb, and finds the candidates and the anchors' pairs among them */
    pr->cand_all = 1;
    pr->walk = 0;
    return 0;
}
