/* engine.c — parallel lattice sweeps, coloured list springs and fused substeps (see engine.h for the scheme). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "surface.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#define HK_THREAD() omp_get_thread_num()
#define HK_THREADS() omp_get_num_threads()
#define HK_BARRIER()                                                                                                   \
    do {                                                                                                               \
        _Pragma("omp barrier")                                                                                         \
    } while (0)
#else
#define HK_THREAD() 0
#define HK_THREADS() 1
#define HK_BARRIER()                                                                                                   \
    do {                                                                                                               \
    } while (0)
#endif

static int round_up(int n, int m) { return (n + m - 1) / m * m; }

/* List bodies with fewer springs than this run on one thread: a barrier per
 * colour costs more than the work (a 48-particle all-to-all net has 63
 * colours). The bits are the same either way. HOOKE_LIST_PARALLEL_MIN
 * overrides it (tests set 0 to exercise the parallel path on small scenes).
 * Called only outside parallel regions (plan_body). */
static int64_t list_parallel_min(void)
{
    static int64_t min = -1;
    if (min < 0) {
        const char *env = getenv("HOOKE_LIST_PARALLEL_MIN");
        char *end;
        long long v = env ? strtoll(env, &end, 10) : -1;
        min = (env && *env && !*end && v >= 0) ? v : 16384;
    }
    return min;
}

/* Springs in the list families of a body. */
static int64_t list_springs(const hk_world *w, int body)
{
    int64_t n = 0;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].body == body && w->families[f].kind == HK_FAMILY_LIST) n += w->families[f].count;
    return n;
}

/* A lattice body's sweep geometry. */
typedef struct sweep_plan {
    int body;
    int64_t base; /* global index of node (0,0,0) */
    int nx, ny, nrows;
    int nx_pad;    /* nx padded to HK_ROW_VEC */
    int stride;    /* accumulator row stride: nx_pad plus a margin each side */
    int same_rows; /* families with dr == 0 (each needs a row buffer) */
    int maxdr, R;  /* largest row distance of a family; ring rows */
    int *fam;      /* lattice families of the body */
    int *dr;       /* their row distances */
    int nfam;
    /* Row classes: the rows whose sources have the same families. A row
     * (j, k) is in class cls[jcls[j] * nkcls + kcls[k]]; class c has
     * cls_n[c] families, the indices (into fam) cls_q[c * nfam ...]. */
    int *jcls, *kcls, nkcls;
    int *cls, ncls, *cls_n, *cls_q;
    int has_list;     /* the body also has list families */
    int serial_lists; /* its list springs are few: run them on one thread */
    int surface;      /* its active surface (pressure, wind), or -1 */
} sweep_plan;

/* The order in which a row's families add their terms (every ISA uses it):
 * the families along the row first, then by row distance from the farthest
 * to the nearest, and within one row distance the families with di >= 0
 * before those with di < 0, otherwise in the builder's order (a stable
 * sort). The blocked AVX-512 pass (kernels_impl.h, group_row) updates a
 * target row once for all the families of one row distance, so those must
 * be adjacent. Farthest first measured faster than nearest first on the
 * in-cache cloth (256x256 +2 to +6%, the 512x512 step +2 to +5%) and
 * within the noise elsewhere (docs/benchmarks.md). */
static int family_key(const hk_world *w, const sweep_plan *sp, int q)
{
    const int dr = sp->dr[q];
    return 2 * (dr == 0 ? 0 : sp->maxdr + 1 - dr) + (w->families[sp->fam[q]].di < 0);
}

static void order_families(const hk_world *w, sweep_plan *sp)
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

static void plan_free(sweep_plan *sp)
{
    free(sp->fam);
    free(sp->dr);
    free(sp->jcls);
    free(sp->kcls);
    free(sp->cls);
    free(sp->cls_n);
    free(sp->cls_q);
    sp->fam = sp->dr = sp->jcls = sp->kcls = sp->cls = sp->cls_n = sp->cls_q = NULL;
}

