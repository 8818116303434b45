/* fom.c — `hooke bench`: figure of merit, strong and weak scaling, verification, JSON. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "fom.h"

#include "args.h"
#include "builtins.h"
#include "fom_json.h"
#include "options.h"
#include "outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "device.h"
#include "devices.h"
#include "env.h"
#include "hooke/hooke.h"
#include "mpi_ranks.h"
#include "part.h"
#include "response.h"
#include "scene.h"
#include "world.h"

void (*hk_bench_after_pass)(struct hk_world *w, int t, int T) = NULL;

const char hk_bench_usage[] =
    "usage: hooke bench [SCENE | --builtin cloth|jelly [--size N]] [--threads LIST | --sweep]\n"
    "                   [--strong | --weak] [--repeat R] [--steps S] [--warmup W] [--json FILE]\n"
    "                   [--gbench-json FILE] [--ranks LIST] [--device cpu|gpu|auto]\n"
    "\n"
    "The figure-of-merit mode for multicore machines. For each thread count: W\n"
    "warm-up steps, then R repetitions of S steps, timed; min, median and max\n"
    "time per step; FOM = spring updates per second (median) and ns per spring\n"
    "update; parallel efficiency against 1 thread. Strong scaling (default) keeps\n"
    "the problem; weak scaling (--weak, builtins only) grows it with the thread\n"
    "count n without changing what each thread computes: n independent copies\n"
    "of the 1-thread problem side by side (cloth: n panels of N x N nodes, N 512\n"
    "by default, each hung from two corners; jelly: n blocks of N^3 nodes, N 64,\n"
    "dropped on the ground); --size N sets N (at least 4). Before the numbers,\n"
    "the machine; after them, verification: every final state_hash must equal\n"
    "the 1-thread hash of the same problem, the state must be finite with no\n"
    "spring past 10x its rest length, and the total energy must not grow by more\n"
    "than 10% of the run's energy scale (|E_start| + |KE| + |PE| + |SE| at the end)\n"
    "plus 1 mJ per kg of free mass (at the start of a run every term is near zero,\n"
    "and an explicit scheme at omega*dt near 1 reports an energy that oscillates\n"
    "by a share of the stiff modes'; a blow-up grows without bound).\n"
    "Prints VALID or INVALID (exit 2),\n"
    "a grep-able line 'FOM <value> spring_updates/s ...', and the full result\n"
    "as JSON with --json FILE (with the machine: CPU, caches, topology, mask,\n"
    "OpenMP settings and placement, and the date), and in Google Benchmark's\n"
    "JSON shape with --gbench-json FILE, which its tools/compare.py compares\n"
    "(per thread count one entry per repetition and their median, time per\n"
    "step in ns).\n"
    "Default: --builtin cloth (the cloth_512 problem),\n"
    "--sweep, --repeat 5, --warmup 2, S chosen so one repetition takes about\n"
    "0.25 s in the first configuration: after the W steps, a trial of three\n"
    "blocks of about 8 ms (by the fastest warm-up step) runs steps back to back\n"
    "as the repetitions do, over MPI ranks with their waits for each other, and\n"
    "its median block sets S; its steps count as warm-up, in every\n"
    "configuration. A scene runs with its integrator; with an implicit one\n"
    "each thread count also reports CG iterations per step, spring Jacobian\n"
    "products per second (products with the system matrix x springs / time:\n"
    "one per CG iteration, two more per multigrid cycle) and simulated seconds\n"
    "per wall-clock second (also in the JSON, for every integrator).\n"
    "Started by an MPI launcher (mpirun -np R hooke bench ..., a build with\n"
    "HOOKE_MPI), every configuration runs on the R ranks with its thread count\n"
    "per rank: the table gains the ranks and the halo exchange's time per step\n"
    "(the slowest rank's; with an implicit integrator also the solver's shared\n"
    "sums), each rank's placement is printed first, times are the\n"
    "slowest rank's, weak scaling grows the problem with ranks x threads, and\n"
    "every hash is checked against one process on 1 thread. --ranks LIST sweeps\n"
    "rank counts in the same launch: every (ranks, threads) pair of the two\n"
    "lists runs on the launch's first ranks (rank counts 1..R; the other ranks\n"
    "wait), and efficiency is FOM / (ranks x threads x the 1-rank 1-thread FOM).\n"
    "Without an MPI launcher the one rank count is 1.\n"
    "--device gpu runs the steps on a GPU (docs/user-guide.md, \"On a GPU\"; exit 1\n"
    "saying why where none runs the problem), auto where one does: the table\n"
    "and the FOM line name the device, every hash is checked against the CPU's\n"
    "1-thread hash, and the thread counts (the host's) default to 1.\n"
    "\n";

enum { MAX_COUNTS = 64, EXIT_OK = 0, EXIT_INPUT = 1, EXIT_INVALID = 2, EXIT_IO = 3 };

typedef struct bench_opts {
    const char *scene;
    const char *builtin;
    int counts[MAX_COUNTS];
    int ncounts;
    int rank_counts[MAX_COUNTS]; /* --ranks (none given: the launch's) */
    int nranks;
    int weak;
    int size; /* builtin edge N (0: the default) */
    int repeat, warmup;
    int64_t steps;
    const char *json;   /* --json FILE */
    const char *gbench; /* --gbench-json FILE */
    int device;         /* --device: an hk_device_kind */
} bench_opts;

