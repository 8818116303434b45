/* test_many_bodies.c — many small bodies: each moves as it would alone, any thread count, in linear time. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* mkdtemp (hk_test_cli.h) */
#include "hk_test.h"
#include "hk_test_cli.h"

/*
 * The engine takes small bodies whole on one thread each, and sweeps runs
 * of alike bodies of listed springs as one (engine.c). Neither may change a
 * bit of any body's motion: each body of a crowded world must move exactly
 * as it does alone in a world of its own.
 */

static hk_world_def crowd_def(void)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -9.81, 0};
    def.air_drag = 0.001;
    def.ground.model = HK_GROUND_SPRING;
    def.ground.height = 0;
    def.ground.stiffness = 5000;
    def.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    return def;
}

/* Body i of the crowd, added to w: quads (most of them, alike: a group),
 * short ropes, now and then a pendulum or a breakable quad (not alike). */
static void add_body(hk_world *w, int i)
{
    const double x = 0.3 * (i % 40), z = 0.3 * (i / 40);
    if (i % 7 == 3) {
        hk_rope_def r = hk_default_rope_def();
        r.count = 6 + i % 5;
        r.spacing = 0.03;
        r.mass = 0.01;
        r.origin = (hk_vec3){x, 0.5 + 0.01 * (i % 3), z};
        r.direction = (hk_vec3){1, 0.5, 0.2};
        r.springs.k = 200;
        r.springs.damping = 0.02;
        assert_true(hk_world_add_rope(w, &r) >= 0);
    } else if (i % 11 == 5) {
        hk_pendulum_def p = hk_default_pendulum_def();
        p.pivot = (hk_vec3){x, 1.2, z};
        p.length = 0.2;
        p.angle = 0.3;
        p.k = 1e4;
        assert_true(hk_world_add_pendulum(w, &p) >= 0);
    } else {
        hk_quad_def q = hk_default_quad_def();
        q.size = 0.1;
        q.mass = 0.01;
        q.origin = (hk_vec3){x, 0.3 + 0.002 * (i % 13), z};
        q.u = (hk_vec3){1, 0.2 * (i % 3), 0};
        q.springs.k = 150;
        q.springs.damping = 0.01;
        if (i % 13 == 7) { /* breakable: not alike the others */
            q.springs.behaviour = HK_SPRING_BREAKABLE;
            q.springs.break_ratio = 1.5;
        }
        assert_true(hk_world_add_quad(w, &q) >= 0);
    }
}

static void set_integrator(hk_world *w, hk_integrator_kind kind)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = kind;
    d.dt = 2e-3;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
}

/* Every particle's position and velocity are the same bits as the body's
 * alone, for a crowd of n bodies stepped `steps` times on `threads`. */
static void crowd_matches_alone(int n, int steps, int threads, hk_integrator_kind kind)
{
    const hk_world_def def = crowd_def();
    hk_world *crowd = hk_world_create(&def);
    assert_non_null(crowd);
    assert_int_equal(hk_world_set_threads(crowd, threads), 0);
    for (int i = 0; i < n; i++) add_body(crowd, i);
    set_integrator(crowd, kind);
    for (int s = 0; s < steps; s++) hk_world_step(crowd);
    const hk_particles_view cv = hk_world_particles(crowd);
    int mismatched = 0;
    for (int i = 0; i < n; i++) {
        hk_world *alone = hk_world_create(&def);
        assert_int_equal(hk_world_set_threads(alone, 1), 0);
        add_body(alone, i);
        set_integrator(alone, kind);
        for (int s = 0; s < steps; s++) hk_world_step(alone);
        const hk_body_info b = hk_world_body(crowd, i);
        const hk_particles_view av = hk_world_particles(alone);
        for (int l = 0; l < b.count; l++) {
            const hk_vec3 xc = hk_world_position(crowd, b.first + l), xa = hk_world_position(alone, l);
            const int g = b.first + l;
            if (memcmp(&xc, &xa, sizeof xc) != 0 || cv.vx[g] != av.vx[l] || cv.vy[g] != av.vy[l] ||
                cv.vz[g] != av.vz[l]) {
                if (!mismatched)
                    print_error("body %d (%s) particle %d: crowd (%.17g %.17g %.17g), alone (%.17g %.17g %.17g)\n", i,
                                b.kind, l, xc.x, xc.y, xc.z, xa.x, xa.y, xa.z);
                mismatched++;
            }
        }
        hk_world_destroy(alone);
    }
    print_message("%d bodies, %d threads, %s: %d particles differ from their body alone\n", n, threads,
                  hk_integrator_name(kind), mismatched);
    assert_int_equal(mismatched, 0);
    hk_world_destroy(crowd);
}

