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
#include "checkpoint.h"
#include "fom.h"
#include "frames.h"
#include "hooke/hooke.h"
#include "plot.h"
#include "progress.h"
#include "stability.h"
#include "scene.h"
#include "state_io.h"
#include "topology.h"

/* Exit statuses (also in --help and the README). */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_BLOWUP = 2, EXIT_IO = 3 };

static const char usage[] =
    "usage: hooke run SCENE [options]\n"
    "       hooke bench [SCENE | --builtin cloth|jelly] [options]   (hooke bench --help)\n"
    "       hooke stability SCENE [--integrators all|LIST] [--dt-min A --dt-max B --points N]\n"
    "                       [--time T] [--threads N] [--out FILE.csv|FILE.json] [--plot FILE.png]\n"
    "                       (hooke stability --help)\n"
    "       hooke plot STATS.csv [--out FILE.png] [--width W --height H]   (hooke plot --help)\n"
    "       hooke info [--threads N]\n"
    "       hooke --help | --version\n"
    "\n"
    "Runs the mass-spring scene SCENE (format: docs/scene-format.md) and prints a\n"
    "one-line summary: particles= springs= steps= wall_s= spring_updates_per_s= state_hash=\n"
    "\n"
    "run options:\n"
    "  --steps N          run N steps (overrides the scene's run length)\n"
    "  --time SECONDS     run until this simulated time (ceil(SECONDS / dt) steps)\n"
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
    "  --restart FILE     continue bit-for-bit from a checkpoint of this scene\n"
    "  --stretch-limit R  blow-up when a spring passes R times its rest length\n"
    "                     (default: the scene's stretch_limit, else 10)\n"
    "  --quiet            no messages on stderr except errors (and no progress bar;\n"
    "                     the bar shows only when stdout and stderr are terminals)\n"
    "\n"
    "stability: runs SCENE for every integrator over a sweep of dt (no substeps)\n"
    "and prints the largest stable dt (bisection to 1 %%), omega_max * dt there,\n"
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
    "exit status: 0 success, 1 bad input (scene file or flags), 2 the simulation\n"
    "blew up (non-finite state or a spring past the scene's stretch_limit),\n"
    "3 an output file could not be written.\n";

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

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct run_opts {
    const char *scene;
    int64_t steps;
    double time, dt;
    int integrator; /* -1: scene's */
    int64_t threads, every;
    const char *stats, *state_out;
    int quiet;
    const char *checkpoint, *restart;
    int64_t checkpoint_every;
    const char *out_dir;
    int formats;
    double stretch_limit;
} run_opts;

