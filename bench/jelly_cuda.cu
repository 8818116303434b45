// jelly_cuda.cu — a plain CUDA gather kernel of `hooke bench --builtin jelly`: the device's jelly's measuring peer.
// SPDX-License-Identifier: MIT
//
// The same problem as hooke's builtin jelly (src/cli/bench/builtins.c hk_bench_jelly): N^3 nodes 0.01 m apart, mass
// 1e-3 kg each, a spring to each of the 26 neighbours (k 500 N/m, damping 0.01 N*s/m along the spring, rest length
// the lattice distance), gravity 9.81 m/s^2, the spring ground at y = -0.05 m (500 N/m), semi-implicit Euler at
// dt 1e-4 s, single precision. Each node gathers its 26 springs (each spring computed by both ends, counted once),
// then integrates: deterministic, no atomics, x and v double-buffered as float4. Not bit-identical to hooke (its
// own order of operations): it measures what a plain gather issues, in spring updates a second.
//
// usage: jelly_cuda [N=64] [STEPS=300]; prints one JSON line.
// build: nvcc -O3 -arch=sm_90 -o jelly_cuda bench/jelly_cuda.cu
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        cudaError_t e_ = (x);                                                                                          \
        if (e_ != cudaSuccess) {                                                                                       \
            fprintf(stderr, "jelly_cuda: %s at line %d\n", cudaGetErrorString(e_), __LINE__);                          \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

struct Params {
    float k, c, inv_m, m, dt, g, ground_y, ground_k;
    float rest[4]; // by |di| + |dj| + |dk|: 1, 2, 3 (index 0 unused)
};

__global__ void jelly_step(int N, Params p, const float4 *__restrict__ x, const float4 *__restrict__ v,
                           float4 *__restrict__ xo, float4 *__restrict__ vo)
{
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= N * N * N) return;
    const int i = n % N, j = n / N % N, k = n / (N * N);
    const float4 xi = x[n], vi = v[n];
    float fx = 0, fy = -p.g * p.m, fz = 0;
#pragma unroll
    for (int s = 0; s < 27; s++) {
        const int di = s % 3 - 1, dj = s / 3 % 3 - 1, dk = s / 9 - 1;
        if (s == 13) continue; // the node itself
        const int a = i + di, b = j + dj, c = k + dk;
        if (a < 0 || a >= N || b < 0 || b >= N || c < 0 || c >= N) continue;
        const int o = (c * N + b) * N + a;
        const float4 xj = x[o], vj = v[o];
        const float dx = xi.x - xj.x, dy = xi.y - xj.y, dz = xi.z - xj.z;
        const float r = sqrtf(dx * dx + dy * dy + dz * dz);
        if (r <= 0) continue;
        const float inv_r = 1.f / r, ux = dx * inv_r, uy = dy * inv_r, uz = dz * inv_r;
        const float along = (vi.x - vj.x) * ux + (vi.y - vj.y) * uy + (vi.z - vj.z) * uz;
        const float mag = -(p.k * (r - p.rest[abs(di) + abs(dj) + abs(dk)]) + p.c * along);
        fx += mag * ux;
        fy += mag * uy;
        fz += mag * uz;
    }
    if (xi.y < p.ground_y) fy -= p.ground_k * (xi.y - p.ground_y);
    float4 xn = xi, vn = vi;
    vn.x += fx * p.inv_m * p.dt, vn.y += fy * p.inv_m * p.dt, vn.z += fz * p.inv_m * p.dt;
    xn.x += vn.x * p.dt, xn.y += vn.y * p.dt, xn.z += vn.z * p.dt;
    xo[n] = xn;
    vo[n] = vn;
}

int main(int argc, char **argv)
{
    const int N = argc > 1 ? atoi(argv[1]) : 64, S = argc > 2 ? atoi(argv[2]) : 300;
    if (N < 2 || S < 1) {
        fprintf(stderr, "usage: jelly_cuda [N >= 2] [STEPS >= 1]\n");
        return 2;
    }
    const float h = 0.01f;
    Params p{500.f, 0.01f, 1.f / 1e-3f, 1e-3f, 1e-4f, 9.81f, -0.05f, 500.f, {0.f, h, h * sqrtf(2.f), h * sqrtf(3.f)}};
    const size_t n = (size_t)N * N * N;
    std::vector<float4> hx(n), hv(n, make_float4(0, 0, 0, 0));
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++)
            for (int i = 0; i < N; i++) hx[((size_t)k * N + j) * N + i] = make_float4(i * h, j * h, k * h, 0);
    float4 *x[2], *v[2];
    for (int b = 0; b < 2; b++) {
        CHECK(cudaMalloc(&x[b], n * sizeof(float4)));
        CHECK(cudaMalloc(&v[b], n * sizeof(float4)));
    }
    CHECK(cudaMemcpy(x[0], hx.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(v[0], hv.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    const int block = 256, grid = (int)((n + block - 1) / block);
    int cur = 0;
    for (int w = 0; w < 20; w++, cur = 1 - cur)
        jelly_step<<<grid, block>>>(N, p, x[cur], v[cur], x[1 - cur], v[1 - cur]);
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    for (int s = 0; s < S; s++, cur = 1 - cur)
        jelly_step<<<grid, block>>>(N, p, x[cur], v[cur], x[1 - cur], v[1 - cur]);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(cudaMemcpy(hx.data(), x[cur], n * sizeof(float4), cudaMemcpyDeviceToHost));
    // springs: the 13 directions of one end, each with (N - |di|)(N - |dj|)(N - |dk|) springs
    double springs = 0;
    for (int s = 14; s < 27; s++) {
        const int di = s % 3 - 1, dj = s / 3 % 3 - 1, dk = s / 9 - 1;
        springs += (double)(N - abs(di)) * (N - abs(dj)) * (N - abs(dk));
    }
    double low = 1e30;
    for (size_t q = 0; q < n; q++) low = hx[q].y < low ? hx[q].y : low;
    printf("{\"peer\":\"cuda_jelly_gather\",\"n\":%d,\"particles\":%zu,\"springs\":%.0f,\"steps\":%d,\"wall_s\":%.6f,"
           "\"spring_updates_per_s\":%.4e,\"lowest_y\":%.6f}\n",
           N, n, springs, S, ms / 1e3, springs * S / (ms / 1e3), low);
    return 0;
}
