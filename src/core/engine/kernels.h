/* kernels.h — the per-ISA kernel tables (AVX-512, AVX2, scalar) and the run-time choice among them. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_KERNELS_H
#define HOOKE_KERNELS_H

#include "kernel_table.h"

extern const hk_kernels hk_kernels_avx512;
extern const hk_kernels hk_kernels_avx2;
extern const hk_kernels hk_kernels_scalar;

/* The process default, the path of a world whose definition names none:
 * the widest the CPU and the build support (NULL for the reference path:
 * the obvious code in reference.c and integrators.c runs instead; built
 * with -DHOOKE_SIMD=OFF, NULL always), unless hk_kernels_select chose
 * another. Decided once per process. */
const hk_kernels *hk_kernels_active(void);
/* Whether this CPU can run the path `isa` ("reference", "scalar", "avx2",
 * "avx512"), built or not. */
int hk_kernels_cpu_has(const char *isa);
/* Name of the path in use: "avx512", "avx2", "scalar" or "reference". */
const char *hk_kernels_name(void);
/* The table of path `name` (NULL for the reference path) in *k; NULL or
 * "" name: the process default. 0, or -1 if the CPU or build lacks it. */
int hk_kernels_find(const char *name, const hk_kernels **k);
/* Whether a world can run path `name` (NULL or "": the default): HK_OK;
 * HK_ERR_UNSUPPORTED (a path of the engine this CPU or build lacks) or
 * HK_ERR_INVALID (no path of that name), with the reason in msg. */
int hk_kernels_check(const char *name, char *msg, size_t cap);
/* Sets the process default for the worlds created from now on whose
 * definition names no path (benchmarks, tests; a world's own path: its
 * definition's `kernels`, hk_world_set_kernels); returns 0 or -1 if the
 * CPU or build lacks it. NULL restores the automatic choice. */
int hk_kernels_select(const char *name);

#endif
