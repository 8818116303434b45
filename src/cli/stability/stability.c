/* stability.c — the stability profiler: every integrator over a sweep of dt on one scene. */
/* SPDX-License-Identifier: MIT */
#include "stability.h"

#include "analytic.h"
#include "args.h"
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "diagnosis.h"
#include "env.h"
#include "outfile.h"
#include "plot.h"
#include "progress.h"
#include "reference.h"
#include "scene.h"
#include "stability_plot.h"
#include "stability_report.h"
#include "springs.h"
#include "topology.h"
#include "world.h"

/* ---- the profiler -------------------------------------------------------- */

typedef struct trial {
    int stable;
    int64_t steps;      /* steps run (fewer than planned once unstable) */
    double drift;       /* relative energy change per simulated second [1/s] */
    double error;       /* largest distance from the analytic answer [m], NAN without one */
    double ref_error;   /* largest RMS distance from the reference at its checks [m], NAN without one */
    double max_stretch; /* largest r / L0 over the first `time` seconds [1] */
    double cpu;         /* the thread's CPU time in hk_world_step per simulated second [s/s] */
    double cg;          /* CG iterations per step [1] */
} trial;

/* The energy scale the blow-up test and the drift are measured against. */
static double energy_scale(const hk_stats *s)
{
    const double scale = fmax(fabs(s->total), s->kinetic + s->spring + fabs(s->gravity));
    return scale > 0 ? scale : 1;
}

/* Steps of a run at dt: `time` seconds, at least 2000 steps. */
static int64_t planned_steps(double time, double dt)
{
    const int64_t steps = (int64_t)ceil(time / dt);
    return steps < 2000 ? 2000 : steps;
}

/* Runs SCENE with integrator kind and step dt (no substeps) for `time` s (at least 2000 steps);
 * the run counts as unstable once |E - E0| > HK_ENERGY_GROWTH (100) * (|E0| or the largest energy term at the start).
 * The drift is the relative energy change per second over the first `time` seconds, so that runs
 * at every dt are measured over the same stretch of simulated time; so are the largest stretch and the distance
 * from the reference (ref, where ri >= 0 is dt's index in the sweep: compared at hk_reference_checks). The cost is
 * the CPU time of this thread in the steps alone, not in these measures. */
/* The scene's integrator settings for a run of kind at dt, no substeps, with `iterations` sweeps where kind sweeps
 * (0: its default); the settings kind does not take (the sweeps, a fixed Newton count) dropped. */
static hk_integrator_def trial_def(const hk_integrator_def *scene_def, int kind, int iterations, double dt)
{
    hk_integrator_def def = *scene_def;
    const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)kind);
    def.kind = (hk_integrator_kind)kind;
    def.dt = dt;
    def.dt_max = 0;
    def.iterations = in->iterated ? iterations : 0;
    if (!in->linearised) def.newton_iterations = 0;
    return def;
}

