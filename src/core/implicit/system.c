/* system.c — applies the implicit system M + sum S without assembling it, builds its block-Jacobi preconditioner. */
/* SPDX-License-Identifier: MIT */
#include "system.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "check.h"
#include "kernels.h"
#include "part.h"
#include "response.h"
#include "team.h"

/* A planar or linear lattice body (nz = 1, families reaching at most
 * HK_SYS_REACH rows and HK_SYS_MARGIN nodes along a row) takes its product
 * chunk by chunk: HK_SYS_CHUNK target rows at a time, sweeping the source
 * rows from REACH above the chunk to REACH below it. Each source row's
 * products go, family by family, into a ring of HK_SYS_RING rows per family
 * (per thread, small enough to stay in cache), and each target row, as soon
 * as its sources are in, is gathered once: the mass term, then every
 * family's source and target terms in family order, which are the terms
 * and the order the whole-body buffers give, so the bits do not change.
 * The products of the rows around a chunk are evaluated again by the chunk
 * beside it (5 of 96 family rows on a cloth). */
#define HK_SYS_CHUNK 16
#define HK_SYS_REACH 2
#define HK_SYS_RING (2 * HK_SYS_REACH + 1)
#define HK_SYS_MARGIN 16 /* zero reals on both sides of a ring row: the reach along a row at most */

int hk_system_team(const hk_world *w) { return hk_team_of(w, w->p.count); }

/* The kernel table of the world's path; the reference path uses the scalar
 * one (the Jacobian has no separate reference copy). */
const hk_kernels *hk_system_kernels(const hk_world *w) { return w->kernels ? w->kernels : &hk_kernels_scalar; }

static int64_t lattice_nodes(const hk_world *w, const hk_family *f)
{
    const hk_body *b = &w->bodies[f->body];
    return (int64_t)b->nx * b->ny * (b->nz ? b->nz : 1);
}

void hk_implicit_free(hk_implicit *im)
{
    if (!im) return;
    free(im->slab);
    free(im->tslab);
    free(im->t);
    free(im->views);
    free(im->view_family);
    free(im->body_view);
    free(im->span);
    free(im->partial);
    free(im->block);
    free(im->block_body);
    free(im->block_at);
    free(im->own);
    free(im->fixed);
    free(im->by_chunks);
    hk_free_reals(im->chunk_buf);
    free(im->chunk_views);
    free(im); /* im->mg is freed by its maker (implicit.c hk_implicit_release) */
}

/* im->fixed = the particles with inverse mass 0, in index order. */
static void list_fixed(const hk_world *w, hk_implicit *im)
{
    im->fixed_count = 0;
    for (int i = 0; i < w->p.count; i++)
        if (w->p.inv_mass[i] == 0) im->fixed[im->fixed_count++] = i;
}

/* Whether body bi, whose families are fams[0 .. n), can run its product
 * chunk by chunk. */
static int body_by_chunks(const hk_world *w, int bi, const int *fams, int n)
{
    const hk_body *b = &w->bodies[bi];
    if (b->nz > 1 || b->nx < 1 || b->ny < 1 || (int64_t)b->nx * b->ny != b->count) return 0;
    int lattice = 0;
    for (int q = 0; q < n; q++) {
        const hk_family *f = &w->families[fams[q]];
        if (f->kind != HK_FAMILY_LATTICE) continue;
        if (f->dk != 0 || abs(f->dj) > HK_SYS_REACH || abs(f->di) > HK_SYS_MARGIN) return 0;
        lattice = 1;
    }
    return lattice;
}

/* Per lattice family of a body that does not go by chunks its product
 * buffer: 3 arrays over its body's nodes held here (all of them in one
 * process; a slab's window on a distributed world: t[l] for l in the
 * window) with a zero guard of the largest |offset| on both sides, zero
 * outside the family's box for good (the gather reads t[l - offset]
 * without tests); then one 6-array block buffer over the largest lattice
 * body's held nodes, with the same zero guards (the multigrid reads the
 * blocks of l - offset without tests), placed for each family's body by
 * hk_system_block_buffer. */