/* A time in seconds as milliseconds for the table: 3 decimals from 1 ms up, else 4 significant digits
 * (0.006234, not 0.006). */
static const char *ms_text(char out[24], double seconds)
{
    const double ms = 1e3 * seconds;
    int decimals = 3;
    if (ms > 0 && ms < 1) decimals = 3 - (int)floor(log10(ms));
    if (decimals > 9) decimals = 9;
    snprintf(out, 24, "%.*f", decimals, ms);
    return out;
}

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

static void set_threads(int t)
{
#ifdef HOOKE_USE_OPENMP
    omp_set_num_threads(t);
    hk_topology_bind_threads();
#else
    (void)t;
#endif
}

/* The options of `hooke bench`: the parser and the help text read this table. */
enum {
    O_BUILTIN,
    O_SIZE,
    O_THREADS,
    O_SWEEP,
    O_STRONG,
    O_WEAK,
    O_REPEAT,
    O_STEPS,
    O_WARMUP,
    O_JSON,
    O_GBENCH,
    O_RANKS,
    O_DEVICE
};
static const hk_option bench_options[] = {
    {O_BUILTIN, "builtin", "NAME", "cloth (the cloth_512 problem) or jelly, instead of a scene", NULL},
    {O_SIZE, "size", "N", "a builtin's edge in nodes, 4..8192 (default: cloth 512, jelly 64)", NULL},
    {O_THREADS, "threads", "LIST", "comma-separated thread counts (at most 64), e.g. 1,2,4", NULL},
    {O_SWEEP, "sweep", NULL, "every thread count from 1 to the number of cores (default)", NULL},
    {O_STRONG, "strong", NULL, "strong scaling: the same problem for every count (default)", NULL},
    {O_WEAK, "weak", NULL, "weak scaling: n threads run n copies of the 1-thread problem (builtins only)", NULL},
    {O_REPEAT, "repeat", "R", "timed repetitions per thread count, 1..1000 (default 5)", NULL},
    {O_STEPS, "steps", "S", "steps per repetition, 1..100000000 (default: about 0.25 s)", NULL},
    {O_WARMUP, "warmup", "W", "untimed steps first, 1..100000 (default 2)", NULL},
    {O_JSON, "json", "FILE", "the whole result as JSON, with the machine and the date", NULL},
    {O_GBENCH, "gbench-json", "FILE", "the timings in Google Benchmark's JSON shape (for its compare.py)", NULL},
    {O_RANKS, "ranks", "LIST", "comma-separated MPI rank counts (at most 64), each 1..the launch's (default: all)",
     NULL},
    {O_DEVICE, "device", "WHERE", "cpu (default), gpu or auto: where the steps run (hooke info lists the GPUs)", NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command bench_command = {"bench", bench_options};

/* A comma-separated list of counts 1..4096 (what: "thread" or "rank") into out[0..*n); EXIT_OK, or EXIT_INPUT
 * with the message printed. */
static int count_list(const char *a, const char *v, const char *what, int *out, int *n)
{
    char expected[96];
    snprintf(expected, sizeof expected, "a comma-separated list of %s counts 1..4096 (at most %d)", what, MAX_COUNTS);
    if (!v) return hk_arg_error("bench", a, v, expected);
    char *copy = strdup(v), *save = NULL;
    if (!copy) return EXIT_INPUT;
    *n = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t x;
        if (*n == MAX_COUNTS || hk_arg_int64(tok, 1, 4096, &x)) {
            free(copy);
            return hk_arg_error("bench", a, v, expected);
        }
        out[(*n)++] = (int)x;
    }
    free(copy);
    return *n == 0 ? hk_arg_error("bench", a, v, expected) : EXIT_OK;
}

/* The value of option id (flag: "--NAME") into o; EXIT_OK, or EXIT_INPUT with the message printed. */
static int bench_option(bench_opts *o, int id, const char *a, const char *v)
{
    int64_t n;
    switch (id) {
    case O_BUILTIN:
        if (!v || (strcmp(v, "cloth") != 0 && strcmp(v, "jelly") != 0))
            return hk_arg_error("bench", a, v, "cloth or jelly");
        o->builtin = v;
        break;
    case O_THREADS: return count_list(a, v, "thread", o->counts, &o->ncounts);
    case O_RANKS: return count_list(a, v, "rank", o->rank_counts, &o->nranks);
    case O_DEVICE: return hk_arg_device("bench", a, v, &o->device) ? EXIT_INPUT : EXIT_OK;
    case O_SIZE:
        if (hk_arg_int("bench", a, v, 4, 8192, "a problem edge 4..8192 (nodes)", &n)) return EXIT_INPUT;
        o->size = (int)n;
        break;
    case O_SWEEP: o->ncounts = 0; break;
    case O_STRONG: o->weak = 0; break;
    case O_WEAK: o->weak = 1; break;
    case O_REPEAT:
        if (hk_arg_int("bench", a, v, 1, 1000, "a repetition count 1..1000", &n)) return EXIT_INPUT;
        o->repeat = (int)n;
        break;
    case O_WARMUP:
        if (hk_arg_int("bench", a, v, 1, 100000, "a step count 1..100000", &n)) return EXIT_INPUT;
        o->warmup = (int)n;
        break;
    case O_STEPS:
        if (hk_arg_int("bench", a, v, 1, 100000000, "a step count 1..100000000", &n)) return EXIT_INPUT;
        o->steps = n;
        break;
    case O_JSON:
    case O_GBENCH:
        if (!v || !*v) return hk_arg_error("bench", a, v, "a file name");
        *(id == O_JSON ? &o->json : &o->gbench) = v;
        break;
    }
    return EXIT_OK;
}

/* --ranks asked for R ranks, more than the launch has: the message (on every rank: rank 0's error, the others
 * saying they stop); EXIT_INPUT. */
static int too_many_ranks(int R, int launch)
{
    if (hk_mpi_active()) {
        fprintf(stderr,
                "hooke: error: bench: --ranks: %d ranks asked for, but this launch has %d processes (mpirun -np %d): "
                "each rank count must be 1..%d\n",
                R, launch, launch, launch);
        if (hk_mpi_rank() != 0) hk_mpi_note("stopping: --ranks asks for %d ranks, this launch has %d", R, launch);
        return EXIT_INPUT;
    }
#ifdef HOOKE_MPI
    fprintf(stderr,
            "hooke: error: bench: --ranks: %d ranks asked for, but this process was not started by an MPI launcher "
            "(mpirun -np N hooke bench ...): the rank count must be 1\n",
            R);
#else
    fprintf(stderr,
            "hooke: error: bench: --ranks: %d ranks asked for, but this hooke was built without MPI (-DHOOKE_MPI=ON): "
            "the rank count must be 1\n",
            R);
#endif
    return EXIT_INPUT;
}

/* EXIT_OK, EXIT_INPUT (message printed) or BENCH_HELP (help printed). */
enum { BENCH_HELP = -1 };
static int parse(int argc, char **argv, bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->repeat = 5;
    o->warmup = 2;
    hk_opt_parser p;
    hk_opt_begin(&p, &bench_command, argc - 1, argv + 1);
    int rc = EXIT_OK;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_ERROR) {
            rc = EXIT_INPUT;
        } else if (id == HK_OPT_HELP) {
            fputs(hk_bench_usage, stdout);
            hk_opt_print(stdout, &bench_command);
            rc = BENCH_HELP;
        } else if (id == HK_OPT_ARG && o->scene) {
            fprintf(stderr, "hooke: error: bench: more than one scene given ('%s' and '%s')\n", o->scene, v);
            rc = EXIT_INPUT;
        } else if (id == HK_OPT_ARG) {
            o->scene = v;
        } else {
            rc = bench_option(o, id, p.flag, v);
        }
        if (rc != EXIT_OK) break;
    }
    hk_opt_end(&p);
    if (rc != EXIT_OK) return rc;
    if (o->scene && o->builtin) {
        fprintf(stderr, "hooke: error: bench: give a scene or --builtin, not both\n");
        return EXIT_INPUT;
    }
    if (!o->scene && !o->builtin) o->builtin = "cloth";
    if (o->weak && o->scene) {
        fprintf(stderr, "hooke: error: bench: --weak needs a --builtin problem (a scene file has one fixed size)\n");
        return EXIT_INPUT;
    }
    if (o->size && o->scene) {
        fprintf(stderr, "hooke: error: bench: --size sets a --builtin problem's size (a scene file has its own)\n");
        return EXIT_INPUT;
    }
    if (o->ncounts == 0 && o->device != HK_DEVICE_CPU) o->counts[o->ncounts++] = 1; /* the host's threads */
    if (o->ncounts == 0) {
        int cores = hk_topology_cores();
        if (cores > MAX_COUNTS) cores = MAX_COUNTS;
        for (int t = 1; t <= cores; t++) o->counts[o->ncounts++] = t;
    }
    const int launch = hk_mpi_launch_ranks(); /* every rank checks the same list: all stop, none waits */
    if (o->nranks == 0) o->rank_counts[o->nranks++] = launch;
    for (int i = 0; i < o->nranks; i++)
        if (o->rank_counts[i] > launch) return too_many_ranks(o->rank_counts[i], launch);
    return EXIT_OK;
}

