/* sweep.c — the lattice sweep: each body's rows in blocks per thread, spring sums in a ring of rows (see sweep.h). */
/* SPDX-License-Identifier: MIT */
#include "sweep.h"

#include <stdlib.h>
#include <string.h>

#include "lists.h"
#include "part.h"
#include "check.h"
#include "surface.h"
#include "team.h"

static int round_up(int n, int m) { return (n + m - 1) / m * m; }

/* The order in which a row's families add their terms (every ISA uses it):
 * the families along the row first, then by row distance from the farthest
 * to the nearest, and within one row distance the families with di >= 0
 * before those with di < 0, otherwise in the builder's order (a stable
 * sort). The blocked AVX-512 pass (row_group.h) updates a target row once
 * for all the families of one row distance, so those must be adjacent.
 * Farthest first is the faster order on the in-cache cloth
 * (docs/performance-notes.md, "Family order"). */
static int family_key(const hk_world *w, const hk_sweep_plan *sp, int q)
{
    const int dr = sp->dr[q];
    return 2 * (dr == 0 ? 0 : sp->maxdr + 1 - dr) + (w->families[sp->fam[q]].di < 0);
}

static void order_families(const hk_world *w, hk_sweep_plan *sp)
{
    for (int q = 1; q < sp->nfam; q++) { /* insertion sort: stable */
        const int fam = sp->fam[q], dr = sp->dr[q];
        const int key = family_key(w, sp, q);
        int p = q;
        while (p > 0 && family_key(w, sp, p - 1) > key) {
            sp->fam[p] = sp->fam[p - 1];
            sp->dr[p] = sp->dr[p - 1];
            p--;
        }
        sp->fam[p] = fam;
        sp->dr[p] = dr;
    }
}

void hk_sweep_plan_free(hk_sweep_plan *sp)
{
    free(sp->fam);
    free(sp->dr);
    free(sp->jcls);
    free(sp->kcls);
    free(sp->cls);
    free(sp->cls_n);
    free(sp->cls_q);
    free(sp->list_fam);
    sp->fam = sp->dr = sp->jcls = sp->kcls = sp->cls = sp->cls_n = sp->cls_q = NULL;
    sp->list_fam = NULL;
}

/* Splits [0, n) at the bounds [lo, hi) of every family's source rows along
 * one axis (lo = rows[q][e], hi = rows[q][e + 1]): out[i] is the number of
 * cuts at or before i, so indices with the same out have the same families.
 * Returns the number of intervals. */
static int axis_classes(const hk_sweep_plan *sp, const int (*rows)[4], int e, int n, int *out)
{
    for (int i = 0; i < n; i++) out[i] = 0;
    for (int q = 0; q < sp->nfam; q++)
        for (int b = e; b < e + 2; b++) {
            const int cut = rows[q][b];
            if (cut > 0 && cut < n) out[cut] = 1;
        }
    for (int i = 1; i < n; i++) out[i] += out[i - 1];
    return n > 0 ? out[n - 1] + 1 : 1;
}

/* The row classes of sp (its families set), from the families' source rows:
 * j in [rows[q][0], rows[q][1]) and k in [rows[q][2], rows[q][3]). */
static int plan_classes(const hk_body *b, hk_sweep_plan *sp, const int (*rows)[4])
{
    const int nz = b->nz > 0 ? b->nz : 1, F = sp->nfam ? sp->nfam : 1;
    sp->jcls = malloc((size_t)sp->ny * sizeof *sp->jcls);
    sp->kcls = malloc((size_t)nz * sizeof *sp->kcls);
    if (!sp->jcls || !sp->kcls) return -1;
    const int nj = axis_classes(sp, rows, 0, sp->ny, sp->jcls);
    sp->nkcls = axis_classes(sp, rows, 2, nz, sp->kcls);
    const int cells = nj * sp->nkcls;
    sp->cls = malloc((size_t)cells * sizeof *sp->cls);
    sp->cls_n = malloc((size_t)cells * sizeof *sp->cls_n);
    sp->cls_q = malloc((size_t)cells * F * sizeof *sp->cls_q);
    if (!sp->cls || !sp->cls_n || !sp->cls_q) return -1;
    for (int c = 0; c < cells; c++) sp->cls[c] = -1;
    /* a representative row of every cell gives its families; equal lists
     * share one class */
    for (int j = 0; j < sp->ny; j++)
        for (int k = 0; k < nz; k++) {
            const int cell = sp->jcls[j] * sp->nkcls + sp->kcls[k];
            if (sp->cls[cell] >= 0) continue;
            int *q_of = sp->cls_q + (size_t)sp->ncls * F, n = 0;
            for (int q = 0; q < sp->nfam; q++) {
                const int *rq = rows[q];
                if (j >= rq[0] && j < rq[1] && k >= rq[2] && k < rq[3]) q_of[n++] = q;
            }
            int c = 0;
            while (c < sp->ncls &&
                   !(sp->cls_n[c] == n && !memcmp(sp->cls_q + (size_t)c * F, q_of, (size_t)n * sizeof *q_of)))
                c++;
            if (c == sp->ncls) sp->cls_n[sp->ncls++] = n;
            sp->cls[cell] = c;
        }
    return 0;
}