static int parse_run(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->integrator = -1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--steps") == 0) {
            if (hk_arg_int64(v, 1, INT64_MAX, &o->steps)) return hk_arg_error(NULL, a, v, "a whole number >= 1");
            i++;
        } else if (strcmp(a, "--time") == 0) {
            if (hk_arg_positive(v, &o->time)) return hk_arg_error(NULL, a, v, "a number of seconds > 0");
            i++;
        } else if (strcmp(a, "--dt") == 0) {
            if (hk_arg_positive(v, &o->dt)) return hk_arg_error(NULL, a, v, "a step length in seconds > 0");
            i++;
        } else if (strcmp(a, "--integrator") == 0) {
            if (!v || (o->integrator = hk_integrator_from_name(v)) < 0) {
                char expected[256];
                snprintf(expected, sizeof expected, "one of %s", hk_integrator_names());
                return hk_arg_error(NULL, a, v, expected);
            }
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            if (hk_arg_int64(v, 1, INT64_MAX, &o->threads) || o->threads > 4096)
                return hk_arg_error(NULL, a, v, "a thread count 1..4096");
            i++;
        } else if (strcmp(a, "--every") == 0) {
            if (hk_arg_int64(v, 1, INT64_MAX, &o->every)) return hk_arg_error(NULL, a, v, "a whole number >= 1");
            i++;
        } else if (strcmp(a, "--stats") == 0 || strcmp(a, "--state-out") == 0) {
            if (!v || !*v) return hk_arg_error(NULL, a, v, "a file name");
            *(strcmp(a, "--stats") == 0 ? &o->stats : &o->state_out) = v;
            i++;
        } else if (strcmp(a, "--checkpoint") == 0 || strcmp(a, "--restart") == 0) {
            if (!v || !*v) return hk_arg_error(NULL, a, v, "a file name");
            *(strcmp(a, "--checkpoint") == 0 ? &o->checkpoint : &o->restart) = v;
            i++;
        } else if (strcmp(a, "--out") == 0) {
            if (!v || !*v) return hk_arg_error(NULL, a, v, "a folder name");
            o->out_dir = v;
            i++;
        } else if (strcmp(a, "--format") == 0) {
            if (!v || (o->formats = hk_frames_parse_formats(v)) < 0) {
                char expected[256];
                snprintf(expected, sizeof expected, "a comma-separated list of %s", hk_frames_format_names());
                return hk_arg_error(NULL, a, v, expected);
            }
            i++;
        } else if (strcmp(a, "--stretch-limit") == 0) {
            if (hk_arg_positive(v, &o->stretch_limit) || !(o->stretch_limit > 1))
                return hk_arg_error(NULL, a, v, "a ratio > 1");
            i++;
        } else if (strcmp(a, "--checkpoint-every") == 0) {
            if (hk_arg_int64(v, 1, INT64_MAX, &o->checkpoint_every))
                return hk_arg_error(NULL, a, v, "a whole number >= 1");
            i++;
        } else if (strcmp(a, "--quiet") == 0) {
            o->quiet = 1;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "hooke: error: unknown option '%s' (see hooke --help)\n", a);
            return EXIT_INPUT;
        } else if (!o->scene) {
            o->scene = a;
        } else {
            fprintf(stderr, "hooke: error: more than one scene given ('%s' and '%s')\n", o->scene, a);
            return EXIT_INPUT;
        }
    }
    if (!o->scene) {
        fprintf(stderr, "hooke: error: run needs a scene file (see hooke --help)\n");
        return EXIT_INPUT;
    }
    if (o->steps && o->time > 0) {
        fprintf(stderr, "hooke: error: give --steps or --time, not both\n");
        return EXIT_INPUT;
    }
    if (o->formats && !o->out_dir) {
        fprintf(stderr, "hooke: error: --format needs --out DIR\n");
        return EXIT_INPUT;
    }
    if (o->out_dir && !o->formats) o->formats = hk_frames_parse_formats(hk_frame_format_at(0)->name);
    if (!o->checkpoint != !o->checkpoint_every) {
        fprintf(stderr, "hooke: error: --checkpoint and --checkpoint-every go together\n");
        return EXIT_INPUT;
    }
    if (o->restart && (o->dt > 0 || o->integrator >= 0)) {
        fprintf(stderr, "hooke: error: --restart continues with the checkpoint's integrator and dt; "
                        "drop --dt and --integrator\n");
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* Pressure bodies add volume_<body>,pressure_<body> columns (volume by the
 * Gauss divergence formula, pressure of the last force evaluation); the
 * implicit integrators add cg_iterations,cg_residual (of the step the row
 * is written after: CG iterations of all its solves, the largest relative
 * residual they ended with). */
static int has_solver(const hk_world *w) { return hk_integrator_info_of(hk_world_integrator(w).kind)->implicit; }

static void write_stats_header(FILE *f, const hk_world *w)
{
    fprintf(f, "step,time,kinetic,gravity,spring,total,max_stretch,broken");
    for (int b = 0; b < hk_world_body_count(w); b++)
        if (hk_world_body_has_pressure(w, b)) fprintf(f, ",volume_%d,pressure_%d", b, b);
    if (has_solver(w)) fprintf(f, ",cg_iterations,cg_residual");
    fprintf(f, "\n");
}

static void write_stats_row(FILE *f, const hk_world *w)
{
    hk_stats s = hk_world_stats(w);
    fprintf(f, "%lld,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%lld", (long long)hk_world_step_count(w), hk_world_time(w),
            s.kinetic, s.gravity, s.spring, s.total, s.max_stretch, (long long)s.broken);
    for (int b = 0; b < hk_world_body_count(w); b++)
        if (hk_world_body_has_pressure(w, b))
            fprintf(f, ",%.9g,%.9g", hk_world_body_volume(w, b, HK_VOLUME_GAUSS), hk_world_body_pressure(w, b));
    if (has_solver(w)) {
        const hk_solver_stats st = hk_world_solver_stats(w);
        const int current = st.step + 1 == hk_world_step_count(w); /* the row's step took a solve */
        fprintf(f, ",%d,%.3e", current ? st.cg_iterations : 0, current ? st.cg_residual : 0.0);
    }
    fprintf(f, "\n");
}

static void report_blowup(const hk_world *w, const hk_blowup *b, const char *scene, double stretch_limit)
{
    fprintf(stderr, "hooke: error: %s: simulation blew up at step %lld (t = %.6g s): %s", scene,
            (long long)hk_world_step_count(w), hk_world_time(w), b->cause);
    if (b->particle >= 0) fprintf(stderr, " at particle %d of body %d (value %g)", b->particle, b->body, b->value);
    if (b->family >= 0) {
        hk_family_info f = hk_world_family(w, b->family);
        fprintf(stderr, " in spring %lld of family %s of body %d (r/L0 = %g, limit %g)", (long long)b->spring, f.name,
                b->body, b->value, stretch_limit);
    }
    fprintf(stderr, "\n");
    const hk_integrator_info *in = hk_integrator_info_of(hk_world_integrator(w).kind);
    if (in->implicit) {
        const hk_solver_stats st = hk_world_solver_stats(w);
        if (st.diverged)
            fprintf(stderr,
                    "hooke: hint: the linear solve of step %lld met a non-finite value or a matrix that is no longer "
                    "positive definite (the step was not taken): lower dt or set dt_max, and look for springs of zero "
                    "length or a mesh that has turned inside out\n",
                    (long long)st.step);
        else
            fprintf(stderr,
                    "hooke: hint: %s is stable at every dt on springs; a blow-up comes from the terms it takes "
                    "explicitly (ground, walls, spheres, pressure, wind) or from solves stopped at cg_max_iterations "
                    "(%lld so far): lower dt or set dt_max, raise cg_max_iterations or lower cg_tolerance\n",
                    in->name, (long long)st.unconverged);
        return;
    }
    const double omega = hk_omega_max(w), h = hk_world_integrator(w).dt / hk_world_substeps(w);
    char limit[64];
    if (in->stability_limit > 0)
        snprintf(limit, sizeof limit, "%.3g", in->stability_limit);
    else
        snprintf(limit, sizeof limit, "0 (it gains energy at every dt)");
    fprintf(stderr,
            "hooke: hint: omega*dt = %.3g (omega_max = %.4g rad/s from k and m, substep %.3g s); %s is stable only "
            "below omega*dt = %s: lower dt or set dt_max\n",
            omega * h, omega, h, in->name, limit);
}

static int cmd_run(int argc, char **argv)
{
    run_opts o;
    int rc = parse_run(argc, argv, &o);
    if (rc != EXIT_OK) return rc;

    /* prolog: scene, overrides, threads */
    hk_scene sc;
    char err[1024];
    if (hk_scene_load(o.scene, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return EXIT_INPUT;
    }
    hk_world *w = sc.world;
    hk_integrator_def idef = sc.integrator;
    if (o.dt > 0) idef.dt = o.dt;
    if (o.integrator >= 0) idef.kind = (hk_integrator_kind)o.integrator;
    if (hk_world_set_integrator(w, &idef) != 0 || hk_world_optimise(w, 0) != 0) {
        fprintf(stderr, "hooke: error: %s: %s\n", o.scene, hk_world_error(w));
        hk_scene_free(&sc);
        return EXIT_INPUT;
    }
#ifdef HOOKE_USE_OPENMP
    if (o.threads > 0)
        omp_set_num_threads((int)o.threads);
    else if (hk_world_threads(w) <= 0)
        omp_set_num_threads(hk_topology_cores());
    int threads = omp_get_max_threads();
    hk_topology_bind_threads();
#else
    int threads = 1;
    if (o.threads > 1 && !o.quiet) fprintf(stderr, "hooke: note: built without OpenMP; running on 1 thread\n");
#endif
    int64_t steps = o.steps;
    if (!steps && o.time > 0) steps = (int64_t)ceil(o.time / idef.dt * (1 - 1e-12));
    if (!steps && sc.steps > 0) steps = sc.steps;
    if (!steps && sc.time > 0) steps = (int64_t)ceil(sc.time / idef.dt * (1 - 1e-12));
    if (steps <= 0) {
        fprintf(stderr, "hooke: error: %s: no run length: give --steps or --time, or 'steps' in the run section\n",
                o.scene);
        hk_scene_free(&sc);
        return EXIT_INPUT;
    }
    uint64_t digest = 0;
    if ((o.checkpoint || o.restart) && hk_checkpoint_digest_file(o.scene, &digest) != 0) {
        fprintf(stderr, "hooke: error: %s: cannot read: %s\n", o.scene, strerror(errno));
        hk_scene_free(&sc);
        return EXIT_INPUT;
    }
    if (o.restart) {
        if (hk_checkpoint_read(w, digest, o.restart, err, sizeof err) != 0) {
            fprintf(stderr, "hooke: error: %s\n", err);
            hk_scene_free(&sc);
            return EXIT_INPUT;
        }
        idef = hk_world_integrator(w);
    }
    int64_t every = o.every ? o.every : (sc.every > 0 ? sc.every : 1);
    double stretch_limit = o.stretch_limit > 0 ? o.stretch_limit : sc.stretch_limit > 0 ? sc.stretch_limit : 10.0;
    hk_frames *frames = NULL;
    if (o.out_dir) {
        frames = hk_frames_open(o.out_dir, o.formats, err, sizeof err);
        if (!frames || hk_frames_write(frames, w, err, sizeof err) != 0) {
            fprintf(stderr, "hooke: error: %s\n", err);
            hk_frames_close(frames);
            hk_scene_free(&sc);
            return EXIT_IO;
        }
    }
    FILE *stats = NULL;
    if (o.stats) {
        stats = fopen(o.stats, "w");
        if (!stats) {
            fprintf(stderr, "hooke: error: cannot write %s: %s\n", o.stats, strerror(errno));
            hk_scene_free(&sc);
            return EXIT_IO;
        }
        write_stats_header(stats, w);
        write_stats_row(stats, w);
    }
    if (!o.quiet)
        fprintf(stderr, "hooke: %s: %d particles, %lld springs, %s, dt %g s x %d substeps, %lld steps, %d threads\n",
                o.scene, hk_world_particles(w).count, (long long)hk_world_spring_count(w),
                hk_integrator_name(idef.kind), idef.dt, hk_world_substeps(w), (long long)steps, threads);

    /* loop: step, check for blow-ups, write statistics */
    /* The blow-up check is a serial pass over every particle and spring,
     * about ten times a parallel SIMD step's cost per item. Its cadence
     * follows the problem size alone, so the report does not depend on the
     * machine: every step up to 4096 particles + springs, then every 2nd,
     * 4th, ... step up to every 256th (cloth_512: every 256th, about 2%).
     * It also runs before every frame written (so every frame is sound) and
     * after the last step. It only reads the state. */
    int64_t check_every = 1;
    for (int64_t items = hk_world_particles(w).count + hk_world_spring_count(w); items > 4096 && check_every < 256;
         items /= 2)
        check_every *= 2;
    const int64_t first = hk_world_step_count(w);
    int64_t last_frame = frames ? first : -1;
    hk_progress progress;
    hk_progress_begin(&progress, o.quiet, first, steps, hk_world_spring_updates(w));
    int blew_up = 0, io_failed = 0;
    hk_blowup b;
    double t0 = now_s();
    for (int64_t s = hk_world_step_count(w) + 1; s <= steps; s++) {
        hk_world_step(w);
        if (hk_world_error(w)[0]) {
            fprintf(stderr, "hooke: error: %s\n", hk_world_error(w));
            blew_up = 1;
            break;
        }
        const int frame_now = frames && (s % every == 0 || s == steps);
        if (s % check_every == 0 || s == steps || frame_now || hk_world_solver_stats(w).diverged) {
            if (hk_world_check(w, stretch_limit, &b)) {
                hk_progress_end(&progress);
                report_blowup(w, &b, o.scene, stretch_limit);
                if (frames && last_frame >= 0)
                    fprintf(stderr, "hooke: last good frame: %s/frame_%06lld (step %lld)\n", o.out_dir,
                            (long long)last_frame, (long long)last_frame);
                blew_up = 1;
                break;
            }
        }
        if (frame_now) {
            if (hk_frames_write(frames, w, err, sizeof err) != 0) {
                hk_progress_end(&progress);
                fprintf(stderr, "hooke: error: %s\n", err);
                io_failed = 1;
                break;
            }
            last_frame = s;
        }
        hk_progress_update(&progress, s, hk_world_time(w), hk_world_spring_updates(w));
        if (stats && (s % every == 0 || s == steps)) write_stats_row(stats, w);
        if (o.checkpoint && s % o.checkpoint_every == 0 &&
            hk_checkpoint_write(w, digest, o.checkpoint, err, sizeof err) != 0) {
            fprintf(stderr, "hooke: error: %s\n", err);
            io_failed = 1;
            break;
        }
    }
    double wall = now_s() - t0;
    hk_progress_end(&progress);
    hk_frames_close(frames);

    /* epilog: outputs and the summary line */
    rc = blew_up ? EXIT_BLOWUP : io_failed ? EXIT_IO : EXIT_OK;
    if (stats && fclose(stats) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", o.stats, strerror(errno));
        rc = rc ? rc : EXIT_IO;
    }
    if (o.state_out && !blew_up && hk_state_write_file(w, o.state_out) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", o.state_out, strerror(errno));
        rc = EXIT_IO;
    }
    double updates = (double)hk_world_spring_updates(w);
    char solver[160] = "";
    if (has_solver(w)) {
        const hk_solver_stats st = hk_world_solver_stats(w);
        const int64_t taken = hk_world_step_count(w) - first;
        snprintf(solver, sizeof solver, " cg_iterations=%lld cg_per_step=%.1f cg_unconverged=%lld",
                 (long long)st.cg_total, taken > 0 ? (double)st.cg_total / (double)taken : 0.0,
                 (long long)st.unconverged);
    }
    printf("hooke: scene=%s integrator=%s threads=%d particles=%d springs=%lld steps=%lld substeps=%d sim_time=%.6g "
           "wall_s=%.6f spring_updates_per_s=%.4e%s state_hash=0x%016" PRIx64 "%s\n",
           o.scene, hk_integrator_name(idef.kind), threads, hk_world_particles(w).count,
           (long long)hk_world_spring_count(w), (long long)hk_world_step_count(w), hk_world_substeps(w),
           hk_world_time(w), wall, wall > 0 ? updates / wall : 0.0, solver, hk_world_state_hash(w),
           blew_up ? " status=BLOWUP" : "");
    hk_scene_free(&sc);
    return rc;
}

static int cmd_info(int argc, char **argv)
{
    int64_t threads = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0) {
            const char *v = i + 1 < argc ? argv[i + 1] : NULL;
            if (hk_arg_int64(v, 1, INT64_MAX, &threads) || threads > 4096)
                return hk_arg_error(NULL, argv[i], v, "a thread count 1..4096");
            i++;
        } else {
            fprintf(stderr, "hooke: error: unknown option '%s' for info (see hooke --help)\n", argv[i]);
            return EXIT_INPUT;
        }
    }
#ifdef HOOKE_USE_OPENMP
    omp_set_num_threads(threads > 0 ? (int)threads : hk_topology_cores());
#endif
    hk_topology_bind_threads();
    hk_topology_print(stdout, "");
    return EXIT_OK;
}

