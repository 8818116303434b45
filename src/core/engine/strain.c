/* strain.c — every spring's strain, each step: the overstretched broken, and one scan for the energy, the largest
 * stretch and the energy's slope along a direction. */
/* SPDX-License-Identifier: MIT */
#include "strain.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "part.h"
#include "springs.h"

/* Families of up to this many springs are broken and scanned on one task. */
#define HK_STRAIN_PARALLEL_MIN 65536

/* Row q (0-based, j fastest) of a lattice family's source rows as a row of
 * its lattice, j + ny k; its first spring's slot is nx times that. */
static int64_t source_row(const hk_family *f, int64_t q)
{
    const int64_t jn = f->j1 - f->j0;
    return f->j0 + q % jn + (int64_t)f->ny * (f->k0 + q / jn);
}

/* r of a spring as the kernels compute it (so a spring at rest has r = L0
 * exactly: stretch 1, no energy); inline, so that the scan's FMA build
 * (HK_FMA_CLONES) takes it in rather than calling it per spring */
static inline double spring_length(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b)
{
    hk_real d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    return hk_spring_length(d[0], d[1], d[2]);
}

/* The test of family f's springs (a lattice's source rows, or a list's
 * springs) against break_ratio L0, and the count of those that broke now. */
typedef struct break_pass {
    const hk_particles *p;
    hk_family *f;
    /* a distributed run: this rank's rows and halo; a rope's nodes (part.h) */
    int lo, hi, halo, nlo, nhi, nhalo;
    atomic_llong now;
} break_pass;

static void break_items(void *ctx, int64_t q0, int64_t q1)
{
    break_pass *bp = ctx;
    const hk_particles *p = bp->p;
    hk_family *f = bp->f;
    const double ratio = (double)f->break_ratio;
    const int lattice = f->kind == HK_FAMILY_LATTICE;
    const int lo = bp->lo, hi = bp->hi, halo = bp->halo, nlo = bp->nlo, nhi = bp->nhi, nhalo = bp->nhalo;
    int64_t now = 0;
    for (int64_t q = q0; q < q1; q++) {
        if (lattice) {
            const int r = (int)source_row(f, q);
            if (r < lo - halo || r >= hi) continue;
            const int64_t row = (int64_t)f->nx * r;
            const int i0 = f->i0 > nlo - nhalo ? f->i0 : nlo - nhalo, i1 = f->i1 < nhi ? f->i1 : nhi;
            for (int i = i0; i < i1; i++) {
                const int64_t l = row + i;
                if (f->broken[l] || !(spring_length(f, p, l, f->base + l, f->base + l + f->offset) > ratio * f->rest))
                    continue;
                f->broken[l] = 1;
                now += r >= lo && i >= nlo;
            }
        } else {
            const double L0 = f->rest_list ? (double)f->rest_list[q] : (double)f->rest;
            if (f->broken[q] || !(spring_length(f, p, q, f->a[q], f->b[q]) > ratio * L0)) continue;
            f->broken[q] = 1;
            now++;
        }
    }
    atomic_fetch_add_explicit(&bp->now, now, memory_order_relaxed);
}

/* Marks the springs of f past break_ratio L0 as broken; how many broke now.
 * Each spring's test is its own: the springs (a lattice's source rows) are
 * shared out over the world's team, the counts summed (integers: the same
 * for any team). */
