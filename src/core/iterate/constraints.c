/* constraints.c — every spring of a world in one list, coloured so that a colour's springs share no particle. */
/* SPDX-License-Identifier: MIT */
#include "constraints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Calls fn for every spring of family fi of w held here, in hk_each_spring's order. */
static void family_springs(const hk_world *w, int fi, hk_spring_fn fn, void *ctx)
{
    const hk_family *f = &w->families[fi];
    if (f->kind == HK_FAMILY_LIST) {
        for (int64_t s = 0; s < f->count; s++) fn(ctx, fi, s, f->a[s], f->b[s]);
        return;
    }
    for (int k = f->k0; k < f->k1; k++)
        for (int j = f->j0; j < f->j1; j++) {
            const int64_t row = (int64_t)f->nx * (j + (int64_t)f->ny * k);
            for (int i = f->i0; i < f->i1; i++)
                fn(ctx, fi, row + i, (int)(f->base + row + i), (int)(f->base + row + i + f->offset));
        }
}

void hk_each_spring(const hk_world *w, hk_spring_fn fn, void *ctx)
{
    for (int fi = 0; fi < w->family_count; fi++) family_springs(w, fi, fn, ctx);
}

/* The same over w's list families only. */
static void each_list_spring(const hk_world *w, hk_spring_fn fn, void *ctx)
{
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].kind == HK_FAMILY_LIST) family_springs(w, fi, fn, ctx);
}

/* The colouring pass: each list spring's colour, and the count of each. */
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
    for (int k = 0; k < c->lattice_colours && c->lc; k++) {
        free(c->lc[k].row_node);
        free(c->lc[k].pick);
    }
    free(c->lc);
    for (int fi = 0; fi < c->families && c->chains; fi++) {
        free(c->chains[fi].start);
        free(c->chains[fi].len);
    }
    free(c->chains);
    free(c->colour_start);
    free(c->a);
    free(c->b);
    free(c->colour_run);
    free(c->run_fam);
    free(c->run_start);
    free(c->slot);
    hk_free_reals(c->u[0]);
    free(c->u_base);
    free(c->coef);
    free(c);
}

/* The axis a lattice family is coloured along (constraints.h), and the family's step along it: j or k where the
 * offset has a step there (a colour is then whole rows), else i. */
static int colour_axis(const hk_family *f, int *step)
{
    const int d[3] = {f->di, f->dj, f->dk};
    static const int order[3] = {1, 2, 0};
    for (int o = 0; o < 3; o++)
        if (d[order[o]]) {
            *step = d[order[o]] < 0 ? -d[order[o]] : d[order[o]];
            return order[o];
        }
    HK_ASSERT(!"a lattice family without an offset");
    *step = 1;
    return 0;
}

