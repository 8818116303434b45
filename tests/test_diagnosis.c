/* test_diagnosis.c — blow-up reports that name the cause, run lengths a run cannot count, write errors at once. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include "diagnosis.h"

#define SCENE(name) HOOKE_SCENES_DIR "/" name

static void expect(const char *args, int status, const char *const *messages)
{
    hk_run r = hk_test_hooke("", args);
    int ok = r.status == status;
    for (int i = 0; messages[i]; i++) ok = ok && strstr(r.err, messages[i]) != NULL;
    if (!ok) {
        print_error("hooke %s\nexit %d (expected %d)\nstdout: %s\nstderr: %s\n", args, r.status, status, r.out, r.err);
        for (int i = 0; messages[i]; i++) print_error("expected stderr to contain: %s\n", messages[i]);
        fail();
    }
    hk_run_free(&r);
}

/* The rope tutorial's rope without its ground and with a mass typo (20 kg
 * a node instead of 0.05): omega*dt = 0.083, far below semi-implicit
 * Euler's limit 2. The top spring passes the stretch limit under the load;
 * the hint says dt is not the cause and shows the numbers of the load. */
static void test_overload(void **state)
{
    (void)state;
    const char *sc = hk_test_path("typo.scene");
    hk_test_write(sc, "world\n gravity 0 -9.81 0\n air_drag 0.02\nend\n"
                      "body rope\n count 80\n mass 20\n spacing 0.05\n direction 1 0 0\n anchor 1\n"
                      " springs chain k 10000 damping 0.2 damping_model relative rest_length 0.05\nend\n"
                      "run\n dt 0.0166666666666667\n dt_max 0.002\n time 5\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    const char *const want[] = {
        "simulation blew up at step ", "runaway stretch in spring 0 of family chain of body 0 (r/L0 = ", ", limit 10)",
        "hooke: hint: omega*dt = 0.0828 is far below semi_implicit_euler's limit 2, so dt is not the cause: the "
        "spring is overstretched by the load or by the initial state: check masses and stiffnesses (body 0 weighs "
        "1580 kg x 9.81 m/s^2 = 1.55e+04 N; family chain has k = 1e+04 N/m and L0 = 0.05 m, so that weight on one "
        "spring would stretch it 32 times its rest length)",
        NULL};
    expect(args, 2, want);
}

/* A scene whose initial state is already past the stretch limit is bad
 * input, named by file and line (the body's), not a blow-up at step 1. */
static void test_initial_stretch(void **state)
{
    (void)state;
    const char *sc = hk_test_path("stretched.scene");
    hk_test_write(sc, "world\n gravity 0 0 0\nend\n\n"
                      "body spring\n a 0 0 0\n b 8.33 0 0\n mass_b 1\n springs main k 100 rest_length 0.1\nend\n"
                      "run\n dt 1e-3\n steps 100\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s'", sc);
    const char *const want[] = {"stretched.scene:5: error: body 0 starts past the stretch limit: spring 0 of family "
                                "main has r/L0 = 83.3, more than 10 (stretch_limit in the run section, or "
                                "--stretch-limit); its initial positions do not match its rest lengths",
                                NULL};
    expect(args, 1, want);
}

/* RK4 on the oscillator at 1.02 times its stability limit (omega dt =
 * 2.885 against 2.83): the energy grows slowly (797 times in 20 000 steps);
 * nothing in the scene feeds energy, so the run stops once it is 100 times
 * its start, with the hint to lower dt. */
