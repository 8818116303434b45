/* test_device.c — the device backend through its host driver: the CPU's bits on every shipped scene it runs. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "hk_test_env.h"
#include "hk_test_device.h"
#include "hk_test_scenes.h"

#include "dev_abi.h"
#include "device.h"
#include "state_sums.h"

/*
 * The host driver (core/device/dev_host.c) runs the device backend whole (its plan of each node's terms, its passes
 * as the GPU drivers run them, the copies to and from its memory) on this CPU. A world stepped through it must end in
 * the bits of the same world stepped by the CPU engine: positions, velocities (the state hash) and forces, on every
 * shipped scene the device runs, under every integrator the integrator table says the device runs; every other
 * shipped scene, and every other integrator, is refused naming what the device does not run. The GPU drivers run the
 * same passes (test_device_gpu runs them where a GPU is).
 */

/* Every other shipped scene, and what the device does not run that it uses (the first the refusal names). */
static const struct {
    const char *scene, *feature;
} refused[] = {
    {"cloth_512_stiff", "the implicit integrator implicit_euler"},
    {"cloth_box", "colliders"},
    {"cloth_hanging_xpbd", "the integrator xpbd"},
    {"cloth_drape", "the implicit integrator implicit_euler"},
    {"cloth_fold", "contact between bodies or within one"},
    {"cloth_fold_particles", "contact between bodies or within one"},
    {"cloth_plate", "the implicit integrator implicit_euler"},
    {"cloth_small_steps", "the integrator xpbd"},
    {"cloth_stiff", "the implicit integrator implicit_euler"},
    {"curtain", "the implicit integrator implicit_euler"},
    {"drape5", "the implicit integrator implicit_euler"},
    {"hang", "the implicit integrator implicit_euler"},
    {"jelly_pile", "the implicit integrator implicit_euler"},
    {"rope_implicit", "the implicit integrator implicit_euler"},
    {"stress_chain_mass_ratio", "the implicit integrator implicit_euler"},
    {"stress_cloth_hanging", "the implicit integrator implicit_euler"},
    {"stress_stiffness_ratio", "the implicit integrator implicit_euler"},
    {"stress_strand_3", "the implicit integrator implicit_euler"},
    {"stress_strand_skip", "the implicit integrator implicit_euler"},
    {"stress_strand_tilted", "the implicit integrator implicit_euler"},
};

static void test_device_bits(void **state)
{
    (void)state;
    device_bits("host");
}

/* The OpenMP driver's own loops, target regions and copies, run on OpenMP's initial device (the offload's host
 * fallback, on this thread: OMP_NUM_THREADS=1, where the solver's flush to zero is set). */
static void test_device_openmp_host(void **state)
{
    (void)state;
#ifdef HK_TEST_OPENMP_MODULE
    device_bits("openmp-host");
#else
    print_message("skipped: this build has no OpenMP driver (gcc without its nvptx offload compiler, "
                  "gcc-12-offload-nvptx; device.cmake says why)\n");
#endif
}

/* Every shipped scene is in one of the two tables: a scene the device runs ends in the CPU's bits (rows), any other
 * is refused naming what the device does not run, with --device gpu (HK_ERR_UNSUPPORTED, no step taken), and runs
 * on the CPU with --device auto, saying why. A scene added to scenes/ must join one table. */
