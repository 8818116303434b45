/* test_world_def.c — the library's boundary: every hk_world_def field out of bounds is refused by name, none clamped.
 */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <float.h>
#include <limits.h>

#include "world_def.h"

/* The values of field f's rule that hk_world_def_check must refuse (bad, *nb of them) and the ends of its range,
 * which it must accept (good, *ng). */
static void values_of(const hk_field *f, double *bad, int *nb, double *good, int *ng)
{
    int b = 0, g = 0;
    const hk_bound *bound =
        f->rule == HK_RULE_BOUND || f->rule == HK_RULE_BOUND_OR_0 ? hk_bound_of((hk_bound_kind)f->a) : NULL;
    switch (f->rule) {
    case HK_RULE_FINITE: /* within the build's precision: a float build holds at most FLT_MAX */
    case HK_RULE_VEC:
        bad[b++] = NAN, bad[b++] = INFINITY, bad[b++] = -INFINITY;
        if (sizeof(hk_real) == 4) bad[b++] = 1e39, bad[b++] = -1e39;
        good[g++] = sizeof(hk_real) == 4 ? -FLT_MAX : -1e300, good[g++] = sizeof(hk_real) == 4 ? FLT_MAX : 1e300;
        break;
    case HK_RULE_BOUND:
    case HK_RULE_BOUND_OR_0:
        bad[b++] = NAN, bad[b++] = -1, bad[b++] = bound->min / 10, bad[b++] = INFINITY;
        if (isfinite(bound->max)) bad[b++] = bound->max * 10, good[g++] = bound->max;
        good[g++] = bound->min;
        if (f->rule == HK_RULE_BOUND)
            bad[b++] = 0;
        else
            good[g++] = 0;
        break;
    case HK_RULE_RANGE:
        bad[b++] = NAN, bad[b++] = f->a - 1e-3, bad[b++] = f->b + 1e-3;
        good[g++] = f->a, good[g++] = f->b;
        break;
    case HK_RULE_INT:
        if (f->a > INT_MIN) bad[b++] = f->a - 1;
        if (f->b < INT_MAX) bad[b++] = f->b + 1;
        bad[b++] = INT_MIN;
        good[g++] = f->a, good[g++] = f->b;
        break;
    }
    *nb = b;
    *ng = g;
}

/* Writes value v into field f (component c of a vector) of def. */
static void put(hk_world_def *def, const hk_field *f, int c, double v)
{
    char *at = (char *)def + f->offset;
    if (f->rule == HK_RULE_INT) {
        const int i = (int)v;
        memcpy(at, &i, sizeof i);
    } else {
        memcpy(at + (size_t)c * sizeof(double), &v, sizeof v);
    }
}

/* The defaults, with walls corners that may be switched on. */
static hk_world_def base_def(void)
{
    hk_world_def d = hk_default_world_def();
    d.walls_min = (hk_vec3){-1, -1, -1};
    d.walls_max = (hk_vec3){1, 1, 1};
    return d;
}

/* def is refused with HK_ERR_INVALID, a message that starts with `name`, and no world. */
static void refused(const hk_world_def *def, const char *name, const char *value)
{
    char err[512] = "unchanged";
    const int rc = hk_world_def_check(def, err, sizeof err);
    hk_world *w = hk_world_create(def);
    if (rc != HK_ERR_INVALID || strncmp(err, name, strlen(name)) != 0 || strstr(err, " must be ") == NULL || w) {
        print_error("%s = %s: status %d, world %p, message '%s'\n", name, value, rc, (void *)w, err);
        hk_world_destroy(w);
        fail();
    }
}

/* Every row of the table: each value out of its range refused by the field's name; each end of it accepted
 * and kept as given. */