/* Bodies up to this many particles and springs are computed whole by one
 * thread: a barrier would cost more than their work. */
#define HK_SOLO_WORK 16384

int hk_sweep_plan_body(const hk_world *w, int body, const int *fams, int nfams, hk_sweep_plan *sp)
{
    const hk_body *b = &w->bodies[body];
    memset(sp, 0, sizeof *sp);
    sp->body = body;
    sp->base = hk_body_base(b);
    sp->nx = b->nx;
    sp->ny = b->ny;
    sp->nrows = b->ny * b->nz;
    sp->hi = sp->nrows;
    sp->nx_pad = round_up(b->nx, HK_ROW_VEC);
    sp->stride = sp->nx_pad + 2 * HK_ROW_MARGIN;
    int n = 0;
    int64_t springs = 0;
    for (int q = 0; q < nfams; q++) {
        springs += w->families[fams[q]].total;
        if (w->families[fams[q]].kind == HK_FAMILY_LATTICE)
            n++;
        else
            sp->nlist++;
    }
    sp->has_list = sp->nlist > 0;
    sp->fam = malloc((size_t)(n ? n : 1) * sizeof *sp->fam);
    sp->dr = malloc((size_t)(n ? n : 1) * sizeof *sp->dr);
    sp->list_fam = malloc((size_t)(sp->nlist ? sp->nlist : 1) * sizeof *sp->list_fam);
    if (!sp->fam || !sp->dr || !sp->list_fam) {
        hk_sweep_plan_free(sp);
        return -1;
    }
    for (int q = 0, l = 0; q < nfams; q++)
        if (w->families[fams[q]].kind != HK_FAMILY_LATTICE) sp->list_fam[l++] = &w->families[fams[q]];
    for (int q = 0; q < nfams; q++) {
        const int f = fams[q];
        const hk_family *fm = &w->families[f];
        if (fm->kind != HK_FAMILY_LATTICE) continue;
        int dr = fm->dj + b->ny * fm->dk;
        sp->fam[sp->nfam] = f;
        sp->dr[sp->nfam++] = dr;
        if (dr > sp->maxdr) sp->maxdr = dr;
        if (dr == 0) sp->same_rows++;
    }
    order_families(w, sp);
    sp->R = sp->maxdr + 1;
    /* each family's source rows (empty if it has no source column), for the row classes */
    int(*rows)[4] = malloc((size_t)(n ? n : 1) * sizeof *rows);
    if (!rows) {
        hk_sweep_plan_free(sp);
        return -1;
    }
    for (int q = 0; q < sp->nfam; q++) {
        const hk_family *f = &w->families[sp->fam[q]];
        const int none = f->i1 <= f->i0;
        rows[q][0] = f->j0;
        rows[q][1] = none ? f->j0 : f->j1;
        rows[q][2] = f->k0;
        rows[q][3] = f->k1;
    }
    const int failed = plan_classes(b, sp, (const int(*)[4])rows);
    free(rows);
    if (failed) {
        hk_sweep_plan_free(sp);
        return -1;
    }
    sp->serial_lists = hk_lists_serial(w, sp->list_fam, sp->nlist);
    sp->surface = b->surface >= 0 && hk_surface_active(w, &w->surfaces[b->surface]) ? b->surface : -1;
    sp->work = b->total + springs; /* over every rank: the same plan wherever the body is held */
    sp->solo = sp->surface < 0 && sp->work <= HK_SOLO_WORK;
    return 0;
}