static int64_t break_family(const hk_world *w, hk_family *f)
{
    const int lattice = f->kind == HK_FAMILY_LATTICE;
    const int64_t jn = lattice ? f->j1 - f->j0 : 0;
    const int64_t items = lattice ? (int64_t)(f->k1 - f->k0) * jn : f->count;
    /* a distributed run: a slab tests the source rows it sweeps, its own and
     * its halo's (their owner finds the same), and counts its own (a rope's
     * range of nodes the same way, by nodes); a body computed whole
     * elsewhere is left to its rank (dist/part.h) */
    break_pass bp = {.p = &w->p, .f = f, .hi = INT_MAX, .nhi = INT_MAX}; /* rows; a rope's nodes */
    if (lattice && hk_part_rows(w, f->body, &bp.lo, &bp.hi, &bp.halo)) {
        if (bp.lo >= bp.hi) return 0;
    } else if (lattice && hk_part_nodes(w, f->body, &bp.nlo, &bp.nhi, &bp.nhalo)) {
        if (bp.nlo >= bp.nhi) return 0;
    } else if (!hk_part_computes(w, f->body)) {
        return 0;
    }
    atomic_init(&bp.now, 0);
    hk_team_for(w, hk_team_size(w, f->count, HK_STRAIN_PARALLEL_MIN), items, break_items, &bp);
    const int64_t now = atomic_load(&bp.now);
    f->broken_count += now;
    return now;
}

int64_t hk_springs_break(hk_world *w)
{
    int64_t now = 0;
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].broken) now += break_family(w, &w->families[fi]);
    return now;
}

/* Spring `slot` of f (global ends a, b, rest length L0) in the scan s (state_sums.h hk_scan_spring); along a
 * direction y (NULL: none) its share of the energy's slope and rounding scale too. */
static inline void scan_spring(const hk_family *f, const hk_particles *p, hk_real *const *y, int64_t slot, int64_t a,
                               int64_t b, hk_real L0, int broken, hk_scan_part *s)
{
    hk_real d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    const double half_k = 0.5 * f->params.k;
    double r, ext;
    if (!hk_scan_spring(d, L0, half_k, (int)f->params.behaviour, broken, slot, s, &r, &ext) || !y || !(r > 0)) return;
    double along = 0; /* u . (y_a - y_b) */
    for (int c = 0; c < 3; c++) along += (double)d[c] * ((double)y[c][a] - (double)y[c][b]);
    s->slope += 2 * half_k * ext * along / r;
    s->rounding += 2 * half_k * fabs(ext) * r;
}

/* The scan of rows q0..q1 of f (a lattice's source rows, or a list's
 * springs), in order, continuing s; of a lattice's rows only the sources
 * [ia, ib) along a row (a rope's range of nodes on a distributed world). */
HK_FMA_CLONES static void scan_rows(const hk_family *f, const hk_particles *p, hk_real *const *y, int64_t q0,
                                    int64_t q1, int ia, int ib, hk_scan_part *s)
{
    const uint8_t *broken = f->broken;
    const int i0 = f->i0 > ia ? f->i0 : ia, i1 = f->i1 < ib ? f->i1 : ib;
    for (int64_t q = q0; q < q1; q++) {
        if (f->kind == HK_FAMILY_LATTICE) {
            const int64_t row = (int64_t)f->nx * source_row(f, q);
            for (int i = i0; i < i1; i++) {
                const int64_t local = row + i;
                scan_spring(f, p, y, local, f->base + local, f->base + local + f->offset, f->rest,
                            broken && broken[local], s);
            }
        } else
            scan_spring(f, p, y, q, f->a[q], f->b[q], f->rest_list ? f->rest_list[q] : f->rest, broken && broken[q], s);
    }
}

/* Family fi's scan: a family in its fixed blocks of rows (state_sums.h),
 * each scanned from zero, the blocks merged in order, so the result does
 * not depend on the team. Every family's blocks are
 * scanned in one pass, shared over the team by their springs (a world of
 * many small families, five cloths of six families each, scans them side
 * by side). On a distributed world each
 * rank scans the rows it computes (its slab's source rows; a rope's nodes,
 * within its one row), and the scan is relayed family by family from rank
 * to rank in the order of the rows (part.h hk_part_relay): a block that
 * straddles two ranks is continued by the second from the first's partial
 * sum, so every block's sum is the one-process sum. The blocks that start
 * in a rank's rows are scanned on every rank at once, before the relay. */
/* A family's part on this rank: its rows [qa, qb) (sources [ia, ib) along a row), its blocks, and the partial
 * sums of the blocks met: those that start in it from their start, the one that started before left to the relay. */
