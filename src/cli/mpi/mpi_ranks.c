/* mpi_ranks.c — the processes of a run over MPI ranks: start and stop, rank 0's voice, agreement, placement. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "mpi_ranks.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "topology.h"

static int started;           /* hk_mpi_start initialised MPI */
static int rank_, ranks_ = 1; /* ranks_: those taking part now (hk_mpi_use_ranks) */
static int launch_ranks = 1;  /* the launch's */
static int left_out;          /* hk_mpi_use_ranks left this rank out */
static int note_fd = 2;       /* this rank's own stderr (ranks other than 0 silence fd 2) */
static MPI_Comm launch_comm;  /* a duplicate of MPI_COMM_WORLD: hooke's messages only */
MPI_Comm hk_mpi_comm;         /* launch_comm, or its first ranks_ ranks (hk_mpi_use_ranks) */

/* The environment an MPI launcher gives its processes: Open MPI's mpirun,
 * PMIx (srun --mpi=pmix, Open MPI 4 and later), PMI (srun --mpi=pmi2, MPICH's mpiexec). */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i])) return 1;
    return 0;
}

int hk_mpi_start(void)
{
    if (started || !launched()) return 0;
    int provided = 0;
    if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "hooke: error: MPI_Init_thread failed\n");
        return -1;
    }
    started = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &launch_comm);
    hk_mpi_comm = launch_comm;
    MPI_Comm_rank(hk_mpi_comm, &rank_);
    MPI_Comm_size(hk_mpi_comm, &ranks_);
    launch_ranks = ranks_;
    if (provided < MPI_THREAD_FUNNELED) {
        if (rank_ == 0)
            fprintf(stderr, "hooke: error: this MPI library gives thread level %d, hooke needs MPI_THREAD_FUNNELED\n",
                    provided);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm node;
    int here = 1;
    if (MPI_Comm_split_type(hk_mpi_comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
        MPI_Comm_size(node, &here);
        MPI_Comm_free(&node);
    }
    hk_topology_share_node(here); /* ranks sharing a node: the launcher places their threads */
    if (rank_ != 0) {             /* one voice: rank 0's; the others keep their stderr for hk_mpi_note */
        note_fd = dup(2);
        const int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            fflush(stdout);
            fflush(stderr);
            dup2(null, 1);
            dup2(null, 2);
            close(null);
        }
        if (note_fd < 0) note_fd = 2;
    }
    return 0;
}

void hk_mpi_stop(void)
{
    if (!started) return;
    fflush(stdout);
    fflush(stderr);
    if (hk_mpi_comm != launch_comm) MPI_Comm_free(&hk_mpi_comm);
    MPI_Comm_free(&launch_comm);
    hk_mpi_comm = MPI_COMM_NULL;
    MPI_Finalize();
    started = 0;
}

int hk_mpi_active(void) { return started; }
int hk_mpi_rank(void) { return rank_; }
int hk_mpi_ranks(void) { return ranks_; }
int hk_mpi_launch_ranks(void) { return launch_ranks; }

int hk_mpi_use_ranks(int R)
{
    if (!started) return R == 1;
    if (hk_mpi_comm != launch_comm) MPI_Comm_free(&hk_mpi_comm); /* a misuse: no hk_mpi_use_all since */
    hk_mpi_comm = launch_comm;
    ranks_ = launch_ranks;
    const int in = rank_ < R; /* the launch's first R: rank r stays rank r */
    MPI_Comm part;
    MPI_Comm_split(launch_comm, in ? 0 : MPI_UNDEFINED, rank_, &part);
    if (in) {
        hk_mpi_comm = part;
        MPI_Comm_size(part, &ranks_);
    }
    left_out = !in;
    return in;
}

void hk_mpi_use_all(void)
{
    if (!started) return;
    if (hk_mpi_comm != launch_comm) {
        MPI_Comm_free(&hk_mpi_comm);
        hk_mpi_comm = launch_comm;
        ranks_ = launch_ranks;
    }
    /* a rank left out of the configuration waits asleep: MPI's blocking wait polls, and would take a core from the
     * ranks being timed */
    MPI_Request req;
    MPI_Ibarrier(launch_comm, &req);
    int done = 0;
    while (!done) {
        if (left_out) {
            const struct timespec nap = {0, 1000000}; /* 1 ms */
            nanosleep(&nap, NULL);
            MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        } else {
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            done = 1;
        }
    }
    left_out = 0;
}

int hk_mpi_any(int flag)
{
    int v = flag != 0;
    if (started) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, hk_mpi_comm);
    return v;
}

int hk_mpi_max(int v)
{
    if (started) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MAX, hk_mpi_comm);
    return v;
}

void hk_mpi_max_ints(int *v, int n)
{
    if (started) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_MAX, hk_mpi_comm);
}

double hk_mpi_max_double(double v)
{
    if (started) MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, hk_mpi_comm);
    return v;
}

void hk_mpi_barrier(void)
{
    if (started) MPI_Barrier(hk_mpi_comm);
}

int hk_mpi_share_int(int v)
{
    if (started) MPI_Bcast(&v, 1, MPI_INT, 0, hk_mpi_comm);
    return v;
}

void hk_mpi_note(const char *fmt, ...)
{
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "hooke: rank %d of %d: ", rank_, ranks_);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    const size_t len = strlen(msg);
    if (len + 1 < sizeof msg) msg[len] = '\n';
    fflush(stderr);
    if (write(note_fd, msg, len + 1 < sizeof msg ? len + 1 : len) < 0) return;
}

void hk_mpi_print_placement(const char *prefix)
{
    if (!started) return; /* one process: hk_topology_print said it all */
    enum { LINE = 512 };
    char mine[LINE], host[128] = "";
    gethostname(host, sizeof host - 1);
    char where[LINE - 160];
    hk_topology_placement(where, sizeof where);
    snprintf(mine, sizeof mine, "rank %d of %d on %s: %s", rank_, launch_ranks, host, where);
    char *all = rank_ == 0 ? malloc((size_t)launch_ranks * LINE) : NULL;
    MPI_Gather(mine, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, launch_comm);
    if (rank_ == 0 && all)
        for (int r = 0; r < launch_ranks; r++) printf("%s%s\n", prefix, all + (size_t)r * LINE);
    free(all);
}