/* Whether a problem is shared out over MPI ranks as each rank builds it: its lattices deferred, each rank building
 * the rows it holds (world.h hk_world_defer_lattices); the reference path is computed whole on every rank. */
static int shared(const hk_world_def *base, int alone)
{
    return !alone && hk_mpi_ranks() > 1 && !(base->kernels && strcmp(base->kernels, "reference") == 0);
}

/* A builtin problem's edge N: --size, else cloth 512 (the cloth_512 problem), jelly 64. */
static int builtin_size(const bench_opts *o) { return o->size ? o->size : strcmp(o->builtin, "jelly") == 0 ? 64 : 512; }

/* Builds the problem at `scale` (weak scaling) on `device`, for the ranks taking part (each its share:
 * hk_mpi_distribute), or whole for this process alone (alone: the reference); NULL after printing why. */
static hk_world *make_problem(const bench_opts *o, int scale, int device, int alone, char *name, size_t len)
{
    hk_world_def base; /* the environment's tuning (env.h) */
    char err[1024];
    if (hk_env_world_def(&base, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return NULL;
    }
    base.device = (hk_device_kind)device;
    hk_world *w;
    if (o->scene) {
        hk_scene sc;
        if (hk_scene_load_for(o->scene, &base, shared(&base, alone) ? hk_mpi_ranks() : 1, &sc, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return NULL;
        }
        snprintf(name, len, "%s", o->scene);
        w = hk_scene_take_world(&sc); /* the run settings other than the integrator do not apply */
    } else {
        const int jelly = strcmp(o->builtin, "jelly") == 0, N = builtin_size(o);
        const int defer = shared(&base, alone);
        w = jelly ? hk_bench_jelly(&base, defer, scale, N, name, len)
                  : hk_bench_cloth(&base, defer, scale, N, name, len);
        if (!w) fprintf(stderr, "hooke: error: bench: cannot build the %s problem (out of memory?)\n", o->builtin);
    }
    if (w) w->after_pass = hk_bench_after_pass;
    return w;
}

/* The resident memory of this process now (VmRSS) and at most (VmHWM) [B], from /proc/self/status; NaN where it
 * cannot be read. */
static void resident(double *rss, double *peak)
{
    *rss = *peak = NAN;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    double kb;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "VmRSS: %lf kB", &kb) == 1) *rss = 1024 * kb;
        if (sscanf(line, "VmHWM: %lf kB", &kb) == 1) *peak = 1024 * kb;
    }
    fclose(f);
}

