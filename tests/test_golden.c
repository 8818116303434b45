/* test_golden.c — golden state hashes of every shipped scene: every kernel path the CPU has, 1, 2 and 3 threads. */
#include "hk_test.h"

#include "kernels.h"
#include "scene.h"

/*
 * Each row runs a shipped scene (its integrator, or the one named) for a few
 * steps and compares hk_world_state_hash with the value recorded here. The
 * engine paths (scalar, avx2, avx512) give the same bits as each other for
 * any thread count; the reference path (src/core/springs.c, the oracle) sums each
 * particle's spring terms in another order, so on lattice bodies it has
 * hashes of its own. Float and double builds each have their column.
 *
 * A refactoring must keep every hash. A change that alters the arithmetic
 * on purpose changes them once, here, with the reason in its commit.
 */

typedef struct golden {
    const char *scene;      /* scenes/<scene>.scene */
    const char *integrator; /* NULL: the scene's */
    int steps;
    uint64_t hash_float[2];  /* engine paths, reference path */
    uint64_t hash_double[2]; /* the same in a double build */
} golden;

// clang-format off
static const golden table[] = {
    {"billow", NULL, 60, {0x124acfdad4807a26ull, 0x2317371c36ff338bull}, {0x361fd8aff204f53eull, 0x37413ebf9d0f4c51ull}},
    {"bungee", NULL, 200, {0x520c44de4036dd96ull, 0xb74c38fea2c21059ull}, {0x11b7f9c8e260ac27ull, 0x8c2596cd4a1238f9ull}},
    {"cloth_512", NULL, 2, {0x679a9a8fe347917eull, 0x9af78816f1afde7aull}, {0x76e3032adf9f8e3eull, 0x0453c1c5aef120c8ull}},
    {"cloth_corners", NULL, 100, {0x8d390f20f590943eull, 0xd89f425ce260362bull}, {0x99d3ef9c858521a2ull, 0x77d6331e2af1ff9bull}},
    {"flag", NULL, 100, {0x4ffd5d7b2f6dbffcull, 0xfb19025d5ced309full}, {0x80cb6d1e598fb594ull, 0xe3bb028c878d0209ull}},
    {"flag_wind", NULL, 60, {0x9bd18b995470a670ull, 0x19970ff0c4089eafull}, {0x54b9a8e1e8356369ull, 0xfef0000af742ee7dull}},
    {"jelly26", NULL, 100, {0x6960003b8dbee786ull, 0x6024a9656f8fdae1ull}, {0xfcabd6802fc41cf9ull, 0xf52b9b7280b1c104ull}},
    {"jelly52", NULL, 100, {0x60e20f4c80fd3324ull, 0xc9f822eb28d82e65ull}, {0xa4cf06e8e308e414ull, 0x1b2ca1ea104335a1ull}},
    {"jelly_big", NULL, 2, {0xee3a0fa538320327ull, 0x74380f8bd31b73c8ull}, {0x66b7141c8e348159ull, 0x48db4e3601a3a14bull}},
    {"jelly_wind", NULL, 100, {0xcfc56011a9faf363ull, 0x58cd2b9e3be8ddd3ull}, {0x787423dc20f396f2ull, 0xffb182753494c207ull}},
    {"mesh_points", NULL, 200, {0xb19e3c7ff2d2a9d0ull, 0xb19e3c7ff2d2a9d0ull}, {0x44c06e94fc309e0bull, 0x44c06e94fc309e0bull}},
    {"net", NULL, 200, {0x51b7bb520cff1805ull, 0x51b7bb520cff1805ull}, {0x986a25438d44402aull, 0x986a25438d44402aull}},
    {"oscillator", NULL, 200, {0xceb1713798adff5full, 0xceb1713798adff5full}, {0x27957433d91cf607ull, 0x27957433d91cf607ull}},
    {"pendulum", NULL, 200, {0x8c8cfbd2b0abbbe1ull, 0x8c8cfbd2b0abbbe1ull}, {0x2d940ce64ae1e3acull, 0x2d940ce64ae1e3acull}},
    {"pressure_ball", NULL, 40, {0xb63a2ea15df2d750ull, 0xb63a2ea15df2d750ull}, {0x437137974852e147ull, 0x437137974852e147ull}},
    {"quad", NULL, 200, {0xf31e49f2f76fe26bull, 0xf31e49f2f76fe26bull}, {0xc09bf87d54064494ull, 0xc09bf87d54064494ull}},
    {"ring2d", NULL, 200, {0x84e9192f48e1ecc0ull, 0x84e9192f48e1ecc0ull}, {0xf7b742874ce7d9b4ull, 0xf7b742874ce7d9b4ull}},
    {"rope", NULL, 40, {0xfc4c67c3be36cbe8ull, 0x72d5667d10ded1eeull}, {0x876278fca93cc8a7ull, 0x1ca38baeea7689a3ull}},
    {"shock_absorber", NULL, 200, {0xfc70c470f06c5880ull, 0xfc70c470f06c5880ull}, {0xff13240e232328acull, 0xff13240e232328acull}},
    /* 220 steps: springs have started to tear */
    {"tearing_cloth", NULL, 220, {0x1629920e6e0aef96ull, 0x34fef3ea5cd92c07ull}, {0xabadd7836ecbbf48ull, 0x43ad4582c2c9dea6ull}},
    {"torus_asc", NULL, 40, {0x5ae099f1111f0804ull, 0x5ae099f1111f0804ull}, {0x2b7793b291dca1c2ull, 0x2b7793b291dca1c2ull}},
    /* every integrator on one lattice scene, and on list and surface bodies */
    {"jelly26", "euler", 30, {0x69dfb32350ed30e9ull, 0xf59b791850186e1dull}, {0x3ff751f878d57849ull, 0x741796743c0ab1aaull}},
    {"jelly26", "verlet", 60, {0xcaa0be465ad6881eull, 0xef5a374ab9468c19ull}, {0x4928cdcd90eae7a7ull, 0x8d44696d0edd9a4eull}},
    {"jelly26", "verlet_book", 60, {0x9172000a3f9fd6d2ull, 0x1ec808fed214eec9ull}, {0x8582afa0f58813c9ull, 0x1f5f36a3fef91aa7ull}},
    {"jelly26", "velocity_verlet", 60, {0x7782c913f86747a6ull, 0xfe63127f1ef2502aull}, {0xb3b56d1f50e41458ull, 0xec3900d32618cb7dull}},
    {"jelly26", "jelly", 60, {0xaf096707a224bad3ull, 0x39e2261e01631860ull}, {0xc9a13c5f646f5679ull, 0xe610dc2d786ba322ull}},
    {"jelly26", "rk4", 30, {0x2f55eb4776887e67ull, 0x06021662a646ec10ull}, {0xecb99f3f38a236f5ull, 0xcbc419b1ed60d6bcull}},
    {"tearing_cloth", "rk4", 210, {0x45b4c3a8063f24a3ull, 0x73b7c79e8c58f4eaull}, {0xd21d0622813f6154ull, 0x6d933b002e6c12afull}},
    {"net", "velocity_verlet", 60, {0xaff2618c7399848cull, 0xaff2618c7399848cull}, {0x1f36654a2e807705ull, 0x1f36654a2e807705ull}},
    {"rope", "verlet", 40, {0xc67442c9a1f09abeull, 0x549a3e11015b6e91ull}, {0x8ceb33a72ff531a5ull, 0xa6cfbb7dd2e3b940ull}},
    {"pressure_ball", "rk4", 10, {0xf9495ebdcbe3fd2bull, 0xf9495ebdcbe3fd2bull}, {0xeb984bd45674c096ull, 0xeb984bd45674c096ull}},
    {"cloth_corners", "jelly", 60, {0x326abb395b9b8619ull, 0xb90a568bec633223ull}, {0xb6310148468e98b6ull, 0x9d0a4ff666cad50eull}},
    /* the implicit integrators: their scenes, lattice, list, surface, ring and breakable bodies; cloth_stiff and
     * tearing_cloth through the multigrid preconditioner (cloth_512_stiff, cloth_stiff at 64 times the size, is left
     * out: a step is 0.25 s here and far longer in the sanitizer builds) */
    {"cloth_stiff", NULL, 3, {0x8061d7fbfb14a68aull, 0x52eff98312aefff4ull}, {0xdb36a1b52a380e77ull, 0x5928b1934b291792ull}},
    {"rope_implicit", NULL, 20, {0xb8a195621c0af7d3ull, 0x01da30872cb80223ull}, {0xff5cc8248b850f2bull, 0xea3b1cdbc35135d6ull}},
    {"jelly26", "implicit_euler", 10, {0x469e8d2147d1460bull, 0xcb8be2aeb66e56d3ull}, {0x074ecde7a4415a25ull, 0x109e3ad2fad6f310ull}},
    {"jelly26", "trapezoidal", 10, {0x65c60ae77af2756aull, 0x9e086d4890677c4full}, {0xf4416c197ac16c1cull, 0x5c5b254877bd666aull}},
    {"net", "trapezoidal", 20, {0xd1a78d5ce2e9224dull, 0xd1a78d5ce2e9224dull}, {0x357bf02b0a1ce714ull, 0x357bf02b0a1ce714ull}},
    {"pressure_ball", "implicit_euler", 5, {0xe77b0ae350370b09ull, 0xe77b0ae350370b09ull}, {0x81977f5067dc373bull, 0x81977f5067dc373bull}},
    {"tearing_cloth", "implicit_euler", 60, {0x5496a98191e41036ull, 0x0c609a4b6d079477ull}, {0xede19f841d0e2e41ull, 0x486dfbf6be8983d6ull}},
    {"mesh_points", "implicit_euler", 100, {0xac38d234e32569ceull, 0xac38d234e32569ceull}, {0xbcb8a913466cb3f9ull, 0xbcb8a913466cb3f9ull}},
    {"ring2d", "implicit_euler", 40, {0x7de38d184d395ac1ull, 0x7de38d184d395ac1ull}, {0x7cb2994a604fcf15ull, 0x7cb2994a604fcf15ull}},
    {"jelly52", "trapezoidal", 10, {0x3f082606308eede9ull, 0xc01d617e3dbbad26ull}, {0x8d7271ca0276594full, 0x103876836aa007f6ull}},
};
// clang-format on