static void test_energy_runaway(void **state)
{
    (void)state;
    const char *sc = hk_test_path("rk4.scene");
    hk_test_write(sc, "world\n gravity 0 0 0\nend\n"
                      "body spring\n a 0 0 0\n b 1.1 0 0\n mass_a 1\n mass_b 1\n pin_a 1\n"
                      " springs main k 100 rest_length 1\nend\n"
                      "run\n integrator rk4\n dt 0.28851\n steps 20000\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    const char *const want[] = {"energy runaway: the total energy grew to ", " from 0.5 J, a rise of ",
                                "times its starting scale of 0.5 J (the limit is 100); nothing in the scene feeds it "
                                "energy (no wind, pressure, moving anchors or spheres)",
                                "hooke: hint: omega*dt = 2.89 (omega_max = 10 rad/s from k and m, substep 0.289 s); "
                                "rk4 is stable only below omega*dt = 2.83: lower dt or set dt_max",
                                /* and a warning before the first step */
                                "hooke: warning: ",
                                "rk4.scene: omega*dt = 2.89 is above rk4's stability limit 2.83 "
                                "(omega_max = 10 rad/s, an upper bound from k and m, colliders and contact included; "
                                "substep 0.289 s): the run may blow up; lower dt or set dt_max below 0.283 s",
                                NULL};
    expect(args, 2, want);
    /* at 0.98 times the limit it runs to its end, without the warning */
    snprintf(args, sizeof args, "run '%s' --dt 0.2772 --quiet", sc);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "warning"));
    hk_run_free(&r);
}

/* A cloth with contact whose stiff springs blow up once it lands (omega*dt = 77 against 2; warned before the first
 * step): with 5 000 particles and springs a run checks every 2nd step, but a blow-up among contact pairs drags
 * every pair it flings along through the swept test, so with contact the check runs every step. The report comes at
 * the first step past the stretch limit: no statistics row before it shows a stretch past it (every 2nd step, the
 * row of step 25 showed 1.7e9 and the report came a step later, after a step that swept every pair of the body). */
static void test_contact_blowup_at_once(void **state)
{
    (void)state;
    const char *sc = hk_test_path("contact_blowup.scene"), *csv = hk_test_path("contact_blowup.csv");
    hk_test_write(sc, "world\n gravity 0 -9.81 0\nend\n"
                      "body cloth\n nx 16\n ny 64\n spacing 0.02\n origin -0.15 1.31 0\n u 1 0 0\n v 0 -1 0.05\n"
                      " mass 1e-3\n springs structural k 3e6 damping 0.01 damping_model relative\n"
                      " springs shear k 300 damping 0.01 damping_model relative\nend\n"
                      "collider\n shape box\n size 2 0.2 2\n offset 0 -0.1 0\n thickness 0.005\n stiffness 200\nend\n"
                      "contact\n self 1\n thickness 0.005\n stiffness 200\nend\n"
                      "run\n integrator semi_implicit_euler\n dt 0.004\n dt_max 5e-4\n time 1\nend\n");
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet --stats '%s' --every 1", sc, csv);
    const char *const want[] = {"hooke: warning: ", "omega*dt = 77.5 is above semi_implicit_euler's stability limit 2",
                                "simulation blew up at step ", "runaway stretch in spring ", NULL};
    expect(args, 2, want);
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    /* the header names max_stretch as the 7th column */
    assert_non_null(strstr(text, "step,time,kinetic,gravity,spring,total,max_stretch,"));
    int rows = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *c = line + 1;
        for (int k = 0; k < 6 && c; k++) c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
        assert_non_null(c);
        const double stretch = strtod(c, NULL);
        if (!(stretch <= 10)) {
            print_error("a statistics row before the report shows a stretch of %g: %.60s\n", stretch, line + 1);
            fail();
        }
        rows++;
    }
    assert_true(rows > 20); /* the cloth fell for some steps before it landed */
    free(text);
}

/* An 8 x 8 cloth of cloth_corners.scene's springs and node mass, hung by two corners under gravity, undamped
 * (nothing takes energy out, so the energy bound applies), at dt = 0.0152145 s: omega_max dt = 50 (omega_max =
 * 3286 rad/s). RUN: the run section's lines. */
static const char *swinging_cloth(const char *name, const char *run)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "world\n gravity 0 -9.81 0\nend\n"
             "body cloth\n nx 8\n ny 8\n spacing 0.02\n origin 0 1 0\n u 1 0 0\n v 0 0 1\n mass 2e-4\n"
             " pins two_corners\n springs structural k 200\n springs shear k 50\n springs bend k 20\nend\n"
             "run\n%send\n",
             run);
    const char *sc = hk_test_path(name);
    hk_test_write(sc, text);
    return sc;
}

