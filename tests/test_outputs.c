/* test_outputs.c — PNG frames, --format errors, blow-up reports (their last good frame decoded), the progress bar's
 * absence, the stability profiler's answers. Frame files: test_frames.c. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "frames.h"
#include "hk_test_cli.h"
#include "hk_test_png.h"
#include "hk_test_vtk.h"

#include <math.h>
#include <stdint.h>
#include <sys/stat.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* Decodes a PNG: width, height, RGB, and at least min_ink pixels differ from the top-left one. */
static void png_check(const char *path, int w, int h, int min_ink)
{
    hk_png p = hk_test_png_read(path);
    assert_int_equal(p.w, w);
    assert_int_equal(p.h, h);
    const int ink = hk_test_png_ink(&p);
    free(p.rgb);
    if (ink < min_ink) {
        print_error("%s: only %d pixels differ from the background\n", path, ink);
        fail();
    }
}

static void test_png_frame(void **state)
{
    (void)state;
    const char *dir = hk_test_own_path("pngs");
    char args[512], path[512];
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 10 --every 10 --out '%s' --format png --quiet", dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000010.png", dir);
    png_check(path, 640, 480, 20000);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --out x --format vtk,gif");
    assert_int_equal(r.status, 1);
    char want[512]; /* the formats from their table (frames.c) */
    snprintf(want, sizeof want, "hooke: error: --format expects a comma-separated list of %s, got 'vtk,gif'",
             hk_frames_format_names());
    assert_non_null(strstr(want, "list of vtk, obj, "));
    assert_non_null(strstr(r.err, want));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --format vtk");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --format needs --out DIR"));
    hk_run_free(&r);
}

static void test_blowup_report(void **state)
{
    (void)state;
    const char *dir = hk_test_own_path("blowup");
    char args[512], path[512];
    /* omega = 10 rad/s, dt = 0.25 s: omega*dt = 2.5 > 2 */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --dt 0.25 --steps 200 --every 2 --out '%s' --quiet",
             dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, " status=BLOWUP"));
    assert_non_null(strstr(r.err, "simulation blew up at step "));
    /* its energy passes 100 times its start (amplitude 10 times) long before the stretch limit (90 times) */
    assert_non_null(strstr(r.err, "energy runaway: the total energy grew to "));
    assert_non_null(strstr(r.err, "times its starting scale of 0.5 J (the limit is 100); nothing in the scene feeds "
                                  "it energy"));
    assert_non_null(strstr(r.err, "hooke: hint: omega*dt = 2.5 (omega_max = 10 rad/s from k and m, substep 0.25 s); "
                                  "semi_implicit_euler is stable only below omega*dt = 2"));
    const char *last = strstr(r.err, "hooke: last good frame: ");
    assert_non_null(last);
    long step;
    assert_int_equal(sscanf(strstr(last, "(step ") + 6, "%ld", &step), 1);
    snprintf(path, sizeof path, "%s/frame_%06ld.vtp", dir, step);
    hk_vtp v = hk_vtp_read(path);
    const hk_vtk_arr *pts = hk_vtp_get(&v, "Points", "Points");
    assert_int_equal(pts->values, 3 * v.points);
    for (long i = 0; i < 3 * v.points; i++) assert_true(fabs(hk_vtk_real(pts, i)) < 11);
    hk_vtp_free(&v);
    hk_run_free(&r);
    /* a tighter limit from the command line, below the scene's initial stretch (1.1 m on 1 m): refused as input */
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --steps 10 --stretch-limit 1.05 --quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "oscillator.scene:12: error: body 0 starts past the stretch limit: spring 0 of "
                                  "family main has r/L0 = 1.1, more than 1.05"));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --stretch-limit 1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --stretch-limit expects a ratio > 1, got '1'"));
    hk_run_free(&r);
}

static void test_no_progress_without_terminal(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "run " SCENE("rope.scene") " --steps 30");
    assert_int_equal(r.status, 0);
    assert_null(strchr(r.err, '\r'));
    assert_null(strstr(r.err, "ETA"));
    assert_null(strstr(r.out, "ETA"));
    hk_run_free(&r);
}

