/* test_volume.c — Gauss-divergence volume: exact polyhedra, convergence to the sphere, invariance, thread-count bits,
 * 2-D area. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include "surface.h"
#include "team.h"
#include "world.h"

/* Icosahedron of circumradius r: edge a = 4 r / sqrt(10 + 2 sqrt 5), V = 5/12 (3 + sqrt 5) a^3. */
static void test_icosahedron_exact(void **state)
{
    (void)state;
    const double r = 1.5, a = 4 * r / sqrt(10 + 2 * sqrt(5.0)), exact = 5.0 / 12 * (3 + sqrt(5.0)) * a * a * a;
    hk_mesh m;
    assert_int_equal(hk_mesh_icosphere(&m, r, 0, (hk_vec3){0.3, -0.2, 5}), 0);
    assert_near(hk_mesh_volume(&m, HK_VOLUME_GAUSS), exact, 1e-13 * exact);
    assert_near(hk_mesh_volume(&m, HK_VOLUME_TETRA), exact, 1e-13 * exact);
    hk_mesh_free(&m);
}

/* The error against 4/3 pi r^3 shrinks about 4x per level (it is O(h^2)). */
static void test_icosphere_converges(void **state)
{
    (void)state;
    const double r = 0.7, sphere = 4.0 / 3 * M_PI * r * r * r;
    double prev = INFINITY;
    for (int level = 0; level <= 6; level++) {
        hk_mesh m;
        assert_int_equal(hk_mesh_icosphere(&m, r, level, (hk_vec3){0, 0, 0}), 0);
        const double v = hk_mesh_volume(&m, HK_VOLUME_GAUSS), t = hk_mesh_volume(&m, HK_VOLUME_TETRA);
        const double rel = (sphere - v) / sphere;
        print_message("level %d: %6d faces, V = %.12f, sphere %.12f, relative error %.3e, box %.4f, ellipsoid %.6f\n",
                      level, m.face_count, v, sphere, rel, hk_mesh_volume(&m, HK_VOLUME_BOX),
                      hk_mesh_volume(&m, HK_VOLUME_ELLIPSOID));
        assert_near(t, v, 1e-12 * v);                                      /* the two exact forms agree */
        assert_true(rel > 0);                                              /* inscribed polyhedron: below the sphere */
        if (level > 0) assert_true(rel < prev / (level == 1 ? 2.5 : 3.5)); /* about 4x per level */
        prev = rel;
        hk_mesh_free(&m);
    }
    assert_true(prev < 5e-4);
}

/* Translation and rotation change the volume only by rounding. */
static void test_invariance(void **state)
{
    (void)state;
    hk_mesh m;
    assert_int_equal(hk_mesh_icosphere(&m, 1, 3, (hk_vec3){0, 0, 0}), 0);
    const double v0 = hk_mesh_volume(&m, HK_VOLUME_GAUSS);
    const double ca = cos(0.7), sa = sin(0.7), cb = cos(-1.3), sb = sin(-1.3);
    for (int v = 0; v < m.vertex_count; v++) {
        hk_vec3 p = m.vertices[v];
        hk_vec3 q = {ca * p.x - sa * p.y, sa * p.x + ca * p.y, p.z};      /* about z */
        hk_vec3 s = {q.x, cb * q.y - sb * q.z, sb * q.y + cb * q.z};      /* about x */
        m.vertices[v] = (hk_vec3){s.x + 123.25, s.y - 40.5, s.z + 7.125}; /* moved */
    }
    const double v1 = hk_mesh_volume(&m, HK_VOLUME_GAUSS), v2 = hk_mesh_volume(&m, HK_VOLUME_TETRA);
    print_message("V = %.15f at the origin, %.15f (gauss) and %.15f (tetra) rotated and moved\n", v0, v1, v2);
    assert_near(v1, v0, 1e-11);
    assert_near(v2, v0, 1e-9); /* tetra sums large cancelling terms far from the origin */
    hk_mesh_free(&m);
}

