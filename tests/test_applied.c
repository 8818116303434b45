/* test_applied.c — forces applied to single particles: closed form, every integrator and path, contacts, refusals. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <string.h>

#include "integrators.h"
#include "response.h"
#include "scene.h"
#include "world.h"

/* A 9 x 7 cloth of 2 g nodes, pinned at two corners, on `threads` threads and kernel path `kernels` (NULL: the
 * widest), gravity g [m/s^2]. */
static hk_world *cloth(const char *kernels, int threads, hk_vec3 g)
{
    hk_world_def def = hk_test_world_def(g);
    def.air_drag = 0.01;
    def.kernels = kernels;
    def.threads = threads;
    def.full_team = 1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 9;
    c.ny = 7;
    c.spacing = 0.05;
    c.mass = 2e-3;
    c.structural_springs.k = 80;
    c.shear_springs.k = c.bend_springs.k = 20;
    c.pins = HK_PIN_TWO_CORNERS;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    return w;
}

/* Applies m_i a to every particle of w (a pinned one ignores it). */
static void apply_accel(hk_world *w, const double a[3])
{
    const int n = hk_world_particles(w).count;
    double *f = malloc(3 * (size_t)n * sizeof *f);
    assert_non_null(f);
    const hk_particles_view pv = hk_world_particles(w);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) f[3 * i + c] = pv.mass[i] * a[c];
    assert_int_equal(hk_world_set_applied_forces(w, 0, n, f), HK_OK);
    free(f);
}

/* A free particle of mass m under an applied force F alone, by semi-implicit Euler: v_n = n h F / m and
 * x_n = x_0 + h^2 F / m n (n + 1) / 2, to the build's rounding. */
static void test_free_particle_closed_form(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const double x0[3] = {0.5, 1, -0.25}, m = 0.3;
    const hk_vec3 at = {x0[0], x0[1], x0[2]};
    assert_true(hk_world_add_points(w, 1, &at, NULL, &m) >= 0);
    const double h = 1e-3, F[3] = {0.6, -0.9, 0.15};
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, h);
    assert_int_equal(hk_world_set_applied_forces(w, 0, 1, F), HK_OK);
    const int n = 200;
    for (int s = 0; s < n; s++) hk_world_step(w);
    const hk_vec3 x = hk_world_position(w, 0);
    const double got[3] = {x.x, x.y, x.z};
    for (int c = 0; c < 3; c++) {
        const double want = x0[c] + h * h * F[c] / m * n * (n + 1) / 2;
        assert_near(got[c], want, 1e-5 + 1e-5 * fabs(want - x0[c]));
    }
    double back[3];
    assert_int_equal(hk_world_applied_forces(w, 0, 1, back), HK_OK);
    for (int c = 0; c < 3; c++) assert_near(back[c], F[c], 1e-6 * fabs(F[c]));
    hk_world_clear_applied_forces(w); /* none after: the particle keeps its velocity */
    const hk_vec3 before = hk_world_position(w, 0);
    hk_world_step(w);
    hk_world_step(w);
    const hk_vec3 after = hk_world_position(w, 0);
    assert_near(after.x - before.x, 2 * h * h * F[0] / m * n, 1e-6);
    hk_world_destroy(w);
}

/* Every integrator, on the widest kernel path and on the reference: forces m_i a applied to a cloth under gravity
 * g move it as gravity g + a does (to rounding), and far from where g alone takes it. */
static void test_every_integrator_adds_them(void **state)
{
    (void)state;
    const double a[3] = {3, 1, -2};
    const hk_vec3 g = {0, -9.81, 0}, ga = {g.x + a[0], g.y + a[1], g.z + a[2]};
    const char *paths[2] = {NULL, "reference"};
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++)
        for (int p = 0; p < 2; p++) {
            hk_world *with = cloth(paths[p], 1, g), *as_gravity = cloth(paths[p], 1, ga);
            hk_world *without = cloth(paths[p], 1, g), *ws[3] = {with, as_gravity, without};
            for (int j = 0; j < 3; j++) hk_test_integrator(ws[j], (hk_integrator_kind)k, 1e-3);
            apply_accel(with, a);
            for (int s = 0; s < 50; s++)
                for (int j = 0; j < 3; j++) hk_world_step(ws[j]);
            double near = 0, far = 0;
            for (int i = 0; i < hk_world_particles(with).count; i++) {
                const hk_vec3 x = hk_world_position(with, i), y = hk_world_position(as_gravity, i),
                              z = hk_world_position(without, i);
                near = fmax(near, fmax(fabs(x.x - y.x), fmax(fabs(x.y - y.y), fabs(x.z - y.z))));
                far = fmax(far, fabs(x.x - z.x));
            }
            if (near > 1e-4 || far < 1e-3)
                print_error("%s on %s: %g m from gravity + a, %g m from gravity alone\n",
                            hk_integrator_name((hk_integrator_kind)k), paths[p] ? paths[p] : "the widest path", near,
                            far);
            assert_le(near, 1e-4);
            assert_true(far >= 1e-3);
            for (int j = 0; j < 3; j++) hk_world_destroy(ws[j]);
        }
}

