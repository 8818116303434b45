/* builtins.h — the builtin problems of `hooke bench`: the cloth_512 cloth and a jelly block, for weak scaling. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_BENCH_BUILTINS_H
#define HOOKE_BENCH_BUILTINS_H

#include <stddef.h>

#include "hooke/hooke.h"

/* The cloth_512 problem (scenes/cloth_512.scene) with N x N nodes, `copies` independent panels side by side along x;
 * the world made from base, its lattices deferred (shared out over MPI ranks: hk_world_defer_lattices) where defer is
 * set; its name ("cloth 512x512 (cloth_512 parameters)") into name. NULL out of memory. */
hk_world *hk_bench_cloth(const hk_world_def *base, int defer, int copies, int N, char *name, size_t len);
/* An N^3 jelly of 26 neighbours dropped on the spring ground, `copies` blocks side by side along x; as above. */
hk_world *hk_bench_jelly(const hk_world_def *base, int defer, int copies, int N, char *name, size_t len);

#endif
