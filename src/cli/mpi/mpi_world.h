/* mpi_world.h — a world's shares over MPI ranks: the halo exchange and the gather to rank 0 (mpi_ranks.h has the API).
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_MPI_WORLD_H
#define HOOKE_MPI_WORLD_H

#include <mpi.h>

/* hooke's communicator: a duplicate of MPI_COMM_WORLD, or its first ranks (hk_mpi_use_ranks), defined by mpi_ranks.c. */
extern MPI_Comm hk_mpi_comm;

#endif
