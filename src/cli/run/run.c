/* run.c — `hooke run`: a scene from its start or a checkpoint to the run's end, its outputs and the summary line. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "outfile.h"
#include "diagnosis.h"
#include "env.h"
#include "frames.h"
#include "hooke/hooke.h"
#include "mpi_ranks.h"
#include "part.h"
#include "progress.h"
#include "run_args.h"
#include "scene.h"
#include "state_io.h"
#include "stats_csv.h"
#include "topology.h"
#include "frame_thread.h"
#include "whole_frames.h"
#include "world.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- signals ------------------------------------------------------------ */

/* The signal that asked the run to stop (SIGINT, SIGTERM), or 0. The
 * handler is one-shot: a second signal of the same kind ends the process
 * at once (the outputs written so far are whole; see outfile.c). */
static volatile sig_atomic_t stop_signal = 0;

static void on_signal(int sig) { stop_signal = sig; }

static void catch_signals(struct sigaction old[2])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old[0]);
    sigaction(SIGTERM, &sa, &old[1]);
}

static void release_signals(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
}

/* ---- the run ---------------------------------------------------------- */

/* What the loop tracks, for the epilog. */
typedef struct run_state {
    hk_scene sc;
    hk_world *w;
    uint64_t digest;
    int64_t first, end, every;
    int every_chosen;   /* neither --every nor the scene gave it: about 100 outputs in the run */
    int threads_capped; /* the default thread count was lowered to fit the problem's springs */
    double stretch_limit;
    int threads;
    hk_frames *frames; /* over MPI ranks: the VTK frames, in pieces */
    hk_frame_thread
        *frame_thread;     /* a world on a device: frames written by a thread of their own (frames is then its) */
    hk_whole_frames whole; /* over MPI ranks: the formats drawn from the whole state (rank 0's copy) */
    int has_whole;
    hk_world_def base; /* the environment's tuning, which the scene's world starts from */
    hk_stats_csv stats;
    int has_stats;
    hk_energy_guard guard;
    int blew_up, io_failed;
    double output_s; /* wall time spent in the loop writing frames, stats rows and checkpoints [s] */
    int64_t last_frame;
    int stop; /* a run over MPI ranks: the stop signal as every rank agreed it (0: none) */
} run_state;

/* Phases of building a world, on a terminal (stderr, not --quiet): a line
 * while each runs, cleared when it ends (before any message), and a line
 * saying what was done when it took a second or more. */
typedef struct phase {
    hk_progress line;
    double t0;
} phase;

static void phase_begin(const run_opts *o, phase *p, const char *what)
{
    char text[160];
    snprintf(text, sizeof text, "hooke: %s ...", what);
    hk_progress_start(&p->line, !o->quiet && hk_progress_tty());
    hk_progress_draw(&p->line, text, 1);
    p->t0 = now_s();
}

/* done: what the phase did, or NULL when it failed (its message follows) */
static void phase_end(phase *p, const char *done)
{
    hk_progress_end(&p->line);
    const double el = now_s() - p->t0;
    if (done && p->line.enabled && el >= 1) fprintf(stderr, "hooke: %s in %.1f s\n", done, el);
}

/* Loads the scene, applies the overrides and the threads, and builds the
 * engine's plans. HK_EXIT_OK, or an exit status with the message printed. */