/* A world's surface, whose forces a team computes. */
typedef struct surface_pass {
    hk_world *w;
    hk_surface *s;
} surface_pass;

static void surface_task(const hk_team *tm, void *ctx)
{
    const surface_pass *sp = ctx;
    hk_surface_forces(tm, sp->w, sp->s);
}

/* The world's parallel block sum: the same bits for 1, 2, 3 and 7 threads,
 * and the bits of the serial read-out. */
static void test_thread_bits(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_mesh_def d = hk_default_mesh_def();
    d.pressure.nrt = 10;
    d.pressure.pump_rate = 1;
    d.offset = (hk_vec3){0.1, 0.2, 0.3};
    int body = hk_world_add_icosphere(w, &d, 0.5, 5); /* 20480 faces: 80 blocks */
    assert_true(body >= 0);
    hk_surface *s = &w->surfaces[w->bodies[body].surface];
    const int n = w->p.count;
    double vol[8];
    hk_real *f1 = malloc((size_t)n * 3 * sizeof *f1);
    static const int threads[4] = {1, 2, 3, 7};
    for (int t = 0; t < 4; t++) {
        memset(w->p.fx, 0, (size_t)n * sizeof(hk_real));
        memset(w->p.fy, 0, (size_t)n * sizeof(hk_real));
        memset(w->p.fz, 0, (size_t)n * sizeof(hk_real));
        surface_pass sp = {w, s};
        hk_team_run(w, threads[t], surface_task, &sp);
        vol[t] = s->volume;
        if (t == 0) {
            memcpy(f1, w->p.fx, (size_t)n * sizeof *f1);
            memcpy(f1 + n, w->p.fy, (size_t)n * sizeof *f1);
            memcpy(f1 + 2 * n, w->p.fz, (size_t)n * sizeof *f1);
        } else {
            assert_memory_equal(&vol[t], &vol[0], sizeof(double));
            assert_memory_equal(f1, w->p.fx, (size_t)n * sizeof *f1);
            assert_memory_equal(f1 + n, w->p.fy, (size_t)n * sizeof *f1);
            assert_memory_equal(f1 + 2 * n, w->p.fz, (size_t)n * sizeof *f1);
        }
        print_message("%d threads: V = %.17g\n", threads[t], vol[t]);
    }
    double serial = hk_world_body_volume(w, body, HK_VOLUME_GAUSS);
    assert_memory_equal(&serial, &vol[0], sizeof(double));
    assert_near(vol[0], 4.0 / 3 * M_PI * 0.125, 2e-3 * vol[0]);
    free(f1);
    hk_world_destroy(w);
}

/* 2-D: a regular N-gon of circumradius R has area N/2 R^2 sin(2 pi / N). */
static void test_ring_area(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_ring_def d = hk_default_ring_def();
    d.count = 17;
    d.radius = 30;
    d.center = (hk_vec3){200, 150, 0};
    int body = hk_world_add_ring(w, &d);
    assert_true(body >= 0);
    const double exact = 17 / 2.0 * 900 * sin(2 * M_PI / 17);
    const double a = hk_world_body_volume(w, body, HK_VOLUME_GAUSS);
    print_message("17-gon R 30: area %.9f, exact %.9f, circle %.3f, box %.3f, ellipse %.3f\n", a, exact, M_PI * 900,
                  hk_world_body_volume(w, body, HK_VOLUME_BOX), hk_world_body_volume(w, body, HK_VOLUME_ELLIPSOID));
    assert_near(a, exact, 1e-9 * exact * 1e3); /* float positions: about 1e-6 relative */
    assert_true(isnan(hk_world_body_volume(w, body + 1, HK_VOLUME_GAUSS)));
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_icosahedron_exact), cmocka_unit_test(test_icosphere_converges),
        cmocka_unit_test(test_invariance),        cmocka_unit_test(test_thread_bits),
        cmocka_unit_test(test_ring_area),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