static void test_every_field(void **state)
{
    (void)state;
    int count;
    const hk_field *fields = hk_world_def_fields(&count);
    int refused_fields = 0;
    for (int r = 0; r < count; r++) {
        const hk_field *f = &fields[r];
        const int comps = f->rule == HK_RULE_VEC ? 3 : 1;
        double bad[8], good[8];
        int nb, ng;
        values_of(f, bad, &nb, good, &ng);
        assert_true(nb > 0 && ng > 0);
        for (int c = 0; c < comps; c++) {
            char name[64], value[32];
            if (comps == 3)
                snprintf(name, sizeof name, "%s.%c", f->name, "xyz"[c]);
            else
                snprintf(name, sizeof name, "%s", f->name);
            for (int i = 0; i < nb; i++) {
                hk_world_def def = base_def();
                put(&def, f, c, bad[i]);
                snprintf(value, sizeof value, "%g", bad[i]);
                refused(&def, name, value);
            }
            for (int i = 0; i < ng; i++) {
                hk_world_def def = base_def();
                put(&def, f, c, good[i]);
                char err[512];
                if (hk_world_def_check(&def, err, sizeof err) != HK_OK) {
                    print_error("%s = %g refused: %s\n", name, good[i], err);
                    fail();
                }
                hk_world *w = hk_world_create(&def);
                assert_non_null(w);
                /* kept as given: nothing clamped or replaced */
                assert_memory_equal((const char *)&w->def + f->offset, (const char *)&def + f->offset,
                                    f->rule == HK_RULE_VEC   ? sizeof(hk_vec3)
                                    : f->rule == HK_RULE_INT ? sizeof(int)
                                                             : sizeof(double));
                hk_world_destroy(w);
            }
        }
        refused_fields++;
    }
    print_message("hk_world_def: %d fields, each refused out of its bounds by name (and kernels, walls)\n",
                  refused_fields + 1);
}

/* The table covers hk_world_def: every byte belongs to a row, to `kernels` (checked against the paths),
 * `device_driver` (against the drivers' names), `task_hook` (with threads) or to
 * padding before an aligned member. A field added without its row fails here. */
static void test_table_covers_the_def(void **state)
{
    (void)state;
    int count;
    const hk_field *fields = hk_world_def_fields(&count);
    char covered[sizeof(hk_world_def)] = {0};
    for (int r = 0; r < count; r++) {
        const size_t size = fields[r].rule == HK_RULE_VEC   ? sizeof(hk_vec3)
                            : fields[r].rule == HK_RULE_INT ? sizeof(int)
                                                            : sizeof(double);
        for (size_t b = 0; b < size; b++) {
            assert_false(covered[fields[r].offset + b]); /* no two rows on one field */
            covered[fields[r].offset + b] = 1;
        }
    }
    memset(covered + offsetof(hk_world_def, kernels), 1, sizeof(const char *));
    memset(covered + offsetof(hk_world_def, task_hook), 1, sizeof(hk_task_hook));     /* checked with threads */
    memset(covered + offsetof(hk_world_def, device_driver), 1, sizeof(const char *)); /* checked against the names */
    for (size_t b = 0; b < sizeof covered; b++) {
        if (covered[b]) continue;
        size_t e = b;
        while (e < sizeof covered && !covered[e]) e++;
        /* padding: shorter than the widest alignment, up to an aligned member or the end */
        if (!(e - b < _Alignof(hk_world_def) && (e == sizeof covered || e % _Alignof(double) == 0))) {
            print_error("bytes [%zu, %zu) of hk_world_def are no row's field\n", b, e);
            fail();
        }
        b = e;
    }
}

