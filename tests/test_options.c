/* test_options.c — the command line of every command: --help, --name=VALUE and --name VALUE, the help text
 * listing exactly what the parser takes, and the messages for unknown, abbreviated and valueless options. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_cost.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

static const char *const commands[] = {"run", "bench", "stability", "plot", "info"};
#define NCOMMANDS ((int)(sizeof commands / sizeof commands[0]))

/* Runs hooke ARGS, expects exit status `status` and, when want is not NULL, stderr containing it. */
static hk_run expect(const char *args, int status, const char *want)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != status || (want && !strstr(r.err, want))) {
        print_error("hooke %s\n  exit %d (expected %d)\n  stdout: %s\n  stderr: %s\n  expected stderr to contain: %s\n",
                    args, r.status, status, r.out, r.err, want ? want : "(anything)");
        fail();
    }
    return r;
}

static void expect_error(const char *args, const char *want)
{
    hk_run r = expect(args, 1, want);
    assert_string_equal(r.out, "");
    hk_run_free(&r);
}

/* The options a help text lists, "--NAME" at the start of a line after two spaces (or "-h, "). */
static int listed_options(const char *help, char names[][64], int cap)
{
    int n = 0;
    for (const char *line = help; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *o = NULL;
        if (strncmp(line, "  --", 4) == 0) o = line + 2;
        if (strncmp(line, "  -h, --", 8) == 0) o = line + 6;
        if (!o || n == cap) continue;
        const size_t len = strcspn(o, " \n");
        assert_true(len < 64);
        memcpy(names[n], o, len);
        names[n][len] = '\0';
        n++;
    }
    return n;
}

/* --help and -h: every command's usage on stdout, status 0, nothing on stderr. */
static void test_help_everywhere(void **state)
{
    (void)state;
    static const char *const forms[] = {"--help", "-h"};
    for (int c = 0; c < NCOMMANDS; c++)
        for (int f = 0; f < 2; f++) {
            char args[128], usage[64];
            snprintf(args, sizeof args, "%s %s", commands[c], forms[f]);
            hk_run r = expect(args, 0, NULL);
            snprintf(usage, sizeof usage, "usage: hooke %s", commands[c]);
            if (strncmp(r.out, usage, strlen(usage)) != 0) {
                print_error("hooke %s: stdout does not start with '%s':\n%s", args, usage, r.out);
                fail();
            }
            assert_non_null(strstr(r.out, "  -h, --help "));
            assert_string_equal(r.err, "");
            hk_run_free(&r);
        }
    /* --help wins wherever it stands, even after an option that needs a file */
    hk_run r = expect("run " SCENE("oscillator.scene") " --steps=3 --help", 0, NULL);
    assert_non_null(strstr(r.out, "usage: hooke run"));
    assert_null(strstr(r.out, "hooke: scene=")); /* no run: no summary line */
    hk_run_free(&r);
}

/* Every option a command's help lists is one its parser takes, given as --NAME=VALUE: the error that
 * follows is about the value or a later argument, never "unknown option". */
static void test_help_lists_what_the_parser_takes(void **state)
{
    (void)state;
    static const int least[] = {16, 9, 9, 3, 1}; /* options each command has at least, --help aside */
    for (int c = 0; c < NCOMMANDS; c++) {
        char args[512];
        snprintf(args, sizeof args, "%s --help", commands[c]);
        hk_run help = expect(args, 0, NULL);
        char names[64][64]; /* each under 64 bytes (listed_options checks) */
        const int n = listed_options(help.out, names, 64);
        hk_run_free(&help);
        if (n < least[c] + 1) {
            print_error("hooke %s --help lists %d options, expected at least %d\n", commands[c], n, least[c] + 1);
            fail();
        }
        for (int i = 0; i < n; i++) {
            if (strcmp(names[i], "--help") == 0) continue;
            /* a value that no option accepts, then an unknown option: parsing stops with an error either way */
            snprintf(args, sizeof args, "%s %.63s=@ --zzz", commands[c], names[i]);
            hk_run r = hk_test_hooke("", args);
            char unknown[160];
            snprintf(unknown, sizeof unknown, "unknown option '%.63s'", names[i]);
            if (r.status != 1 || strstr(r.err, unknown)) {
                print_error("hooke %s: exit %d, stderr: %s", args, r.status, r.err);
                fail();
            }
            hk_run_free(&r);
        }
    }
}