typedef struct family_part {
    int64_t rows, qa, qb;
    int ia, ib;
    int nblocks;
    int64_t b0, b1;     /* the blocks met: [b0, b1) */
    hk_scan_part *part; /* part[b - b0] */
} family_part;

static int64_t block_start(const family_part *fp, int64_t b) { return hk_scan_block_start(fp->rows, fp->nblocks, b); }

/* Whether block b's sum starts on this rank (its first row is here, and a rope's first source). */
static int starts_here(const hk_family *f, const family_part *fp, int64_t b)
{
    const int64_t a = block_start(fp, b);
    return a > fp->qa || (a == fp->qa && fp->ia <= f->i0);
}

/* Whether block b's sum ends on this rank (its last row is here, and a rope's last source). */
static int ends_here(const hk_family *f, const family_part *fp, int64_t b)
{
    const int64_t e = block_start(fp, b + 1);
    return e < fp->qb || (e == fp->qb && fp->ib >= f->i1);
}

int64_t hk_scan_rows(const hk_family *f)
{
    const int lattice = f->kind == HK_FAMILY_LATTICE;
    if (lattice && f->i0 >= f->i1) return 0;
    return lattice ? (int64_t)(f->k1 - f->k0) * (f->j1 - f->j0) : f->count;
}

/* The rows of family f this rank scans, from its body's share [l0, l1) (body-local particles); 0 if none. */
static int family_rows(const hk_world *w, const hk_family *f, int64_t l0, int64_t l1, family_part *fp)
{
    memset(fp, 0, sizeof *fp);
    const int lattice = f->kind == HK_FAMILY_LATTICE;
    fp->rows = hk_scan_rows(f);
    fp->nblocks = hk_scan_blocks(f->count);
    fp->qa = 0, fp->qb = fp->rows, fp->ia = 0, fp->ib = INT_MAX;
    int lo, hi;
    if (lattice && hk_part_nodes(w, f->body, &lo, &hi, NULL)) {
        fp->ia = (int)l0, fp->ib = (int)l1; /* one row: a range of its nodes */
    } else if (lattice && hk_part_rows(w, f->body, &lo, &hi, NULL)) {
        /* source rows j0 + q % jn + ny (k0 + q / jn), ascending in q: those in [lo, hi) */
        const int64_t r0 = l0 / f->nx, r1 = l1 / f->nx;
        int64_t a = 0;
        while (a < fp->rows && source_row(f, a) < r0) a++; /* rows are few beside springs: a walk is cheap */
        int64_t b = a;
        while (b < fp->rows && source_row(f, b) < r1) b++;
        fp->qa = a, fp->qb = b;
    }
    if (fp->qa >= fp->qb || (lattice && (fp->ia >= fp->ib || f->i0 >= f->i1))) return 0;
    fp->b0 = 0;
    while (fp->b0 + 1 < fp->nblocks && block_start(fp, fp->b0 + 1) <= fp->qa) fp->b0++;
    fp->b1 = fp->b0;
    while (fp->b1 < fp->nblocks && block_start(fp, fp->b1) < fp->qb) fp->b1++;
    return fp->b1 > fp->b0;
}

/* Every family's blocks met on this rank, one list: family fi's block b0 + k is item first[fi] + k; at[item] is the
 * springs of the items before it (at[items] all of them), by which the tasks share them. */
typedef struct scan_pass {
    const hk_world *w;
    hk_real *const *y;
    family_part *fp;
    int64_t *first; /* [family_count + 1] */
    int64_t *at;    /* [items + 1] */
    int64_t items;
} scan_pass;

/* The springs of block b of family f's part fp on this rank (its rows here, times a row's springs). */
static int64_t block_springs(const hk_family *f, const family_part *fp, int64_t b)
{
    const int64_t a = block_start(fp, b), e = block_start(fp, b + 1);
    const int64_t rows = (e < fp->qb ? e : fp->qb) - (a > fp->qa ? a : fp->qa);
    return f->kind != HK_FAMILY_LATTICE ? rows : rows * (f->i1 - f->i0);
}

