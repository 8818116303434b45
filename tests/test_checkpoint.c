/* test_checkpoint.c — checkpoint and restart: bit-for-bit continuation, refused corrupt files, atomic writes. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include <sys/stat.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* state_hash=0x... of a successful run's summary line (static buffer). */
static const char *hash_of(const char *env, const char *args)
{
    static char hash[32];
    hk_run r = hk_test_hooke(env, args);
    if (r.status != 0) {
        print_error("hooke %s\n  exit %d\n  stderr: %s\n", args, r.status, r.err);
        fail();
    }
    const char *h = hk_test_field(r.out, "state_hash");
    assert_non_null(h);
    snprintf(hash, sizeof hash, "%.18s", h);
    hk_run_free(&r);
    return hash;
}

/* Whether a run without checkpoints is compared too. The sanitizer and Debug builds (HK_TEST_SLOW_BUILD), which look
 * for memory errors and races rather than bits, leave it out: that writing checkpoints leaves the run's bits alone is
 * checked by the release build; the checkpointed run and the restart, which read and write them, still run. */
#ifdef HK_TEST_SLOW_BUILD
#define RUN_STRAIGHT 0
#else
#define RUN_STRAIGHT 1
#endif

/* Runs `steps` steps straight, then again with a checkpoint every `every`
 * steps, then restarts from the last checkpoint: all three hashes agree. */
static void check_restart(const char *scene, const char *integrator, int steps, int every)
{
    char args[1024], straight[32] = "";
    const char *ck = hk_test_own_path("restart.ck");
    remove(ck);
    if (RUN_STRAIGHT) {
        snprintf(args, sizeof args, "run %s %s%s --steps %d --quiet", scene, integrator ? "--integrator " : "",
                 integrator ? integrator : "", steps);
        snprintf(straight, sizeof straight, "%s", hash_of("", args));
    }
    snprintf(args, sizeof args, "run %s %s%s --steps %d --checkpoint '%s' --checkpoint-every %d --quiet", scene,
             integrator ? "--integrator " : "", integrator ? integrator : "", steps, ck, every);
    if (RUN_STRAIGHT)
        assert_string_equal(hash_of("", args), straight);
    else
        snprintf(straight, sizeof straight, "%s", hash_of("", args)); /* the checkpointed run's */
    /* a restart on another thread count continues the same bits */
    snprintf(args, sizeof args, "run %s --steps %d --restart '%s' --threads 2 --quiet", scene, steps, ck);
    const char *restarted = hash_of("OMP_WAIT_POLICY=passive", args);
    if (strcmp(restarted, straight) != 0) {
        print_error("%s (%s): restart from step %d gives %s, the %s run %s\n", scene,
                    integrator ? integrator : "scene's integrator", steps / every * every, restarted,
                    RUN_STRAIGHT ? "straight" : "checkpointed", straight);
        fail();
    }
}

