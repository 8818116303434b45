/* bench.h — the C table of benchmark cases that the Google Benchmark shim (shim.cpp) registers. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BENCH_H
#define HOOKE_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A figure a case reports beside its time (a Google Benchmark counter). */
typedef struct hk_bench_counter {
    const char *name;
    double value;
} hk_bench_counter;

/* One benchmark: setup builds the problem for size n on `threads` OpenMP
 * threads (NULL on failure), run does one timed iteration, items is what one
 * iteration processes (spring updates, or bytes for the triad), teardown
 * frees. sizes lists the n to run, 0-terminated. counters, where given,
 * writes at most max figures of the last run into out and returns how many. */
typedef struct hk_bench_case {
    const char *name;
    const char *unit; /* "springs", "faces", "bytes", "instructions" or "particle steps" */
    const int *sizes;
    void *(*setup)(int n, int threads, const char *kernels);
    void (*run)(void *state);
    int64_t (*items)(void *state);
    void (*teardown)(void *state);
    const char *const *kernels; /* kernel paths to run it with, NULL-terminated (stiff_cloth: its solver variants) */
    int (*counters)(void *state, hk_bench_counter *out, int max);
} hk_bench_case;

extern const hk_bench_case hk_bench_cases[];
extern const int hk_bench_case_count;

/* Cores available (thread counts 1..this are swept). */
int hk_bench_cores(void);
/* The OpenMP team size for the worlds and loops set up from now on. */
void hk_bench_set_threads(int threads);

/* The probes and synthetic kernels (probes.c) in the case table; the
 * instruction probes and the rows exist on x86-64 only. */
void *hk_bench_setup_triad(int n_mi, int threads, const char *kernels);
void hk_bench_run_triad(void *s);
int64_t hk_bench_triad_items(void *s);
void hk_bench_triad_free(void *s);
void *hk_bench_setup_probe_zmm_add(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_mul(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_load(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_store(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_sqrt(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_div(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_ymm_add(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_ymm_shuffle(int n, int threads, const char *kernels);
void *hk_bench_setup_probe_zmm_gather(int n, int threads, const char *kernels);
void hk_bench_run_probe(void *s);
int64_t hk_bench_probe_items(void *s);
void hk_bench_probe_free(void *s);
void *hk_bench_setup_ideal_row(int n, int threads, const char *kernels);
void hk_bench_run_ideal_row(void *s);
int64_t hk_bench_ideal_row_items(void *s);
void hk_bench_ideal_row_free(void *s);
void *hk_bench_setup_ideal_jelly(int n, int threads, const char *kernels);
void hk_bench_run_ideal_jelly(void *s);
int64_t hk_bench_ideal_jelly_items(void *s);
void *hk_bench_setup_engine_row(int n, int threads, const char *kernels);
void *hk_bench_setup_jelly_row(int n, int threads, const char *kernels);
void hk_bench_run_engine_row(void *s);
int64_t hk_bench_engine_row_items(void *s);
void hk_bench_engine_row_free(void *s);

/* The implicit solver's cases (implicit_cases.c): one product with the
 * system matrix (items: springs), HK_BENCH_CG_ITERATIONS CG iterations
 * (items: springs times iterations). */
void *hk_bench_setup_jacobian_cloth(int n, int threads, const char *kernels);
void *hk_bench_setup_jacobian_sphere(int n, int threads, const char *kernels);
void *hk_bench_setup_cg_cloth(int n, int threads, const char *kernels);
void hk_bench_run_jacobian(void *s);
void hk_bench_run_cg(void *s);
int64_t hk_bench_jacobian_items(void *s);
void hk_bench_jacobian_free(void *s);
/* The stiff-cloth sweep: 0.25 simulated s of implicit Euler on an n x n
 * stiff cloth per run (items: particle steps); counters cg_per_step,
 * unconverged and bytes_per_particle. */
void *hk_bench_setup_stiff_cloth(int n, int threads, const char *variant);
void hk_bench_run_stiff_cloth(void *s);
int64_t hk_bench_stiff_cloth_items(void *s);
int hk_bench_stiff_cloth_counters(void *s, hk_bench_counter *out, int max);
void hk_bench_stiff_cloth_free(void *s);

/* What contact costs (contact_cases.c). hk_bench_fold_world: an n x n
 * cloth folded in half on a floor collider (bench/fold.c says how), under
 * semi-implicit Euler at 2e-5 s or implicit Euler at 1/240 s, with self
 * collision by the triangle model (self HK_BENCH_FOLD_TRIANGLES), by the
 * particle model (HK_BENCH_FOLD_PARTICLES) or without; NULL with the
 * reason in err. The case: one step per run (items: particle steps) of the
 * variant "semi_implicit_self" (triangles), "semi_implicit_particles",
 * "semi_implicit_without", "implicit_self", "implicit_particles" or
 * "implicit_without", with the contact's phases per step (broad_ms,
 * forces_ms, safety_ms) and the pairs (candidates, touching) as counters. */
enum { HK_BENCH_FOLD_WITHOUT = 0, HK_BENCH_FOLD_TRIANGLES = 1, HK_BENCH_FOLD_PARTICLES = 2 };
struct hk_world *hk_bench_fold_world(int n, int threads, int implicit, int self, char *err, size_t errlen);
void *hk_bench_setup_fold(int n, int threads, const char *variant);
void hk_bench_run_fold(void *s);
int64_t hk_bench_fold_items(void *s);
int hk_bench_fold_counters(void *s, hk_bench_counter *out, int max);
void hk_bench_fold_free(void *s);

/* The solver families on the setups of the engines and papers that ship them (solver_cases.c): one frame a run of
 * scenes/cloth_hanging_xpbd.scene (the Newton engine's hanging cloth) or scenes/cloth_small_steps.scene (the "Small
 * Steps" paper's cloth) under the variant "INTEGRATOR:SUBSTEPSxSWEEPS" (items: spring updates a frame), the largest
 * r/L0 as a counter. */
void *hk_bench_setup_newton_cloth(int n, int threads, const char *variant);
void *hk_bench_setup_small_steps(int n, int threads, const char *variant);
void hk_bench_run_frame(void *s);
int64_t hk_bench_frame_items(void *s);
int hk_bench_frame_counters(void *s, hk_bench_counter *out, int max);
void hk_bench_frame_free(void *s);

#ifdef __cplusplus
}
#endif
#endif
