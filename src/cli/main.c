/* main.c — the hooke command-line program: parses flags, runs a scene, reports. */
#define _POSIX_C_SOURCE 200809L
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

#include "args.h"
#include "fom.h"
#include "diagnosis.h"
#include "frames.h"
#include "hooke/hooke.h"
#include "plot.h"
#include "run.h"
#include "stability.h"
#include "scene.h"
#include "topology.h"

enum { EXIT_OK = HK_EXIT_OK, EXIT_INPUT = HK_EXIT_INPUT };

static const char usage[] =
    "usage: hooke run SCENE [options]\n"
    "       hooke bench [SCENE | --builtin cloth|jelly] [options]   (hooke bench --help)\n"
    "       hooke stability SCENE [--integrators all|LIST] [--dt-min A --dt-max B --points N]\n"
    "                       [--time T] [--threads N] [--out FILE.csv|FILE.json] [--plot FILE.png] [--quiet]\n"
    "                       (hooke stability --help)\n"
    "       hooke plot STATS.csv [--out FILE.png] [--width W --height H]   (hooke plot --help)\n"
    "       hooke info [--threads N]\n"
    "       hooke --help | --version\n"
    "\n"
    "Runs the mass-spring scene SCENE (format: docs/scene-format.md) and prints a\n"
    "one-line summary: particles= springs= steps= wall_s= spring_updates_per_s= state_hash=\n"
    "\n"
    "run options:\n"
    "  --steps N          the run ends at step N (overrides the scene's run length;\n"
    "                     after --restart too: the end, not a number of steps to add)\n"
    "  --time SECONDS     the run ends at this simulated time (step ceil(SECONDS / dt))\n"
    "  --dt DT            step length in seconds (overrides the scene)\n"
    "  --integrator NAME  one of: %s\n"
    "  --threads N        OpenMP threads (default: the scene's, else the number of\n"
    "                     cores); results are bit-identical for any N\n"
    "  --stats FILE       CSV per output step: step,time,kinetic,gravity,spring,\n"
    "                     total,max_stretch,broken (energies in J), then\n"
    "                     volume_B,pressure_B for each pressure body B\n"
    "  --every N          write statistics and frames every N steps (default: the\n"
    "                     scene's, else 1)\n"
    "  --state-out FILE   final particle state (docs/state-format.md)\n"
    "  --out DIR          write frames into DIR (created if missing)\n"
    "  --format LIST      frame formats, comma-separated (below); default: the first\n"
    "  --checkpoint FILE --checkpoint-every N\n"
    "                     write a checkpoint every N steps (atomic; versioned and\n"
    "                     checksummed, docs/checkpoint-format.md)\n"
    "  --checkpoint-on-exit\n"
    "                     also write the checkpoint FILE when the run ends, at its\n"
    "                     end or stopped by SIGINT or SIGTERM\n"
    "  --restart FILE     continue bit-for-bit from a checkpoint of this scene (and\n"
    "                     of the mesh files it loads); --stats and --out continue\n"
    "                     the files of the run before (rows and frames up to the\n"
    "                     checkpoint kept, later ones replaced)\n"
    "  --stretch-limit R  blow-up when a spring passes R times its rest length\n"
    "                     (default: the scene's stretch_limit, else 10)\n"
    "  --quiet            no messages on stderr except errors (and no progress bar;\n"
    "                     the bar shows only when stdout and stderr are terminals)\n"
    "\n"
    "stability: runs SCENE for every integrator over a sweep of dt (no substeps)\n"
    "and prints the largest stable dt (bisection to 0.5 %%), omega_max * dt there,\n"
    "the relative energy drift per simulated second at each dt and, for the\n"
    "oscillator, the largest distance from the analytic solution.\n"
    "\n"
    "plot: draws a --stats CSV as a PNG: energy, max stretch, and volume and\n"
    "pressure when present, in stacked panels against time.\n"
    "\n"
    "info: the machine (hwloc: packages, cores, caches, NUMA nodes), the SIMD\n"
    "path in use, and where each OpenMP thread runs. Thread i is bound to core i\n"
    "unless OMP_PLACES or OMP_PROC_BIND is set (then OpenMP places them).\n"
    "HOOKE_KERNELS=reference|scalar|avx2|avx512 forces a kernel path.\n"
    "\n"
    "SIGINT or SIGTERM stops a run after the step in hand: every output is closed\n"
    "whole (files are written as NAME.tmp, then renamed), the summary line says\n"
    "interrupted=1, and the exit status is 130 or 143.\n"
    "\n"
    "exit status: 0 success, 1 bad input (scene file, flags, checkpoint),\n"
    "2 the simulation blew up (non-finite state, a spring past the scene's\n"
    "stretch_limit, or the energy of a world with no energy source run away),\n"
    "3 an output file could not be written, 4 a restart at or past the run's end\n"
    "(nothing to run), 130 SIGINT, 143 SIGTERM.\n";

static void print_usage(FILE *f)
{
    fprintf(f, usage, hk_integrator_names());
    fprintf(f, "\nframe formats (--format):\n");
    for (int i = 0; hk_frame_format_at(i); i++)
        fprintf(f, "  %-20s %s\n", hk_frame_format_at(i)->name, hk_frame_format_at(i)->description);
    fprintf(f, "\nintegrators (largest stable omega*dt on the undamped oscillator, force evaluations per substep):\n");
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        char limit[16];
        fprintf(f, "  %-20s %-5s %d  %s\n", in->name, hk_stability_limit_text(in, limit, sizeof limit),
                in->force_evaluations, in->description);
    }
}

static int cmd_info(int argc, char **argv)
{
    int64_t threads = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0) {
            const char *v = i + 1 < argc ? argv[i + 1] : NULL;
            if (hk_arg_int(NULL, argv[i], v, 1, 4096, "a thread count 1..4096", &threads)) return EXIT_INPUT;
            i++;
        } else {
            fprintf(stderr, "hooke: error: unknown option '%s' for info (see hooke --help)\n", argv[i]);
            return EXIT_INPUT;
        }
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
    return EXIT_OK;
}

/* The environment variables hooke reads: a value it cannot use is an error,
 * never a silent default. 0, or EXIT_INPUT with a message. */
static int check_environment(void)
{
    char why[256];
    if (hk_check_environment(why, sizeof why) == 0) return EXIT_OK;
    fprintf(stderr, "hooke: error: %s\n", why);
    return EXIT_INPUT;
}

int main(int argc, char **argv)
{
    if (check_environment() != EXIT_OK) return EXIT_INPUT;
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_INPUT;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("hooke %s (%s, %s)\n", HOOKE_VERSION, sizeof(hk_real) == 8 ? "double" : "float",
#ifdef HOOKE_USE_OPENMP
               "OpenMP"
#else
               "no OpenMP"
#endif
        );
        return EXIT_OK;
    }
    if (strcmp(cmd, "run") == 0) return hk_cmd_run(argc, argv);
    if (strcmp(cmd, "info") == 0) return cmd_info(argc, argv);
    if (strcmp(cmd, "bench") == 0) return hk_cmd_bench(argc, argv);
    if (strcmp(cmd, "stability") == 0) return hk_cmd_stability(argc, argv);
    if (strcmp(cmd, "plot") == 0) return hk_cmd_plot(argc, argv);
    fprintf(stderr, "hooke: error: unknown command '%s' (see hooke --help)\n", cmd);
    return EXIT_INPUT;
}
