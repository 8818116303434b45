/* test_multigrid.c — the multigrid preconditioner: positive and homogeneous, same solutions as block Jacobi, fewer
 * iterations, same bits on any thread count. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <string.h>

#include "implicit.h"
#include "mg_level.h"
#include "multigrid.h"
#include "system.h"

static hk_world *world_for(int threads, int gravity)
{
    hk_world_def wd = hk_default_world_def();
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    wd.air_drag = 0;
    if (!gravity) wd.gravity = (hk_vec3){0, 0, 0};
    wd.threads = threads;
    wd.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    return w;
}

/* A jelly of n^3 nodes with 26 neighbours, squeezed to 80 % along x
 * (compressed springs: the clamped geometric stiffness) and pinned at one
 * corner. */
static void add_squeezed_jelly(hk_world *w, int n, double x0)
{
    hk_jelly_def j = hk_default_jelly_def();
    j.nx = j.ny = j.nz = n;
    j.spacing = 0.05;
    j.mass = 0.002;
    j.origin = (hk_vec3){x0, 0, 0};
    for (int c = 0; c < HK_JELLY_CLASSES; c++) {
        j.springs[c].k = 3000;
        j.springs[c].damping = 0.05;
        j.springs[c].damping_model = c % 2 ? HK_DAMP_ALONG : HK_DAMP_RELATIVE;
    }
    const int first = hk_world_particles(w).count;
    const int body = hk_world_add_jelly(w, &j);
    assert_true(body >= 0);
    for (int i = first; i < hk_world_particles(w).count; i++) {
        hk_vec3 x = hk_world_position(w, i);
        x.x = x0 + (x.x - x0) * 0.8;
        assert_int_equal(hk_world_set_position(w, i, x), 0);
    }
    assert_int_equal(hk_world_pin(w, body, 0), 0);
}

/* A rope of n nodes with skip springs hanging from its first node. */
static void add_rope(hk_world *w, int n)
{
    hk_rope_def r = hk_default_rope_def();
    r.count = n;
    r.spacing = 0.01;
    r.mass = 0.001;
    r.origin = (hk_vec3){-3, 2, 0};
    r.direction = (hk_vec3){1, 0, 0};
    r.topology = HK_ROPE_SKIP_ONE;
    r.springs.k = 5000;
    r.skip_springs.k = 1000;
    const int body = hk_world_add_rope(w, &r);
    assert_true(body >= 0);
    assert_int_equal(hk_world_pin(w, body, 0), 0);
}

static void set_implicit(hk_world *w, hk_preconditioner pc, double tol, double dt)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = dt;
    d.cg_tolerance = tol;
    d.cg_max_iterations = 20000;
    d.preconditioner = pc;
    d.cg_stop = HK_CG_STOP_RELATIVE; /* these tests measure the preconditioner against |r| / |b| */
    d.newton_iterations = 1;         /* one linear solve a step: the preconditioners' alone to compare */
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
}

static void fill_random(hk_world *w, hk_real *const v[3], uint32_t *seed)
{
    const hk_particles_view pv = hk_world_particles(w);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < pv.count; i++) {
            *seed = *seed * 1664525u + 1013904223u;
            v[c][i] = pv.inv_mass[i] != 0 ? (hk_real)((*seed >> 8) / 16777216.0 - 0.5) : 0;
        }
}

/* z = B r for the residual vector r (HK_SYS_R), as the CG solve does it. */
static void precondition(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD)
{
    double rr, zq;
    hk_system_precondition(w, im, NULL, hk_mg_omega(), &rr, NULL, NULL);
    hk_mg_precondition(w, im, sK, sD, im->v[HK_SYS_T], &zq);
}

/* A 40 x 33 stiff cloth, a squeezed 11^3 jelly and a 1100-node rope (a
 * 2-D, a 3-D and a 1-D lattice) after one multigrid-preconditioned step:
 * a deformed state; its solver in *im. */
