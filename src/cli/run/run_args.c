/* run_args.c — `hooke run`'s command line: its options, their checks and the help text. */
/* SPDX-License-Identifier: MIT */
#include "run_args.h"

#include <stdio.h>
#include <string.h>

#include "args.h"
#include "devices.h"
#include "diagnosis.h"
#include "frames.h"
#include "hooke/hooke.h"
#include "options.h"
#include "run_exit.h"

/* The options of `hooke run`: the parser and the help text read this table. */
enum {
    O_STEPS,
    O_TIME,
    O_DT,
    O_INTEGRATOR,
    O_THREADS,
    O_STATS,
    O_EVERY,
    O_STATE_OUT,
    O_OUT,
    O_FORMAT,
    O_CAMERA,
    O_CHECKPOINT,
    O_CHECKPOINT_EVERY,
    O_CHECKPOINT_ON_EXIT,
    O_RESTART,
    O_STRETCH_LIMIT,
    O_QUIET,
    O_DEVICE,
};
/* A number macro's digits as text, for the help text (HK_SPRINGS_PER_THREAD: "15000"). */
#define HK_TEXT_(x) #x
#define HK_TEXT(x) HK_TEXT_(x)
static const hk_option run_options[] = {
    {O_STEPS, "steps", "N",
     "the run ends at step N (overrides the scene's run length;\n"
     "after --restart too: the end, not a number of steps to add)",
     NULL},
    {O_TIME, "time", "SECONDS", "the run ends at this simulated time (step ceil(SECONDS / dt))", NULL},
    {O_DT, "dt", "DT", "step length in seconds (overrides the scene)", NULL},
    {O_INTEGRATOR, "integrator", "NAME", "one of: %s", hk_integrator_names},
    {O_THREADS, "threads", "N",
     "OpenMP threads (default: OMP_NUM_THREADS, else the scene's,\n"
     "else the number of cores, at most one per " HK_TEXT(HK_SPRINGS_PER_THREAD) " springs);\n"
                                                                                 "results are bit-identical for any N",
     NULL},
    {O_STATS, "stats", "FILE",
     "CSV per output step: step,time,kinetic,gravity,spring,\n"
     "total,max_stretch,broken (energies in J), then\n"
     "volume_B,pressure_B for each pressure body B,\n"
     "cg_iterations,cg_residual (implicit integrators) and\n"
     "contacts,min_gap,crossings (scenes with colliders)",
     NULL},
    {O_EVERY, "every", "N",
     "write statistics and frames every N steps (default: the\n"
     "scene's, else about 100 in the run: ceil(steps / 100))",
     NULL},
    {O_STATE_OUT, "state-out", "FILE", "final particle state (docs/state-format.md)", NULL},
    {O_OUT, "out", "DIR", "write frames into DIR (created, with its missing parents)", NULL},
    {O_FORMAT, "format", "LIST", "frame formats, comma-separated (below); default: vtk", NULL},
    {O_CAMERA, "camera", "VIEW",
     "PNG frames' camera: run (default; one box a run, where bodies\n"
     "can go), follow (each frame's bodies) or a box X0,Y0,Z0,X1,Y1,Z1 [m]",
     NULL},
    {O_CHECKPOINT, "checkpoint", "FILE",
     "the checkpoint, written every --checkpoint-every N steps and/or\n"
     "at the end (--checkpoint-on-exit); atomic, versioned and\n"
     "checksummed (docs/checkpoint-format.md)",
     NULL},
    {O_CHECKPOINT_EVERY, "checkpoint-every", "N", "the steps between checkpoints (with --checkpoint FILE)", NULL},
    {O_CHECKPOINT_ON_EXIT, "checkpoint-on-exit", NULL,
     "also write the checkpoint FILE when the run ends, at its\n"
     "end or stopped by SIGINT or SIGTERM",
     NULL},
    {O_RESTART, "restart", "FILE",
     "continue bit-for-bit from a checkpoint of this scene (and\n"
     "of the mesh files it loads); --stats and --out continue\n"
     "the files of the run before (rows and frames before the\n"
     "checkpoint's step kept, later ones replaced): they end as\n"
     "an uninterrupted run's",
     NULL},
    {O_STRETCH_LIMIT, "stretch-limit", "R",
     "blow-up when a spring passes R times its rest length\n"
     "(default: the scene's stretch_limit, else 10)",
     NULL},
    {O_DEVICE, "device", "WHERE",
     "cpu (default), gpu (the same bits on a GPU; exit 1 saying\n"
     "why where none runs the scene) or auto (a GPU where one runs\n"
     "it, else the CPU; says which): docs/user-guide.md, \"On a GPU\"",
     NULL},
    {O_QUIET, "quiet", NULL,
     "no messages on stderr except errors (and no progress bar;\n"
     "the bar shows only when stdout and stderr are terminals)",
     NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command run_command = {"run", run_options};

void hk_run_help(FILE *f, int synopsis)
{
    if (synopsis) fprintf(f, "usage: hooke run SCENE [options]\n\n");
    fprintf(f, "Runs the mass-spring scene SCENE (format: docs/scene-format.md) and prints a\n"
               "one-line summary: particles= springs= steps= wall_s= output_s= spring_updates_per_s= state_hash=\n"
               "\n"
               "run options:\n");
    hk_opt_print(f, &run_command);
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
    fprintf(f, "\n"
               "The implicit ones are stable at every dt on linear springs only: where springs\n"
               "turn and stretch within a step (a cloth that falls or swings) at large omega*dt,\n"
               "implicit_euler linearised (newton_iterations N) can overshoot, trapezoidal can\n"
               "gain energy, and bdf2 can too, less; implicit_euler minimised (its default)\n"
               "cannot, and damps: docs/user-guide.md, \"Explicit or implicit\".\n"
               "xpbd, vbd and projective_dynamics iterate toward backward Euler's step\n"
               "(the scene key iterations); too few iterations leave stiff springs stretched\n"
               "or a swing wrong: docs/user-guide.md, \"Choosing a solver\".\n"
               "\n"
               "HOOKE_KERNELS=reference|scalar|avx2|avx512 forces a kernel path;\n"
               "HOOKE_DEVICE_DRIVER=NAME the device's driver (--device gpu; unset: the first\n"
               "GPU driver that finds a GPU):\n");
    hk_device_drivers_help(f, "  ");
    fprintf(f, "\n"
               "SIGINT or SIGTERM stops a run after the step in hand: every output is closed\n"
               "whole (files are written as NAME.tmp, then renamed), the summary line says\n"
               "interrupted=1, and the exit status is 130 or 143.\n"
               "\n"
               "exit status: 0 success, 1 bad input (scene file, flags, checkpoint),\n"
               "2 the simulation blew up (non-finite state, a spring past the scene's\n"
               "stretch_limit, or the energy of a world with no energy source run away),\n"
               "3 an output file could not be written, 4 a restart at or past the run's end\n"
               "(nothing to run), 130 SIGINT, 143 SIGTERM.\n");
}

/* The value of option id (flag: "--NAME") into o; 0, or HK_EXIT_INPUT with the message printed. */
static int run_option(run_opts *o, int id, const char *a, const char *v)
{
    switch (id) {
    case O_QUIET: o->quiet = 1; break;
    case O_CHECKPOINT_ON_EXIT: o->checkpoint_on_exit = 1; break;
    case O_STEPS:
        if (hk_arg_int(NULL, a, v, 1, INT64_MAX, "a whole number >= 1", &o->steps)) return HK_EXIT_INPUT;
        break;
    case O_TIME:
        if (hk_arg_above(NULL, a, v, 0, "a number of seconds > 0", &o->time)) return HK_EXIT_INPUT;
        break;
    case O_DT:
        if (hk_arg_above(NULL, a, v, 0, "a step length in seconds > 0", &o->dt)) return HK_EXIT_INPUT;
        break;
    case O_INTEGRATOR:
        if (!v || (o->integrator = hk_integrator_from_name(v)) < 0) {
            char expected[256];
            snprintf(expected, sizeof expected, "one of %s", hk_integrator_names());
            return hk_arg_error(NULL, a, v, expected);
        }
        break;
    case O_THREADS:
        if (hk_arg_int(NULL, a, v, 1, 4096, "a thread count 1..4096", &o->threads)) return HK_EXIT_INPUT;
        break;
    case O_EVERY:
        if (hk_arg_int(NULL, a, v, 1, INT64_MAX, "a whole number >= 1", &o->every)) return HK_EXIT_INPUT;
        break;
    case O_STATS:
    case O_STATE_OUT:
    case O_CHECKPOINT:
    case O_RESTART:
        if (!v || !*v) return hk_arg_error(NULL, a, v, "a file name");
        *(id == O_STATS        ? &o->stats
          : id == O_STATE_OUT  ? &o->state_out
          : id == O_CHECKPOINT ? &o->checkpoint
                               : &o->restart) = v;
        break;
    case O_OUT:
        if (!v || !*v) return hk_arg_error(NULL, a, v, "a folder name");
        o->out_dir = v;
        break;
    case O_FORMAT:
        if (!v || (o->formats = hk_frames_parse_formats(v)) < 0) {
            char expected[256];
            snprintf(expected, sizeof expected, "a comma-separated list of %s", hk_frames_format_names());
            return hk_arg_error(NULL, a, v, expected);
        }
        break;
    case O_CAMERA: {
        char why[160];
        if (hk_camera_parse(v, &o->camera, why, sizeof why) != 0)
            return hk_arg_refused(NULL, a, v, HK_CAMERA_SYNTAX, why);
        o->camera_given = 1;
        break;
    }
    case O_STRETCH_LIMIT:
        if (hk_arg_above(NULL, a, v, 1, "a ratio > 1", &o->stretch_limit)) return HK_EXIT_INPUT;
        break;
    case O_DEVICE: return hk_arg_device(NULL, a, v, &o->device) ? HK_EXIT_INPUT : HK_EXIT_OK;
    case O_CHECKPOINT_EVERY:
        if (hk_arg_int(NULL, a, v, 1, INT64_MAX, "a whole number >= 1", &o->checkpoint_every)) return HK_EXIT_INPUT;
        break;
    }
    return HK_EXIT_OK;
}

int hk_run_parse(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->integrator = -1;
    hk_opt_parser p;
    hk_opt_begin(&p, &run_command, argc - 1, argv + 1);
    int rc = HK_EXIT_OK;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_ERROR) {
            rc = HK_EXIT_INPUT;
        } else if (id == HK_OPT_HELP) {
            hk_run_help(stdout, 1);
            rc = HK_RUN_HELP;
        } else if (id == HK_OPT_ARG && o->scene) {
            fprintf(stderr, "hooke: error: more than one scene given ('%s' and '%s')\n", o->scene, v);
            rc = HK_EXIT_INPUT;
        } else if (id == HK_OPT_ARG) {
            o->scene = v;
        } else {
            rc = run_option(o, id, p.flag, v);
        }
        if (rc != HK_EXIT_OK) break;
    }
    hk_opt_end(&p);
    if (rc != HK_EXIT_OK) return rc;
    if (!o->scene) {
        fprintf(stderr, "hooke: error: run needs a scene file (see hooke --help)\n");
        return HK_EXIT_INPUT;
    }
    if (o->steps && o->time > 0) {
        fprintf(stderr, "hooke: error: give --steps or --time, not both\n");
        return HK_EXIT_INPUT;
    }
    if (o->formats && !o->out_dir) {
        fprintf(stderr, "hooke: error: --format needs --out DIR\n");
        return HK_EXIT_INPUT;
    }
    if (o->out_dir && !o->formats) o->formats = hk_frames_parse_formats(hk_frame_format_at(0)->name);
    if (o->camera_given && !(o->formats & hk_frames_parse_formats("png")))
        return fprintf(stderr, "hooke: error: --camera needs --format png (with --out DIR)\n"), HK_EXIT_INPUT;
    if (o->checkpoint_every && !o->checkpoint) {
        fprintf(stderr, "hooke: error: --checkpoint-every needs --checkpoint FILE\n");
        return HK_EXIT_INPUT;
    }
    if (o->checkpoint && !o->checkpoint_every && !o->checkpoint_on_exit) {
        fprintf(stderr, "hooke: error: --checkpoint FILE needs --checkpoint-every N or --checkpoint-on-exit\n");
        return HK_EXIT_INPUT;
    }
    if (o->checkpoint_on_exit && !o->checkpoint) {
        fprintf(stderr, "hooke: error: --checkpoint-on-exit needs --checkpoint FILE\n");
        return HK_EXIT_INPUT;
    }
    if (o->restart && (o->dt > 0 || o->integrator >= 0)) {
        fprintf(stderr, "hooke: error: --restart continues with the checkpoint's integrator and dt; "
                        "drop --dt and --integrator\n");
        return HK_EXIT_INPUT;
    }
    return HK_EXIT_OK;
}