/* The rules between fields and the kernel path. */
static void test_walls_and_kernels(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.has_walls = 1;
    def.walls_min = (hk_vec3){0, 0, 0};
    def.walls_max = (hk_vec3){1, 0, 1};
    refused(&def, "walls_max must be greater than walls_min", "(1 0 1)");
    def.has_walls = 0; /* walls off: the corners are not compared */
    assert_int_equal(hk_world_def_check(&def, NULL, 0), HK_OK);

    def = hk_default_world_def();
    def.kernels = "sse9";
    char err[512];
    assert_int_equal(hk_world_def_check(&def, err, sizeof err), HK_ERR_INVALID);
    assert_string_equal(err, "kernels: unknown kernel path 'sse9' (expected avx512, avx2, scalar or reference)");
    assert_null(hk_world_create(&def));
    static const char *const engine_paths[] = {"avx512", "avx2", "scalar"};
    for (int i = 0; i < 3; i++) {
        def.kernels = engine_paths[i];
        if (hk_kernel_path_available(engine_paths[i])) {
            hk_world *w = hk_world_create(&def);
            assert_non_null(w);
            assert_string_equal(hk_world_kernels(w), engine_paths[i]);
            hk_world_destroy(w);
        } else {
            assert_int_equal(hk_world_def_check(&def, err, sizeof err), HK_ERR_UNSUPPORTED);
            assert_non_null(strstr(err, "is not available on this CPU and build"));
            assert_null(hk_world_create(&def));
        }
    }
    /* the world keeps the path's name, not the caller's string */
    char path[] = "reference";
    def.kernels = path;
    hk_world *w = hk_world_create(&def);
    path[0] = 'x';
    assert_string_equal(hk_world_kernels(w), "reference");
    assert_string_equal(w->def.kernels, "reference");
    hk_world_destroy(w);
    /* NULL: the defaults; "" the default path */
    assert_int_equal(hk_world_def_check(NULL, err, sizeof err), HK_OK);
    def = hk_default_world_def();
    def.kernels = "";
    assert_int_equal(hk_world_def_check(&def, NULL, 0), HK_OK);
}

/* threads was clamped to 0 once: now -1 and 4097 are refused, and a count in range is the world's. */
static void test_threads_not_clamped(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.threads = -1;
    refused(&def, "threads", "-1");
    def.threads = HK_MAX_THREADS + 1;
    refused(&def, "threads", "4097");
    def.threads = 3;
    hk_world *w = hk_world_create(&def);
    assert_int_equal(hk_world_threads(w), 3);
    hk_world_destroy(w);
}

static void no_pool(void *host, int tasks, hk_task_fn task, void *pass)
{
    (void)host;
    (void)tasks;
    (void)task;
    (void)pass;
    fail(); /* a definition that is refused runs nothing */
}

/* A task hook runs passes of `threads` tasks: threads 0 (OpenMP's default) is refused with one, by name. */
static void test_task_hook_needs_threads(void **state)
{
    (void)state;
    hk_world_def def = hk_default_world_def();
    def.task_hook = (hk_task_hook){no_pool, NULL};
    refused(&def, "threads must be in [1, 4096] with a task_hook", "got 0");
    def.threads = 1;
    assert_int_equal(hk_world_def_check(&def, NULL, 0), HK_OK);
    def.task_hook.run = NULL; /* none: threads 0 is OpenMP's default again */
    def.threads = 0;
    assert_int_equal(hk_world_def_check(&def, NULL, 0), HK_OK);
}

/* The body descriptors: a non-finite place or speed is refused by name, not built into NaN particles. */
/* A body adder's call refused the descriptor with HK_ERR_INVALID and exactly `want`. */
static void refused_body(hk_world *w, int rc, const char *want)
{
    assert_int_equal(rc, HK_ERR_INVALID);
    assert_string_equal(hk_world_error(w), want);
}

