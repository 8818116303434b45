/* part.c — a world shared out over ranks: the shares' lookups (rows, nodes, spans), the halo messages and the shared
 * sums. */
/* SPDX-License-Identifier: MIT */
#include "part.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "world.h"

void hk_part_free(struct hk_part *pt)
{
    if (!pt) return;
    for (int b = 0; b < pt->body_count && pt->body; b++) {
        free(pt->body[b].rows);
        free(pt->body[b].msg);
    }
    free(pt->body);
    for (int r = 0; r < pt->ranks && pt->span; r++) free(pt->span[r]);
    free(pt->span);
    free(pt->nspan);
    free(pt->mine);
    free(pt->work);
    free(pt->unit);
    free(pt);
}

/* Writes the failed rule into why and returns -1. */
static int part_wrong(char *why, size_t len, const char *fmt, int a, int b, int c)
{
    if (why && len) snprintf(why, len, fmt, a, b, c);
    return -1;
}

int hk_part_check(const hk_world *w, const struct hk_part *pt, char *why, size_t len)
{
    if (pt->ranks < 1 || pt->rank < 0 || pt->rank >= pt->ranks || pt->body_count != w->body_count)
        return part_wrong(why, len, "rank %d of %d, %d bodies: not a share of this world", pt->rank, pt->ranks,
                          pt->body_count);
    for (int b = 0; b < pt->body_count; b++) {
        const hk_part_body *pb = &pt->body[b];
        const hk_body *bd = &w->bodies[b];
        if (pb->owner >= pt->ranks || pb->owner < -1)
            return part_wrong(why, len, "body %d: owner %d of %d ranks", b, pb->owner, pt->ranks);
        if (pb->owner >= 0) continue;
        const int rows = pb->nodes ? bd->nx : bd->ny * (bd->nz > 1 ? bd->nz : 1);
        if (!bd->lattice || (int64_t)rows * (pb->nodes ? 1 : bd->nx) != bd->total)
            return part_wrong(why, len, "split body %d: not a lattice of %d rows", b, rows, 0);
        if (pb->rows[0] != 0 || pb->rows[pt->ranks] != rows)
            return part_wrong(why, len, "split body %d: its slabs cover [%d, %d), not every row", b, pb->rows[0],
                              pb->rows[pt->ranks]);
        for (int r = 0; r < pt->ranks; r++)
            if (pb->rows[r] > pb->rows[r + 1])
                return part_wrong(why, len, "split body %d: rank %d's slab starts after its end (row %d)", b, r,
                                  pb->rows[r]);
    }
    /* every particle (global index) computed by exactly one rank, each rank's spans ascending */
    unsigned char *seen = calloc((size_t)(w->gcount ? w->gcount : 1), 1);
    if (!seen) return part_wrong(why, len, "out of memory for the check (%d particles)", w->gcount, 0, 0);
    int bad = -1, at = 0, rank = 0;
    for (int r = 0; r < pt->ranks && bad < 0; r++)
        for (int s = 0, end = 0; s < pt->nspan[r] && bad < 0; s++) {
            const int a = pt->span[r][2 * s], e = pt->span[r][2 * s + 1];
            if (a < end || a >= e || e > w->gcount) {
                bad = 0, at = a, rank = r;
                break;
            }
            for (int i = a; i < e && bad < 0; i++)
                if (seen[i]++) bad = 1, at = i, rank = r;
            end = e;
        }
    for (int i = 0; i < w->gcount && bad < 0; i++)
        if (!seen[i]) bad = 2, at = i;
    free(seen);
    if (bad == 0)
        return part_wrong(why, len, "rank %d: a span from particle %d is empty, out of order or past the end", rank, at,
                          0);
    if (bad == 1) return part_wrong(why, len, "particle %d: computed by rank %d and another", at, rank, 0);
    if (bad == 2) return part_wrong(why, len, "particle %d: computed by no rank", at, 0, 0);
    /* this rank's spans: held here, ascending, as many particles as its global spans */
    int64_t mine = 0, global = 0;
    for (int s = 0, end = 0; s < pt->nmine; s++) {
        const int a = pt->mine[2 * s], e = pt->mine[2 * s + 1];
        if (a < end || a >= e || e > w->p.count)
            return part_wrong(why, len, "rank %d: its span of storage from %d is out of order or past the end",
                              pt->rank, a, 0);
        mine += e - a;
        end = e;
    }
    for (int s = 0; s < pt->nspan[pt->rank]; s++) global += pt->span[pt->rank][2 * s + 1] - pt->span[pt->rank][2 * s];
    if (mine != global)
        return part_wrong(why, len, "rank %d: holds %d particles of its own, computes %d", pt->rank, (int)mine,
                          (int)global);
    return 0;
}