/* The total energy of the stats CSV's first row (into *first) and the largest of any row [J]. */
static double largest_energy(const char *csv, double *first)
{
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_non_null(strstr(text, "step,time,kinetic,gravity,spring,total,"));
    double most = -INFINITY;
    int rows = 0;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const char *c = line + 1;
        for (int k = 0; k < 5 && c; k++) c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
        assert_non_null(c);
        const double e = strtod(c, NULL);
        if (rows++ == 0) *first = e;
        most = e > most ? e : most;
    }
    assert_true(rows > 1);
    free(text);
    return most;
}

/* The trapezoidal rule keeps a linear spring's energy at every dt, but not a swinging cloth's: at omega_max dt = 50
 * its energy grows until the run stops. The hint says what is true of it (stable on linear springs only) and names
 * the cure, implicit_euler, which on the same cloth at the same dt never has more energy than at the start. */
static void test_trapezoidal_large_step(void **state)
{
    (void)state;
    const char *sc = swinging_cloth("swing.scene", " integrator trapezoidal\n dt 0.0152145\n time 10\n");
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    const char *const want[] = {
        "simulation blew up at step 52 ",
        "hooke: hint: omega*dt = 50 (omega_max = 3286 rad/s from k and m, substep 0.0152 s, newton_iterations 1); "
        "trapezoidal is stable at every dt on linear springs only: where springs turn and stretch it can gain "
        "energy at large omega*dt, its solves converged or not (more newton_iterations do not help): use "
        "implicit_euler, which damps, or lower dt or set dt_max. ",
        NULL};
    expect(args, 2, want);
    hk_run r = hk_test_hooke("", args);
    assert_null(strstr(r.err, "stable at every dt on springs"));
    hk_run_free(&r);

    const char *csv = hk_test_path("swing_implicit_euler.csv");
    snprintf(args, sizeof args, "run '%s' --integrator implicit_euler --stats '%s' --every 1 --quiet", sc, csv);
    hk_test_hooke_ok(args);
    double e0;
    const double most = largest_energy(csv, &e0);
    print_message("implicit_euler: energy at the start %.9g J, largest %.9g J\n", e0, most);
    assert_true(most <= e0);
}

/* Of the stats CSV's rows (every step): the total energy of the first (into *first), the last (into *last), the
 * largest excess of any row over the first [J] (the return), and the last step with a total above the first (-1:
 * none). */
static double excess_over_start(const char *csv, double *first, double *last, long *last_step_above)
{
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_non_null(strstr(text, "step,time,kinetic,gravity,spring,total,"));
    double most = 0;
    int rows = 0;
    *last_step_above = -1;
    for (const char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const long step = strtol(line + 1, NULL, 10);
        const char *c = line + 1;
        for (int k = 0; k < 5 && c; k++) c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL;
        assert_non_null(c);
        const double e = strtod(c, NULL);
        if (rows++ == 0) *first = e;
        if (e > *first) *last_step_above = step;
        most = e - *first > most ? e - *first : most;
        *last = e;
    }
    assert_true(rows > 1);
    free(text);
    return most;
}

/* The same cloth at omega_max dt = 20 (dt = 0.0060858 s), the guide's figures ("Explicit or implicit"): the
 * trapezoidal rule runs its 10 s, its energy above the start only in its first 8 steps, by at most 5e-5 of it
 * (4.75e-6 J, 3.9e-5 of its 0.1216 J in either build), and below it from then on, 7 % below at the end; with its
 * solves converged the run stops as an energy runaway (at step 321, 391 in the double build). */
