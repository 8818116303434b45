// gpu_triad.cu — the device's memory bandwidth: a = b + s c over three arrays of floats, timed with CUDA events.
// SPDX-License-Identifier: MIT
//
// bench/device_check.sh runs it beside hooke's GPU steps: a step's bytes over the triad's rate is the floor the
// jelly's target is measured against (docs/performance-notes.md, "The lent machine's GPU"). Bytes count what the
// kernel asks for: two arrays read and one written per element. Prints one JSON line.
// usage: gpu_triad [MiB per array, default 1024] [launches, default 20]
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "gpu_triad: %s: %s\n", #x, cudaGetErrorString(e_));                                        \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

__global__ void fill(float *a, size_t n, float v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = v + (float)(i % 1024) * 1e-3f; // not zeros: a kernel may run faster on them
}

__global__ void triad(float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ c, float s,
                      size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv)
{
    const size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 1024;
    const int launches = argc > 2 ? atoi(argv[2]) : 20;
    const size_t n = mib * 1024 * 1024 / sizeof(float);
    float *a, *b, *c;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMalloc(&b, n * sizeof(float)));
    CK(cudaMalloc(&c, n * sizeof(float)));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = sms * 8, threads = 512;
    fill<<<blocks, threads>>>(a, n, 0.5f);
    fill<<<blocks, threads>>>(b, n, 1.5f);
    fill<<<blocks, threads>>>(c, n, 2.5f);
    for (int w = 0; w < 3; w++) triad<<<blocks, threads>>>(a, b, c, 3.0f, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    float best = 1e30f, total = 0;
    for (int k = 0; k < launches; k++) {
        CK(cudaEventRecord(t0));
        triad<<<blocks, threads>>>(a, b, c, 3.0f, n);
        CK(cudaEventRecord(t1));
        CK(cudaEventSynchronize(t1));
        float ms;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        if (ms < best) best = ms;
        total += ms;
    }
    CK(cudaGetLastError());
    const double bytes = 3.0 * (double)n * sizeof(float);
    printf("{\"probe\":\"gpu_triad\",\"mib_per_array\":%zu,\"launches\":%d,\"best_GB_per_s\":%.1f,"
           "\"mean_GB_per_s\":%.1f}\n",
           mib, launches, bytes / (best * 1e-3) / 1e9, bytes / (total / launches * 1e-3) / 1e9);
    return 0;
}