int hk_part_unit_rows(const hk_body *b)
{
    const int nz = b->nz > 1 ? b->nz : 1;
    if (b->nx < 1 || b->ny < 1 || (int64_t)b->nx * b->ny * nz != b->total) return b->ny > 0 ? b->ny * nz : 1;
    /* rows of one row of the second coarse level's aggregates: 4 rows, or 4 planes */
    const int quad = nz > 1 ? 4 * b->ny : 4;
    const int64_t per = (int64_t)quad * b->nx, units = (HK_PART_BLOCK + per - 1) / per;
    const int64_t rows = (int64_t)b->ny * nz;
    return units * quad < rows ? (int)(units * quad) : (int)rows;
}

int hk_part_plan_halo(const struct hk_part *pt, const int *rows, int h, int64_t first, int64_t key, int64_t stride,
                      hk_halo_msg *msg)
{
    const int me = pt->rank, a = rows[me], e = rows[me + 1];
    int n = 0;
    if (a >= e || h == 0) return 0;
    for (int r = 0; r < pt->ranks; r++) {
        const int ra = rows[r], re = rows[r + 1];
        if (r == me || ra >= re) continue;
        for (int send = 0; send < 2; send++) {
            /* receive: r's rows within h of mine; send: my rows within h of r's */
            const int oa = send ? a : ra, oe = send ? e : re, na = send ? ra : a, ne = send ? re : e;
            const int lo = oa > na - h ? oa : na - h, hi = oe < ne + h ? oe : ne + h;
            if (lo >= hi) continue;
            hk_halo_msg *m = &msg[n++];
            m->peer = r;
            m->send = send;
            m->first = first + (int64_t)lo * stride;
            m->count = (int64_t)(hi - lo) * stride;
            m->key = key + (int64_t)lo * stride;
        }
    }
    HK_ASSERT(n <= 2 * pt->ranks); /* the room the caller gives (part.h) */
    return n;
}

int hk_world_spans(const hk_world *w, int one[2], const int **spans)
{
    if (w->part) {
        *spans = w->part->mine;
        return w->part->nmine;
    }
    one[0] = 0;
    one[1] = w->p.count;
    *spans = one;
    return 1;
}

int hk_team_piece(const hk_team *tm, const hk_world *w, int i, int *g0, int *g1)
{
    int one[2], n;
    const int *sp;
    if (i >= hk_world_spans(w, one, &sp)) return 0;
    hk_team_range(tm, sp[2 * i], sp[2 * i + 1] - sp[2 * i], g0, &n);
    *g1 = *g0 + n;
    return 1;
}

typedef struct spans_pass {
    hk_span_fn fn;
    void *ctx;
    const hk_world *w;
} spans_pass;

static void spans_task(const hk_team *tm, void *ctx)
{
    const spans_pass *s = ctx;
    int g0, g1;
    for (int i = 0; hk_team_piece(tm, s->w, i, &g0, &g1); i++)
        if (g0 < g1) s->fn(s->ctx, g0, g1);
}

void hk_team_spans(const hk_world *w, hk_span_fn fn, void *ctx)
{
    spans_pass s = {fn, ctx, w};
    hk_team_run(w, hk_team_of(w, w->p.count), spans_task, &s);
}

/* This rank's range of split body b, if it is split by rows (nodes = 0) or by nodes (1). */
static int split_range(const hk_world *w, int b, int nodes, int *lo, int *hi, int *halo)
{
    const struct hk_part *pt = w->part;
    if (!pt || pt->body[b].owner >= 0 || pt->body[b].nodes != nodes) return 0;
    *lo = pt->body[b].rows[pt->rank];
    *hi = pt->body[b].rows[pt->rank + 1];
    if (halo) *halo = pt->body[b].halo;
    return 1;
}

int hk_part_rows(const hk_world *w, int b, int *lo, int *hi, int *halo) { return split_range(w, b, 0, lo, hi, halo); }
int hk_part_nodes(const hk_world *w, int b, int *lo, int *hi, int *halo) { return split_range(w, b, 1, lo, hi, halo); }

int hk_part_computes(const hk_world *w, int b)
{
    const struct hk_part *pt = w->part;
    if (!pt) return 1;
    const hk_part_body *pb = &pt->body[b];
    return pb->owner >= 0 ? pb->owner == pt->rank : pb->rows[pt->rank] < pb->rows[pt->rank + 1];
}