static int run_trial(const char *scene, const hk_stability_profile *P, double dt, double time, const hk_reference *ref,
                     int ri, trial *out, char *err, size_t errlen)
{
    hk_scene sc;
    hk_world_def base; /* the environment's tuning */
    if (hk_env_world_def(&base, err, errlen) != 0 || hk_scene_load_on(scene, &base, &sc, err, errlen) != 0) return -1;
    hk_world *w = sc.world;
    const hk_integrator_def def = trial_def(&sc.integrator, P->kind, P->iterations, dt);
    if (hk_world_set_integrator(w, &def) != 0) {
        snprintf(err, errlen, "%s: %s", scene, hk_world_error(w));
        hk_scene_free(&sc);
        return -1;
    }
    const hk_analytic o = hk_analytic_find(w);
    hk_stats st = hk_world_stats(w);
    const double e0 = st.total, scale = energy_scale(&st);
    const int64_t steps = planned_steps(time, dt);
    out->stable = 1;
    out->steps = steps;
    out->error = o.kind ? 0 : NAN;
    out->ref_error = ref && ref->ok && ri >= 0 ? 0 : NAN;
    out->max_stretch = st.max_stretch;
    int64_t checks[HK_REF_CHECKS];
    hk_reference_checks(dt, time, checks);
    int q = 0;
    hk_blowup b;
    const int64_t window = (int64_t)ceil(time / dt); /* the drift is measured over the first `time` seconds */
    double e_window = e0, t_window = 0, cpu = 0;
    for (int64_t s = 1; s <= steps; s++) {
        const double c0 = hk_thread_cpu_s();
        hk_world_step(w);
        cpu += hk_thread_cpu_s() - c0;
        st = hk_world_stats(w);
        if (s <= window) out->max_stretch = fmax(out->max_stretch, st.max_stretch);
        if (s == window) {
            e_window = st.total;
            t_window = hk_world_time(w);
        }
        for (; q < HK_REF_CHECKS && checks[q] == s; q++)
            if (!isnan(out->ref_error))
                out->ref_error = fmax(out->ref_error, hk_reference_error(ref, ri * HK_REF_CHECKS + q, w));
        if (o.kind) out->error = fmax(out->error, hk_analytic_error(&o, w, hk_world_time(w)));
        /* unstable: non-finite, or the energy a hundred times its scale off (a stable symplectic
         * scheme released from rest swings by 1/(1 - omega dt / 2): 50 times at omega*dt = 1.96) */
        if (hk_world_check(w, 0, &b) || fabs(st.total - e0) > HK_ENERGY_GROWTH * scale) {
            out->stable = 0;
            out->steps = s;
            break;
        }
    }
    out->drift = out->stable ? (e_window - e0) / scale / t_window : INFINITY;
    if (!out->stable) out->error = out->ref_error = INFINITY;
    out->cpu = cpu / ((double)out->steps * dt);
    out->cg = (double)hk_world_solver_stats(w).cg_total / (double)out->steps;
    hk_scene_free(&sc);
    return 0;
}

/* ---- progress on a terminal ---------------------------------------------- */

void hk_stability_progress_text(char *buf, size_t len, int room, int phase, const char *integrator, double dt, int done,
                                int total, double eta_s)
{
    char eta[32], name[96], step[32], runs[64], runs_brief[32];
    hk_progress_eta(eta_s, eta, sizeof eta);
    snprintf(name, sizeof name, "%s%s",
             phase == HK_STABILITY_BISECTING   ? "bisecting "
             : phase == HK_STABILITY_REFERENCE ? "reference "
                                               : "",
             integrator);
    snprintf(step, sizeof step, "dt %.2e", dt);
    snprintf(runs, sizeof runs, "(%d of %d runs%s)", done, total,
             phase == HK_STABILITY_SWEEP       ? ", then bisections"
             : phase == HK_STABILITY_REFERENCE ? ", then the sweep"
                                               : "");
    snprintf(runs_brief, sizeof runs_brief, "(%d of %d runs)", done, total);
    /* where the line is too wide: ", then ..." goes, then "stability:", dt, the runs and the ETA in turn */
    hk_progress_field f[] = {
        {"", "stability:", NULL, 0, 2}, {" ", name, NULL, 0, 0}, {" ", step, NULL, 0, 3},
        {" ", runs, runs_brief, 1, 4},  {", ", eta, NULL, 0, 5},
    };
    hk_progress_compose(buf, len, f, *eta ? 5 : 4, room);
}

/* The progress of one phase (the reference, the sweep, then the bisections), updated by the threads that run it.
 * Work is counted in steps for the reference and the sweep (a run's planned steps are known, and runs at small dt
 * take most of the time) and in runs for the bisections; the ETA is the wall time so far over the work done, times
 * the work left. */
typedef struct run_progress {
    hk_progress line;
    int phase, kind, done, total;
    double dt, t0, work_done, work_left;
} run_progress;

static void progress_phase(run_progress *rp, int enabled, int phase, int total, double work)
{
    hk_progress_start(&rp->line, enabled);
    rp->phase = phase;
    rp->kind = 0;
    rp->done = 0;
    rp->total = total;
    rp->dt = 0;
    rp->t0 = hk_progress_clock();
    rp->work_done = 0;
    rp->work_left = work;
}

/* Redraws the line; the caller holds the critical section. */
static void progress_redraw(run_progress *rp)
{
    char text[200];
    const double eta =
        rp->work_done > 0 ? (hk_progress_clock() - rp->t0) / rp->work_done * fmax(rp->work_left, 0) : NAN;
    if (rp->done > rp->total) rp->total = rp->done;
    hk_stability_progress_text(text, sizeof text, hk_progress_room(), rp->phase,
                               hk_integrator_name((hk_integrator_kind)rp->kind), rp->dt, rp->done, rp->total, eta);
    hk_progress_draw(&rp->line, text, 0);
}

