/* part.c — a world shared out over ranks: the shares' lookups (rows, nodes, spans), the halo messages and the shared sums. */
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
    free(pt->work);
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
        if (pb->rows[0] != 0 || pb->rows[pt->ranks] != rows)
            return part_wrong(why, len, "split body %d: its slabs cover [%d, %d), not every row", b, pb->rows[0],
                              pb->rows[pt->ranks]);
        for (int r = 0; r < pt->ranks; r++)
            if (pb->rows[r] > pb->rows[r + 1])
                return part_wrong(why, len, "split body %d: rank %d's slab starts after its end (row %d)", b, r,
                                  pb->rows[r]);
    }
    /* every particle computed by exactly one rank, each rank's spans ascending */
    unsigned char *seen = calloc((size_t)(w->p.count ? w->p.count : 1), 1);
    if (!seen) return part_wrong(why, len, "out of memory for the check (%d particles)", w->p.count, 0, 0);
    int bad = -1, at = 0, rank = 0;
    for (int r = 0; r < pt->ranks && bad < 0; r++)
        for (int s = 0, end = 0; s < pt->nspan[r] && bad < 0; s++) {
            const int a = pt->span[r][2 * s], e = pt->span[r][2 * s + 1];
            if (a < end || a >= e || e > w->p.count) {
                bad = 0, at = a, rank = r;
                break;
            }
            for (int i = a; i < e && bad < 0; i++)
                if (seen[i]++) bad = 1, at = i, rank = r;
            end = e;
        }
    for (int i = 0; i < w->p.count && bad < 0; i++)
        if (!seen[i]) bad = 2, at = i;
    free(seen);
    if (bad == 0)
        return part_wrong(why, len, "rank %d: a span from particle %d is empty, out of order or past the end", rank, at,
                          0);
    if (bad == 1) return part_wrong(why, len, "particle %d: computed by rank %d and another", at, rank, 0);
    if (bad == 2) return part_wrong(why, len, "particle %d: computed by no rank", at, 0, 0);
    return 0;
}

int hk_part_unit_rows(const hk_body *b)
{
    const int nz = b->nz > 1 ? b->nz : 1;
    if (b->nx < 1 || b->ny < 1 || (int64_t)b->nx * b->ny * nz != b->count) return b->ny > 0 ? b->ny * nz : 1;
    /* rows of one row of the second coarse level's aggregates: 4 rows, or 4 planes */
    const int quad = nz > 1 ? 4 * b->ny : 4;
    const int64_t per = (int64_t)quad * b->nx, units = (HK_PART_BLOCK + per - 1) / per;
    const int64_t rows = (int64_t)b->ny * nz;
    return units * quad < rows ? (int)(units * quad) : (int)rows;
}

int hk_part_plan_halo(const struct hk_part *pt, const int *rows, int h, int64_t first, int64_t stride, hk_halo_msg *msg)
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
        }
    }
    HK_ASSERT(n <= 2 * pt->ranks); /* the room the caller gives (part.h) */
    return n;
}

int hk_world_spans(const hk_world *w, int one[2], const int **spans)
{
    if (w->part) {
        *spans = w->part->span[w->part->rank];
        return w->part->nspan[w->part->rank];
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
