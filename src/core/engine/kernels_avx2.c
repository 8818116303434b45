/* kernels_avx2.c — the kernel table of kernels_isa.h compiled for the avx2 instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_AVX2
#define HK_ISA_NAME "avx2"
#include "kernels_isa.h"