static int alloc_products(const hk_world *w, hk_implicit *im)
{
    free(im->tslab);
    free(im->t);
    im->tslab = NULL;
    im->t = calloc(3 * (size_t)(w->family_count ? w->family_count : 1), sizeof *im->t);
    if (!im->t) return -1;
    size_t total = 0, largest = 0, guard = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE) continue;
        const size_t off = (size_t)(f->offset < 0 ? -f->offset : f->offset);
        if (off > guard) guard = off;
    }
    guard = hk_padded(guard);
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE) continue;
        const size_t n = hk_padded((size_t)(f->hi - f->lo));
        if (!im->by_chunks[f->body]) total += 3 * (n + 2 * guard);
        if (n > largest) largest = n;
    }
    total += 6 * (largest + 2 * guard);
    if (!largest) return 0;
    im->tslab = hk_alloc_reals(total, w);
    if (!im->tslab) return -1;
    hk_real *next = im->tslab;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE || im->by_chunks[f->body]) continue;
        const size_t n = hk_padded((size_t)(f->hi - f->lo));
        for (int c = 0; c < 3; c++, next += n + 2 * guard) im->t[3 * fi + c] = next + guard - f->lo;
    }
    for (int e = 0; e < 6; e++, next += largest + 2 * guard) im->blk[e] = next + guard;
    im->blk_guard = (int64_t)guard;
    return 0;
}

void hk_system_block_buffer(const hk_implicit *im, const hk_family *f, hk_real *blk[6])
{
    for (int e = 0; e < 6; e++) blk[e] = im->blk[e] - f->lo; /* blk[e][l] for the family's held nodes l */
}

/* The lattice families' views body by body, each body's in family order
 * (t is NULL for a body that goes by chunks), from the families of each
 * body (start, fams: hk_world_body_families); then the spans of the
 * gather. */
static int alloc_views(const hk_world *w, hk_implicit *im, const int *start, const int *fams)
{
    free(im->views);
    free(im->view_family);
    free(im->body_view);
    free(im->span);
    const size_t nf = (size_t)(w->family_count ? w->family_count : 1);
    im->views = calloc(nf, sizeof *im->views);
    im->view_family = calloc(nf, sizeof *im->view_family);
    im->body_view = calloc((size_t)w->body_count + 1, sizeof *im->body_view);
    im->span = malloc(2 * ((size_t)w->body_count + 1) * sizeof *im->span);
    if (!im->views || !im->view_family || !im->body_view || !im->span) return -1;
    int nv = 0;
    for (int bi = 0; bi < w->body_count; bi++) {
        im->body_view[bi] = nv;
        for (int q = start[bi]; q < start[bi + 1]; q++) {
            const int fi = fams[q];
            const hk_family *f = &w->families[fi];
            if (f->kind != HK_FAMILY_LATTICE) continue;
            for (int c = 0; c < 3; c++) im->views[nv].t[c] = im->t[3 * fi + c];
            im->view_family[nv] = fi;
            im->views[nv++].offset = f->offset;
        }
    }
    im->body_view[w->body_count] = nv;
    im->span_count = 0;
    for (int bi = 0; bi < w->body_count;) {
        int end = bi + 1;
        const int plain = !im->by_chunks[bi] && im->body_view[bi + 1] == im->body_view[bi];
        while (plain && end < w->body_count && !im->by_chunks[end] && im->body_view[end + 1] == im->body_view[end])
            end++;
        im->span[2 * im->span_count] = bi;
        im->span[2 * im->span_count++ + 1] = end;
        bi = end;
    }
    return 0;
}

/* The size of the per-thread rings of the bodies that go by chunks (made
 * by the first product that runs on a team that large). */
static void alloc_rings(const hk_world *w, hk_implicit *im)
{
    int64_t ring = 0; /* reals of the largest body's rings */
    im->ring_views = 0;
    for (int bi = 0; bi < w->body_count; bi++) {
        if (!im->by_chunks[bi]) continue;
        const int nv = im->body_view[bi + 1] - im->body_view[bi];
        const int64_t row = (int64_t)hk_padded((size_t)w->bodies[bi].nx) + 2 * HK_SYS_MARGIN;
        if ((int64_t)nv * 3 * HK_SYS_RING * row > ring) ring = (int64_t)nv * 3 * HK_SYS_RING * row;
        if (nv > im->ring_views) im->ring_views = nv;
    }
    hk_free_reals(im->chunk_buf);
    free(im->chunk_views);
    im->chunk_buf = NULL;
    im->chunk_views = NULL;
    im->chunk_threads = 0;
    im->chunk_stride = ring ? (int64_t)hk_padded((size_t)ring) : 0;
}

/* Particles of one unit of body b's rows (hk_part_unit_rows), or the body. */
static int64_t unit_particles(const hk_body *b)
{
    const int64_t nodes = (int64_t)b->nx * b->ny * (b->nz > 1 ? b->nz : 1);
    return b->nx > 0 && b->ny > 0 && nodes == b->total ? (int64_t)hk_part_unit_rows(b) * b->nx : b->total;
}