int hk_sweep_window_halo(const hk_world *w, const hk_sweep_plan *sp)
{
    int far = 0;
    for (int q = 0; q < sp->nfam; q++) {
        const int di = abs(w->families[sp->fam[q]].di);
        if (di > far) far = di;
    }
    return round_up(far + HK_ROW_VEC, HK_ROW_VEC);
}

/* Entries of work space one block of sp's sweep needs (sweep_block), and a
 * one-row body's windows (window_sweep: its families' copies and the
 * parked nodes, counted once more as rows). */
static size_t block_space(const hk_sweep_plan *sp)
{
    /* after the rows and the class tables: ring_x and cls_fresh (sweep_block) */
    size_t tail = ((size_t)sp->R + (size_t)sp->maxdr) * sizeof(hk_real *) + (size_t)sp->ncls * sizeof(int);
    if (sp->nrows == 1) tail += (size_t)sp->nfam * sizeof(hk_family) + 2 * (size_t)3 * sp->stride * sizeof(hk_real);
    return (size_t)3 * sp->stride * ((size_t)sp->R + 2 * (size_t)sp->maxdr + (size_t)sp->same_rows) +
           (size_t)sp->ncls * sp->nfam * (sizeof(hk_row_family) / sizeof(hk_real) + 1) +
           (tail + sizeof(hk_real) - 1) / sizeof(hk_real);
}

/* A split sweep's three blocks each start on a 64-byte boundary (hk_padded: whole vectors). */
size_t hk_sweep_space(const hk_sweep_plan *sp) { return sp->split ? 3 * hk_padded(block_space(sp)) : block_space(sp); }

/* Zeroes the nodes [lo, hi) of one accumulator row: x at node 0 is x0, y
 * and z follow at the stride S. */
static void clear_acc_nodes(hk_real *x0, int S, int lo, int hi)
{
    for (int c = 0; c < 3; c++) memset(x0 + (size_t)c * S + lo, 0, (size_t)(hi - lo) * sizeof *x0);
}

/* Zeroes what the kernels write of one accumulator row (x, y, z of stride
 * S): [-HK_ROW_VEC, nx_pad + HK_ROW_VEC) of each, since a vector store reaches at
 * most one vector past either end of the row (targets are nodes of the
 * row). The rest of the margins is never written and stays zero from the
 * ring's first clear. */
static void clear_acc_row(hk_real *row, int S, int nx_pad)
{
    clear_acc_nodes(row + HK_ROW_MARGIN, S, -HK_ROW_VEC, nx_pad + HK_ROW_VEC);
}

/* Rows [a, b) of one block; see sweep.h. With a fused finish the rows that
 * neighbours read are parked in `parked` and finished by the caller after a
 * barrier (returned through *park_lo_end and *park_hi_start). */