static void test_body_descriptors(void **state)
{
    (void)state;
    hk_world *w = hk_world_create(NULL);
    hk_rope_def r = hk_default_rope_def();
    r.origin.y = NAN;
    refused_body(w, hk_world_add_rope(w, &r), "rope: origin.y must be finite (got nan)");
    r = hk_default_rope_def();
    r.spacing = INFINITY;
    refused_body(w, hk_world_add_rope(w, &r), "rope: spacing must be > 0 (got inf)");
    hk_cloth_def c = hk_default_cloth_def();
    c.origin.z = -INFINITY;
    refused_body(w, hk_world_add_cloth(w, &c), "cloth: origin.z must be finite (got -inf)");
    hk_jelly_def j = hk_default_jelly_def();
    j.origin.x = NAN;
    refused_body(w, hk_world_add_jelly(w, &j), "jelly: origin.x must be finite (got nan)");
    hk_spring_pair_def p = hk_default_spring_pair_def();
    p.velocity_b.x = NAN;
    refused_body(w, hk_world_add_spring_pair(w, &p), "pair: velocity_b.x must be finite (got nan)");
    hk_pendulum_def pd = hk_default_pendulum_def();
    pd.pivot.y = INFINITY;
    refused_body(w, hk_world_add_pendulum(w, &pd), "pendulum: pivot.y must be finite (got inf)");
    hk_sphere_def s = {{0, NAN, 0}, 1, {0, 0, 0}, 0};
    refused_body(w, hk_world_add_sphere(w, &s), "sphere center.y must be finite (got nan)");
    s = (hk_sphere_def){{0, 0, 0}, INFINITY, {0, 0, 0}, 0};
    refused_body(w, hk_world_add_sphere(w, &s), "sphere radius must be > 0 (got inf)");
    hk_ring_def g = hk_default_ring_def();
    g.center.x = NAN;
    refused_body(w, hk_world_add_ring(w, &g), "ring: center.x must be finite (got nan)");
    hk_mesh_def m = hk_default_mesh_def();
    m.velocity.z = NAN;
    refused_body(w, hk_world_add_icosphere(w, &m, 1, 1), "icosphere: velocity.z must be finite (got nan)");
    const hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}}, vel[2] = {{0, 0, 0}, {0, INFINITY, 0}};
    const double mass[2] = {1, 1};
    refused_body(w, hk_world_add_points(w, 2, pos, vel, mass), "points: velocity of point 1 is not finite");
    assert_int_equal(hk_world_body_count(w), 0); /* nothing half-built */
    hk_world_destroy(w);
}

/* Values that are finite as doubles but not once held in the build's precision (float: beyond 3.4e38) are
 * refused, said so, where a float build would have stored an infinity; a double build takes them. */
static void test_beyond_precision(void **state)
{
    (void)state;
    hk_world_def wd = hk_default_world_def();
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    const hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}}, vel[2] = {{0, 0, 0}, {0, 1e39, 0}},
                  far[2] = {{0, 0, 0}, {2e38, 0, 0}};
    const double mass[2] = {1, 1};
    hk_spring_pair_def p = hk_default_spring_pair_def();
    p.velocity_b.x = 1e39;
    if (sizeof(hk_real) == 4) {
        refused_body(w, hk_world_add_points(w, 2, pos, vel, mass),
                     "points: velocity (0, 1e+39, 0) m/s of point 1 is beyond this build's precision");
        refused_body(w, hk_world_add_points(w, 2, far, NULL, mass),
                     "points: position (2e+38, 0, 0) m of point 1 is beyond this build's precision");
        refused_body(w, hk_world_add_spring_pair(w, &p),
                     "pair: velocity_b.x must be within this build's precision, |x| <= 3.40282e+38 (got 1e+39)");
        assert_int_equal(hk_world_body_count(w), 0);
        assert_true(hk_world_add_points(w, 2, pos, NULL, mass) >= 0);
        assert_int_not_equal(hk_world_set_velocity(w, 1, (hk_vec3){-1e39, 0, 0}), 0);
        assert_string_equal(hk_world_error(w),
                            "set_velocity: velocity (-1e+39, 0, 0) m/s of particle 1 is beyond this build's precision");
        assert_int_not_equal(hk_world_set_position(w, 1, (hk_vec3){0, 0, 1e39}), 0);
        assert_string_equal(hk_world_error(w),
                            "set_position: position (0, 0, 1e+39) m of particle 1 is beyond this build's precision");
        assert_true(hk_world_particles(w).vx[1] == 0 && hk_world_position(w, 1).z == 0); /* left as they were */
    } else {
        assert_true(hk_world_add_points(w, 2, pos, vel, mass) >= 0);
        assert_true(hk_world_add_spring_pair(w, &p) >= 0);
        assert_int_equal(hk_world_set_velocity(w, 1, (hk_vec3){-1e39, 0, 0}), 0);
        assert_true(hk_world_particles(w).vx[1] == -1e39);
    }
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field),
        cmocka_unit_test(test_table_covers_the_def),
        cmocka_unit_test(test_walls_and_kernels),
        cmocka_unit_test(test_threads_not_clamped),
        cmocka_unit_test(test_task_hook_needs_threads),
        cmocka_unit_test(test_body_descriptors),
        cmocka_unit_test(test_beyond_precision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
