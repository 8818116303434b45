/* test_stability_feedback.c — what `hooke stability` tells while and after it runs: the progress line on a
 * terminal only, the "hooke: wrote FILE" lines, --quiet, and a table on stdout that none of them changes. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_cost.h"
#include "hk_test_pty.h"

#include <errno.h>
#include <math.h>

#include "progress.h"
#include "stability.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"
#define OSCILLATOR HOOKE_SCENES_DIR "/oscillator.scene"

/* verlet and rk4 on the oscillator (omega 10 rad/s) over omega*dt 0.1..4: both limits inside the sweep, so both
 * bisect; one thread, so the first run of each phase is the first integrator's. */
#define SWEEP_FLAGS "--integrators verlet,rk4 --time 0.5 --dt-min 0.01 --dt-max 0.4 --points 3 --threads 1"
/* What stderr says of that sweep before its first run (on a terminal, "\n" becomes "\r\n") */
#define SWEEP_TEXT                                                                                                     \
    "hooke: stability: 2 integrators x 3 dt from 0.01 to 0.4 s (omega_max dt 0.1 to 4), 0.5 s per run (--time), "      \
    "12000 steps in all, after the reference's 800 + 400 implicit_euler steps at dt 0.001 and 0.002 s"
#define SWEEP_LINE SWEEP_TEXT "\n"
#define SWEEP_LINE_TTY SWEEP_TEXT "\r\n"

static void test_progress_text(void **state)
{
    (void)state;
    char buf[200];
    hk_stability_progress_text(buf, sizeof buf, 199, 0, "rk4", 1.2e-3, 7, 60, 125);
    assert_string_equal(buf, "stability: rk4 dt 1.20e-03 (7 of 60 runs, then bisections), ETA 2 min");
    hk_stability_progress_text(buf, sizeof buf, 199, 0, "semi_implicit_euler", 3.16e-5, 0, 54, NAN);
    assert_string_equal(buf, "stability: semi_implicit_euler dt 3.16e-05 (0 of 54 runs, then bisections)");
    hk_stability_progress_text(buf, sizeof buf, 199, 1, "verlet", 0.2, 3, 22, 40.2);
    assert_string_equal(buf, "stability: bisecting verlet dt 2.00e-01 (3 of 22 runs), ETA 40 s");
    hk_stability_progress_text(buf, sizeof buf, 199, HK_STABILITY_REFERENCE, "implicit_euler", 1e-4, 1, 2, 30);
    assert_string_equal(buf, "stability: reference implicit_euler dt 1.00e-04 (1 of 2 runs, then the sweep), ETA 30 s");
    hk_stability_progress_text(buf, sizeof buf, 71, HK_STABILITY_REFERENCE, "implicit_euler", 1e-4, 1, 2, 30);
    assert_string_equal(buf, "stability: reference implicit_euler dt 1.00e-04 (1 of 2 runs), ETA 30 s");
    /* narrower terminals: fields go whole, never cut inside a number or a word (the line of 88 characters at 80
     * columns was cut to "... then bisections), ETA 2 m") */
    static const struct {
        int room;
        const char *text;
    } fit[] = {
        {86, "stability: semi_implicit_euler dt 3.16e-05 (10 of 54 runs, then bisections), ETA 2 min"},
        {85, "stability: semi_implicit_euler dt 3.16e-05 (10 of 54 runs), ETA 2 min"},
        {79, "stability: semi_implicit_euler dt 3.16e-05 (10 of 54 runs), ETA 2 min"},
        {68, "semi_implicit_euler dt 3.16e-05 (10 of 54 runs), ETA 2 min"},
        {57, "semi_implicit_euler (10 of 54 runs), ETA 2 min"},
        {45, "semi_implicit_euler, ETA 2 min"},
        {29, "semi_implicit_euler"},
        {19, "semi_implicit_euler"},
        {18, ""},
    };
    for (size_t i = 0; i < sizeof fit / sizeof fit[0]; i++) {
        hk_stability_progress_text(buf, sizeof buf, fit[i].room, 0, "semi_implicit_euler", 3.16e-5, 10, 54, 125);
        if (strcmp(buf, fit[i].text) != 0 || (int)strlen(buf) > fit[i].room) {
            print_error("in %d columns: '%s', expected '%s'\n", fit[i].room, buf, fit[i].text);
            fail();
        }
    }
    hk_stability_progress_text(buf, sizeof buf, 39, 1, "verlet", 0.2, 3, 22, 40.2);
    assert_string_equal(buf, "bisecting verlet, ETA 40 s");
    /* the ETA's units: seconds up to 99 s, minutes up to 99 min, then hours; nothing without an estimate */
    static const struct {
        double s;
        const char *text;
    } eta[] = {
        {0, "ETA 0 s"},
        {35.4, "ETA 35 s"},
        {99.4, "ETA 99 s"},
        {99.5, "ETA 2 min"},
        {125, "ETA 2 min"},
        {5969, "ETA 99 min"},
        {5970, "ETA 1.7 h"},
        {36000, "ETA 10.0 h"},
        {1e300, "ETA 1000000.0 h"},
        {-1, ""},
        {NAN, ""},
        {INFINITY, ""},
    };
    for (size_t i = 0; i < sizeof eta / sizeof eta[0]; i++) {
        char e[24];
        assert_string_equal(hk_progress_eta(eta[i].s, e, sizeof e), eta[i].text);
    }
}

