/* bench_args.c — `hooke bench`'s usage text, options table and the parse of its command line, with its refusals. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "bench_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "devices.h"
#include "hooke/hooke.h"
#include "mpi_ranks.h"
#include "options.h"
#include "topology.h"

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
    "Each configuration also reports its run delay: how long its threads were\n"
    "runnable but kept off a core by the scheduler during the timed steps\n"
    "(schedstat), per step and as a share of their time; a share of 5% or more\n"
    "gets a note that other programs had the cores (it does not change VALID).\n"
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
    "every hash is checked against the launch's ranks on 1 thread each (no rank\n"
    "holds the whole problem); each rank's lifetime peak of resident memory\n"
    "(VmHWM, the reference runs included) is printed. --ranks LIST sweeps\n"
    "rank counts in the same launch: every (ranks, threads) pair of the two\n"
    "lists runs on the launch's first ranks (rank counts 1..R; the other ranks\n"
    "wait), and efficiency is FOM / (ranks x threads x the 1-rank 1-thread FOM).\n"
    "Without an MPI launcher the one rank count is 1.\n"
    "--device gpu runs the steps on a GPU (docs/user-guide.md, \"On a GPU\"; exit 1\n"
    "saying why where none runs the problem), auto where one does: the table\n"
    "and the FOM line name the device, every hash is checked against the CPU's\n"
    "1-thread hash, and the thread counts (the host's) default to 1.\n"
    "\n";

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

/* A comma-separated list of counts 1..4096 (what: "thread" or "rank") into out[0..*n); HK_BENCH_OK, or HK_BENCH_INPUT
 * with the message printed. */
static int count_list(const char *a, const char *v, const char *what, int *out, int *n)
{
    char expected[96];
    snprintf(expected, sizeof expected, "a comma-separated list of %s counts 1..4096 (at most %d)", what,
             HK_BENCH_MAX_COUNTS);
    if (!v) return hk_arg_error("bench", a, v, expected);
    char *copy = strdup(v), *save = NULL;
    if (!copy) return HK_BENCH_INPUT;
    *n = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int64_t x;
        if (*n == HK_BENCH_MAX_COUNTS || hk_arg_int64(tok, 1, 4096, &x)) {
            free(copy);
            return hk_arg_error("bench", a, v, expected);
        }
        out[(*n)++] = (int)x;
    }
    free(copy);
    return *n == 0 ? hk_arg_error("bench", a, v, expected) : HK_BENCH_OK;
}

/* The value of option id (flag: "--NAME") into o; HK_BENCH_OK, or HK_BENCH_INPUT with the message printed. */
static int bench_option(hk_bench_opts *o, int id, const char *a, const char *v)
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
    case O_DEVICE: return hk_arg_device("bench", a, v, &o->device) ? HK_BENCH_INPUT : HK_BENCH_OK;
    case O_SIZE:
        if (hk_arg_int("bench", a, v, 4, 8192, "a problem edge 4..8192 (nodes)", &n)) return HK_BENCH_INPUT;
        o->size = (int)n;
        break;
    case O_SWEEP: o->ncounts = 0; break;
    case O_STRONG: o->weak = 0; break;
    case O_WEAK: o->weak = 1; break;
    case O_REPEAT:
        if (hk_arg_int("bench", a, v, 1, 1000, "a repetition count 1..1000", &n)) return HK_BENCH_INPUT;
        o->repeat = (int)n;
        break;
    case O_WARMUP:
        if (hk_arg_int("bench", a, v, 1, 100000, "a step count 1..100000", &n)) return HK_BENCH_INPUT;
        o->warmup = (int)n;
        break;
    case O_STEPS:
        if (hk_arg_int("bench", a, v, 1, 100000000, "a step count 1..100000000", &n)) return HK_BENCH_INPUT;
        o->steps = n;
        break;
    case O_JSON:
    case O_GBENCH:
        if (!v || !*v) return hk_arg_error("bench", a, v, "a file name");
        *(id == O_JSON ? &o->json : &o->gbench) = v;
        break;
    }
    return HK_BENCH_OK;
}

/* --ranks asked for R ranks, more than the launch has: the message (on every rank: rank 0's error, the others
 * saying they stop); HK_BENCH_INPUT. */
static int too_many_ranks(int R, int launch)
{
    if (hk_mpi_active()) {
        fprintf(stderr,
                "hooke: error: bench: --ranks: %d ranks asked for, but this launch has %d processes (mpirun -np %d): "
                "each rank count must be 1..%d\n",
                R, launch, launch, launch);
        if (hk_mpi_rank() != 0) hk_mpi_note("stopping: --ranks asks for %d ranks, this launch has %d", R, launch);
        return HK_BENCH_INPUT;
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
    return HK_BENCH_INPUT;
}

int hk_bench_parse(int argc, char **argv, hk_bench_opts *o)
{
    memset(o, 0, sizeof *o);
    o->repeat = 5;
    o->warmup = 2;
    hk_opt_parser p;
    hk_opt_begin(&p, &bench_command, argc - 1, argv + 1);
    int rc = HK_BENCH_OK;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_ERROR) {
            rc = HK_BENCH_INPUT;
        } else if (id == HK_OPT_HELP) {
            fputs(hk_bench_usage, stdout);
            hk_opt_print(stdout, &bench_command);
            rc = HK_BENCH_HELP;
        } else if (id == HK_OPT_ARG && o->scene) {
            fprintf(stderr, "hooke: error: bench: more than one scene given ('%s' and '%s')\n", o->scene, v);
            rc = HK_BENCH_INPUT;
        } else if (id == HK_OPT_ARG) {
            o->scene = v;
        } else {
            rc = bench_option(o, id, p.flag, v);
        }
        if (rc != HK_BENCH_OK) break;
    }
    hk_opt_end(&p);
    if (rc != HK_BENCH_OK) return rc;
    if (o->scene && o->builtin) {
        fprintf(stderr, "hooke: error: bench: give a scene or --builtin, not both\n");
        return HK_BENCH_INPUT;
    }
    if (!o->scene && !o->builtin) o->builtin = "cloth";
    if (o->weak && o->scene) {
        fprintf(stderr, "hooke: error: bench: --weak needs a --builtin problem (a scene file has one fixed size)\n");
        return HK_BENCH_INPUT;
    }
    if (o->size && o->scene) {
        fprintf(stderr, "hooke: error: bench: --size sets a --builtin problem's size (a scene file has its own)\n");
        return HK_BENCH_INPUT;
    }
    if (o->ncounts == 0 && o->device != HK_DEVICE_CPU) o->counts[o->ncounts++] = 1; /* the host's threads */
    if (o->ncounts == 0) {
        int cores = hk_topology_cores();
        if (cores > HK_BENCH_MAX_COUNTS) cores = HK_BENCH_MAX_COUNTS;
        for (int t = 1; t <= cores; t++) o->counts[o->ncounts++] = t;
    }
    const int launch = hk_mpi_launch_ranks(); /* every rank checks the same list: all stop, none waits */
    if (o->nranks == 0) o->rank_counts[o->nranks++] = launch;
    for (int i = 0; i < o->nranks; i++)
        if (o->rank_counts[i] > launch) return too_many_ranks(o->rank_counts[i], launch);
    return HK_BENCH_OK;
}
