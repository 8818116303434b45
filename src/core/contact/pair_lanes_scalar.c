/* pair_lanes_scalar.c — the pair passes of pair_lanes_isa.h compiled for the scalar instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_SCALAR
#define HK_ISA_NAME "scalar"
#include "pair_lanes_isa.h"