/* Lattice colour `parity` of family fi: its rows and, along i, its sources in a row. 0 or -1 (memory). */
static int lattice_colour(const hk_family *f, int fi, int parity, hk_lattice_colour *lc)
{
    int step = 1;
    const int axis = colour_axis(f, &step);
    *lc = (hk_lattice_colour){.fam = fi, .axis = axis, .parity = parity};
    const int nrows = (f->j1 - f->j0) * (f->k1 - f->k0);
    lc->row_node = malloc((size_t)(nrows > 0 ? nrows : 1) * sizeof *lc->row_node);
    if (!lc->row_node) return -1;
    for (int k = f->k0; k < f->k1; k++)
        for (int j = f->j0; j < f->j1; j++) {
            const int coord = axis == 1 ? j : k;
            if (axis != 0 && (coord / step) % 2 != parity) continue;
            lc->row_node[lc->rows++] = (int64_t)f->nx * (j + (int64_t)f->ny * k);
        }
    if (axis != 0) return 0;
    lc->pick = malloc((size_t)(f->i1 > f->i0 ? f->i1 - f->i0 : 1) * sizeof *lc->pick);
    if (!lc->pick) return -1;
    for (int i = f->i0; i < f->i1; i++)
        if ((i / step) % 2 == parity) lc->pick[lc->picks++] = i;
    return 0;
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

/* The steps from coordinate x by d (d != 0) that stay in [lo, hi): the chain's springs along that axis. */
static int steps_in(int x, int d, int lo, int hi) { return d > 0 ? (hi - 1 - x) / d + 1 : (x - lo) / -d + 1; }

/* Family f's chains (constraints.h), by first source in the order (k, j, i). 0 or -1 (memory). */
static int lattice_chains(const hk_family *f, hk_lattice_chains *ch)
{
    const int lo[3] = {f->i0, f->j0, f->k0}, hi[3] = {f->i1, f->j1, f->k1}, d[3] = {f->di, f->dj, f->dk};
    for (int pass = 0; pass < 2; pass++) { /* count, then fill */
        ch->count = 0;
        for (int k = f->k0; k < f->k1; k++)
            for (int j = f->j0; j < f->j1; j++)
                for (int i = f->i0; i < f->i1; i++) {
                    const int x[3] = {i, j, k};
                    int start = 0, len = INT32_MAX;
                    for (int a = 0; a < 3; a++) {
                        if (!d[a]) continue;
                        start |= x[a] - d[a] < lo[a] || x[a] - d[a] >= hi[a];
                        const int n = steps_in(x[a], d[a], lo[a], hi[a]);
                        len = n < len ? n : len;
                    }
                    if (!start) continue;
                    if (pass == 1) {
                        ch->start[ch->count] = i + (int64_t)f->nx * (j + (int64_t)f->ny * k);
                        ch->len[ch->count] = len;
                        ch->longest = len > ch->longest ? len : ch->longest;
                    }
                    ch->count++;
                }
        if (pass == 1) break;
        ch->start = malloc((size_t)(ch->count > 0 ? ch->count : 1) * sizeof *ch->start);
        ch->len = malloc((size_t)(ch->count > 0 ? ch->count : 1) * sizeof *ch->len);
        if (!ch->start || !ch->len) return -1;
    }
    return 0;
}

int64_t hk_lattice_chain_of(const hk_family *f, const hk_lattice_chains *ch, int i, int j, int k)
{
    const int x[3] = {i, j, k}, lo[3] = {f->i0, f->j0, f->k0}, hi[3] = {f->i1, f->j1, f->k1};
    const int d[3] = {f->di, f->dj, f->dk};
    int back = INT32_MAX;
    for (int a = 0; a < 3; a++) {
        if (!d[a]) continue;
        const int n = d[a] > 0 ? (x[a] - lo[a]) / d[a] : (hi[a] - 1 - x[a]) / -d[a];
        back = n < back ? n : back;
    }
    const int64_t start = (i - back * d[0]) + (int64_t)f->nx * ((j - back * d[1]) + (int64_t)f->ny * (k - back * d[2]));
    int64_t a = 0, b = ch->count - 1;
    while (a < b) { /* the first chain starting at or after start */
        const int64_t m = a + (b - a) / 2;
        if (ch->start[m] < start)
            a = m + 1;
        else
            b = m;
    }
    HK_ASSERT(ch->start[a] == start);
    return a;
}

/* The lattice families' colours and chains and each family's place in u. 0 or -1 (memory). */
static int lattice_colours(hk_world *w, hk_constraints *c)
{
    c->u_base = calloc((size_t)w->family_count + 1, sizeof *c->u_base);
    c->lc = calloc((size_t)2 * w->family_count + 1, sizeof *c->lc);
    c->chains = calloc((size_t)w->family_count + 1, sizeof *c->chains);
    c->families = w->family_count; /* the chains' count, for constraints_free */
    if (!c->u_base || !c->lc || !c->chains) return -1;
    int64_t u = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE) continue;
        c->u_base[fi] = u;
        u += (int64_t)f->nx * f->ny * f->nz;
        for (int parity = 0; parity < 2; parity++)
            if (lattice_colour(f, fi, parity, &c->lc[c->lattice_colours++]) != 0) return -1;
        if (lattice_chains(f, &c->chains[fi]) != 0) return -1;
    }
    c->u_list = u;
    return 0;
}

