/* mpi_world.c — a world shared out over MPI ranks: the halo exchange of core/dist, and the gather to rank 0. */
/* SPDX-License-Identifier: MIT */
#include "mpi_world.h"

#include <limits.h>
#include <stdlib.h>

#include "mpi_ranks.h"
#include "distribute.h"
#include "response.h"
#include "world.h"

/* The gather's messages: tags of their own, apart from the halo's (0 .. 5). */
enum { GATHER_TAG = 100 };

static MPI_Datatype real_type(void) { return sizeof(hk_real) == 8 ? MPI_DOUBLE : MPI_FLOAT; }

/* The requests of the exchange in flight, and the time spent in it. */
typedef struct exchange {
    MPI_Request *req;
    int n, cap;
    double seconds;
} exchange;
static exchange xch;

static MPI_Request *more_requests(exchange *x, int n)
{
    if (x->n + n > x->cap) {
        const int cap = x->n + n > 2 * x->cap ? x->n + n : 2 * x->cap;
        MPI_Request *r = realloc(x->req, (size_t)cap * sizeof *r);
        if (!r) {
            hk_mpi_note("out of memory for %d MPI requests", cap);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        x->req = r;
        x->cap = cap;
    }
    MPI_Request *at = x->req + x->n;
    x->n += n;
    return at;
}

/* The count of an MPI message, which is an int. */
static int message_count(int64_t n)
{
    if (n > INT_MAX) {
        hk_mpi_note("a message of %lld values is more than MPI's int count can say", (long long)n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return (int)n;
}

/* Positions and velocities of the halo rows, one message per array: tag = the array. */
static void halo_start(void *ctx, const hk_world *w, int body)
{
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    const hk_part_body *pb = &w->part->body[body];
    hk_real *const a[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
    MPI_Request *req = more_requests(x, 6 * pb->nmsg);
    for (int m = 0; m < pb->nmsg; m++) {
        const hk_halo_msg *msg = &pb->msg[m];
        const int n = message_count(msg->count);
        for (int k = 0; k < 6; k++) {
            hk_real *at = a[k] + msg->first;
            if (msg->send)
                MPI_Isend(at, n, real_type(), msg->peer, k, hk_mpi_comm, req++);
            else
                MPI_Irecv(at, n, real_type(), msg->peer, k, hk_mpi_comm, req++);
        }
    }
    x->seconds += MPI_Wtime() - t0;
}

static void halo_finish(void *ctx, const hk_world *w, int body)
{
    (void)w;
    (void)body;
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    MPI_Waitall(x->n, x->req, MPI_STATUSES_IGNORE);
    x->n = 0;
    x->seconds += MPI_Wtime() - t0;
}

static int any(void *ctx, int flag)
{
    (void)ctx;
    return hk_mpi_any(flag);
}

/* Messages of n arrays (the implicit solver's halos), start to finish: tag = EXCHANGE_TAG + the array. */
enum { EXCHANGE_TAG = 50 };
static void exchange_arrays(void *ctx, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n)
{
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    MPI_Request *req = more_requests(x, n * nmsg);
    for (int m = 0; m < nmsg; m++) {
        const int count = message_count(msg[m].count);
        for (int k = 0; k < n; k++) {
            if (msg[m].send)
                MPI_Isend(a[k] + msg[m].first, count, real_type(), msg[m].peer, EXCHANGE_TAG + k, hk_mpi_comm, req++);
            else
                MPI_Irecv(a[k] + msg[m].first, count, real_type(), msg[m].peer, EXCHANGE_TAG + k, hk_mpi_comm, req++);
        }
    }
    MPI_Waitall(x->n, x->req, MPI_STATUSES_IGNORE);
    x->n = 0;
    x->seconds += MPI_Wtime() - t0;
}

/* v = the sum of v over the ranks, in pieces MPI's int count can say. */
static void sum_in_place(void *v, int64_t n, MPI_Datatype type, size_t size)
{
    for (int64_t at = 0; at < n; at += INT_MAX) {
        const int count = n - at < INT_MAX ? (int)(n - at) : INT_MAX;
        MPI_Allreduce(MPI_IN_PLACE, (char *)v + (size_t)at * size, count, type, MPI_SUM, hk_mpi_comm);
    }
}

static void sum_reals(void *ctx, hk_real *v, int64_t n)
{
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    sum_in_place(v, n, real_type(), sizeof *v);
    x->seconds += MPI_Wtime() - t0;
}

static void sum_doubles(void *ctx, double *v, int64_t n)
{
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    sum_in_place(v, n, MPI_DOUBLE, sizeof *v);
    x->seconds += MPI_Wtime() - t0;
}

static const hk_part_ops mpi_ops = {halo_start, halo_finish, any, exchange_arrays, sum_reals, sum_doubles};

double hk_mpi_halo_seconds(void) { return xch.seconds; }

void hk_mpi_world_release(void)
{
    free(xch.req);
    xch.req = NULL;
    xch.n = xch.cap = 0;
}

int hk_mpi_distribute(hk_world *w)
{
    if (!hk_mpi_active() || hk_mpi_ranks() == 1) return 0;
    /* computed whole on every rank: the reference path (the oracle, serial) */
    if (!w->kernels) return 0;
    const int failed = hk_world_distribute(w, hk_mpi_rank(), hk_mpi_ranks(), &mpi_ops, &xch) != 0;
    if (failed) hk_mpi_note("%s", hk_world_error(w));
    return hk_mpi_any(failed) ? -1 : 0; /* a rank that failed stops them all */
}

/* One indexed type over rank r's particle spans (of one array); MPI_DATATYPE_NULL when it has none. */
static MPI_Datatype spans_type(const struct hk_part *pt, int r)
{
    const int n = pt->nspan[r];
    if (n == 0) return MPI_DATATYPE_NULL;
    int *len = malloc((size_t)n * 2 * sizeof *len), *at = len ? len + n : NULL;
    if (!len) {
        hk_mpi_note("out of memory for the gather");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int s = 0; s < n; s++) {
        at[s] = pt->span[r][2 * s];
        len[s] = pt->span[r][2 * s + 1] - pt->span[r][2 * s];
    }
    MPI_Datatype t;
    MPI_Type_indexed(n, len, at, real_type(), &t);
    MPI_Type_commit(&t);
    free(len);
    return t;
}

/* Bytes [*first, *first + *n) of family f's broken mask that rank r computes; 0 if none. */
static int mask_part(const hk_world *w, const hk_family *f, int r, int64_t *first, int64_t *n)
{
    const struct hk_part *pt = w->part;
    const hk_part_body *pb = &pt->body[f->body];
    const hk_body *b = &w->bodies[f->body];
    if (f->kind == HK_FAMILY_LATTICE && pb->owner < 0) {
        const int64_t stride = pb->nodes ? 1 : b->nx; /* a rope's ranges count nodes */
        *first = (int64_t)pb->rows[r] * stride;
        *n = (int64_t)(pb->rows[r + 1] - pb->rows[r]) * stride;
    } else {
        *first = 0;
        *n = pb->owner == r ? (f->kind == HK_FAMILY_LATTICE ? b->count : f->count) : 0;
    }
    return *n > 0;
}

void hk_mpi_gather(hk_world *w)
{
    const struct hk_part *pt = w->part;
    if (!pt) return;
    const int me = pt->rank, R = pt->ranks;
    hk_real *arrays[16] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz,
                           w->p.fx, w->p.fy, w->p.fz, w->px,   w->py,   w->pz};
    int na = w->px ? 12 : 9;
    /* the colliders' friction anchors (response.h): every rank keeps them once it has stepped with colliders */
    if (hk_contact_keep_anchors(w) != 0) {
        hk_mpi_note("%s", hk_world_error(w));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (hk_contact_anchors(w, arrays + na)) na += 4;
    exchange x = {NULL, 0, 0, 0};
    MPI_Datatype *type = malloc((size_t)R * sizeof *type);
    if (!type) {
        hk_mpi_note("out of memory for the gather");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* the particle arrays: rank r's spans, tag = GATHER_TAG + the array (halo messages use the arrays' own) */
    for (int r = 0; r < R; r++) {
        type[r] = MPI_DATATYPE_NULL;
        if (r == 0 || (me != 0 && r != me)) continue;
        type[r] = spans_type(pt, r);
        if (type[r] == MPI_DATATYPE_NULL) continue;
        MPI_Request *req = more_requests(&x, na);
        for (int k = 0; k < na; k++) {
            if (me == 0)
                MPI_Irecv(arrays[k], 1, type[r], r, GATHER_TAG + k, hk_mpi_comm, req++);
            else
                MPI_Isend(arrays[k], 1, type[r], 0, GATHER_TAG + k, hk_mpi_comm, req++);
        }
    }
    /* the broken masks, family by family */
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (!f->broken) continue;
        for (int r = 1; r < R; r++) {
            int64_t first, n;
            if ((me != 0 && r != me) || !mask_part(w, f, r, &first, &n)) continue;
            MPI_Request *req = more_requests(&x, 1);
            if (me == 0)
                MPI_Irecv(f->broken + first, message_count(n), MPI_UNSIGNED_CHAR, r, GATHER_TAG + 20, hk_mpi_comm, req);
            else
                MPI_Isend(f->broken + first, message_count(n), MPI_UNSIGNED_CHAR, 0, GATHER_TAG + 20, hk_mpi_comm, req);
        }
    }
    /* the volume and pressure of surfaces computed elsewhere */
    double *vp = malloc((size_t)(2 * w->surface_count + 1) * sizeof *vp);
    if (!vp) {
        hk_mpi_note("out of memory for the gather");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int s = 0; s < w->surface_count; s++) {
        const hk_surface *sf = &w->surfaces[s];
        const int owner = pt->body[sf->body].owner;
        if (owner <= 0 || (me != 0 && me != owner)) continue;
        vp[2 * s] = sf->volume;
        vp[2 * s + 1] = sf->pressure;
        MPI_Request *req = more_requests(&x, 1);
        if (me == 0)
            MPI_Irecv(vp + 2 * s, 2, MPI_DOUBLE, owner, GATHER_TAG + 21, hk_mpi_comm, req);
        else
            MPI_Isend(vp + 2 * s, 2, MPI_DOUBLE, 0, GATHER_TAG + 21, hk_mpi_comm, req);
    }
    MPI_Waitall(x.n, x.req, MPI_STATUSES_IGNORE);
    free(x.req);
    for (int s = 0; s < w->surface_count && me == 0; s++) {
        hk_surface *sf = &w->surfaces[s];
        if (pt->body[sf->body].owner <= 0) continue;
        sf->volume = vp[2 * s];
        sf->pressure = vp[2 * s + 1];
    }
    free(vp);
    for (int r = 0; r < R; r++)
        if (type[r] != MPI_DATATYPE_NULL) MPI_Type_free(&type[r]);
    free(type);
    if (me != 0) return;
    /* every family's broken count, from its gathered mask (the count is the marks set: checkpoint.c checks it) */
    for (int fi = 0; fi < w->family_count; fi++) {
        hk_family *f = &w->families[fi];
        if (!f->broken) continue;
        const int64_t n = f->kind == HK_FAMILY_LATTICE ? w->bodies[f->body].count : f->count;
        int64_t set = 0;
        for (int64_t i = 0; i < n; i++) set += f->broken[i] != 0;
        f->broken_count = set;
    }
}