/* Splits [0, n) at the bounds [lo, hi) of every family's source rows along
 * one axis (lo = rows[q][e], hi = rows[q][e + 1]): out[i] is the number of
 * cuts at or before i, so indices with the same out have the same families.
 * Returns the number of intervals. */
static int axis_classes(const sweep_plan *sp, const int (*rows)[4], int e, int n, int *out)
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
static int plan_classes(const hk_body *b, sweep_plan *sp, const int (*rows)[4])
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

static int plan_body(const hk_world *w, int body, sweep_plan *sp)
{
    const hk_body *b = &w->bodies[body];
    memset(sp, 0, sizeof *sp);
    sp->body = body;
    sp->base = b->first;
    sp->nx = b->nx;
    sp->ny = b->ny;
    sp->nrows = b->ny * b->nz;
    sp->nx_pad = round_up(b->nx, HK_ROW_VEC);
    sp->stride = sp->nx_pad + 2 * HK_ROW_MARGIN;
    int n = 0;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].body == body) {
            if (w->families[f].kind == HK_FAMILY_LATTICE)
                n++;
            else
                sp->has_list = 1;
        }
    sp->fam = malloc((size_t)(n ? n : 1) * sizeof *sp->fam);
    sp->dr = malloc((size_t)(n ? n : 1) * sizeof *sp->dr);
    if (!sp->fam || !sp->dr) {
        plan_free(sp);
        return -1;
    }
    for (int f = 0; f < w->family_count; f++) {
        const hk_family *fm = &w->families[f];
        if (fm->body != body || fm->kind != HK_FAMILY_LATTICE) continue;
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
        plan_free(sp);
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
        plan_free(sp);
        return -1;
    }
    sp->serial_lists = list_springs(w, body) < list_parallel_min();
    sp->surface = b->surface >= 0 && hk_surface_active(w, &w->surfaces[b->surface]) ? b->surface : -1;
    return 0;
}

static void plans_free(sweep_plan *plans, int bodies)
{
    for (int b = 0; b < bodies; b++) plan_free(&plans[b]);
    free(plans);
}

/* Entries of work space one thread needs for a sweep of sp. */
static size_t sweep_space(const sweep_plan *sp)
{
    /* after the rows and the class tables: ring_x and cls_fresh (sweep_block) */
    const size_t tail = ((size_t)sp->R + (size_t)sp->maxdr) * sizeof(hk_real *) + (size_t)sp->ncls * sizeof(int);
    return (size_t)3 * sp->stride * ((size_t)sp->R + 2 * (size_t)sp->maxdr + (size_t)sp->same_rows) +
           (size_t)sp->ncls * sp->nfam * (sizeof(hk_row_family) / sizeof(hk_real) + 1) +
           (tail + sizeof(hk_real) - 1) / sizeof(hk_real);
}

/* Makes room for `threads` work spaces (called outside parallel regions). */
static int ensure_ws_slots(hk_world *w, int threads)
{
    if (w->ws_threads >= threads) return 0;
    hk_real **ws = realloc(w->ws, (size_t)threads * sizeof *ws);
    if (!ws) return -1;
    w->ws = ws;
    size_t *len = realloc(w->ws_len, (size_t)threads * sizeof *len);
    if (!len) return -1;
    w->ws_len = len;
    for (int t = w->ws_threads; t < threads; t++) {
        w->ws[t] = NULL;
        w->ws_len[t] = 0;
    }
    w->ws_threads = threads;
    return 0;
}

/* This thread's work space of at least n entries, allocated (and so first
 * touched) by the thread itself; NULL if out of memory. */
