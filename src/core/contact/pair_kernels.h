/* pair_kernels.h — the pair passes of each instruction set (pair_lanes.h), and which of them a world runs. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_KERNELS_H
#define HOOKE_PAIR_KERNELS_H

#include "pair_lanes.h"
#include "pairs.h"

extern const hk_pair_lanes hk_pair_lanes_avx512;
extern const hk_pair_lanes hk_pair_lanes_avx2;
extern const hk_pair_lanes hk_pair_lanes_scalar;

/* The passes of world w's kernel path (its name: hk_kernels' isa), or NULL on the reference path. */
const hk_pair_lanes *hk_pair_lanes_of(const hk_world *w);
/* The passes of the path named isa ("avx512", "avx2", "scalar"), or NULL (another name, or one this build or CPU
 * lacks); the tests compare them. */
const hk_pair_lanes *hk_pair_lanes_named(const char *isa);
/* Pairs pr's forces run the passes `lanes` from now on, whatever the world's kernel path (NULL: evaluate and the
 * friction of pair_anchor.c alone, the scalar reference): the tests compare them on one world. */
void hk_pair_lanes_use(hk_pairs *pr, const hk_pair_lanes *lanes);

#endif
