/* test_run_feedback.c — what `hooke run` shows on a terminal while it builds and runs a world, and that --quiet
 * and files get none of it. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_pty.h"

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
        cmocka_unit_test(test_phases_on_terminal),
        cmocka_unit_test(test_error_after_phase),
        cmocka_unit_test(test_bar_on_terminal),
        cmocka_unit_test(test_quiet),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