static hk_real *thread_ws(hk_world *w, int t, size_t n)
{
    if (w->ws_len[t] < n) {
        /* not hk_alloc_reals: its parallel zeroing would nest a parallel
         * region here, and this thread alone should touch its pages */
        hk_free_reals(w->ws[t]);
        const size_t bytes = (hk_padded(n) * sizeof(hk_real) + 63) / 64 * 64;
        w->ws[t] = aligned_alloc(64, bytes);
        if (w->ws[t]) memset(w->ws[t], 0, bytes);
        w->ws_len[t] = w->ws[t] ? n : 0;
    }
    return w->ws[t];
}

void hk_engine_release(hk_world *w)
{
    if (w->plans) plans_free(w->plans, w->plans_bodies);
    w->plans = NULL;
    free(w->packed_rec);
    free(w->packed_f);
    w->packed_rec = w->packed_f = NULL;
    w->packed_cap = 0;
    for (int t = 0; t < w->ws_threads; t++) hk_free_reals(w->ws[t]);
    free(w->ws);
    free(w->ws_len);
    w->ws = NULL;
    w->ws_len = NULL;
    w->ws_threads = 0;
}

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

/* Rows [a, b) of one block; see engine.h. With a fused finish the rows that
 * neighbours read are parked in `parked` and finished by the caller after a
 * barrier (returned through *park_lo_end and *park_hi_start). */
static void sweep_block(hk_world *w, const hk_kernels *k, const sweep_plan *sp, const hk_step_ctx *ctx, int a, int b,
                        hk_real *space, int *park_lo_end, int *park_hi_start)
{
    const int S = sp->stride, R = sp->R, maxdr = sp->maxdr, M = HK_ROW_MARGIN;
    const size_t row3 = (size_t)3 * S; /* one accumulator row: x, y, z each of stride S */
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
            fams[n].fresh = first && fams[n].dr == maxdr;
            if (fams[n].fresh) first = 0;
        }
        k->plan_row(fams, sp->cls_n[c], sp->nx_pad);
        cls_fresh[c] = 0;
        for (int n = 0; n < sp->cls_n[c]; n++) cls_fresh[c] |= fams[n].fresh;
    }
    const int fused = ctx->finish != HK_FINISH_STORE_FORCE;
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

static void finish_parked(hk_world *w, const hk_kernels *k, const sweep_plan *sp, const hk_step_ctx *ctx, int a, int b,
                          hk_real *space, int lo_end, int hi_start)
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

/* Block of rows of thread t out of T: contiguous and balanced. */
static void block_of(int nrows, int t, int T, int *a, int *b)
{
    *a = (int)((int64_t)nrows * t / T);
    *b = (int)((int64_t)nrows * (t + 1) / T);
}

/* Sweeps the lattice families of one body with the given finish. Must be
 * called by every thread of a parallel region. Returns nonzero (on every
 * thread) if some thread could not get its work space. */
static void sweep_parallel(hk_world *w, const hk_kernels *k, const sweep_plan *sp, const hk_step_ctx *ctx, int *failed)
{
    const int t = HK_THREAD(), T = HK_THREADS();
    int a, b, lo_end = 0, hi_start = 0;
    block_of(sp->nrows, t, T, &a, &b);
    hk_real *space = thread_ws(w, t, sweep_space(sp));
    if (!space) {
#ifdef HOOKE_USE_OPENMP
#pragma omp atomic write
#endif
        *failed = 1;
    }
    HK_BARRIER();
    if (*failed) return;
    if (a < b) sweep_block(w, k, sp, ctx, a, b, space, &lo_end, &hi_start);
    if (ctx->finish != HK_FINISH_STORE_FORCE) {
        HK_BARRIER();
        if (a < b) finish_parked(w, k, sp, ctx, a, b, space, lo_end, hi_start);
    }
}

/* Thread t's share [*c0, *c1) of the springs [s0, s1) of one colour, in whole
 * groups of `group` springs (a SIMD step), so no step straddles two threads. */
static void colour_share(int64_t s0, int64_t s1, int group, int t, int T, int64_t *c0, int64_t *c1)
{
    const int64_t groups = (s1 - s0 + group - 1) / group;
    *c0 = s0 + groups * t / T * group;
    *c1 = s0 + groups * (t + 1) / T * group;
    if (*c1 > s1) *c1 = s1;
}

