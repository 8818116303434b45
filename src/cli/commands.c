/* commands.c — the program's commands by name: hooke's own options, `hooke info`, and the dispatch to run, bench, ...
 */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "commands.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "args.h"
#include "devices.h"
#include "env.h"
#include "info_lists.h"
#include "fom.h"
#include "hooke/hooke.h"
#include "mpi_ranks.h"
#include "omp_env.h"
#include "options.h"
#include "plot_stats.h"
#include "run.h"
#include "stability.h"
#include "topology.h"

enum { EXIT_OK = HK_EXIT_OK, EXIT_INPUT = HK_EXIT_INPUT };

static const char usage[] =
    "usage: hooke run SCENE [options]                                  (hooke run --help)\n"
    "       hooke bench [SCENE | --builtin cloth|jelly] [options]       (hooke bench --help)\n"
    "       hooke stability SCENE [--integrators all|LIST] [--dt-min A --dt-max B --points N]\n"
    "                       [--time T] [--threads N] [--out FILE.csv|FILE.json] [--plot FILE.png|.svg|.pdf]\n"
    "                       [--quiet]   (hooke stability --help)\n"
    "       hooke plot STATS.csv [--out FILE.png|.svg|.pdf] [--columns LIST]\n"
    "                  [--width W --height H]   (hooke plot --help)\n"
    "       hooke info [--threads N] [--list WHAT]                      (hooke info --help)\n"
    "       hooke --help | --version\n"
    "\n"
    "Options take their value as --name VALUE or --name=VALUE, spelled out in full.\n"
    "\n";
static const char more[] =
    "Commands (hooke COMMAND --help lists a command's options):\n"
    "  run        runs the mass-spring scene SCENE (docs/scene-format.md) and prints a one-line summary;\n"
    "             frames, statistics, checkpoints and the final state on request\n"
    "  bench      the figure-of-merit mode: spring updates per second over thread (and rank) counts,\n"
    "             strong or weak scaling, on a scene or a built-in cloth or jelly\n"
    "  stability  runs SCENE for every integrator over a sweep of dt (no substeps) and prints the largest\n"
    "             stable dt, omega_max * dt there, the energy drift per simulated second and, for the\n"
    "             oscillator, the largest distance from the analytic solution\n"
    "  plot       draws a --stats CSV as a PNG, SVG or PDF: energy, max stretch, and volume and pressure\n"
    "             when present, in stacked panels against time\n"
    "  info       the machine (hwloc: packages, cores, caches, NUMA nodes), the SIMD path in use, and\n"
    "             where each OpenMP thread runs\n"
    "\n"
    "HOOKE_KERNELS=reference|scalar|avx2|avx512 forces a kernel path.\n"
    "\n"
    "exit status: 0 success, 1 bad input (scene file, flags, checkpoint), 2 the simulation blew up,\n"
    "3 an output file could not be written, 4 a restart at or past the run's end, 130 SIGINT,\n"
    "143 SIGTERM (hooke run --help says more).\n";

static void print_usage(FILE *f)
{
    fputs(usage, f);
    fputs(more, f);
}

