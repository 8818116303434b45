/* bench.h — the C table of benchmark cases that the Google Benchmark shim (shim.cpp) registers. */
#ifndef HOOKE_BENCH_H
#define HOOKE_BENCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One benchmark: setup builds the problem for size n on `threads` OpenMP
 * threads (NULL on failure), run does one timed iteration, items is what one
 * iteration processes (spring updates, or bytes for the triad), teardown
 * frees. sizes lists the n to run, 0-terminated. */
typedef struct hk_bench_case {
    const char *name;
    const char *unit; /* "springs", "faces", "bytes" or "instructions" */
    const int *sizes;
    void *(*setup)(int n, int threads, const char *kernels);
    void (*run)(void *state);
    int64_t (*items)(void *state);
    void (*teardown)(void *state);
    const char *const *kernels; /* kernel paths to run it with, NULL-terminated */
} hk_bench_case;

extern const hk_bench_case hk_bench_cases[];
extern const int hk_bench_case_count;

/* Cores available (thread counts 1..this are swept). */
int hk_bench_cores(void);

#ifdef __cplusplus
}
#endif
#endif