/* The reduction blocks, numbered alike on every rank: every unit of every
 * body cut into HK_SYS_BLOCK particles from its start, in the global order
 * of the particles; block k's body is block_body[k] and its body-local
 * particles [block_at[2 k], block_at[2 k + 1]). */
static int make_blocks(const hk_world *w, hk_implicit *im)
{
    free(im->block);
    free(im->block_body);
    free(im->block_at);
    im->block = NULL;
    im->block_body = NULL;
    im->block_at = NULL;
    int64_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        n = 0;
        for (int bi = 0; bi < w->body_count; bi++) {
            const int64_t unit = unit_particles(&w->bodies[bi]), end = w->bodies[bi].total;
            for (int64_t u = 0; u < end; u += unit)
                for (int64_t l = u; l < u + unit && l < end; l += HK_SYS_BLOCK, n++)
                    if (pass) {
                        im->block_body[n] = bi;
                        im->block_at[2 * n] = (int)l;
                        im->block_at[2 * n + 1] =
                            (int)(l + HK_SYS_BLOCK < u + unit && l + HK_SYS_BLOCK < end ? l + HK_SYS_BLOCK
                                  : u + unit < end                                      ? u + unit
                                                                                        : end);
                    }
        }
        if (pass) break;
        im->block_body = malloc((size_t)(n + 1) * sizeof *im->block_body);
        im->block_at = malloc(2 * (size_t)(n + 1) * sizeof *im->block_at);
        im->block = malloc(2 * (size_t)(n + 1) * sizeof *im->block);
        if (!im->block_body || !im->block_at || !im->block) return -1;
    }
    im->block_count = (int)n;
    return 0;
}

/* im->own = the blocks this rank computes, those whose particles it owns (a block lies whole in one rank's
 * share), and each one's storage range im->block[2 k], im->block[2 k + 1]. */
static int own_blocks(const hk_world *w, hk_implicit *im)
{
    free(im->own);
    im->own = malloc((size_t)(im->block_count ? im->block_count : 1) * sizeof *im->own);
    if (!im->own) return -1;
    im->own_count = 0;
    for (int k = 0; k < im->block_count; k++) {
        const int bi = im->block_body[k];
        int64_t l0, l1;
        im->block[2 * k] = im->block[2 * k + 1] = 0;
        if (!hk_part_owned(w, bi, &l0, &l1) || im->block_at[2 * k] < l0 || im->block_at[2 * k] >= l1) continue;
        HK_ASSERT(im->block_at[2 * k + 1] <= l1); /* whole in the share */
        const int64_t base = hk_body_base(&w->bodies[bi]);
        im->block[2 * k] = (int)(base + im->block_at[2 * k]);
        im->block[2 * k + 1] = (int)(base + im->block_at[2 * k + 1]);
        im->own[im->own_count++] = k;
    }
    im->own_part = w->part;
    return 0;
}

/* Whether every split body of a distributed world is cut on whole units of rows. */
static int cut_for_implicit(const hk_world *w)
{
    for (int bi = 0; bi < w->body_count && w->part; bi++) {
        int lo, hi;
        const int u = hk_part_unit_rows(&w->bodies[bi]);
        const int rows = w->bodies[bi].ny * (w->bodies[bi].nz > 1 ? w->bodies[bi].nz : 1);
        if (hk_part_rows(w, bi, &lo, &hi, NULL) && ((lo % u && lo != rows) || (hi % u && hi != rows))) return 0;
    }
    return 1;
}