/* A run starts: the line names it (the first one of a phase at once, later ones at most 4 times a second). */
static void progress_run_starts(run_progress *rp, int kind, double dt)
{
    if (!rp->line.enabled) return;
#ifdef HOOKE_USE_OPENMP
#pragma omp critical(hk_stability_progress)
#endif
    {
        rp->kind = kind;
        rp->dt = dt;
        progress_redraw(rp);
    }
}

/* A run is done: done is the work it took, planned what it was counted as in the work left. */
static void progress_run_done(run_progress *rp, double done, double planned)
{
    if (!rp->line.enabled) return;
#ifdef HOOKE_USE_OPENMP
#pragma omp critical(hk_stability_progress)
#endif
    {
        rp->done++;
        rp->work_done += done;
        rp->work_left -= planned;
        progress_redraw(rp);
    }
}

/* Bisection steps between dt_min and dt_max: the interval in log dt halves at each until its ends are 0.5 %
 * apart (the same arithmetic as the bisection, taking the lower half every time). */
static int bisection_runs(double dt_min, double dt_max)
{
    int n = 0;
    for (double lo = dt_min, hi = dt_max; hi / lo > 1.005; n++) lo = sqrt(lo * hi);
    return n;
}

static const char stability_usage[] =
    "usage: hooke stability SCENE [--integrators all|LIST] [--iterations LIST]\n"
    "                       [--dt-min A --dt-max B --points N]\n"
    "                       [--time T] [--reference F] [--threads N]\n"
    "                       [--out FILE.csv|FILE.json] [--plot FILE.png|.svg|.pdf] [--quiet]\n"
    "\n"
    "Runs SCENE with every integrator (or the comma-separated LIST) at N step\n"
    "lengths dt spaced evenly in log dt from A to B (no substeps), each run for T\n"
    "simulated seconds and at least 2000 steps. A run is unstable once the state is\n"
    "non-finite or the total energy has moved by 100 times its starting scale.\n"
    "Prints per integrator the largest stable dt (bisection in log dt between A\n"
    "and B, to 0.5 %), omega_max * dt there, the relative energy drift per\n"
    "simulated second at each dt (the change of the total energy over the first T\n"
    "seconds, over T and the starting scale: the same stretch of time at every dt;\n"
    "negative for a scheme that damps) and, where the scene has an analytic answer, the\n"
    "largest distance [m] of the moving mass from it at the smallest dt:\n"
    "  oscillator (one pinned spring pair, no gravity): x(t) = L0 + d0 cos(wt) + v0/w sin(wt);\n"
    "  pendulum (a pendulum body released from rest, gravity): the exact solution\n"
    "    sin(theta/2) = sin(theta0/2) sn(K - w0 t | sin^2(theta0/2)), period 4 K / w0,\n"
    "    w0 = sqrt(g / L), L = rest length + m g / k (the rod's static stretch).\n"
    "Then at each dt what stability costs: the error against a converged reference\n"
    "(the scene by implicit_euler at dt A / F, CG to a relative residual of 1e-6,\n"
    "at most 4 Newton iterations a step, landing on each run's times): the RMS over\n"
    "the free particles of their distance from it [m], the largest at the end of\n"
    "each quarter of the first T seconds, also over the bodies' size; the largest\n"
    "r/L0 of a spring over the first T seconds; the run's CPU time per simulated\n"
    "second (its thread's CPU time in the steps) and CG iterations per step. The\n"
    "header gives the reference's own error (its RMS distance from the same at 2\n"
    "dt): smaller errors are not resolved.\n"
    "\n";
static const char stability_notes[] = "\n"
                                      "The table goes to stdout. On stderr, only when stderr is a terminal, one line\n"
                                      "redrawn in place as runs start and end names the run that started last, the\n"
                                      "runs done and an ETA from the time they took, e.g. \"stability: rk4 dt\n"
                                      "1.20e-03 (7 of 60 runs, then bisections), ETA 2 min\", then \"stability:\n"
                                      "bisecting rk4 dt 2.83e-01 (3 of 22 runs), ETA 40 s\"; it is cleared before the\n"
                                      "table is printed, and never written to files or pipes. Then one line per file\n"
                                      "written: \"hooke: wrote FILE\" (stderr).\n"
                                      "\n"
                                      "omega_max is a Gershgorin bound from k and m (exact for the oscillator).\n"
                                      "exit status: 0 done, 1 bad input, 3 an output file could not be written.\n";

