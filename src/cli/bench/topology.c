/* topology.c — reports the machine through hwloc (packages, cores, caches, NUMA) and the threads' placement. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "topology.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif
#ifdef HOOKE_USE_HWLOC
#include <hwloc.h>
#endif

#include "build_info.h"
#include "env.h"
#include "hooke/hooke.h"
#include "kernels.h"
#include "omp_env.h"

/*
 * Thread placement. The process's allowed CPUs (its mask: taskset, a batch
 * system's cgroup, numactl) are read once, before hooke binds anything,
 * and every choice stays inside them:
 *   - the thread count: --threads, else OMP_NUM_THREADS, else the scene's,
 *     else the cores that have an allowed processor (or, under the user's
 *     placement, OpenMP's own default) (hk_topology_threads);
 *   - the binding: the user's when OMP_PLACES, OMP_PROC_BIND or
 *     GOMP_CPU_AFFINITY is set; otherwise thread i of T on allowed core
 *     floor(i C / T) of the C allowed cores in the machine's order (one
 *     thread per core, spread evenly, so over every NUMA node, neighbouring
 *     threads, whose blocks of rows are neighbours in memory, on
 *     neighbouring cores), bound to that core's allowed processors; past C
 *     threads, round robin.
 */

#ifdef HOOKE_USE_OPENMP
/* 1 once hooke bound the threads itself (the user set no OpenMP placement) */
static int bound_by_hooke;

/* The user's own placement variable, or NULL. */
static const char *user_placement(void)
{
    static const char *const vars[] = {"OMP_PLACES", "OMP_PROC_BIND", "GOMP_CPU_AFFINITY"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return vars[i];
    }
    return NULL;
}

/* processes of one run on this node (MPI ranks, hk_topology_share_node): past 1, the launcher places them */
static int node_ranks = 1;

void hk_topology_share_node(int ranks) { node_ranks = ranks > 1 ? ranks : 1; }
#else
void hk_topology_share_node(int ranks) { (void)ranks; /* one thread per process: nothing to place */ }
#endif

#ifdef HOOKE_USE_HWLOC
/* The machine and the process's allowed processors as found at the first call. */
static hwloc_topology_t topo;
static hwloc_bitmap_t allowed;
static int topo_state; /* 0 not read, 1 read, -1 unreadable */

static int topo_get(void)
{
    if (topo_state) return topo_state > 0;
    topo_state = -1;
    if (hwloc_topology_init(&topo) != 0) return 0;
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        return 0;
    }
    allowed = hwloc_bitmap_alloc();
    if (!allowed || hwloc_get_cpubind(topo, allowed, HWLOC_CPUBIND_PROCESS) != 0 || hwloc_bitmap_iszero(allowed)) {
        if (allowed) hwloc_bitmap_copy(allowed, hwloc_topology_get_allowed_cpuset(topo));
    }
    topo_state = 1;
    return 1;
}

/* The allowed processors of the k-th allowed core (in the machine's order),
 * into set; the number of allowed cores when k < 0. */
static int allowed_core(int k, hwloc_bitmap_t set)
{
    const int cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    int seen = 0;
    for (int c = 0; c < cores; c++) {
        hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c);
        if (!core || !core->cpuset || !hwloc_bitmap_intersects(core->cpuset, allowed)) continue;
        if (seen++ == k) {
            hwloc_bitmap_and(set, core->cpuset, allowed);
            return 1;
        }
    }
    return seen;
}
#else
static cpu_set_t allowed_set;
static int allowed_read;

static const cpu_set_t *allowed_cpus(void)
{
    if (!allowed_read) {
        allowed_read = 1;
        if (sched_getaffinity(0, sizeof allowed_set, &allowed_set) != 0) {
            CPU_ZERO(&allowed_set);
            long n = sysconf(_SC_NPROCESSORS_ONLN);
            for (long i = 0; i < n && i < CPU_SETSIZE; i++) CPU_SET((int)i, &allowed_set);
        }
    }
    return &allowed_set;
}
#endif