static void test_device_every_scene(void **state)
{
    (void)state;
    char names[64][64];
    const int n = hk_test_scene_files(names, 64);
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strlen(names[i]) - 6, names[i]);
        int runs = 0, r = -1;
        for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) runs |= strcmp(rows[k].scene, name) == 0;
        for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++)
            if (strcmp(refused[k].scene, name) == 0) r = (int)k;
        if (runs == (r >= 0)) {
            print_error("scenes/%s.scene is in %s of test_device's tables (rows: the device runs it; refused: it "
                        "does not)\n",
                        name, runs ? "both" : "neither");
            fail();
        }
        if (runs) continue;
        char why[2048], want[512];
        hk_scene gpu = load(name, NULL, HK_DEVICE_GPU, "host");
        assert_int_equal(hk_world_device(gpu.world, why, sizeof why), HK_ERR_UNSUPPORTED);
        snprintf(want, sizeof want, "the device does not run %s", refused[r].feature);
        if (strncmp(why, want, strlen(want)) != 0) {
            print_error("%s: refused with \"%s\", expected \"%s...\"\n", name, why, want);
            fail();
        }
        assert_int_equal(hk_world_step(gpu.world), HK_ERR_UNSUPPORTED); /* a step is refused too, not taken */
        assert_int_equal(hk_world_step_count(gpu.world), 0);
        assert_non_null(strstr(hk_world_error(gpu.world), want));
        hk_scene_free(&gpu);
        hk_scene autom = load(name, NULL, HK_DEVICE_AUTO, "host");
        assert_int_equal(hk_world_device(autom.world, why, sizeof why), HK_DEVICE_CPU);
        snprintf(want, sizeof want, "cpu (auto: the device does not run %s", refused[r].feature);
        assert_true(strncmp(why, want, strlen(want)) == 0);
        assert_int_equal(hk_world_step(autom.world), HK_OK);
        assert_int_equal(hk_world_step_count(autom.world), 1);
        hk_scene_free(&autom);
    }
}

/* The integrators the integrator table says the device runs, named by its rows, comma-separated, into out. */
static void device_integrators(char *out, size_t n)
{
    size_t len = 0;
    out[0] = '\0';
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        if (in->device) len += (size_t)snprintf(out + len, n - len, "%s%s", len ? ", " : "", in->name);
        assert_true(len < n);
    }
}

/* Each integrator on a scene the device runs (TABLE_SCENE): one whose row of the integrator table says the device runs
 * it goes to the device; any other is refused naming it and the ones the device runs (from the table), with --device
 * gpu (HK_ERR_UNSUPPORTED, no step taken), runs on the CPU with --device auto, saying why, and is refused at the first
 * step where it is set after the world went to the device. */
static void test_device_integrators(void **state)
{
    (void)state;
    char runs[512], why[2048], want[1024];
    device_integrators(runs, sizeof runs);
    int refused_count = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        hk_scene gpu = load(TABLE_SCENE, in->name, HK_DEVICE_GPU, "host");
        if (in->device) {
            assert_int_equal(hk_world_device(gpu.world, why, sizeof why), HK_DEVICE_GPU);
            hk_scene_free(&gpu);
            continue;
        }
        refused_count++;
        snprintf(want, sizeof want, "the device does not run the %sintegrator %s (the device runs %s)",
                 in->implicit ? "implicit " : "", in->name, runs);
        assert_int_equal(hk_world_device(gpu.world, why, sizeof why), HK_ERR_UNSUPPORTED);
        assert_string_equal(why, want);
        assert_int_equal(hk_world_step(gpu.world), HK_ERR_UNSUPPORTED);
        assert_int_equal(hk_world_step_count(gpu.world), 0);
        assert_string_equal(hk_world_error(gpu.world), want);
        hk_scene_free(&gpu);

        hk_scene autom = load(TABLE_SCENE, in->name, HK_DEVICE_AUTO, "host");
        assert_int_equal(hk_world_device(autom.world, why, sizeof why), HK_DEVICE_CPU);
        char auto_want[1100];
        snprintf(auto_want, sizeof auto_want, "cpu (auto: %s)", want);
        assert_string_equal(why, auto_want);
        assert_int_equal(hk_world_step(autom.world), HK_OK);
        assert_int_equal(hk_world_step_count(autom.world), 1);
        hk_scene_free(&autom);

        hk_scene late = load(TABLE_SCENE, NULL, HK_DEVICE_GPU, "host"); /* its own integrator: on the device */
        assert_int_equal(hk_world_device(late.world, why, sizeof why), HK_DEVICE_GPU);
        assert_int_equal(hk_world_step(late.world), HK_OK);
        hk_integrator_def d = hk_world_integrator(late.world);
        d.kind = in->kind;
        assert_int_equal(hk_world_set_integrator(late.world, &d), HK_OK);
        assert_int_equal(hk_world_step(late.world), HK_ERR_UNSUPPORTED);
        assert_int_equal(hk_world_step_count(late.world), 1);
        assert_string_equal(hk_world_error(late.world), want);
        hk_scene_free(&late);
    }
    assert_true(refused_count > 0);
    assert_non_null(strstr(runs, "rk4"));
    assert_false(hk_integrator_info_of(HK_IMPLICIT_EULER)->device);
}