static const char *const paths[] = {"reference", "scalar", "avx2", "avx512"};
#define PATHS ((int)(sizeof paths / sizeof paths[0]))

/* One row on the path in use with `threads` threads: its final state hash. */
static uint64_t run_row(const golden *g, int threads)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.scene", HOOKE_SCENES_DIR, g->scene);
    hk_scene sc;
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = sc.world;
    hk_integrator_def d = sc.integrator;
    if (g->integrator) {
        const int kind = hk_integrator_from_name(g->integrator);
        assert_true(kind >= 0);
        d.kind = (hk_integrator_kind)kind;
    }
    /* as `hooke run` does: the optimise pass colours (so reorders) list springs */
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    assert_int_equal(hk_world_optimise(w, 0), 0);
    assert_int_equal(hk_world_set_threads(w, threads), 0);
    for (int s = 0; s < g->steps; s++) hk_world_step(w);
    assert_string_equal(hk_world_error(w), "");
    const uint64_t h = hk_world_state_hash(w);
    hk_scene_free(&sc);
    return h;
}

/* Whether the build was meant to hold the SIMD paths (HOOKE_SIMD=ON). */
static int simd_built(void)
{
#ifdef HK_TEST_REFERENCE_ONLY
    return 0;
#else
    return 1;
#endif
}

