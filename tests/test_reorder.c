/* test_reorder.c — RCM particle reordering (hk_world_reorder_body): the same springs and state on every path. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_graph.h"

#include "colour.h"
#include "forces.h"
#include "kernels.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

/* ------------------------------------------------------------------------ */
/* RCM reordering                                                            */

/* A triangulated strip of nu x nv nodes (one diagonal per quad) with its
 * particles created in a shuffled order; masses and velocities differ per
 * node. Two families (edges and diagonals), so the remap covers both. */
static hk_world *shuffled_mesh(int nu, int nv, uint64_t seed, int *body)
{
    const int n = nu * nv;
    int *node_of = malloc((size_t)n * sizeof *node_of), *slot_of = malloc((size_t)n * sizeof *slot_of);
    assert_non_null(node_of);
    assert_non_null(slot_of);
    for (int i = 0; i < n; i++) node_of[i] = i;
    hk_test_rng r = {seed};
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = hk_test_below(&r, i + 1), t = node_of[i];
        node_of[i] = node_of[j];
        node_of[j] = t;
    }
    for (int i = 0; i < n; i++) slot_of[node_of[i]] = i;
    hk_vec3 *pos = malloc((size_t)n * sizeof *pos), *vel = malloc((size_t)n * sizeof *vel);
    double *mass = malloc((size_t)n * sizeof *mass);
    assert_non_null(pos);
    assert_non_null(vel);
    assert_non_null(mass);
    for (int k = 0; k < n; k++) {
        const int node = node_of[k], u = node % nu, v = node / nu;
        pos[k] = (hk_vec3){0.05 * u + 0.004 * hk_test_unit(10u * node), 0.01 * hk_test_unit(10u * node + 1),
                           0.05 * v + 0.004 * hk_test_unit(10u * node + 2)};
        vel[k] = (hk_vec3){0.1 * hk_test_unit(10u * node + 3), 0.1 * hk_test_unit(10u * node + 4),
                           0.1 * hk_test_unit(10u * node + 5)};
        mass[k] = 0.01 * (1 + (node % 7) / 10.0);
    }
    hk_world_def def = hk_default_world_def();
    def.air_drag = 0.001;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    *body = hk_world_add_points(w, n, pos, vel, mass);
    assert_true(*body >= 0);
    graph edges, diags;
    graph_init(&edges, "edges", n);
    graph_init(&diags, "diagonals", n);
    for (int v = 0; v < nv; v++)
        for (int u = 0; u < nu; u++) {
            const int p = u + nu * v;
            if (u + 1 < nu) graph_add(&edges, slot_of[p], slot_of[p + 1]);
            if (v + 1 < nv) graph_add(&edges, slot_of[p], slot_of[p + nu]);
            if (u + 1 < nu && v + 1 < nv) graph_add(&diags, slot_of[p], slot_of[p + nu + 1]);
        }
    hk_spring_params sp = hk_default_spring_params();
    sp.k = 500;
    sp.damping = 0.05;
    assert_true(hk_world_add_springs(w, *body, edges.m, edges.a, edges.b, &sp) >= 0);
    sp.k = 200;
    sp.damping_model = HK_DAMP_RELATIVE;
    assert_true(hk_world_add_springs(w, *body, diags.m, diags.a, diags.b, &sp) >= 0);
    /* a slightly stretched state, so the spring forces are not zero */
    for (int k = 0; k < n; k++) {
        w->p.qx[k] *= (hk_real)1.01;
        w->p.qz[k] *= (hk_real)0.995;
    }
    graph_free(&edges);
    graph_free(&diags);
    free(pos);
    free(vel);
    free(mass);
    free(node_of);
    free(slot_of);
    return w;
}