/* Particles [first, first + count) split evenly over the threads. */
static void range_of(int first, int count, int *g0, int *n)
{
    const int t = HK_THREAD(), T = HK_THREADS();
    int a = (int)((int64_t)count * t / T), b = (int)((int64_t)count * (t + 1) / T);
    *g0 = first + a;
    *n = b - a;
}

/* Springs [s0, s1) of list family f: over the packed records when there are
 * some, otherwise gathered by `gather` from the particle arrays. */
static void list_springs_run(const hk_kernels *k, const hk_kernels *gather, hk_world *w, const hk_family *f, int packed,
                             int64_t s0, int64_t s1)
{
    if (packed)
        k->list_range_packed(f, w->packed_rec, w->packed_f, s0, s1);
    else
        gather->list_range(f, &w->p, s0, s1);
}

/* Whether list_parallel runs over packed records (kernels.h). */
static int lists_packed(const hk_world *w, const hk_kernels *k) { return k->list_range_packed && w->packed_rec; }

/* The near springs of band b of list family f, colour by colour. */
static void list_band(hk_world *w, const hk_kernels *k, const hk_family *f, int packed, int regular, int b)
{
    const int B1 = f->band_count + 1;
    for (int c = 0; c < regular; c++) {
        const int64_t s0 = f->band_start[(size_t)c * B1 + b], s1 = f->band_start[(size_t)c * B1 + b + 1];
        if (s0 < s1) list_springs_run(k, k, w, f, packed, s0, s1);
    }
}

/* Packs the particles of `body` in [lo, hi) (particle indices). */
static void pack_span(hk_world *w, const hk_kernels *k, int body, const hk_step_ctx *ext, int64_t lo, int64_t hi)
{
    const int64_t first = w->bodies[body].first, end = first + w->bodies[body].count;
    if (lo < first) lo = first;
    if (hi > end) hi = end;
    if (lo < hi) k->list_pack(ext, &w->p, w->packed_rec, w->packed_f, lo, (int)(hi - lo));
}

/* Springs of the list families of `body` into f, in the banded order of
 * engine.h. Every thread of the parallel region calls it. A thread takes a
 * run of even bands 2j, j0 <= j < j1, and after each even band 2j the odd
 * band 2j - 1 before it, whose particles (bands 2j - 1 and 2j) it has just
 * swept and which no other thread touches; the odd band 2 j1 - 1, which
 * shares band 2 j1 with the next thread, waits for a barrier. Each particle
 * still gets the even band's terms before the odd band's, so the order is
 * that of all even bands, then all odd ones, whatever the thread count.
 * With packed records (kernels.h) the first list family packs bands 2j and
 * 2j + 1 just before it sweeps them (their records are then in cache for
 * both bands' springs), and the forces are unpacked at the end; otherwise
 * the kernels gather and scatter the particle arrays. ext: packed only, the
 * forces start from the external forces of ext (computed while packing)
 * instead of from f. A serial body (few springs) runs on thread 0 alone,
 * without the barriers. */
