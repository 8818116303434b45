/* test_golden.c — golden state hashes of every shipped scene: every kernel path the CPU has, 1, 2 and 3 threads. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_env.h"

#include "kernels.h"
#include "scene.h"

/*
 * Each row runs a shipped scene (its integrator, or the one named) for a few
 * steps and compares hk_world_state_hash with the value recorded here. The
 * engine paths (scalar, avx2, avx512) give the same bits as each other for
 * any thread count; the reference path (src/core/engine/reference.c, the oracle) sums each
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
    {"billow", NULL, 60, {0x33d5cf66fb0d9245ull, 0xb13cb315b16f2624ull}, {0x2c2fd52085e8f0eeull, 0xdc7e47bfa63d7816ull}},
    {"bungee", NULL, 200, {0x14f56c7b371d05bbull, 0x14f56c7b371d05bbull}, {0xf4ab0c4acfef52cdull, 0xf4ab0c4acfef52cdull}},
    {"cloth_512", NULL, 2, {0xa2cc1bf1114abcd7ull, 0xa2cc1bf1114abcd7ull}, {0xe9d806189d46064cull, 0xe9d806189d46064cull}},
    {"cloth_corners", NULL, 100, {0x4c15c09597135b79ull, 0x923ace0762603b23ull}, {0x27e65b321548bf3eull, 0x29a13b1be094e250ull}},
    {"flag", NULL, 100, {0x274c73bf379e3124ull, 0x6f92705ef4320360ull}, {0xd72589a7b6d16762ull, 0xdcb2e07b77d9447dull}},
    {"flag_wind", NULL, 60, {0xa6a0ea1044a6d714ull, 0x755b75ed3ef76d0bull}, {0x74b731d2bc032cdeull, 0x88ea7b1adc9b35ccull}},
    {"jelly26", NULL, 100, {0xe9ae58ac59cf8a03ull, 0xe9ae58ac59cf8a03ull}, {0x810ca19b456bd203ull, 0x810ca19b456bd203ull}},
    {"jelly52", NULL, 100, {0x8dc1f7c9d05a6283ull, 0x8dc1f7c9d05a6283ull}, {0xe0062cf70dbbb103ull, 0xe0062cf70dbbb103ull}},
    {"jelly_big", NULL, 2, {0x5db7ac59f1570983ull, 0x5db7ac59f1570983ull}, {0x23b8514101196f83ull, 0x23b8514101196f83ull}},
    {"jelly_wind", NULL, 100, {0x684aa17ce6e077fdull, 0xce7a24019446c2ffull}, {0x4567f7ddf9fba545ull, 0x88a61c7927684b09ull}},
    {"mesh_points", NULL, 200, {0xbf298a657cd0dd6dull, 0xbf298a657cd0dd6dull}, {0x5ce1246355bfff03ull, 0x5ce1246355bfff03ull}},
    {"net", NULL, 200, {0x58df6b0d654aed38ull, 0x58df6b0d654aed38ull}, {0xf4c98ac291c76fa1ull, 0xf4c98ac291c76fa1ull}},
    {"oscillator", NULL, 200, {0x93fa23c349c73bd4ull, 0x93fa23c349c73bd4ull}, {0x27957433d91cf607ull, 0x27957433d91cf607ull}},
    {"pendulum", NULL, 200, {0xf395ad697d4b8978ull, 0xf395ad697d4b8978ull}, {0x78d3c2e6526dbdaaull, 0x78d3c2e6526dbdaaull}},
    {"pressure_ball", NULL, 40, {0xa0f750b1b68b9ba8ull, 0xa0f750b1b68b9ba8ull}, {0x9cb11970440a9b7bull, 0x9cb11970440a9b7bull}},
    {"quad", NULL, 200, {0x2d9f370f3616e05cull, 0x2d9f370f3616e05cull}, {0x31bfc678a6e020bcull, 0x31bfc678a6e020bcull}},
    {"ring2d", NULL, 200, {0x678e4361ddff7349ull, 0x678e4361ddff7349ull}, {0x741c5dfe19498485ull, 0x741c5dfe19498485ull}},
    {"rope", NULL, 40, {0xe4e0cb7359b489f7ull, 0x14b979549cdaad68ull}, {0x636b16b62948f646ull, 0xb62a50956e3c1b7dull}},
    {"shock_absorber", NULL, 200, {0xfc93218e3f01a747ull, 0xfc93218e3f01a747ull}, {0x2b30a77c2439f189ull, 0x2b30a77c2439f189ull}},
    /* 220 steps: springs have started to tear */
    {"tearing_cloth", NULL, 220, {0xb051ce21d5789a8eull, 0x6534b94378c5a6d4ull}, {0xe181e252e4058fbbull, 0x4058b5e89b67d67bull}},
    {"torus_asc", NULL, 40, {0x03eaada87f14afd5ull, 0x03eaada87f14afd5ull}, {0xfce85a52c19771a6ull, 0xfce85a52c19771a6ull}},
    /* every integrator on one lattice scene, and on list and surface bodies */
    {"jelly26", "euler", 30, {0x3290da933c11d203ull, 0x3290da933c11d203ull}, {0x4033f2dccf781a83ull, 0x4033f2dccf781a83ull}},
    {"jelly26", "verlet", 60, {0x9a8ff6e41c314003ull, 0x9a8ff6e41c314003ull}, {0xb68865d5d293c603ull, 0xb68865d5d293c603ull}},
    {"jelly26", "verlet_book", 60, {0x9cce49955ed95403ull, 0x9cce49955ed95403ull}, {0x767f753908a62d03ull, 0x767f753908a62d03ull}},
    {"jelly26", "velocity_verlet", 60, {0x4956f0135adcd803ull, 0x4956f0135adcd803ull}, {0x6e131c9ef2956003ull, 0x6e131c9ef2956003ull}},
    {"jelly26", "jelly", 60, {0x025d29127f933c83ull, 0x025d29127f933c83ull}, {0xb79ba6748ab3b203ull, 0xb79ba6748ab3b203ull}},
    {"jelly26", "rk4", 30, {0xb7bbf4c69d062303ull, 0xb7bbf4c69d062303ull}, {0x9834fa096eec8483ull, 0x9834fa096eec8483ull}},
    {"tearing_cloth", "rk4", 210, {0xc47731db0b915969ull, 0xa6b1964fc6078867ull}, {0x752b10ad26e1ee4dull, 0xee221bf940de1385ull}},
    {"net", "velocity_verlet", 60, {0x0cee3fe488ad054dull, 0x0cee3fe488ad054dull}, {0xb3ba5ed4c5e49fe3ull, 0xb3ba5ed4c5e49fe3ull}},
    {"rope", "verlet", 40, {0x2b61e5688ee54ff5ull, 0x8ed31031173f8530ull}, {0x7247d71b5d110d77ull, 0x68ef13f154134993ull}},
    {"pressure_ball", "rk4", 10, {0xf3bb1a7daf2b3c8cull, 0xf3bb1a7daf2b3c8cull}, {0x424caab0547f2181ull, 0x424caab0547f2181ull}},
    {"cloth_corners", "jelly", 60, {0x1a0087b7afe32bacull, 0xc1d8fa866f60aa5dull}, {0xc1b3bf97a33ce3b0ull, 0xc438de6afb207885ull}},
    /* the implicit integrators: their scenes, lattice, list, surface, ring and breakable bodies; cloth_stiff and
     * tearing_cloth through the multigrid preconditioner (cloth_512_stiff, cloth_stiff at 64 times the size, is left
     * out: a step is 0.25 s here and far longer in the sanitizer builds) */
    {"cloth_stiff", NULL, 3, {0x76a3c8d5360cf494ull, 0xc6a9e014db5fe06dull}, {0x58cae948f85966ebull, 0xb6ee0140c8972b6full}},
    {"rope_implicit", NULL, 20, {0xb0c2dd8b1412567bull, 0x16ae9b2dfd370ebdull}, {0x5f6e9754cc8542a4ull, 0xbc995a18fb0d8f2cull}},
    {"jelly26", "implicit_euler", 10, {0xf3a46c4c25dcf81aull, 0xf3a46c4c25dcf81aull}, {0x74953475fc40dde2ull, 0x74953475fc40dde2ull}},
    {"jelly26", "bdf2", 10, {0xafc7066c4d628651ull, 0xafc7066c4d628651ull}, {0x3d2b82a415fcd5d8ull, 0x3d2b82a415fcd5d8ull}},
    {"mesh_points", "bdf2", 100, {0x31bc92e811e0ebdcull, 0x31bc92e811e0ebdcull}, {0xa0ce8f19b186142cull, 0xa0ce8f19b186142cull}},
    {"jelly26", "trapezoidal", 10, {0xdd229ddf7e33c847ull, 0xdd229ddf7e33c847ull}, {0xcd68382a57e92530ull, 0xcd68382a57e92530ull}},
    {"net", "trapezoidal", 20, {0x1147086edf1dcf45ull, 0x1147086edf1dcf45ull}, {0xc78a440b4c2d3630ull, 0xc78a440b4c2d3630ull}},
    {"pressure_ball", "implicit_euler", 5, {0x9ae190ed1d683371ull, 0x9ae190ed1d683371ull}, {0x4e5ea79a4e3e28c5ull, 0x4e5ea79a4e3e28c5ull}},
    {"tearing_cloth", "implicit_euler", 60, {0xc92ecf95e3fe8ca2ull, 0x4f1d456bf2f29912ull}, {0x941cd8c61253125aull, 0x17563d81bdeb568full}},
    {"mesh_points", "implicit_euler", 100, {0x17f191b3eadc03d1ull, 0x17f191b3eadc03d1ull}, {0x573a0c96f4020805ull, 0x573a0c96f4020805ull}},
    {"ring2d", "implicit_euler", 40, {0x215443ee22d47644ull, 0x215443ee22d47644ull}, {0xa56559953e84ac01ull, 0xa56559953e84ac01ull}},
    {"jelly52", "trapezoidal", 10, {0x5c098d87cdd8953full, 0x5c098d87cdd8953full}, {0xab19df64090f7ab5ull, 0xab19df64090f7ab5ull}},
    /* colliders: a box and a turning capsule under the explicit schemes and backward Euler (the cloth lies in the
     * box's contact layer from the first step), and the table mesh, ball and floor of cloth_drape (an implicit step,
     * 65536 particles: the contact passes on the team) */
    {"cloth_box", NULL, 24, {0xfb65970f3a21e277ull, 0x176c468f92117493ull}, {0x1021c2b898914372ull, 0x520fcd1060f2225dull}},
    {"cloth_box", "verlet", 12, {0x4ca6005df763294eull, 0x01e9442765a7906bull}, {0xf153d3826efb6ba9ull, 0x28b66a21ee8cf17cull}},
    {"cloth_box", "velocity_verlet", 12, {0xab5f2f6140285f28ull, 0xe9a911dba949f83full}, {0x294463a91d2911f2ull, 0xfcf1b19ceb529bc7ull}},
    {"cloth_box", "rk4", 6, {0xae0697bb7b7ffbd7ull, 0xcb155af8221de6b1ull}, {0xc8dadbc59947f4b8ull, 0x5d8062025f57ec9eull}},
    {"cloth_box", "jelly", 12, {0x91c8aa1b04b2b55cull, 0xa513355d78ed6dbeull}, {0x55af8ff7915d8123ull, 0x12fba83a5d6fac4aull}},
    {"cloth_box", "implicit_euler", 3, {0xd37f5e84e3204091ull, 0xcdf644253ea13eafull}, {0x8d9e88398a8ff2d0ull, 0x0e506cfd8ee3fb3full}},
    {"cloth_box", "bdf2", 6, {0x6e539823c0971332ull, 0x2773e858c1e008e1ull}, {0xbbf69bbe8ea26021ull, 0x6403e2c0c8044514ull}},
    {"cloth_drape", NULL, 1, {0xf6c309c6649c098dull, 0x18d308d4da06c6b1ull}, {0xc05b931cdd8f7212ull, 0xecde2139d4ae5f6aull}},
    /* strain limits and tethers (src/core/fabric): the hung sheet of hang, its shear springs past the limit from
     * step 2 (its chains on the team), its tethers from step 2, its gravity schedule */
    {"hang", NULL, 8, {0xe583df446bbb2b94ull, 0x259de782cdff7956ull}, {0x24214509371e33b4ull, 0x50e5c30dfb6c2298ull}},
    /* contact between bodies and within one (src/core/contact/pairs.h): the strip of cloth_fold has begun to fold
     * onto itself by step 55 (self collision, semi-implicit Euler), the cubes of jelly_pile meet by step 25 (body
     * against body, implicit Euler: the pairs' blocks in the solve) */
    {"cloth_fold", NULL, 70, {0x3be8ecea836b92dbull, 0xd119092897012bf9ull}, {0xc66f7ec04c91a936ull, 0x19df827aca93f4e5ull}},
    /* the particle model of contact (particle_pairs.c): cloth_fold's strip, its particles as spheres, has begun to
     * fold onto itself by step 60, under semi-implicit Euler and under implicit Euler (the pairs' blocks) */
    {"cloth_fold_particles", NULL, 70, {0xca62823a7b13744cull, 0xc602deff07b9f68aull}, {0x67d5e20e9390b01full, 0xf46f532b05d56a23ull}},
    {"cloth_fold_particles", "implicit_euler", 70, {0xc79f1959828d9c9eull, 0x51482ab6b7e80966ull}, {0xdfa473655ed933a7ull, 0x606cf33ade0736e1ull}},
    {"jelly_pile", NULL, 40, {0x7286ff504cc8f5baull, 0x3b5a0980a5d23b68ull}, {0x5c3194117b921dc4ull, 0x022e81cfaa8d72aaull}},
    /* xpbd on every kind of spring family: lattice (jelly26; cloth_512 and jelly_big, whose colours hold more than
     * HK_PARALLEL_MIN springs: on the team), list (mesh_points, net), surface (pressure_ball), tension-only with
     * relative damping (bungee), compression-only (shock_absorber), breakable (tearing_cloth), a collider (cloth_box) */
    {"jelly26", "xpbd", 30, {0xb01e3546f224d783ull, 0xb01e3546f224d783ull}, {0x61c6905f2fe20803ull, 0x61c6905f2fe20803ull}},
    {"cloth_512", "xpbd", 2, {0x56605ce569167515ull, 0x56605ce569167515ull}, {0x736d3a4a3298848eull, 0x736d3a4a3298848eull}},
    {"jelly_big", "xpbd", 2, {0x52f86f42c2fd3b83ull, 0x52f86f42c2fd3b83ull}, {0x4a3401991a509b83ull, 0x4a3401991a509b83ull}},
    {"mesh_points", "xpbd", 100, {0xc968c76323fe2cbcull, 0xc968c76323fe2cbcull}, {0x79762488bbecf68cull, 0x79762488bbecf68cull}},
    {"net", "xpbd", 100, {0xbc3d9fcac375bf49ull, 0xbc3d9fcac375bf49ull}, {0x00d1bcb928e3738eull, 0x00d1bcb928e3738eull}},
    {"pressure_ball", "xpbd", 20, {0x215c4e4c38723e93ull, 0x215c4e4c38723e93ull}, {0xb8bb5c068b516b77ull, 0xb8bb5c068b516b77ull}},
    {"bungee", "xpbd", 200, {0x5cfa5375c10c609aull, 0x5cfa5375c10c609aull}, {0x5823326113ea37c9ull, 0x5823326113ea37c9ull}},
    {"shock_absorber", "xpbd", 200, {0x16b5b8047dc4a044ull, 0x16b5b8047dc4a044ull}, {0x2b30a77c2439f189ull, 0x2b30a77c2439f189ull}},
    {"tearing_cloth", "xpbd", 220, {0xe6c927e74bb62dceull, 0xe6c927e74bb62dceull}, {0x481e494bf451bb68ull, 0x481e494bf451bb68ull}},
    {"cloth_box", "xpbd", 12, {0xc0f96b3eae0d6b48ull, 0xc0f96b3eae0d6b48ull}, {0x0b618f75734ef6a6ull, 0x0b618f75734ef6a6ull}},
    /* vbd on the same families (its colours on the team: tests/test_vbd.c) */
    {"jelly26", "vbd", 30, {0xb01e3546f224d783ull, 0xb01e3546f224d783ull}, {0x61c6905f2fe20803ull, 0x61c6905f2fe20803ull}},
    {"mesh_points", "vbd", 100, {0xc2acc0b7e36d1593ull, 0xc2acc0b7e36d1593ull}, {0x13646f6a92df0b89ull, 0x13646f6a92df0b89ull}},
    {"net", "vbd", 100, {0x959f5814f7c84d71ull, 0x959f5814f7c84d71ull}, {0x7f19ad7d9ff1355bull, 0x7f19ad7d9ff1355bull}},
    {"pressure_ball", "vbd", 20, {0xaccc835f8e5869c6ull, 0xaccc835f8e5869c6ull}, {0xbc1d6fafc5fd4c0aull, 0xbc1d6fafc5fd4c0aull}},
    {"bungee", "vbd", 200, {0xf55a4c06d78d9693ull, 0xf55a4c06d78d9693ull}, {0x66b2d225bd1bec1full, 0x66b2d225bd1bec1full}},
    {"shock_absorber", "vbd", 200, {0x16b5b8047dc4a044ull, 0x16b5b8047dc4a044ull}, {0x2b30a77c2439f189ull, 0x2b30a77c2439f189ull}},
    {"tearing_cloth", "vbd", 170, {0xe58b1f2ee4776dbbull, 0xe58b1f2ee4776dbbull}, {0xd68596fdbe155332ull, 0xd68596fdbe155332ull}},
    {"cloth_box", "vbd", 3, {0xdf0ad9099e9951f2ull, 0xdf0ad9099e9951f2ull}, {0xd64a7fd11ded9676ull, 0xd64a7fd11ded9676ull}},
    /* projective dynamics on the same families (its passes on the team: tests/test_pd.c) */
    {"jelly26", "projective_dynamics", 30, {0xb01e3546f224d783ull, 0xb01e3546f224d783ull}, {0x61c6905f2fe20803ull, 0x61c6905f2fe20803ull}},
    {"mesh_points", "projective_dynamics", 100, {0xd1a5496b9638c8d8ull, 0xd1a5496b9638c8d8ull}, {0x50f68e9f83a2287eull, 0x50f68e9f83a2287eull}},
    {"net", "projective_dynamics", 100, {0x197fb16faaa86a78ull, 0x197fb16faaa86a78ull}, {0xc4f2fe9d9be90087ull, 0xc4f2fe9d9be90087ull}},
    {"pressure_ball", "projective_dynamics", 20, {0x3e4a4a175089af85ull, 0x3e4a4a175089af85ull}, {0x5432c94badc5fe81ull, 0x5432c94badc5fe81ull}},
    {"bungee", "projective_dynamics", 200, {0x8493dda57919a0d1ull, 0x8493dda57919a0d1ull}, {0x9d4a2ad6c3681008ull, 0x9d4a2ad6c3681008ull}},
    {"shock_absorber", "projective_dynamics", 200, {0x16b5b8047dc4a044ull, 0x16b5b8047dc4a044ull}, {0x2b30a77c2439f189ull, 0x2b30a77c2439f189ull}},
    {"tearing_cloth", "projective_dynamics", 170, {0x4a9ff2405520d51full, 0x4a9ff2405520d51full}, {0xcc977db3aff3ba99ull, 0xcc977db3aff3ba99ull}},
    {"cloth_box", "projective_dynamics", 3, {0x3b0084a1111018cfull, 0x3b0084a1111018cfull}, {0x9f700d60409c9bebull, 0x9f700d60409c9bebull}},
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
    const hk_world_def base = hk_test_env_def(); /* HOOKE_LIST_PARALLEL_MIN=0: every list body on the team */
    if (hk_scene_load_on(path, &base, &sc, err, sizeof err) != 0) {
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

/*
 * Which runs a row gets. The release build runs every row on every path at 1, 2 and 3 threads: that is where the
 * bits are checked. The sanitizer and Debug builds (HK_TEST_SLOW_BUILD), which look for memory errors and races
 * rather than bits, run each row once, at 3 threads (uneven slabs on a 2-core machine), on the paths in turn (row r
 * on the (r mod n)-th of the n paths this CPU and build run): every row and every path under the sanitizer, and
 * every run still checked against its golden hash.
 */
static int runs_row(int path_k, int paths_n, size_t r, int t)
{
#ifdef HK_TEST_SLOW_BUILD
    return t == 3 && (int)(r % (size_t)paths_n) == path_k;
#else
    (void)path_k;
    (void)paths_n;
    (void)r;
    (void)t;
    return 1;
#endif
}

#define ROWS ((int)(sizeof table / sizeof table[0]))

static void test_golden_hashes(void **state)
{
    (void)state;
    /* the paths this CPU and build run, in order */
    int run[PATHS], n = 0;
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
        run[n++] = p;
    }
    assert_true(n >= 1 && run[0] == 0); /* the reference path runs everywhere */
    int checked = 0;
    for (int k = 0; k < n; k++) {
        const int p = run[k];
        assert_int_equal(hk_kernels_select(paths[p]), 0);
        int runs = 0;
        for (int r = 0; r < ROWS; r++) {
            const golden *g = &table[r];
#ifdef HOOKE_DOUBLE
            const uint64_t want = g->hash_double[p == 0];
#else
            const uint64_t want = g->hash_float[p == 0];
#endif
            for (int t = 1; t <= 3; t++) {
                if (!runs_row(k, n, (size_t)r, t)) continue;
                const uint64_t got = run_row(g, t);
                if (got != want) {
                    print_error("%s%s%s, %d steps, %s path, %d threads: state hash 0x%016llx, golden 0x%016llx\n",
                                g->scene, g->integrator ? " with " : "", g->integrator ? g->integrator : "", g->steps,
                                paths[p], t, (unsigned long long)got, (unsigned long long)want);
                    fail();
                }
                runs++;
            }
        }
        print_message("%-9s: %d runs of %d rows agree\n", paths[p], runs, ROWS);
        checked += runs;
    }
    hk_kernels_select(NULL);
#ifdef HK_TEST_SLOW_BUILD
    assert_int_equal(checked, ROWS);
#else
    assert_int_equal(checked, 3 * n * ROWS);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_golden_hashes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
