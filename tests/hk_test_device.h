/* hk_test_device.h — a shipped scene stepped on the CPU and through a device driver, and the rows that must agree. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_DEVICE_H
#define HK_TEST_DEVICE_H

#include <string.h>

#include "hk_test.h"
#include "hk_test_env.h"
#include "diagnosis.h"
#include "world.h"
#include "scene.h"

/* Scene `name` with integrator `integ` (NULL: its own) on `device` through `driver`; steps `steps`. */
static inline hk_scene load(const char *name, const char *integ, hk_device_kind device, const char *driver)
{
    char path[4096], err[1024];
    snprintf(path, sizeof path, "%s/%s.scene", HOOKE_SCENES_DIR, name);
    hk_world_def base = hk_test_env_def();
    base.device = device;
    base.device_driver = driver;
    hk_scene sc;
    if (hk_scene_load_on(path, &base, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_integrator_def d = sc.integrator;
    if (integ) {
        const int kind = hk_integrator_from_name(integ);
        assert_true(kind >= 0);
        d.kind = (hk_integrator_kind)kind;
    }
    assert_int_equal(hk_world_set_integrator(sc.world, &d), 0);
    assert_int_equal(hk_world_optimise(sc.world, 0), 0);
    return sc;
}

/* Whether the particle arrays of a and b hold the same bits (positions, velocities, forces). */
static inline int same_state(const hk_world *a, const hk_world *b)
{
    const hk_particles_view p = hk_world_particles(a), q = hk_world_particles(b);
    if (p.count != q.count) return 0;
    const size_t n = (size_t)p.count * sizeof(hk_real);
    return !memcmp(p.qx, q.qx, n) && !memcmp(p.qy, q.qy, n) && !memcmp(p.qz, q.qz, n) && !memcmp(p.vx, q.vx, n) &&
           !memcmp(p.vy, q.vy, n) && !memcmp(p.vz, q.vz, n) && !memcmp(p.fx, q.fx, n) && !memcmp(p.fy, q.fy, n) &&
           !memcmp(p.fz, q.fz, n);
}

/* Whether two statistics hold the same bits, field by field. */
static inline int same_stats(const hk_stats *a, const hk_stats *b)
{
    const double x[5] = {a->kinetic, a->gravity, a->spring, a->total, a->max_stretch},
                 y[5] = {b->kinetic, b->gravity, b->spring, b->total, b->max_stretch};
    return !memcmp(x, y, sizeof x) && a->broken == b->broken;
}

typedef struct row {
    const char *scene, *integrator;
    int steps;
} row;

/* Every scene the device runs, with its own integrator, then integrators the device runs on the scenes that show them
 * apart: breaking springs, substeps and a driven anchor, walls and spheres, the wind (device_bits adds every
 * integrator the integrator table says the device runs on jelly26, TABLE_SCENE). */
#define TABLE_SCENE "jelly26"
#define TABLE_STEPS 30
#define FRAME_EVERY 7
static const row rows[] = {
    {"billow", NULL, 30},
    {"cloth_512", NULL, 3},
    {"cloth_corners", NULL, 60},
    {"flag", NULL, 60},
    {"flag_wind", NULL, 60},
    {"jelly26", NULL, 100},
    {"jelly52", NULL, 100},
    {"jelly_big", NULL, 2},
    {"jelly_wind", NULL, 40},
    {"rope", NULL, 40},
    {"tearing_cloth", NULL, 220},
    {"jelly52", "verlet", 60},
    {"jelly52", "velocity_verlet", 60},
    {"tearing_cloth", "rk4", 210},
    {"tearing_cloth", "velocity_verlet", 220},
    {"rope", "verlet", 40},
    {"rope", "rk4", 20},
    {"flag_wind", "velocity_verlet", 40},
    {"flag_wind", "rk4", 20},
    {"cloth_corners", "jelly", 60},
    {"bungee", NULL, 200},
    {"shock_absorber", NULL, 200},
    {"mesh_points", NULL, 200},
    {"net", NULL, 400},
    {"oscillator", NULL, 200},
    {"pendulum", NULL, 200},
    {"quad", NULL, 200},
    {"net", "rk4", 100},
    {"pendulum", "verlet", 200},
    {"pressure_ball", NULL, 300},
    {"ring2d", NULL, 300},
    {"torus_asc", NULL, 200},
    {"pressure_ball", "velocity_verlet", 200},
};

/* One row through `driver`: the device's state hash, state, forces, time and counts against the CPU's. */
static inline void device_row(const char *driver, const row *g)
{
    hk_scene cpu = load(g->scene, g->integrator, HK_DEVICE_CPU, NULL);
    hk_scene dev = load(g->scene, g->integrator, HK_DEVICE_GPU, driver);
    char why[1024];
    if (hk_world_device(dev.world, why, sizeof why) != HK_DEVICE_GPU) {
        print_error("%s: refused: %s\n", g->scene, why);
        fail();
    }
    /* the state read back between steps as `hooke run` reads it: at the blow-up check's cadence and at frames
     * (every FRAME_EVERY steps), which must not change the device's steps */
    const int64_t check = hk_check_cadence(cpu.world);
    for (int s = 1; s <= g->steps; s++) {
        assert_int_equal(hk_world_step(cpu.world), HK_OK);
        assert_int_equal(hk_world_step(dev.world), HK_OK);
        hk_blowup b;
        if (s % check == 0) { /* the check and its statistics where the state lies: the device's, not read back */
            hk_stats sc, sd;
            assert_int_equal(hk_world_check_stats(cpu.world, 10, &b, &sc), 0);
            assert_int_equal(hk_world_check_stats(dev.world, 10, &b, &sd), 0);
            if (!dev.world->device_newer || !same_stats(&sc, &sd)) {
                print_error("%s%s%s, step %d: the device's check %s\n", g->scene, g->integrator ? " with " : "",
                            g->integrator ? g->integrator : "", s,
                            dev.world->device_newer ? "gave other statistics than the CPU's" : "read the state back");
                fail();
            }
        }
        if (s % FRAME_EVERY == 0 && hk_world_state_hash(dev.world) != hk_world_state_hash(cpu.world)) {
            print_error("%s%s%s: the device's state hash left the CPU's at step %d\n", g->scene,
                        g->integrator ? " with " : "", g->integrator ? g->integrator : "", s);
            fail();
        }
    }
    const uint64_t hc = hk_world_state_hash(cpu.world), hd = hk_world_state_hash(dev.world);
    if (hc != hd || !same_state(cpu.world, dev.world)) {
        print_error("%s%s%s, %d steps: the device's state hash 0x%016llx, the CPU's 0x%016llx%s\n", g->scene,
                    g->integrator ? " with " : "", g->integrator ? g->integrator : "", g->steps, (unsigned long long)hd,
                    (unsigned long long)hc, hc == hd ? " (the forces differ)" : "");
        fail();
    }
    assert_int_equal(hk_world_step_count(dev.world), g->steps);
    assert_true(hk_world_time(dev.world) == hk_world_time(cpu.world));
    assert_int_equal(hk_world_spring_updates(dev.world), hk_world_spring_updates(cpu.world));
    for (int f = 0; f < hk_world_family_count(cpu.world); f++)
        assert_int_equal(hk_world_family(dev.world, f).broken, hk_world_family(cpu.world, f).broken);
    hk_scene_free(&cpu);
    hk_scene_free(&dev);
}

/* Every integrator whose row of the integrator table says the device runs it, on TABLE_SCENE, then every row, through
 * `driver`. */
static inline void device_bits(const char *driver)
{
    int table_rows = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        if (!in->device) continue;
        const row g = {TABLE_SCENE, in->name, TABLE_STEPS};
        device_row(driver, &g);
        table_rows++;
    }
    assert_true(table_rows > 0);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const hk_integrator_info *in =
            rows[r].integrator ? hk_integrator_info_of((hk_integrator_kind)hk_integrator_from_name(rows[r].integrator))
                               : NULL;
        assert_true(!in || in->device); /* a row of an integrator the table says the device does not run: refused */
        device_row(driver, &rows[r]);
    }
}

#endif