static void list_parallel(hk_world *w, const hk_kernels *k, int body, int serial, const hk_step_ctx *ext)
{
    const int packed = lists_packed(w, k);
    const int t = HK_THREAD(), T = serial ? 1 : HK_THREADS();
    if (serial && t != 0) {
        HK_BARRIER();
        return;
    }
    int first_list = 1;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != body || f->kind != HK_FAMILY_LIST) continue;
        const int regular = f->overflow ? f->colour_count - 1 : f->colour_count;
        const int NB = f->band_count, m = (NB + 1) / 2; /* m even bands */
        const int j0 = (int)((int64_t)m * t / T), j1 = (int)((int64_t)m * (t + 1) / T);
        const int pack_here = packed && first_list;
        for (int j = j0; j < j1; j++) {
            if (pack_here) pack_span(w, k, body, ext, (int64_t)2 * j * HK_BAND, (int64_t)(2 * j + 2) * HK_BAND);
            list_band(w, k, f, packed, regular, 2 * j);
            if (j > j0) list_band(w, k, f, packed, regular, 2 * j - 1);
        }
        if (pack_here && t == T - 1) /* particles past the bands (none while the colouring is current) */
            pack_span(w, k, body, ext, (int64_t)2 * m * HK_BAND, INT64_MAX);
        if (!serial) HK_BARRIER();
        if (j0 < j1 && 2 * j1 - 1 < NB) list_band(w, k, f, packed, regular, 2 * j1 - 1);
        if (!serial) HK_BARRIER();
        /* far springs colour by colour, each colour split over the threads */
        for (int c = 0; c < regular; c++) {
            int64_t c0 = f->near_end[c], c1 = f->colour_start[c + 1];
            if (c0 >= c1) continue; /* the same on every thread: no barrier skipped by one alone */
            colour_share(c0, c1, packed ? 8 : k->width, t, T, &c0, &c1);
            if (c0 < c1) list_springs_run(k, k, w, f, packed, c0, c1);
            if (!serial) HK_BARRIER();
        }
        /* the overflow colour on one thread (particles repeat in it): the
         * packed kernel adds lane by lane in order, the gather kernel would
         * not, so the scalar one takes its place */
        if (f->overflow && t == 0)
            list_springs_run(k, &hk_kernels_scalar, w, f, packed, f->colour_start[regular],
                             f->colour_start[regular + 1]);
        if (f->overflow && !serial) HK_BARRIER();
        first_list = 0;
    }
    if (packed && !first_list) {
        int g0 = w->bodies[body].first, n = w->bodies[body].count;
        if (!serial) range_of(g0, n, &g0, &n);
        k->list_unpack(&w->p, w->packed_f, g0, n);
    }
    if (packed || serial) HK_BARRIER();
}

int hk_world_optimise(hk_world *w, int reorder_particles)
{
    if (reorder_particles)
        for (int b = 0; b < w->body_count; b++)
            if (hk_world_reorder_body(w, b, NULL) != 0) return -1;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].kind == HK_FAMILY_LIST && !w->families[f].colour_start &&
            hk_colour_family(&w->families[f], w->p.count) != 0)
            return hk_fail(w, "out of memory while colouring springs");
    return 0;
}

int hk_engine_prepare(hk_world *w)
{
    if (hk_world_optimise(w, 0) != 0) return -1;
    int lists = 0;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].kind == HK_FAMILY_LIST) lists = 1;
    if (lists && w->packed_cap < w->p.count) {
        free(w->packed_rec);
        free(w->packed_f);
        size_t n = (size_t)w->p.capacity;
        w->packed_rec = aligned_alloc(64, n * 8 * sizeof(float));
        w->packed_f = aligned_alloc(64, n * 4 * sizeof(float));
        w->packed_cap = (w->packed_rec && w->packed_f) ? w->p.capacity : 0;
        if (!w->packed_cap) {
            free(w->packed_rec);
            free(w->packed_f);
            w->packed_rec = w->packed_f = NULL;
            return hk_fail(w, "out of memory for packed particle records");
        }
    }
    return ensure_ws_slots(w, hk_world_team(w)) == 0 ? 0 : hk_fail(w, "out of memory for thread work space");
}

/* The sweep plan of every body. A plan depends only on the bodies and their
 * families, which only grow (or shrink back when an add fails), so it is
 * built once and kept while their counts stay the same. NULL if out of memory. */