/* stderr a file: no progress; one "hooke: wrote" line per file written, none with --quiet; stdout the same. */
static void test_wrote_lines(void **state)
{
    (void)state;
    char csv[256], json[256], png[256], args[1024], want[1024];
    snprintf(csv, sizeof csv, "%s", hk_test_path("fb.csv"));
    snprintf(json, sizeof json, "%s", hk_test_path("fb.json"));
    snprintf(png, sizeof png, "%s", hk_test_path("fb.png"));
    snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --out '%s' --plot '%s'", csv,
             png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%shooke: wrote %s\nhooke: wrote %s\n", SWEEP_LINE, csv, png);
    assert_string_equal(r.err, want);
    char *table = strdup(r.out);
    assert_non_null(table);
    assert_non_null(strstr(table, "\nverlet "));
    hk_mask_cost_table(table); /* the tables compared below are the same but for the CPU times */
    hk_run_free(&r);
    /* --quiet: nothing on stderr, the same stdout, the files still written */
    remove(csv);
    remove(png);
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --out '%s' --plot '%s' --quiet", csv, png);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_mask_cost_table(r.out);
    assert_string_equal(r.out, table);
    hk_run_free(&r);
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    free(text);
    text = hk_test_slurp(png);
    assert_non_null(text);
    free(text);
    /* JSON, and no table flags at all: the same table */
    snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --out '%s'", json);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    snprintf(want, sizeof want, "%shooke: wrote %s\n", SWEEP_LINE, json);
    assert_string_equal(r.err, want);
    hk_mask_cost_table(r.out);
    assert_string_equal(r.out, table);
    hk_run_free(&r);
    /* a file that cannot be written is an error, not a "wrote" line; the other one is still listed */
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --out /nonexistent/fb.csv --plot '%s'", png);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    snprintf(want, sizeof want,
             SWEEP_LINE "hooke: error: cannot write /nonexistent/fb.csv: No such file or directory\n"
                        "hooke: wrote %s\n",
             png);
    assert_string_equal(r.err, want);
    hk_run_free(&r);
    /* --quiet keeps errors */
    r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --plot /nonexistent/fb.png --quiet");
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write /nonexistent/fb.png: "));
    assert_null(strstr(r.err, "wrote"));
    hk_run_free(&r);
    r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " --quiet --points 1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --points expects a whole number 2..100, got '1'"));
    hk_run_free(&r);
    /* --help says what is printed */
    r = hk_test_hooke("", "stability --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "[--quiet]"));
    assert_non_null(strstr(r.out, "only when stderr is a terminal"));
    assert_non_null(strstr(r.out, "\"hooke: wrote FILE\""));
    hk_run_free(&r);
    free(table);
}

/* Every stretch of the progress (the terminal's text before "hooke: wrote") between carriage returns and
 * newlines is at most max characters. */
static void assert_lines_fit(const char *text, int max)
{
    const char *end = strstr(text, "hooke: wrote");
    if (strncmp(text, SWEEP_LINE_TTY, strlen(SWEEP_LINE_TTY)) == 0) text += strlen(SWEEP_LINE_TTY); /* a log line */
    for (const char *p = text; *p && (!end || p < end);) {
        const size_t n = strcspn(p, "\r\n");
        if ((int)n > max) {
            print_error("a line of %zu characters on a terminal of %d columns: '%.*s'\n", n, max + 1, (int)n, p);
            fail();
        }
        p += n;
        if (*p) p++;
    }
}

/* stderr a terminal: the progress line, redrawn in place, fitted to the width, cleared before the "wrote" line;
 * stdout (a file) holds the same table as without a terminal. */