/* --threads=N works for each command that takes a thread count. */
static void test_threads_with_equals(void **state)
{
    (void)state;
#ifdef HOOKE_USE_OPENMP
    const char *two = "2";
#else
    const char *two = "1";
#endif
    hk_run r = expect("run " SCENE("oscillator.scene") " --threads=2 --steps=20 --quiet", 0, NULL);
    const char *t = hk_test_field(r.out, "threads");
    assert_non_null(t);
    assert_int_equal(strncmp(t, two, 1), 0);
    assert_true(t[1] == ' ');
    assert_non_null(strstr(r.out, " steps=20 "));
    hk_run_free(&r);

    r = expect("bench " SCENE("oscillator.scene") " --threads=1,2 --repeat=1 --steps=10 --warmup=1", 0, NULL);
    assert_non_null(strstr(r.out, "verify threads=1: state_hash equals"));
    assert_non_null(strstr(r.out, "verify threads=2: state_hash equals"));
    assert_non_null(strstr(r.out, "VALID"));
    hk_run_free(&r);

    r = expect(
        "stability " SCENE("oscillator.scene") " --threads=2 --points=2 --time=0.1 --integrators=euler,rk4 --quiet", 0,
        NULL);
    assert_non_null(strstr(r.out, ", 2 threads\n"));
    hk_run stable = expect(
        "stability " SCENE("oscillator.scene") " --threads 2 --points 2 --time 0.1 --integrators euler,rk4 --quiet", 0,
        NULL);
    hk_mask_cost_table(r.out); /* the same command line, spelled the other way: the same table but for CPU times */
    hk_mask_cost_table(stable.out);
    assert_string_equal(r.out, stable.out);
    hk_run_free(&stable);
    hk_run_free(&r);

    r = expect("info --threads=2", 0, NULL);
    char line[64];
    snprintf(line, sizeof line, "openmp: %s thread(s)", two);
#ifdef HOOKE_USE_OPENMP
    assert_non_null(strstr(r.out, line));
#endif
    hk_run_free(&r);
}

/* --name=VALUE and --name VALUE are the same command line, options before or after the scene. */
static void test_equals_and_apart(void **state)
{
    (void)state;
    const char *stats_a = hk_test_path("a.csv"), *stats_b = hk_test_path("b.csv");
    char args[1024];
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps=12 --dt=0.01 --integrator=rk4 --every=4 --stats='%s' "
                                        "--stretch-limit=50 --quiet",
             stats_a);
    hk_run a = expect(args, 0, NULL);
    snprintf(args, sizeof args,
             "run --steps 12 --dt 0.01 --integrator rk4 --every 4 --stats '%s' --stretch-limit 50 --quiet " SCENE(
                 "rope.scene"),
             stats_b);
    hk_run b = expect(args, 0, NULL);
    const char *ha = hk_test_field(a.out, "state_hash"), *hb = hk_test_field(b.out, "state_hash");
    assert_non_null(ha);
    assert_non_null(hb);
    assert_int_equal(strncmp(ha, hb, 18), 0);
    assert_non_null(strstr(a.out, " integrator=rk4 "));
    assert_non_null(strstr(a.out, " steps=12 "));
    char *ca = hk_test_slurp(stats_a), *cb = hk_test_slurp(stats_b);
    assert_non_null(ca);
    assert_non_null(cb);
    assert_string_equal(ca, cb);
    free(ca);
    free(cb);
    hk_run_free(&a);
    hk_run_free(&b);

    /* frames and state by --name=VALUE */
    const char *dir = hk_test_path("frames"), *st = hk_test_path("x.state");
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps=2 --every=2 --out='%s' --format=vtk,obj "
                                              "--state-out='%s' --quiet",
             dir, st);
    a = expect(args, 0, NULL);
    hk_run_free(&a);
    static const char *const made[] = {"frame_000000.vtp", "frame_000002.vtp", "frame_000002.obj", "frames.pvd"};
    for (size_t i = 0; i < sizeof made / sizeof made[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, made[i]);
        assert_int_equal(access(path, R_OK), 0);
    }
    assert_int_equal(access(st, R_OK), 0);

    /* "--" ends the options: what follows is a file name */
    a = expect("run --steps=3 --quiet -- " SCENE("oscillator.scene"), 0, NULL);
    assert_non_null(strstr(a.out, " steps=3 "));
    hk_run_free(&a);
    expect_error("run --steps=3 -- " SCENE("oscillator.scene") " --quiet",
                 "hooke: error: more than one scene given ('" HOOKE_SCENES_DIR "/oscillator.scene' and '--quiet')\n");

    /* plot: --out=, --width= and --height= */
    const char *csv = hk_test_path("r.csv"), *png = hk_test_path("r.png");
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps=50 --stats=%s --quiet", csv);
    a = expect(args, 0, NULL);
    hk_run_free(&a);
    snprintf(args, sizeof args, "plot --out=%s --width=400 --height=500 %s", png, csv);
    a = expect(args, 0, NULL);
    hk_run_free(&a);
    assert_int_equal(access(png, R_OK), 0);
}

