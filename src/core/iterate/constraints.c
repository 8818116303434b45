/* constraints.c — every spring of a world in one list, coloured so that a colour's springs share no particle. */
/* SPDX-License-Identifier: MIT */
#include "constraints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

void hk_each_spring(const hk_world *w, hk_spring_fn fn, void *ctx)
{
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind == HK_FAMILY_LIST) {
            for (int64_t s = 0; s < f->count; s++) fn(ctx, fi, s, f->a[s], f->b[s]);
            continue;
        }
        for (int k = f->k0; k < f->k1; k++)
            for (int j = f->j0; j < f->j1; j++) {
                const int64_t row = (int64_t)f->nx * (j + (int64_t)f->ny * k);
                for (int i = f->i0; i < f->i1; i++)
                    fn(ctx, fi, row + i, (int)(f->base + row + i), (int)(f->base + row + i + f->offset));
            }
    }
}

/* The colouring pass: each spring's colour, and the count of each. */
typedef struct colour_pass {
    uint64_t *used; /* per particle: the colours its springs took */
    uint8_t *colour;
    int64_t n, count[HK_CONSTRAINT_COLOURS + 1];
} colour_pass;

static void colour_one(void *ctx, int fam, int64_t slot, int a, int b)
{
    (void)fam, (void)slot;
    colour_pass *s = ctx;
    const uint64_t free_bits = ~(s->used[a] | s->used[b]);
    int c = HK_CONSTRAINT_COLOURS; /* the serial colour */
    if (free_bits) {
        c = __builtin_ctzll(free_bits);
        s->used[a] |= 1ull << c;
        s->used[b] |= 1ull << c;
    }
    s->colour[s->n++] = (uint8_t)c;
    s->count[c]++;
}

/* The placing pass: each spring at the next place of its colour. */
typedef struct place_pass {
    hk_constraints *c;
    int *fam; /* each spring's family */
    const uint8_t *colour;
    int64_t n, next[HK_CONSTRAINT_COLOURS + 1];
} place_pass;

static void place_one(void *ctx, int fam, int64_t slot, int a, int b)
{
    place_pass *s = ctx;
    const int64_t at = s->next[s->colour[s->n++]]++;
    s->c->a[at] = a;
    s->c->b[at] = b;
    s->fam[at] = fam;
    s->c->slot[at] = slot;
}

static void constraints_free(hk_constraints *c)
{
    if (!c) return;
    free(c->colour_start);
    free(c->a);
    free(c->b);
    free(c->colour_run);
    free(c->run_fam);
    free(c->run_start);
    free(c->slot);
    hk_free_reals(c->u[0]);
    free(c->coef);
    free(c);
}

void hk_constraints_release(hk_world *w)
{
    constraints_free(w->constraints);
    w->constraints = NULL;
}

/* The runs of one family within each colour (constraints.h), from each spring's family fam[]. 0 or -1. */
static int runs_of(hk_constraints *c, int colours, const int *fam)
{
    int runs = 0;
    for (int k = 0; k < colours; k++)
        for (int64_t i = c->colour_start[k]; i < c->colour_start[k + 1]; i++)
            runs += i == c->colour_start[k] || fam[i] != fam[i - 1];
    c->colour_run = malloc((size_t)(colours + 1) * sizeof *c->colour_run);
    c->run_fam = malloc((size_t)(runs > 0 ? runs : 1) * sizeof *c->run_fam);
    c->run_start = malloc((size_t)(runs + 1) * sizeof *c->run_start);
    if (!c->colour_run || !c->run_fam || !c->run_start) return -1;
    int r = 0;
    for (int k = 0; k < colours; k++) {
        c->colour_run[k] = r;
        for (int64_t i = c->colour_start[k]; i < c->colour_start[k + 1]; i++)
            if (i == c->colour_start[k] || fam[i] != fam[i - 1]) {
                c->run_fam[r] = fam[i];
                c->run_start[r++] = i;
            }
    }
    c->colour_run[colours] = r;
    c->run_start[r] = c->colour_start[colours];
    c->runs = runs;
    return 0;
}