static const sweep_plan *world_plans(hk_world *w)
{
    if (w->plans && w->plans_bodies == w->body_count && w->plans_families == w->family_count) return w->plans;
    if (w->plans) plans_free(w->plans, w->plans_bodies);
    w->plans = NULL;
    sweep_plan *plans = calloc((size_t)(w->body_count ? w->body_count : 1), sizeof *plans);
    if (!plans) return NULL;
    for (int b = 0; b < w->body_count; b++)
        if (plan_body(w, b, &plans[b]) != 0) {
            plans_free(plans, b);
            return NULL;
        }
    w->plans = plans;
    w->plans_bodies = w->body_count;
    w->plans_families = w->family_count;
    return plans;
}

/* A testing hook for `hooke bench` verification: HOOKE_TEST_PERTURB_THREAD=k
 * makes OpenMP thread k (when it exists, so never on 1 thread) nudge one
 * velocity of its share by 1e-6 m/s after each force pass or substep: a
 * broken kernel that the state_hash check must catch. Unset: -1. Read
 * outside parallel regions only. */
static int perturb_thread(void)
{
    static int k = -2;
    if (k == -2) {
        const char *env = getenv("HOOKE_TEST_PERTURB_THREAD");
        char *end;
        long v = env ? strtol(env, &end, 10) : -1;
        k = (env && *env && !*end && v >= 1 && v < 4096) ? (int)v : -1;
    }
    return k;
}

/* Forces (or a fused substep) over the whole world in one parallel region. */
static void engine_run(hk_world *w, const hk_kernels *k, hk_finish finish, hk_real h)
{
    const int perturb = perturb_thread();
    if (hk_engine_prepare(w) != 0) return;
    const sweep_plan *plans = world_plans(w);
    if (!plans) {
        hk_fail(w, "out of memory for the sweep plan");
        return;
    }
    hk_step_ctx fused, add;
    hk_step_ctx_init(&fused, w, finish, h);
    hk_step_ctx_init(&add, w, HK_FINISH_STORE_FORCE, h);
    int failed = 0;
    /* the world's team: no more than the work-space slots hk_engine_prepare
     * made for it (num_threads caps a team; it never grows one) */
    const int team = hk_world_team(w);
    (void)team;
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel num_threads(team)
#endif
    {
        for (int body = 0; body < w->body_count && !failed; body++) {
            const sweep_plan *sp = &plans[body];
            /* face forces need every spring force first: no fused sweep */
            const int pure_lattice = sp->nfam > 0 && !sp->has_list && sp->surface < 0;
            if (finish != HK_FINISH_STORE_FORCE && pure_lattice) {
                sweep_parallel(w, k, sp, &fused, &failed);
                continue;
            }
            int g0, n;
            range_of(w->bodies[body].first, w->bodies[body].count, &g0, &n);
            /* f = external + lattice springs; without lattice springs over
             * packed records, the packing computes the external forces */
            const int ext_in_pack = sp->nfam == 0 && sp->has_list && lists_packed(w, k);
            if (sp->nfam > 0)
                sweep_parallel(w, k, sp, &add, &failed);
            else if (!ext_in_pack)
                k->external_forces(&add, &w->p, g0, n);
            if (!ext_in_pack) HK_BARRIER();
            list_parallel(w, k, body, sp->serial_lists, ext_in_pack ? &add : NULL);
            if (sp->surface >= 0) hk_surface_forces(w, &w->surfaces[sp->surface]); /* ends in a barrier */
            if (finish != HK_FINISH_STORE_FORCE) k->integrate(&fused, &w->p, g0, n);
            HK_BARRIER();
        }
        if (perturb == HK_THREAD() && w->p.count > 0) {
            int g0, n;
            range_of(0, w->p.count, &g0, &n);
            if (n > 0) w->p.vx[g0] += (hk_real)1e-6;
        }
    }
    if (failed) hk_fail(w, "out of memory for thread work space");
    w->spring_updates += hk_world_spring_count(w);
}

void hk_engine_forces(hk_world *w, const hk_kernels *k) { engine_run(w, k, HK_FINISH_STORE_FORCE, 0); }

void hk_engine_substep(hk_world *w, const hk_kernels *k, hk_finish finish, hk_real h) { engine_run(w, k, finish, h); }
