/* pair_lanes_avx2.c — the pair passes of pair_lanes_isa.h compiled for the avx2 instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_AVX2
#define HK_ISA_NAME "avx2"
#include "pair_lanes_isa.h"