static void test_restart_integrators(void **state)
{
    (void)state;
    /* anchored rope with ground contacts, nine substeps a step */
    check_restart(SCENE("rope.scene"), "semi_implicit_euler", 50, 20);
    check_restart(SCENE("rope.scene"), "verlet", 50, 20);
    check_restart(SCENE("rope.scene"), "velocity_verlet", 50, 20);
    check_restart(SCENE("rope.scene"), "rk4", 50, 20);
    check_restart(SCENE("oscillator.scene"), "verlet_book", 300, 200);
    check_restart(SCENE("oscillator.scene"), "velocity_verlet", 300, 200);
    check_restart(SCENE("oscillator.scene"), "euler", 300, 200);
    /* list body (coloured springs) falling on a sphere */
    check_restart(SCENE("mesh_points.scene"), "verlet", 700, 300);
    check_restart(SCENE("mesh_points.scene"), NULL, 700, 300);
    /* the implicit integrators: a linear solve per substep, nothing kept between steps but the settings */
    check_restart(SCENE("rope.scene"), "implicit_euler", 50, 20);
    check_restart(SCENE("mesh_points.scene"), "trapezoidal", 200, 70);
    check_restart(SCENE("cloth_stiff.scene"), NULL, 30, 12);
    /* a cloth landing on a box with friction and turning on a capsule: the particles' friction anchors come back */
    check_restart(SCENE("cloth_box.scene"), NULL, 60, 45);
    check_restart(SCENE("cloth_box.scene"), "implicit_euler", 60, 45);
    /* BDF2's two states a step: its history (the last displacement and velocity change) comes back */
    check_restart(SCENE("rope.scene"), "bdf2", 50, 20);
    check_restart(SCENE("cloth_box.scene"), "bdf2", 60, 45);
    /* xpbd's sweeps a substep (the scene's iterations 10) come back with the integrator's settings; a list body's */
    check_restart(SCENE("cloth_hanging_xpbd.scene"), NULL, 20, 8);
    check_restart(SCENE("mesh_points.scene"), "xpbd", 200, 70);
    /* vbd's accelerated sweeps (chebyshev_rho) come back with the integrator's settings: the hanging cloth under vbd */
    const char *vbd = hk_test_own_path("hanging_vbd.scene");
    FILE *in = fopen(HOOKE_SCENES_DIR "/cloth_hanging_xpbd.scene", "r");
    assert_non_null(in);
    char text[8192];
    const size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = 0;
    const char *at = strstr(text, "integrator xpbd");
    assert_non_null(at);
    char scene[8300];
    snprintf(scene, sizeof scene, "%.*sintegrator vbd\n  chebyshev_rho 0.8%s", (int)(at - text), text,
             at + strlen("integrator xpbd"));
    hk_test_write(vbd, scene);
    check_restart(vbd, NULL, 20, 8);
    /* a strip folding onto itself, jelly cubes piling up: the contact pairs' friction anchors come back (found
     * again among the candidates the restarted run searches) */
    check_restart(SCENE("cloth_fold.scene"), NULL, 120, 80);
    check_restart(SCENE("jelly_pile.scene"), NULL, 120, 80);
    /* the particle model: its pairs in contact come back as two-particle records, its pairs chosen anew */
    check_restart(SCENE("cloth_fold_particles.scene"), NULL, 120, 80);
}

/* Pressure bodies: the checkpoint at step 50 is halfway through pumping
 * (1 % of nRT per substep), so the pump fraction must come back with it. */
static void test_restart_pressure(void **state)
{
    (void)state;
    check_restart(SCENE("pressure_ball.scene"), NULL, 120, 50);
    check_restart(SCENE("ring2d.scene"), NULL, 120, 50);
}

static void test_restart_breakable(void **state)
{
    (void)state;
    /* the curtain starts tearing at about step 300: the checkpoint at 400 holds broken springs */
    check_restart(SCENE("tearing_cloth.scene"), NULL, 450, 400);
    check_restart(SCENE("tearing_cloth.scene"), "verlet", 450, 400);
}

/* Runs hooke and expects exit 1, nothing on stdout and `msg` in stderr. */
static void expect_refused(const char *args, const char *msg)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || r.out[0] || !strstr(r.err, msg)) {
        print_error("hooke %s\n  exit %d\n  stdout: %s\n  stderr: %s\n  expected: %s\n", args, r.status, r.out, r.err,
                    msg);
        fail();
    }
    hk_run_free(&r);
}

static void write_bytes(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static char *read_bytes(const char *path, size_t *n)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    char *s = hk_test_slurp(path);
    assert_non_null(s);
    *n = (size_t)st.st_size;
    return s;
}