/* (Re)makes the arrays for the world's current particles and families. */
static int implicit_alloc(hk_world *w, hk_implicit *im)
{
    const size_t cap = (size_t)(w->p.capacity ? w->p.capacity : 1);
    size_t stride, offset;
    free(im->slab);
    im->slab = hk_alloc_slab(3 * HK_SYS_VECTORS + 7, cap, 0, w, &stride, &offset);
    if (!im->slab) return -1;
    for (int v = 0; v < HK_SYS_VECTORS; v++)
        for (int c = 0; c < 3; c++) im->v[v][c] = im->slab + offset + (size_t)(3 * v + c) * stride;
    for (int e = 0; e < 6; e++) im->inv[e] = im->slab + offset + (size_t)(3 * HK_SYS_VECTORS + e) * stride;
    im->stop = im->slab + offset + (size_t)(3 * HK_SYS_VECTORS + 6) * stride;
    im->capacity = w->p.capacity;
    im->count = w->p.count;
    im->families = w->family_count;

    free(im->by_chunks);
    im->by_chunks = calloc((size_t)w->body_count + 1, 1);
    int *start = NULL, *fams = NULL;
    if (!im->by_chunks || hk_world_body_families(w, &start, &fams) != 0) return -1;
    for (int bi = 0; bi < w->body_count; bi++)
        im->by_chunks[bi] = (unsigned char)body_by_chunks(w, bi, fams + start[bi], start[bi + 1] - start[bi]);
    const int failed = alloc_products(w, im) != 0 || alloc_views(w, im, start, fams) != 0;
    free(start);
    free(fams);
    if (failed) return -1;
    const hk_family *const *lists;
    im->list_count = hk_engine_lists(w, &lists);
    if (im->list_count < 0) return -1;
    im->lists = lists;
    alloc_rings(w, im);

    if (make_blocks(w, im) != 0 || own_blocks(w, im) != 0) return -1;
    free(im->partial);
    im->partial = calloc((size_t)(4 * im->block_count + 4), sizeof *im->partial);
    free(im->fixed);
    im->fixed_count = 0;
    im->fixed = malloc((size_t)(w->p.count ? w->p.count : 1) * sizeof *im->fixed);
    if (!im->partial || !im->fixed) return -1;
    list_fixed(w, im);
    return 0;
}

hk_implicit *hk_implicit_get(hk_world *w)
{
    hk_implicit *im = w->implicit;
    if (!cut_for_implicit(w)) {
        hk_fail(w, "the world was shared out over ranks for an explicit integrator: share it out again "
                   "(hk_world_distribute) after setting an implicit one");
        return NULL;
    }
    if (im && im->capacity == w->p.capacity && im->count == w->p.count && im->families == w->family_count) {
        list_fixed(w, im); /* particles may have been pinned or freed since: the list is cheap */
        if (im->own_part != w->part) {
            if (own_blocks(w, im) != 0) {
                hk_fail_memory(w, "out of memory for the implicit solver");
                return NULL;
            }
            im->mg_stale = 1; /* its first coarse level is held by rows as the ranks share them: made again */
        }
        return im;
    }
    if (!im) {
        im = calloc(1, sizeof *im);
        if (!im) {
            hk_fail_memory(w, "out of memory for the implicit solver");
            return NULL;
        }
        w->implicit = im;
    }
    if (implicit_alloc(w, im) != 0) {
        hk_fail_memory(w, "out of memory for the implicit solver (%d particles)", w->p.count);
        return NULL;
    }
    im->mg_stale = 1; /* made for the arrays before: implicit.c makes it again */
    return im;
}

/* Body rows [*a, *e) of lattice body bi that this rank evaluates spring
 * products of: its rows, and the halo rows below them whose springs reach
 * into them; 0 when it computes none of the body. */
static int product_rows(const hk_world *w, int bi, int *a, int *e)
{
    const hk_body *b = &w->bodies[bi];
    int lo, hi, halo;
    if (hk_part_rows(w, bi, &lo, &hi, &halo)) {
        *a = lo - halo > 0 ? lo - halo : 0;
        *e = hi;
        return lo < hi;
    }
    *a = 0;
    *e = b->ny * (b->nz > 1 ? b->nz : 1);
    return hk_part_computes(w, bi);
}

/* The calling task's share [*r0, *r1) of the body rows of body bi that
 * its rank evaluates spring products of (product_rows); 0 when none. */
static int task_rows(const hk_team *tm, const hk_world *w, int bi, int *r0, int *r1)
{
    int a, e, n;
    if (!product_rows(w, bi, &a, &e)) return 0;
    hk_team_range(tm, a, e - a, r0, &n);
    *r1 = *r0 + n;
    return n > 0;
}

/* Local node of the first source of body row r in lattice family f's
 * box, or -1 when the row is outside the box. */
static int64_t box_row_start(const hk_world *w, const hk_family *f, int r)
{
    const hk_body *b = &w->bodies[f->body];
    const int j = r % b->ny, k = r / b->ny;
    if (j < f->j0 || j >= f->j1 || k < f->k0 || k >= f->k1) return -1;
    return f->i0 + (int64_t)f->nx * (j + (int64_t)f->ny * k);
}