static void test_trapezoidal_moderate_step(void **state)
{
    (void)state;
    const char *sc = swinging_cloth("swing20.scene", " integrator trapezoidal\n dt 0.0060858\n time 10\n");
    const char *csv = hk_test_path("swing20.csv");
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --stats '%s' --every 1 --quiet", sc, csv);
    hk_test_hooke_ok(args);
    double e0 = 0, end = 0;
    long last_above;
    const double most = excess_over_start(csv, &e0, &end, &last_above);
    print_message("trapezoidal at omega_max dt = 20: energy at the start %.9g J, at the end %.9g J; at most %.3g J "
                  "(%.3g of it) above it, the last time at step %ld\n",
                  e0, end, most, most / e0, last_above);
    assert_true(e0 > 0 && most > 0);
    assert_le(most, 5e-5 * e0);
    assert_true(last_above >= 1 && last_above <= 8);
    assert_near(end, 0.93 * e0, 0.01 * e0);
    /* its solves converged (newton_iterations 20) it gains energy later, until the run stops before its 10 s */
    sc = swinging_cloth("swing20_newton.scene", " integrator trapezoidal\n newton_iterations 20\n dt 0.0060858\n"
                                                " time 10\n");
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    const char *const want[] = {"simulation blew up at step ", "energy runaway", NULL};
    expect(args, 2, want);
}

/* Backward Euler linearised once a substep is stable at every dt on linear springs only: on the same cloth at
 * omega_max dt = 1000 its first step stretches a spring 45 times. The hint names Newton iterations, and with 8 of
 * them a substep the cloth swings down losing energy. */
static void test_implicit_euler_large_step(void **state)
{
    (void)state;
    const char *sc =
        swinging_cloth("swing_ie.scene", " integrator implicit_euler\n newton_iterations 1\n dt 0.30429\n steps 300\n");
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    const char *const want[] = {
        "simulation blew up at step 1 ", "runaway stretch in spring ",
        "hooke: hint: omega*dt = 1000 (omega_max = 3286 rad/s from k and m, substep 0.304 s, newton_iterations 1); "
        "implicit_euler is stable at every dt on linear springs only: each substep solves the springs linearised "
        "at its start, and where they turn and stretch far within a substep the step overshoots: raise "
        "newton_iterations, or drop it for the minimisation, or lower dt or set dt_max. ",
        NULL};
    expect(args, 2, want);

    /* 8 Newton iterations a substep, and the minimisation (the default) */
    const char *const runs[2] = {" integrator implicit_euler\n newton_iterations 8\n dt 0.30429\n steps 300\n",
                                 " integrator implicit_euler\n dt 0.30429\n steps 300\n"};
    for (int r = 0; r < 2; r++) {
        sc = swinging_cloth(r ? "swing_min.scene" : "swing_newton.scene", runs[r]);
        const char *csv = hk_test_path(r ? "swing_min.csv" : "swing_newton.csv");
        snprintf(args, sizeof args, "run '%s' --stats '%s' --every 1 --quiet", sc, csv);
        hk_test_hooke_ok(args);
        double e0;
        const double most = largest_energy(csv, &e0);
        print_message("implicit_euler, %s: energy at the start %.9g J, largest %.9g J\n",
                      r ? "minimised" : "8 Newton iterations", e0, most);
        assert_true(most <= e0);
    }
}

/* A run length whose step count a run cannot hold is refused by name. */
static void test_run_length_overflow(void **state)
{
    (void)state;
    const char *const t[] = {"hooke: error: " SCENE("rope.scene") ": --time 1e+30 s at dt = 0.0166667 s is 6e+31 "
                                                                  "steps, more than a run can count (9.2e+18): shorten "
                                                                  "the run or lengthen dt",
                             NULL};
    expect("run " SCENE("rope.scene") " --time 1e30", 1, t);
    const char *sc = hk_test_path("long_time.scene");
    hk_test_write(sc, "world\nend\nbody spring\n a 0 0 0\n b 1 0 0\n mass_b 1\n springs main k 1\nend\nrun\n dt 1e-9\n "
                      "time 1e12\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s'", sc);
    const char *const u[] = {"the scene's time 1e+12 s at dt = 1e-09 s is 1e+21 steps, more than a run can count",
                             NULL};
    expect(args, 1, u);
}

/* A cloth falling freely, without ground, for 100 s (stable: omega*dt = 0.29): 49 km down at 981 m/s, 62 kJ moved
 * from gravity's energy to the kinetic; the float rounding of positions and speeds that large moves the total by 163
 * J, 130 times its starting 1.26 J, but no integrator adds it. The guard allows what rounding explains for the work
 * gravity did (diagnosis.h), so the run ends at its end (it stopped at step 61061, t = 91.6 s, as an energy runaway,
 * when the guard compared the drift with the starting energy alone). */
