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
#include "json.h"
#include "outfile.h"
#include "plot.h"
#include "stability_plot.h"
#include "progress.h"
#include "scene.h"
#include "springs.h"
#include "topology.h"
#include "world.h"

/* ---- the profiler -------------------------------------------------------- */

typedef struct trial {
    int stable;
    int64_t steps; /* steps run (fewer than planned once unstable) */
    double drift;  /* relative energy change per simulated second [1/s] */
    double error;  /* largest distance from the analytic answer [m], NAN without one */
} trial;

static double total_energy(const hk_world *w, double *scale)
{
    hk_stats s = hk_world_stats(w);
    if (scale) *scale = fmax(fabs(s.total), s.kinetic + s.spring + fabs(s.gravity));
    return s.total;
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
 * at every dt are measured over the same stretch of simulated time. */
static int run_trial(const char *scene, int kind, double dt, double time, trial *out, char *err, size_t errlen)
{
    hk_scene sc;
    hk_world_def base; /* the environment's tuning */
    if (hk_env_world_def(&base, err, errlen) != 0 || hk_scene_load_on(scene, &base, &sc, err, errlen) != 0) return -1;
    hk_world *w = sc.world;
    hk_integrator_def def = sc.integrator;
    def.kind = (hk_integrator_kind)kind;
    def.dt = dt;
    def.dt_max = 0;
    if (hk_world_set_integrator(w, &def) != 0) {
        snprintf(err, errlen, "%s: %s", scene, hk_world_error(w));
        hk_scene_free(&sc);
        return -1;
    }
    const hk_analytic o = hk_analytic_find(w);
    double scale;
    const double e0 = total_energy(w, &scale);
    if (!(scale > 0)) scale = 1;
    const int64_t steps = planned_steps(time, dt);
    out->stable = 1;
    out->steps = steps;
    out->error = o.kind ? 0 : NAN;
    hk_blowup b;
    const int64_t window = (int64_t)ceil(time / dt); /* the drift is measured over the first `time` seconds */
    double e_window = e0, t_window = 0;
    for (int64_t s = 1; s <= steps; s++) {
        hk_world_step(w);
        if (s == window) {
            e_window = total_energy(w, NULL);
            t_window = hk_world_time(w);
        }
        if (o.kind) out->error = fmax(out->error, hk_analytic_error(&o, w, hk_world_time(w)));
        /* unstable: non-finite, or the energy a hundred times its scale off (a stable symplectic
         * scheme released from rest swings by 1/(1 - omega dt / 2): 50 times at omega*dt = 1.96) */
        if (hk_world_check(w, 0, &b) || fabs(total_energy(w, NULL) - e0) > HK_ENERGY_GROWTH * scale) {
            out->stable = 0;
            out->steps = s;
            break;
        }
    }
    out->drift = out->stable ? (e_window - e0) / scale / t_window : INFINITY;
    if (!out->stable) out->error = INFINITY;
    hk_scene_free(&sc);
    return 0;
}

/* dt columns per block of the printed drift table */
#define DRIFT_COLUMNS 5

/* ---- progress on a terminal ---------------------------------------------- */

void hk_stability_progress_text(char *buf, size_t len, int room, int bisecting, const char *integrator, double dt,
                                int done, int total, double eta_s)
{
    char eta[32], name[96], step[32], runs[64], runs_brief[32];
    hk_progress_eta(eta_s, eta, sizeof eta);
    snprintf(name, sizeof name, "%s%s", bisecting ? "bisecting " : "", integrator);
    snprintf(step, sizeof step, "dt %.2e", dt);
    snprintf(runs, sizeof runs, "(%d of %d runs%s)", done, total, bisecting ? "" : ", then bisections");
    snprintf(runs_brief, sizeof runs_brief, "(%d of %d runs)", done, total);
    /* where the line is too wide: ", then bisections" goes, then "stability:", dt, the runs and the ETA in turn */
    hk_progress_field f[] = {
        {"", "stability:", NULL, 0, 2}, {" ", name, NULL, 0, 0}, {" ", step, NULL, 0, 3},
        {" ", runs, runs_brief, 1, 4},  {", ", eta, NULL, 0, 5},
    };
    hk_progress_compose(buf, len, f, *eta ? 5 : 4, room);
}

/* The progress of one phase (the sweep, then the bisections), updated by the threads that run it. Work is
 * counted in steps for the sweep (a run's planned steps are known, and runs at small dt take most of the time)
 * and in runs for the bisections; the ETA is the wall time so far over the work done, times the work left. */
typedef struct run_progress {
    hk_progress line;
    int bisecting, kind, done, total;
    double dt, t0, work_done, work_left;
} run_progress;

static void progress_phase(run_progress *rp, int enabled, int bisecting, int total, double work)
{
    hk_progress_start(&rp->line, enabled);
    rp->bisecting = bisecting;
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
    hk_stability_progress_text(text, sizeof text, hk_progress_room(), rp->bisecting,
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
    "usage: hooke stability SCENE [--integrators all|LIST] [--dt-min A --dt-max B --points N]\n"
    "                       [--time T] [--threads N] [--out FILE.csv|FILE.json]\n"
    "                       [--plot FILE.png|.svg|.pdf] [--quiet]\n"
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

/* The profile as JSON: the scene, omega_max, the analytic answer, and per integrator its dt limit (null when none
 * was found in the range) and the sweep (null for numbers a blow-up left undefined). 0, or -1 on a writer misuse. */
static int write_json(FILE *f, const char *scene, double omega, const hk_analytic *exact,
                      const hk_stability_profile *pr, int nk, const double *dts, int points)
{
    hk_json j;
    hk_json_begin(&j, f);
    hk_json_object(&j, NULL);
    hk_json_str(&j, "scene", scene);
    hk_json_num(&j, "omega_max", omega, 9);
    hk_json_str(&j, "analytic",
                exact->kind == HK_ANALYTIC_OSCILLATOR ? "oscillator"
                : exact->kind == HK_ANALYTIC_PENDULUM ? "pendulum"
                                                      : NULL);
    hk_json_array(&j, "integrators");
    for (int ki = 0; ki < nk; ki++) {
        const hk_stability_profile *P = &pr[ki];
        hk_json_object_line(&j, NULL);
        hk_json_str(&j, "name", hk_integrator_name((hk_integrator_kind)P->kind));
        hk_json_num(&j, "stable_dt_max", P->limit == 0 ? NAN : P->limit, 9); /* null: none, or above dt_max */
        hk_json_array_line(&j, "sweep");
        for (int i = 0; i < points; i++) {
            hk_json_object_line(&j, NULL);
            hk_json_num(&j, "dt", dts[i], 9);
            hk_json_bool(&j, "stable", P->stable[i]);
            hk_json_num(&j, "energy_drift_per_s", P->stable[i] ? P->drift[i] : NAN, 9);
            hk_json_num(&j, "max_error", P->error[i], 9);
            hk_json_close(&j);
        }
        hk_json_close(&j);
        hk_json_close(&j);
    }
    hk_json_close(&j);
    hk_json_close(&j);
    return hk_json_end(&j);
}

/* Loads the scene and steps it once with each integrator, on this thread: process-wide
 * choices made on first use (kernel table, environment knobs) are settled before the
 * parallel sweep. */
static void warm_up(const char *scene, const int *kinds, int nk)
{
    for (int k = 0; k < nk; k++) {
        hk_scene sc;
        hk_world_def base;
        char err[256];
        if (hk_env_world_def(&base, err, sizeof err) != 0 || hk_scene_load_on(scene, &base, &sc, err, sizeof err) != 0)
            return;
        hk_integrator_def def = sc.integrator;
        def.kind = (hk_integrator_kind)kinds[k];
        def.dt_max = 0;
        if (hk_world_set_integrator(sc.world, &def) == 0) hk_world_step(sc.world);
        hk_scene_free(&sc);
    }
}

/* The options of `hooke stability`: the parser and the help text read this table. */
enum { O_INTEGRATORS, O_DT_MIN, O_DT_MAX, O_POINTS, O_TIME, O_THREADS, O_OUT, O_PLOT, O_QUIET };
static const hk_option stability_options[] = {
    {O_INTEGRATORS, "integrators", "LIST", "all (default) or names from: %s", hk_integrator_names},
    {O_DT_MIN, "dt-min", "A", "smallest dt [s] (default 0.01 / omega_max)", NULL},
    {O_DT_MAX, "dt-max", "B", "largest dt [s] (default 4 / omega_max); A < B", NULL},
    {O_POINTS, "points", "N", "dt values in the sweep, 2..100 (default 6)", NULL},
    {O_TIME, "time", "T",
     "simulated seconds per run (default: the scene's run\n"
     "length, else 20 periods of omega_max)",
     NULL},
    {O_THREADS, "threads", "N",
     "runs in parallel, one world per thread (default: OpenMP's\n"
     "thread count); the results do not depend on N",
     NULL},
    {O_OUT, "out", "FILE", "the numbers as CSV (or JSON when FILE ends in .json)", NULL},
    {O_PLOT, "plot", "FILE",
     "|energy drift| per second against dt, log-log, a curve per\n"
     "integrator, its stability limit a dashed line: FILE.png,\n"
     "FILE.svg or FILE.pdf, chosen by the extension",
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
    const char *scene, *out, *plot, *list;
    double dt_min, dt_max, time;
    int points, threads, quiet;
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
        pr[ki].kind = kinds[ki];
        pr[ki].drift = calloc((size_t)points, sizeof(double));
        pr[ki].error = calloc((size_t)points, sizeof(double));
        pr[ki].stable = calloc((size_t)points, sizeof(int));
        rc = !pr[ki].drift || !pr[ki].error || !pr[ki].stable;
    }
    if (rc) fprintf(stderr, "hooke: error: out of memory\n");
    const int show = !quiet && hk_progress_tty();
    run_progress rp;
    if (rc == 0) {
        for (int i = 0; i < points; i++) dts[i] = dt_min * pow(dt_max / dt_min, (double)i / (points - 1));
        dts[points - 1] = dt_max; /* exactly: the bisection starts from the sweep's ends */
        warm_up(scene, kinds, nk);
        double work = 0;
        for (int i = 0; i < points; i++) work += (double)nk * (double)planned_steps(time, dts[i]);
        if (!quiet) /* what the sweep is, before its progress line's first ETA */
            fprintf(stderr,
                    "hooke: stability: %d integrator%s x %d dt from %.4g to %.4g s (omega_max dt %.3g to %.3g), %.4g s "
                    "per run (%s), %.0f steps in all\n",
                    nk, nk == 1 ? "" : "s", points, dt_min, dt_max, omega * dt_min, omega * dt_max, time, time_from,
                    work);
        progress_phase(&rp, show, 0, jobs, work);
        /* the sweep: every (integrator, dt) pair is one world on one thread; each run
         * is deterministic, so the table does not depend on the thread count */
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
            job_rc[j] = run_trial(scene, P->kind, dts[i], time, &t, job_err[j], sizeof job_err[j]);
            if (job_rc[j] == 0) {
                P->stable[i] = t.stable;
                P->drift[i] = t.drift;
                P->error[i] = t.error;
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
        progress_phase(&rp, show, 1, runs, runs);
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
                    const int bad = run_trial(scene, P->kind, mid, time, &t, job_err[ki], sizeof job_err[ki]);
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
        printf("stability of %s: omega_max = %.6g rad/s (estimate from k and m), %d dt from %.4g to %.4g s, %.4g s "
               "simulated per run (at least 2000 steps), %d thread%s\n",
               scene, omega, points, dt_min, dt_max, time, threads, threads == 1 ? "" : "s");
        if (exact.kind == HK_ANALYTIC_OSCILLATOR)
            printf("analytic answer: harmonic oscillator, omega = %.6g rad/s, x(t) = L0 + %.6g cos(omega t) + %.6g "
                   "sin(omega t) m along the spring\n",
                   exact.omega, exact.d0, exact.v0 / exact.omega);
        else if (exact.kind == HK_ANALYTIC_PENDULUM)
            printf("analytic answer: pendulum, exact elliptic-integral solution, theta0 = %.6g rad, L = %.9g m "
                   "(rest length + m g / k), period %.9g s (small-amplitude 2 pi sqrt(L/g) = %.9g s)\n",
                   exact.theta0, exact.L, exact.period, 2 * 3.14159265358979323846 / exact.omega0);
        printf("%-20s %14s %12s %7s  %s\n", "integrator", "stable_dt_max", "omega*dt", "theory", "max_error_m@dt_min");
        for (int ki = 0; ki < nk; ki++) {
            const hk_stability_profile *P = &pr[ki];
            char lim[32], od[32];
            if (P->limit == 0) {
                snprintf(lim, sizeof lim, "<%.4g", dt_min);
                snprintf(od, sizeof od, "<%.4g", omega * dt_min);
            } else if (isinf(P->limit)) {
                snprintf(lim, sizeof lim, ">%.4g", dt_max);
                snprintf(od, sizeof od, ">%.4g", omega * dt_max);
            } else {
                snprintf(lim, sizeof lim, "%.6g", P->limit);
                snprintf(od, sizeof od, "%.4f", omega * P->limit);
            }
            /* the integrator's limit on the undamped oscillator, from its table row */
            const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)P->kind);
            char theory[16];
            printf("%-20s %14s %12s %7s  ", in->name, lim, od, hk_stability_limit_text(in, theory, sizeof theory));
            if (isnan(P->error[0]))
                printf("n/a\n");
            else
                printf("%.3e\n", P->error[0]);
        }
        /* the drift, in blocks of DRIFT_COLUMNS dt each: the table stays within 80 columns at any --points */
        printf("\nrelative energy drift per simulated second at each dt:\n");
        for (int i0 = 0; i0 < points; i0 += DRIFT_COLUMNS) {
            const int i1 = i0 + DRIFT_COLUMNS < points ? i0 + DRIFT_COLUMNS : points;
            printf("%s%-20s", i0 ? "\n" : "", "dt [s]");
            for (int i = i0; i < i1; i++) printf(" %10.4g", dts[i]);
            printf("\n");
            for (int ki = 0; ki < nk; ki++) {
                const hk_stability_profile *P = &pr[ki];
                printf("%-20s", hk_integrator_name((hk_integrator_kind)P->kind));
                for (int i = i0; i < i1; i++)
                    if (P->stable[i])
                        printf(" %+10.3e", P->drift[i]);
                    else
                        printf(" %10s", "unstable");
                printf("\n");
            }
        }
        if (out) {
            hk_outfile of; /* whole: NAME.tmp, renamed over NAME once every byte is out (a cut file was left) */
            FILE *f = hk_out_open(&of, out, "w");
            const size_t ol = strlen(out);
            const int json = ol > 5 && strcmp(out + ol - 5, ".json") == 0;
            if (!f) {
                fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, hk_out_strerror(errno));
                rc = 3;
            } else {
                int bad = 0;
                if (json) {
                    bad = write_json(f, scene, omega, &exact, pr, nk, dts, points) != 0;
                } else {
                    fprintf(f, "integrator,row,dt,omega_dt,stable,energy_drift_per_s,max_error\n");
                    for (int ki = 0; ki < nk; ki++) {
                        const hk_stability_profile *P = &pr[ki];
                        const char *name = hk_integrator_name((hk_integrator_kind)P->kind);
                        fprintf(f, "%s,limit,%.9g,%.9g,,,\n", name, P->limit, omega * P->limit);
                        for (int i = 0; i < points; i++)
                            fprintf(f, "%s,sweep,%.9g,%.9g,%d,%.9g,%.9g\n", name, dts[i], omega * dts[i], P->stable[i],
                                    P->drift[i], P->error[i]);
                    }
                }
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
            if (hk_stability_plot(plot, scene, omega, dts, points, pr, nk) != 0) {
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
    }
    free(pr);
    free(dts);
    free(job_rc);
    free(job_err);
    return rc;
}