/* Lowers VmHWM to the resident memory now, so that it measures what follows (Linux 4.0 and later; where it
 * cannot, VmHWM stays the process's largest so far). */
static void reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f) return;
    fputs("5", f);
    fclose(f);
}

/* The free mass of particles [l0, l1) of body b added to *state (a relay's piece: part.h). */
static void add_free_mass(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const hk_world *w = ctx;
    const int64_t base = hk_body_base(&w->bodies[b]);
    for (int64_t l = l0; l < l1; l++)
        if (w->p.inv_mass[base + l] != 0) *(double *)state += w->p.mass[base + l];
}

/* One configuration, on the MPI ranks taking part (hk_mpi_use_ranks: `ranks` of them): build, warm up, time,
 * verify. r->times and r->cpu_times are allocated (free them also when this fails); a failure is every rank's. */
static int run_config(const bench_opts *o, int ranks, int threads, int64_t *steps, int64_t *trial, hk_bench_row *r,
                      char *name, size_t len)
{
    memset(r, 0, sizeof *r);
    r->ranks = ranks;
    r->threads = threads;
    r->times = malloc((size_t)o->repeat * sizeof *r->times);
    r->cpu_times = malloc((size_t)o->repeat * sizeof *r->cpu_times);
    r->held = calloc((size_t)ranks, sizeof *r->held);
    if (!r->times || !r->cpu_times || !r->held) fprintf(stderr, "hooke: error: bench: out of memory\n");
    set_threads(threads);
    reset_peak(); /* the configuration's own peak: building, warming up and the timed steps */
    hk_world *w = r->times && r->cpu_times && r->held
                      ? make_problem(o, o->weak ? threads * ranks : 1, o->device, 0, name, len)
                      : NULL;
    if (hk_mpi_any(!w)) { /* over MPI ranks: one that failed stops them all */
        if (w && hk_mpi_rank() != 0) hk_mpi_note("stopping: another rank could not build the problem");
        hk_world_destroy(w);
        return -1;
    }
    hk_world_set_threads(w, threads); /* the configuration's count, not the scene's or hooke's default */
    if (hk_mpi_any(hk_world_optimise(w, 0) != 0) || hk_mpi_distribute(w) != 0) { /* over MPI ranks: each rank's share */
        fprintf(stderr, "hooke: error: bench: %s\n", hk_world_error(w));
        hk_world_destroy(w);
        return -1;
    }
    char where[2048] = "cpu";
    if (o->device != HK_DEVICE_CPU && hk_world_device(w, where, sizeof where) < 0) { /* the GPU, or why not */
        fprintf(stderr, "hooke: error: bench: --device gpu: %s\n", where);
        hk_world_destroy(w);
        return -1;
    }
    r->gpu = hk_world_device(w, NULL, 0) == HK_DEVICE_GPU;
    snprintf(r->device, sizeof r->device, "%.255s", where);
    r->particles = w->gcount;
    for (int k = 0; r->held && k < ranks; k++) r->held[k] = k == hk_mpi_rank() ? w->p.count : 0; /* each rank's */
    if (r->held) hk_mpi_max_ints(r->held, ranks);
    r->springs = hk_world_spring_count(w);
    hk_stats s0 = hk_world_stats(w);
    r->e_start = s0.total;
    hk_blowup b;
    /* warm-up, step by step: the first step also measures the spring
     * evaluations per step, and on the first configuration the fastest
     * warm-up step gives the step count S of a repetition (the first step
     * pays for first touches and, over MPI ranks, for setting up the
     * exchanges: several times a later step) */
    int64_t u0 = hk_world_spring_updates(w);
    double per = INFINITY;
    for (int s = 0; s < o->warmup; s++) {
        hk_mpi_barrier();
        const double t0 = now_s();
        hk_world_step(w);
        hk_device_wait(w);                                /* a GPU's steps return before they end */
        per = fmin(per, hk_mpi_max_double(now_s() - t0)); /* over MPI ranks: the slowest's, so all take S steps */
        if (s == 0) r->updates_per_step = hk_world_spring_updates(w) - u0;
    }
    if (*steps == 0) {
        /* S from a trial run as a repetition runs, steps back to back (over MPI ranks a single step from a barrier
         * hides how they wait for each other's rows: 0.74 ms a step where the repetitions took 4.8 to 29 ms, on 2
         * ranks on the 2 cores of a busy machine): three blocks of about 8 ms by the fastest warm-up step, the
         * median block's time per step */
        const double guess = ceil(0.008 / (per > 1e-9 ? per : 1e-9));
        const int64_t block = guess < 1 ? 1 : guess > 3000 ? 3000 : (int64_t)guess;
        double t[3];
        for (int k = 0; k < 3; k++) {
            hk_mpi_barrier();
            const double t0 = now_s();
            for (int64_t s = 0; s < block; s++) hk_world_step(w);
            hk_device_wait(w);
            t[k] = hk_mpi_max_double(now_s() - t0) / (double)block;
        }
        *trial = 3 * block;
        const double step = hk_bench_median(t, 3), n = ceil(0.25 / (step > 1e-9 ? step : 1e-9));
        *steps = n < 1 ? 1 : n > 100000 ? 100000 : (int64_t)n;
    } else {
        for (int64_t s = 0; s < *trial; s++) hk_world_step(w); /* the first configuration's trial, untimed */
    }
    double *times = r->times;
    const int64_t cg0 = hk_world_solver_stats(w).cg_total, products0 = hk_world_solver_stats(w).products;
    double timed = 0;
    const double halo0 = hk_mpi_halo_seconds();
    const hk_contact_profile prof0 = hk_contact_profile_of(w);
    for (int rep = 0; rep < o->repeat; rep++) {
        hk_mpi_barrier(); /* over MPI ranks: every rank starts together, the slowest one's time counts */
        const double t = now_s(), cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        for (int64_t s = 0; s < *steps; s++) hk_world_step(w);
        hk_device_wait(w);
        times[rep] = hk_mpi_max_double(now_s() - t) / (double)*steps;
        r->cpu_times[rep] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu) / (double)*steps; /* this rank's */
        timed += times[rep] * (double)*steps;
    }
    r->halo = hk_mpi_max_double(hk_mpi_halo_seconds() - halo0) / ((double)o->repeat * (double)*steps);
    resident(&r->rss, &r->peak_rss); /* the largest rank's */
    r->rss = hk_mpi_max_double(r->rss);
    r->peak_rss = hk_mpi_max_double(r->peak_rss);
    const hk_contact_profile prof1 = hk_contact_profile_of(w);
    r->contact = prof1.steps > 0;
    r->contact_phase[0] = (prof1.broad - prof0.broad) / ((double)o->repeat * (double)*steps);
    r->contact_phase[1] = (prof1.forces - prof0.forces) / ((double)o->repeat * (double)*steps);
    r->contact_phase[2] = (prof1.safety - prof0.safety) / ((double)o->repeat * (double)*steps);
    r->implicit = hk_integrator_info_of(hk_world_integrator(w).kind)->implicit;
    const double cg = (double)(hk_world_solver_stats(w).cg_total - cg0);
    r->cg_per_step = cg / ((double)o->repeat * (double)*steps);
    const double products = (double)(hk_world_solver_stats(w).products - products0);
    r->jacobian_per_s = timed > 0 ? products * (double)r->springs / timed : 0;
    r->tmin = r->tmax = times[0];
    for (int rep = 1; rep < o->repeat; rep++) {
        r->tmin = fmin(r->tmin, times[rep]);
        r->tmax = fmax(r->tmax, times[rep]);
    }
    r->tmed = hk_bench_median(times, o->repeat);
    r->fom = (double)r->updates_per_step / r->tmed;
    r->sim_per_wall = hk_world_integrator(w).dt / r->tmed;
    r->ns_per_update = 1e9 * r->tmed / (double)r->updates_per_step;
    if (hk_world_error(w)[0] || hk_world_check(w, 10.0, &b)) {
        r->blew_up = 1;
        snprintf(r->blowup, sizeof r->blowup, "%s", hk_world_error(w)[0] ? hk_world_error(w) : b.cause);
    }
    hk_stats s1 = hk_world_stats(w);
    r->e_end = s1.total;
    r->e_scale = fabs(r->e_start) + fabs(s1.kinetic) + fabs(s1.gravity) + fabs(s1.spring);
    double free_mass = 0; /* in particle order (relayed over MPI ranks: every check here is a reduction) */
    hk_part_relay(w, 0, &free_mass, sizeof free_mass, add_free_mass, w);
    r->e_floor = 1e-3 * free_mass; /* 1 mJ per kg */
    r->hash = hk_world_state_hash(w);
    hk_world_destroy(w);
    return 0;
}