static hk_world *three_lattices(hk_implicit **im)
{
    hk_world *w = world_for(1, 1);
    hk_test_add_stiff_cloth(w, 40, 33);
    add_squeezed_jelly(w, 11, 2);
    add_rope(w, 1100);
    assert_int_equal(hk_world_optimise(w, 0), 0);
    set_implicit(w, HK_PRECONDITIONER_MULTIGRID, 1e-5, 1.0 / 240);
    hk_world_step(w);
    *im = hk_implicit_solver(w);
    assert_non_null(*im);
    assert_non_null((*im)->mg);
    return w;
}

/* The cycle is positive and homogeneous on a 2-D, a 3-D and a 1-D lattice
 * at once (pins, compressed springs, both damping models): for random a,
 * a . B a > 0, and B (2 a) = 2 B a to the bit. Its Krylov steps make B
 * depend on a (so the solve is flexible CG), but only through ratios of
 * sums: scaling the residual scales the correction, as for a matrix. */
static void test_preconditioner_positive(void **state)
{
    (void)state;
    hk_implicit *im;
    hk_world *w = three_lattices(&im);
    const hk_real h = (hk_real)(1.0 / 240), sK = h * h, sD = h;
    hk_implicit_blocks(w, im, sK, sD);
    const int n = hk_world_particles(w).count;
    const size_t bytes = (size_t)n * sizeof(hk_real);
    hk_real *a[3], *ba[3];
    for (int c = 0; c < 3; c++) {
        a[c] = malloc(bytes);
        ba[c] = malloc(bytes);
    }
    uint32_t seed = 777;
    for (int trial = 0; trial < 4; trial++) {
        fill_random(w, a, &seed);
        for (int c = 0; c < 3; c++) memcpy(im->v[HK_SYS_R][c], a[c], bytes);
        precondition(w, im, sK, sD);
        for (int c = 0; c < 3; c++) memcpy(ba[c], im->v[HK_SYS_Z][c], bytes);
        const double aba = hk_system_dot(w, im, a, ba), aa = hk_system_dot(w, im, a, a);
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < n; i++) im->v[HK_SYS_R][c][i] = 2 * a[c][i];
        precondition(w, im, sK, sD);
        int64_t differ = 0;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < n; i++) differ += im->v[HK_SYS_Z][c][i] != 2 * ba[c][i];
        print_message("trial %d: a.Ba %.6g (a.a %.6g); B(2a) != 2 Ba at %lld entries\n", trial, aba, aa,
                      (long long)differ);
        assert_true(aba > 0);
        assert_int_equal(differ, 0);
    }
    for (int c = 0; c < 3; c++) {
        free(a[c]);
        free(ba[c]);
    }
    hk_world_destroy(w);
}

/* Building a coarse level adds each fine coupling to its aggregate's row
 * without testing whether the partner lies in the lattice: a coupling to
 * a neighbour outside must be zero on every level (2-D, 3-D and 1-D
 * lattices, after a step). One that is not is found and named. */
static void test_levels_closed(void **state)
{
    (void)state;
    hk_implicit *im;
    hk_world *w = three_lattices(&im);
    char why[256] = "";
    const int rc = hk_mg_check_levels(im->mg, why, sizeof why);
    if (rc != 0) print_error("%s\n", why);
    assert_int_equal(rc, 0);
    int levels = 0;
    for (int b = 0; b < im->mg->count; b++) levels += im->mg->b[b].levels;
    assert_true(im->mg->count >= 2 && levels >= 5);
    /* the cloth's first level: its last aggregate of row 0 coupled along +i to a node past the row's end */
    mg_level *L = &im->mg->b[0].lv[0];
    assert_true(L->n[0] > 1 && L->off[0][0] == 1 && L->off[0][1] == 0 && L->off[0][2] == 0);
    L->c[0][2][L->n[0] - 1] = 1;
    assert_int_equal(hk_mg_check_levels(im->mg, why, sizeof why), -1);
    print_message("%d bodies, %d levels closed; the broken one: %s\n", im->mg->count, levels, why);
    assert_non_null(strstr(why, "outside"));
    L->c[0][2][L->n[0] - 1] = 0;
    hk_world_destroy(w);
}