static void reorder_rcm(const char *path)
{
    const int nu = 64, nv = 12, n = nu * nv;
    int body;
    hk_world *w = shuffled_mesh(nu, nv, 5, &body);
    const int64_t bw_before = hk_test_bandwidth(w, body);

    /* colour first (as a step would), so reorder must drop it */
    hk_forces_compute(w);
    hk_real *old[11];
    const hk_real *src[11] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,   w->p.vy,      w->p.vz,
                              w->p.fx, w->p.fy, w->p.fz, w->p.mass, w->p.inv_mass};
    for (int a = 0; a < 11; a++) {
        old[a] = malloc((size_t)n * sizeof(hk_real));
        assert_non_null(old[a]);
        memcpy(old[a], src[a], (size_t)n * sizeof(hk_real));
    }
    double *scale = malloc((size_t)n * sizeof *scale), *cond = malloc((size_t)n * sizeof *cond);
    int *terms = malloc((size_t)n * sizeof *terms);
    assert_non_null(scale);
    assert_non_null(cond);
    assert_non_null(terms);
    hk_test_force_scale(w, scale, cond, terms);
    /* the edges, as old-index pairs */
    int64_t springs = hk_world_spring_count(w);
    spring_rec *before = malloc((size_t)springs * sizeof *before), *after = malloc((size_t)springs * sizeof *after);
    assert_non_null(before);
    assert_non_null(after);
    int64_t k = 0;
    for (int fi = 0; fi < w->family_count; fi++)
        for (int64_t s = 0; s < w->families[fi].count; s++, k++) {
            const hk_family *f = &w->families[fi];
            before[k] = (spring_rec){f->a[s] < f->b[s] ? f->a[s] : f->b[s], f->a[s] < f->b[s] ? f->b[s] : f->a[s],
                                     f->rest_list[s], fi};
        }

    int *order = malloc((size_t)n * sizeof *order);
    assert_non_null(order);
    assert_int_equal(hk_world_reorder_body(w, body, order), 0);
    const int64_t bw_after = hk_test_bandwidth(w, body);
    print_message("RCM on a shuffled %dx%d triangle strip: bandwidth %lld -> %lld\n", nu, nv, (long long)bw_before,
                  (long long)bw_after);
    /* a shuffled mesh has bandwidth close to n; RCM gets it near the strip's
     * width (a breadth-first level holds about nv..2 nv nodes) */
    assert_true(bw_before > n / 2);
    assert_true(4 * bw_after < bw_before);

    /* order is a bijection of 0..n-1 */
    int *seen = calloc((size_t)n, sizeof *seen);
    assert_non_null(seen);
    for (int i = 0; i < n; i++) {
        assert_true(order[i] >= 0 && order[i] < n);
        assert_int_equal(seen[order[i]], 0);
        seen[order[i]] = 1;
    }
    free(seen);

    /* the particles moved, bit for bit, with their state */
    const hk_real *now[11] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,   w->p.vy,      w->p.vz,
                              w->p.fx, w->p.fy, w->p.fz, w->p.mass, w->p.inv_mass};
    for (int a = 0; a < 11; a++)
        if (a < 6 || a >= 9)
            for (int i = 0; i < n; i++) assert_true(now[a][i] == old[a][order[i]]);

    /* the same springs between the same particles, rest lengths with them;
     * colouring dropped */
    k = 0;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        assert_null(f->colour_start);
        assert_int_equal(f->colour_count, 0);
        for (int64_t s = 0; s < f->count; s++, k++) {
            const int a = order[f->a[s]], b = order[f->b[s]];
            after[k] = (spring_rec){a < b ? a : b, a < b ? b : a, f->rest_list[s], fi};
        }
    }
    qsort(before, (size_t)springs, sizeof *before, rec_cmp);
    qsort(after, (size_t)springs, sizeof *after, rec_cmp);
    for (int64_t s = 0; s < springs; s++) assert_int_equal(rec_cmp(&before[s], &after[s]), 0);

    /* forces at the same state agree particle by particle. The same springs
     * act between the same particles; what may change is the order of each
     * particle's sum (colours are re-made, a colour's springs re-sorted) and,
     * on a SIMD path, whether a spring is computed in a vector lane or in the
     * scalar tail of its colour: hk_test_force_tol (hk_test_forces.h). */
    hk_forces_compute(w);
    double worst = 0;
    int exact = 1;
    for (int i = 0; i < n; i++) {
        const int o = order[i];
        const double tol = hk_test_force_tol(scale, cond, terms, o);
        const hk_real *fn[3] = {w->p.fx, w->p.fy, w->p.fz};
        for (int c = 0; c < 3; c++) {
            const double d = fabs((double)fn[c][i] - (double)old[6 + c][o]);
            exact &= fn[c][i] == old[6 + c][o];
            if (d / tol > worst) worst = d / tol;
            if (!(d <= tol)) {
                print_error("particle %d (was %d) force %c %.9g, before %.9g, tol %.3g\n", i, o, "xyz"[c],
                            (double)fn[c][i], (double)old[6 + c][o], tol);
                fail();
            }
        }
    }
    print_message("forces after reorder (%s path): max |df| = %.3g of the tolerance, %s\n", path, worst,
                  exact ? "bit-identical" : "not bit-identical");

    for (int a = 0; a < 11; a++) free(old[a]);
    free(scale);
    free(cond);
    free(terms);
    free(before);
    free(after);
    free(order);
    hk_world_destroy(w);
}