/* The same problem on the CPU on `threads` threads (the hash is the same for any count), untimed: the reference hash.
 */
static int reference_hash(const bench_opts *o, int scale, int threads, int64_t total_steps, uint64_t *hash)
{
    char name[256];
    set_threads(threads);
    hk_world *w = make_problem(o, scale, HK_DEVICE_CPU, 1, name, sizeof name); /* the CPU's bits, whole */
    if (!w) return -1;
    for (int64_t s = 0; s < total_steps; s++) hk_world_step(w);
    *hash = hk_world_state_hash(w);
    hk_world_destroy(w);
    return 0;
}

/* Writes one JSON output through write (into FILE.tmp, renamed over FILE); EXIT_OK or EXIT_IO with the message printed.
 */
static int write_output(const char *path, int (*write)(FILE *, const hk_bench_report *), const hk_bench_report *rep)
{
    hk_outfile out;
    FILE *f = hk_out_open(&out, path, "w");
    if (!f) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", path, hk_out_strerror(errno));
        return EXIT_IO;
    }
    const int ok = write(f, rep) == 0;
    if (hk_out_close(&out, ok) != 0 || !ok) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", path,
                ok ? hk_out_strerror(errno) : "malformed JSON (a bug)");
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The references of a run's rows: the 1-process 1-thread state_hash of the problem at each scale met. */
typedef struct references {
    int n;
    int scale[MAX_COUNTS * MAX_COUNTS];
    uint64_t hash[MAX_COUNTS * MAX_COUNTS];
} references;