/* The items whose springs start in the task's share of all of them (the last task's from its share's start on: an
 * empty item at the end too): each block that starts in this rank's rows scanned from its start to its end or to the
 * rank's last row, into its part. */
static void scan_task(const hk_team *tm, void *ctx)
{
    const scan_pass *sp = ctx;
    const int64_t lo = sp->at[sp->items] * tm->t / tm->T, hi = sp->at[sp->items] * (tm->t + 1) / tm->T;
    int fi = 0;
    for (int64_t item = 0; item < sp->items; item++) {
        if (sp->at[item] < lo || (sp->at[item] >= hi && tm->t < tm->T - 1)) continue; /* (at: ascending; few) */
        while (sp->first[fi + 1] <= item) fi++;
        const hk_family *f = &sp->w->families[fi];
        family_part *fp = &sp->fp[fi];
        const int64_t k = item - sp->first[fi], b = fp->b0 + k, e = block_start(fp, b + 1);
        hk_scan_part s = HK_SCAN_PART_ZERO;
        if (starts_here(f, fp, b))
            scan_rows(f, &sp->w->p, sp->y, block_start(fp, b), e < fp->qb ? e : fp->qb, fp->ia, fp->ib, &s);
        fp->part[k] = s;
    }
}

/* What the relay carries: the scan so far, and the block in progress where a rank's rows end inside it. */
typedef struct scan_state {
    hk_spring_scan out;
    hk_scan_part carry;
} scan_state;

typedef struct scan_relay {
    const hk_world *w;
    hk_real *const *y;
    family_part *fp; /* per family */
} scan_relay;

/* Family fi's part on this rank into the relay's state: the block begun before continued in order, the blocks
 * scanned before merged in order. */
static void scan_family(void *ctx, void *state, int fi, int64_t l0, int64_t l1)
{
    (void)l0;
    (void)l1;
    const scan_relay *sr = ctx;
    scan_state *st = state;
    const hk_family *f = &sr->w->families[fi];
    const family_part *fp = sr->fp ? &sr->fp[fi] : NULL;
    if (!fp || !fp->part)
        return; /* no spring of it here (or no memory to scan it: hk_world_check's caller finds
                   the figures short) */
    for (int64_t b = fp->b0; b < fp->b1; b++) {
        hk_scan_part s = fp->part[b - fp->b0];
        if (!starts_here(f, fp, b)) { /* begun on the rank before: continued from its sum */
            const int64_t e = block_start(fp, b + 1);
            s = st->carry;
            scan_rows(f, &sr->w->p, sr->y, fp->qa, e < fp->qb ? e : fp->qb, fp->ia, fp->ib, &s);
        }
        if (ends_here(f, fp, b)) {
            hk_scan_merge(&st->out, fi, &s);
            st->carry = HK_SCAN_PART_ZERO;
        } else {
            st->carry = s;
        }
    }
}