static void test_crowd_moves_as_bodies_alone(void **state)
{
    (void)state;
    for (int t = 1; t <= 3; t++) crowd_matches_alone(600, 150, t, HK_SEMI_IMPLICIT_EULER);
    crowd_matches_alone(300, 60, 2, HK_VELOCITY_VERLET);
}

/* An implicit step solves one linear system for the whole world (its
 * conjugate gradients stop on the whole residual), so a body does not move
 * as alone there; the crowd's bits still do not depend on the thread count,
 * the merged families' products included. */
static void test_implicit_crowd_threads(void **state)
{
    (void)state;
    const hk_world_def def = crowd_def();
    uint64_t h[3];
    for (int t = 1; t <= 3; t++) {
        hk_world *w = hk_world_create(&def);
        assert_int_equal(hk_world_set_threads(w, t), 0);
        for (int i = 0; i < 600; i++) add_body(w, i);
        set_integrator(w, HK_IMPLICIT_EULER);
        for (int s = 0; s < 40; s++) hk_world_step(w);
        assert_int_equal(hk_world_solver_stats(w).diverged, 0);
        h[t - 1] = hk_world_state_hash(w);
        hk_world_destroy(w);
    }
    print_message("implicit crowd: 0x%016llx on 1, 2 and 3 threads\n", (unsigned long long)h[0]);
    assert_true(h[0] == h[1] && h[1] == h[2]);
}

/* A scene file of n quads side by side on a spring ground. */
static const char *quads_scene(int n)
{
    const char *path = hk_test_path("quads.scene");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "world\n gravity 0 -9.81 0\nend\nground\n model spring\n height 0\n stiffness 20000\nend\n");
    const int side = (int)ceil(sqrt((double)n));
    for (int q = 0; q < n; q++)
        fprintf(f, "body quad\n size 0.1\n origin %g 0.5 %g\n mass 0.01\n springs main k 100 damping 0.01\nend\n",
                0.2 * (q % side), 0.2 * (q / side));
    fprintf(f, "run\n dt 1e-3\n steps 10\nend\n");
    assert_int_equal(fclose(f), 0);
    return path;
}

/* 200 000 quads (20 000 in a sanitizer build) run their 10 steps through
 * the program, to the same state hash on 1 and 2 threads. (With a pass over
 * every family for each body, as before, this took minutes: the test's
 * time limit is the bound.) */
static void test_200k_quads(void **state)
{
    (void)state;
#ifdef HK_TEST_SLOW_BUILD
    const int n = 20000;
#else
    const int n = 200000;
#endif
    const char *scene = quads_scene(n);
    char hash[2][32] = {"", ""};
    for (int t = 1; t <= 2; t++) {
        char args[512];
        snprintf(args, sizeof args, "run '%s' --threads %d --quiet", scene, t);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 0);
        char want[64];
        snprintf(want, sizeof want, "particles=%d springs=%d steps=10 ", 4 * n, 6 * n);
        assert_non_null(strstr(r.out, want));
        const char *h = hk_test_field(r.out, "state_hash");
        assert_non_null(h);
        memcpy(hash[t - 1], h, strcspn(h, " \n") < 31 ? strcspn(h, " \n") : 31);
        hk_run_free(&r);
    }
    print_message("%d quads, 10 steps: state hash %s on 1 thread, %s on 2\n", n, hash[0], hash[1]);
    assert_string_equal(hash[0], hash[1]);
    remove(scene);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crowd_moves_as_bodies_alone),
        cmocka_unit_test(test_implicit_crowd_threads),
        cmocka_unit_test(test_200k_quads),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
