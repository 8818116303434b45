/* test_scenes_run.c — every shipped scene loads and runs (its whole length where cheap) without blowing up. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* opendir, clock_gettime */
#include "hk_test.h"
#include "hk_test_scenes.h"

#include <time.h>

#include "scene.h"

/* Spring updates (springs x steps x substeps) one scene may cost: about
 * 0.3 s at 3e8 updates/s in Release, where every small scene runs its whole
 * length; Debug with ASan does about 1e7 updates/s (TSan a few times less),
 * so there a scene runs as many steps as the budget buys (at least
 * SHORT_STEPS, at most its length). The benchmark scenes (> 1e6 spring
 * updates a step) run what BIG_STEPS steps of cloth_512 cost (at least one
 * step). An implicit step costs a force evaluation and its CG iterations, counted as IMPLICIT_COST spring passes; the
 * implicit benchmark scene (500 iterations a step) runs BIG_IMPLICIT_STEPS, and in the sanitizer builds its solves stop
 * at SLOW_CG_ITERATIONS (every pass of a step still runs; the scene is checked to run, not to converge); there an
 * implicit scene of more than 4e5 springs runs BIG_IMPLICIT_STEPS too. */
#define IMPLICIT_COST 100
#ifdef HK_TEST_SLOW_BUILD
#define BUDGET 1e7
#define SHORT_STEPS 20
#define BIG_STEPS 3
#define BIG_IMPLICIT_STEPS 1
#define SLOW_CG_ITERATIONS 20
#else
#define BUDGET 1e8
#define SHORT_STEPS 20
#define BIG_STEPS 20
#define BIG_IMPLICIT_STEPS 2
#endif

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What one run ended with. */
typedef struct outcome {
    int64_t steps;
    int full; /* ran the scene's whole length */
    hk_stats st;
    double min_y; /* lowest particle [m] */
} outcome;

static outcome run_scene(const char *file)
{
    char path[8192], err[1024];
    snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, file);
    hk_scene sc;
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = sc.world;
    const double dt = sc.integrator.dt;
    int64_t full = sc.steps > 0 ? sc.steps : (int64_t)ceil(sc.time / dt * (1 - 1e-12)); /* as hooke run */
    assert_true(full > 0);
    const double springs = (double)hk_world_spring_count(w);
    const int implicit = hk_integrator_info_of(sc.integrator.kind)->implicit;
    const double per_step = (springs > 1 ? springs : 1) * hk_world_substeps(w) * (implicit ? IMPLICIT_COST : 1);
    outcome o = {0};
    o.steps = (int64_t)(BUDGET / per_step);
    if (o.steps < SHORT_STEPS) o.steps = SHORT_STEPS;
    const double updates = springs * hk_world_substeps(w); /* a step's spring updates */
    if (springs > 1e6 && implicit) o.steps = BIG_IMPLICIT_STEPS;
#ifdef HK_TEST_SLOW_BUILD
    else if (springs > 4e5 && implicit) /* drape5's five sheets in contact: a second a step in Release */
        o.steps = BIG_IMPLICIT_STEPS;
#endif
    else if (updates > 1e6) /* as much as BIG_STEPS steps of cloth_512 (a scene of many substeps: fewer steps) */
        o.steps = (int64_t)fmax(1, fmin(BIG_STEPS, BIG_STEPS * 1.6e6 / updates));
#ifdef HK_TEST_SLOW_BUILD
    if (implicit && springs > 1e6) {
        hk_integrator_def d = sc.integrator;
        d.cg_max_iterations = SLOW_CG_ITERATIONS;
        assert_int_equal(hk_world_set_integrator(w, &d), 0);
    }
