// shim.cpp — the only C++ in hooke: registers the C benchmark table with Google Benchmark.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>

#include "bench.h"
#include "build_info.h"
#include "env.h"
#include "hooke/hooke.h"

static void run_case(benchmark::State &st, const hk_bench_case *c, const char *kernels)
{
    void *s = c->setup(static_cast<int>(st.range(0)), static_cast<int>(st.range(1)), kernels);
    if (!s) {
        st.SkipWithError("setup failed (out of memory or kernel path unavailable)");
        return;
    }
    for (auto _ : st) c->run(s);
    if (std::string(c->unit) == "bytes")
        st.SetBytesProcessed(st.iterations() * c->items(s));
    else
        st.SetItemsProcessed(st.iterations() * c->items(s));
    /* the OpenMP team size; "threads" is Google Benchmark's own field (threads running this loop: 1) */
    st.counters["omp_threads"] = static_cast<double>(st.range(1));
    hk_bench_counter more[8];
    const int n = c->counters ? c->counters(s, more, 8) : 0;
    for (int i = 0; i < n; i++) st.counters[more[i].name] = more[i].value;
    c->teardown(s);
}

int main(int argc, char **argv)
{
    char err[256];
    hk_world_def def;
    if (hk_env_world_def(&def, err, sizeof err) != 0) { /* never a silent default kernel path (env.h) */
        std::fprintf(stderr, "hooke_bench: error: %s\n", err);
        return 1;
    }
    const int cores = hk_bench_cores();
    for (int i = 0; i < hk_bench_case_count; i++) {
        const hk_bench_case *c = &hk_bench_cases[i];
        for (int k = 0; c->kernels[k]; k++)
            for (int s = 0; c->sizes[s]; s++)
                for (int t = 1; t <= cores; t++) {
                    std::string name = std::string(c->name) + "/" + c->kernels[k];
                    benchmark::RegisterBenchmark(name.c_str(), run_case, c, c->kernels[k])
                        ->Args({c->sizes[s], t})
                        ->ArgNames({"n", "threads"})
                        ->UseRealTime()
                        ->Unit(benchmark::kNanosecond); /* one unit for every case: >= 1 for the fastest */
                }
    }
    /* what ran: hooke's version, precision, kernel path, build and OpenMP team, in the JSON's context */
    hk_context_item context[HK_CONTEXT_ITEMS];
    hk_build_context(context);
    for (const hk_context_item &c : context) benchmark::AddCustomContext(c.key, c.value);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
