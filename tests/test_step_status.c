/* test_step_status.c — the engine out of memory: hk_world_step returns HK_ERR_MEMORY, every integrator stops at the
 * start. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include "hk_test.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

/* This program's aligned_alloc, which the library's calls bind to (it is
 * linked statically): while `refuse` is set it has no memory, as a machine
 * out of it. The engine takes its threads' work space from it. */
static int refuse;
void *aligned_alloc(size_t alignment, size_t size)
{
    void *p = NULL;
    if (refuse) return NULL;
    return posix_memalign(&p, alignment < sizeof(void *) ? sizeof(void *) : alignment, size) == 0 ? p : NULL;
}

/* A cloth that the engine sweeps (a lattice: its rows need each thread's work space). */
static hk_world *cloth(hk_integrator_kind kind)
{
    hk_world_def wd = hk_default_world_def();
    wd.kernels = "scalar"; /* the engine, on any CPU */
    wd.threads = 1;
    wd.full_team = 1; /* every pass on the whole team: the step on 2 threads needs thread 1's work space */
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 48;
    c.spacing = 0.02;
    c.mass = 1e-3;
    c.pins = HK_PIN_TWO_CORNERS;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    hk_test_integrator(w, kind, 1e-4);
    assert_int_equal(hk_world_optimise(w, 0), HK_OK);
    return w;
}

/* For every integrator: a step on a new team of 2 threads needs work space for thread 1; with no memory the
 * step fails with HK_ERR_MEMORY before any particle moves, stays failed, and once memory is back and the
 * integrator set again the world goes on to the bits of a twin that never failed (the same thread counts
 * give the same bits). An integrator that sweeps the springs (iterate/) needs no work space per thread: its
 * tables (the coloured springs or particles) are made at its first step, which is where memory is refused. */
static void test_engine_out_of_memory(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* one thread: the engine makes its state once, with the world's first step */
#else
    omp_set_num_threads(2);
#pragma omp parallel num_threads(2)
    { /* the OpenMP runtime's own team made now, not while memory is refused */
    }
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_kind kind = (hk_integrator_kind)k;
        hk_world *w = cloth(kind), *twin = cloth(kind);
        const int warm = hk_integrator_info_of(kind)->iterated ? 0 : 3;
        for (int s = 0; s < warm; s++) {
            assert_int_equal(hk_world_step(w), HK_OK);
            assert_int_equal(hk_world_step(twin), HK_OK);
        }
        const uint64_t before = hk_world_state_hash(w);
        assert_int_equal(hk_world_set_threads(w, 2), HK_OK);
        refuse = 1;
        const hk_status st = hk_world_step(w);
        const hk_status again = hk_world_step(w);
        refuse = 0;
        if (st != HK_ERR_MEMORY || again != HK_ERR_MEMORY || hk_world_state_hash(w) != before ||
            hk_world_step_count(w) != warm) {
            print_error("%s: step status %s then %s, state %s, %lld steps (want memory, memory, unchanged, %d): %s\n",
                        hk_integrator_name(kind), hk_status_name(st), hk_status_name(again),
                        hk_world_state_hash(w) == before ? "unchanged" : "CHANGED", (long long)hk_world_step_count(w),
                        warm, hk_world_error(w));
            fail();
        }
        assert_non_null(strstr(hk_world_error(w), "out of memory"));
        hk_blowup b;
        assert_int_equal(hk_world_check(w, 0, &b), 1);
        assert_string_equal(b.cause, "a step could not be taken (out of memory)");
        const hk_integrator_def d = hk_world_integrator(w);
        assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
        assert_int_equal(hk_world_set_integrator(twin, &d), HK_OK); /* both start any history again */
        for (int s = 0; s < 3; s++) {
            assert_int_equal(hk_world_step(w), HK_OK);
            assert_int_equal(hk_world_step(twin), HK_OK);
        }
        assert_true(hk_world_state_hash(w) == hk_world_state_hash(twin));
        hk_world_destroy(w);
        hk_world_destroy(twin);
    }
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_engine_out_of_memory)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
