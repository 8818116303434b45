/* test_numbers.c — one number grammar: the same numbers and whole numbers in scenes and on the command line. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, dup */
#include "hk_test_cli.h"

#include <fcntl.h>

#include "args.h"
#include "numbers.h"
#include "scene.h"

/* hk_num_int(s, lo, hi) is st, and when OK its value is want. */
static void int_is(const char *s, int64_t lo, int64_t hi, hk_num_status st, int64_t want)
{
    int64_t v = -12345;
    const hk_num_status got = hk_num_int(s, lo, hi, &v);
    if (got != st || (st == HK_NUM_OK && v != want)) {
        print_error("hk_num_int('%s', %lld, %lld): status %d value %lld, expected status %d value %lld\n", s,
                    (long long)lo, (long long)hi, (int)got, (long long)v, (int)st, (long long)want);
        fail();
    }
    if (st != HK_NUM_OK) assert_int_equal(v, -12345); /* untouched on failure */
}

static void test_whole_numbers(void **state)
{
    (void)state;
    const int64_t MAX = INT64_MAX, MIN = INT64_MIN;
    /* decimal integers and exactly whole numbers in other spellings */
    int_is("80", MIN, MAX, HK_NUM_OK, 80);
    int_is("+80", MIN, MAX, HK_NUM_OK, 80);
    int_is("-80", MIN, MAX, HK_NUM_OK, -80);
    int_is("0080", MIN, MAX, HK_NUM_OK, 80);
    int_is("1e3", MIN, MAX, HK_NUM_OK, 1000);
    int_is("5E+4", MIN, MAX, HK_NUM_OK, 50000);
    int_is("80.0", MIN, MAX, HK_NUM_OK, 80);
    int_is("80.", MIN, MAX, HK_NUM_OK, 80);
    int_is("1.5e1", MIN, MAX, HK_NUM_OK, 15);
    int_is("0.25e2", MIN, MAX, HK_NUM_OK, 25);
    int_is("2500e-2", MIN, MAX, HK_NUM_OK, 25);
    int_is("-0", MIN, MAX, HK_NUM_OK, 0);
    int_is("0e999999999999", MIN, MAX, HK_NUM_OK, 0);
    int_is("0.000e-5", MIN, MAX, HK_NUM_OK, 0);
    int_is("9223372036854775807", MIN, MAX, HK_NUM_OK, MAX);
    int_is("-9223372036854775808", MIN, MAX, HK_NUM_OK, MIN);
    int_is("9.223372036854775807e18", MIN, MAX, HK_NUM_OK, MAX);
    /* exact, where a double would round: 2^53 + 1 */
    int_is("9007199254740993.0", MIN, MAX, HK_NUM_OK, 9007199254740993LL);
    int_is("12345678901234567e0", MIN, MAX, HK_NUM_OK, 12345678901234567LL);
    /* not a number */
    static const char *const nan_like[] = {"",  "abc", "12abc", "1x",   "10 ", " 10", "1e",    "1e+",   "e3", ".",
                                           "-", "+-1", "1.2.3", "0x10", "inf", "nan", "1_000", "1,000", "１"};
    for (size_t i = 0; i < sizeof nan_like / sizeof *nan_like; i++)
        int_is(nan_like[i], MIN, MAX, HK_NUM_NOT_A_NUMBER, 0);
    /* not whole */
    int_is("2.5", MIN, MAX, HK_NUM_NOT_WHOLE, 0);
    int_is("1e-3", MIN, MAX, HK_NUM_NOT_WHOLE, 0);
    int_is("-0.5", MIN, MAX, HK_NUM_NOT_WHOLE, 0);
    int_is("9007199254740993.5", MIN, MAX, HK_NUM_NOT_WHOLE, 0);
    int_is("1e-999999999999", MIN, MAX, HK_NUM_NOT_WHOLE, 0);
    int_is("2.5e30", 0, 10, HK_NUM_OUT_OF_RANGE, 0); /* whole (25 x 10^29), too large */
    /* out of range: of int64, and of [lo, hi] */
    int_is("9223372036854775808", MIN, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("-9223372036854775809", MIN, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("99999999999999999999", MIN, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("1e19", MIN, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("1e999999999999", MIN, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("0", 1, MAX, HK_NUM_OUT_OF_RANGE, 0);
    int_is("101", 1, 100, HK_NUM_OUT_OF_RANGE, 0);
    int_is("1e2", 1, 100, HK_NUM_OK, 100);
    assert_string_equal(hk_num_reason(HK_NUM_NOT_A_NUMBER), "not a number");
    assert_string_equal(hk_num_reason(HK_NUM_NOT_WHOLE), "not a whole number");
    assert_string_equal(hk_num_reason(HK_NUM_OUT_OF_RANGE), "out of range");
}

static void test_numbers(void **state)
{
    (void)state;
    double v = 0;
    assert_int_equal(hk_num_real("-9.81", &v), HK_NUM_OK);
    assert_true(v == -9.81);
    assert_int_equal(hk_num_real(".5e-3", &v), HK_NUM_OK);
    assert_true(v == 0.5e-3);
    assert_int_equal(hk_num_real("2.", &v), HK_NUM_OK);
    assert_true(v == 2.0);
    assert_int_equal(hk_num_real("1e308", &v), HK_NUM_OK);
    assert_int_equal(hk_num_real("2.3e-308", &v), HK_NUM_OK);
    assert_int_equal(hk_num_real("0e-999", &v), HK_NUM_OK);
    assert_true(v == 0);
    v = 7;
    assert_int_equal(hk_num_real("1e999", &v), HK_NUM_OUT_OF_RANGE);
    assert_int_equal(hk_num_real("-2e308", &v), HK_NUM_OUT_OF_RANGE);
    assert_int_equal(hk_num_real("1e-320", &v), HK_NUM_OUT_OF_RANGE); /* subnormal */
    assert_int_equal(hk_num_real("1e-400", &v), HK_NUM_OUT_OF_RANGE); /* would be 0 */
    assert_int_equal(hk_num_real("0x1p-3", &v), HK_NUM_NOT_A_NUMBER);
    assert_int_equal(hk_num_real("infinity", &v), HK_NUM_NOT_A_NUMBER);
    assert_int_equal(hk_num_real("1ms", &v), HK_NUM_NOT_A_NUMBER);
    assert_true(v == 7); /* untouched on failure */
}

/* Scene text `run ... steps VALUE` fails with exactly `want` (the whole message). */
static void scene_refuses(const char *value, const char *want)
{
    char text[256], err[512];
    snprintf(text, sizeof text, "run\n dt 1e-3\n steps %s\nend\nbody rope\n count 3\n mass 1\n spacing 1\nend\n",
             value);
    hk_scene sc;
    const int rc = hk_scene_parse(text, "x.scene", &sc, err, sizeof err);
    if (rc == 0 || strcmp(err, want) != 0) {
        print_error("steps %s: rc %d, message:\n  %s\nexpected:\n  %s\n", value, rc, err, want);
        hk_scene_free(&sc);
        fail();
    }
    assert_null(sc.world);
}

static void test_scene_integers(void **state)
{
    (void)state;
    char err[512];
    hk_scene sc;
    assert_int_equal(
        hk_scene_parse(
            "run\n dt 1e-3\n steps 1e3\n every 2.0e1\nend\nbody rope\n count 3e0\n mass 1\n spacing 1\nend\n",
            "x.scene", &sc, err, sizeof err),
        0);
    assert_int_equal(sc.steps, 1000);
    assert_int_equal(sc.every, 20);
    assert_int_equal(hk_world_particles(sc.world).count, 3);
    hk_scene_free(&sc);
    scene_refuses("2.5", "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '2.5' (not a whole number)");
    scene_refuses("1e19", "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '1e19' (out of range)");
    scene_refuses("12abc", "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '12abc' (not a number)");
    scene_refuses("0", "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '0' (out of range)");
    /* a bounded key names its range */
    assert_int_not_equal(
        hk_scene_parse("body rope\n count 1e9\n mass 1\n spacing 1\nend\n", "x.scene", &sc, err, sizeof err), 0);
    assert_string_equal(
        err, "x.scene:2:8: error: expected an integer in [2, 268435456] for 'count', got '1e9' (out of range)");
    /* numbers: a value beyond a double is out of range, not "not a number" */
    assert_int_not_equal(hk_scene_parse("world\n gravity 0 -9.81 1e-400\nend\n"
                                        "body rope\n count 3\n mass 1\n spacing 1\nend\n",
                                        "x.scene", &sc, err, sizeof err),
                         0);
    assert_string_equal(err, "x.scene:2:18: error: expected a number for 'gravity', got '1e-400' (out of range)");
}

/* hk_arg_int's message for flag/value, exactly, as stderr shows it. */
static void arg_refuses(const char *who, const char *flag, const char *value, int64_t lo, int64_t hi,
                        const char *expected, const char *want)
{
    const char *path = hk_test_path("arg_stderr.txt");
    fflush(stderr);
    const int saved = dup(2), fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    assert_int_equal(dup2(fd, 2), 2);
    close(fd);
    int64_t out = -7;
    const int rc = hk_arg_int(who, flag, value, lo, hi, expected, &out);
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    char *text = hk_test_slurp(path);
    assert_non_null(text);
    if (rc != 1 || out != -7 || strcmp(text, want) != 0) {
        print_error("%s %s: rc %d, stderr:\n  %s\nexpected:\n  %s", flag, value ? value : "(none)", rc, text, want);
        free(text);
        fail();
    }
    free(text);
}

static void test_flag_messages(void **state)
{
    (void)state;
    int64_t n = 0;
    assert_int_equal(hk_arg_int(NULL, "--steps", "1e3", 1, INT64_MAX, "a whole number >= 1", &n), 0);
    assert_int_equal(n, 1000);
    const char *whole = "a whole number >= 1";
    arg_refuses(NULL, "--steps", "1e19", 1, INT64_MAX, whole,
                "hooke: error: --steps expects a whole number >= 1, got '1e19' (out of range)\n");
    arg_refuses(NULL, "--steps", "2.5", 1, INT64_MAX, whole,
                "hooke: error: --steps expects a whole number >= 1, got '2.5' (not a whole number)\n");
    arg_refuses(NULL, "--steps", "12abc", 1, INT64_MAX, whole,
                "hooke: error: --steps expects a whole number >= 1, got '12abc' (not a number)\n");
    arg_refuses(NULL, "--steps", NULL, 1, INT64_MAX, whole,
                "hooke: error: --steps expects a whole number >= 1, got 'nothing'\n");
}

/* Runs hooke ARGS and expects exit 1 and exactly `want` on stderr. */
static void cli_refuses(const char *args, const char *want)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || strcmp(r.err, want) != 0 || r.out[0]) {
        print_error("hooke %s: exit %d, stderr:\n  %s\nexpected:\n  %s", args, r.status, r.err, want);
        fail();
    }
    hk_run_free(&r);
}

static void test_command_line(void **state)
{
    (void)state;
    /* hooke run: exponent notation is a whole number of steps */
    hk_run r = hk_test_hooke("", "run " HOOKE_SCENES_DIR "/oscillator.scene --steps 1e1 --every 5.0 --quiet");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " steps=10 "));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " HOOKE_SCENES_DIR "/oscillator.scene --steps 2.5 --quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --steps expects a whole number >= 1, got '2.5'"));
    hk_run_free(&r);
    /* hooke bench: each integer flag, each reason */
    r = hk_test_hooke("", "bench " HOOKE_SCENES_DIR "/oscillator.scene --threads 1e0 --repeat 1e0 --warmup 1.0 "
                          "--steps 1e1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1 warm-up steps, 1 x 10 steps"));
    hk_run_free(&r);
    cli_refuses("bench --steps 1e19",
                "hooke: error: bench: --steps expects a step count 1..100000000, got '1e19' (out of range)\n");
    cli_refuses("bench --repeat 2.5",
                "hooke: error: bench: --repeat expects a repetition count 1..1000, got '2.5' (not a whole number)\n");
    cli_refuses("bench --warmup 12abc",
                "hooke: error: bench: --warmup expects a step count 1..100000, got '12abc' (not a number)\n");
    cli_refuses("bench --threads 1,2.5", "hooke: error: bench: --threads expects a comma-separated list of thread "
                                         "counts 1..4096 (at most 64), got '1,2.5'\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_numbers),  cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_scene_integers), cmocka_unit_test(test_flag_messages),
        cmocka_unit_test(test_command_line),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
