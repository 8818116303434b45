/* test_check.c — the blow-up check on the calling thread and on a team: the same verdicts and statistics. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"
#include "strain.h"
#include "world.h"

/* A cloth of N x N nodes: more particles and springs per family than the
 * check's passes take on the calling thread (stats.c, strain.c: 65536). */
#define N 260
#define SPACING 0.01 /* [m] */

/* The host's "pool" of this test: it counts the passes it is given and runs
 * each pass's tasks one after another on the calling thread, in task order
 * or, with `backwards`, the last task first: a share found later must still
 * lose to a lower particle, and one found first must lose too. The check's
 * passes have no barrier; hooke's other passes need tasks that run at once
 * (hooke.h), so it is set only around the checks. */
static int passes, backwards;
static void serial_run(void *host, int tasks, hk_task_fn task, void *pass)
{
    (void)host;
    passes++;
    for (int k = 0; k < tasks; k++) task(pass, backwards ? tasks - 1 - k : k);
}
static const hk_task_hook serial_hook = {serial_run, NULL};

static hk_world *cloth_of(hk_behaviour structural)
{
    hk_world_def d = hk_default_world_def();
    d.threads = 1;
    hk_world *w = hk_world_create(&d);
    assert_non_null(w);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = N;
    c.spacing = SPACING;
    c.mass = 1e-3;
    c.structural_springs.behaviour = structural;
    c.structural_springs.break_ratio = 5;
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, 0, 1}; /* in the x-z plane */
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    assert_true(w->p.count > 65536);
    /* a state with every statistic in play: displaced, moving */
    for (int i = 0; i < w->p.count; i++) {
        w->p.qx[i] = (hk_real)(1e-4 * sin(0.37 * i));
        w->p.qy[i] = (hk_real)(1e-4 * cos(0.11 * i));
        w->p.vz[i] = (hk_real)(0.01 * sin(0.05 * i));
    }
    return w;
}
static hk_world *cloth(void) { return cloth_of(HK_SPRING_NORMAL); }

/* The check of w with stretch limit 10 on the calling thread (one thread), on a team of 3 tasks (the hook's) run in
 * task order and backwards, and on 2 OpenMP threads (at once: where the build has OpenMP): the verdicts into
 * one[0..3], the statistics into st[0..3] (when sound). Asserts that the hook's team ran passes and that the one
 * thread did not, and that the four verdicts agree; returns it. */
enum { WAYS = 4 };
static int check_both(hk_world *w, hk_blowup one[WAYS], hk_stats st[WAYS])
{
    int bad[WAYS];
    for (int k = 0; k < WAYS; k++) {
        assert_int_equal(hk_world_set_task_hook(w, k < 3 ? &serial_hook : NULL), HK_OK);
        assert_int_equal(hk_world_set_threads(w, k == 0 ? 1 : k < 3 ? 3 : 2), HK_OK);
        backwards = k == 2;
        const int before = passes;
        memset(&st[k], 0, sizeof st[k]);
        bad[k] = hk_world_check_stats(w, 10.0, &one[k], &st[k]);
        if (k == 0)
            assert_int_equal(passes, before); /* one thread: no launch */
        else if (k < 3)
            assert_true(passes > before); /* the team's passes */
    }
    for (int k = 1; k < WAYS; k++) {
        assert_int_equal(bad[k], bad[0]);
        if (!bad[0]) continue;
        assert_string_equal(one[k].cause, one[0].cause);
        assert_int_equal(one[k].particle, one[0].particle);
        assert_int_equal(one[k].body, one[0].body);
        assert_int_equal(one[k].family, one[0].family);
        assert_int_equal(one[k].spring, one[0].spring);
        assert_true(one[k].value == one[0].value || (isnan(one[k].value) && isnan(one[0].value)));
    }
    return bad[0];
}

/* A sound state: no blow-up, and the same statistics to the bit, those of hk_world_stats. */
static void test_sound_same_stats(void **state)
{
    (void)state;
    hk_world *w = cloth();
    hk_blowup b[WAYS];
    hk_stats st[WAYS];
    assert_int_equal(check_both(w, b, st), 0);
    const hk_stats ref = hk_world_stats(w);
    for (int k = 0; k < WAYS; k++) {
        assert_true(st[k].kinetic == ref.kinetic && st[k].gravity == ref.gravity && st[k].spring == ref.spring);
        assert_true(st[k].total == ref.total && st[k].max_stretch == ref.max_stretch && st[k].broken == ref.broken);
    }
    assert_true(ref.kinetic > 0 && ref.spring > 0 && ref.max_stretch > 1);
    hk_world_destroy(w);
}

/* Non-finite values: the first array in the order qx, qy, qz, vx, vy, vz that has one names the cause, and its
 * lowest such particle the particle, whichever task found it and whatever the other arrays hold. */