static void sweep_block(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, int a, int b,
                        hk_real *space, int *park_lo_end, int *park_hi_start)
{
    const int S = sp->stride, R = sp->R, maxdr = sp->maxdr, M = HK_ROW_MARGIN;
    const size_t row3 = (size_t)3 * S; /* one accumulator row: x, y, z each of stride S */
    HK_ASSERT(0 <= a && a <= b && b <= sp->nrows);
    hk_real *ring = space;
    hk_real *parked = ring + row3 * R;
    hk_real *buf = parked + row3 * 2 * maxdr;
    /* the families of every row class, planned once (kernels.h plan_row);
     * a row only sets their targets */
    hk_row_family *cls_fams = (hk_row_family *)(buf + row3 * sp->same_rows);
    /* the x row of ring slot s at ring_x[s], s < R + maxdr (slot + dr needs
     * no wrap: the slots from R on repeat those from 0) */
    hk_real **ring_x = (hk_real **)(cls_fams + (size_t)sp->ncls * sp->nfam);
    for (int s = 0; s < R + maxdr; s++) ring_x[s] = ring + row3 * (s < R ? s : s - R) + M;
    /* A ring row is zeroed before its first use, or its first writer writes
     * it without reading (fresh, kernels.h). Row r is the first to write
     * row r + maxdr, with its first family of row distance maxdr; whether
     * the kernel can do that for the rows of class c is cls_fresh[c]. */
    int *cls_fresh = (int *)(ring_x + R + maxdr);
    for (int c = 0; c < sp->ncls; c++) {
        hk_row_family *fams = cls_fams + (size_t)c * sp->nfam;
        int first = maxdr > 0;
        for (int n = 0; n < sp->cls_n[c]; n++) {
            const int q = sp->cls_q[(size_t)c * sp->nfam + n];
            fams[n].f = &w->families[sp->fam[q]];
            fams[n].dr = sp->dr[q];
            HK_ASSERT(fams[n].dr >= 0 && fams[n].dr <= maxdr); /* the ring reaches maxdr rows ahead */
            fams[n].fresh = first && fams[n].dr == maxdr;
            if (fams[n].fresh) first = 0;
        }
        k->plan_row(fams, sp->cls_n[c], sp->nx_pad);
        cls_fresh[c] = 0;
        for (int n = 0; n < sp->cls_n[c]; n++) cls_fresh[c] |= fams[n].fresh;
    }
    const int fused = ctx->upd.kind != HK_UPDATE_NONE;
    /* rows read by the neighbouring blocks stay untouched until the barrier */
    int lo_end = (fused && a > 0) ? a + maxdr : a;
    int hi_start = (fused && b < sp->nrows) ? b - maxdr : b;
    if (lo_end > b) lo_end = b;
    if (hi_start < lo_end) hi_start = lo_end;
    *park_lo_end = lo_end;
    *park_hi_start = hi_start;

    int start = a - maxdr > 0 ? a - maxdr : 0;
    memset(ring, 0, row3 * R * sizeof *ring);
    memset(buf, 0, row3 * sp->same_rows * sizeof *buf); /* margins stay zero */
    /* row r is (j, kk) of the body and uses ring slot r % R, all counted along */
    int j = start % sp->ny, kk = start / sp->ny, slot = start % R;
    for (int r = start; r < b; r++) {
        const int64_t row0 = sp->base + (int64_t)r * sp->nx, local0 = (int64_t)r * sp->nx;
        hk_real *src = ring + row3 * slot;
        hk_real *const acc_src[3] = {src + M, src + S + M, src + 2 * S + M};
        const int c = sp->cls[sp->jcls[j] * sp->nkcls + sp->kcls[kk]], n = sp->cls_n[c];
        hk_row_family *fams = cls_fams + (size_t)c * sp->nfam;
        for (int q = 0; q < n; q++) fams[q].dst = ring_x[slot + fams[q].dr]; /* dr <= maxdr */
        if (!cls_fresh[c] && r + maxdr < b) clear_acc_nodes(ring_x[slot + maxdr], S, 0, sp->nx_pad);
        k->lattice_row(&w->p, row0, local0, sp->nx_pad, fams, n, acc_src, buf, S);
        if (r >= a) {
            if (r < lo_end || r >= hi_start) {
                const int park = r < lo_end ? r - a : maxdr + (r - hi_start);
                HK_ASSERT(park >= 0 && park < 2 * maxdr); /* maxdr parked rows at each end */
                memcpy(parked + row3 * park, src, row3 * sizeof *src);
                clear_acc_row(src, S, sp->nx_pad);
            } else {
                k->finish_row(ctx, &w->p, row0, sp->nx, acc_src); /* and clears the margins */
            }
        } else {
            clear_acc_row(src, S, sp->nx_pad);
        }
        if (++slot == R) slot = 0;
        if (++j == sp->ny) j = 0, kk++;
    }
}

static void finish_parked(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, int a,
                          int b, hk_real *space, int lo_end, int hi_start)
{
    const int S = sp->stride, M = HK_ROW_MARGIN;
    const size_t row3 = (size_t)3 * S;
    hk_real *parked = space + row3 * sp->R;
    for (int r = a; r < b; r++) {
        if (!(r < lo_end || r >= hi_start)) continue;
        int slot = r < lo_end ? r - a : sp->maxdr + (r - hi_start);
        hk_real *row = parked + row3 * slot;
        hk_real *const acc[3] = {row + M, row + S + M, row + 2 * S + M};
        k->finish_row(ctx, &w->p, sp->base + (int64_t)r * sp->nx, sp->nx, acc);
    }
}

/* The first row of thread t's block out of T over N rows whose sweeps
 * redo h rows before their block (the halo; none for the first block):
 * block 0 takes h rows more than the others, so that every thread sweeps
 * about (N + (T - 1) h) / T rows, start(t) = (t N + (T - t) h) / T, within
 * [0, N] and never decreasing; where N is too short for it (h > N), an
 * even split. */
static int block_start(int N, int h, int t, int T)
{
    if (t <= 0) return 0;
    if (t >= T) return N;
    if (h > N) return (int)((int64_t)N * t / T);
    const int64_t s = ((int64_t)t * N + (int64_t)(T - t) * h) / T;
    return s < N ? (int)s : N;
}