/* A definition naming no driver there is is refused by hk_world_create; a GPU found by none of the named driver
 * stops the first step (and hk_world_device) with what was looked for. */
static void test_device_drivers(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    char err[512];
    def.device_driver = "vulkan";
    assert_int_equal(hk_world_def_check(&def, err, sizeof err), HK_ERR_INVALID);
    assert_string_equal(err,
                        "device_driver must be one of \"cuda\", \"openmp\", \"host\" or \"openmp-host\", or NULL or "
                        "\"\" for the first that finds a GPU (got \"vulkan\")");
    assert_null(hk_world_create(&def));
    def.device_driver = "host";
    def.device = HK_DEVICE_KIND_COUNT;
    assert_int_equal(hk_world_def_check(&def, err, sizeof err), HK_ERR_INVALID);
    assert_string_equal(err, "device must be in [0, 2] (got 3)");
    /* the host driver always finds its one device */
    hk_device_info info[2];
    char why[1024];
    assert_int_equal(hk_device_list("host", info, 2, why, sizeof why), 1);
    assert_non_null(strstr(info[0].name, "host"));
    assert_int_equal(hk_device_list("vulkan", info, 2, why, sizeof why), 0);
    assert_non_null(strstr(why, "no device driver \"vulkan\""));
}

/* Position Verlet keeps the substep before's position on the device; reading the state back (each blow-up check and
 * frame of `hooke run`) must not make the next step its first again. One particle let go at rest under g = 10 at
 * h = 1/8 s: verlet_book's first step is x + g h^2 (-0.15625 m), then 2x - x_prev + g h^2: -0.46875, -0.9375,
 * -1.5625 m (exact in binary); verlet's first step is x + g h^2 / 2, then the same recurrence: -0.078125, -0.3125,
 * -0.703125, -1.25 m. Both read back after every step, both equal to the CPU's. */
