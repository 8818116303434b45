/* topology.h — the machine (hwloc), SIMD in use and OpenMP thread placement, for `hooke info` and benchmarks. */
#ifndef HOOKE_TOPOLOGY_H
#define HOOKE_TOPOLOGY_H

#include <stdio.h>

/* Default placement: binds OpenMP thread i to core i (hwloc; else the
 * i-th processor) unless the user set OMP_PLACES or OMP_PROC_BIND. Call
 * after the thread count is set. */
void hk_topology_bind_threads(void);
/* Writes the machine description: packages, cores, PUs, NUMA nodes, caches,
 * the SIMD path in use, compiler and flags, and where each OpenMP thread
 * runs. `prefix` starts every line (e.g. "# " for reports). */
void hk_topology_print(FILE *f, const char *prefix);
/* Number of cores (hwloc), else online processors; at least 1. */
int hk_topology_cores(void);

#endif
