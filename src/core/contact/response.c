/* response.c — the contact subsystem's entry: the world's colliders, the state, the phases, the survey and costs. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "response.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "collider_contact.h"
#include "layer_rule.h"
#include "pair_check.h"
#include "pairs.h"
#include "applied.h"
#include "part.h"

void hk_contact_free(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    for (int i = 0; i < ct->ncol; i++) hk_collider_free(&ct->col[i]);
    free(ct->col);
    free(ct->slab);
    free(ct->cand);
    free(ct->x0);
    free(ct->rec);
    free(ct->active);
    free(ct->gap);
    hk_pairs_free(ct->pairs);
    free(ct);
    w->contact = NULL;
}

struct hk_contact *hk_contact_get(hk_world *w)
{
    if (!w->contact) {
        w->contact = calloc(1, sizeof *w->contact);
        if (!w->contact) {
            hk_fail_memory(w, "out of memory for the contact state");
            return NULL;
        }
        w->contact->checked_families = -1;
    }
    return w->contact;
}

/* ---- the world's colliders ---------------------------------------------------- */

int hk_world_add_collider(hk_world *w, const hk_collider_def *def)
{
    if (!def) return hk_fail(w, "collider: no definition given");
    struct hk_contact *ct = hk_contact_get(w);
    if (!ct) return hk_failed(w);
    if (ct->ncol == ct->capcol) {
        const int cap = ct->capcol ? 2 * ct->capcol : 4;
        hk_collider *col = realloc(ct->col, (size_t)cap * sizeof *col);
        if (!col) return hk_fail_memory(w, "out of memory for a collider");
        ct->col = col;
        ct->capcol = cap;
    }
    char why[512];
    const int rc = hk_collider_init(&ct->col[ct->ncol], def, why, sizeof why);
    if (rc == HK_ERR_MEMORY) return hk_fail_memory(w, "%s", why);
    if (rc != HK_OK) return hk_fail(w, "%s", why);
    ct->ncol++;
    ct->checked_families = -1;
    if (hk_colliders_check(w) >= 0) { /* thicker than a spring of the bodies so far: taken back */
        hk_collider_free(&ct->col[--ct->ncol]);
        return hk_failed(w);
    }
    ct->thickest = fmax(ct->thickest, def->thickness);
    return ct->ncol - 1;
}

int hk_contact_on(const hk_world *w) { return w->contact && (w->contact->ncol > 0 || w->contact->pairs); }

int hk_world_collider_count(const hk_world *w) { return w && w->contact ? w->contact->ncol : 0; }

int hk_world_collider(const hk_world *w, int i, hk_collider_def *out)
{
    if (!w || !out || i < 0 || i >= hk_world_collider_count(w)) return HK_ERR_INVALID;
    *out = w->contact->col[i].def;
    return HK_OK;
}

int hk_colliders(const hk_world *w, const hk_collider **out)
{
    *out = w->contact ? w->contact->col : NULL;
    return hk_world_collider_count(w);
}

int hk_colliders_check(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct || ct->checked_families == w->family_count) return -1;
    const hk_pairs *pr = ct->pairs;
    const double rest = hk_smallest_rest_length(w);
    if (pr && pr->def.model == HK_CONTACT_PARTICLES &&
        hk_layer_check(w, "contact", HK_LAYER_PARTICLES, pr->def.radius, rest))
        return ct->ncol; /* past the colliders: the contact between bodies */
    if (pr && pr->def.model == HK_CONTACT_TRIANGLES &&
        hk_layer_check(w, "contact", HK_LAYER_TRIANGLES, pr->def.thickness, rest))
        return ct->ncol;
    for (int i = 0; i < ct->ncol; i++) {
        char who[32];
        snprintf(who, sizeof who, "collider %d", i);
        if (hk_layer_check(w, who, HK_LAYER_COLLIDER, ct->col[i].def.thickness, rest)) return i;
    }
    ct->checked_families = w->family_count;
    return -1;
}
int hk_contact_anchors(const hk_world *w, hk_real *out[4])
{
    const struct hk_contact *ct = w->contact;
    for (int c = 0; c < 4; c++) out[c] = NULL;
    if (!ct || ct->ncol == 0 || !ct->slab || ct->cap < w->p.count) return 0;
    for (int c = 0; c < 4; c++) out[c] = ct->anchor[c];
    return 1;
}

int hk_contact_keep_anchors(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    return ct && ct->ncol > 0 ? hk_colliders_room(w, ct) : 0;
}
/* The applied forces plus the contact forces, particle by particle (hk_particle_force_arrays). */
typedef struct sum_pass {
    hk_real *const *out;
    const hk_real *const *a, *const *b;
} sum_pass;
static void sum_span(void *ctx, int g0, int g1)
{
    const sum_pass *s = ctx;
    for (int c = 0; c < 3; c++)
        for (int g = g0; g < g1; g++) s->out[c][g] = s->a[c][g] + s->b[c][g];
}