static void test_refuses_bad_checkpoints(void **state)
{
    (void)state;
    const char *ck = hk_test_own_path("good.ck"), *bad = hk_test_own_path("bad.ck");
    char args[1024];
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 100 --checkpoint '%s' --checkpoint-every 50 --quiet", ck);
    hash_of("", args);
    size_t n;
    char *good = read_bytes(ck, &n);
    assert_true(n > 100);

    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --restart '%s'", bad);
    write_bytes(bad, good, n / 2); /* truncated */
    expect_refused(args, ": checkpoint is truncated (");
    write_bytes(bad, good, 20); /* shorter than the header */
    expect_refused(args, ": checkpoint is truncated (");
    good[n / 2] ^= 0x10; /* one flipped bit */
    write_bytes(bad, good, n);
    good[n / 2] ^= 0x10;
    expect_refused(args, ": checkpoint is corrupted (checksum mismatch)");
    write_bytes(bad, "# hooke state v1\n", 17);
    expect_refused(args, ": not a hooke checkpoint");
    char *other = malloc(n);
    assert_non_null(other);
    memcpy(other, good, n);
    other[8] = 1; /* version 1: before the implicit integrators' settings */
    write_bytes(bad, other, n);
    free(other);
    expect_refused(args, ": checkpoint version 1 is not supported (this hooke reads version 12)");
    remove(bad);
    expect_refused(args, ": cannot open checkpoint: No such file or directory");
    /* the checkpoint of another scene */
    snprintf(args, sizeof args, "run " SCENE("pendulum.scene") " --restart '%s'", ck); /* also 2 particles, 1 spring */
    expect_refused(args, ": checkpoint was written for a different scene (the scene file or a file it loads has "
                         "changed; scene digest differs)");
    snprintf(args, sizeof args, "run " SCENE("bungee.scene") " --restart '%s'", ck);
    expect_refused(args, ": checkpoint does not match the scene (");
    /* the same layout, another file: the digest */
    const char *copy = hk_test_own_path("osc_copy.scene");
    char *text = hk_test_slurp(HOOKE_SCENES_DIR "/oscillator.scene");
    assert_non_null(text);
    size_t tl = strlen(text);
    char *edited = malloc(tl + 32);
    assert_non_null(edited);
    snprintf(edited, tl + 32, "%s# edited\n", text);
    hk_test_write(copy, edited);
    free(text);
    free(edited);
    snprintf(args, sizeof args, "run '%s' --restart '%s'", copy, ck);
    expect_refused(args, ": checkpoint was written for a different scene (the scene file or a file it loads has "
                         "changed; scene digest differs)");
    /* the flags that a checkpoint fixes */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --restart '%s' --dt 1e-4", ck);
    expect_refused(args, "hooke: error: --restart continues with the checkpoint's integrator and dt");
    expect_refused("run " SCENE("oscillator.scene") " --checkpoint x.ck",
                   "--checkpoint FILE needs --checkpoint-every N or --checkpoint-on-exit");
    expect_refused("run " SCENE("oscillator.scene") " --checkpoint-every 0 --checkpoint x.ck",
                   "--checkpoint-every expects a whole number >= 1, got '0'");
    /* the good file still restarts */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 120 --restart '%s' --quiet", ck);
    hash_of("", args);
    free(good);
}

static void test_atomic_write(void **state)
{
    (void)state;
    const char *ck = hk_test_own_path("atomic.ck");
    char tmp[300], args[1024], straight[32];
    snprintf(tmp, sizeof tmp, "%s.tmp", ck);
    snprintf(straight, sizeof straight, "%s", hash_of("", "run " SCENE("oscillator.scene") " --steps 90 --quiet"));
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 60 --checkpoint '%s' --checkpoint-every 60 --quiet", ck);
    hash_of("", args);
    /* a crash in the middle of the next write leaves a partial temporary file: the checkpoint is intact */
    write_bytes(tmp, "HOOKECKP\001\000", 10);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 90 --restart '%s' --quiet", ck);
    assert_string_equal(hash_of("", args), straight);
    /* a write that cannot complete (the temporary name is taken by a directory) fails with status 3 and
     * leaves the previous checkpoint in place; it is found before the run starts */
    remove(tmp);
    assert_int_equal(mkdir(tmp, 0755), 0);
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 80 --checkpoint '%s' --checkpoint-every 70 --quiet", ck);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write "));
    assert_non_null(strstr(r.err, "(--checkpoint, checked before the run starts)"));
    assert_null(strstr(r.out, "state_hash=")); /* not run */
    hk_run_free(&r);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 90 --restart '%s' --quiet", ck);
    assert_string_equal(hash_of("", args), straight);
    assert_int_equal(rmdir(tmp), 0);
    /* a good write replaces the file and leaves no temporary behind */
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 80 --checkpoint '%s' --checkpoint-every 70 --quiet", ck);
    hash_of("", args);
    struct stat st;
    assert_int_not_equal(stat(tmp, &st), 0);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 90 --restart '%s' --quiet", ck);
    assert_string_equal(hash_of("", args), straight);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_restart_integrators), cmocka_unit_test(test_restart_breakable),
        cmocka_unit_test(test_restart_pressure),    cmocka_unit_test(test_refuses_bad_checkpoints),
        cmocka_unit_test(test_atomic_write),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
