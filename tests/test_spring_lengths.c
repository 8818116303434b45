/* test_spring_lengths.c — hk_world_spring_lengths and _ends: every spring's L0, r and ends against closed forms. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#define NX 7
#define NY 5
#define H 0.1  /* cloth spacing [m] */
#define C 0.01 /* the stretch's growth along i [1] */

/* x(i) = H (i + C i^2): the (1,0) spring from node i is H (1 + C (2 i + 1)) long. */
static double x_of(int i) { return H * (i + C * i * i); }

/* An NX x NY cloth stretched along u by x_of, unstretched along v. */
static hk_world *stretched_cloth(void)
{
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = NX;
    c.ny = NY;
    c.spacing = H;
    c.origin = (hk_vec3){0, 0, 0};
    assert_int_equal(hk_world_add_cloth(w, &c), 0);
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            assert_int_equal(hk_world_set_position(w, i + NX * j, (hk_vec3){x_of(i), 0, H * j}), HK_OK);
    return w;
}

/* A cloth stretched along u by x_of, unstretched along v: every family's rest
 * length is its stencil's |D|, and the (1,0) and (2,0) springs' lengths follow
 * from x_of at the node they start at, in the documented order (i fastest). */
static void test_cloth_lattice_families(void **state)
{
    (void)state;
    hk_world *w = stretched_cloth();
    int64_t total = 0;
    int seen_u = 0, seen_bend_u = 0;
    for (int fam = 0; fam < hk_world_family_count(w); fam++) {
        const hk_family_info f = hk_world_family(w, fam);
        total += f.springs;
        double *rest = malloc((size_t)f.springs * sizeof *rest), *len = malloc((size_t)f.springs * sizeof *len);
        uint8_t *broken = malloc((size_t)f.springs);
        assert_int_equal(hk_world_spring_lengths(w, fam, 0, f.springs, rest, len, broken), HK_OK);
        /* which stencil: from the springs' count and rest length */
        const double L0 = rest[0];
        for (int s = 0; s < f.springs; s++) {
            assert_near(rest[s], L0, 0);
            assert_int_equal(broken[s], 0);
        }
        if (f.springs == (NX - 1) * NY && fabs(L0 - H) < 1e-6) { /* (1,0) */
            seen_u = 1;
            for (int s = 0; s < f.springs; s++) {
                const int i = s % (NX - 1);
                assert_near(len[s], x_of(i + 1) - x_of(i), 1e-6);
            }
        } else if (f.springs == (NX - 2) * NY && fabs(L0 - 2 * H) < 1e-6) { /* (2,0) */
            seen_bend_u = 1;
            for (int s = 0; s < f.springs; s++) assert_near(len[s], x_of(s % (NX - 2) + 2) - x_of(s % (NX - 2)), 1e-6);
        } else if (f.springs == NX * (NY - 1)) { /* (0,1): along v, unstretched */
            assert_near(L0, H, 1e-6);
            for (int s = 0; s < f.springs; s++) assert_near(len[s], H, 1e-6);
        }
        /* a part of the range gives the same values as the whole */
        double part[3];
        assert_int_equal(hk_world_spring_lengths(w, fam, f.springs - 3, 3, NULL, part, NULL), HK_OK);
        for (int s = 0; s < 3; s++) assert_near(part[s], len[f.springs - 3 + s], 0);
        free(rest);
        free(len);
        free(broken);
    }
    assert_true(seen_u && seen_bend_u);
    assert_int_equal(total, hk_world_spring_count(w));
    hk_world_destroy(w);
}

/* Listed springs on points at x = k^2: spring k joins k and k+1, 2k + 1 m
 * long at rest; moving point 2 by d lengthens spring 1 by d and shortens
 * spring 2 by d. */
static void test_list_family(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    enum { N = 6 };
    hk_vec3 pos[N];
    double mass[N];
    int a[N - 1], b[N - 1];
    for (int k = 0; k < N; k++) pos[k] = (hk_vec3){(double)k * k, 0, 0}, mass[k] = 1;
    for (int k = 0; k < N - 1; k++) a[k] = k, b[k] = k + 1;
    const int body = hk_world_add_points(w, N, pos, NULL, mass);
    assert_true(body >= 0);
    hk_spring_params sp = hk_default_spring_params();
    assert_true(hk_world_add_springs(w, body, N - 1, a, b, &sp) >= 0);
    const int fam = hk_world_family_count(w) - 1;
    assert_int_equal(hk_world_set_position(w, 2, (hk_vec3){4 + 0.25, 0, 0}), HK_OK);
    double rest[N - 1], len[N - 1];
    assert_int_equal(hk_world_spring_lengths(w, fam, 0, N - 1, rest, len, NULL), HK_OK);
    for (int k = 0; k < N - 1; k++) {
        assert_near(rest[k], 2 * k + 1, 1e-6);
        const double d = k == 1 ? 0.25 : k == 2 ? -0.25 : 0;
        assert_near(len[k], 2 * k + 1 + d, 1e-6);
    }
    /* out of range: refused, nothing written */
    len[0] = -1;
    assert_int_equal(hk_world_spring_lengths(w, fam + 1, 0, 1, NULL, len, NULL), HK_ERR_INVALID);
    assert_int_equal(hk_world_spring_lengths(w, -1, 0, 1, NULL, len, NULL), HK_ERR_INVALID);
    assert_int_equal(hk_world_spring_lengths(w, fam, 3, N - 3, NULL, len, NULL), HK_ERR_INVALID);
    assert_int_equal(hk_world_spring_lengths(w, fam, -1, 1, NULL, len, NULL), HK_ERR_INVALID);
    assert_near(len[0], -1, 0);
    assert_int_equal(hk_world_spring_lengths(w, fam, N - 1, 0, NULL, len, NULL), HK_OK);
    hk_world_destroy(w);
}

