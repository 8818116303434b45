/* hd.h — HK_HD marks a formula that core/device compiles for the GPU too: host and device code under nvcc. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_HD_H
#define HOOKE_HD_H

/* The formulas that the CPU engine and the device backend share (the
 * scalar instruction set of engine/simd.h, engine/spring_lanes.h, the
 * per-particle terms of engine/external.h, engine/update.h, the obstacles'
 * and the wind's per-particle steps) are plain C: gcc compiles them for the
 * host and, through its OpenMP offload, for NVIDIA's PTX as they are; nvcc
 * (C++) needs them marked as functions of both sides. Nothing in C. */
#if defined(__CUDACC__)
#define HK_HD __host__ __device__
#else
#define HK_HD
#endif

#endif