/* The springs of list family f into out (or into blocks when blk is
 * given), colour by colour, each colour split over the team; the overflow
 * colour, whose springs may share particles, on one thread with the scalar
 * kernels, which add spring by spring. */
static void lists_run(const hk_team *tm, const hk_kernels *k, const hk_world *w, const hk_family *f, hk_real sK,
                      hk_real sD, hk_real *const y[3], hk_real *const out[3], hk_real *const blk[6])
{
    const int t = tm->t, T = tm->T;
    const int regular = f->colour_count == 0 ? 0 : f->overflow ? f->colour_count - 1 : f->colour_count;
    for (int c = 0; c < regular; c++) {
        const int64_t s0 = f->colour_start[c], s1 = f->colour_start[c + 1];
        const int64_t W = k->width, groups = (s1 - s0 + W - 1) / W;
        int64_t a = s0 + groups * t / T * W, e = s0 + groups * (t + 1) / T * W;
        if (e > s1) e = s1;
        if (a < e) {
            if (blk)
                k->jacobian_list_blocks(f, &w->p, sK, sD, blk, a, e);
            else
                k->jacobian_list(f, &w->p, sK, sD, y, out, a, e);
        }
        hk_team_barrier(tm);
    }
    const int64_t r0 = f->colour_count == 0 ? 0 : f->colour_start[regular];
    const int64_t r1 = f->colour_count == 0 ? f->count : f->colour_start[f->colour_count];
    if (r0 < r1) {
        if (t == 0) {
            if (blk)
                hk_kernels_scalar.jacobian_list_blocks(f, &w->p, sK, sD, blk, r0, r1);
            else
                hk_kernels_scalar.jacobian_list(f, &w->p, sK, sD, y, out, r0, r1);
        }
        hk_team_barrier(tm);
    }
}

/* Target rows [c0, c1) of body bi (a planar lattice), with the calling
 * thread's rings (buf: per view of the body and component, HK_SYS_RING
 * rows of rs reals, each with margins of HK_SYS_MARGIN) and views. */
static void chunk_apply(const hk_kernels *k, const hk_world *w, const hk_implicit *im, int bi, hk_real sK, hk_real sD,
                        int mass, hk_real *const y[3], hk_real *const out[3], int c0, int c1, hk_real *buf,
                        hk_jac_view *views)
{
    const hk_body *b = &w->bodies[bi];
    const hk_particles *p = &w->p;
    const int nx = b->nx, ny = b->ny, v0 = im->body_view[bi], nv = im->body_view[bi + 1] - v0;
    const int64_t rs = (int64_t)hk_padded((size_t)nx) + 2 * HK_SYS_MARGIN;
#define RING_ROW(q, c, j)                                                                                              \
    (buf + ((int64_t)(3 * (q) + (c)) * HK_SYS_RING + ((j) + HK_SYS_RING) % HK_SYS_RING) * rs + HK_SYS_MARGIN)
    for (int s = c0 - HK_SYS_REACH; s < c1 + HK_SYS_REACH; s++) {
        /* source row s of every family whose targets in [c0, c1), or whose
         * own sources there, need it: computed where it is in the box,
         * zero elsewhere (rows past the lattice included) and in the
         * margins, which another body's rows may have covered */
        for (int q = 0; q < nv; q++) {
            const hk_family *f = &w->families[im->view_family[v0 + q]];
            const int lo = c0 < c0 - f->dj ? c0 : c0 - f->dj, hi = c1 > c1 - f->dj ? c1 : c1 - f->dj;
            if (s < lo || s >= hi) continue;
            hk_real *const t[3] = {RING_ROW(q, 0, s), RING_ROW(q, 1, s), RING_ROW(q, 2, s)};
            const int live = s >= f->j0 && s < f->j1 && s >= 0 && s < ny && f->i1 > f->i0;
            const int a = live ? f->i0 : nx, e = live ? f->i1 : nx; /* computed: [a, e) */
            for (int c = 0; c < 3; c++) {
                for (int i = -HK_SYS_MARGIN; i < a; i++) t[c][i] = 0;
                for (int i = e; i < nx + HK_SYS_MARGIN; i++) t[c][i] = 0;
            }
            if (live) k->jacobian_lattice(f, p, sK, sD, y, t, (int64_t)s * nx, (int64_t)s * nx + a, e - a);
        }
        /* target row j: its sources lie in rows j - REACH .. j + REACH */
        const int j = s - HK_SYS_REACH;
        if (j < c0 || j >= c1) continue;
        for (int q = 0; q < nv; q++) {
            const hk_family *f = &w->families[im->view_family[v0 + q]];
            for (int c = 0; c < 3; c++) views[q].t[c] = RING_ROW(q, c, j);
            views[q].offset = (RING_ROW(q, 0, j) - RING_ROW(q, 0, j - f->dj)) + f->di;
        }
        const int64_t row = hk_body_base(b) + (int64_t)j * nx;
        const hk_real *yr[3] = {y[0] + row, y[1] + row, y[2] + row};
        hk_real *outr[3] = {out[0] + row, out[1] + row, out[2] + row};
        k->jacobian_gather(p->mass + row, yr, outr, views, nv, 0, nx, mass);
    }
#undef RING_ROW
}