/* Loads the scene and steps it once with each integrator, on this thread: process-wide
 * choices made on first use (kernel table, environment knobs) are settled before the
 * parallel sweep. */
static void warm_up(const char *scene, const hk_stability_profile *pr, int nk)
{
    for (int k = 0; k < nk; k++) {
        hk_scene sc;
        hk_world_def base;
        char err[256];
        if (hk_env_world_def(&base, err, sizeof err) != 0 || hk_scene_load_on(scene, &base, &sc, err, sizeof err) != 0)
            return;
        const hk_integrator_def def = trial_def(&sc.integrator, pr[k].kind, pr[k].iterations, sc.integrator.dt);
        if (hk_world_set_integrator(sc.world, &def) == 0) hk_world_step(sc.world);
        hk_scene_free(&sc);
    }
}

/* The integrators that sweep the springs (the table's iterated rows), as "a, b". */
static const char *iterated_names(void)
{
    static char names[256];
    names[0] = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++)
        if (hk_integrator_info_of((hk_integrator_kind)k)->iterated) {
            const size_t at = strlen(names);
            snprintf(names + at, sizeof names - at, "%s%s", at ? ", " : "", hk_integrator_name((hk_integrator_kind)k));
        }
    return names;
}

/* --iterations LIST into its[] (at most HK_STABILITY_ITERATIONS_MAX); their count, or -1 with the message printed. */
static int parse_iterations(const char *list, int *its)
{
    int n = 0;
    const char *s = list;
    while (s && *s) {
        const size_t len = strcspn(s, ",");
        char item[32], *end;
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), s);
        const long v = strtol(item, &end, 10);
        if (len == 0 || len > 30 || *end || v < 1 || v > HK_MAX_ITERATIONS || n == HK_STABILITY_ITERATIONS_MAX) {
            fprintf(stderr,
                    "hooke: error: --iterations: expected a comma-separated list of 1 to %d counts, each 1..%d, got "
                    "'%s'\n",
                    HK_STABILITY_ITERATIONS_MAX, HK_MAX_ITERATIONS, list);
            return -1;
        }
        its[n++] = (int)v;
        s += len;
        if (*s == ',') s++;
    }
    return n;
}

