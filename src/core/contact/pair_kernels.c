/* pair_kernels.c — which instruction set's pair passes a world runs: its kernel path's, none on the reference path. */
/* SPDX-License-Identifier: MIT */
#include "pair_kernels.h"

#include <string.h>

#include "kernel_table.h"
#include "kernels.h"

static const hk_pair_lanes *const tables[] = {
#ifdef HOOKE_USE_SIMD
    &hk_pair_lanes_avx512,
    &hk_pair_lanes_avx2,
#endif
    &hk_pair_lanes_scalar,
};

const hk_pair_lanes *hk_pair_lanes_named(const char *isa)
{
    for (size_t i = 0; isa && i < sizeof tables / sizeof *tables; i++)
        if (strcmp(isa, tables[i]->isa) == 0) return hk_kernels_cpu_has(isa) ? tables[i] : NULL;
    return NULL;
}

const hk_pair_lanes *hk_pair_lanes_of(const hk_world *w)
{
    return w->kernels ? hk_pair_lanes_named(w->kernels->isa) : NULL;
}

void hk_pair_lanes_use(hk_pairs *pr, const hk_pair_lanes *lanes)
{
    pr->lanes = lanes;
    pr->lanes_set = 1;
}