/* Per-particle forces of every size give the same bits on every kernel path the CPU runs and on 1 and 2 threads. */
static void test_same_bits_every_path(void **state)
{
    (void)state;
    const char *paths[3] = {"scalar", "avx2", "avx512"};
    uint64_t first = 0;
    int runs = 0;
    for (int p = 0; p < 3; p++) {
        if (!hk_kernel_path_available(paths[p])) continue;
        for (int threads = 1; threads <= 2; threads++) {
            hk_world *w = cloth(paths[p], threads, (hk_vec3){0, -9.81, 0});
            hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 5e-4);
            const int n = hk_world_particles(w).count;
            double *f = malloc(3 * (size_t)n * sizeof *f);
            assert_non_null(f);
            for (int i = 0; i < 3 * n; i++) f[i] = 1e-3 * sin(0.7 * i + 0.3);
            assert_int_equal(hk_world_set_applied_forces(w, 0, n, f), HK_OK);
            free(f);
            for (int s = 0; s < 100; s++) hk_world_step(w);
            const uint64_t h = hk_world_state_hash(w);
            if (runs++ == 0) first = h;
            assert_true(h == first);
            hk_world_destroy(w);
        }
    }
    assert_true(runs >= 2);
}

/* With contacts: zero applied forces leave the bits of none (the two summed: response.c), and forces change them.
 * The fold's cloth touches itself within the steps. */
static uint64_t fold_hash(int apply, double scale, int64_t *touched)
{
    hk_scene sc;
    char err[1024];
    char path[512];
    snprintf(path, sizeof path, "%s/cloth_fold.scene", HOOKE_SCENES_DIR);
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = sc.world;
    const int n = hk_world_particles(w).count;
    double *f = calloc(3 * (size_t)n, sizeof *f);
    assert_non_null(f);
    for (int i = 0; i < n; i++) f[3 * i] = scale * cos(0.1 * i);
    if (apply) assert_int_equal(hk_world_set_applied_forces(w, 0, n, f), HK_OK);
    free(f);
    *touched = 0;
    for (int s = 0; s < 150; s++) { /* touching from about step 25 */
        hk_world_step(w);
        *touched += hk_contact_counts(w, NULL).contacts;
    }
    const uint64_t h = hk_world_state_hash(w);
    hk_scene_free(&sc);
    return h;
}

static void test_with_contacts(void **state)
{
    (void)state;
    int64_t touched;
    const uint64_t none = fold_hash(0, 0, &touched);
    assert_true(touched > 0);
    assert_true(fold_hash(1, 0, &touched) == none);
    assert_true(fold_hash(1, 1e-4, &touched) != none);
}

/* Refusals: out of range, not finite, beyond the precision: nothing written, the world's error names the call. */
static void test_refused_before_written(void **state)
{
    (void)state;
    hk_world *w = cloth(NULL, 1, (hk_vec3){0, -9.81, 0});
    const int n = hk_world_particles(w).count;
    double f[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    assert_true(hk_world_set_applied_forces(w, n - 2, 3, f) < 0);
    assert_non_null(strstr(hk_world_error(w), "set_applied_forces: particles"));
    f[4] = NAN;
    assert_true(hk_world_set_applied_forces(w, 0, 3, f) < 0);
    assert_non_null(strstr(hk_world_error(w), "set_applied_forces: force of particle 1 is not finite"));
    double back[9];
    assert_int_equal(hk_world_applied_forces(w, 0, 3, back), HK_OK);
    for (int i = 0; i < 9; i++) assert_true(back[i] == 0); /* nothing was written */
    assert_int_equal(hk_world_applied_forces(w, n, 1, back), HK_ERR_INVALID);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_free_particle_closed_form), cmocka_unit_test(test_every_integrator_adds_them),
        cmocka_unit_test(test_same_bits_every_path),      cmocka_unit_test(test_with_contacts),
        cmocka_unit_test(test_refused_before_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