/* hooke's own options, before the command */
enum { O_VERSION };
static const hk_option top_options[] = {
    {O_VERSION, "version", NULL, "print the version and the precision (float or double) and exit", NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command top_command = {NULL, top_options};

/* hooke info */
enum { O_INFO_THREADS, O_INFO_LIST };
static const hk_option info_options[] = {
    {O_INFO_THREADS, "threads", "N", "OpenMP threads to place and report (default: the number of cores)", NULL},
    {O_INFO_LIST, "list", "WHAT",
     "print a table of the program, one row a line, instead: integrators (NAME [ALIAS]), keys (SECTION KEY of "
     "the scene format), bodies (KIND [FAMILY...]), formats (NAME EXTENSION DESCRIPTION), world-fields (FIELD: "
     "RULE, the fields of hk_world_def the library checks)",
     NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command info_command = {"info", info_options};

static void info_help(FILE *f)
{
    fprintf(f, "usage: hooke info [--threads N] [--list WHAT]\n"
               "\n"
               "The machine (hwloc: packages, cores, caches, NUMA nodes), the SIMD path in\n"
               "use, and where each OpenMP thread runs. hooke binds one thread per core the\n"
               "process may use, spread evenly over them, unless OMP_PLACES or OMP_PROC_BIND\n"
               "is set (then OpenMP places them).\n"
               "HOOKE_KERNELS=reference|scalar|avx2|avx512 forces a kernel path.\n"
               "\n");
    hk_opt_print(f, &info_command);
}

static int cmd_info(int argc, char **argv)
{
    int64_t threads = 0;
    const char *list = NULL;
    hk_opt_parser p;
    hk_opt_begin(&p, &info_command, argc - 1, argv + 1);
    int rc = EXIT_OK, help = 0;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_HELP) {
            info_help(stdout);
            help = 1;
        } else if (id == HK_OPT_ERROR) {
            rc = EXIT_INPUT;
        } else if (id == HK_OPT_ARG) {
            fprintf(stderr, "hooke: error: info takes no arguments, got '%s' (see hooke info --help)\n", v);
            rc = EXIT_INPUT;
        } else if (id == O_INFO_THREADS) {
            if (hk_arg_int(NULL, p.flag, v, 1, 4096, "a thread count 1..4096", &threads)) rc = EXIT_INPUT;
        } else if (id == O_INFO_LIST) {
            list = v;
        }
        if (rc != EXIT_OK || help) break;
    }
    hk_opt_end(&p);
    if (rc != EXIT_OK || help) return rc;
    if (list) {
        if (hk_info_list(stdout, list) == 0) return EXIT_OK;
        return hk_arg_error(NULL, "--list", list, hk_info_lists);
    }
#ifdef HOOKE_USE_OPENMP
    int team;
    char err[256];
    if (hk_topology_threads((int)threads, 0, &team, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return EXIT_INPUT;
    }
    omp_set_num_threads(team);
#endif
    hk_topology_bind_threads();
    hk_topology_print(stdout, "");
    printf("gpus (hooke run --device gpu; HOOKE_DEVICE_DRIVER=NAME picks one driver):\n");
    hk_devices_print(stdout, "  ");
    printf("device drivers (HOOKE_DEVICE_DRIVER):\n");
    hk_device_drivers_help(stdout, "  ");
    return EXIT_OK;
}

/* The environment variables hooke reads (env.h): a value it cannot use is
 * an error, never a silent default. 0, or EXIT_INPUT with a message. */
static int check_environment(void)
{
    if (hk_omp_env_refused()) { /* taken out of the environment before the OpenMP runtime read it (omp_env.h) */
        fprintf(stderr, "hooke: error: OMP_NUM_THREADS=%s: expected " HK_OMP_THREADS_EXPECTED "\n",
                hk_omp_env_refused());
        return EXIT_INPUT;
    }
    char why[256];
    hk_world_def def;
    if (hk_env_world_def(&def, why, sizeof why) == 0) return EXIT_OK;
    fprintf(stderr, "hooke: error: %s\n", why);
    return EXIT_INPUT;
}

/* The commands, by name. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
} commands[] = {
    {"run", hk_cmd_run},   {"info", cmd_info}, {"bench", hk_cmd_bench}, {"stability", hk_cmd_stability},
    {"plot", hk_cmd_plot},
};

int hk_command_main(int argc, char **argv)
{
    if (check_environment() != EXIT_OK) return EXIT_INPUT;
    /* hooke's own options, up to the command */
    hk_opt_parser p;
    hk_opt_begin(&p, &top_command, argc, argv);
    const char *v, *cmd = NULL;
    int id = hk_opt_next(&p, &v);
    const int at = id == HK_OPT_ARG ? optind : 0; /* the command's place in argv */
    hk_opt_end(&p);
    if (id == HK_OPT_ERROR) return EXIT_INPUT;
    if (id == HK_OPT_HELP) {
        print_usage(stdout);
        return EXIT_OK;
    }
    if (id == O_VERSION) {
        printf("hooke %s (%s, %s, %s)\n", HOOKE_VERSION, sizeof(hk_real) == 8 ? "double" : "float",
#ifdef HOOKE_USE_OPENMP
               "OpenMP",
#else
               "no OpenMP",
#endif
#ifdef HOOKE_MPI
               "MPI"
#else
               "no MPI"
#endif
        );
        return EXIT_OK;
    }
    if (id == HK_OPT_END) { /* no command */
        print_usage(stderr);
        return EXIT_INPUT;
    }
    cmd = v;
    if (strcmp(cmd, "help") == 0) {
        print_usage(stdout);
        return EXIT_OK;
    }
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        if (strcmp(cmd, commands[c].name) != 0) continue;
        /* run and bench go over MPI ranks when an MPI launcher started hooke (mpi_ranks.h) */
        const int ranks = commands[c].run == hk_cmd_run || commands[c].run == hk_cmd_bench;
        if (ranks && hk_mpi_start() != 0) return EXIT_INPUT;
        const int rc = commands[c].run(argc - at + 1, argv + at - 1);
        hk_mpi_world_release();
        hk_mpi_stop();
        return rc;
    }
    fprintf(stderr, "hooke: error: unknown command '%s' (see hooke --help)\n", cmd);
    return EXIT_INPUT;
}