/* Block of rows of thread t out of T: contiguous, the sweep's work
 * (rows and halo) balanced (block_start). */
static void block_of(const hk_sweep_plan *sp, int t, int T, int *a, int *b)
{
    *a = block_start(sp->nrows, sp->maxdr, t, T);
    *b = block_start(sp->nrows, sp->maxdr, t + 1, T);
    HK_ASSERT(0 <= *a && *a <= *b && *b <= sp->nrows); /* block_start: within [0, N], never decreasing */
}

/* Nodes [a, b) of a one-row body (a rope), one thread's window: the
 * springs whose sources lie in [s0, b), s0 = a - P (P = hk_sweep_window_halo),
 * through the row kernel as a row of its own (row0 and local0 moved to s0,
 * the families' source bounds moved with them), so that every node of
 * [a, b) sums the terms of the whole row's sweep in its order (every entry
 * takes its terms family by family: kernels.h); then [a, b) is finished,
 * but for the P nodes at each end that a neighbouring window reads, which
 * a fused update parks (in the space after the row) until the barrier.
 * a and the windows' P are whole vectors, so the finished rows start on
 * vectors as finish_row needs. */
static void window_sweep(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, int a,
                         int b, hk_real *space, int *park_lo_end, int *park_hi_start)
{
    const int S = sp->stride, M = HK_ROW_MARGIN, P = hk_sweep_window_halo(w, sp), n = sp->cls_n[0];
    const size_t row3 = (size_t)3 * S;
    const int s0 = a - P > 0 ? a - P : 0, nx_w = b - s0, nx_pad = round_up(nx_w, HK_ROW_VEC);
    HK_ASSERT(a % HK_ROW_VEC == 0 && P % HK_ROW_VEC == 0 && a <= b); /* finished rows start on vectors */
    hk_real *acc = space, *buf = acc + row3, *parked = buf + row3 * sp->same_rows;
    hk_row_family *fams = (hk_row_family *)(parked + 2 * row3);
    hk_family *shadow = (hk_family *)(fams + sp->nfam);
    for (int q = 0; q < n; q++) {
        const hk_family *f = &w->families[sp->fam[sp->cls_q[q]]];
        shadow[q] = *f;
        const int i0 = f->i0 - s0 > 0 ? f->i0 - s0 : 0, i1 = f->i1 - s0 < nx_w ? f->i1 - s0 : nx_w;
        shadow[q].i0 = i0;
        shadow[q].i1 = i1 > i0 ? i1 : i0;
        fams[q] = (hk_row_family){.f = &shadow[q], .dst = buf, .dr = 0, .fresh = 0};
    }
    k->plan_row(fams, n, nx_pad);
    const int fused = ctx->upd.kind != HK_UPDATE_NONE;
    int lo_end = fused && a > 0 ? a + P : a, hi_start = fused && b < sp->nx ? b - P : b;
    if (lo_end > b) lo_end = b;
    if (hi_start < lo_end) hi_start = lo_end;
    *park_lo_end = lo_end;
    *park_hi_start = hi_start;
    /* the window's part of the rows (the row kernel's reach: a vector past either end, the margins of buf) */
    clear_acc_nodes(acc + M, S, -HK_ROW_VEC, nx_pad + HK_ROW_VEC);
    for (int q = 0; q < sp->same_rows; q++) clear_acc_nodes(buf + row3 * q + M, S, -M, nx_pad + M);
    hk_real *const acc_src[3] = {acc + M, acc + S + M, acc + 2 * S + M};
    k->lattice_row(&w->p, sp->base + s0, s0, nx_pad, fams, n, acc_src, buf, S);
    /* the parked ends first: finishing the middle clears a vector of margin on each side of it */
    for (int end = 0; end < 2; end++) {
        const int p0 = end ? hi_start : a, p1 = end ? b : lo_end;
        hk_real *row = parked + row3 * end;
        clear_acc_nodes(row + M, S, -HK_ROW_VEC, P + HK_ROW_VEC);
        for (int c = 0; c < 3; c++)
            memcpy(row + (size_t)c * S + M, acc_src[c] + (p0 - s0), (size_t)(p1 - p0) * sizeof *row);
    }
    if (lo_end < hi_start) {
        hk_real *const mid[3] = {acc_src[0] + (lo_end - s0), acc_src[1] + (lo_end - s0), acc_src[2] + (lo_end - s0)};
        k->finish_row(ctx, &w->p, sp->base + lo_end, hi_start - lo_end, mid);
    }
}

