/* test_run_feedback.c — what `hooke run` shows on a terminal while it builds and runs a world, and that --quiet
 * and files get none of it. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_pty.h"

#include <math.h>

#include "progress.h"

#define ROPE HOOKE_SCENES_DIR "/rope.scene"

/* The terminal's text from the start up to `what`, which must be there. */
static const char *find(const char *tty, const char *what)
{
    const char *at = strstr(tty, what);
    if (!at) {
        char *copy = strdup(tty);
        hk_pty_show(copy);
        print_error("the terminal did not show '%s'; it received ('|' for a carriage return): '%s'\n", what, copy);
        free(copy);
        fail();
    }
    return at;
}

/* A line cleared right before `at`: back to its start, blanks over it, back to its start. */
static void assert_cleared_before(const char *tty, const char *at)
{
    const char *q = at;
    assert_true(q > tty && q[-1] == '\r');
    while (q > tty && q[-1] == '\r') q--;
    const char *blanks_end = q;
    while (q > tty && q[-1] == ' ') q--;
    assert_true(q < blanks_end && q > tty && q[-1] == '\r');
}

/* Each phase of building the world shows a line on the terminal while it
 * runs, cleared before what follows; stdout (a file) gets the summary only. */
static void test_phases_on_terminal(void **state)
{
    (void)state;
    char out[256];
    snprintf(out, sizeof out, "%s", hk_test_path("phases.txt"));
    char *argv[] = {"hooke", "run", ROPE, "--steps", "10", NULL};
    int status;
    char *tty = hooke_on_pty(argv, 120, out, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    const char *a = find(tty, "\rhooke: reading the scene and building its bodies ...\r");
    assert_true(a == tty);
    const char *b = find(tty, "hooke: colouring the springs and planning the passes ...\r");
    assert_cleared_before(tty, b);
    const char *c = find(tty, "hooke: " ROPE ": 80 particles, 79 springs, ");
    assert_cleared_before(tty, c);
    char *text = hk_test_slurp(out);
    assert_non_null(text);
    assert_true(strncmp(text, "hooke: scene=" ROPE " ", strlen("hooke: scene=" ROPE " ")) == 0);
    assert_null(strchr(text, '\r'));
    free(text);
    free(tty);
}

/* A message after a phase line starts on a clean line: nothing of the phase's text is left beside it. */
static void test_error_after_phase(void **state)
{
    (void)state;
    char scene[256];
    snprintf(scene, sizeof scene, "%s", hk_test_path("short.scene"));
    hk_test_write(scene, "body rope\n mas 1\nend\n");
    char *argv[] = {"hooke", "run", scene, NULL};
    int status;
    char *tty = hooke_on_pty(argv, 120, hk_test_path("error.txt"), &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 1);
    char want[512];
    snprintf(want, sizeof want, "%s:2:2: error: unknown key 'mas' in body rope", scene);
    const char *e = find(tty, want);
    assert_cleared_before(tty, e);
    free(tty);
}

/* With stdout a terminal too, the progress bar is drawn and cleared before the summary line. */
static void test_bar_on_terminal(void **state)
{
    (void)state;
    char *argv[] = {"hooke", "run", ROPE, "--steps", "10", NULL};
    int status;
    char *tty = hooke_on_pty(argv, 120, NULL, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    find(tty, "] 100% step 10/10 ");
    const char *s = find(tty, "hooke: scene=" ROPE " ");
    assert_cleared_before(tty, s);
    free(tty);
}

/* The bar's text at a width: fields shortened or left out whole, never a number cut (at 80 columns the rate was
 * cut to "ETA 7 min, 5.89e+0"). */
static void test_bar_text_fits(void **state)
{
    (void)state;
    static const struct {
        int room;
        const char *text;
    } fit[] = {
        {200, "[##############................]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 spring updates/s"},
        {96, "[##############................]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 spring updates/s"},
        /* 80 columns: the bar narrows, down to 10 marks, then the rate's words, then fields go, each whole */
        {79, "[######.......]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 spring updates/s"},
        {76, "[####......]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 spring updates/s"},
        {75, "[#######.........]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 updates/s"},
        {69, "[####......]  47% step 141/300 t=2.35 s ETA 7 min, 5.89e+07 updates/s"},
        {68, "[#############................]  47% step 141/300 t=2.35 s ETA 7 min"},
        {49, "[####......]  47% step 141/300 t=2.35 s ETA 7 min"},
        {48, "[########..........]  47% step 141/300 ETA 7 min"},
        {39, " 47% step 141/300 ETA 7 min"},
        {26, " 47% ETA 7 min"},
        {13, " 47%"},
        {4, " 47%"},
        {3, ""},
    };
    char buf[200];
    for (size_t i = 0; i < sizeof fit / sizeof fit[0]; i++) {
        hk_progress_bar_text(buf, sizeof buf, fit[i].room, 141, 300, 2.35, 420, 5.89e7);
        if (strcmp(buf, fit[i].text) != 0 || (int)strlen(buf) > fit[i].room) {
            print_error("in %d columns: '%s', expected '%s'\n", fit[i].room, buf, fit[i].text);
            fail();
        }
    }
    /* no estimate yet: no ETA field at all, and no separator left behind */
    hk_progress_bar_text(buf, sizeof buf, 79, 0, 300, 0, NAN, 0);
    assert_string_equal(buf, "[..............................]   0% step 0/300 t=0 s, 0 spring updates/s");
}

/* The last line the bar drew before it was cleared for the summary line (its trailing blanks left out), into
 * line. */
static void last_bar(const char *tty, char *line, size_t len)
{
    const char *s = find(tty, "hooke: scene=");
    const char *q = s;
    while (q > tty && q[-1] == '\r') q--;
    while (q > tty && q[-1] == ' ') q--;
    assert_true(q > tty && q[-1] == '\r');
    const char *end = --q;
    while (end > tty && end[-1] == ' ') end--;
    const char *start = end;
    while (start > tty && start[-1] != '\r') start--;
    snprintf(line, len, "%.*s", (int)(end - start), start);
}

/* On terminals 80 columns wide and narrower, the bar's last line (100 %, 10 of 10 steps) fits the width with its
 * fields whole; only its rate depends on the machine. */
static void test_bar_widths(void **state)
{
    (void)state;
    static const struct {
        int cols;
        const char *text; /* NULL: 80 columns, checked by parts */
    } widths[] = {
        {80, NULL},
        {60, "[######################] 100% step 10/10 t=0.1667 s ETA 0 s"},
        {40, "[#############] 100% step 10/10 ETA 0 s"},
        {24, "100% step 10/10 ETA 0 s"},
        {12, "100%"},
    };
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
        char *argv[] = {"hooke", "run", ROPE, "--steps", "10", NULL};
        int status;
        char *tty = hooke_on_pty(argv, widths[i].cols, NULL, &status);
        HK_PTY_OR_SKIP(tty);
        assert_int_equal(status, 0);
        char line[512];
        last_bar(tty, line, sizeof line);
        const int room = widths[i].cols - 1;
        if ((int)strlen(line) > room) {
            print_error("%d columns: a line of %zu characters: '%s'\n", widths[i].cols, strlen(line), line);
            fail();
        }
        if (widths[i].text && strcmp(line, widths[i].text) != 0) {
            print_error("%d columns: '%s', expected '%s'\n", widths[i].cols, line, widths[i].text);
            fail();
        }
        if (!widths[i].text) { /* "[###...#] 100% step 10/10 t=0.1667 s ETA 0 s, RATE spring updates/s", whole */
            const char *mid = "] 100% step 10/10 t=0.1667 s ETA 0 s, ", *tail = " spring updates/s";
            const char *m = strstr(line, mid);
            const size_t n = strlen(line);
            if (line[0] != '[' || !m || n < strlen(tail) || strcmp(line + n - strlen(tail), tail) != 0) {
                print_error("80 columns: '%s': not the bar, the percent, step, time, ETA and the rate whole\n", line);
                fail();
            }
            char *end;
            const double rate = strtod(m + strlen(mid), &end);
            assert_true(end == line + n - strlen(tail) && rate > 0);
        }
        free(tty);
    }
}

/* --quiet: nothing at all on the terminal but the summary on stdout; nothing on stderr off a terminal either. */
static void test_quiet(void **state)
{
    (void)state;
    char out[256];
    snprintf(out, sizeof out, "%s", hk_test_path("quiet.txt"));
    char *argv[] = {"hooke", "run", ROPE, "--steps", "10", "--quiet", NULL};
    int status;
    char *tty = hooke_on_pty(argv, 120, out, &status);
    HK_PTY_OR_SKIP(tty);
    assert_int_equal(status, 0);
    assert_string_equal(tty, "");
    free(tty);
    char *text = hk_test_slurp(out);
    assert_non_null(strstr(text, " state_hash=0x"));
    free(text);
    hk_run r = hk_test_hooke("", "run " ROPE " --steps 10 --quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_on_terminal), cmocka_unit_test(test_error_after_phase),
        cmocka_unit_test(test_bar_on_terminal),    cmocka_unit_test(test_bar_text_fits),
        cmocka_unit_test(test_bar_widths),         cmocka_unit_test(test_quiet),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