void hk_part_exchange(const hk_world *w)
{
    const struct hk_part *pt = w->part;
    if (!pt) return;
    for (int b = 0; b < pt->body_count; b++)
        if (pt->body[b].owner < 0) { /* on every rank, with messages or not */
            pt->ops->halo_start(pt->ctx, w, b);
            pt->ops->halo_finish(pt->ctx, w, b);
        }
}

int hk_part_any(const hk_world *w, int flag)
{
    const struct hk_part *pt = w->part;
    return pt ? pt->ops->any(pt->ctx, flag) : flag != 0;
}

void hk_part_exchange_arrays(const hk_world *w, hk_real *const *a, int n)
{
    const struct hk_part *pt = w->part;
    if (!pt) return;
    for (int b = 0; b < pt->body_count; b++)
        if (pt->body[b].owner < 0) /* on every rank, with messages or not */
            pt->ops->exchange(pt->ctx, pt->body[b].msg, pt->body[b].nmsg, a, n);
}

void hk_part_exchange_messages(const hk_world *w, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n)
{
    if (w->part) w->part->ops->exchange(w->part->ctx, msg, nmsg, a, n);
}

void hk_part_share_reals(const hk_world *w, hk_real *v, int64_t n)
{
    if (w->part && n > 0) w->part->ops->sum_reals(w->part->ctx, v, n);
}

void hk_part_share_doubles(const hk_world *w, double *v, int64_t n)
{
    if (w->part && n > 0) w->part->ops->sum_doubles(w->part->ctx, v, n);
}

int hk_part_owned_by(const hk_world *w, int r, int b, int64_t *l0, int64_t *l1)
{
    const struct hk_part *pt = w->part;
    const hk_body *bd = &w->bodies[b];
    if (!pt) {
        *l0 = 0, *l1 = bd->total;
        return bd->total > 0;
    }
    const hk_part_body *pb = &pt->body[b];
    if (pb->owner >= 0) {
        *l0 = 0, *l1 = pb->owner == r ? bd->total : 0;
        return *l1 > 0;
    }
    const int64_t stride = pb->nodes ? 1 : bd->nx;
    *l0 = pb->rows[r] * stride, *l1 = pb->rows[r + 1] * stride;
    return *l1 > *l0;
}

int hk_part_owned(const hk_world *w, int b, int64_t *l0, int64_t *l1)
{
    return hk_part_owned_by(w, w->part ? w->part->rank : 0, b, l0, l1);
}

void hk_part_relay(const hk_world *w, int families, void *state, size_t bytes, hk_relay_fn fn, void *ctx)
{
    const struct hk_part *pt = w->part;
    const int items = families ? w->family_count : w->body_count;
    if (!pt) {
        for (int k = 0; k < items; k++) {
            const int b = families ? w->families[k].body : k;
            if (w->bodies[b].total > 0) fn(ctx, state, k, 0, w->bodies[b].total);
        }
        return;
    }
    const int me = pt->rank;
    int last = -1; /* the rank of the piece before */
    for (int k = 0; k < items; k++) {
        const int b = families ? w->families[k].body : k;
        const hk_part_body *pb = &pt->body[b];
        for (int r = pb->owner >= 0 ? pb->owner : 0; r < (pb->owner >= 0 ? pb->owner + 1 : pt->ranks); r++) {
            int64_t l0, l1;
            if (!hk_part_owned_by(w, r, b, &l0, &l1)) continue;
            if (r != last && last >= 0) { /* the state moves from the rank before to this one */
                if (me == last) pt->ops->send(pt->ctx, r, state, bytes);
                if (me == r) pt->ops->recv(pt->ctx, last, state, bytes);
            }
            if (me == r) fn(ctx, state, k, l0, l1);
            last = r;
        }
    }
    if (last >= 0) pt->ops->bcast(pt->ctx, state, bytes, last);
}

void hk_part_reduce(const hk_world *w, void *v, int n, hk_reduce_op op)
{
    if (w->part && n > 0) w->part->ops->reduce(w->part->ctx, v, n, op);
}

void hk_part_bcast(const hk_world *w, void *buf, size_t bytes, int root)
{
    if (w->part && bytes > 0) w->part->ops->bcast(w->part->ctx, buf, bytes, root);
}

int hk_part_rank_of(const hk_world *w, int64_t g)
{
    const struct hk_part *pt = w->part;
    if (!pt) return 0;
    for (int r = 0; r < pt->ranks; r++)
        for (int s = 0; s < pt->nspan[r]; s++)
            if (g >= pt->span[r][2 * s] && g < pt->span[r][2 * s + 1]) return r;
    return -1;
}