static hk_constraints *build(hk_world *w)
{
    const int64_t n = hk_world_facts(w)->springs;
    hk_constraints *c = calloc(1, sizeof *c);
    colour_pass cs = {0};
    if (c) {
        cs.used = calloc((size_t)(w->p.count > 0 ? w->p.count : 1), sizeof *cs.used);
        cs.colour = malloc((size_t)(n > 0 ? n : 1));
        c->colour_start = calloc(HK_CONSTRAINT_COLOURS + 2, sizeof *c->colour_start);
        c->a = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->a);
        c->b = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->b);
        c->slot = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->slot);
        c->u[0] = hk_alloc_reals(3 * (size_t)(n > 0 ? n : 1), w);
        c->coef = malloc((size_t)(3 * w->family_count + 3) * sizeof *c->coef);
    }
    if (!c || !cs.used || !cs.colour || !c->colour_start || !c->a || !c->b || !c->slot || !c->u[0] || !c->coef) {
        free(cs.used);
        free(cs.colour);
        constraints_free(c);
        hk_fail_memory(w, "out of memory for the constraints of %lld springs", (long long)n);
        return NULL;
    }
    hk_each_spring(w, colour_one, &cs);
    HK_ASSERT(cs.n == n);
    free(cs.used);
    /* the colours in use, the serial one last; each colour's springs in the list's order */
    place_pass ps = {c, malloc((size_t)(n > 0 ? n : 1) * sizeof *ps.fam), cs.colour, 0, {0}};
    if (!ps.fam) {
        free(cs.colour);
        constraints_free(c);
        hk_fail_memory(w, "out of memory for the constraints of %lld springs", (long long)n);
        return NULL;
    }
    int colours = 0;
    for (int k = 0; k <= HK_CONSTRAINT_COLOURS; k++) {
        if (!cs.count[k]) continue;
        ps.next[k] = c->colour_start[colours];
        c->colour_start[++colours] = ps.next[k] + cs.count[k];
        c->serial = k == HK_CONSTRAINT_COLOURS;
    }
    hk_each_spring(w, place_one, &ps);
    free(cs.colour);
    if (runs_of(c, colours, ps.fam) != 0) {
        free(ps.fam);
        constraints_free(c);
        hk_fail_memory(w, "out of memory for the constraints of %lld springs", (long long)n);
        return NULL;
    }
    free(ps.fam);
    c->count = n;
    c->u[1] = c->u[0] + (n > 0 ? n : 1);
    c->u[2] = c->u[1] + (n > 0 ? n : 1);
    c->colours = colours;
    c->bodies = w->body_count;
    c->families = w->family_count;
    c->particles = w->p.count;
    c->coloured = w->coloured;
    return c;
}

hk_constraints *hk_constraints_of(hk_world *w)
{
    hk_constraints *c = w->constraints;
    if (c && c->bodies == w->body_count && c->families == w->family_count && c->particles == w->p.count &&
        c->coloured == w->coloured && c->count == hk_world_facts(w)->springs)
        return c;
    hk_constraints_release(w);
    return w->constraints = build(w);
}

int hk_constraints_check(const hk_world *w, const hk_constraints *c, char *why, size_t len)
{
    int64_t *seen = calloc((size_t)(w->p.count > 0 ? w->p.count : 1), sizeof *seen);
    if (!seen) return snprintf(why, len, "out of memory"), -1;
    int bad = 0;
    for (int k = 0; k < c->colours && !bad; k++) {
        if (k == c->colours - 1 && c->serial) break;
        for (int64_t i = c->colour_start[k]; i < c->colour_start[k + 1] && !bad; i++) {
            const int e[2] = {c->a[i], c->b[i]};
            for (int s = 0; s < 2 && !bad; s++) {
                if (e[s] < 0 || e[s] >= w->p.count) {
                    snprintf(why, len, "spring %lld: end %d outside the %d particles", (long long)i, e[s], w->p.count);
                    bad = 1;
                } else if (seen[e[s]] == k + 1) {
                    snprintf(why, len, "colour %d: particle %d twice", k, e[s]);
                    bad = 1;
                } else
                    seen[e[s]] = k + 1;
            }
        }
    }
    if (!bad && c->colour_start[c->colours] != c->count) {
        snprintf(why, len, "the colours hold %lld springs of %lld", (long long)c->colour_start[c->colours],
                 (long long)c->count);
        bad = 1;
    }
    free(seen);
    return bad ? -1 : 0;
}