/* The parked ends of window_sweep's window [a, b), after the barrier. */
static void window_parked(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, int a,
                          int b, hk_real *space, int lo_end, int hi_start)
{
    const int S = sp->stride, M = HK_ROW_MARGIN;
    const size_t row3 = (size_t)3 * S;
    hk_real *parked = space + row3 * (1 + (size_t)sp->same_rows);
    for (int end = 0; end < 2; end++) {
        const int p0 = end ? hi_start : a, p1 = end ? b : lo_end;
        hk_real *row = parked + row3 * end;
        hk_real *const acc[3] = {row + M, row + S + M, row + 2 * S + M};
        if (p0 < p1) k->finish_row(ctx, &w->p, sp->base + p0, p1 - p0, acc);
    }
}

/* Thread t's window of the nodes [lo, hi) of a one-row body: an even
 * split in whole vectors (window_sweep; lo is a whole vector). */
static void window_of(int lo, int hi, int t, int T, int *a, int *b)
{
    HK_ASSERT(lo % HK_ROW_VEC == 0);
    *a = t == 0 ? lo : lo + (int)((int64_t)(hi - lo) * t / T) / HK_ROW_VEC * HK_ROW_VEC;
    *b = t == T - 1 ? hi : lo + (int)((int64_t)(hi - lo) * (t + 1) / T) / HK_ROW_VEC * HK_ROW_VEC;
}

/* Whether a team of T sweeps sp's one row in windows: a row long enough
 * for every window to hold its two parked ends a few times over. */
static int by_windows(const hk_world *w, const hk_sweep_plan *sp, int T)
{
    return T > 1 && sp->nrows == 1 && sp->ncls == 1 && sp->nx >= 8 * T * hk_sweep_window_halo(w, sp);
}

/* The nodes [lo, hi) of a one-row body in windows, one per task, on the whole team (ends without a barrier). */
static void windows_run(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp,
                        const hk_step_ctx *ctx, int lo, int hi, hk_real *space)
{
    int a, b, lo_end, hi_start;
    window_of(lo, hi, tm->t, tm->T, &a, &b);
    window_sweep(w, k, sp, ctx, a, b, space, &lo_end, &hi_start);
    if (ctx->upd.kind == HK_UPDATE_NONE) return;
    hk_team_barrier(tm); /* every window has read its neighbours' nodes */
    window_parked(w, k, sp, ctx, a, b, space, lo_end, hi_start);
}

void hk_sweep_solo(hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx, hk_real *space)
{
    int lo_end, hi_start; /* a block of every row parks none */
    if (sp->nrows > 0) sweep_block(w, k, sp, ctx, 0, sp->nrows, space, &lo_end, &hi_start);
}

/* The first row of thread t's block out of T over the rows [c, d): from
 * row 0 as block_start, otherwise evenly (every block has its halo). */
static int range_start(int c, int d, int h, int t, int T)
{
    if (c == 0) return block_start(d, h, t, T);
    return c + (int)((int64_t)(d - c) * t / T);
}

/* This rank's nodes [lo, hi) of a one-row body split into ranges (part.c):
 * the interior [lo + P, hi - P), whose windows read no other rank's node,
 * in windows over the team while the halo's P nodes on each side arrive;
 * then the two ends as windows of their own (thread 0 and the last),
 * which read the interior's parked ends; every parked node is finished
 * after the last barrier. */
