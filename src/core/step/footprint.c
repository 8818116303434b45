/* footprint.c — the memory a world will take, estimated before it is built, and what this process may still take. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "integrators.h"
#include "system.h"
#include "world.h"

/* Entries each array of capacity entries holds for count particles: the particle arrays grow by doubling from 64
 * (world.c reserve_particles), and every array is padded (hk_padded). */
static double capacity_of(double count)
{
    double cap = 64;
    while (cap < count) cap = cap > (double)(1 << 29) ? count : 2 * cap;
    return (double)hk_padded((size_t)cap);
}

double hk_memory_estimate(const hk_memory_need *n)
{
    if (!n || n->particles < 0 || n->lattice_family_nodes < 0 || n->list_springs < 0 || n->row_particles < 0)
        return NAN;
    const double R = sizeof(hk_real), P = (double)n->particles, C = capacity_of(P);
    const hk_integrator_ops *ops = hk_integrator_ops_of(n->integrator);
    if (!ops) ops = hk_integrator_ops_of(HK_SEMI_IMPLICIT_EULER);
    int threads = n->threads;
#ifdef HOOKE_USE_OPENMP
    if (threads <= 0) threads = omp_get_max_threads();
#endif
    if (threads <= 0) threads = 1;
    /* the particles' slab (world.h: HK_PARTICLE_ARRAYS arrays), and the one before it while a body's particles are
     * added (the arrays are copied into a slab twice as long) */
    double b = 1.5 * HK_PARTICLE_ARRAYS * R * C;
    /* list springs: their endpoints (a, b), rest lengths and rest vectors (world.h hk_family), and while they are
     * coloured (colour.c) their reordered copies, an index and a colour each, and the builder's copy of the
     * endpoints */
    b += (double)n->list_springs *
         (2 * sizeof(int) + 4 * R + 2 * sizeof(int) + R + sizeof(int64_t) + sizeof(int) + 2 * sizeof(int));
    if (n->list_springs) b += 12.0 * sizeof(float) * C; /* the engine's packed records (engine.c) */
    /* a one-row lattice body (a rope) is swept in windows of its whole row: 3 accumulators of its row (x, y, z) for
     * the row, its two halos and the copies of its families, 12 entries per node, on every thread (sweep.c) */
    b += 12 * R * (double)n->row_particles * threads;
    const int implicit = ops->info.implicit;
    b += ops->scratch_arrays * R * C; /* RK4's stages (step.c) */
    b += ops->history_arrays * R * C; /* the history (world.h px.., dqx..) */
    if (implicit) {
        /* system.c: 3 x HK_SYS_VECTORS vectors, the 6 entries of each inverse diagonal block and the stop weights;
         * each lattice family's product (3 per node) and a block buffer (6 per node of the largest body, counted as
         * all of them); the fixed particles' list; the multigrid's levels (mg_setup.c: an aggregate of 2x2x2 nodes
         * keeps its 3x3 block and its neighbours' below it, about 48 entries a node over all levels) */
        b += (3 * HK_SYS_VECTORS + 7) * R * C + 3 * R * (double)n->lattice_family_nodes + 6 * R * P + sizeof(int) * P +
             48 * R * P;
    }
    if (n->contact) b += 11 * R * C; /* collider_contact.c: each particle's force, start, slack and friction anchor */
    return b;
}

/* The number after `key` in a /proc-style file ("MemAvailable:  123 kB"), in units of `unit` bytes; -1 if none. */
static double proc_number(const char *path, const char *key, double unit)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    double v = -1;
    const size_t kl = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, kl) == 0) {
            double x;
            if (sscanf(line + kl, " %lf", &x) == 1) v = x * unit;
            break;
        }
    fclose(f);
    return v;
}

/* The whole of a one-number file (cgroup's memory.max: a number or "max"), or -1. */
static double file_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    double v = -1;
    if (fscanf(f, "%lf", &v) != 1) v = -1;
    fclose(f);
    return v;
}

/* A limit: *best and what as the smaller. */
static void take(double v, const char *name, double *best, char *what, size_t cap)
{
    if (!(v >= 0) || !(v < *best)) return;
    *best = v;
    if (what && cap) snprintf(what, cap, "%s", name);
}

double hk_memory_available(char *what, size_t cap)
{
    double best = INFINITY;
    if (what && cap) snprintf(what, cap, "unknown");
    take(proc_number("/proc/meminfo", "MemAvailable:", 1024.0), "the machine's available memory (MemAvailable)", &best,
         what, cap);
    const double page = (double)sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");
    double size = -1, data = -1;
    if (f) {
        double resident, shared, text, lib;
        if (fscanf(f, "%lf %lf %lf %lf %lf %lf", &size, &resident, &shared, &text, &lib, &data) != 6) size = data = -1;
        fclose(f);
    }
    struct rlimit rl;
    if (size >= 0 && getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        take(fmax(0, (double)rl.rlim_cur - size * page), "what the limit on its address space leaves (ulimit -v)",
             &best, what, cap);
    if (data >= 0 && getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        take(fmax(0, (double)rl.rlim_cur - data * page), "what the limit on its data leaves (ulimit -d)", &best, what,
             cap);
    const double most = file_number("/sys/fs/cgroup/memory.max"), now = file_number("/sys/fs/cgroup/memory.current");
    if (most >= 0 && now >= 0)
        take(fmax(0, most - now), "what its control group's memory.max leaves", &best, what, cap);
    return best;
}