#endif
    if (o.steps > full) o.steps = full;
    o.full = o.steps == full;

    const double t0 = now_s();
    hk_blowup b;
    for (int64_t s = 1; s <= o.steps; s++) {
        hk_world_step(w);
        if (hk_world_error(w)[0]) {
            print_error("%s: step %lld: %s\n", file, (long long)s, hk_world_error(w));
            fail();
        }
        /* the CLI's check cadence (at most every 100 steps), at the default limit */
        if ((s % 100 == 0 || s == o.steps) && hk_world_check(w, 10, &b)) {
            print_error("%s: blew up at step %lld: %s (particle %d, family %d, value %g)\n", file, (long long)s,
                        b.cause, b.particle, b.family, b.value);
            fail();
        }
    }
    const double wall = now_s() - t0;
    assert_int_equal(hk_world_step_count(w), o.steps);
    assert_near(hk_world_time(w), (double)o.steps * dt, 1e-9 * (double)o.steps * dt);
    o.st = hk_world_stats(w);
    assert_true(isfinite(o.st.kinetic) && isfinite(o.st.gravity) && isfinite(o.st.spring) && isfinite(o.st.total) &&
                isfinite(o.st.max_stretch));
    assert_true(o.st.kinetic >= 0 && o.st.spring >= 0 && o.st.broken >= 0);
    assert_near(o.st.total, o.st.kinetic + o.st.gravity + o.st.spring,
                1e-12 * (o.st.kinetic + fabs(o.st.gravity) + o.st.spring));
    hk_particles_view v = hk_world_particles(w);
    o.min_y = INFINITY;
    for (int i = 0; i < v.count; i++)
        if (hk_world_position(w, i).y < o.min_y) o.min_y = hk_world_position(w, i).y;
    print_message("%-22s %6lld steps%s %8.3f s  KE %-11.4g total %-11.4g max_stretch %-8.5g broken %lld\n", file,
                  (long long)o.steps, o.full ? " (full)" : "       ", wall, o.st.kinetic, o.st.total, o.st.max_stretch,
                  (long long)o.st.broken);
    hk_scene_free(&sc);
    return o;
}

static void test_every_shipped_scene_runs(void **state)
{
    (void)state;
    char names[64][64];
    const int n = hk_test_scene_files(names, 64);
    assert_true(n >= 15);
    for (int i = 0; i < n; i++) {
        outcome o = run_scene(names[i]);
        const char *f = names[i];
        /* What each scene's header comment promises, where it was run far
         * enough for the promise to apply. */
        if (strcmp(f, "cloth_512.scene") == 0) {
            /* stiff (omega dt = 0.98) and barely damped: a fast blow-up
             * shows as stretch first; the lead checks the full second */
            assert_le(o.st.max_stretch, 1.5);
        } else if (strcmp(f, "oscillator.scene") == 0 && o.full) {
            /* E = 1/2 k A^2 = 0.5 J, kept by semi-implicit Euler within its
             * O(omega dt) = 1 % band */
            assert_near(o.st.total, 0.5, 0.005);
        } else if (strcmp(f, "rope.scene") == 0 && o.full) {
            /* "the run settles at max_stretch = 1.03" (1.5 mm on 50 mm) */
            assert_near(o.st.max_stretch, 1.03, 0.01);
        } else if (strcmp(f, "tearing_cloth.scene") == 0 && o.steps >= 400) {
            /* the 158 springs on the pinned row have broken by about 0.3 s */
            assert_true(o.st.broken >= 158);
        } else if (strcmp(f, "net.scene") == 0 && o.full) {
            assert_le(o.st.max_stretch, 1.5); /* peaks at about 1.3 during the swing */
        } else if (strcmp(f, "mesh_points.scene") == 0 && o.full) {
            /* bounced and came to rest on the ground spring (5000 N/m): the
             * deepest vertex sinks at most a few mm, the mesh keeps its shape */
            assert_true(o.min_y > -0.01);
            assert_le(o.st.max_stretch, 1.1);
        }
    }
}

/* cloth_stiff.scene's header: the cloth stretches most as the pins first take its weight, 1.45 % (max_stretch
 * 1.0145 at step 19, at the springs from its pins), 1.23 to 1.34 % as it swings down to 0.3 s (steps 24 to 72),
 * then settles to 0.34 % (1.0034 at 3 s, past what a test can afford to run). It once said "under 1 %", and
 * 1.53 % before implicit Euler minimised its steps. */
static void test_cloth_stiff_stretch(void **state)
{
    (void)state;
    char err[1024];
    hk_scene sc;
    if (hk_scene_load(HOOKE_SCENES_DIR "/cloth_stiff.scene", &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    double peak = 0;
    int64_t at = 0;
    double swing_min = INFINITY, swing_max = 0; /* from step 24 to 72 */
    for (int64_t s = 1; s <= 72; s++) {
        assert_int_equal(hk_world_step(sc.world), HK_OK);
        const double r = hk_world_stats(sc.world).max_stretch;
        if (r > peak) peak = r, at = s;
        if (s >= 24) swing_min = fmin(swing_min, r), swing_max = fmax(swing_max, r);
    }
    print_message("cloth_stiff: largest stretch %.6f at step %lld, %.6f to %.6f from step 24 to 72\n", peak,
                  (long long)at, swing_min, swing_max);
    assert_true(peak > 1.0142 && peak < 1.0148);
    assert_int_equal(at, 19);
    assert_true(swing_min > 1.0120 && swing_max < 1.0136);
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_shipped_scene_runs),
        cmocka_unit_test(test_cloth_stiff_stretch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
