/* kernels_avx512.c — the kernel table of kernels_isa.h compiled for the avx512 instruction set. */
/* SPDX-License-Identifier: MIT */
#define HK_ISA_AVX512
#define HK_ISA_NAME "avx512"
#include "kernels_isa.h"