static hk_spring_scan scan(const hk_world *w, hk_real *const y[3])
{
    scan_state st = {HK_SPRING_SCAN_ZERO, HK_SCAN_PART_ZERO};
    /* a distributed run: a slab's springs reach into the halo rows, which the step's update left as they were
     * before it (their owners moved them): as they are now */
    hk_part_exchange(w);
    if (y) hk_part_exchange_arrays(w, y, 3);
    const size_t nf = (size_t)(w->family_count ? w->family_count : 1);
    family_part *fp = calloc(nf, sizeof *fp);
    scan_pass sp = {w, y, fp, fp ? malloc((nf + 1) * sizeof *sp.first) : NULL, NULL, 0};
    /* the blocks of every family that start in this rank's rows, in one pass on every rank at once */
    for (int fi = 0; sp.first && fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        int64_t l0, l1;
        sp.first[fi] = sp.items;
        if (!hk_part_owned(w, f->body, &l0, &l1) || !family_rows(w, f, l0, l1, &fp[fi])) continue;
        const int64_t n = fp[fi].b1 - fp[fi].b0;
        if ((fp[fi].part = malloc((size_t)n * sizeof *fp[fi].part))) sp.items += n;
    }
    if (sp.first) sp.first[w->family_count] = sp.items;
    sp.at = sp.first ? malloc((size_t)(sp.items + 1) * sizeof *sp.at) : NULL;
    if (sp.at) {
        sp.at[0] = 0;
        for (int fi = 0; fi < w->family_count; fi++)
            for (int64_t k = 0; k < sp.first[fi + 1] - sp.first[fi]; k++) {
                const int64_t item = sp.first[fi] + k;
                sp.at[item + 1] = sp.at[item] + block_springs(&w->families[fi], &fp[fi], fp[fi].b0 + k);
            }
        hk_team_run(w, hk_team_size(w, sp.at[sp.items], HK_STRAIN_PARALLEL_MIN), scan_task, &sp);
    } else
        for (int fi = 0; fp && fi < w->family_count; fi++) { /* no memory to scan: the figures fall short */
            free(fp[fi].part);
            fp[fi].part = NULL;
        }
    free(sp.first);
    free(sp.at);
    scan_relay sr = {w, y, fp};
    hk_part_relay(w, 1, &st, sizeof st, scan_family, &sr); /* on every rank, with a part of the springs or not */
    for (int fi = 0; fp && fi < w->family_count; fi++) free(fp[fi].part);
    free(fp);
    return st.out;
}

hk_spring_scan hk_springs_scan(const hk_world *w) { return scan(w, NULL); }
hk_spring_scan hk_springs_scan_along(const hk_world *w, hk_real *const y[3]) { return scan(w, y); }

/* Spring s (0-based, in scan order) of family f as (slot, a, b). */
static void spring_at(const hk_family *f, int64_t s, int64_t *slot, int64_t *a, int64_t *b)
{
    if (f->kind == HK_FAMILY_LATTICE) {
        const int64_t row_len = f->i1 - f->i0;
        *slot = (int64_t)f->nx * source_row(f, s / row_len) + f->i0 + s % row_len;
        *a = f->base + *slot;
        *b = *a + f->offset;
    } else {
        *slot = s;
        *a = f->a[s];
        *b = f->b[s];
    }
}

int hk_world_spring_ends(const hk_world *w, int family, int64_t first, int64_t count, int *a, int *b)
{
    if (!w || family < 0 || family >= w->family_count || !a || !b) return HK_ERR_INVALID;
    const hk_family *f = &w->families[family];
    if (first < 0 || count < 0 || first > f->count || count > f->count - first) return HK_ERR_INVALID;
    for (int64_t s = 0; s < count; s++) {
        int64_t slot, ea, eb;
        spring_at(f, first + s, &slot, &ea, &eb);
        a[s] = (int)ea;
        b[s] = (int)eb;
    }
    return HK_OK;
}

int hk_world_spring_lengths(const hk_world *w, int family, int64_t first, int64_t count, double *rest, double *length,
                            uint8_t *broken)
{
    if (!w || family < 0 || family >= w->family_count) return HK_ERR_INVALID;
    hk_state_read(w);
    const hk_family *f = &w->families[family];
    if (first < 0 || count < 0 || first > f->count || count > f->count - first) return HK_ERR_INVALID;
    HK_ASSERT(f->kind != HK_FAMILY_LATTICE || f->count == (int64_t)(f->i1 - f->i0) * (f->j1 - f->j0) * (f->k1 - f->k0));
    for (int64_t s = 0; s < count; s++) {
        int64_t slot, a, b;
        spring_at(f, first + s, &slot, &a, &b);
        if (rest) rest[s] = (double)(f->kind == HK_FAMILY_LIST && f->rest_list ? f->rest_list[slot] : f->rest);
        if (length) length[s] = spring_length(f, &w->p, slot, a, b);
        if (broken) broken[s] = f->broken ? f->broken[slot] != 0 : 0;
    }
    return HK_OK;
}