int hk_topology_cores(void)
{
#ifdef HOOKE_USE_HWLOC
    if (topo_get()) {
        const int n = allowed_core(-1, NULL);
        if (n > 0) return n;
        const int pus = hwloc_bitmap_weight(allowed);
        if (pus > 0) return pus;
    }
    return 1;
#else
    const int n = CPU_COUNT(allowed_cpus());
    return n > 0 ? n : 1;
#endif
}

int hk_topology_threads(int flag, int scene, int *out, char *err, size_t errlen)
{
    return hk_topology_threads_for(flag, scene, 0, out, NULL, err, errlen);
}

int hk_topology_threads_for(int flag, int scene, int64_t springs, int *out, int *capped, char *err, size_t errlen)
{
    if (capped) *capped = 0;
    if (flag > 0) {
        *out = flag;
        return 0;
    }
    const char *env = hk_omp_env_value();
    if (env && *env) {
        /* OpenMP's form: a count, or a list of them per nesting level (the first is ours) */
        int n;
        if (hk_omp_threads_parse(env, &n) != 0) {
            snprintf(err, errlen, "OMP_NUM_THREADS=%s: expected " HK_OMP_THREADS_EXPECTED, env);
            return -1;
        }
        *out = n;
        return 0;
    }
#ifdef HOOKE_USE_OPENMP
    /* with the user's placement, OpenMP's own count (the runtime may have bound the main thread already) */
    if (scene <= 0 && user_placement()) {
        *out = omp_get_max_threads();
        return 0;
    }
#endif
    *out = scene > 0 ? scene : hk_topology_cores();
    if (scene <= 0 && springs > 0) { /* the default: no more threads than the problem keeps busy (the library's rule) */
        const int fit = hk_default_threads(springs, *out);
        if (fit < *out) {
            *out = fit;
            if (capped) *capped = 1;
        }
    }
    return 0;
}

static int binding_on = 1; /* hk_topology_set_binding */

void hk_topology_set_binding(int on) { binding_on = on; }

void hk_topology_bind_threads(void)
{
#ifdef HOOKE_USE_OPENMP
    bound_by_hooke = 0;
    if (!binding_on) return;      /* a host's threads stay where it put them */
    if (user_placement()) return; /* the user's placement stands */
    if (node_ranks > 1) return;   /* ranks sharing the node: the launcher's binding (each rank's mask) stands */
#ifdef HOOKE_USE_HWLOC
    if (!topo_get()) return;
    const int cores = allowed_core(-1, NULL);
    if (cores <= 0) return;
#pragma omp parallel
    {
        const int i = omp_get_thread_num(), T = omp_get_num_threads();
        /* thread i on allowed core i C / T (spread), or round robin past C threads */
        const int k = T <= cores ? (int)((int64_t)i * cores / T) : i % cores;
        hwloc_bitmap_t set = hwloc_bitmap_alloc();
        if (set && allowed_core(k, set) > 0) hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
        hwloc_bitmap_free(set);
    }
    bound_by_hooke = 1;
#else
    const cpu_set_t *mask = allowed_cpus();
    int cpus[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, mask)) cpus[n++] = c;
    if (n == 0) return;
#pragma omp parallel
    {
        const int i = omp_get_thread_num(), T = omp_get_num_threads();
        const int k = T <= n ? (int)((int64_t)i * n / T) : i % n;
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpus[k], &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    bound_by_hooke = 1;
#endif
#endif
}

/* The allowed processors as a list ("0-3,8"), into buf. */
static void allowed_text(char *buf, size_t cap)
{
    buf[0] = '\0';
#ifdef HOOKE_USE_HWLOC
    if (topo_get()) hwloc_bitmap_list_snprintf(buf, cap, allowed);
#else
    const cpu_set_t *mask = allowed_cpus();
    size_t len = 0;
    for (int c = 0; c < CPU_SETSIZE && len + 16 < cap; c++)
        if (CPU_ISSET(c, mask)) len += (size_t)snprintf(buf + len, cap - len, "%s%d", len ? "," : "", c);
#endif
}