static void range_split(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp,
                        const hk_step_ctx *ctx, hk_real *space)
{
    const int t = tm->t, T = tm->T, P = hk_sweep_window_halo(w, sp), lo = sp->lo, hi = sp->hi;
    const struct hk_part *pt = w->part;
    const size_t one = hk_padded(block_space(sp));
    const int c = lo > 0 ? lo + P : lo, d = hi < sp->nx ? hi - P : hi; /* the interior [c, d) */
    const int inner = c < d;
    /* the windows: [0] this thread's of the interior, [1] the low end (thread 0), [2] the high end (thread T - 1) */
    int from[3] = {0, lo, inner ? d : hi}, to[3] = {0, inner ? c : hi, hi}, lo_end[3] = {0, 0, 0},
        hi_start[3] = {0, 0, 0};
    if (inner) window_of(c, d, t, T, &from[0], &to[0]);
    if (t != 0) from[1] = to[1] = 0;
    if (t != T - 1 || !inner) from[2] = to[2] = 0;
    if (t == 0) pt->ops->halo_start(pt->ctx, w, sp->body);
    if (from[0] < to[0]) window_sweep(w, k, sp, ctx, from[0], to[0], space, &lo_end[0], &hi_start[0]);
    if (t == 0) pt->ops->halo_finish(pt->ctx, w, sp->body);
    hk_team_barrier(tm); /* the halo is in */
    for (int q = 1; q < 3; q++)
        if (from[q] < to[q]) window_sweep(w, k, sp, ctx, from[q], to[q], space + q * one, &lo_end[q], &hi_start[q]);
    if (ctx->upd.kind == HK_UPDATE_NONE) return;
    hk_team_barrier(tm); /* every window has read what it reads */
    for (int q = 0; q < 3; q++)
        if (from[q] < to[q]) window_parked(w, k, sp, ctx, from[q], to[q], space + q * one, lo_end[q], hi_start[q]);
}

/* This rank's slab [lo, hi) of a split body (sweep.h, hk_sweep_run). */
static void sweep_split(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp,
                        const hk_step_ctx *ctx, hk_real *space)
{
    const int t = tm->t, T = tm->T, h = sp->maxdr, a = sp->lo, e = sp->hi;
    const struct hk_part *pt = w->part;
    if (sp->nrows == 1) {
        range_split(tm, w, k, sp, ctx, space);
        return;
    }
    if (a >= e) { /* no row here: no message either, but every rank takes part in each exchange */
        if (t == 0) {
            pt->ops->halo_start(pt->ctx, w, sp->body);
            pt->ops->halo_finish(pt->ctx, w, sp->body);
        }
        return;
    }
    const size_t one = hk_padded(block_space(sp));
    /* the interior [c, d): the rows whose sweep (from c - h to d + h) reads no other rank's row */
    int c = a > 0 ? a + h : a, d = e < sp->nrows ? e - h : e;
    if (c >= d) c = d = a;
    /* this thread's blocks: its share of the interior, then the ends */
    int from[3] = {range_start(c, d, h, t, T), 0, 0}, to[3] = {range_start(c, d, h, t + 1, T), 0, 0};
    int lo_end[3] = {0, 0, 0}, hi_start[3] = {0, 0, 0};
    if (t == 0) pt->ops->halo_start(pt->ctx, w, sp->body);
    if (from[0] < to[0]) sweep_block(w, k, sp, ctx, from[0], to[0], space, &lo_end[0], &hi_start[0]);
    if (t == 0) pt->ops->halo_finish(pt->ctx, w, sp->body);
    hk_team_barrier(tm); /* the halo rows are in */
    if (c == d) {        /* no interior: the slab as one block */
        if (t == 0) from[1] = a, to[1] = e;
    } else {
        if (t == 0) from[1] = a, to[1] = c;
        if (t == T - 1) from[2] = d, to[2] = e;
    }
    for (int q = 1; q < 3; q++)
        if (from[q] < to[q]) sweep_block(w, k, sp, ctx, from[q], to[q], space + q * one, &lo_end[q], &hi_start[q]);
    if (ctx->upd.kind == HK_UPDATE_NONE) return;
    hk_team_barrier(tm); /* every row read: the parked rows may change */
    for (int q = 0; q < 3; q++)
        if (from[q] < to[q]) finish_parked(w, k, sp, ctx, from[q], to[q], space + q * one, lo_end[q], hi_start[q]);
}

void hk_sweep_run(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_sweep_plan *sp, const hk_step_ctx *ctx,
                  hk_real *space)
{
    if (sp->split) {
        sweep_split(tm, w, k, sp, ctx, space);
        return;
    }
    const int t = tm->t, T = tm->T;
    int a, b, lo_end = 0, hi_start = 0;
    if (by_windows(w, sp, T)) {
        windows_run(tm, w, k, sp, ctx, 0, sp->nx, space);
        return;
    }
    block_of(sp, t, T, &a, &b);
    if (a < b) sweep_block(w, k, sp, ctx, a, b, space, &lo_end, &hi_start);
    if (ctx->upd.kind != HK_UPDATE_NONE) {
        hk_team_barrier(tm);
        if (a < b) finish_parked(w, k, sp, ctx, a, b, space, lo_end, hi_start);
    }
}