/* omega*dt at the stability limit of `name` in the profiler's table. */
static double limit_of(const char *table, const char *name)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s ", name);
    const char *p = strstr(table, pat);
    assert_non_null(p);
    double dt, wdt;
    assert_int_equal(sscanf(p + strlen(pat), "%lf %lf", &dt, &wdt), 2);
    return wdt;
}

static void test_stability_oscillator(void **state)
{
    (void)state;
    const char *csv = hk_test_own_path("stability.csv");
    char args[512];
    snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " --time 2 --out '%s'", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "omega_max = 10 rad/s"));
    const double sie = limit_of(r.out, "semi_implicit_euler"), verlet = limit_of(r.out, "verlet"),
                 vv = limit_of(r.out, "velocity_verlet"), rk4 = limit_of(r.out, "rk4");
    assert_true(fabs(sie / 2 - 1) < 0.02);
    assert_true(fabs(verlet / 2 - 1) < 0.02);
    assert_true(fabs(vv / 2 - 1) < 0.02);
    assert_true(fabs(rk4 / 2.828427 - 1) < 0.02);
    hk_run_free(&r);
    /* explicit Euler gains energy at every dt of the sweep */
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    int rows = 0;
    for (const char *p = strstr(text, "\neuler,sweep,"); p; p = strstr(p + 1, "\neuler,sweep,")) {
        double dt, wdt, drift;
        int stable;
        assert_int_equal(sscanf(p + 13, "%lf,%lf,%d,%lf", &dt, &wdt, &stable, &drift), 4);
        assert_true(!stable || drift > 0);
        rows++;
    }
    assert_int_equal(rows, 6);
    free(text);
    r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " --integrators rk4,bogus");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --integrators: unknown integrator 'bogus'"));
    hk_run_free(&r);
}

/* --out makes the whole folder path; the files written at the end (--state-out, --checkpoint) are checked before
 * the first step, so a bad path costs nothing: exit 3, no summary line, no frame. */
static void test_output_paths(void **state)
{
    (void)state;
    char args[1024], path[512];
    const char *nested = hk_test_own_path("deep/er/frames");
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 10 --every 10 --out '%s' --quiet", nested);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    snprintf(path, sizeof path, "%s/frame_000010.vtp", nested);
    assert_int_equal(access(path, F_OK), 0);
    hk_run_free(&r);
    const char *frames = hk_test_own_path("never");
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 10 --every 10 --out '%s' --state-out /nonexistent/h/x.state",
             frames);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write /nonexistent/h/x.state: No such file or directory "
                                  "(--state-out, checked before the run starts)"));
    assert_null(strstr(r.out, "state_hash="));
    assert_int_not_equal(access(frames, F_OK), 0); /* nothing was written */
    hk_run_free(&r);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 10 --checkpoint '%s' --checkpoint-on-exit",
             hk_test_own_path(""));
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, ": Is a directory (--checkpoint, checked before the run starts)"));
    hk_run_free(&r);
    /* a file where a folder of the path must be */
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --steps 10 --out " SCENE("oscillator.scene/x"));
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "a part of the path is a file, not a folder"));
    hk_run_free(&r);
}

/* Without --every and a scene that does not say, outputs come about 100 times in the run (rope: 300 steps, every
 * 3rd: frames 0, 3, ..., 300), and the header says so; --every still wins. */
static void test_default_every(void **state)
{
    (void)state;
    const char *dir = hk_test_own_path("every");
    char args[1024], path[512];
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --out '%s' --threads 1", dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, ", outputs every 3 steps (about 100; --every N to choose)"));
    hk_run_free(&r);
    int frames = 0;
    for (int step = 0; step <= 300; step++) {
        snprintf(path, sizeof path, "%s/frame_%06d.vtp", dir, step);
        const int there = access(path, F_OK) == 0;
        assert_int_equal(there, step % 3 == 0);
        frames += there;
    }
    assert_int_equal(frames, 101);
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --out '%s' --every 150 --threads 1",
             hk_test_own_path("every2"));
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.err, "outputs every"));
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000150.vtp", hk_test_own_path("every2"));
    assert_int_equal(access(path, F_OK), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_png_frame),
        cmocka_unit_test(test_blowup_report),
        cmocka_unit_test(test_output_paths),
        cmocka_unit_test(test_default_every),
        cmocka_unit_test(test_no_progress_without_terminal),
        cmocka_unit_test(test_stability_oscillator),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