static void test_free_fall_runs_to_end(void **state)
{
    (void)state;
    const char *sc = hk_test_path("fall.scene");
    hk_test_write(sc, "world\n gravity 0 -9.81 0\nend\n"
                      "body cloth\n nx 8\n ny 8\n spacing 0.02\n origin 0 1 0\n u 1 0 0\n v 0 0 1\n mass 2e-3\n"
                      " springs structural k 2 damping 0.02\n springs shear k 5 damping 0.02\n"
                      " springs bend k 2 damping 0.02\nend\n"
                      "run\n integrator velocity_verlet\n dt 0.0015\n time 100\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s' --quiet", sc);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0) {
        print_error("exit %d\nstdout: %s\nstderr: %s\n", r.status, r.out, r.err);
        fail();
    }
    assert_int_equal(strtoll(hk_test_field(r.out, "steps_run"), NULL, 10), 66667);
    hk_run_free(&r);
}

/* Real runaways are caught at the step they were before the guard allowed for rounding: the rk4 oscillator above at
 * step 14 (no gravity: nothing allowed), and an oscillator hanging under gravity past semi-implicit Euler's limit
 * (omega*dt = 2.01) at step 26, where the work gravity has done allows a thousandth of a joule against 1150. */
static void test_runaway_same_step(void **state)
{
    (void)state;
    const char *rk4 = hk_test_path("rk4.scene");
    hk_test_write(rk4, "world\n gravity 0 0 0\nend\n"
                       "body spring\n a 0 0 0\n b 1.1 0 0\n mass_a 1\n mass_b 1\n pin_a 1\n"
                       " springs main k 100 rest_length 1\nend\n"
                       "run\n integrator rk4\n dt 0.28851\n steps 20000\nend\n");
    char args[512];
    snprintf(args, sizeof args, "run '%s' --quiet", rk4);
    const char *const at14[] = {"simulation blew up at step 14 (", "energy runaway", NULL};
    expect(args, 2, at14);
    const char *hang = hk_test_path("hang.scene");
    hk_test_write(hang, "world\n gravity 0 -9.81 0\nend\n"
                        "body spring\n a 0 0 0\n b 0 -1.1 0\n mass_a 1\n mass_b 1\n pin_a 1\n"
                        " springs main k 100 rest_length 1\nend\n"
                        "run\n integrator semi_implicit_euler\n dt 0.201\n steps 20000\nend\n");
    snprintf(args, sizeof args, "run '%s' --quiet", hang);
    const char *const at26[] = {"simulation blew up at step 26 (t = 5.226 s): energy runaway: the total energy grew to "
                                "1149.8 J from -10.291 J",
                                "J that float rounding explains over 26 substeps with ", NULL};
    expect(args, 2, at26);
}

/* A stats file that cannot be written fails the run at the row that met
 * the error, not at the end: /dev/full refuses the first row. */
static void test_stats_write_error(void **state)
{
    (void)state;
    const char *const want[] = {"hooke: error: cannot write /dev/full: No space left on device", NULL};
    expect("run " SCENE("rope.scene") " --stats /dev/full --quiet", 3, want);
}

/* scenes/cloth_box.scene with the box's damping_ratio 1 replaced by `ratio`, as a file of the test. */
static const char *cloth_box_damped(const char *ratio)
{
    char *text = hk_test_slurp(SCENE("cloth_box.scene"));
    assert_non_null(text);
    char *at = strstr(text, "damping_ratio 1\n");
    assert_non_null(at);
    const char *path = hk_test_path("damped.scene");
    char *out = malloc(strlen(text) + 64);
    assert_non_null(out);
    snprintf(out, strlen(text) + 64, "%.*sdamping_ratio %s\n%s", (int)(at - text), text, ratio,
             at + strlen("damping_ratio 1\n"));
    hk_test_write(path, out);
    free(out);
    free(text);
    return path;
}