/* The environment variables hooke reads: a value it cannot use is an error,
 * never a silent default. 0, or EXIT_INPUT with a message. */
static int check_environment(void)
{
    const char *k = getenv("HOOKE_KERNELS");
    if (k && *k && !hk_kernel_path_available(k)) {
        fprintf(stderr,
                "hooke: error: HOOKE_KERNELS=%s: expected reference, scalar, avx2 or avx512, one this CPU and build "
                "can run (hooke info lists them)\n",
                k);
        return EXIT_INPUT;
    }
    const char *m = getenv("HOOKE_LIST_PARALLEL_MIN");
    int64_t v;
    if (m && *m && hk_arg_int64(m, 0, INT64_MAX, &v) != 0) {
        fprintf(stderr, "hooke: error: HOOKE_LIST_PARALLEL_MIN=%s: expected a whole number of springs >= 0\n", m);
        return EXIT_INPUT;
    }
    return EXIT_OK;
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
    if (strcmp(cmd, "run") == 0) return cmd_run(argc, argv);
    if (strcmp(cmd, "info") == 0) return cmd_info(argc, argv);
    if (strcmp(cmd, "bench") == 0) return hk_cmd_bench(argc, argv);
    if (strcmp(cmd, "stability") == 0) return hk_cmd_stability(argc, argv);
    if (strcmp(cmd, "plot") == 0) return hk_cmd_plot(argc, argv);
    fprintf(stderr, "hooke: error: unknown command '%s' (see hooke --help)\n", cmd);
    return EXIT_INPUT;
}
