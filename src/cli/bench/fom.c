/* fom.c — `hooke bench`: figure of merit, strong and weak scaling, verification, JSON. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "fom.h"

#include "bench_args.h"
#include "builtins.h"
#include "fom_json.h"
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
#include "proc_stats.h"
#include "response.h"
#include "scene.h"
#include "world.h"

void (*hk_bench_after_pass)(struct hk_world *w, int t, int T) = NULL;

/* a row whose threads waited this share of their time for a core gets a note: the machine was not hooke's own */
#define HK_BENCH_BUSY_SHARE 0.05

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

/* Whether a problem is shared out over MPI ranks as each rank builds it: its lattices deferred, each rank building
 * the rows it holds (world.h hk_world_defer_lattices); the reference path is computed whole on every rank. */
static int shared(const hk_world_def *base, int alone)
{
    return !alone && hk_mpi_ranks() > 1 && !(base->kernels && strcmp(base->kernels, "reference") == 0);
}

/* A builtin problem's edge N: --size, else cloth 512 (the cloth_512 problem), jelly 64. */
static int builtin_size(const hk_bench_opts *o)
{
    return o->size ? o->size : strcmp(o->builtin, "jelly") == 0 ? 64 : 512;
}

/* Builds the problem at `scale` (weak scaling) on `device`, for the ranks taking part (each its share:
 * hk_mpi_distribute), or whole for this process alone (alone: the reference); NULL after printing why. */
static hk_world *make_problem(const hk_bench_opts *o, int scale, int device, int alone, char *name, size_t len)
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

/* The free mass of particles [l0, l1) of body b added to *state (a relay's piece: part.h). */
static void add_free_mass(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const hk_world *w = ctx;
    const int64_t base = hk_body_base(&w->bodies[b]);
    for (int64_t l = l0; l < l1; l++)
        if (w->p.inv_mass[base + l] != 0) *(double *)state += w->p.mass[base + l];
}

/* w on `threads` threads, optimised and shared out over the MPI ranks taking part (each keeps its share); 0, or -1
 * (every rank's) with the reason printed after `what` and w destroyed. */
static int share_out(hk_world *w, int threads, const char *what)
{
    hk_world_set_threads(w, threads);
    if (hk_mpi_any(hk_world_optimise(w, 0) != 0) || hk_mpi_distribute(w) != 0) {
        fprintf(stderr, "hooke: error: bench: %s%s\n", what, hk_world_error(w));
        hk_world_destroy(w);
        return -1;
    }
    return 0;
}

/* One configuration, on the MPI ranks taking part (hk_mpi_use_ranks: `ranks` of them): build, warm up, time,
 * verify. r->times and r->cpu_times are allocated (free them also when this fails); a failure is every rank's. */
static int run_config(const hk_bench_opts *o, int ranks, int threads, int64_t *steps, int64_t *trial, hk_bench_row *r,
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
    hk_proc_reset_peak(); /* the configuration's own peak: building, warming up and the timed steps */
    hk_world *w = r->times && r->cpu_times && r->held
                      ? make_problem(o, o->weak ? threads * ranks : 1, o->device, 0, name, len)
                      : NULL;
    if (hk_mpi_any(!w)) { /* over MPI ranks: one that failed stops them all */
        if (w && hk_mpi_rank() != 0) hk_mpi_note("stopping: another rank could not build the problem");
        hk_world_destroy(w);
        return -1;
    }
    if (share_out(w, threads, "") != 0) return -1; /* the configuration's count, not the scene's or hooke's default */
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
    const double delay0 = hk_proc_run_delay(), wall0 = now_s();
    for (int rep = 0; rep < o->repeat; rep++) {
        hk_mpi_barrier(); /* over MPI ranks: every rank starts together, the slowest one's time counts */
        const double t = now_s(), cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        for (int64_t s = 0; s < *steps; s++) hk_world_step(w);
        hk_device_wait(w);
        times[rep] = hk_mpi_max_double(now_s() - t) / (double)*steps;
        r->cpu_times[rep] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu) / (double)*steps; /* this rank's */
        timed += times[rep] * (double)*steps;
    }
    const double delay1 = hk_proc_run_delay(), wall = now_s() - wall0, reps = (double)o->repeat * (double)*steps;
    const double waited = delay0 >= 0 && delay1 >= 0 ? delay1 - delay0 : -1; /* -1: no schedstat */
    r->run_delay = hk_mpi_max_double(waited >= 0 ? waited / reps : -1);
    r->run_delay_share = hk_mpi_max_double(waited >= 0 && wall > 0 ? waited / (threads * wall) : -1);
    r->halo = hk_mpi_max_double(hk_mpi_halo_seconds() - halo0) / ((double)o->repeat * (double)*steps);
    hk_proc_resident(&r->rss, &r->peak_rss); /* the largest rank's */
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