/* A collider whose damper the explicit step cannot bear: the cloth on the box of cloth_box.scene (k = 200 N/m,
 * nodes of 2e-4 kg, substeps of 2.45e-4 s: sqrt(k/m) dt = 0.245) with damping_ratio 30 gives c dt / m = 14.7, past
 * the (sqrt(k/m) dt)^2 + 2 c dt / m < 4 of semi-implicit Euler: a warning before the run names it with the largest
 * ratio the step bears, (4 - 0.245^2) / (4 x 0.245) = 4.02, and the blow-up's hint names the damper, not omega*dt
 * (1.33, within the limit 2, which the hint said before). At ratio 1, and under implicit Euler at 30, no warning. */
static void test_contact_damping(void **state)
{
    (void)state;
    char args[512];
    snprintf(args, sizeof args, "run '%s' --steps 40", cloth_box_damped("30"));
    const char *const want[] = {
        "hooke: warning: ",
        "damped.scene: the run may blow up: collider 0 (box) damps a particle's normal motion by "
        "c dt / m = 2 damping_ratio sqrt(k/m) dt = 14.7 at the lightest particle (m = 0.0002 kg; stiffness 200 N/m, "
        "damping_ratio 30, substep 0.000245 s), past what semi_implicit_euler's step bears ((sqrt(k/m) dt)^2 + 2 c dt "
        "/ m < 4): each step returns the particle faster than it came; give a damping_ratio below 4.02, lower dt or "
        "set dt_max, or use implicit_euler\n",
        "simulation blew up at step ",
        "hooke: hint: collider 0 (box) damps a particle's normal motion by c dt / m = 2 damping_ratio sqrt(k/m) dt = "
        "14.7",
        NULL};
    expect(args, 2, want);
    hk_run r = hk_test_hooke("", args);
    assert_null(strstr(r.err, "omega*dt")); /* the springs are not the cause */
    hk_run_free(&r);
    snprintf(args, sizeof args, "run '%s' --steps 40 --quiet", cloth_box_damped("1"));
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
    snprintf(args, sizeof args, "run '%s' --steps 2 --quiet --integrator implicit_euler", cloth_box_damped("30"));
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
}

/* Every implicit integrator of the table, and each of its Newton modes, has its own way of failing in the energy
 * runaway's hint: its name, how it fails and what to do (the hint of the mode it runs in, not another's). */
static void test_every_implicit_mode_hinted(void **state)
{
    (void)state;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of(k);
        for (int newton = 0; newton < 2 && in->implicit; newton++) {
            if (newton && !in->linearised) continue;
            hk_world *w = hk_test_empty_world();
            hk_integrator_def d = hk_default_integrator_def();
            d.kind = k;
            d.dt = 0.01;
            d.newton_iterations = newton ? 3 : 0;
            assert_int_equal(hk_world_set_integrator(w, &d), 0);
            hk_energy_guard g = {0};
            g.active = 1, g.e0 = 1, g.scale = 1;
            char *text = NULL;
            size_t len = 0;
            FILE *out = open_memstream(&text, &len);
            hk_report_blowup(out, w, NULL, &g, 1000, 10, "x.scene", 0);
            fclose(out);
            const int minimised = in->minimised && (!newton || !in->linearised);
            char named[64];
            snprintf(named, sizeof named, "; %s is stable at every dt on linear springs only: ", in->name);
            if (!strstr(text, named) || !strstr(text, minimised ? "minimises" : "newton_iterations")) {
                print_error("%s, newton_iterations %d: %s\n", in->name, d.newton_iterations, text);
                fail();
            }
            free(text);
            hk_world_destroy(w);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overload),
        cmocka_unit_test(test_initial_stretch),
        cmocka_unit_test(test_energy_runaway),
        cmocka_unit_test(test_run_length_overflow),
        cmocka_unit_test(test_stats_write_error),
        cmocka_unit_test(test_every_implicit_mode_hinted),
        cmocka_unit_test(test_contact_blowup_at_once),
        cmocka_unit_test(test_trapezoidal_large_step),
        cmocka_unit_test(test_trapezoidal_moderate_step),
        cmocka_unit_test(test_implicit_euler_large_step),
        cmocka_unit_test(test_free_fall_runs_to_end),
        cmocka_unit_test(test_runaway_same_step),
        cmocka_unit_test(test_contact_damping),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