/* The calling task's chunks of body bi: chunks of HK_SYS_CHUNK target
 * rows from the first of its rank's rows (rings and views: the task's). */
static void body_chunks(const hk_team *tm, const hk_kernels *k, const hk_world *w, hk_implicit *im, int bi, hk_real sK,
                        hk_real sD, int mass, hk_real *const y[3], hk_real *const out[3])
{
    int lo = 0, hi = w->bodies[bi].ny;
    if (!hk_part_rows(w, bi, &lo, &hi, NULL) && !hk_part_computes(w, bi)) return;
    const int chunks = (hi - lo + HK_SYS_CHUNK - 1) / HK_SYS_CHUNK;
    const int t = tm->t, T = tm->T;
    HK_ASSERT(t < im->chunk_threads);
    hk_real *buf = im->chunk_buf + (int64_t)t * im->chunk_stride;
    hk_jac_view *views = im->chunk_views + (int64_t)t * im->ring_views;
    for (int q = chunks * t / T; q < chunks * (t + 1) / T; q++) {
        const int c0 = lo + q * HK_SYS_CHUNK, c1 = c0 + HK_SYS_CHUNK < hi ? c0 + HK_SYS_CHUNK : hi;
        chunk_apply(k, w, im, bi, sK, sD, mass, y, out, c0, c1, buf, views);
    }
}

/* Whether this rank computes list family f (its body is never split). */
static int computes_list(const hk_world *w, const hk_family *f) { return hk_part_computes(w, f->body); }

/* What a product's tasks share (hk_system_apply). */
typedef struct apply_pass {
    const hk_kernels *k;
    const hk_world *w;
    hk_implicit *im;
    hk_real sK, sD;
    int mass;
    hk_real *const *y, *const *out;
} apply_pass;

static void apply_task(const hk_team *tm, void *ctx)
{
    const apply_pass *a = ctx;
    const hk_kernels *k = a->k;
    const hk_world *w = a->w;
    hk_implicit *im = a->im;
    const hk_particles *p = &w->p;
    const hk_real sK = a->sK, sD = a->sD;
    hk_real *const *y = a->y, *const *out = a->out;
    /* 1: the lattice families' products t = S (y_a - y_b), by rows, of
     * the bodies that do not go by chunks */
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        int r0, r1;
        if (f->kind != HK_FAMILY_LATTICE || f->i1 <= f->i0 || im->by_chunks[f->body] ||
            !task_rows(tm, w, f->body, &r0, &r1))
            continue;
        for (int r = r0; r < r1; r++) {
            const int64_t start = box_row_start(w, f, r);
            if (start >= 0) k->jacobian_lattice(f, p, sK, sD, y, im->t + 3 * fi, 0, start, f->i1 - f->i0);
        }
    }
    hk_team_barrier(tm);
    /* 2: each particle's mass term, then its lattice sums, over the
     * task's share of the rank's particles body by body */
    for (int bi = 0; bi < w->body_count; bi++)
        if (im->by_chunks[bi]) body_chunks(tm, k, w, im, bi, sK, sD, a->mass, y, out);
    int g0, g1;
    for (int i = 0; hk_team_piece(tm, w, i, &g0, &g1); i++)
        for (int q = 0; q < im->span_count; q++) { /* a body, or a run of bodies without lattice families */
            const int bi = im->span[2 * q], be = im->span[2 * q + 1];
            if (im->by_chunks[bi]) continue;
            const hk_body *b = &w->bodies[bi], *l = &w->bodies[be - 1];
            const int lo = g0 > b->first ? g0 : b->first, end = l->first + l->count;
            const int hi = g1 < end ? g1 : end;
            if (lo >= hi) continue;
            const int64_t base = hk_body_base(b); /* body-local node 0 (a slab's views start there too) */
            const hk_real *yb[3] = {y[0] + base, y[1] + base, y[2] + base};
            hk_real *ob[3] = {out[0] + base, out[1] + base, out[2] + base};
            const int v0 = im->body_view[bi];
            k->jacobian_gather(p->mass + base, yb, ob, im->views + v0, im->body_view[bi + 1] - v0, lo - base, hi - lo,
                               a->mass);
        }
    hk_team_barrier(tm);
    /* 3: list families, colour by colour (a group's merged: engine.h) */
    for (int q = 0; q < im->list_count; q++)
        if (computes_list(w, im->lists[q])) lists_run(tm, k, w, im->lists[q], sK, sD, y, out, NULL);
    /* 3b: the colliders' contact blocks, a particle each (after the barrier that ends 2 or 3) */
    hk_contact_apply(tm, w, sK, sD, y, out);
    /* 4: fixed particles keep their velocity: their rows are identity rows
     * of the filtered system, and they take no part in it */
    if (tm->t == 0)
        for (int i = 0; i < im->fixed_count; i++)
            for (int c = 0; c < 3; c++) out[c][im->fixed[i]] = 0;
}

