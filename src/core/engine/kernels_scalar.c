/* kernels_scalar.c — the kernel table of kernels_isa.h compiled for the scalar instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_SCALAR
#define HK_ISA_NAME "scalar"
#include "kernels_isa.h"