void hk_topology_placement(char *buf, size_t cap)
{
    char mask_list[128];
    allowed_text(mask_list, sizeof mask_list);
    size_t len = (size_t)snprintf(buf, cap, "PU(s) %s", mask_list[0] ? mask_list : "(unknown)");
#ifdef HOOKE_USE_OPENMP
    enum { MAX_SHOWN = 64 };
    int cpu[MAX_SHOWN], n = omp_get_max_threads() < MAX_SHOWN ? omp_get_max_threads() : MAX_SHOWN;
    for (int i = 0; i < n; i++) cpu[i] = -1;
#pragma omp parallel num_threads(n)
    cpu[omp_get_thread_num()] = sched_getcpu();
    if (len < cap) len += (size_t)snprintf(buf + len, cap - len, ", %d thread(s) on cpu", omp_get_max_threads());
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%d", i ? "," : " ", cpu[i]);
    if (len < cap)
        snprintf(buf + len, cap - len, " (binding: %s)",
                 user_placement() ? "the user's"
                 : node_ranks > 1 ? "the launcher's, several ranks on this node"
                 : bound_by_hooke ? "hooke's"
                                  : "none");
#else
    if (len < cap) snprintf(buf + len, cap - len, ", 1 thread");
#endif
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

void hk_topology_read(hk_machine *m)
{
    memset(m, 0, sizeof *m);
    m->online_pus = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef HOOKE_USE_HWLOC
    hwloc_topology_t t;
    const int have = hwloc_topology_init(&t) == 0 && hwloc_topology_load(t) == 0;
    if (have) {
        m->known = 1;
        m->packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
        m->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
        m->pus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
        m->numa_nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
        const char *model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), "CPUModel");
        if (!model) {
            hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
            if (pkg) model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
        }
        snprintf(m->cpu_model, sizeof m->cpu_model, "%s", model ? model : "");
        /* some CPUs pad their name with blanks (inside and at the end): one space between words */
        char *out = m->cpu_model;
        for (const char *in = m->cpu_model; *in; in++)
            if (*in != ' ' || (out > m->cpu_model && out[-1] != ' ')) *out++ = *in;
        while (out > m->cpu_model && out[-1] == ' ') out--;
        *out = '\0';
        static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE,
                                                 HWLOC_OBJ_L4CACHE};
        static const char *const names[] = {"L1d", "L2", "L3", "L4"};
        for (int c = 0; c < 4; c++) {
            const int n = hwloc_get_nbobjs_by_type(t, types[c]);
            if (n <= 0) continue;
            hwloc_obj_t o = hwloc_get_obj_by_type(t, types[c], 0);
            m->caches[m->ncaches++] = (hk_cache_info){
                .name = names[c],
                .type = o->attr && o->attr->cache.type == HWLOC_OBJ_CACHE_DATA ? "Data" : "Unified",
                .level = c + 1,
                .bytes = o->attr ? (unsigned long long)o->attr->cache.size : 0,
                .count = n,
                .sharing = o->cpuset ? hwloc_bitmap_weight(o->cpuset) : 0,
            };
        }
    }
#endif
    m->cpu_isa = cpu_isa_list();
    m->kernels = hk_env_kernels();
    allowed_text(m->mask, sizeof m->mask);
    m->mask_cores = hk_topology_cores();
    m->threads = 1;
#ifdef HOOKE_USE_OPENMP
    m->openmp = 1;
    m->omp_places = getenv("OMP_PLACES");
    m->omp_proc_bind = getenv("OMP_PROC_BIND");
    m->binding_var = user_placement();
    m->binding = m->binding_var   ? HK_BINDING_USER
                 : node_ranks > 1 ? HK_BINDING_LAUNCHER
                 : bound_by_hooke ? HK_BINDING_HOOKE
                                  : HK_BINDING_NONE;
    const int n = omp_get_max_threads();
    m->threads = n;
    m->thread_cpu = calloc((size_t)n, sizeof *m->thread_cpu);
    m->thread_pus = calloc((size_t)n, sizeof *m->thread_pus);
    if (m->thread_cpu && m->thread_pus) {
        int *cpu = m->thread_cpu;
        char **pus = m->thread_pus;
#pragma omp parallel
        {
            const int id = omp_get_thread_num();
            if (id < n) {
                cpu[id] = sched_getcpu();
#ifdef HOOKE_USE_HWLOC
                if (have) {
                    hwloc_bitmap_t set = hwloc_bitmap_alloc();
                    if (set && hwloc_get_cpubind(t, set, HWLOC_CPUBIND_THREAD) == 0)
                        hwloc_bitmap_list_asprintf(&pus[id], set);
                    hwloc_bitmap_free(set);
                }
#endif
            }
        }
    } else {
        hk_topology_free(m); /* out of memory: the placement is not reported */
    }