int hk_part_held(const hk_world *w, int b, int64_t *l0, int64_t *l1)
{
    const struct hk_part *pt = w->part;
    const hk_body *bd = &w->bodies[b];
    if (!hk_part_owned(w, b, l0, l1)) {
        *l0 = *l1 = 0;
        return 0;
    }
    if (!pt || pt->body[b].owner >= 0) return 1;
    const hk_part_body *pb = &pt->body[b];
    const int64_t stride = pb->nodes ? 1 : bd->nx, halo = (int64_t)pb->halo * stride;
    *l0 = *l0 - halo > 0 ? *l0 - halo : 0;
    *l1 = *l1 + halo < bd->total ? *l1 + halo : bd->total;
    return 1;
}

void hk_part_exchange_doubles(const hk_world *w, double *a)
{
    const struct hk_part *pt = w->part;
    if (!pt) return;
    const int64_t k = (int64_t)(sizeof(double) / sizeof(hk_real)); /* reals per double: 1 or 2 */
    hk_real *const as_reals[1] = {(hk_real *)a};
    for (int b = 0; b < pt->body_count; b++) {
        const hk_part_body *pb = &pt->body[b];
        if (pb->owner >= 0) continue; /* on every rank, with messages or not */
        hk_halo_msg *msg = malloc((size_t)(pb->nmsg ? pb->nmsg : 1) * sizeof *msg);
        const int n = msg ? pb->nmsg : 0; /* out of memory: its halo stays as it was (a frame's figures only) */
        for (int m = 0; m < n; m++) {
            msg[m] = pb->msg[m];
            msg[m].first *= k, msg[m].count *= k, msg[m].key *= k;
        }
        pt->ops->exchange(pt->ctx, msg, n, as_reals, 1);
        free(msg);
    }
}

/* A funnel's piece travels in chunks of this many bytes at most, after its size (FUNNEL_NONE: the sender had no
 * room for it). */
#define FUNNEL_CHUNK ((size_t)1 << 16)
#define FUNNEL_NONE UINT64_MAX

int hk_part_funnel(const hk_world *w, int families, hk_funnel_size size, hk_funnel_fn pack, hk_funnel_fn put, void *ctx)
{
    const struct hk_part *pt = w->part;
    const int items = families ? w->family_count : w->body_count, me = pt ? pt->rank : 0;
    unsigned char drain[FUNNEL_CHUNK]; /* rank 0's chunk where it has no room for a piece: it takes and drops it */
    int failed = 0;
    for (int k = 0; k < items; k++) {
        const int b = families ? w->families[k].body : k;
        const int owner = pt ? pt->body[b].owner : 0, R = pt ? pt->ranks : 1;
        for (int r = owner >= 0 ? owner : 0; r < (owner >= 0 ? owner + 1 : R); r++) {
            int64_t l0, l1;
            if (!hk_part_owned_by(w, r, b, &l0, &l1) || (me != r && me != 0)) continue;
            uint64_t bytes = 0;
            unsigned char *buf = NULL;
            if (me == r) { /* its size is the sender's alone to know (a count of what it holds) */
                bytes = size(ctx, k, l0, l1);
                buf = malloc(bytes ? bytes : 1);
                if (buf) pack(ctx, k, l0, l1, buf);
                failed |= !buf;
            }
            if (r != 0) { /* from rank r to rank 0: its size, then its chunks */
                uint64_t said = buf ? bytes : FUNNEL_NONE;
                if (me == r) pt->ops->send(pt->ctx, 0, &said, sizeof said);
                if (me == 0) {
                    pt->ops->recv(pt->ctx, r, &said, sizeof said);
                    failed |= said == FUNNEL_NONE;
                    bytes = said == FUNNEL_NONE ? 0 : said;
                    buf = malloc(bytes ? bytes : 1);
                    failed |= !buf;
                }
                for (uint64_t at = 0; at < bytes && (me == 0 || buf); at += FUNNEL_CHUNK) {
                    const size_t n = bytes - at < FUNNEL_CHUNK ? (size_t)(bytes - at) : FUNNEL_CHUNK;
                    if (me == r) pt->ops->send(pt->ctx, 0, buf + at, n);
                    if (me == 0) pt->ops->recv(pt->ctx, r, buf ? buf + at : drain, n);
                }
            }
            if (me == 0 && buf && !failed) put(ctx, k, l0, l1, buf);
            free(buf);
        }
    }
    return hk_part_any(w, failed) ? -1 : 0;
}