/* The same problem on the CPU, untimed: the reference hash. Over MPI ranks (unless alone) every rank of the launch
 * takes part on 1 thread, each building and holding its share, so that no rank holds the whole problem; else this
 * process alone on `threads` threads (the hash is the same for any count). A failure is every taking part's. */
static int reference_hash(const hk_bench_opts *o, int scale, int threads, int alone, int64_t total_steps,
                          uint64_t *hash)
{
    char name[256];
    const int over_ranks = !alone && hk_mpi_active();
    set_threads(over_ranks ? 1 : threads);
    hk_world *w = make_problem(o, scale, HK_DEVICE_CPU, !over_ranks, name, sizeof name); /* the CPU's bits */
    if (over_ranks ? hk_mpi_any(!w) : !w) {
        hk_world_destroy(w);
        return -1;
    }
    if (over_ranks && share_out(w, 1, "the reference run: ") != 0) return -1;
    for (int64_t s = 0; s < total_steps; s++) hk_world_step(w);
    *hash = hk_world_state_hash(w); /* over MPI ranks relayed to rank 0, piece by piece in particle order */
    hk_world_destroy(w);
    return 0;
}

/* Writes one JSON output through write (into FILE.tmp, renamed over FILE); HK_BENCH_OK or HK_BENCH_IO with the message
 * printed.
 */
static int write_output(const char *path, int (*write)(FILE *, const hk_bench_report *), const hk_bench_report *rep)
{
    hk_outfile out;
    FILE *f = hk_out_open(&out, path, "w");
    if (!f) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", path, hk_out_strerror(errno));
        return HK_BENCH_IO;
    }
    const int ok = write(f, rep) == 0;
    if (hk_out_close(&out, ok) != 0 || !ok) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", path,
                ok ? hk_out_strerror(errno) : "malformed JSON (a bug)");
        return HK_BENCH_IO;
    }
    return HK_BENCH_OK;
}

/* The references of a run's rows: the state_hash of the problem at each scale met, on 1 thread of each of the
 * launch's ranks (one process without an MPI launcher). */
typedef struct references {
    int n;
    int scale[HK_BENCH_MAX_COUNTS * HK_BENCH_MAX_COUNTS];
    uint64_t hash[HK_BENCH_MAX_COUNTS * HK_BENCH_MAX_COUNTS];
} references;

/* A row's reference hash into *ref (rank 0 verifies): a row of the launch's ranks on 1 thread is its own, else one
 * found before for the same scale, else the reference run computes it (reference_hash: every rank of the launch on 1
 * thread; a GPU row's, the CPU's hash, on rank 0 alone on every core). Every rank decides alike (the row's rank and
 * thread counts are every rank's, its device rank 0's); a failure is every rank's. */
static int row_reference(const hk_bench_opts *o, references *refs, const hk_bench_row *x, int64_t total, uint64_t *ref)
{
    const int scale = o->weak ? x->ranks * x->threads : 1; /* weak scaling: ranks x threads copies */
    const int gpu = hk_mpi_share_int(x->gpu);
    int k = 0;
    while (k < refs->n && refs->scale[k] != scale) k++;
    if (gpu) k = refs->n; /* a GPU's row: the CPU's hash, computed (a GPU row is no reference) */
    int failed = 0;
    if (x->ranks == hk_mpi_launch_ranks() && x->threads == 1 && !gpu)
        *ref = x->hash;
    else if (k < refs->n)
        *ref = refs->hash[k];
    else if (!gpu)
        failed = reference_hash(o, scale, 1, 0, total, ref) != 0;
    else if (hk_mpi_rank() == 0)
        failed = reference_hash(o, scale, hk_topology_cores(), 1, total, ref) != 0; /* sooner */
    if (k == refs->n) {
        refs->scale[k] = scale;
        refs->hash[k] = *ref;
        refs->n++;
    }
    return hk_mpi_max(failed) ? -1 : 0;
}

/* Every rank's lifetime peak of resident memory (VmHWM over every configuration and reference run) into
 * rep->lifetime_peak, gathered to rank 0, which prints them; -1 (every rank's) when out of memory. */
static int lifetime_peaks(hk_bench_report *rep, int launch)
{
    int *kib = calloc((size_t)launch, sizeof *kib);
    rep->lifetime_peak = calloc((size_t)launch, sizeof *rep->lifetime_peak);
    if (hk_mpi_any(!kib || !rep->lifetime_peak)) {
        fprintf(stderr, "hooke: error: bench: out of memory\n");
        free(kib);
        return -1;
    }
    const double peak = hk_proc_lifetime_peak();
    kib[hk_mpi_rank()] = isnan(peak) ? -1 : (int)(peak / 1024); /* KiB: an int holds 2 TiB */
    hk_mpi_max_ints(kib, launch);
    rep->nlifetime_peak = launch;
    printf("memory: lifetime peak (VmHWM, the reference runs included)");
    for (int k = 0; k < launch; k++) {
        rep->lifetime_peak[k] = kib[k] < 0 ? NAN : 1024.0 * kib[k];
        if (launch > 1) printf("%s rank %d", k ? "," : ":", k);
        printf("%s %.4g MiB", launch > 1 ? "" : ":", rep->lifetime_peak[k] / 1048576);
    }
    printf("\n");
    free(kib);
    return 0;
}