static hk_constraints *build(hk_world *w)
{
    const int64_t total = hk_world_facts(w)->springs;
    int64_t n = 0; /* list springs */
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].kind == HK_FAMILY_LIST) n += w->families[fi].count;
    hk_constraints *c = calloc(1, sizeof *c);
    colour_pass cs = {0};
    place_pass ps = {0};
    if (c) {
        cs.used = calloc((size_t)(w->p.count > 0 ? w->p.count : 1), sizeof *cs.used);
        cs.colour = malloc((size_t)(n > 0 ? n : 1));
        c->colour_start = calloc(HK_CONSTRAINT_COLOURS + 2, sizeof *c->colour_start);
        c->a = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->a);
        c->b = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->b);
        c->slot = malloc((size_t)(n > 0 ? n : 1) * sizeof *c->slot);
        c->coef = malloc((size_t)(3 * w->family_count + 3) * sizeof *c->coef);
        ps.fam = malloc((size_t)(n > 0 ? n : 1) * sizeof *ps.fam);
    }
    if (!c || !cs.used || !cs.colour || !c->colour_start || !c->a || !c->b || !c->slot || !c->coef || !ps.fam ||
        lattice_colours(w, c) != 0) {
        free(cs.used);
        free(cs.colour);
        free(ps.fam);
        constraints_free(c);
        hk_fail_memory(w, "out of memory for the constraints of %lld springs", (long long)total);
        return NULL;
    }
    each_list_spring(w, colour_one, &cs);
    HK_ASSERT(cs.n == n);
    free(cs.used);
    /* the colours in use, the serial one last; each colour's springs in the list's order */
    ps.c = c;
    ps.colour = cs.colour;
    int colours = 0;
    for (int k = 0; k <= HK_CONSTRAINT_COLOURS; k++) {
        if (!cs.count[k]) continue;
        ps.next[k] = c->colour_start[colours];
        c->colour_start[++colours] = ps.next[k] + cs.count[k];
        c->serial = k == HK_CONSTRAINT_COLOURS;
    }
    each_list_spring(w, place_one, &ps);
    free(cs.colour);
    const int rc = runs_of(c, colours, ps.fam);
    free(ps.fam);
    if (rc != 0) {
        constraints_free(c);
        hk_fail_memory(w, "out of memory for the constraints of %lld springs", (long long)total);
        return NULL;
    }
    c->count = total;
    c->u_count = c->u_list + n;
    c->colours = colours;
    c->bodies = w->body_count;
    c->families = w->family_count;
    c->particles = w->p.count;
    c->coloured = w->coloured;
    return c;
}

int hk_constraints_u(hk_world *w, hk_constraints *c)
{
    if (c->u[0]) return 0;
    const int64_t n = c->u_count > 0 ? c->u_count : 1;
    c->u[0] = hk_alloc_reals(3 * (size_t)n, w);
    if (!c->u[0]) {
        hk_fail_memory(w, "out of memory for the sweeps' forces of %lld springs", (long long)c->count);
        return -1;
    }
    c->u[1] = c->u[0] + n;
    c->u[2] = c->u[1] + n;
    return 0;
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

/* Marks particle e as seen in colour `mark`: 0, or -1 with why (outside, or twice). */
static int see(const hk_world *w, int64_t *seen, int64_t e, int64_t mark, char *why, size_t len)
{
    if (e < 0 || e >= w->p.count)
        return snprintf(why, len, "colour %lld: end %lld outside the %d particles", (long long)mark - 1, (long long)e,
                        w->p.count),
               -1;
    if (seen[e] == mark)
        return snprintf(why, len, "colour %lld: particle %lld twice", (long long)mark - 1, (long long)e), -1;
    seen[e] = mark;
    return 0;
}

int hk_constraints_check(const hk_world *w, const hk_constraints *c, char *why, size_t len)
{
    int64_t *seen = calloc((size_t)(w->p.count > 0 ? w->p.count : 1), sizeof *seen);
    if (!seen) return snprintf(why, len, "out of memory"), -1;
    int bad = 0;
    int64_t springs = 0, mark = 0;
    for (int k = 0; k < c->lattice_colours && !bad; k++) {
        const hk_lattice_colour *lc = &c->lc[k];
        const hk_family *f = &w->families[lc->fam];
        mark++;
        for (int r = 0; r < lc->rows && !bad; r++) {
            const int n = lc->axis == 0 ? lc->picks : f->i1 - f->i0;
            for (int t = 0; t < n && !bad; t++) {
                const int64_t a = f->base + lc->row_node[r] + (lc->axis == 0 ? lc->pick[t] : f->i0 + t);
                bad = see(w, seen, a, mark, why, len) != 0 || see(w, seen, a + f->offset, mark, why, len) != 0;
                springs++;
            }
        }
    }
    for (int k = 0; k < c->colours && !bad; k++) {
        mark++;
        for (int64_t i = c->colour_start[k]; i < c->colour_start[k + 1] && !bad; i++) {
            springs++;
            if (k == c->colours - 1 && c->serial) continue;
            bad = see(w, seen, c->a[i], mark, why, len) != 0 || see(w, seen, c->b[i], mark, why, len) != 0;
        }
    }
    if (!bad && springs != c->count) {
        snprintf(why, len, "the colours hold %lld springs of %lld", (long long)springs, (long long)c->count);
        bad = 1;
    }
    free(seen);
    return bad ? -1 : 0;
}
