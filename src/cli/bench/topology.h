/* topology.h — the machine (hwloc), SIMD in use and OpenMP thread placement, for `hooke info` and benchmarks. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_TOPOLOGY_H
#define HOOKE_TOPOLOGY_H

#include <stdint.h>
#include <stdio.h>

/* Binds the OpenMP threads within the process's allowed processors (its
 * mask as found at the first call of this file): thread i of T on allowed
 * core i C / T of C (one per core, spread over them and so over the NUMA
 * nodes), to that core's allowed processors; nothing when the user set
 * OMP_PLACES, OMP_PROC_BIND or GOMP_CPU_AFFINITY. Call after the thread
 * count is set (topology.c explains the choice). */
void hk_topology_bind_threads(void);
/* Whether hk_topology_bind_threads binds (1, the program's default) or
 * leaves the threads where they are (0: a host process, the Python module,
 * whose threads' placement is its own). */
void hk_topology_set_binding(int on);
/* The thread count of a command: flag (--threads; 0 = not given), else
 * OMP_NUM_THREADS, else scene (the scene's world threads; 0 = none), else
 * the cores of the process's mask. 0, or -1 with "OMP_NUM_THREADS=V:
 * expected ..." in err. */
int hk_topology_threads(int flag, int scene, int *out, char *err, size_t errlen);
/* hk_topology_threads for a problem of `springs` springs (0: unknown): the
 * default (no flag, OMP_NUM_THREADS, scene count or placement of the
 * user's) is the library's, hk_default_threads(springs, cores) (hooke.h:
 * at most one thread per HK_SPRINGS_PER_THREAD springs begun); *capped
 * (when not NULL) is set when that lowered it. */
int hk_topology_threads_for(int flag, int scene, int64_t springs, int *out, int *capped, char *err, size_t errlen);
/* One cache level of the machine (hwloc's first cache object of that level). */
typedef struct hk_cache_info {
    const char *name;         /* "L1d", "L2", "L3", "L4" */
    const char *type;         /* "Data" or "Unified" */
    int level;                /* 1..4 */
    unsigned long long bytes; /* size of one [B] */
    int count;                /* how many the machine has */
    int sharing;              /* PUs that share one */
} hk_cache_info;

/* Who placed the OpenMP threads: nobody, hooke (one thread per allowed
 * core, spread over them), the user (OMP_PLACES, OMP_PROC_BIND,
 * GOMP_CPU_AFFINITY), or the MPI launcher (several ranks on this node:
 * each rank's threads stay within the mask it was given). */
enum { HK_BINDING_NONE, HK_BINDING_HOOKE, HK_BINDING_USER, HK_BINDING_LAUNCHER };

/* The machine, the SIMD path and the OpenMP threads' placement as
 * hk_topology_read found them; hk_topology_write prints them, `hooke bench
 * --json` writes them. Text fields are "" when unknown. */
typedef struct hk_machine {
    int known;                            /* hwloc read the topology: the counts, cpu and caches are set */
    int packages, cores, pus, numa_nodes; /* the whole machine's */
    long online_pus;                      /* sysconf's count, for builds without hwloc */
    char cpu_model[128];                  /* hwloc's CPUModel */
    hk_cache_info caches[4];              /* data and unified caches, L1d first */
    int ncaches;
    const char *cpu_isa;                    /* what the CPU has: "avx512 avx2 sse2", "sse2", "scalar" */
    const char *kernels;                    /* the kernel path in use */
    char mask[256];                         /* the PUs the process may run on, "0-3,8" */
    int mask_cores;                         /* hk_topology_cores() */
    int openmp;                             /* built with OpenMP */
    int threads;                            /* omp_get_max_threads() (1 without OpenMP) */
    const char *omp_places, *omp_proc_bind; /* NULL when unset */
    int binding;                            /* HK_BINDING_*: who placed the threads */
    const char *binding_var;                /* HK_BINDING_USER: the variable that set it, else NULL */
    int *thread_cpu;                        /* threads entries: the cpu each thread runs on (NULL: unknown) */
    char **thread_pus;                      /* threads entries: the PUs each is bound to (NULL: not reported) */
} hk_machine;

/* Reads the machine and runs one parallel region to see where each
 * thread runs; hk_topology_free releases what it allocated. */
void hk_topology_read(hk_machine *m);
void hk_topology_free(hk_machine *m);
/* Writes the machine description: build, packages, cores, PUs, NUMA nodes,
 * caches, the SIMD path in use, the mask, and where each OpenMP thread
 * runs. `prefix` starts every line (e.g. "# " for reports). */
void hk_topology_write(FILE *f, const char *prefix, const hk_machine *m);
/* hk_topology_read, hk_topology_write, hk_topology_free. */
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
