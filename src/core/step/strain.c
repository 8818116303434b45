/* strain.c — every spring's strain, each step: the overstretched broken, and one scan for the energy and the largest
 * stretch. */
/* SPDX-License-Identifier: MIT */
#include "strain.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>

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

/* What one pass over springs finds: their energy [J] summed in order, and
 * the first spring with the largest r / L0 (slot -1: none above 0). */
typedef struct scan_part {
    double energy, ratio;
    int64_t slot;
} scan_part;

/* One spring's energy added to *s, and its r / L0 taken if it is the
 * largest so far; nothing for a broken one. Everything is read before the
 * tests (a broken spring's length too): the compiler then reads the
 * family's and the particles' fields once a scan, not once a spring (it
 * does not move a read that a test may skip out of the loop). */
static inline void scan_spring(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b,
                               hk_real L0, int broken, scan_part *s)
{
    const double r = spring_length(f, p, slot, a, b), ext = r - (double)L0, half_k = 0.5 * f->params.k;
    const hk_behaviour behaviour = f->params.behaviour;
    if (broken) return;
    if (L0 > 0 && r / L0 > s->ratio) s->ratio = r / L0, s->slot = slot;
    if (behaviour == HK_SPRING_TENSION_ONLY && !(ext > 0)) return;
    if (behaviour == HK_SPRING_COMPRESSION_ONLY && !(ext < 0)) return;
    s->energy += half_k * ext * ext;
}

/* The scan of rows q0..q1 of f (a lattice's source rows, or a list's
 * springs), in order. */
HK_FMA_CLONES static scan_part scan_rows(const hk_family *f, const hk_particles *p, int64_t q0, int64_t q1)
{
    scan_part s = {0.0, 0.0, -1};
    const uint8_t *broken = f->broken;
    for (int64_t q = q0; q < q1; q++) {
        if (f->kind == HK_FAMILY_LATTICE) {
            const int64_t row = (int64_t)f->nx * source_row(f, q);
            for (int i = f->i0; i < f->i1; i++) {
                const int64_t local = row + i;
                scan_spring(f, p, local, f->base + local, f->base + local + f->offset, f->rest, broken && broken[local],
                            &s);
            }
        } else
            scan_spring(f, p, q, f->a[q], f->b[q], f->rest_list ? f->rest_list[q] : f->rest, broken && broken[q], &s);
    }
    return s;
}

/* Part of family fi's scan merged into out, which holds the families
 * before it and the blocks of fi before this one. */
static void scan_merge(hk_spring_scan *out, int fi, const scan_part *s)
{
    out->energy += s->energy;
    if (s->slot >= 0 && s->ratio > out->max_stretch) {
        out->max_stretch = s->ratio;
        out->family = fi;
        out->slot = s->slot;
    }
}

/* Family fi's scan merged into out. A family of more than
 * HK_STRAIN_PARALLEL_MIN springs is cut into SCAN_BLOCKS fixed blocks of
 * rows shared out over the team, and the blocks are merged in order, so the
 * result does not depend on the team. */
enum { SCAN_BLOCKS = 256 };
typedef struct scan_pass {
    const hk_family *f;
    const hk_particles *p;
    int64_t rows;
    scan_part part[SCAN_BLOCKS];
} scan_pass;

static void scan_blocks(void *ctx, int64_t b0, int64_t b1)
{
    scan_pass *sp = ctx;
    for (int64_t blk = b0; blk < b1; blk++)
        sp->part[blk] = scan_rows(sp->f, sp->p, sp->rows * blk / SCAN_BLOCKS, sp->rows * (blk + 1) / SCAN_BLOCKS);
}

static void scan_family(const hk_world *w, int fi, hk_spring_scan *out)
{
    const hk_family *f = &w->families[fi];
    const int64_t rows = f->kind == HK_FAMILY_LATTICE ? (int64_t)(f->k1 - f->k0) * (f->j1 - f->j0) : f->count;
    if (f->count <= HK_STRAIN_PARALLEL_MIN) {
        const scan_part s = scan_rows(f, &w->p, 0, rows);
        scan_merge(out, fi, &s);
        return;
    }
    scan_pass sp = {.f = f, .p = &w->p, .rows = rows};
    hk_team_for(w, hk_world_team(w), SCAN_BLOCKS, scan_blocks, &sp);
    for (int blk = 0; blk < SCAN_BLOCKS; blk++) scan_merge(out, fi, &sp.part[blk]);
}

hk_spring_scan hk_springs_scan(const hk_world *w)
{
    hk_spring_scan out = {0.0, 0.0, -1, -1};
    for (int fi = 0; fi < w->family_count; fi++) scan_family(w, fi, &out);
    return out;
}

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