void hk_system_apply(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, int mass, hk_real *const y[3],
                     hk_real *const out[3])
{
    const int team = hk_system_team(w);
    im->stats.products++;
    if (im->chunk_threads < team && im->chunk_stride > 0) { /* rings and views per task */
        hk_free_reals(im->chunk_buf);
        free(im->chunk_views);
        im->chunk_buf = hk_alloc_reals((size_t)(im->chunk_stride * team), NULL);
        im->chunk_views = malloc((size_t)team * (size_t)im->ring_views * sizeof *im->chunk_views);
        im->chunk_threads = im->chunk_buf && im->chunk_views ? team : 0;
        if (!im->chunk_threads) {
            hk_fail_memory(w, "out of memory for the implicit solver");
            return;
        }
    }
    hk_part_exchange_arrays(w, y, 3); /* a distributed run: y in the rows beside a slab */
    apply_pass a = {hk_system_kernels(w), w, im, sK, sD, mass, y, out};
    hk_team_run(w, team, apply_task, &a);
}

/* The inverse of the symmetric 3x3 block a (xx, xy, xz, yy, yz, zz), by
 * cofactors in double precision. */
static void invert_block(const double a[6], hk_real out[6])
{
    double c[6];
    const double q = 1 / hk_sym3_cofactors(a, c);
    for (int e = 0; e < 6; e++) out[e] = (hk_real)(c[e] * q);
}

/* blk = 0 over the calling task's share of the body's held nodes where
 * the blocks pass does not write (outside family f's box, or in rows this
 * rank does not evaluate): the aggregation and the sums read every node. */
static void zero_uncomputed(const hk_team *tm, const hk_world *w, const hk_family *f, hk_real *const blk[6])
{
    const int nx = w->bodies[f->body].nx;
    int b0, bn, pa, pe;
    hk_team_range(tm, (int)f->lo, (int)(f->hi - f->lo), &b0, &bn);
    const int any = product_rows(w, f->body, &pa, &pe);
    for (int64_t l = b0; l < b0 + bn;) {
        const int r = (int)(l / nx);
        const int64_t row = (int64_t)r * nx, end = row + nx < b0 + bn ? row + nx : b0 + bn;
        const int inside = any && r >= pa && r < pe && box_row_start(w, f, r) >= 0;
        /* zero [l, end) but the written [row + i0, row + i1) of a row inside */
        const int64_t a = inside ? (row + f->i0 < end ? row + f->i0 : end) : end;
        const int64_t e = inside ? (row + f->i1 > l ? row + f->i1 : l) : end;
        for (int c = 0; c < 6; c++) {
            if (a > l) memset(blk[c] + l, 0, (size_t)(a - l) * sizeof(hk_real));
            if (end > e) memset(blk[c] + e, 0, (size_t)(end - e) * sizeof(hk_real));
        }
        l = end;
    }
}

/* What the tasks of hk_system_blocks share. */
typedef struct blocks_pass {
    const hk_kernels *k;
    const hk_world *w;
    hk_implicit *im;
    hk_real sK, sD;
    const hk_block_hooks *hooks;
} blocks_pass;