/* A row's reference hash into *ref, on rank 0 (the only one that verifies): a 1-rank 1-thread row is its own,
 * else one found before for the same scale, else one process on 1 thread computes it. A failure is every rank's. */
static int row_reference(const bench_opts *o, references *refs, const hk_bench_row *x, int64_t total, uint64_t *ref)
{
    const int scale = o->weak ? x->ranks * x->threads : 1; /* weak scaling: ranks x threads copies */
    int k = 0;
    while (k < refs->n && refs->scale[k] != scale) k++;
    if (x->gpu) k = refs->n; /* a GPU's row: the CPU's hash, computed (a GPU row is no reference) */
    int failed = 0;
    if (x->ranks == 1 && x->threads == 1 && !x->gpu)
        *ref = x->hash;
    else if (k < refs->n)
        *ref = refs->hash[k];
    else if (hk_mpi_rank() == 0)
        failed = reference_hash(o, scale, x->gpu ? hk_topology_cores() : 1, total, ref) != 0; /* a GPU's: sooner */
    if (k == refs->n) {
        refs->scale[k] = scale;
        refs->hash[k] = *ref;
        refs->n++;
    }
    return hk_mpi_max(failed) ? -1 : 0;
}

/* The configurations' runs (every rank count x every thread count), verification and outputs; the machine and the
 * build as read at the start. Over MPI ranks, each configuration runs on the launch's first ranks (rank 0, which
 * prints and verifies, always among them); the others wait. */