#endif
#ifdef HOOKE_USE_HWLOC
    if (have) hwloc_topology_destroy(t);
#endif
}

void hk_topology_free(hk_machine *m)
{
    for (int i = 0; m->thread_pus && i < m->threads; i++) free(m->thread_pus[i]);
    free(m->thread_pus);
    free(m->thread_cpu);
    m->thread_pus = NULL;
    m->thread_cpu = NULL;
}

void hk_topology_write(FILE *f, const char *prefix, const hk_machine *m)
{
    fprintf(f, "%shooke %s (%s), build %s, flags: %s, compiler %s\n", prefix, HOOKE_VERSION, hk_build_precision(),
            hk_build_type(), hk_build_flags(), hk_build_compiler());
    if (m->known) {
        fprintf(f, "%smachine: %d package(s), %d core(s), %d PU(s), %d NUMA node(s)\n", prefix, m->packages, m->cores,
                m->pus, m->numa_nodes);
        if (m->cpu_model[0]) fprintf(f, "%scpu: %s\n", prefix, m->cpu_model);
        fprintf(f, "%scaches:", prefix);
        for (int c = 0; c < m->ncaches; c++)
            fprintf(f, " %s %llu KiB x%d", m->caches[c].name, m->caches[c].bytes / 1024, m->caches[c].count);
        fprintf(f, "\n");
    } else {
#ifdef HOOKE_USE_HWLOC
        fprintf(f, "%smachine: hwloc could not read the topology\n", prefix);
#else
        fprintf(f,
                "%smachine: %ld online processor(s); built without hwloc, so packages, cores, caches and NUMA nodes "
                "are not reported\n",
                prefix, m->online_pus);
#endif
    }
    fprintf(f, "%ssimd: cpu has %s; kernel path in use: %s\n", prefix, m->cpu_isa, m->kernels);
    fprintf(f, "%smask: the process may run on PU(s) %s (%d core(s))\n", prefix, m->mask[0] ? m->mask : "(unknown)",
            m->mask_cores);
    if (!m->openmp) {
        fprintf(f, "%sopenmp: not in this build (1 thread)\n", prefix);
        return;
    }
    fprintf(f, "%sopenmp: %d thread(s), OMP_PLACES=%s OMP_PROC_BIND=%s; binding: %s%s\n", prefix, m->threads,
            m->omp_places ? m->omp_places : "(unset)", m->omp_proc_bind ? m->omp_proc_bind : "(unset)",
            m->binding == HK_BINDING_USER       ? "the user's, from "
            : m->binding == HK_BINDING_LAUNCHER ? "the launcher's (several MPI ranks on this node)"
            : m->binding == HK_BINDING_HOOKE    ? "hooke's, one thread per allowed core, spread over them"
                                                : "none",
            m->binding == HK_BINDING_USER ? m->binding_var : "");
    for (int i = 0; m->thread_cpu && i < m->threads; i++)
        fprintf(f, "%sthread %d: on cpu %d, bound to PU(s) %s\n", prefix, i, m->thread_cpu[i],
                m->thread_pus[i] ? m->thread_pus[i] : "(not reported)");
}

void hk_topology_print(FILE *f, const char *prefix)
{
    hk_machine m;
    hk_topology_read(&m);
    hk_topology_write(f, prefix, &m);
    hk_topology_free(&m);
}