/* On the reference path and on every SIMD path this machine has. */
static void test_reorder_rcm(void **state)
{
    (void)state;
    static const char *const paths[4] = {"reference", "scalar", "avx2", "avx512"};
    for (int p = 0; p < 4; p++) {
        if (hk_kernels_select(paths[p]) != 0) continue;
        reorder_rcm(paths[p]);
    }
    hk_kernels_select(NULL);
}

/* Lattice bodies keep their order (identity); a bad body index fails. */
static void test_reorder_lattice_and_errors(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 5;
    c.ny = 4;
    c.spacing = 0.1;
    c.mass = 0.01;
    int body = hk_world_add_cloth(w, &c);
    assert_true(body >= 0);
    uint64_t h = hk_world_state_hash(w);
    int order[20];
    for (int i = 0; i < 20; i++) order[i] = -1;
    assert_int_equal(hk_world_reorder_body(w, body, order), 0);
    for (int i = 0; i < 20; i++) assert_int_equal(order[i], i);
    assert_true(hk_world_state_hash(w) == h);
    assert_int_equal(hk_world_reorder_body(w, 7, NULL), -1);
    assert_true(strstr(hk_world_error(w), "reorder") != NULL);
    hk_world_destroy(w);
}

/* Reordering a body that follows another body keeps the other one intact
 * and remaps only inside its own particle range. */
static void test_reorder_second_body(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 10;
    r.mass = 0.01;
    r.spacing = 0.1;
    assert_true(hk_world_add_rope(w, &r) >= 0); /* particles 0..9 */
    graph g;
    torus_graph(&g, 16, 6);
    hk_vec3 pos[96];
    double mass[96];
    for (int i = 0; i < 96; i++) {
        pos[i] = (hk_vec3){hk_test_unit(5u * i), hk_test_unit(5u * i + 1), hk_test_unit(5u * i + 2)};
        mass[i] = 0.02;
    }
    int body = hk_world_add_points(w, 96, pos, NULL, mass);
    assert_int_equal(body, 1);
    hk_spring_params sp = hk_default_spring_params();
    assert_true(hk_world_add_springs(w, body, g.m, g.a, g.b, &sp) >= 0);
    hk_real rope_x[10];
    memcpy(rope_x, w->p.qx, sizeof rope_x);
    hk_vec3 before[96];
    for (int i = 0; i < 96; i++) before[i] = hk_world_position(w, 10 + i);
    int order[96];
    assert_int_equal(hk_world_reorder_body(w, body, order), 0);
    assert_memory_equal(rope_x, w->p.qx, sizeof rope_x);
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != body) continue;
        for (int64_t s = 0; s < f->count; s++) {
            assert_true(f->a[s] >= 10 && f->a[s] < 106);
            assert_true(f->b[s] >= 10 && f->b[s] < 106);
        }
    }
    for (int i = 0; i < 96; i++) {
        const hk_vec3 x = hk_world_position(w, 10 + i), want = before[order[i]];
        assert_true(x.x == want.x && x.y == want.y && x.z == want.z);
    }
    graph_free(&g);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reorder_rcm),
        cmocka_unit_test(test_reorder_lattice_and_errors),
        cmocka_unit_test(test_reorder_second_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