static int bench(const bench_opts *o, hk_bench_report *rep, hk_bench_row *r)
{
    char name[4096] = "";
    int64_t steps = o->steps, trial = 0; /* trial: the steps that chose S (warm-up steps, in every configuration) */
    const int over_ranks = hk_mpi_active(), launch = hk_mpi_launch_ranks();
    const int nrows = o->nranks * o->ncounts;
    references *refs = malloc(sizeof *refs);
    if (!refs) {
        fprintf(stderr, "hooke: error: bench: out of memory\n");
        return EXIT_INPUT;
    }
    refs->n = 0;
    /* the efficiency base: 1 rank x 1 thread; without 1 among the rank counts (a launch of R ranks without --ranks),
     * the fewest ranks on 1 thread, counted as that many 1-rank 1-thread FOMs */
    int base_ranks = o->rank_counts[0], base = -1;
    for (int k = 1; k < o->nranks; k++)
        if (o->rank_counts[k] < base_ranks) base_ranks = o->rank_counts[k];
    for (int i = 0; i < nrows; i++) {
        const int ranks = o->rank_counts[i / o->ncounts], threads = o->counts[i % o->ncounts];
        int failed = 0;
        if (hk_mpi_use_ranks(ranks)) {
            failed = run_config(o, ranks, threads, &steps, &trial, &r[i], name, sizeof name) != 0;
        } else {
            r[i].ranks = ranks; /* another configuration's rank: rank 0 holds the figures */
            r[i].threads = threads;
        }
        hk_mpi_use_all(); /* the whole launch again */
        if (hk_mpi_max(failed)) {
            free(refs);
            return EXIT_INPUT;
        }
        steps = hk_mpi_share_int((int)steps); /* S and its trial, set by the first configuration: rank 0 took part */
        trial = hk_mpi_share_int((int)trial);
        rep->warmup = o->warmup + (int)trial;
        rep->nrows = i + 1;
        if (i == 0)
            printf("hooke bench: %s, %d particles, %lld springs, %s scaling, %d warm-up steps, %d x %lld steps, "
                   "device %s\n",
                   name, r[0].particles, (long long)r[0].springs, o->weak ? "weak" : "strong", rep->warmup, o->repeat,
                   (long long)steps, r[0].device);
        if (i == 0)
            printf("%sthreads  particles  springs    min_ms   median_ms   max_ms   %sFOM(G/s)  ns/update  efficiency  "
                   "state_hash\n",
                   over_ranks ? "ranks  " : "", over_ranks ? "halo_ms  " : "");
        /* every configuration takes the same number of steps: W + trial + R S */
        const int64_t total = rep->warmup + (int64_t)o->repeat * steps;
        if (row_reference(o, refs, &r[i], total, &r[i].ref_hash) != 0) {
            free(refs);
            return EXIT_INPUT;
        }
        if (base < 0 && ranks == base_ranks && threads == 1) base = i;
        r[i].efficiency =
            base >= 0 && r[base].fom > 0 ? r[i].fom * base_ranks / ((double)ranks * threads * r[base].fom) : 0;
        if (over_ranks) printf("%5d  ", ranks);
        char tmin[24], tmed[24], tmax[24];
        printf("%7d  %9d  %9lld  %8s  %10s  %7s  ", r[i].threads, r[i].particles, (long long)r[i].springs,
               ms_text(tmin, r[i].tmin), ms_text(tmed, r[i].tmed), ms_text(tmax, r[i].tmax));
        if (over_ranks) printf("%7s  ", ms_text(tmin, r[i].halo));
        printf("%9.4f  %9.4f  %10.3f  0x%016" PRIx64 "\n", r[i].fom / 1e9, r[i].ns_per_update, r[i].efficiency,
               r[i].hash);
        if (r[i].implicit)
            printf("         implicit: %.1f CG iterations/step, %.4g G Jacobian products/s, %.4g simulated s per wall "
                   "s\n",
                   r[i].cg_per_step, r[i].jacobian_per_s / 1e9, r[i].sim_per_wall);
        int fewest = r[i].held ? r[i].held[0] : 0, most = fewest;
        for (int k = 1; r[i].held && k < r[i].ranks; k++) {
            fewest = r[i].held[k] < fewest ? r[i].held[k] : fewest;
            most = r[i].held[k] > most ? r[i].held[k] : most;
        }
        printf("         memory per rank: %.4g MiB resident after the timed steps, %.4g MiB at most (VmRSS, VmHWM; "
               "the largest rank's), holding %d to %d particles\n",
               r[i].rss / 1048576, r[i].peak_rss / 1048576, fewest, most);
        if (r[i].contact)
            printf(
                "         contact: broad %.4g ms, forces %.4g ms, safety net %.4g ms a step (of the median %.4g ms)\n",
                1e3 * r[i].contact_phase[0], 1e3 * r[i].contact_phase[1], 1e3 * r[i].contact_phase[2], 1e3 * r[i].tmed);
        fflush(stdout);
    }
    free(refs);
    rep->base_ranks = base >= 0 ? base_ranks : 0;
    rep->base_threads = base >= 0 ? 1 : 0;
    if (over_ranks && base >= 0 && base_ranks == 1)
        printf("efficiency = FOM / (ranks x threads x the FOM of ranks=1 threads=1)\n");
    else if (over_ranks && base >= 0)
        printf("efficiency = FOM / (ranks x threads x the FOM of ranks=%d threads=1 / %d)\n", base_ranks, base_ranks);
    else if (over_ranks)
        printf("efficiency: 0, no configuration of ranks=%d threads=1 to measure it against\n", base_ranks);
    int valid = 1, best = 0;
    for (int i = 0; i < nrows; i++) {
        const int hash_ok = r[i].hash == r[i].ref_hash, energy_ok = hk_bench_energy_ok(&r[i]);
        if (!hash_ok || !energy_ok || r[i].blew_up) valid = 0;
        char rk[32] = "";
        if (over_ranks) snprintf(rk, sizeof rk, "ranks=%d ", r[i].ranks);
        printf("verify %sthreads=%d: state_hash %s the %s hash 0x%016" PRIx64 "; energy %.6g J -> %.6g J (%s)%s%s\n",
               rk, r[i].threads, hash_ok ? "equals" : "DIFFERS FROM",
               r[i].gpu     ? "CPU's"
               : launch > 1 ? "1-process 1-thread"
                            : "1-thread",
               r[i].ref_hash, r[i].e_start, r[i].e_end, energy_ok ? "within bound" : "GREW PAST BOUND",
               r[i].blew_up ? "; BLEW UP: " : "", r[i].blew_up ? r[i].blowup : "");
        if (r[i].fom > r[best].fom) best = i;
    }
    printf(
        "energy bound: E_end <= E_start + 0.1 * (|E_start| + |KE_end| + |PE_end| + |SE_end|) + 1 mJ/kg * free mass\n");
    valid = hk_mpi_share_int(valid); /* over MPI ranks: rank 0 verified the gathered states */
    printf("%s\n", valid ? "VALID" : "INVALID");
    char rk[32] = ""; /* over MPI ranks: how many (threads= is per rank) */
    if (over_ranks) snprintf(rk, sizeof rk, " ranks=%d", r[best].ranks);
    printf("FOM %.6g spring_updates/s threads=%d%s ns_per_update=%.4f problem=\"%s\" scaling=%s kernels=%s "
           "device=\"%s\" %s\n",
           r[best].fom, r[best].threads, rk, r[best].ns_per_update, name, o->weak ? "weak" : "strong",
           rep->machine->kernels, r[best].device, valid ? "VALID" : "INVALID");
    fflush(stdout);
    rep->problem = name;
    rep->device = r[best].device;
    rep->steps = steps;
    rep->valid = valid;
    rep->fom = r[best].fom;
    int rc = EXIT_OK; /* over MPI ranks: rank 0 writes the files, and its status is every rank's */
    if (o->json && hk_mpi_rank() == 0) rc = write_output(o->json, hk_bench_write_json, rep);
    if (o->gbench && rc == EXIT_OK && hk_mpi_rank() == 0) rc = write_output(o->gbench, hk_bench_write_gbench, rep);
    rc = hk_mpi_share_int(rc);
    rep->problem = NULL; /* name goes out of scope */
    rep->device = NULL;
    if (rc != EXIT_OK) return rc;
    return valid ? EXIT_OK : EXIT_INVALID;
}