/* One step of the stiff cloth solved to a tight tolerance with either
 * preconditioner reaches the same velocities (they solve one system), and
 * multigrid needs a fifth of block Jacobi's iterations or fewer. */
static void test_same_solution_fewer_iterations(void **state)
{
    (void)state;
    const double tol = sizeof(hk_real) == 8 ? 1e-10 : 1e-6;
    hk_world *w[2];
    int64_t its[2];
    for (int k = 0; k < 2; k++) {
        w[k] = world_for(1, 1);
        hk_test_add_stiff_cloth(w[k], 64, 64);
        assert_int_equal(hk_world_optimise(w[k], 0), 0);
        set_implicit(w[k], k ? HK_PRECONDITIONER_BLOCK_JACOBI : HK_PRECONDITIONER_MULTIGRID, tol, 1.0 / 240);
        for (int s = 0; s < 3; s++) hk_world_step(w[k]);
        const hk_solver_stats st = hk_world_solver_stats(w[k]);
        assert_int_equal(st.unconverged, 0);
        assert_int_equal(st.diverged, 0);
        its[k] = st.cg_total;
    }
    const hk_particles_view a = hk_world_particles(w[0]), b = hk_world_particles(w[1]);
    double dv = 0, vmax = 0;
    const hk_real *va[3] = {a.vx, a.vy, a.vz}, *vb[3] = {b.vx, b.vy, b.vz};
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < a.count; i++) {
            dv = fmax(dv, fabs((double)va[c][i] - vb[c][i]));
            vmax = fmax(vmax, fabs((double)vb[c][i]));
        }
    print_message("3 steps: multigrid %lld CG iterations, block Jacobi %lld; velocities differ by %.3g of %.3g m/s\n",
                  (long long)its[0], (long long)its[1], dv, vmax);
    assert_true(vmax > 0.05); /* the cloth is falling */
    assert_true(dv <= (sizeof(hk_real) == 8 ? 1e-7 : 2e-3) * vmax);
    assert_true(its[0] * 5 <= its[1]);
    hk_world_destroy(w[0]);
    hk_world_destroy(w[1]);
}

/* Bit-identical states on 1, 2, 3, 4 and 7 threads with coarse levels
 * large enough to run on the team (a 200 x 200 cloth: 100 x 100
 * aggregates), a 3-D jelly and a rope. */
static void test_threads_bit_identical(void **state)
{
    (void)state;
    const int threads[] = {1, 2, 3, 4, 7};
    uint64_t first = 0;
    for (int t = 0; t < 5; t++) {
        hk_world *w = world_for(threads[t], 1);
        hk_test_add_stiff_cloth(w, 200, 200);
        add_squeezed_jelly(w, 14, 4);
        add_rope(w, 2000);
        assert_int_equal(hk_world_optimise(w, 0), 0);
        set_implicit(w, HK_PRECONDITIONER_MULTIGRID, 1e-4, 1.0 / 240);
        for (int s = 0; s < 3; s++) hk_world_step(w);
        const hk_solver_stats st = hk_world_solver_stats(w);
        assert_int_equal(st.diverged, 0);
        assert_int_equal(st.unconverged, 0);
        const uint64_t h = hk_world_state_hash(w);
        if (t == 0) first = h;
        if (h != first) {
            print_error("%d threads give 0x%016llx, 1 thread 0x%016llx\n", threads[t], (unsigned long long)h,
                        (unsigned long long)first);
            fail();
        }
        hk_world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_preconditioner_positive),
        cmocka_unit_test(test_levels_closed),
        cmocka_unit_test(test_same_solution_fewer_iterations),
        cmocka_unit_test(test_threads_bit_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
