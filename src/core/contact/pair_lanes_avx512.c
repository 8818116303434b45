/* pair_lanes_avx512.c — the pair passes of pair_lanes_isa.h compiled for the avx512 instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_AVX512
#define HK_ISA_NAME "avx512"
#include "pair_lanes_isa.h"
