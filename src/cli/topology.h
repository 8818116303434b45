/* topology.h — the machine (hwloc), SIMD in use and OpenMP thread placement, for `hooke info` and benchmarks. */
#ifndef HOOKE_TOPOLOGY_H
#define HOOKE_TOPOLOGY_H

#include <stdio.h>

/* Binds the OpenMP threads within the process's allowed processors (its
 * mask as found at the first call of this file): thread i of T on allowed
 * core i C / T of C (one per core, spread over them and so over the NUMA
 * nodes), to that core's allowed processors; nothing when the user set
 * OMP_PLACES, OMP_PROC_BIND or GOMP_CPU_AFFINITY. Call after the thread
 * count is set (topology.c explains the choice). */
void hk_topology_bind_threads(void);
/* The thread count of a command: flag (--threads; 0 = not given), else
 * OMP_NUM_THREADS, else scene (the scene's world threads; 0 = none), else
 * the cores of the process's mask. 0, or -1 with "OMP_NUM_THREADS=V:
 * expected ..." in err. */
int hk_topology_threads(int flag, int scene, int *out, char *err, size_t errlen);
/* Writes the machine description: packages, cores, PUs, NUMA nodes, caches,
 * the SIMD path in use, compiler and flags, and where each OpenMP thread
 * runs. `prefix` starts every line (e.g. "# " for reports). */
void hk_topology_print(FILE *f, const char *prefix);
/* The cores with an allowed processor (hwloc), else the allowed
 * processors; at least 1. */
int hk_topology_cores(void);
/* Several processes of one run (MPI ranks) share this node: then
 * hk_topology_bind_threads leaves each rank's threads within the mask its
 * launcher gave it (mpirun --bind-to, srun --cpu-bind) instead of binding
 * them to the node's first cores, where every rank's would meet. */
void hk_topology_share_node(int ranks);
/* Where this process runs, in one line: its allowed PUs, its OpenMP
 * threads' CPUs and who bound them (a rank's line in `hooke bench`). */
void hk_topology_placement(char *buf, size_t cap);

#endif
