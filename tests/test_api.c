/* test_api.c — the scene and frame functions of hooke.h, linked against libhooke.so as a user's program is:
 * run settings, errors as text, mesh paths, the same world as the program's, frames and series. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <dirent.h>
#include <pthread.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
    static char buf[4][256];
    static int slot;
    char *p = buf[slot++ % 4];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

/* The whole file (NULL if unreadable). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    return s;
}

static int count_of(const char *text, const char *word)
{
    int n = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) n++;
    return n;
}

/* Files in dir whose names start with prefix. */
static int files_starting(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) n++;
    closedir(d);
    return n;
}

static void test_version_and_formats(void **state)
{
    (void)state;
    assert_string_equal(hk_version(), HOOKE_VERSION);
    assert_string_equal(hk_frame_format_name(0), "vtk");
    assert_string_equal(hk_frame_format_name(1), "obj");
    assert_string_equal(hk_frame_format_name(2), "png");
    int n = 0;
    while (hk_frame_format_name(n)) n++;
    assert_true(n >= 3);
    assert_null(hk_frame_format_name(-1));
    assert_null(hk_frame_format_name(n));
}

/* The oscillator: its run section, its integrator already set, and the closed form after 0.5 s. */
static void test_load_scene(void **state)
{
    (void)state;
    char err[512] = "untouched";
    hk_run_settings run;
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/oscillator.scene", &run, err, sizeof err);
    assert_non_null(w);
    assert_string_equal(err, "");
    assert_int_equal(run.steps, 5000);
    assert_true(run.time == 0);
    assert_int_equal(run.integrator.kind, HK_SEMI_IMPLICIT_EULER);
    assert_true(run.integrator.dt == 1e-3);
    assert_int_equal(run.every, 0); /* the scene does not say */
    assert_true(run.stretch_limit == 10);
    assert_int_equal(hk_world_integrator(w).kind, HK_SEMI_IMPLICIT_EULER);
    assert_true(hk_world_integrator(w).dt == 1e-3);
    assert_int_equal(hk_world_particles(w).count, 2);
    for (int s = 0; s < 500; s++) hk_world_step(w);
    /* x(t) = 1 + 0.1 cos(10 t) m; symplectic Euler at omega dt = 0.01 stays within omega dt of the amplitude */
    const double x = hk_world_position(w, 1).x, t = hk_world_time(w);
    assert_near(t, 0.5, 1e-12);
    assert_near(x, 1 + 0.1 * cos(10 * t), 1e-3);
    hk_world_destroy(w);

    /* the run settings are optional; time-based runs report time, steps 0 */
    w = hk_world_load_scene(HOOKE_SCENES_DIR "/rope.scene", NULL, NULL, 0);
    assert_non_null(w);
    hk_world_destroy(w);
    w = hk_world_load_scene(HOOKE_SCENES_DIR "/rope.scene", &run, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(run.steps, 0);
    assert_near(run.time, 5, 0);
    assert_near(run.integrator.dt_max, 0.002, 0);
    hk_world_destroy(w);
}

/* The run the settings describe, as `hooke run` runs it (hk_run_plan_of): the length from steps or from time, about
 * 100 outputs where the settings give no every, the stretch limit's default; a host's loop over it. A scene
 * without `every` gave every 0 and nothing else: `s % run.every` divided by zero. */
static void test_run_plan(void **state)
{
    (void)state;
    char err[256];
    hk_run_settings run;
    hk_run_plan plan;
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/rope.scene", &run, err, sizeof err);
    assert_non_null(w);
    assert_int_equal(run.every, 0); /* time 5 s at dt 1/60 s, no every */
    assert_int_equal(hk_run_plan_of(&run, &plan, err, sizeof err), HK_OK);
    assert_string_equal(err, "");
    assert_int_equal(plan.steps, 300);
    assert_int_equal(plan.every, 3);
    assert_int_equal(plan.every_given, 0);
    assert_true(plan.stretch_limit == HK_STRETCH_LIMIT);
    int outputs = 0; /* a host's loop: statistics every plan.every steps, to the end */
    for (int64_t s = 1; s <= plan.steps; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        if (s % plan.every == 0) outputs++;
    }
    assert_int_equal(outputs, HK_RUN_OUTPUTS);
    assert_int_equal(hk_world_step_count(w), 300);
    hk_world_destroy(w);
    w = hk_world_load_scene(HOOKE_SCENES_DIR "/oscillator.scene", &run, err, sizeof err); /* steps 5000 */
    assert_non_null(w);
    hk_world_destroy(w);
    assert_int_equal(hk_run_plan_of(&run, &plan, err, sizeof err), HK_OK);
    assert_int_equal(plan.steps, 5000);
    assert_int_equal(plan.every, 50);
    /* ceil(steps / 100), at least 1; a given every and stretch limit stand */
    static const int64_t steps[][2] = {{1, 1}, {99, 1}, {100, 1}, {101, 2}, {250, 3}, {INT64_MAX, 92233720368547759}};
    for (int i = 0; i < 6; i++) {
        run.steps = steps[i][0];
        assert_int_equal(hk_run_plan_of(&run, &plan, NULL, 0), HK_OK);
        assert_int_equal(plan.every, steps[i][1]);
    }
    run.steps = 1000;
    run.every = 7;
    run.stretch_limit = 2.5;
    assert_int_equal(hk_run_plan_of(&run, &plan, NULL, 0), HK_OK);
    assert_int_equal(plan.every, 7);
    assert_int_equal(plan.every_given, 1);
    assert_true(plan.stretch_limit == 2.5);
    /* a time: ceil(time / dt), a time of a whole number of steps to rounding included (0.3 / 0.1 = 2.9999...) */
    run.steps = 0;
    run.every = 0;
    run.stretch_limit = 0; /* not given: the default */
    run.time = 0.3;
    run.integrator.dt = 0.1;
    assert_int_equal(hk_run_plan_of(&run, &plan, NULL, 0), HK_OK);
    assert_int_equal(plan.steps, 3);
    assert_int_equal(plan.every, 1);
    assert_true(plan.stretch_limit == HK_STRETCH_LIMIT);
    run.time = 0.35;
    assert_int_equal(hk_run_plan_of(&run, &plan, NULL, 0), HK_OK);
    assert_int_equal(plan.steps, 4);
    run.steps = 10; /* steps win over time */
    assert_int_equal(hk_run_plan_of(&run, &plan, NULL, 0), HK_OK);
    assert_int_equal(plan.steps, 10);
    /* refused, by name; the plan zeroed */
    static const struct {
        int64_t steps, every;
        double time, dt, stretch;
        const char *why;
    } bad[] = {
        {0, 0, 0, 0.1, 0, "no run length: steps and time are both 0"},
        {0, 0, 1e12, 1e-9, 0,
         "time 1e+12 s at dt = 1e-09 s is 1e+21 steps, more than a run can count (9.2e+18): shorten the run or "
         "lengthen dt"},
        {-1, 0, 0, 0.1, 0, "steps must be >= 0 (got -1)"},
        {10, -1, 0, 0.1, 0, "every must be >= 0 (got -1)"},
        {0, 0, -1, 0.1, 0, "time must be 0 or a finite number of seconds > 0 (got -1)"},
        {0, 0, 1, 0, 0, "integrator.dt must be a finite number of seconds > 0 (got 0)"},
        {10, 0, 0, 0.1, 0.5, "stretch_limit must be 0 (not given) or a finite ratio > 1 (got 0.5)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run.steps = bad[i].steps, run.every = bad[i].every, run.time = bad[i].time;
        run.integrator.dt = bad[i].dt, run.stretch_limit = bad[i].stretch;
        plan.steps = plan.every = 99;
        assert_int_equal(hk_run_plan_of(&run, &plan, err, sizeof err), HK_ERR_INVALID);
        assert_string_equal(err, bad[i].why);
        assert_int_equal(plan.steps, 0);
        assert_int_equal(plan.every, 0);
    }
    assert_int_equal(hk_run_plan_of(NULL, &plan, NULL, 0), HK_ERR_INVALID);
}

/* Scene text in memory builds the same world as the file; meshes are found beside the name. */
static void test_parse_scene(void **state)
{
    (void)state;
    char err[1024];
    const char *path = HOOKE_SCENES_DIR "/torus_asc.scene";
    char *text = slurp(path);
    assert_non_null(text);
    hk_world *a = hk_world_load_scene(path, NULL, err, sizeof err);
    assert_non_null(a);
    hk_run_settings run;
    hk_world *b = hk_world_parse_scene(text, HOOKE_SCENES_DIR "/in-memory.scene", &run, err, sizeof err);
    assert_non_null(b);
    assert_int_equal(run.steps, 1000);
    for (int s = 0; s < 20; s++) {
        hk_world_step(a);
        hk_world_step(b);
    }
    assert_int_equal(hk_world_particles(a).count, hk_world_particles(b).count);
    assert_true(hk_world_state_hash(a) == hk_world_state_hash(b));
    hk_world_destroy(a);
    hk_world_destroy(b);
    /* with no name, torus.asc is looked for in the working folder, where it is not */
    assert_int_equal(chdir(tmpdir), 0);
    assert_null(hk_world_parse_scene(text, NULL, NULL, err, sizeof err));
    assert_int_equal(strncmp(err, "<scene>:", 8), 0);
    assert_non_null(strstr(err, "torus.asc"));
    free(text);
}

static void test_scene_errors(void **state)
{
    (void)state;
    char err[512];
    hk_run_settings run;
    assert_null(hk_world_load_scene(tmp_path("missing.scene"), &run, err, sizeof err));
    char want[512];
    snprintf(want, sizeof want, "%s: error: cannot open scene: ", tmp_path("missing.scene"));
    assert_int_equal(strncmp(err, want, strlen(want)), 0);

    const char *bad = "# a rope with a typo\nbody rope\n count 3\n mass abc\n spacing 0.1\nend\n";
    assert_null(hk_world_parse_scene(bad, "typo.scene", &run, err, sizeof err));
    assert_string_equal(err, "typo.scene:4:7: error: expected a number for 'mass', got 'abc'");
    /* no room for the message, or none at all: still NULL, no overrun */
    char small[8];
    memset(small, 'x', sizeof small);
    assert_null(hk_world_parse_scene(bad, "typo.scene", NULL, small, sizeof small));
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_null(hk_world_parse_scene(bad, "typo.scene", NULL, NULL, 0));
    assert_null(hk_world_parse_scene(NULL, "none.scene", NULL, err, sizeof err));
    assert_non_null(strstr(err, "none.scene:1:1: error: "));
    assert_null(hk_world_load_scene(NULL, NULL, err, sizeof err));
    assert_string_equal(err, "<scene>: error: no scene file name");
}

static void test_frames(void **state)
{
    (void)state;
    char err[512];
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/oscillator.scene", NULL, err, sizeof err);
    assert_non_null(w);

    /* one frame in two formats, the folder created */
    const char *dir = tmp_path("one");
    assert_int_equal(hk_frame_write(w, "vtk,obj", dir, err, sizeof err), 0);
    assert_int_equal(files_starting(dir, "frame_000000.vt"), 1);
    char *obj = slurp(tmp_path("one/frame_000000.obj"));
    assert_non_null(obj);
    assert_true(strncmp(obj, "v ", 2) == 0 || strstr(obj, "\nv "));
    assert_int_equal(count_of(obj, "\nv ") + (strncmp(obj, "v ", 2) == 0), 2); /* the two particles */
    free(obj);

    /* a series: one file per frame, named by the step */
    const char *series = tmp_path("series");
    hk_frame_writer *fw = hk_frame_writer_open(series, "obj", err, sizeof err);
    assert_non_null(fw);
    for (int f = 0; f < 3; f++) {
        assert_int_equal(hk_frame_writer_write(fw, w, err, sizeof err), 0);
        for (int s = 0; s < 10; s++) hk_world_step(w);
    }
    hk_frame_writer_close(fw);
    assert_int_equal(files_starting(series, "frame_"), 3);
    for (int step = 0; step <= 20; step += 10) {
        char name[64];
        snprintf(name, sizeof name, "series/frame_%06d.obj", step);
        assert_int_equal(access(tmp_path(name), R_OK), 0);
    }

    /* what is refused, with the reason */
    assert_null(hk_frame_writer_open(series, "vtk,gif", err, sizeof err));
    assert_non_null(strstr(err, "frame formats 'vtk,gif': expected a comma-separated list of vtk, obj"));
    assert_int_equal(hk_frame_write(w, "", series, err, sizeof err), -1);
    assert_non_null(strstr(err, "frame formats '': expected"));
    assert_int_equal(hk_frame_write(w, NULL, series, err, sizeof err), -1);
    const char *file = tmp_path("a-file");
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(hk_frame_write(w, "obj", file, err, sizeof err), HK_ERR_IO); /* the file system's refusal */
    assert_non_null(strstr(err, "a part of the path is a file, not a folder"));
    char below[512];
    snprintf(below, sizeof below, "%s/frames", file);
    assert_int_equal(hk_frame_write(w, "obj", below, err, sizeof err), HK_ERR_IO);
    assert_non_null(strstr(err, "a part of the path is a file, not a folder"));
    /* a folder path whose parents are missing is made whole */
    assert_int_equal(hk_frame_write(w, "obj", tmp_path("new/parents/frames"), err, sizeof err), 0);
    assert_int_equal(files_starting(tmp_path("new/parents/frames"), "frame_"), 1);
    assert_int_equal(hk_frame_writer_write(NULL, w, err, sizeof err), -1);
    assert_string_equal(err, "frames: no frame writer given");
    hk_frame_writer_close(NULL);
    hk_world_destroy(w);
}

/* The header's thread rule: different worlds on different threads at once, from their creation to their end. Four
 * threads each load, step and hash the same scene while the others do; every hash is the one a single thread gets
 * (and the TSan build finds no race). */
#define WORLD_THREADS 4
static void *own_world(void *arg)
{
    uint64_t *hash = arg;
    char err[512];
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/cloth_corners.scene", NULL, err, sizeof err);
    if (!w) return NULL;
    hk_world_set_threads(w, 1);
    for (int i = 0; i < 30; i++)
        if (hk_world_step(w) != HK_OK) break;
    *hash = hk_world_step_count(w) == 30 ? hk_world_state_hash(w) : 0;
    hk_world_destroy(w);
    return NULL;
}

/* hk_world_set_positions and _velocities check every value before they write any: a refused array leaves the world
 * (its state hash) as it was and names the first refused particle; an accepted one is what the world then holds. */
static void test_set_many(void **state)
{
    (void)state;
    char err[512];
    hk_run_settings run;
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/rope.scene", &run, err, sizeof err);
    assert_non_null(w);
    for (int s = 0; s < 3; s++) assert_int_equal(hk_world_step(w), HK_OK);
    const int n = hk_world_particles(w).count;
    double *v = calloc(3 * (size_t)n, sizeof *v), *x = calloc(3 * (size_t)n, sizeof *x);
    assert_non_null(v);
    assert_non_null(x);
    assert_int_equal(hk_world_positions(w, 0, n, x), HK_OK);
    for (int i = 0; i < 3 * n; i++) v[i] = 0.25 * (i % 7);
    const uint64_t before = hk_world_state_hash(w);
#ifdef HOOKE_DOUBLE
    v[3 * 40] = INFINITY;
#else
    v[3 * 40] = 1e39; /* finite, beyond float */
#endif
    assert_int_equal(hk_world_set_velocities(w, 0, n, v), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "set_velocities: velocity"));
    assert_non_null(strstr(hk_world_error(w), "particle 40"));
    assert_true(hk_world_state_hash(w) == before); /* particles 0 to 39 untouched */
    x[3 * 7 + 1] = NAN;
    assert_int_equal(hk_world_set_positions(w, 0, n, x), HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), "set_positions: position of particle 7 is not finite");
    assert_true(hk_world_state_hash(w) == before);
    assert_int_equal(hk_world_set_velocities(w, 1, n, v), HK_ERR_INVALID); /* past the end */
    v[3 * 40] = 2.5;
    assert_int_equal(hk_world_set_velocities(w, 0, n, v), HK_OK);
    for (int i = 0; i < n; i++) assert_true(hk_world_particles(w).vx[i] == (hk_real)v[3 * i]);
    free(v);
    free(x);
    hk_world_destroy(w);
}

static void test_worlds_on_threads(void **state)
{
    (void)state;
    uint64_t alone = 0, hash[WORLD_THREADS] = {0};
    own_world(&alone);
    assert_true(alone != 0);
    pthread_t t[WORLD_THREADS];
    for (int i = 0; i < WORLD_THREADS; i++) assert_int_equal(pthread_create(&t[i], NULL, own_world, &hash[i]), 0);
    for (int i = 0; i < WORLD_THREADS; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < WORLD_THREADS; i++) assert_true(hash[i] == alone);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hooke-api-XXXXXX");
    if (!mkdtemp(tmpdir)) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_and_formats),
        cmocka_unit_test(test_load_scene),
        cmocka_unit_test(test_run_plan),
        cmocka_unit_test(test_parse_scene),
        cmocka_unit_test(test_scene_errors),
        cmocka_unit_test(test_frames),
        cmocka_unit_test(test_set_many),
        cmocka_unit_test(test_worlds_on_threads),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return rc;
}