/* The options of `hooke stability`: the parser and the help text read this table. */
enum {
    O_INTEGRATORS,
    O_ITERATIONS,
    O_DT_MIN,
    O_DT_MAX,
    O_POINTS,
    O_TIME,
    O_REFERENCE,
    O_THREADS,
    O_OUT,
    O_PLOT,
    O_QUIET
};
static const hk_option stability_options[] = {
    {O_INTEGRATORS, "integrators", "LIST", "all (default) or names from: %s", hk_integrator_names},
    {O_ITERATIONS, "iterations", "LIST",
     "sweeps a substep of the integrators that sweep the springs\n"
     "(%s): a comma-separated list of 1 to 8 counts, each 1..10000;\n"
     "each such integrator is profiled at each (default: at its own)",
     iterated_names},
    {O_DT_MIN, "dt-min", "A", "smallest dt [s] (default 0.01 / omega_max)", NULL},
    {O_DT_MAX, "dt-max", "B", "largest dt [s] (default 4 / omega_max); A < B", NULL},
    {O_POINTS, "points", "N", "dt values in the sweep, 2..100 (default 6)", NULL},
    {O_TIME, "time", "T",
     "simulated seconds per run (default: the scene's run\n"
     "length, else 20 periods of omega_max)",
     NULL},
    {O_REFERENCE, "reference", "F",
     "the converged reference's dt is A / F, 2..100000 (default\n"
     "10); 0: no reference (no error against it)",
     NULL},
    {O_THREADS, "threads", "N",
     "runs in parallel, one world per thread (default: OpenMP's\n"
     "thread count); the results do not depend on N",
     NULL},
    {O_OUT, "out", "FILE", "the numbers as CSV (or JSON when FILE ends in .json)", NULL},
    {O_PLOT, "plot", "FILE",
     "|energy drift| per second against dt, log-log, a curve per\n"
     "integrator, its stability limit a dashed line; below it the\n"
     "error against the reference against the CPU time per\n"
     "simulated second: FILE.png, FILE.svg or FILE.pdf, chosen by\n"
     "the extension",
     NULL},
    {O_QUIET, "quiet", NULL,
     "no progress line and no \"hooke: wrote\" lines (errors are\n"
     "still printed)",
     NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command stability_command = {"stability", stability_options};

/* The help text, its option lines from the table. */
static void stability_help(FILE *f)
{
    fputs(stability_usage, f);
    hk_opt_print(f, &stability_command);
    fputs(stability_notes, f);
}

/* The command line's values. */
typedef struct stability_opts {
    const char *scene, *out, *plot, *list, *iterations;
    double dt_min, dt_max, time;
    int points, threads, quiet, factor;
} stability_opts;

/* The value of option id (flag: "--NAME") into o; 0, or 1 with the message printed. */
static int stability_option(stability_opts *o, int id, const char *a, const char *v)
{
    int64_t n;
    switch (id) {
    case O_QUIET: o->quiet = 1; break;
    case O_INTEGRATORS:
        if (!v || !*v) return hk_arg_error(NULL, a, v, "all or a comma-separated list of integrators");
        o->list = v;
        break;
    case O_ITERATIONS:
        if (!v || !*v) return hk_arg_error(NULL, a, v, "a comma-separated list of sweep counts");
        o->iterations = v;
        break;
    case O_DT_MIN:
    case O_DT_MAX:
    case O_TIME:
        if (hk_arg_above(NULL, a, v, 0, "a number > 0",
                         id == O_DT_MIN   ? &o->dt_min
                         : id == O_DT_MAX ? &o->dt_max
                                          : &o->time))
            return 1;
        break;
    case O_POINTS:
        if (hk_arg_int(NULL, a, v, 2, 100, "a whole number 2..100", &n)) return 1;
        o->points = (int)n;
        break;
    case O_THREADS:
        if (hk_arg_int(NULL, a, v, 1, 4096, "a thread count 1..4096", &n)) return 1;
        o->threads = (int)n;
        break;
    case O_REFERENCE:
        if (hk_arg_int(NULL, a, v, 0, 100000, "0 or a whole number 2..100000", &n)) return 1;
        if (n == 1) return hk_arg_error(NULL, a, v, "0 or a whole number 2..100000");
        o->factor = (int)n;
        break;
    case O_OUT:
    case O_PLOT:
        if (!v || !*v)
            return hk_arg_error(
                NULL, a, v, id == O_OUT ? "a file name (.csv or .json)" : "a file name ending in .png, .svg or .pdf");
        *(id == O_OUT ? &o->out : &o->plot) = v;
        break;
    }
    return 0;
}

/* 0, 1 (message printed) or STABILITY_HELP (help printed). */
enum { STABILITY_HELP = -1 };
static int parse_stability(int argc, char **argv, stability_opts *o)
{
    memset(o, 0, sizeof *o);
    o->list = "all";
    o->points = 6;
    o->factor = HK_REF_FACTOR;
    hk_opt_parser p;
    hk_opt_begin(&p, &stability_command, argc - 1, argv + 1);
    int rc = 0;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_ERROR) {
            rc = 1;
        } else if (id == HK_OPT_HELP) {
            stability_help(stdout);
            rc = STABILITY_HELP;
        } else if (id == HK_OPT_ARG && o->scene) {
            fprintf(stderr, "hooke: error: more than one scene given ('%s' and '%s')\n", o->scene, v);
            rc = 1;
        } else if (id == HK_OPT_ARG) {
            o->scene = v;
        } else {
            rc = stability_option(o, id, p.flag, v);
        }
        if (rc != 0) break;
    }
    hk_opt_end(&p);
    return rc;
}