/* Bad command lines: the message names the option and what it expects, exit status 1, nothing on stdout. */
static void test_bad_options(void **state)
{
    (void)state;
    /* unknown options, per command and at the top level */
    expect_error("run " SCENE("oscillator.scene") " --bogus=1",
                 "hooke: error: unknown option '--bogus' for run (see hooke run --help)\n");
    expect_error("bench --bogus", "hooke: error: unknown option '--bogus' for bench (see hooke bench --help)\n");
    expect_error("stability x.scene --bogus",
                 "hooke: error: unknown option '--bogus' for stability (see hooke stability --help)\n");
    expect_error("plot x.csv -q", "hooke: error: unknown option '-q' for plot (see hooke plot --help)\n");
    expect_error("info --bogus", "hooke: error: unknown option '--bogus' for info (see hooke info --help)\n");
    expect_error("--bogus run", "hooke: error: unknown option '--bogus' (see hooke --help)\n");
    /* abbreviations are not taken: a new option must not change what an old command line means */
    expect_error("run " SCENE("oscillator.scene") " --ste 3",
                 "hooke: error: unknown option '--ste' for run: did you mean --steps? (see hooke run --help)\n");
    expect_error("run " SCENE("oscillator.scene") " --checkpoint-e=3",
                 "hooke: error: unknown option '--checkpoint-e' for run: did you mean --checkpoint-every? "
                 "(see hooke run --help)\n");
    expect_error("run " SCENE("oscillator.scene") " --check x",
                 "hooke: error: unknown option '--check' for run: did you mean --checkpoint, --checkpoint-every or "
                 "--checkpoint-on-exit? (see hooke run --help)\n");
    expect_error("bench --thr 2", "hooke: error: unknown option '--thr' for bench: did you mean --threads? "
                                  "(see hooke bench --help)\n");
    /* a switch takes no value */
    expect_error("run " SCENE("oscillator.scene") " --quiet=yes",
                 "hooke: error: --quiet expects no value, got 'yes'\n");
    expect_error("bench --weak=1", "hooke: error: --weak expects no value, got '1'\n");
    expect_error("run --help=1", "hooke: error: --help expects no value, got '1'\n");
    /* missing and empty values keep the value's message */
    expect_error("run " SCENE("oscillator.scene") " --steps",
                 "hooke: error: --steps expects a whole number >= 1, got 'nothing'\n");
    expect_error("run " SCENE("oscillator.scene") " --steps=",
                 "hooke: error: --steps expects a whole number >= 1, got '' (not a number)\n");
    expect_error("run " SCENE("oscillator.scene") " --steps=0",
                 "hooke: error: --steps expects a whole number >= 1, got '0' (out of range)\n");
    expect_error("run " SCENE("oscillator.scene") " --threads=0",
                 "hooke: error: --threads expects a thread count 1..4096, got '0' (out of range)\n");
    expect_error("run " SCENE("oscillator.scene") " --stats=", "hooke: error: --stats expects a file name, got ''\n");
    expect_error("run " SCENE("oscillator.scene") " --dt=-1",
                 "hooke: error: --dt expects a step length in seconds > 0, got '-1'\n");
    expect_error("run " SCENE("oscillator.scene") " --format=vtk,gif --out=x",
                 "hooke: error: --format expects a comma-separated list of vtk, ");
    expect_error("run " SCENE("oscillator.scene") " --format=vtk,gif --out=x", ", got 'vtk,gif'\n");
    expect_error("bench --threads=1,,x", "hooke: error: bench: --threads expects a comma-separated list of thread "
                                         "counts 1..4096 (at most 64), got '1,,x'\n");
    expect_error("bench --repeat", "hooke: error: bench: --repeat expects a repetition count 1..1000, got 'nothing'\n");
    expect_error("stability x.scene --points=1",
                 "hooke: error: --points expects a whole number 2..100, got '1' (out of range)\n");
    expect_error("stability x.scene --dt-min=", "hooke: error: --dt-min expects a number > 0, got '' (not a number)\n");
    expect_error("plot x.csv --width=10",
                 "hooke: error: --width expects a width in pixels 320..8000, got '10' (out of range)\n");
    expect_error("info --threads=", "hooke: error: --threads expects a thread count 1..4096, got '' (not a number)\n");
    expect_error("info extra", "hooke: error: info takes no arguments, got 'extra' (see hooke info --help)\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_everywhere),     cmocka_unit_test(test_help_lists_what_the_parser_takes),
        cmocka_unit_test(test_threads_with_equals), cmocka_unit_test(test_equals_and_apart),
        cmocka_unit_test(test_bad_options),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