void hk_particle_force_arrays(hk_world *w, const hk_real *out[3])
{
    const struct hk_contact *ct = w->contact;
    const int touch = ct && ct->any_force;
    for (int c = 0; c < 3; c++) out[c] = touch ? ct->f[c] : NULL;
    if (!w->applied_on) return;
    if (hk_applied_room(w) != 0) { /* grown when particles were added since: new ones apply none */
        w->step_failed = hk_failed(w);
        return;
    }
    if (!touch) {
        for (int c = 0; c < 3; c++) out[c] = w->applied[c];
        return;
    }
    if (hk_applied_sum_room(w) != 0) {
        w->step_failed = hk_failed(w);
        return;
    }
    const hk_real *const a[3] = {w->applied[0], w->applied[1], w->applied[2]};
    const hk_real *const b[3] = {ct->f[0], ct->f[1], ct->f[2]};
    const sum_pass sp = {w->applied_sum, a, b};
    hk_team_spans(w, sum_span, (void *)&sp);
    for (int c = 0; c < 3; c++) out[c] = w->applied_sum[c];
}
hk_contact_survey hk_contact_counts(const hk_world *w, int32_t *count)
{
    const struct hk_contact *ct = w->contact;
    hk_contact_survey out = {0, NAN, 0};
    if (count)
        for (int i = 0; i < w->p.count; i++) count[i] = 0;
    if (!ct) return out;
    double gap = INFINITY;
    const hk_pairs *pr = hk_pairs_of(w);
    if (pr) { /* the pairs of the last step's candidates that touch now */
        hk_pairs_survey(w, pr, count, &out.contacts, &gap);
        out.inside = pr->left;
    }
    if (hk_colliders_survey(w, ct, count, &out, &gap) != 0) return out;
    out.min_gap = gap < INFINITY ? gap : NAN;
    return out;
}
/* ---- the phases, colliders and pairs ----------------------------------------------------------------------- */

/* The wall clock [s], for the phases' costs. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

hk_contact_profile hk_contact_profile_of(const hk_world *w)
{
    const hk_contact_profile none = {0};
    return w->contact ? w->contact->prof : none;
}

static int begin_step(hk_world *w, struct hk_contact *ct)
{
    if (hk_colliders_check(w) >= 0 || hk_colliders_room(w, ct) != 0) return -1;
    for (int k = 0; k < ct->ncand; k++) /* the last step's forces */
        for (int c = 0; c < 3; c++) ct->f[c][ct->cand[k]] = 0;
    hk_pairs *pr = hk_pairs_of(w);
    for (int j = 0; pr && j < pr->ninv; j++)
        for (int c = 0; c < 3; c++) ct->f[c][pr->inv[j]] = 0;
    ct->ncand = ct->nactive = 0;
    ct->any_force = ct->in_system = ct->pairs_touch = 0;
    ct->t0 = ct->t_sub = ct->t_eval = w->time;
    ct->dt = w->integrator.dt;
    if (ct->ncol > 0 && hk_colliders_begin(w, ct) != 0) return -1;
    return pr ? hk_pairs_begin_step(w, pr) : 0;
}

int hk_contact_begin_step(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct || (ct->ncol == 0 && !ct->pairs)) return 0;
    const double t = now();
    const int r = begin_step(w, ct);
    ct->prof.broad += now() - t;
    ct->prof.steps++;
    return r;
}

void hk_contact_substep_begin(hk_world *w, double t)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    ct->t_sub = ct->t_eval = t;
    hk_colliders_substep_begin(w, ct);
    if (hk_pairs_of(w)) hk_pairs_substep_begin(w, hk_pairs_of(w));
}

int hk_contact_substep_end(hk_world *w, double t0, double t1, hk_real *px, hk_real *py, hk_real *pz)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return 0;
    hk_real *const prev[3] = {px, py, pz};
    const double t = now();
    /* bodies apart first; then the colliders, which nothing moves */
    const int moved = hk_pairs_of(w) ? hk_pairs_substep_end(w, hk_pairs_of(w), t1 - t0, prev) : 0;
    const int r = moved + hk_colliders_substep_end(w, ct, t0, t1, px, py, pz);
    ct->prof.safety += now() - t;
    return r;
}

int hk_contact_end_step(hk_world *w, hk_real *px, hk_real *py, hk_real *pz)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return 0;
    hk_real *const prev[3] = {px, py, pz};
    hk_pairs *pr = hk_pairs_of(w);
    const double t = now(); /* the search again for what outran the candidates, and its sweep: broad */
    const int moved = pr && hk_pairs_end_step(w, pr) ? hk_pairs_substep_end(w, pr, pr->dt, prev) : 0;
    const int r = moved + hk_colliders_end_step(w, ct, px, py, pz);
    ct->prof.broad += now() - t;
    return r;
}

void hk_contact_at(hk_world *w, double s)
{
    if (w->contact) w->contact->t_eval = w->contact->t_sub + s;
}

void hk_contact_forces(hk_world *w)
{
    struct hk_contact *ct = w->contact;
    if (!ct) return;
    const double t = now();
    hk_pairs *pr = hk_pairs_of(w);
    for (int j = 0; pr && j < pr->ninv; j++) /* the pairs add to what the colliders (or nothing) put there */
        for (int c = 0; c < 3; c++) ct->f[c][pr->inv[j]] = 0;
    hk_colliders_forces(w, ct);
    if (pr && pr->npair > 0) {
        HK_VALIDATE(hk_pairs_validate, w, pr); /* sorted, unique, in range, no topological neighbours */
        hk_pairs_forces(w, pr, w->h, ct->f);
        ct->pairs_touch = hk_pairs_touching(pr);
    } else if (pr)
        pr->non = 0;
    if (pr) /* a substep's first evaluation: the anchors its touching pairs placed are the ones held */
        hk_pairs_anchors_commit(w, pr, hk_pairs_team(w, pr->non));
    ct->in_system = ct->nactive > 0 || ct->pairs_touch;
    ct->any_force = ct->in_system;
    ct->prof.forces += now() - t;
}

hk_pairs *hk_pairs_of(const hk_world *w)
{
    if (!w->contact || !w->contact->pairs) return NULL;
    return w->part && w->part->rank != 0 ? NULL : w->contact->pairs; /* rank 0 computes the bodies that take part */
}
