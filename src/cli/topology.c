/* topology.c — reports the machine through hwloc (packages, cores, caches, NUMA) and the threads' placement. */
#define _GNU_SOURCE
#include "topology.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif
#ifdef HOOKE_USE_HWLOC
#include <hwloc.h>
#endif

#include "hooke/hooke.h"
#include "kernels.h"

#ifdef HOOKE_USE_OPENMP
/* 1 once hooke bound the threads itself (the user set no OpenMP placement) */
static int bound_by_hooke;
#endif

void hk_topology_bind_threads(void)
{
    if (getenv("OMP_PLACES") || getenv("OMP_PROC_BIND")) return; /* the user's placement stands */
#ifdef HOOKE_USE_OPENMP
#ifdef HOOKE_USE_HWLOC
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) != 0) return;
    if (hwloc_topology_load(t) == 0) {
        int cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        if (cores > 0) {
#pragma omp parallel
            {
                /* thread i on core i (round robin past the last core): "close" */
                hwloc_obj_t core = hwloc_get_obj_by_type(t, HWLOC_OBJ_CORE, (unsigned)(omp_get_thread_num() % cores));
                if (core && core->cpuset) hwloc_set_cpubind(t, core->cpuset, HWLOC_CPUBIND_THREAD);
            }
            bound_by_hooke = 1;
        }
    }
    hwloc_topology_destroy(t);
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n > 0) {
#pragma omp parallel
        {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(omp_get_thread_num() % n, &set);
            sched_setaffinity(0, sizeof set, &set);
        }
        bound_by_hooke = 1;
    }
#endif
#endif
}

int hk_topology_cores(void)
{
    int n = 0;
#ifdef HOOKE_USE_HWLOC
    hwloc_topology_t t;
    if (hwloc_topology_init(&t) == 0) {
        if (hwloc_topology_load(t) == 0) n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        hwloc_topology_destroy(t);
    }
#endif
    if (n <= 0) n = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

static const char *cpu_isa_list(void)
{
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return "avx512 avx2 sse2";
    if (__builtin_cpu_supports("avx2")) return "avx2 sse2";
    return "sse2";
#else
    return "scalar";
#endif
}

#ifdef HOOKE_USE_HWLOC
static void print_caches(FILE *f, const char *prefix, hwloc_topology_t t)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                             HWLOC_OBJ_L4CACHE};
    static const char *const names[] = {"L1d", "L2", "L3", "L4"};
    fprintf(f, "%scaches:", prefix);
    for (int c = 0; c < 4; c++) {
        int n = hwloc_get_nbobjs_by_type(t, types[c]);
        if (n <= 0) continue;
        hwloc_obj_t o = hwloc_get_obj_by_type(t, types[c], 0);
        unsigned long long kib = o->attr ? (unsigned long long)o->attr->cache.size / 1024 : 0;
        fprintf(f, " %s %llu KiB x%d", names[c], kib, n);
    }
    fprintf(f, "\n");
}
#endif

void hk_topology_print(FILE *f, const char *prefix)
{
    fprintf(f, "%shooke %s (%s), build %s, flags: %s, compiler %s\n", prefix, HOOKE_VERSION,
            sizeof(hk_real) == 8 ? "double" : "float", HOOKE_BUILD_TYPE, HOOKE_BUILD_FLAGS,
#ifdef __VERSION__
            "gcc " __VERSION__
#else
            "unknown"
#endif
    );
#ifdef HOOKE_USE_HWLOC
    hwloc_topology_t t;
    int have = hwloc_topology_init(&t) == 0 && hwloc_topology_load(t) == 0;
    if (have) {
        fprintf(f, "%smachine: %d package(s), %d core(s), %d PU(s), %d NUMA node(s)\n", prefix,
                hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE), hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
                hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU), hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE));
        hwloc_obj_t root = hwloc_get_root_obj(t);
        const char *model = hwloc_obj_get_info_by_name(root, "CPUModel");
        if (!model) {
            hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
            if (pkg) model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
        }
        if (model) fprintf(f, "%scpu: %s\n", prefix, model);
        print_caches(f, prefix, t);
    } else {
        fprintf(f, "%smachine: hwloc could not read the topology\n", prefix);
    }
#else
    fprintf(f,
            "%smachine: %ld online processor(s); built without hwloc, so packages, cores, caches and NUMA nodes "
            "are not reported\n",
            prefix, sysconf(_SC_NPROCESSORS_ONLN));
#endif
    fprintf(f, "%ssimd: cpu has %s; kernel path in use: %s\n", prefix, cpu_isa_list(), hk_kernels_name());
#ifdef HOOKE_USE_OPENMP
    const char *places = getenv("OMP_PLACES"), *bind = getenv("OMP_PROC_BIND");
    fprintf(f, "%sopenmp: %d thread(s), OMP_PLACES=%s OMP_PROC_BIND=%s%s\n", prefix, omp_get_max_threads(),
            places ? places : "(unset)", bind ? bind : "(unset)",
            bound_by_hooke ? "; hooke bound thread i to core i" : "");
    int n = omp_get_max_threads();
    int *cpu = calloc((size_t)n, sizeof *cpu);
    char **mask = calloc((size_t)n, sizeof *mask);
    if (cpu && mask) {
#pragma omp parallel
        {
            int id = omp_get_thread_num();
            cpu[id] = sched_getcpu();
#ifdef HOOKE_USE_HWLOC
            if (have) {
                hwloc_bitmap_t set = hwloc_bitmap_alloc();
                if (set && hwloc_get_cpubind(t, set, HWLOC_CPUBIND_THREAD) == 0)
                    hwloc_bitmap_list_asprintf(&mask[id], set);
                hwloc_bitmap_free(set);
            }
#endif
        }
        for (int i = 0; i < n; i++)
            fprintf(f, "%sthread %d: on cpu %d, bound to PU(s) %s\n", prefix, i, cpu[i],
                    mask[i] ? mask[i] : "(not reported)");
    }
    for (int i = 0; mask && i < n; i++) free(mask[i]);
    free(mask);
    free(cpu);
#else
    fprintf(f, "%sopenmp: not in this build (1 thread)\n", prefix);
#endif
#ifdef HOOKE_USE_HWLOC
    if (have) hwloc_topology_destroy(t);
#endif
}
