/* test_checks.c — the run-time checks (check.h): each validator catches the broken rule it names, and a checking
 * build (HOOKE_CHECKS, the asan preset) stops on a failed check while a release build compiles them out. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_graph.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "colour.h"
#include "distribute.h"
#include "part.h"

/* A random list family of 600 particles (one band: every spring near), coloured; its world. */
static hk_world *coloured_world(hk_family **out)
{
    graph g;
    random_graph(&g, 600, 8, 5);
    hk_world *w = hk_test_empty_world();
    hk_vec3 *pos = malloc((size_t)g.n * sizeof *pos);
    double *mass = malloc((size_t)g.n * sizeof *mass);
    assert_non_null(pos);
    assert_non_null(mass);
    for (int i = 0; i < g.n; i++) {
        pos[i] = (hk_vec3){0.01 * i, 0.001 * (i % 7), 0};
        mass[i] = 0.01;
    }
    const int body = hk_world_add_points(w, g.n, pos, NULL, mass);
    free(pos);
    free(mass);
    assert_int_equal(body, 0);
    const hk_spring_params sp = hk_default_spring_params();
    const int fam = hk_world_add_springs(w, body, g.m, g.a, g.b, &sp);
    graph_free(&g);
    assert_true(fam >= 0);
    hk_family *f = &w->families[fam];
    assert_int_equal(hk_colour_family(f, 0, w->p.count), 0);
    assert_true(f->colour_count > 2 && f->colour_start[1] - f->colour_start[0] >= 2);
    *out = f;
    return w;
}

/* hk_colour_check's verdict on f, and its message when it refuses. */
static int colour_verdict(const hk_world *w, const hk_family *f, const char *want)
{
    char why[256] = "";
    const int r = hk_colour_check(f, 0, w->p.count, why, sizeof why);
    if (want) {
        print_message("refused: %s\n", why);
        assert_non_null(strstr(why, want));
    }
    return r;
}

/* Two springs of colour 0 made to share a particle, an end moved out of the body, a colour's table out of order:
 * each refused with its rule, each accepted again once undone. */
static void test_colour_check(void **state)
{
    (void)state;
    hk_family *f;
    hk_world *w = coloured_world(&f);
    assert_int_equal(colour_verdict(w, f, NULL), 0);
    const int64_t s0 = f->colour_start[0], s1 = s0 + 1;
    const int keep = f->a[s1];
    f->a[s1] = f->a[s0] != f->b[s1] ? f->a[s0] : f->b[s0];
    assert_int_equal(colour_verdict(w, f, "shares a particle"), -1);
    f->a[s1] = w->p.count + 3;
    assert_int_equal(colour_verdict(w, f, "outside the family's particles"), -1);
    f->a[s1] = keep;
    assert_int_equal(colour_verdict(w, f, NULL), 0);
    const int64_t near = f->near_end[0];
    f->near_end[0] = f->colour_start[1] + 1; /* colour 0's near part past its end */
    assert_int_equal(colour_verdict(w, f, "out of order"), -1);
    f->near_end[0] = near;
    assert_int_equal(colour_verdict(w, f, NULL), 0);
    hk_world_destroy(w);
}

static void no_halo(void *ctx, const hk_world *w, int body)
{
    (void)ctx;
    (void)w;
    (void)body;
}
static int none(void *ctx, int flag)
{
    (void)ctx;
    return flag;
}
static const hk_part_ops no_ops = {no_halo, no_halo, none, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

/* A cloth and a row of small bodies. */
static hk_world *cloth_and_quads(void)
{
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 80;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    for (int q = 0; q < 12; q++) {
        hk_quad_def d = hk_default_quad_def();
        d.origin = (hk_vec3){2.0 * q, 3, 0};
        assert_true(hk_world_add_quad(w, &d) >= 0);
    }
    return w;
}

/* A cloth in slabs and a row of small bodies shared out over 3 ranks: every rank's share passes; a particle given to
 * two ranks, one given to none and a slab that ends before it starts are refused. */
static void test_part_check(void **state)
{
    (void)state;
    char why[256];
    hk_world *w = NULL;
    for (int r = 0; r < 3; r++) {
        hk_world_destroy(w);
        w = cloth_and_quads();
        assert_int_equal(hk_world_distribute(w, r, 3, &no_ops, NULL), 0);
        assert_int_equal(hk_part_check(w, w->part, why, sizeof why), 0);
    }
    struct hk_part *pt = w->part;
    assert_true(pt->body[0].owner < 0 && pt->nspan[1] >= 1 && pt->nspan[2] >= 1);
    int *span = pt->span[1];
    const int e = span[1];
    span[1] = e + 1; /* the first particle of the next rank's span too */
    assert_int_equal(hk_part_check(w, pt, why, sizeof why), -1);
    print_message("refused: %s\n", why);
    assert_non_null(strstr(why, "computed by rank"));
    span[1] = e - 1;
    assert_int_equal(hk_part_check(w, pt, why, sizeof why), -1);
    print_message("refused: %s\n", why);
    assert_non_null(strstr(why, "computed by no rank"));
    span[1] = e;
    assert_int_equal(hk_part_check(w, pt, why, sizeof why), 0);
    int *rows = pt->body[0].rows;
    const int r1 = rows[1];
    rows[1] = rows[2] + 1;
    assert_int_equal(hk_part_check(w, pt, why, sizeof why), -1);
    print_message("refused: %s\n", why);
    assert_non_null(strstr(why, "starts after its end"));
    rows[1] = r1;
    hk_world_destroy(w);
}

/* Runs fn in a child process; its exit status, its stderr in err. */
static int in_child(void (*fn)(void), char *err, size_t len)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(pipefd[1], 2);
        close(pipefd[0]);
        fn();
        _exit(0);
    }
    close(pipefd[1]);
    size_t n = 0;
    for (ssize_t got; n + 1 < len && (got = read(pipefd[0], err + n, len - 1 - n)) > 0;) n += (size_t)got;
    err[n] = '\0';
    close(pipefd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void validate_broken_colouring(void)
{
    hk_family *f;
    hk_world *w = coloured_world(&f);
    f->a[f->colour_start[0] + 1] =
        f->a[f->colour_start[0]] != f->b[f->colour_start[0] + 1] ? f->a[f->colour_start[0]] : f->b[f->colour_start[0]];
    HK_VALIDATE(hk_colour_check, f, 0, w->p.count);
    hk_world_destroy(w);
}

static void assert_false_condition(void)
{
    volatile int two = 2;
    HK_ASSERT(two + two == 5);
}

/* A failed check stops a checking build with its place and rule on stderr; a release build does not evaluate it. */
static void test_checks_stop_or_compile_out(void **state)
{
    (void)state;
    void (*cases[2])(void) = {validate_broken_colouring, assert_false_condition};
    static const char *const said[2] = {"hk_colour_check: spring", "two + two == 5"};
    for (int k = 0; k < 2; k++) {
        char err[4096];
        const int status = in_child(cases[k], err, sizeof err);
        if (HK_CHECKS) {
            assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
            assert_non_null(strstr(err, "hooke: internal check failed at"));
            assert_non_null(strstr(err, said[k]));
            print_message("checking build: %s", err);
        } else {
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
            assert_null(strstr(err, "internal check failed"));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_check),
        cmocka_unit_test(test_part_check),
        cmocka_unit_test(test_checks_stop_or_compile_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