static void test_golden_hashes(void **state)
{
    (void)state;
    int checked = 0;
    for (int p = 0; p < PATHS; p++) {
        if (!hk_kernels_cpu_has(paths[p])) {
            print_message("%-9s: this CPU cannot run it\n", paths[p]);
            continue;
        }
        if (hk_kernels_select(paths[p]) != 0) {
            if (!simd_built()) {
                print_message("%-9s: not in this build (HOOKE_SIMD=OFF)\n", paths[p]);
                continue;
            }
            print_error("the CPU has the %s path but this build lacks it\n", paths[p]);
            fail();
        }
        for (size_t r = 0; r < sizeof table / sizeof table[0]; r++) {
            const golden *g = &table[r];
#ifdef HOOKE_DOUBLE
            const uint64_t want = g->hash_double[p == 0];
#else
            const uint64_t want = g->hash_float[p == 0];
#endif
            for (int t = 1; t <= 3; t++) {
                const uint64_t got = run_row(g, t);
                if (got != want) {
                    print_error("%s%s%s, %d steps, %s path, %d threads: state hash 0x%016llx, golden 0x%016llx\n",
                                g->scene, g->integrator ? " with " : "", g->integrator ? g->integrator : "", g->steps,
                                paths[p], t, (unsigned long long)got, (unsigned long long)want);
                    fail();
                }
                checked++;
            }
        }
        print_message("%-9s: %d scenes x 3 thread counts agree\n", paths[p], (int)(sizeof table / sizeof table[0]));
    }
    hk_kernels_select(NULL);
    assert_true(checked >= 3 * (int)(sizeof table / sizeof table[0]));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden_hashes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