int hk_cmd_bench(int argc, char **argv)
{
    bench_opts o;
    int rc = parse(argc, argv, &o);
    if (rc == BENCH_HELP) return EXIT_OK;
    if (rc != EXIT_OK) return rc;

    int most = 1;
    for (int i = 0; i < o.ncounts; i++)
        if (o.counts[i] > most) most = o.counts[i];
    set_threads(most); /* report the placement the runs will use */
    hk_machine machine;
    hk_topology_read(&machine);
    hk_topology_write(stdout, "# ", &machine);
    hk_mpi_print_placement("# "); /* over MPI ranks: each rank's host, processors and threads */
    hk_bench_report rep = {
        .scene = o.scene,
        .builtin = o.scene ? NULL : o.builtin,
        .size = o.scene ? 0 : builtin_size(&o),
        .weak = o.weak,
        .warmup = o.warmup,
        .repeat = o.repeat,
        .machine = &machine,
        .ranks = hk_mpi_active() ? hk_mpi_launch_ranks() : 0,
    };
    const time_t now = time(NULL);
    struct tm utc;
    if (!gmtime_r(&now, &utc) || !strftime(rep.date, sizeof rep.date, "%Y-%m-%dT%H:%M:%SZ", &utc)) rep.date[0] = '\0';
    hk_build_context(rep.context);
    const int nrows = o.nranks * o.ncounts;
    hk_bench_row *r = calloc((size_t)nrows, sizeof *r);
    if (!r) {
        fprintf(stderr, "hooke: error: bench: out of memory\n");
        hk_topology_free(&machine);
        return EXIT_INPUT;
    }
    rep.rows = r;
    rc = bench(&o, &rep, r);
    for (int i = 0; i < nrows; i++) {
        free(r[i].times);
        free(r[i].cpu_times);
        free(r[i].held);
    }
    free(r);
    hk_topology_free(&machine);
    return rc;
}
