/* mpi_ranks.h — runs over several processes (MPI ranks): start, shares, gather, agreement; no-ops without HOOKE_MPI. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MPI_RANKS_H
#define HOOKE_MPI_RANKS_H

#include "hooke/hooke.h"

/*
 * `mpirun -np R hooke run|bench ...` runs one world over R processes
 * (ranks), each with its OpenMP team (--threads per rank). Every rank reads
 * the scene and holds and builds only its share of the particles
 * (core/dist/part.h): the rows of its slabs and their halo rows, its whole
 * bodies; it computes its share and exchanges halo rows with its
 * neighbours before every force pass. Whatever reads the whole state
 * (checks, statistics, the summary's hash) is a reduction or a relay over
 * the ranks, which every rank calls; each rank writes its part of a VTK
 * frame and of a checkpoint, rank 0 prints and writes the other files.
 * Decisions that change the course of a run (stop, blow-up, failed output)
 * are agreed by every rank, so none waits for a message that never comes.
 *
 * Built without HOOKE_MPI, every function here is an inline no-op for one
 * process: rank 0 of 1.
 */

#ifdef HOOKE_MPI
/* Initialises MPI when an MPI launcher started this process (mpirun,
 * mpiexec, srun: OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK is set), with
 * MPI_THREAD_FUNNELED; ranks other than 0 then send stdout and stderr to
 * /dev/null (their own messages go through hk_mpi_note). A process started
 * otherwise runs alone without MPI. 0, or -1 with a message printed. */
int hk_mpi_start(void);
/* Finalises MPI if hk_mpi_start initialised it. */
void hk_mpi_stop(void);
/* Frees what the halo exchange keeps between passes (mpi_world.c); call it before hk_mpi_stop. */
void hk_mpi_world_release(void);
/* 1 when MPI was initialised (the summary line then says ranks=). */
int hk_mpi_active(void);
/* This process's rank, and how many ranks take part now: the launch's, or
 * the first R of them between hk_mpi_use_ranks(R) and hk_mpi_use_all. */
int hk_mpi_rank(void);
int hk_mpi_ranks(void);
/* How many processes the launcher started (mpirun -np R): 1 without MPI. */
int hk_mpi_launch_ranks(void);
/* Narrows what follows to the launch's first R ranks (1 <= R <= the
 * launch's): every function here then runs over them alone, and
 * hk_mpi_ranks() is R. 1 when this rank is one of them; a rank that is not
 * takes part in nothing until hk_mpi_use_all. Every rank of the launch
 * calls it, with the same R. */
int hk_mpi_use_ranks(int R);
/* Every rank of the launch again, after hk_mpi_use_ranks; waits until each
 * rank has called it (the ranks left out wait here). Every rank calls it. */
void hk_mpi_use_all(void);
/* Shares w out over the ranks (hk_world_distribute with MPI's halo
 * exchange and sums), for the integrator w has: set it first. The
 * reference path is not shared out: every rank then computes the whole
 * world (replicated; see docs/user-guide.md). Every rank calls it. 0, or
 * -1 (hk_world_error). */
int hk_mpi_distribute(hk_world *w);
/* 1 when flag is non-zero on any rank (every rank calls it). */
int hk_mpi_any(int flag);
/* The largest v of all ranks (every rank calls it). */
int hk_mpi_max(int v);
/* Each v[i] becomes the largest of all ranks' v[i], in one message (every rank calls it). */
void hk_mpi_max_ints(int *v, int n);
/* The largest v of all ranks (every rank calls it). */
double hk_mpi_max_double(double v);
/* Waits until every rank has called it. */
void hk_mpi_barrier(void);
/* Rank 0's v, on every rank (every rank calls it). */
int hk_mpi_share_int(int v);
/* Seconds this rank has spent starting and waiting for halo exchanges. */
double hk_mpi_halo_seconds(void);
/* The largest message of a world's data this rank has sent, received or taken part in so far (a halo's, a sum's,
 * a relay's, a funnel's chunk, a broadcast) [B]: the summary line's largest_message_bytes, the largest rank's. */
double hk_mpi_largest_message(void);
/* "hooke: rank R of N: MESSAGE" on this rank's own stderr (rank 0: its stderr). */
void hk_mpi_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The rank's host name and CPU binding, one line per rank of the launch,
 * gathered on rank 0 (every rank of the launch calls it, outside
 * hk_mpi_use_ranks; rank 0 prints them with prefix); nothing
 * when MPI was not started. */
void hk_mpi_print_placement(const char *prefix);
#else
static inline int hk_mpi_start(void) { return 0; }
static inline void hk_mpi_stop(void) {}
static inline void hk_mpi_world_release(void) {}
static inline int hk_mpi_active(void) { return 0; }
static inline int hk_mpi_rank(void) { return 0; }
static inline int hk_mpi_ranks(void) { return 1; }
static inline int hk_mpi_launch_ranks(void) { return 1; }
static inline int hk_mpi_use_ranks(int R) { return R == 1; }
static inline void hk_mpi_use_all(void) {}
static inline int hk_mpi_distribute(hk_world *w)
{
    (void)w;
    return 0;
}
static inline int hk_mpi_any(int flag) { return flag != 0; }
static inline int hk_mpi_max(int v) { return v; }
static inline void hk_mpi_max_ints(int *v, int n)
{
    (void)v;
    (void)n;
}
static inline double hk_mpi_max_double(double v) { return v; }
static inline void hk_mpi_barrier(void) {}
static inline int hk_mpi_share_int(int v) { return v; }
static inline double hk_mpi_halo_seconds(void) { return 0; }
static inline double hk_mpi_largest_message(void) { return 0; }
static inline void hk_mpi_print_placement(const char *prefix) { (void)prefix; }
static inline void hk_mpi_note(const char *fmt, ...) { (void)fmt; }
#endif

#endif