static void test_device_verlet_read_back(void **state)
{
    (void)state;
    static const struct {
        hk_integrator_kind kind;
        double y[4];
    } want[] = {{HK_VERLET_BOOK, {-0.15625, -0.46875, -0.9375, -1.5625}},
                {HK_VERLET, {-0.078125, -0.3125, -0.703125, -1.25}}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
        for (int on = 0; on < 2; on++) {
            hk_world_def def = hk_test_env_def();
            def.gravity = (hk_vec3){0, -10, 0};
            def.air_drag = 0;
            def.ground.model = HK_GROUND_NONE;
            def.has_walls = 0;
            def.device = on ? HK_DEVICE_GPU : HK_DEVICE_CPU;
            def.device_driver = on ? "host" : NULL;
            hk_world *w = hk_world_create(&def);
            assert_non_null(w);
            const hk_vec3 x = {0, 0, 0}, v = {0, 0, 0};
            const double m = 1;
            assert_true(hk_world_add_points(w, 1, &x, &v, &m) >= 0);
            hk_integrator_def d = hk_default_integrator_def();
            d.kind = want[k].kind;
            d.dt = 0.125;
            assert_int_equal(hk_world_set_integrator(w, &d), 0);
            char why[1024];
            assert_int_equal(hk_world_device(w, why, sizeof why), on ? HK_DEVICE_GPU : HK_DEVICE_CPU);
            for (int s = 0; s < 4; s++) {
                assert_int_equal(hk_world_step(w), HK_OK);
                const double y = hk_world_position(w, 0).y; /* reads the state back */
                if (y != want[k].y[s]) {
                    print_error("%s on the %s, step %d: y = %.9g m, want %.9g m\n", hk_integrator_name(want[k].kind),
                                on ? "device" : "CPU", s + 1, y, want[k].y[s]);
                    fail();
                }
            }
            hk_world_destroy(w);
        }
}

/* A step on the device is the CPU's step told once (core/step/step.c, its passes run by the device's table): what a
 * step does around the integrator's substep follows on the device with no second copy to forget. Gravity that
 * changes in time (hk_world_set_gravity_schedule, followed at every substep's start) on jelly26: the same bits. */
static void test_device_gravity_schedule(void **state)
{
    (void)state;
    const double times[2] = {0.02, 0.04};
    const hk_vec3 g[2] = {{0, 9.81, 0}, {3, -9.81, 0}};
    hk_scene cpu = load("jelly26", NULL, HK_DEVICE_CPU, NULL), dev = load("jelly26", NULL, HK_DEVICE_GPU, "host");
    assert_int_equal(hk_world_set_gravity_schedule(cpu.world, 2, times, g), HK_OK);
    assert_int_equal(hk_world_set_gravity_schedule(dev.world, 2, times, g), HK_OK);
    char why[1024];
    assert_int_equal(hk_world_device(dev.world, why, sizeof why), HK_DEVICE_GPU);
    for (int s = 0; s < 80; s++) {
        assert_int_equal(hk_world_step(cpu.world), HK_OK);
        assert_int_equal(hk_world_step(dev.world), HK_OK);
    }
    const uint64_t hc = hk_world_state_hash(cpu.world), hd = hk_world_state_hash(dev.world);
    if (hc != hd) {
        print_error("jelly26 under a gravity schedule, 80 steps: the device's state hash 0x%016llx, the CPU's "
                    "0x%016llx\n",
                    (unsigned long long)hd, (unsigned long long)hc);
        fail();
    }
    hk_scene_free(&cpu);
    hk_scene_free(&dev);
}

/* List springs on the device, in the CPU's order of adds into each particle (engine/lists.c): a net of all-to-all
 * rope springs (many colours, far springs, the overflow colour), breakable at 1.02 of their rest length and pulled
 * apart by its driven anchor, and a pendulum of tension-only springs: the CPU's state hash, the same springs
 * broken, read back between steps. */
static void test_device_list_springs(void **state)
{
    (void)state;
    static const char *texts[] = {
        "world\n  gravity 0 -9.81 0\nend\nbody rope\n  count 140\n  mass 0.01\n  spacing 0.02\n  origin 0 0 0\n"
        "  direction 1 0 0\n  topology all_to_all\n  anchor 1\n  anchor_velocity 2 0 0\n"
        "  springs chain k 200 damping 0.02 behaviour breakable break_ratio 1.02\nend\n",
        "world\n  gravity 0 -9.81 0\nend\nbody rope\n  count 12\n  mass 0.01\n  spacing 0.05\n  origin 0 0 0\n"
        "  direction 1 1 0\n  topology all_to_all\n  pin 0\n"
        "  springs chain k 300 damping 0.05 damping_model relative behaviour tension_only\nend\n",
        "world\n  gravity 0 -9.81 0\nend\nground\n  model spring\n  height 0\n  stiffness 20000\nend\n"
        "body icosphere\n  radius 0.2\n  level 5\n  center 0 0.21 0\n  mass 0.001\n"
        "  springs edges k 400 damping 0.05\nend\n",
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        hk_scene sc[2];
        for (int on = 0; on < 2; on++) {
            hk_world_def base = hk_test_env_def();
            base.device = on ? HK_DEVICE_GPU : HK_DEVICE_CPU;
            base.device_driver = on ? "host" : NULL;
            char err[1024];
            if (hk_scene_parse_on(texts[t], "net.scene", &base, &sc[on], err, sizeof err) != 0) {
                print_error("%s\n", err);
                fail();
            }
            hk_integrator_def d = hk_default_integrator_def();
            d.dt = 5e-4;
            assert_int_equal(hk_world_set_integrator(sc[on].world, &d), 0);
            assert_int_equal(hk_world_optimise(sc[on].world, 0), 0);
        }
        char why[1024];
        assert_int_equal(hk_world_device(sc[1].world, why, sizeof why), HK_DEVICE_GPU);
        int64_t broken = 0;
        for (int s = 1; s <= 400; s++) {
            assert_int_equal(hk_world_step(sc[0].world), HK_OK);
            assert_int_equal(hk_world_step(sc[1].world), HK_OK);
            if (s % 50 == 0 && hk_world_state_hash(sc[0].world) != hk_world_state_hash(sc[1].world)) {
                print_error("list springs (text %zu): the device's state hash left the CPU's at step %d\n", t, s);
                fail();
            }
        }
        assert_true(same_state(sc[0].world, sc[1].world));
        for (int f = 0; f < hk_world_family_count(sc[0].world); f++) {
            assert_int_equal(hk_world_family(sc[1].world, f).broken, hk_world_family(sc[0].world, f).broken);
            broken += hk_world_family(sc[0].world, f).broken;
        }
        if (t == 0 && broken == 0) {
            print_error("the net's springs were to break (none did): the test would show nothing\n");
            fail();
        }
        hk_scene_free(&sc[0]);
        hk_scene_free(&sc[1]);
    }
}

/* A pressure body on the device: hk_world_body_pressure and hk_world_body_volume between steps give the CPU's
 * figures (the pressure of the last evaluation comes back with the state). */
static void test_device_pressure_read(void **state)
{
    (void)state;
    hk_scene cpu = load("pressure_ball", NULL, HK_DEVICE_CPU, NULL),
             dev = load("pressure_ball", NULL, HK_DEVICE_GPU, "host");
    char why[1024];
    assert_int_equal(hk_world_device(dev.world, why, sizeof why), HK_DEVICE_GPU);
    for (int s = 1; s <= 60; s++) {
        assert_int_equal(hk_world_step(cpu.world), HK_OK);
        assert_int_equal(hk_world_step(dev.world), HK_OK);
        if (s % 20) continue;
        const double pc = hk_world_body_pressure(cpu.world, 0), pd = hk_world_body_pressure(dev.world, 0);
        const double vc = hk_world_body_volume(cpu.world, 0, HK_VOLUME_GAUSS),
                     vd = hk_world_body_volume(dev.world, 0, HK_VOLUME_GAUSS);
        if (!(pc > 0) || pc != pd || vc != vd) {
            print_error(
                "pressure_ball, step %d: pressure %.17g Pa on the device, %.17g on the CPU; volume %.17g m^3 and "
                "%.17g\n",
                s, pd, pc, vd, vc);
            fail();
        }
    }
    hk_scene_free(&cpu);
    hk_scene_free(&dev);
}

/* A check where the state lies (state_sums.h, core/device dev_sums.c): on cloth_512, whose families are cut into
 * blocks and whose particles fill many, the statistics a check gives on the device hold the CPU's bits without the
 * state coming back; a run made to blow up (jelly26 under the explicit Euler step at 40 times its dt) fires on the
 * device at the CPU's step with the CPU's report, non-finite values (no stretch limit) and runaway stretch (10) each,
 * and the state then comes back (the CPU's, where it is finite: the sign of a NaN is no operation's to keep). */
static void test_device_check(void **state)
{
    (void)state;
    hk_scene cpu = load("cloth_512", NULL, HK_DEVICE_CPU, NULL), dev = load("cloth_512", NULL, HK_DEVICE_GPU, "host");
    char why[1024];
    const int n = cpu.world->p.count;
    double *v = malloc(3 * (size_t)n * sizeof *v); /* every node's own velocity: springs stretched and squeezed */
    assert_non_null(v);
    uint64_t x = 12345;
    for (int i = 0; i < 3 * n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        v[i] = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * 0.2;
    }
    assert_int_equal(hk_world_set_velocities(cpu.world, 0, n, v), HK_OK);
    assert_int_equal(hk_world_set_velocities(dev.world, 0, n, v), HK_OK);
    free(v);
    assert_int_equal(hk_world_device(dev.world, why, sizeof why), HK_DEVICE_GPU);
    assert_true(cpu.world->families[0].count > HK_SCAN_ONE_BLOCK && cpu.world->p.count > 64 * HK_SUMS_BLOCK);
    for (int s = 1; s <= 3; s++) {
        assert_int_equal(hk_world_step(cpu.world), HK_OK);
        assert_int_equal(hk_world_step(dev.world), HK_OK);
        hk_blowup b;
        hk_stats sc, sd;
        assert_int_equal(hk_world_check_stats(cpu.world, 10, &b, &sc), 0);
        assert_int_equal(hk_world_check_stats(dev.world, 10, &b, &sd), 0);
        assert_true(dev.world->device_newer && same_stats(&sc, &sd));
        sc = hk_world_stats(cpu.world), sd = hk_world_stats(dev.world);
        assert_true(dev.world->device_newer && same_stats(&sc, &sd) && sc.spring > 0 && sc.max_stretch > 1.0001);
    }
    hk_scene_free(&cpu);
    hk_scene_free(&dev);
    static const double limits[] = {0, 10};
    for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
        hk_scene sc[2] = {load("jelly26", "euler", HK_DEVICE_CPU, NULL),
                          load("jelly26", "euler", HK_DEVICE_GPU, "host")};
        for (int on = 0; on < 2; on++) {
            hk_integrator_def d = hk_world_integrator(sc[on].world);
            d.dt *= 40;
            assert_int_equal(hk_world_set_integrator(sc[on].world, &d), 0);
        }
        assert_int_equal(hk_world_device(sc[1].world, why, sizeof why), HK_DEVICE_GPU);
        hk_blowup bc = {0}, bd = {0};
        int fired = 0, s = 0;
        while (!fired && s < 5000) {
            s++;
            hk_world_step(sc[0].world);
            hk_world_step(sc[1].world);
            fired = hk_world_check(sc[0].world, limits[k], &bc);
            assert_int_equal(hk_world_check(sc[1].world, limits[k], &bd), fired);
        }
        if (!fired || strcmp(bc.cause, bd.cause) != 0 || bc.particle != bd.particle || bc.body != bd.body ||
            bc.family != bd.family || bc.spring != bd.spring ||
            (memcmp(&bc.value, &bd.value, sizeof bc.value) != 0 && !(isnan(bc.value) && isnan(bd.value))) ||
            sc[1].world->device_newer || (k > 0 && !same_state(sc[0].world, sc[1].world))) {
            print_error("jelly26 at 40 dt, stretch limit %g: %s at step %d on the CPU (particle %d, spring %lld, "
                        "value %g); the device's: %s (particle %d, spring %lld, value %g)\n",
                        limits[k], fired ? bc.cause : "no blow-up", s, bc.particle, (long long)bc.spring, bc.value,
                        bd.cause ? bd.cause : "none", bd.particle, (long long)bd.spring, bd.value);
            fail();
        }
        assert_true(strncmp(bc.cause, k == 0 ? "non-finite" : "runaway stretch", k == 0 ? 10 : 16) == 0);
        hk_scene_free(&sc[0]);
        hk_scene_free(&sc[1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_bits),
        cmocka_unit_test(test_device_openmp_host),
        cmocka_unit_test(test_device_every_scene),
        cmocka_unit_test(test_device_integrators),
        cmocka_unit_test(test_device_drivers),
        cmocka_unit_test(test_device_verlet_read_back),
        cmocka_unit_test(test_device_gravity_schedule),
        cmocka_unit_test(test_device_list_springs),
        cmocka_unit_test(test_device_pressure_read),
        cmocka_unit_test(test_device_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