int hk_cmd_stability(int argc, char **argv)
{
    stability_opts opt;
    const int prc = parse_stability(argc, argv, &opt);
    if (prc == STABILITY_HELP) return 0;
    if (prc != 0) return prc;
    const char *scene = opt.scene, *out = opt.out, *plot = opt.plot, *list = opt.list;
    double dt_min = opt.dt_min, dt_max = opt.dt_max, time = opt.time;
    const int points = opt.points, quiet = opt.quiet;
    int threads = opt.threads;
    if (!scene) {
        fprintf(stderr, "hooke: error: stability needs a scene file (see hooke stability --help)\n");
        return 1;
    }
    if (plot && hk_plot_kind("--plot", plot) < 0) return 1;
    hk_scene sc;
    hk_world_def base;
    char err[1024], why[512];
    if (hk_env_world_def(&base, why, sizeof why) != 0) {
        fprintf(stderr, "hooke: error: %s\n", why);
        return 1;
    }
    if (hk_scene_load_on(scene, &base, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const double omega = hk_omega_max(sc.world);
    const int particles = hk_world_particles(sc.world).count;
    const double scene_time = sc.time > 0 ? sc.time : (sc.steps > 0 ? (double)sc.steps * sc.integrator.dt : 0);
    const hk_analytic exact = hk_analytic_find(sc.world);
    hk_scene_free(&sc);
    if (!(omega > 0)) {
        fprintf(stderr, "hooke: error: %s: no springs with a free end: nothing to profile\n", scene);
        return 1;
    }
    /* defaults: omega*dt from 0.01 to 4, run for the scene's length or 20 periods of omega_max */
    if (dt_min == 0) dt_min = 0.01 / omega;
    if (dt_max == 0) dt_max = 4.0 / omega;
    const char *time_from = time > 0 ? "--time" : scene_time > 0 ? "the scene's run length" : "20 periods of omega_max";
    if (time == 0) time = scene_time > 0 ? scene_time : 20 * 2 * 3.14159265358979323846 / omega;
    if (!(dt_min < dt_max)) {
        fprintf(stderr, "hooke: error: --dt-min (%g) must be less than --dt-max (%g)\n", dt_min, dt_max);
        return 1;
    }
    int kinds[HK_INTEGRATOR_COUNT], nk = 0;
    if (strcmp(list, "all") == 0) {
        for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) kinds[nk++] = k;
    } else {
        const char *s = list;
        while (*s) {
            size_t n = strcspn(s, ",");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), s);
            int k = hk_integrator_from_name(name);
            if (k < 0 || nk == HK_INTEGRATOR_COUNT) {
                fprintf(stderr, "hooke: error: --integrators: unknown integrator '%s' (one of %s)\n", name,
                        hk_integrator_names());
                return 1;
            }
            kinds[nk++] = k;
            s += n;
            if (*s == ',') s++;
        }
    }
    /* the profiles: each integrator, an iterated one once per --iterations count */
    int its[HK_STABILITY_ITERATIONS_MAX], nits = 0;
    if (opt.iterations && (nits = parse_iterations(opt.iterations, its)) < 0) return 1;
    hk_stability_profile want[HK_STABILITY_PROFILES];
    int np = 0, swept = 0;
    for (int k = 0; k < nk; k++) {
        const int iterated = hk_integrator_info_of((hk_integrator_kind)kinds[k])->iterated > 0;
        swept |= iterated;
        /* an integrator's counts share its colour, each its own marker (plot.h: style + 10 v turns the shape) */
        for (int v = 0; v < (iterated && nits ? nits : 1) && np < HK_STABILITY_PROFILES; v++) {
            const hk_stability_profile P = {
                .kind = kinds[k], .iterations = iterated && nits ? its[v] : 0, .style = kinds[k] + HK_PLOT_COLOURS * v};
            want[np++] = P;
        }
    }
    if (nits && !swept) {
        fprintf(stderr, "hooke: error: --iterations: no integrator profiled sweeps the springs (those that do: %s)\n",
                iterated_names());
        return 1;
    }
    nk = np;
#ifdef HOOKE_USE_OPENMP
    char terr[256];
    if (hk_topology_threads(threads, 0, &threads, terr, sizeof terr) != 0) {
        fprintf(stderr, "hooke: error: %s\n", terr);
        return 1;
    }
#else
    threads = 1;