static int prolog(const run_opts *o, run_state *r)
{
    char err[1024], what[256];
#ifdef HOOKE_USE_OPENMP
    /* the team placed before the bodies are built, so that their arrays
     * are first touched by the threads that will work on them (world.c);
     * a scene's own thread count places it again below */
    int early;
    if (hk_topology_threads((int)o->threads, 0, &early, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return HK_EXIT_INPUT;
    }
    omp_set_num_threads(early);
    hk_topology_bind_threads();
#endif
    phase ph;
    phase_begin(o, &ph, "reading the scene and building its bodies");
    hk_world_def base; /* the environment's tuning (env.h) */
    if (hk_env_world_def(&base, what, sizeof what) != 0) snprintf(err, sizeof err, "hooke: error: %s", what);
    base.device = (hk_device_kind)o->device;
    r->base = base;
    /* over MPI ranks each rank builds only the rows of the lattices it holds, once the world is shared out
     * (hk_mpi_distribute); the reference path is computed whole on every rank */
    const int share = hk_mpi_ranks() > 1 && !(base.kernels && strcmp(base.kernels, "reference") == 0);
    const int unread =
        what[0] || hk_scene_load_for(o->scene, &base, share ? hk_mpi_ranks() : 1, &r->sc, err, sizeof err) != 0;
    hk_world *w = r->w = r->sc.world;
    if (!unread)
        snprintf(what, sizeof what, "built %d particles and %lld springs", w->gcount,
                 (long long)hk_world_spring_count(w));
    phase_end(&ph, unread ? NULL : what);
    if (unread) {
        fprintf(stderr, "%s\n", err);
        return HK_EXIT_INPUT;
    }
    hk_integrator_def idef = r->sc.integrator;
    if (o->dt > 0) idef.dt = o->dt;
    if (o->integrator >= 0) idef.kind = (hk_integrator_kind)o->integrator;
    phase_begin(o, &ph, "colouring the springs and planning the passes");
    const int unplanned = hk_world_set_integrator(w, &idef) != 0 || hk_world_optimise(w, 0) != 0;
    phase_end(&ph, unplanned ? NULL : "coloured the springs and planned the passes");
    if (unplanned) {
        fprintf(stderr, "hooke: error: %s: %s\n", o->scene, hk_world_error(w));
        return HK_EXIT_INPUT;
    }
#ifdef HOOKE_USE_OPENMP
    /* --threads, else OMP_NUM_THREADS, else the scene's, else the mask's cores, at most one per
     * HK_SPRINGS_PER_THREAD springs (hooke.h hk_default_threads, through topology.c) */
    if (hk_topology_threads_for((int)o->threads, hk_world_threads(w), hk_world_spring_count(w) / hk_mpi_ranks(),
                                &r->threads, &r->threads_capped, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return HK_EXIT_INPUT;
    }
    hk_world_set_threads(w, r->threads);
    if (r->threads != early) {
        omp_set_num_threads(r->threads);
        hk_topology_bind_threads();
    }
#else
    r->threads = 1;
    if (o->threads > 1 && !o->quiet) fprintf(stderr, "hooke: note: built without OpenMP; running on 1 thread\n");
#endif
    /* the run's length, output interval and stretch limit: the scene's run settings with the flags written into
     * them (--steps; --time, which the scene's steps then do not override; --every; --stretch-limit; --dt), as the
     * library plans them (hk_run_plan_of: about 100 outputs in the run where no every is given) */
    hk_run_settings rs = hk_scene_run_settings(&r->sc);
    rs.integrator = idef;
    if (o->steps || o->time > 0) rs.steps = o->steps, rs.time = o->time;
    if (o->every) rs.every = o->every;
    if (o->stretch_limit > 0) rs.stretch_limit = o->stretch_limit;
    hk_run_plan plan;
    if (hk_run_plan_of(&rs, &plan, what, sizeof what) != HK_OK) {
        if (!rs.steps && !(rs.time > 0))
            fprintf(stderr,
                    "hooke: error: %s: no run length: give --steps or --time, or 'steps' or 'time' in the run "
                    "section\n",
                    o->scene);
        else /* the run length from a time: whose */
            fprintf(stderr, "hooke: error: %s: %s%s\n", o->scene, o->time > 0 ? "--" : "the scene's ", what);
        return HK_EXIT_INPUT;
    }
    r->end = plan.steps;
    r->every = plan.every;
    r->every_chosen = !plan.every_given;
    r->stretch_limit = plan.stretch_limit;
    if ((o->checkpoint || o->restart) && hk_checkpoint_digest(o->scene, (const char *const *)r->sc.files,
                                                              r->sc.file_count, &r->digest, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return HK_EXIT_INPUT;
    }
    return HK_EXIT_OK;
}

/* The run's start once every rank holds its share: the energy bound, the initial state's check or the checkpoint.
 * Every rank runs it (the figures are reductions over the ranks: the same verdict on each); rank 0 prints. */
static int start(const run_opts *o, run_state *r)
{
    char err[1024];
    hk_world *w = r->w;
    phase ph;
    hk_energy_guard_init(&r->guard, w); /* the energy bound from step 0's state; a checkpoint carries it on */
    if (!o->restart) {                  /* a state no run could start from is the scene's error */
        if (hk_start_refused(w, r->stretch_limit, r->sc.body_line, o->scene, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return HK_EXIT_INPUT;
        }
        return HK_EXIT_OK;
    }
    phase_begin(o, &ph, "reading the checkpoint");
    const int failed = hk_checkpoint_read(w, &r->guard, r->digest, o->restart, err, sizeof err) != 0;
    const int unrestored = hk_mpi_any(failed); /* every rank reads its part: all go on, or none */
    phase_end(&ph, unrestored ? NULL : "read the checkpoint");
    if (unrestored) {
        if (failed) fprintf(stderr, "hooke: error: %s\n", err);
        if (failed && hk_mpi_rank() != 0) hk_mpi_note("error: %s", err);
        if (!failed) hk_mpi_note("stopping: another rank could not read its part of the checkpoint");
        return HK_EXIT_INPUT;
    }
    const int64_t at = hk_world_step_count(w);
    if (at >= r->end) {
        fprintf(stderr,
                "hooke: %s: the checkpoint %s is at step %lld, %s the run's end (step %lld): nothing to run. "
                "--steps and --time give where a run ends (a step or a time counted from 0), not how many steps "
                "to add: give a later end to continue\n",
                o->scene, o->restart, (long long)at, at == r->end ? "which is" : "past", (long long)r->end);
        return HK_EXIT_NOTHING;
    }
    return HK_EXIT_OK;
}

/* --device gpu or auto: where the steps run, decided now and said (core/device); HK_EXIT_OK, or HK_EXIT_INPUT with
 * what the GPU lacks or what the scene uses that a GPU does not run. */
static int device_start(const run_opts *o, hk_world *w)
{
    char why[2048];
    if (hk_world_device(w, why, sizeof why) < 0) {
        fprintf(stderr, "hooke: error: %s: --device gpu: %s\n", o->scene, why);
        return HK_EXIT_INPUT;
    }
    if (!o->quiet) fprintf(stderr, "hooke: device: %s\n", why);
    return HK_EXIT_OK;
}

/* The frame of the world's current step in every format asked for; 0, or -1 with the message in err (over MPI
 * ranks every rank's verdict). */
static int write_frames(run_state *r, char *err, size_t errlen)
{
    if (r->frame_thread)
        return hk_frame_thread_put(r->frame_thread, r->w, err, errlen); /* a failure: the frame before's */
    if (r->frames && hk_frames_write(r->frames, r->w, err, errlen) != 0) return -1;
    return r->has_whole ? hk_whole_frames_write(&r->whole, r->w, err, errlen) : 0;
}

/* Opens the frames and the stats (continuing them after a restart), after
 * checking that the files written later (the final state, the checkpoint)
 * can be written: a bad path is found before the run, not after it. The
 * run's first step has a frame and a row where an uninterrupted run has
 * them: at step 0 and on the --every grid (a restart from a checkpoint off
 * the grid writes none there; the interrupted run's are dropped). */
static int open_outputs(const run_opts *o, run_state *r)
{
    char err[1024];
    const struct {
        const char *path, *flag;
    } later[] = {{o->state_out, "--state-out"}, {o->checkpoint, "--checkpoint"}};
    int rc = HK_EXIT_OK; /* over MPI ranks: rank 0's files (the stats, the final state, a checkpoint's index) */
    for (size_t i = 0; i < sizeof later / sizeof later[0] && hk_mpi_rank() == 0; i++)
        if (later[i].path && hk_out_probe(later[i].path) != 0) {
            fprintf(stderr, "hooke: error: cannot write %s: %s (%s, checked before the run starts)\n", later[i].path,
                    hk_out_strerror(errno), later[i].flag);
            rc = HK_EXIT_IO;
            break;
        }
    const int on_grid = r->first % r->every == 0;
    if (rc == HK_EXIT_OK && o->stats && hk_mpi_rank() == 0) {
        const int bad = hk_stats_csv_open(&r->stats, o->stats, r->w, r->first, r->every, err, sizeof err);
        if (bad) {
            fprintf(stderr, "%s%s\n", bad == -2 ? "" : "hooke: error: ", err);
            rc = bad == -2 ? HK_EXIT_INPUT : HK_EXIT_IO;
        } else if (r->stats.warning[0]) {
            fprintf(stderr, "hooke: warning: %s\n", r->stats.warning);
        }
    }
    if (hk_mpi_rank() != 0) r->stats.fd = -1; /* another rank's: its rows made, not written (stats_csv.h) */
    const int mine = rc;
    rc = hk_mpi_share_int(rc);
    if (rc != mine) hk_mpi_note("stopping: rank 0 could not open its outputs (its message above)");
    if (rc != HK_EXIT_OK) return rc;
    r->has_stats = o->stats != NULL;
    if (r->has_stats && hk_mpi_share_int(r->stats.first_due)) { /* over ranks: the first row, made by every rank */
        const int failed = hk_stats_csv_row(&r->stats, r->w, NULL, err, sizeof err) != 0;
        if (failed) fprintf(stderr, "hooke: error: %s\n", err);
        if (hk_mpi_any(failed)) {
            if (!failed) hk_mpi_note("stopping: rank 0 could not open its outputs (its message above)");
            return HK_EXIT_IO;
        }
    }
    if (o->out_dir) {
        /* over MPI ranks every rank writes its piece of a VTK frame (vtk_piece.h), and rank 0 the other formats from
         * its copy of the whole world (whole_frames.h) */
        const int vtk = o->formats & (1 << 0), shared = r->w->part && r->w->part->ranks > 1;
        const int pieces = shared ? vtk : o->formats, whole = shared ? o->formats & ~vtk : 0;
        if (pieces) {
            r->frames = hk_frames_open(o->out_dir, pieces, r->first, err, sizeof err);
            if (r->frames) hk_frames_set_camera(r->frames, &o->camera);
            const int failed = !r->frames;
            if (failed) fprintf(stderr, "hooke: error: %s\n", err);
            if (failed && hk_mpi_rank() != 0) hk_mpi_note("error: %s", err);
            if (hk_mpi_any(failed)) return HK_EXIT_IO;
            if (hk_world_device(r->w, NULL, 0) == HK_DEVICE_GPU) { /* the host's cores write while the GPU steps */
                r->frame_thread = hk_frame_thread_open(r->frames, o->scene, &r->base, r->threads, err, sizeof err);
                if (!r->frame_thread && !o->quiet)
                    fprintf(stderr, "hooke: note: frames written in line, the device waiting (%s)\n", err);
            }
        }
        if (whole) {
            if (hk_whole_frames_open(&r->whole, o->scene, &r->base, o->out_dir, whole, r->first, &o->camera, err,
                                     sizeof err) != 0) {
                fprintf(stderr, "hooke: error: %s\n", err);
                return HK_EXIT_IO;
            }
            r->has_whole = 1;
        }
        if (on_grid && write_frames(r, err, sizeof err) != 0) {
            fprintf(stderr, "hooke: error: %s\n", err);
            return HK_EXIT_IO;
        }
        if (on_grid) r->last_frame = r->first;
    }
    return HK_EXIT_OK;
}

/* Whether the run stops after the step in hand: a signal, which over MPI
 * ranks every rank agrees on after each step (so all stop after the same
 * one, whichever rank the signal reached). */
static int stopping(const run_state *r) { return hk_mpi_active() ? r->stop : stop_signal; }

/* One step's checks and outputs; 0 to go on, 1 to stop. */
static int after_step(const run_opts *o, run_state *r, int64_t s, int64_t check_every, hk_progress *pr)
{
    hk_world *w = r->w;
    char err[1024];
    if (hk_world_error(w)[0]) {
        hk_progress_end(pr);
        fprintf(stderr, "hooke: error: %s\n", hk_world_error(w));
        r->blew_up = 1;
        return 1;
    }
    const int last = s == r->end || stopping(r);
    const int frame_now = o->out_dir && (s % r->every == 0 || last);
    hk_stats st; /* this step's statistics, when the check took them (the stats row reuses them) */
    int checked = 0;
    if (s % check_every == 0 || last || frame_now || hk_world_solver_stats(w).diverged) {
        hk_blowup b;
        const int bad = hk_world_check_stats(w, r->stretch_limit, &b, &st);
        checked = !bad;
        const double e = bad ? 0 : st.total;
        const int64_t substeps = hk_world_step_count(w) * hk_world_substeps(w); /* since step 0 */
        if (bad || hk_energy_runaway(&r->guard, &st, substeps)) {
            hk_progress_end(pr);
            hk_report_blowup(stderr, w, bad ? &b : NULL, &r->guard, e, substeps, o->scene, r->stretch_limit);
            if (r->frame_thread) /* the frames handed over are written first */
                hk_frame_thread_wait(r->frame_thread, &r->last_frame, err, sizeof err);
            if (o->out_dir && r->last_frame >= 0)
                fprintf(stderr, "hooke: last good frame: %s/frame_%06lld (step %lld)\n", o->out_dir,
                        (long long)r->last_frame, (long long)r->last_frame);
            r->blew_up = 1;
            return 1;
        }
    }
    const int stats_now = r->has_stats && (s % r->every == 0 || last),
              checkpoint_now = o->checkpoint_every && s % o->checkpoint_every == 0;
    /* the outputs' time, apart from the steps' (the summary line's output_s) */
    const double t_out = frame_now || stats_now || checkpoint_now ? now_s() : 0;
    if (frame_now) {
        if (write_frames(r, err, sizeof err) != 0) {
            hk_progress_end(pr);
            fprintf(stderr, "hooke: error: %s\n", err);
            r->io_failed = 1;
            return 1;
        }
        r->last_frame = s;
    }
    const int row_failed = stats_now && hk_stats_csv_row(&r->stats, w, checked ? &st : NULL, err, sizeof err) != 0;
    if (hk_mpi_any(row_failed)) { /* rank 0 writes the rows */
        hk_progress_end(pr);
        if (row_failed) fprintf(stderr, "hooke: error: %s (at step %lld)\n", err, (long long)s);
        if (!row_failed)
            hk_mpi_note("stopping after step %lld: rank 0 could not write an output (its message above)", (long long)s);
        r->io_failed = 1;
        return 1;
    }
    if (checkpoint_now && hk_checkpoint_write(w, &r->guard, r->digest, o->checkpoint, err, sizeof err) != 0) {
        hk_progress_end(pr);
        fprintf(stderr, "hooke: error: %s\n", err); /* every rank's verdict (checkpoint.h) */
        if (hk_mpi_rank() != 0) hk_mpi_note("stopping after step %lld: %s", (long long)s, err);
        r->io_failed = 1;
        return 1;
    }
    if (frame_now || stats_now || checkpoint_now) r->output_s += now_s() - t_out;
    hk_progress_update(pr, s, hk_world_time(w), hk_world_spring_updates(w), r->output_s);
    return 0;
}

/* ---- a run over MPI ranks (mpi_ranks.h) ----------------------------------------- */

/* after_step over MPI ranks: every rank agrees on a failed step and a stop
 * signal, then every rank runs after_step, whose checks and outputs are
 * reductions over the ranks and pieces each rank writes (the same verdict
 * on every rank). 0 to go on, 1 to stop. */
static int after_step_ranks(const run_opts *o, run_state *r, int64_t s, int64_t check_every, hk_progress *pr)
{
    if (!hk_mpi_active()) return after_step(o, r, s, check_every, pr);
    hk_world *w = r->w;
    const int failed = hk_world_error(w)[0] != 0;
    int agreed[2] = {failed, (int)stop_signal}; /* a failed step, a stop signal: on any rank */
    hk_mpi_max_ints(agreed, 2);
    if (agreed[0]) {
        hk_progress_end(pr);
        if (failed && hk_mpi_rank() == 0) fprintf(stderr, "hooke: error: %s\n", hk_world_error(w));
        if (failed && hk_mpi_rank() != 0) hk_mpi_note("error: %s", hk_world_error(w));
        r->blew_up = 1;
        return 1;
    }
    r->stop = agreed[1];
    if (r->stop) stop_signal = r->stop;
    return after_step(o, r, s, check_every, pr);
}

/* The summary line: the run's total steps and this process's; wall_s the
 * stepping loop, output_s the part of it spent writing outputs, and the
 * rates of this process's steps over the rest (the steps, their checks). */
static void summary(const run_opts *o, const run_state *r, double wall, int64_t updates0)
{
    const hk_world *w = r->w;
    const int64_t run = hk_world_step_count(w) - r->first;
    const double updates = (double)(hk_world_spring_updates(w) - updates0), busy = wall - r->output_s;
    char solver[320] = "", extra[96] = "";
    if (hk_integrator_info_of(hk_world_integrator(w).kind)->implicit) {
        /* the solve's work is products with the system matrix, each a pass over every spring: their rate, in
         * spring products per second, is the figure to set beside an explicit run's spring_updates_per_s */
        const hk_solver_stats st = hk_world_solver_stats(w);
        const double products = (double)st.products * (double)hk_world_spring_count(w);
        snprintf(
            solver, sizeof solver,
            " cg_iterations=%lld cg_per_step=%.1f cg_unconverged=%lld newton_per_step=%.2f newton_unconverged=%lld "
            "jacobian_products_per_s=%.4e",
            (long long)st.cg_total, run > 0 ? (double)st.cg_total / (double)run : 0.0, (long long)st.unconverged,
            run > 0 ? (double)st.solves / (double)run : 0.0, (long long)st.newton_unconverged,
            busy > 0 ? products / busy : 0.0);
    }
    if (r->first > 0) snprintf(extra, sizeof extra, " restarted_at=%lld", (long long)r->first);
    if (stop_signal && !r->blew_up) snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " interrupted=1");
    char ranks[80] = ""; /* over MPI ranks: how many (threads= is per rank), and the largest message of any rank */
    const double largest = hk_mpi_max_double(hk_mpi_largest_message()); /* every rank */
    if (hk_mpi_active()) snprintf(ranks, sizeof ranks, " ranks=%d largest_message_bytes=%.0f", hk_mpi_ranks(), largest);
    printf("hooke: scene=%s integrator=%s threads=%d%s particles=%d springs=%lld steps=%lld steps_run=%lld substeps=%d "
           "sim_time=%.6g wall_s=%.6f output_s=%.6f spring_updates_per_s=%.4e%s state_hash=0x%016" PRIx64 "%s%s\n",
           o->scene, hk_integrator_name(hk_world_integrator(w).kind), r->threads, ranks, w->gcount,
           (long long)hk_world_spring_count(w), (long long)hk_world_step_count(w), (long long)run, hk_world_substeps(w),
           hk_world_time(w), wall, r->output_s, busy > 0 ? updates / busy : 0.0, solver, hk_world_state_hash(w), extra,
           r->blew_up ? " status=BLOWUP" : "");
    fflush(stdout);
}

int hk_cmd_run(int argc, char **argv)
{
    run_opts o;
    int rc = hk_run_parse(argc, argv, &o);
    if (rc == HK_RUN_HELP) return HK_EXIT_OK;
    if (rc != HK_EXIT_OK) return rc;
    run_state r;
    memset(&r, 0, sizeof r);
    r.last_frame = -1;
    stop_signal = 0;
    signal(SIGXFSZ, SIG_IGN); /* a file size limit (ulimit -f) fails a write (EFBIG), said so, instead of killing */

    /* prolog: scene, overrides, threads, the run's end, restart, outputs */
    rc = prolog(&o, &r);
    hk_world *w = r.w;
    if (hk_mpi_active()) { /* every rank reads the scene: all start, or none (the worst status is every rank's) */
        const int worst = hk_mpi_max(rc);
        if (worst != rc) hk_mpi_note("stopping: another rank could not start the run (rank 0 prints why)");
        rc = worst;
    }
    if (rc == HK_EXIT_OK && hk_mpi_distribute(w) != 0) { /* over MPI ranks: each rank's share, and its storage */
        if (hk_mpi_rank() == 0) fprintf(stderr, "hooke: error: %s: %s\n", o.scene, hk_world_error(w));
        rc = HK_EXIT_INPUT;
    }
    if (rc == HK_EXIT_OK) rc = start(&o, &r); /* every rank: the same status */
    if (rc == HK_EXIT_OK && o.device != HK_DEVICE_CPU) rc = device_start(&o, w);
    if (rc == HK_EXIT_OK) {
        r.first = hk_world_step_count(w);
        rc = open_outputs(&o, &r); /* every rank: the same status */
    }
    if (rc != HK_EXIT_OK) {
        if (r.frame_thread)
            hk_frame_thread_close(r.frame_thread); /* and its frames */
        else
            hk_frames_close(r.frames);
        hk_whole_frames_close(&r.whole);
        hk_stats_csv_close(&r.stats, NULL, 0);
        hk_scene_free(&r.sc);
        return rc;
    }
    if (!o.quiet) {
        const int particles = w->gcount, substeps = hk_world_substeps(w);
        const long long springs = (long long)hk_world_spring_count(w);
        char outputs[96] = "";
        if ((o.out_dir || o.stats) && r.every_chosen)
            snprintf(outputs, sizeof outputs, ", outputs every %lld steps (about 100; --every N to choose)",
                     (long long)r.every);
        char fit[96] = "";
        if (r.threads_capped)
            snprintf(fit, sizeof fit, " (by default one per %d springs; --threads N to choose)", HK_SPRINGS_PER_THREAD);
        fprintf(stderr,
                "hooke: %s: %d particle%s, %lld spring%s, %s, dt %g s x %d substep%s, steps %lld to %lld, %d "
                "thread%s%s%s\n",
                o.scene, particles, particles == 1 ? "" : "s", springs, springs == 1 ? "" : "s",
                hk_integrator_name(hk_world_integrator(w).kind), hk_world_integrator(w).dt, substeps,
                substeps == 1 ? "" : "s", (long long)r.first, (long long)r.end, r.threads, r.threads == 1 ? "" : "s",
                fit, outputs);
    }

    hk_warn_unstable(stderr, w, o.scene); /* every rank (its figures are reductions); rank 0 prints */

    /* loop: step, checks, outputs; SIGINT and SIGTERM end it after the step in hand */
    const int64_t check_every = hk_check_cadence(w), updates0 = hk_world_spring_updates(w);
    hk_progress progress;
    hk_progress_begin(&progress, o.quiet, r.first, r.end, updates0);
    struct sigaction old[2];
    catch_signals(old);
    const double t0 = now_s();
    for (int64_t s = r.first + 1; s <= r.end && !stopping(&r); s++) {
        hk_world_step(w);
        if (after_step_ranks(&o, &r, s, check_every, &progress)) break;
    }
    char err[1024];
    if (r.frame_thread) { /* the run ends when its last frame is written */
        const double t_out = now_s();
        if (hk_frame_thread_wait(r.frame_thread, NULL, err, sizeof err) != 0 && !r.io_failed) {
            hk_progress_end(&progress);
            fprintf(stderr, "hooke: error: %s\n", err);
            r.io_failed = 1;
        }
        r.output_s += now_s() - t_out;
    }
    const double wall = now_s() - t0;
    hk_progress_end(&progress);
    if (hk_mpi_active()) stop_signal = r.stop;

    /* epilog: every output closed whole, the summary line, the exit status */
    if (r.frame_thread)
        hk_frame_thread_close(r.frame_thread); /* and its frames */
    else
        hk_frames_close(r.frames);
    hk_whole_frames_close(&r.whole);
    if (r.has_stats && hk_stats_csv_close(&r.stats, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        r.io_failed = 1;
    }
    r.io_failed = hk_mpi_share_int(r.io_failed); /* rank 0's stats file: every rank's exit status */
    /* over MPI ranks the state file is rank 0's, each rank's part sent to it in turn (state_io.h) */
    if (!r.blew_up && o.state_out && hk_state_write_file(w, o.state_out) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", o.state_out, hk_out_strerror(errno));
        r.io_failed = 1;
    }
    r.io_failed = hk_mpi_share_int(r.io_failed);
    if (!r.blew_up && !r.io_failed && o.checkpoint_on_exit &&
        hk_checkpoint_write(w, &r.guard, r.digest, o.checkpoint, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err); /* every rank's verdict (checkpoint.h) */
        r.io_failed = 1;
    }
    if (stop_signal && !o.quiet)
        fprintf(stderr, "hooke: %s at step %lld; the outputs are closed and whole%s\n",
                stop_signal == SIGINT ? "interrupted (SIGINT)" : "stopped (SIGTERM)", (long long)hk_world_step_count(w),
                o.checkpoint_on_exit && !r.io_failed ? " (and a checkpoint written)" : "");
    summary(&o, &r, wall, updates0);
    release_signals(old);
    rc = r.blew_up ? HK_EXIT_BLOWUP : r.io_failed ? HK_EXIT_IO : stop_signal ? 128 + (int)stop_signal : HK_EXIT_OK;
    hk_scene_free(&r.sc);
    return rc;
}
