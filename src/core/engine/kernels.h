/* kernels.h — the per-ISA kernel tables (AVX-512, AVX2, scalar) and the run-time choice among them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_KERNELS_H
#define HOOKE_KERNELS_H

#include "kernel_table.h"

extern const hk_kernels hk_kernels_avx512;
extern const hk_kernels hk_kernels_avx2;
extern const hk_kernels hk_kernels_scalar;

/* The kernels in use: the widest the CPU and the build support, unless the
 * environment variable HOOKE_KERNELS names "avx512", "avx2", "scalar" or
 * "reference" (the reference path returns NULL: the obvious code in
 * reference.c and integrators.c runs instead). Built with -DHOOKE_SIMD=OFF,
 * NULL always. Decided once per process. */
const hk_kernels *hk_kernels_active(void);
/* Whether this CPU can run the path `isa` ("reference", "scalar", "avx2",
 * "avx512"), built or not. */
int hk_kernels_cpu_has(const char *isa);
/* Name of the path in use: "avx512", "avx2", "scalar" or "reference". */
const char *hk_kernels_name(void);
/* The table of path `name` (NULL for the reference path) in *k; NULL name:
 * the process default. 0, or -1 if the CPU or build lacks it. */
int hk_kernels_find(const char *name, const hk_kernels **k);
/* 0 if HOOKE_KERNELS is unset, empty or a path this CPU and build can run;
 * else -1 with "HOOKE_KERNELS=VALUE: expected ..." in err (hk_check_environment). */
int hk_kernels_env_check(char *err, size_t errlen);
/* Sets the process default for the worlds created from now on (benchmarks,
 * tests; a world's own path: hk_world_set_kernels); returns 0 or -1 if the
 * CPU or build lacks it. name as for HOOKE_KERNELS; NULL restores the
 * automatic choice. */
int hk_kernels_select(const char *name);

#endif