#endif
    const int jobs = nk * points;
    double *dts = malloc((size_t)points * sizeof *dts);
    hk_stability_profile *pr = calloc((size_t)nk, sizeof *pr);
    int *job_rc = calloc((size_t)jobs, sizeof *job_rc);
    char(*job_err)[512] = calloc((size_t)(jobs > nk ? jobs : nk), sizeof *job_err);
    int rc = !dts || !pr || !job_rc || !job_err;
    for (int ki = 0; ki < nk && !rc; ki++) {
        hk_stability_profile *P = &pr[ki];
        *P = want[ki];
        double **per_dt[] = {&P->drift, &P->error, &P->ref_error, &P->max_stretch, &P->cpu, &P->cg};
        for (size_t a = 0; a < sizeof per_dt / sizeof per_dt[0]; a++)
            rc |= (*per_dt[a] = calloc((size_t)points, sizeof(double))) == NULL;
        rc |= (P->stable = calloc((size_t)points, sizeof(int))) == NULL;
    }
    for (int i = 0; i < points && !rc; i++) dts[i] = dt_min * pow(dt_max / dt_min, (double)i / (points - 1));
    if (!rc) dts[points - 1] = dt_max; /* exactly: the bisection starts from the sweep's ends */
    hk_reference ref;
    memset(&ref, 0, sizeof ref);
    if (!rc) rc = hk_reference_plan(&ref, dts, points, time, opt.factor ? dt_min / opt.factor : 0, particles) != 0;
    if (rc) fprintf(stderr, "hooke: error: out of memory\n");
    const int show = !quiet && hk_progress_tty();
    run_progress rp;
    double work = 0; /* the sweep's steps */
    for (int i = 0; i < points && !rc; i++) work += (double)nk * (double)planned_steps(time, dts[i]);
    if (rc == 0) {
        const int reference_kind = HK_IMPLICIT_EULER;
        warm_up(scene, pr, nk);
        const hk_stability_profile reference_run = {.kind = reference_kind};
        if (ref.dt > 0) warm_up(scene, &reference_run, 1); /* its two runs are parallel too */
        if (!quiet) {                                      /* what the sweep is, before its progress line's first ETA */
            fprintf(stderr,
                    "hooke: stability: %d integrator%s x %d dt from %.4g to %.4g s (omega_max dt %.3g to %.3g), %.4g s "
                    "per run (%s), %.0f steps in all",
                    nk, nk == 1 ? "" : "s", points, dt_min, dt_max, omega * dt_min, omega * dt_max, time, time_from,
                    work);
            if (ref.dt > 0)
                fprintf(stderr, ", after the reference's %lld + %lld implicit_euler steps at dt %.4g and %.4g s",
                        (long long)ref.steps[0], (long long)ref.steps[1], ref.dt, 2 * ref.dt);
            fprintf(stderr, "\n");
        }
        /* the reference: at dt and at 2 dt, one run per thread */
        if (ref.dt > 0) {
            int ref_rc[2] = {0, 0};
            const double ref_steps[2] = {(double)ref.steps[0], (double)ref.steps[1]};
            progress_phase(&rp, show, HK_STABILITY_REFERENCE, 2, ref_steps[0] + ref_steps[1]);
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads < 2 ? threads : 2)
#endif
            for (int k = 0; k < 2; k++) {
#ifdef HOOKE_USE_OPENMP
                omp_set_num_threads(1);
#endif
                progress_run_starts(&rp, HK_IMPLICIT_EULER, (k + 1) * ref.dt);
                ref_rc[k] = hk_reference_run(&ref, scene, k, job_err[k], sizeof job_err[k]);
                progress_run_done(&rp, ref_steps[k], ref_steps[k]);
            }
            hk_progress_end(&rp.line);
            for (int k = 0; k < 2 && rc == 0; k++)
                if (ref_rc[k]) {
                    fprintf(stderr, "%s\n", job_err[k]);
                    rc = 1;
                }
            hk_reference_finish(&ref);
        }
    }
    if (rc == 0) {
        progress_phase(&rp, show, HK_STABILITY_SWEEP, jobs, work);
        /* the sweep: every (integrator, dt) pair is one world on one thread; each run
         * is deterministic, so the table does not depend on the thread count (but for the CPU times) */
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
        for (int j = 0; j < jobs; j++) {
#ifdef HOOKE_USE_OPENMP
            omp_set_num_threads(1); /* the world's own parallel loops run on this thread only */
#endif
            hk_stability_profile *P = &pr[j / points];
            const int i = j % points;
            trial t = {0};
            progress_run_starts(&rp, P->kind, dts[i]);
            job_rc[j] = run_trial(scene, P, dts[i], time, &ref, i, &t, job_err[j], sizeof job_err[j]);
            if (job_rc[j] == 0) {
                P->stable[i] = t.stable;
                P->drift[i] = t.drift;
                P->error[i] = t.error;
                P->ref_error[i] = t.ref_error;
                P->max_stretch[i] = t.max_stretch;
                P->cpu[i] = t.cpu;
                P->cg[i] = t.cg;
            }
            progress_run_done(&rp, (double)t.steps, (double)planned_steps(time, dts[i]));
        }
        hk_progress_end(&rp.line);
        for (int j = 0; j < jobs && rc == 0; j++)
            if (job_rc[j]) {
                fprintf(stderr, "%s\n", job_err[j]);
                rc = 1;
            }
    }
    if (rc == 0) {
        /* bisection (in log dt) between a stable and an unstable dt, to 0.5 %: one integrator per thread */
        int bisecting = 0;
        for (int ki = 0; ki < nk; ki++) bisecting += pr[ki].stable[0] && !pr[ki].stable[points - 1];
        const int runs = bisecting * bisection_runs(dt_min, dt_max);
        progress_phase(&rp, show, HK_STABILITY_BISECTING, runs, runs);
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
        for (int ki = 0; ki < nk; ki++) {
#ifdef HOOKE_USE_OPENMP
            omp_set_num_threads(1);
#endif
            hk_stability_profile *P = &pr[ki];
            job_rc[ki] = 0;
            if (!P->stable[0]) {
                P->limit = 0;
            } else if (P->stable[points - 1]) {
                P->limit = INFINITY;
            } else {
                double lo = dt_min, hi = dt_max;
                trial t;
                while (hi / lo > 1.005) {
                    const double mid = sqrt(lo * hi);
                    progress_run_starts(&rp, P->kind, mid);
                    const int bad = run_trial(scene, P, mid, time, NULL, -1, &t, job_err[ki], sizeof job_err[ki]);
                    progress_run_done(&rp, 1, 1);
                    if (bad) {
                        job_rc[ki] = 1;
                        break;
                    }
                    *(t.stable ? &lo : &hi) = mid;
                }
                P->limit = sqrt(lo * hi);
            }
        }
        hk_progress_end(&rp.line);
        for (int ki = 0; ki < nk && rc == 0; ki++)
            if (job_rc[ki]) {
                fprintf(stderr, "%s\n", job_err[ki]);
                rc = 1;
            }
    }
    if (rc == 0) {
        const hk_stability_result res = {scene, omega, &exact, dts, points, threads, time, opt.factor, &ref, pr, nk};
        hk_stability_print(stdout, &res);
        if (out) {
            hk_outfile of; /* whole: NAME.tmp, renamed over NAME once every byte is out (a cut file was left) */
            FILE *f = hk_out_open(&of, out, "w");
            const size_t ol = strlen(out);
            const int json = ol > 5 && strcmp(out + ol - 5, ".json") == 0;
            if (!f) {
                fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, hk_out_strerror(errno));
                rc = 3;
            } else {
                const int bad = hk_stability_write(f, &res, json) != 0;
                if (bad && !errno) errno = EIO;
                if (hk_out_close(&of, !bad) != 0) {
                    fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, hk_out_strerror(errno));
                    rc = 3;
                } else if (!quiet) {
                    fprintf(stderr, "hooke: wrote %s\n", out);
                }
            }
        }
        if (plot) {
            errno = 0;
            if (hk_stability_plot(plot, scene, omega, dts, points, pr, nk, &ref) != 0) {
                fprintf(stderr, "hooke: error: cannot write %s: %s\n", plot, hk_out_strerror(errno ? errno : EIO));
                rc = 3;
            } else if (!quiet) {
                fprintf(stderr, "hooke: wrote %s\n", plot);
            }
        }
    }
    for (int ki = 0; pr && ki < nk; ki++) {
        free(pr[ki].drift);
        free(pr[ki].error);
        free(pr[ki].stable);
        free(pr[ki].ref_error);
        free(pr[ki].max_stretch);
        free(pr[ki].cpu);
        free(pr[ki].cg);
    }
    hk_reference_free(&ref);
    free(pr);
    free(dts);
    free(job_rc);
    free(job_err);
    return rc;
}