/* The configurations' runs (every rank count x every thread count), verification and outputs; the machine and the
 * build as read at the start. Over MPI ranks, each configuration runs on the launch's first ranks (rank 0, which
 * prints and verifies, always among them); the others wait. */
static int bench(const hk_bench_opts *o, hk_bench_report *rep, hk_bench_row *r)
{
    char name[4096] = "";
    int64_t steps = o->steps, trial = 0; /* trial: the steps that chose S (warm-up steps, in every configuration) */
    const int over_ranks = hk_mpi_active(), launch = hk_mpi_launch_ranks();
    const int nrows = o->nranks * o->ncounts;
    references *refs = malloc(sizeof *refs);
    if (!refs) {
        fprintf(stderr, "hooke: error: bench: out of memory\n");
        return HK_BENCH_INPUT;
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
            return HK_BENCH_INPUT;
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
            return HK_BENCH_INPUT;
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
        if (r[i].run_delay >= 0)
            printf("         run delay: the threads waited %.4g ms a step for a core, %.1f%% of their time (schedstat; "
                   "the largest rank's)\n",
                   1e3 * r[i].run_delay, 100 * r[i].run_delay_share);
        else
            printf("         run delay: not known (this kernel keeps no schedstat)\n");
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
    if (lifetime_peaks(rep, launch) != 0) return HK_BENCH_INPUT;
    char ref_name[48] = "1-thread"; /* what the reference ran on */
    if (launch > 1) snprintf(ref_name, sizeof ref_name, "%d-rank 1-thread", launch);
    int valid = 1, best = 0;
    for (int i = 0; i < nrows; i++) {
        const int hash_ok = r[i].hash == r[i].ref_hash, energy_ok = hk_bench_energy_ok(&r[i]);
        if (!hash_ok || !energy_ok || r[i].blew_up) valid = 0;
        char rk[32] = "";
        if (over_ranks) snprintf(rk, sizeof rk, "ranks=%d ", r[i].ranks);
        printf("verify %sthreads=%d: state_hash %s the %s hash 0x%016" PRIx64 "; energy %.6g J -> %.6g J (%s)%s%s\n",
               rk, r[i].threads, hash_ok ? "equals" : "DIFFERS FROM", r[i].gpu ? "CPU's" : ref_name, r[i].ref_hash,
               r[i].e_start, r[i].e_end, energy_ok ? "within bound" : "GREW PAST BOUND",
               r[i].blew_up ? "; BLEW UP: " : "", r[i].blew_up ? r[i].blowup : "");
        if (r[i].fom > r[best].fom) best = i;
    }
    printf(
        "energy bound: E_end <= E_start + 0.1 * (|E_start| + |KE_end| + |PE_end| + |SE_end|) + 1 mJ/kg * free mass\n");
    for (int i = 0; i < nrows; i++)
        if (r[i].run_delay_share >= HK_BENCH_BUSY_SHARE)
            printf("note: at threads=%d the threads waited %.1f%% of their time for a core: other programs had the "
                   "machine's cores, so that row's time and efficiency are the machine's, not hooke's\n",
                   r[i].threads, 100 * r[i].run_delay_share);
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
    int rc = HK_BENCH_OK; /* over MPI ranks: rank 0 writes the files, and its status is every rank's */
    if (o->json && hk_mpi_rank() == 0) rc = write_output(o->json, hk_bench_write_json, rep);
    if (o->gbench && rc == HK_BENCH_OK && hk_mpi_rank() == 0) rc = write_output(o->gbench, hk_bench_write_gbench, rep);
    rc = hk_mpi_share_int(rc);
    rep->problem = NULL; /* name goes out of scope */
    rep->device = NULL;
    if (rc != HK_BENCH_OK) return rc;
    return valid ? HK_BENCH_OK : HK_BENCH_INVALID;
}

int hk_cmd_bench(int argc, char **argv)
{
    hk_bench_opts o;
    int rc = hk_bench_parse(argc, argv, &o);
    if (rc == HK_BENCH_HELP) return HK_BENCH_OK;
    if (rc != HK_BENCH_OK) return rc;

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
        return HK_BENCH_INPUT;
    }
    rep.rows = r;
    rc = bench(&o, &rep, r);
    free(rep.lifetime_peak);
    for (int i = 0; i < nrows; i++) {
        free(r[i].times);
        free(r[i].cpu_times);
        free(r[i].held);
    }
    free(r);
    hk_topology_free(&machine);
    return rc;
}