/* A breakable spring pulled to 3 L0 with break_ratio 2 breaks in the next
 * step: its broken flag is set and its length still given. */
static void test_broken_flag(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_spring_pair_def d = hk_default_spring_pair_def();
    d.a = (hk_vec3){0, 0, 0};
    d.b = (hk_vec3){1, 0, 0};
    d.springs.behaviour = HK_SPRING_BREAKABLE;
    d.springs.break_ratio = 2;
    assert_true(hk_world_add_spring_pair(w, &d) >= 0);
    uint8_t broken = 9;
    double len;
    assert_int_equal(hk_world_spring_lengths(w, 0, 0, 1, NULL, &len, &broken), HK_OK);
    assert_int_equal(broken, 0);
    assert_int_equal(hk_world_set_position(w, 1, (hk_vec3){3, 0, 0}), HK_OK);
    hk_test_integrator(w, HK_SEMI_IMPLICIT_EULER, 1e-6);
    assert_int_equal(hk_world_step(w), HK_OK);
    assert_int_equal(hk_world_spring_lengths(w, 0, 0, 1, NULL, &len, &broken), HK_OK);
    assert_int_equal(broken, 1);
    assert_near(len, 3, 1e-3);
    hk_world_destroy(w);
}

/* hk_world_spring_ends: on the stretched cloth each spring's ends are its source node and the node its stencil
 * reaches (the (1,0) spring s from node i + NX j to the next), in hk_world_spring_lengths's order, and the distance
 * of the ends is its length; hk_world_faces: two triangles per cell; out of range: HK_ERR_INVALID, nothing written. */
static void test_spring_ends_and_faces(void **state)
{
    (void)state;
    hk_world *w = stretched_cloth();
    for (int fam = 0; fam < hk_world_family_count(w); fam++) {
        const int n = hk_world_family(w, fam).springs;
        int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        double *len = malloc((size_t)n * sizeof *len);
        assert_int_equal(hk_world_spring_ends(w, fam, 0, n, a, b), HK_OK);
        assert_int_equal(hk_world_spring_lengths(w, fam, 0, n, NULL, len, NULL), HK_OK);
        for (int s = 0; s < n; s++) {
            const hk_vec3 pa = hk_world_position(w, a[s]), pb = hk_world_position(w, b[s]);
            const double r =
                sqrt((pa.x - pb.x) * (pa.x - pb.x) + (pa.y - pb.y) * (pa.y - pb.y) + (pa.z - pb.z) * (pa.z - pb.z));
            assert_near(r, len[s], 1e-6);
            if (n == (NX - 1) * NY && fabs(len[0] - (x_of(1) - x_of(0))) < 1e-6) { /* (1,0) */
                assert_int_equal(a[s], s % (NX - 1) + NX * (s / (NX - 1)));
                assert_int_equal(b[s], a[s] + 1);
            }
        }
        a[0] = b[0] = -7;
        assert_int_equal(hk_world_spring_ends(w, fam, n - 1, 2, a, b), HK_ERR_INVALID);
        assert_int_equal(a[0], -7);
        free(a), free(b), free(len);
    }
    assert_int_equal(hk_world_spring_ends(w, hk_world_family_count(w), 0, 1, &(int){0}, &(int){0}), HK_ERR_INVALID);
    const int64_t faces = hk_world_faces(w, NULL, NULL, 0);
    assert_int_equal(faces, 2 * (NX - 1) * (NY - 1));
    int tri[3 * 2 * (NX - 1) * (NY - 1)], body[2 * (NX - 1) * (NY - 1)];
    assert_int_equal(hk_world_faces(w, tri, body, faces), faces);
    for (int t = 0; t < faces; t++) {
        assert_int_equal(body[t], 0);
        for (int k = 0; k < 3; k++) assert_true(tri[3 * t + k] >= 0 && tri[3 * t + k] < NX * NY);
    }
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cloth_lattice_families),
        cmocka_unit_test(test_list_family),
        cmocka_unit_test(test_broken_flag),
        cmocka_unit_test(test_spring_ends_and_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