static void test_nonfinite_first_array_lowest_particle(void **state)
{
    (void)state;
    hk_world *w = cloth();
    const int n = w->p.count;
    hk_blowup b[WAYS];
    hk_stats st[WAYS];
    /* velocities: vz at particle 3 ranks after vy at particles n - 1 and n / 2 + 5 (the last task's and the
     * second's: both found, the lower wins) */
    w->p.vz[3] = (hk_real)INFINITY;
    w->p.vy[n - 1] = (hk_real)NAN;
    w->p.vy[n / 2 + 5] = (hk_real)-INFINITY;
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "non-finite velocity");
    assert_int_equal(b[0].particle, n / 2 + 5);
    assert_int_equal(b[0].body, 0);
    assert_true(b[0].value == -INFINITY);
    assert_int_equal(b[0].family, -1);
    assert_int_equal(b[0].spring, -1);
    /* a position ranks before every velocity: qz at the last particle */
    w->p.qz[n - 1] = (hk_real)NAN;
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "non-finite position");
    assert_int_equal(b[0].particle, n - 1);
    assert_true(isnan(b[0].value));
    /* and qx before qz: at particle 0 */
    w->p.qx[0] = (hk_real)INFINITY;
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "non-finite position");
    assert_int_equal(b[0].particle, 0);
    assert_true(b[0].value == INFINITY);
    hk_world_destroy(w);
}

/* Each array alone, at a particle of each task's share: found, and named by its array. */
static void test_nonfinite_each_array(void **state)
{
    (void)state;
    hk_world *w = cloth();
    const int n = w->p.count;
    hk_real *arrays[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
    const int at[4] = {0, n / 3 + 1, 2 * n / 3 + 7, n - 1};
    for (int a = 0; a < 6; a++)
        for (int k = 0; k < 4; k++) {
            const hk_real keep = arrays[a][at[k]];
            arrays[a][at[k]] = (hk_real)NAN;
            hk_blowup b[WAYS];
            hk_stats st[WAYS];
            assert_int_equal(check_both(w, b, st), 1);
            assert_string_equal(b[0].cause, a < 3 ? "non-finite position" : "non-finite velocity");
            assert_int_equal(b[0].particle, at[k]);
            arrays[a][at[k]] = keep;
        }
    hk_blowup b[WAYS];
    hk_stats st[WAYS];
    assert_int_equal(check_both(w, b, st), 0); /* every value restored: sound again */
    hk_world_destroy(w);
}

/* A node lifted 20 spacings off the plane: a structural spring of it is the stretch (r / L0 = sqrt(1 + 20^2),
 * within the state's displacements), the same spring named on both paths, one that starts at the node or at a
 * neighbour; a non-finite value still ranks before it. */
static void test_runaway_stretch(void **state)
{
    (void)state;
    hk_world *w = cloth();
    const int i = N * (N / 2) + N / 2; /* a node in the middle */
    const hk_vec3 x = hk_world_position(w, i);
    assert_int_equal(hk_world_set_position(w, i, (hk_vec3){x.x, x.y + 20 * SPACING, x.z}), HK_OK);
    hk_blowup b[WAYS];
    hk_stats st[WAYS];
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "runaway stretch");
    assert_int_equal(b[0].particle, -1);
    assert_int_equal(b[0].body, 0);
    assert_true(b[0].family >= 0);
    assert_near(b[0].value, sqrt(401), 0.05);
    assert_true(b[0].spring == i || b[0].spring == i - 1 || b[0].spring == i - N); /* (1,0) or (0,1), from i or to it */
    w->p.vx[5] = (hk_real)NAN;
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "non-finite velocity");
    assert_int_equal(b[0].particle, 5);
    hk_world_destroy(w);
}

/* Broken springs are left out: once the lifted node's four structural springs (breakable at 5 L0) break, the
 * stretch is a shear spring's, sqrt(2 + 20^2) / sqrt(2), in the check and in the statistics. */
static void test_broken_springs_left_out(void **state)
{
    (void)state;
    hk_world *w = cloth_of(HK_SPRING_BREAKABLE);
    const int i = N * (N / 2) + N / 2;
    const hk_vec3 x = hk_world_position(w, i);
    assert_int_equal(hk_world_set_position(w, i, (hk_vec3){x.x, x.y + 20 * SPACING, x.z}), HK_OK);
    hk_blowup b[WAYS];
    hk_stats st[WAYS];
    assert_int_equal(check_both(w, b, st), 1);
    assert_near(b[0].value, sqrt(401), 0.05); /* a structural spring, not yet broken */
    assert_int_equal(hk_springs_break(w), 4);
    assert_int_equal(check_both(w, b, st), 1);
    assert_string_equal(b[0].cause, "runaway stretch");
    assert_near(b[0].value, sqrt(201), 0.05);
    const hk_stats ref = hk_world_stats(w);
    assert_int_equal(ref.broken, 4);
    assert_true(ref.max_stretch == b[0].value);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sound_same_stats),        cmocka_unit_test(test_nonfinite_first_array_lowest_particle),
        cmocka_unit_test(test_nonfinite_each_array),    cmocka_unit_test(test_runaway_stretch),
        cmocka_unit_test(test_broken_springs_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