static void test_progress_on_terminal(void **state)
{
    (void)state;
    char png[256], out[256], args[1024];
    snprintf(png, sizeof png, "%s", hk_test_path("tty.png"));
    snprintf(out, sizeof out, "%s", hk_test_path("tty_stdout.txt"));
    snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " " SWEEP_FLAGS " --plot '%s'", png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    char *table = strdup(r.out);
    assert_non_null(table);
    hk_mask_cost_table(table); /* the tables compared below are the same but for the CPU times */
    hk_run_free(&r);

    char *argv[] = {"hooke",     "stability", OSCILLATOR, "--integrators", "verlet,rk4", "--time",    "0.5", "--dt-min",
                    "0.01",      "--dt-max",  "0.4",      "--points",      "3",          "--threads", "1",   "--plot",
                    (char *)png, NULL,        NULL};
    int status;
    char *tty = hooke_on_pty(argv, 100, out, &status);
    if (!tty) {
        print_message("no pseudo-terminal (%s): the terminal mode is not tested here\n", strerror(errno));
        free(table);
        skip();
    }
    assert_int_equal(status, 0);
    /* the first run of each phase is drawn at once; the reference is 2 runs, the sweep 2 x 3, each bisection 10
     * (0.01..0.4 s to 0.5 %: log2(ln 40 / ln 1.005) = 9.5) */
    const char *first =
        SWEEP_LINE_TTY "\rstability: reference implicit_euler dt 1.00e-03 (0 of 2 runs, then the sweep)";
    if (strncmp(tty, first, strlen(first)) != 0 ||
        !strstr(tty, "\rstability: verlet dt 1.00e-02 (0 of 6 runs, then bisections)") ||
        !strstr(tty, "\rstability: bisecting verlet dt 6.32e-02 (0 of 20 runs)")) {
        for (char *c = tty; *c; c++)
            if (*c == '\r') *c = '|';
        print_error("terminal received ('|' for a carriage return): '%s'\n", tty);
        fail();
    }
    assert_lines_fit(tty, 99);
    /* the line is cleared (blanks, back to its start) before the "wrote" line */
    char want[512];
    snprintf(want, sizeof want, "\rhooke: wrote %s\r\n", png);
    const char *w = strstr(tty, want);
    assert_non_null(w);
    assert_string_equal(w, want);
    const char *q = w;
    while (q > tty && q[-1] == ' ') q--;
    assert_true(q < w && q > tty && q[-1] == '\r');
    char *text = hk_test_slurp(out);
    assert_non_null(text);
    hk_mask_cost_table(text);
    assert_string_equal(text, table);
    free(text);
    free(tty);

    /* a narrow terminal: the line fits in 39 characters, its fields whole (never wrapped, never cut) */
    tty = hooke_on_pty(argv, 40, out, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    assert_lines_fit(tty, 39);
    first = SWEEP_LINE_TTY "\rreference implicit_euler (0 of 2 runs)\r";
    if (strncmp(tty, first, strlen(first)) != 0 || !strstr(tty, "\rverlet dt 1.00e-02 (0 of 6 runs)\r")) {
        hk_pty_show(tty);
        print_error("terminal received ('|' for a carriage return): '%s'\n", tty);
        fail();
    }
    free(tty);

    /* two threads update the line: the same table below the header line (which names the thread count) */
    argv[14] = "2";
    tty = hooke_on_pty(argv, 100, out, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    assert_true(strncmp(tty, SWEEP_LINE_TTY "\rstability: ", strlen(SWEEP_LINE_TTY) + 12) == 0);
    assert_lines_fit(tty, 99);
    text = hk_test_slurp(out);
    assert_non_null(text);
    assert_non_null(strstr(text, ", 2 threads\n"));
    hk_mask_cost_table(text);
    assert_string_equal(strchr(text, '\n'), strchr(table, '\n'));
    free(text);
    free(tty);
    argv[14] = "1";

    /* --quiet: nothing at all on the terminal, the same table */
    argv[17] = "--quiet";
    tty = hooke_on_pty(argv, 100, out, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    assert_string_equal(tty, "");
    text = hk_test_slurp(out);
    assert_non_null(text);
    hk_mask_cost_table(text);
    assert_string_equal(text, table);
    free(text);
    free(tty);
    free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_progress_text),
        cmocka_unit_test(test_wrote_lines),
        cmocka_unit_test(test_progress_on_terminal),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