static void blocks_task(const hk_team *tm, void *ctx)
{
    const blocks_pass *bp = ctx;
    const hk_kernels *k = bp->k;
    const hk_world *w = bp->w;
    hk_implicit *im = bp->im;
    const hk_block_hooks *hooks = bp->hooks;
    const hk_particles *p = &w->p;
    hk_real *const *sum = im->inv; /* summed in place, then inverted */
    int g0, g1;
    for (int i = 0; hk_team_piece(tm, w, i, &g0, &g1); i++)
        for (int e = 0; e < 6; e++)
            for (int g = g0; g < g1; g++) sum[e][g] = (e == 0 || e == 3 || e == 5) ? p->mass[g] : 0;
    hk_team_barrier(tm);
    if (hooks) hooks->begin(hooks->ctx, tm, w);
    /* lattice families one at a time: blocks by source rows, then each
     * particle adds the block of its springs as source and as target */
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->kind != HK_FAMILY_LATTICE || f->i1 <= f->i0) continue;
        const int64_t nodes = lattice_nodes(w, f);
        hk_real *blk[6]; /* over the body's held nodes */
        hk_system_block_buffer(im, f, blk);
        zero_uncomputed(tm, w, f, blk);
        if (tm->t == tm->T - 1) /* past the body: a larger body's blocks, read as guard */
            for (int e = 0; e < 6; e++) memset(blk[e] + f->hi, 0, (size_t)im->blk_guard * sizeof(hk_real));
        hk_team_barrier(tm);
        int r0, r1;
        if (task_rows(tm, w, f->body, &r0, &r1))
            for (int r = r0; r < r1; r++) {
                const int64_t start = box_row_start(w, f, r);
                if (start >= 0) k->jacobian_lattice_blocks(f, p, bp->sK, bp->sD, blk, start, f->i1 - f->i0);
            }
        hk_team_barrier(tm);
        if (hooks) hooks->family(hooks->ctx, tm, w, fi, blk);
        /* the body's nodes in this rank's rows */
        const hk_body *bd = &w->bodies[f->body];
        int lo = 0, hi = bd->ny * (bd->nz > 1 ? bd->nz : 1);
        if (hk_part_rows(w, f->body, &lo, &hi, NULL) || hk_part_computes(w, f->body)) {
            int l0, ln;
            hk_team_range(tm, lo * bd->nx, (hi - lo) * bd->nx, &l0, &ln);
            /* as source, then (where the source l - off is a node) as target: the target terms in [t0, t1) */
            const int64_t off = f->offset, l1 = l0 + ln;
            const int64_t t0 = off > l0 ? (off < l1 ? off : l1) : l0, t1 = nodes + off < l1 ? nodes + off : l1;
            for (int e = 0; e < 6; e++) {
                hk_real *restrict s = sum[e] + hk_body_base(bd);
                const hk_real *restrict bk = blk[e];
                for (int64_t l = l0; l < t0; l++) s[l] += bk[l];
                for (int64_t l = t0; l < t1; l++) s[l] = s[l] + bk[l] + bk[l - off];
                for (int64_t l = t1 > t0 ? t1 : t0; l < l1; l++) s[l] += bk[l];
            }
        }
        hk_team_barrier(tm);
    }
    for (int q = 0; q < im->list_count; q++)
        if (computes_list(w, im->lists[q])) lists_run(tm, k, w, im->lists[q], bp->sK, bp->sD, NULL, NULL, sum);
    if (hk_contact_in_system(w)) { /* the colliders' contact blocks, before any particle's is inverted */
        hk_contact_blocks(tm, w, bp->sK, bp->sD, hooks != NULL, sum); /* bound: the multigrid's smoother */
        hk_team_barrier(tm);
    }
    for (int i = 0; hk_team_piece(tm, w, i, &g0, &g1); i++)
        for (int g = g0; g < g1; g++) {
            hk_real iv[6] = {0, 0, 0, 0, 0, 0};
            if (p->inv_mass[g] != 0) {
                double a[6];
                for (int e = 0; e < 6; e++) a[e] = sum[e][g];
                invert_block(a, iv);
            }
            for (int e = 0; e < 6; e++) sum[e][g] = iv[e];
        }
    if (hooks) hooks->finish(hooks->ctx, tm, w);
}

void hk_system_blocks(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD, const hk_block_hooks *hooks)
{
    blocks_pass bp = {hk_system_kernels(w), w, im, sK, sD, hooks};
    hk_team_run(w, hk_system_team(w), blocks_task, &bp);
}

hk_solver_stats hk_world_solver_stats(const hk_world *w)
{
    hk_solver_stats s = {0};
    if (w->implicit) s = w->implicit->stats;
    return s;
}
