/* kernels_isa.h — one instruction set's kernel table: the passes written once over simd.h, compiled per ISA. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_KERNELS_ISA_H
#define HOOKE_KERNELS_ISA_H

/* The including file (kernels_avx512.c, kernels_avx2.c, kernels_scalar.c)
 * defines HK_ISA_<name> and HK_ISA_NAME and is compiled with the matching
 * -m flags. The formulas (spring_lanes.h, external.h, update.h) and the
 * passes over rows, lists and particles are the same text for every ISA;
 * only simd.h's wide-float type differs. */

#include "kernel_table.h"
#include "simd.h"
#include "springs.h"

#include "external.h" /* again, now that simd.h is in: the formula */
#include "spring_lanes.h"
#include "update.h"

/* the scalar path's spring loops use the fused multiply-add instruction
 * where the CPU has it (springs.h); the SIMD files are built with -mfma */
#ifdef HK_ISA_SCALAR
#define HK_SPRING_LOOP HK_FMA_CLONES
#else
#define HK_SPRING_LOOP
#endif

#include "particle_pass.h"
#include "row_family.h"
#ifdef HK_HAS_SHIFT
#include "row_group.h"
#endif
#include "list_pass.h"
#include "row_pass.h"

#include "jacobian_lanes.h"
#include "jacobian_pass.h"
#include "level_pass.h"
#include "limit_lanes.h"
#include "xpbd_lanes.h"

#if (defined(HK_ISA_AVX2) || defined(HK_ISA_AVX512)) && !defined(HOOKE_DOUBLE)
#include "packed_pass.h"
#define HK_LIST_PACKED HK_SUFFIX(list_range_packed)
#define HK_LIST_PACK HK_SUFFIX(list_pack)
#define HK_LIST_UNPACK HK_SUFFIX(list_unpack)
#else
#define HK_LIST_PACKED NULL
#define HK_LIST_PACK NULL
#define HK_LIST_UNPACK NULL
#endif

const hk_kernels HK_SUFFIX(hk_kernels) = {
    .isa = HK_ISA_NAME,
    .width = HK_W,
    .lattice_row = HK_SUFFIX(lattice_row),
    .plan_row = HK_SUFFIX(plan_row),
    .list_range = HK_SUFFIX(list_range),
    .list_range_packed = HK_LIST_PACKED,
    .list_pack = HK_LIST_PACK,
    .list_unpack = HK_LIST_UNPACK,
    .finish_row = HK_SUFFIX(finish_row),
    .external_forces = HK_SUFFIX(external_forces),
    .integrate = HK_SUFFIX(integrate),
    .jacobian_lattice = HK_SUFFIX(jacobian_lattice),
    .jacobian_lattice_blocks = HK_SUFFIX(jacobian_lattice_blocks),
    .jacobian_list = HK_SUFFIX(jacobian_list),
    .jacobian_list_blocks = HK_SUFFIX(jacobian_list_blocks),
    .jacobian_gather = HK_SUFFIX(jacobian_gather),
    .level_residual = HK_SUFFIX(level_residual),
    .level_smooth = HK_SUFFIX(level_smooth),
    .xpbd_span = HK_SUFFIX(xpbd_span),
    .xpbd_pairs = HK_XPBD_PAIRS,
    .length2_rows = HK_SUFFIX(length2_rows),
};

#endif
