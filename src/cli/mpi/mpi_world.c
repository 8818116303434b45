/* mpi_world.c — a world shared out over MPI ranks: the halo exchange, shared sums, reductions and relays of core/dist.
 */
/* SPDX-License-Identifier: MIT */
#include "mpi_world.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "mpi_ranks.h"
#include "distribute.h"
#include "world.h"

static MPI_Datatype real_type(void) { return sizeof(hk_real) == 8 ? MPI_DOUBLE : MPI_FLOAT; }

/* The requests of the exchange in flight, and the time spent in it. */
typedef struct exchange {
    MPI_Request *req;
    int n, cap;
    double seconds;
} exchange;
static exchange xch;

/* The largest message this rank has sent, received or taken part in (a collective's buffer) [B]. */
static size_t largest;
static void message(int64_t count, size_t size)
{
    const size_t bytes = (size_t)count * size;
    if (bytes > largest) largest = bytes;
}

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
        message(n, sizeof(hk_real));
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
        message(count, sizeof(hk_real));
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
        message(count, size);
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

/* n elements of v combined over the ranks by op (a NaN is left out of a maximum, as fmax leaves it). */
static void reduce(void *ctx, void *v, int n, hk_reduce_op op)
{
    exchange *x = ctx;
    const double t0 = MPI_Wtime();
    message(n, sizeof(double));
    if (op == HK_REDUCE_MAX_F64 || op == HK_REDUCE_MIN_F64) {
        const int max = op == HK_REDUCE_MAX_F64;
        double *d = v;
        int *nan = malloc((size_t)n * sizeof *nan);
        if (!nan) {
            hk_mpi_note("out of memory for a reduction");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int i = 0; i < n; i++) { /* a NaN is chosen only where every rank has one */
            nan[i] = d[i] != d[i];
            if (nan[i]) d[i] = max ? -HUGE_VAL : HUGE_VAL;
        }
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, max ? MPI_MAX : MPI_MIN, hk_mpi_comm);
        MPI_Allreduce(MPI_IN_PLACE, nan, n, MPI_INT, MPI_LAND, hk_mpi_comm);
        for (int i = 0; i < n; i++)
            if (nan[i]) d[i] = NAN;
        free(nan);
    } else {
        const MPI_Op mop = op == HK_REDUCE_MIN_I64 ? MPI_MIN : op == HK_REDUCE_MAX_I64 ? MPI_MAX : MPI_SUM;
        MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT64_T, mop, hk_mpi_comm);
    }
    x->seconds += MPI_Wtime() - t0;
}

static void bcast(void *ctx, void *buf, size_t bytes, int root)
{
    (void)ctx;
    for (size_t at = 0; at < bytes; at += INT_MAX) {
        const int count = bytes - at < INT_MAX ? (int)(bytes - at) : INT_MAX;
        message(count, 1);
        MPI_Bcast((char *)buf + at, count, MPI_BYTE, root, hk_mpi_comm);
    }
}

/* A relay's messages (part.h hk_part_relay): small, each sent as soon as its rank has its state. */
enum { RELAY_TAG = 200 };
static void send(void *ctx, int peer, const void *buf, size_t bytes)
{
    (void)ctx;
    message((int64_t)bytes, 1);
    MPI_Send(buf, message_count((int64_t)bytes), MPI_BYTE, peer, RELAY_TAG, hk_mpi_comm);
}

static void recv(void *ctx, int peer, void *buf, size_t bytes)
{
    (void)ctx;
    message((int64_t)bytes, 1);
    MPI_Recv(buf, message_count((int64_t)bytes), MPI_BYTE, peer, RELAY_TAG, hk_mpi_comm, MPI_STATUS_IGNORE);
}

static const hk_part_ops mpi_ops = {halo_start, halo_finish, any, exchange_arrays, sum_reals, sum_doubles, reduce,
                                    bcast,      send,        recv};

double hk_mpi_halo_seconds(void) { return xch.seconds; }

double hk_mpi_largest_message(void) { return (double)largest; }

void hk_mpi_world_release(void)
{
    free(xch.req);
    xch.req = NULL;
    xch.n = xch.cap = 0;
}

int hk_mpi_distribute(hk_world *w)
{
    /* an MPI build solves every implicit system by CG, over ranks or not: the direct band solve needs the whole
     * system in one process, and a run over 2 ranks must have the bits of one */
    w->cg_only = 1;
    if (!hk_mpi_active() || hk_mpi_ranks() == 1) return 0;
    /* computed whole on every rank: the reference path (the oracle, serial) */
    if (!w->kernels) return 0;
    const int failed = hk_world_distribute(w, hk_mpi_rank(), hk_mpi_ranks(), &mpi_ops, &xch) != 0;
    if (failed) hk_mpi_note("%s", hk_world_error(w));
    return hk_mpi_any(failed) ? -1 : 0; /* a rank that failed stops them all */
}
