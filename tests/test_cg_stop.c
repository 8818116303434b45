/* test_cg_stop.c — when an implicit solve stops: the force rule's per-particle bound, its weights, and motion that
 * agrees with a tight solve. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cg.h"
#include "implicit.h"
#include "scene.h"
#include "system.h"

#define DT (1.0 / 240)

/* A stiff cloth hung by two corners (cloth_512_stiff's springs and mass per
 * node on an n x n grid), with or without gravity. */
static hk_world *stiff_cloth(int n, int gravity)
{
    hk_world_def wd = hk_default_world_def();
    wd.ground.model = HK_GROUND_NONE;
    wd.has_walls = 0;
    wd.air_drag = 0;
    if (!gravity) wd.gravity = (hk_vec3){0, 0, 0};
    wd.threads = 1;
    wd.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    hk_world *w = hk_world_create(&wd);
    assert_non_null(w);
    hk_test_add_stiff_cloth(w, n, n);
    assert_int_equal(hk_world_optimise(w, 0), 0);
    return w;
}

/* The integrator of w: implicit Euler at DT, each solve by rule at tol (0: its default); linearised (one solve a
 * substep, the rule's alone) where ntol < 0, else minimised at newton_tolerance ntol (0: its default). */
static void set_solver(hk_world *w, hk_cg_stop rule, double tol, int max_iterations, double ntol)
{
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_IMPLICIT_EULER;
    d.dt = DT;
    d.cg_stop = rule;
    d.cg_tolerance = tol;
    d.cg_max_iterations = max_iterations;
    d.newton_iterations = ntol < 0 ? 1 : 0;
    d.newton_tolerance = ntol < 0 ? 0 : ntol;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
}

static void set_rule(hk_world *w, hk_cg_stop rule, double tol, int max_iterations)
{
    set_solver(w, rule, tol, max_iterations, -1);
}

/* max_i |r_i| stop_i for the true residual r = b - A dv of the solver's
 * vectors (not CG's updated one). */
static double true_measure(hk_world *w, hk_implicit *im, hk_real sK, hk_real sD)
{
    hk_real *const *r = im->v[HK_SYS_Q], *const *b = im->v[HK_SYS_B];
    hk_system_apply(w, im, sK, sD, 1, im->v[HK_SYS_DV], r);
    double worst = 0;
    for (int i = 0; i < hk_world_particles(w).count; i++) {
        const double x = (double)b[0][i] - r[0][i], y = (double)b[1][i] - r[1][i], z = (double)b[2][i] - r[2][i];
        worst = fmax(worst, sqrt(x * x + y * y + z * z) * im->stop[i]);
    }
    return worst;
}

/* Solves A dv = b from dv = 0 by rule, b the impulse of each particle's
 * weight plus a pseudo-random push of up to `push` times it. */
static hk_cg_result solve_by(hk_world *w, hk_implicit *im, hk_cg_stop rule, double tol, int max_iterations, double push)
{
    const hk_real h = (hk_real)DT, sK = h * h, sD = h;
    const hk_particles_view pv = hk_world_particles(w);
    uint32_t seed = 4711;
    for (int i = 0; i < pv.count; i++)
        for (int c = 0; c < 3; c++) {
            seed = seed * 1664525u + 1013904223u;
            const double weight = c == 1 ? -9.81 * DT * pv.mass[i] : 0;
            im->v[HK_SYS_B][c][i] =
                pv.inv_mass[i] != 0
                    ? (hk_real)(weight + push * 9.81 * DT * pv.mass[i] * ((seed >> 8) / 16777216.0 - 0.5))
                    : 0;
            im->v[HK_SYS_DV][c][i] = 0;
        }
    hk_implicit_blocks(w, im, sK, sD);
    if (rule != HK_CG_STOP_RELATIVE) hk_cg_weights(w, im, h, rule);
    return hk_cg_solve(w, im, sK, sD, rule, tol, max_iterations, 0);
}

static hk_cg_result solve(hk_world *w, hk_implicit *im, double tol, int max_iterations, double push)
{
    return solve_by(w, im, HK_CG_STOP_FORCE, tol, max_iterations, push);
}

/* The error of the solver's dv against `exact` (3 n values): its energy e . A e = -e . r for the true residual r
 * = b - A dv, and its kinetic part sum_i m_i |e_i|^2 [J]. */
static void error_energy(hk_world *w, hk_implicit *im, const double *exact, double *energy, double *kinetic)
{
    const hk_real h = (hk_real)DT;
    hk_real *const *r = im->v[HK_SYS_Q], *const *b = im->v[HK_SYS_B], *const *dv = im->v[HK_SYS_DV];
    hk_system_apply(w, im, h * h, h, 1, dv, r);
    const hk_particles_view pv = hk_world_particles(w);
    *energy = *kinetic = 0;
    for (int i = 0; i < pv.count; i++)
        for (int c = 0; c < 3; c++) {
            const double e = (double)dv[c][i] - exact[3 * i + c], res = (double)b[c][i] - r[c][i];
            *energy -= e * res;
            *kinetic += pv.mass[i] * e * e;
        }
}

/* A solve that stops by the force rule has every particle's true residual
 * force within tol of what moves it; one iteration fewer has not. */
static void test_force_bound(void **state)
{
    (void)state;
#ifdef HOOKE_DOUBLE
    const double tols[] = {1e-1, 1e-2, 1e-3, 1e-6};
#else /* below about 1e-3 CG's updated residual leaves the float residual of A dv behind */
    const double tols[] = {1e-1, 1e-2, 1e-3};
#endif
    for (size_t t = 0; t < sizeof tols / sizeof tols[0]; t++) {
        hk_world *w = stiff_cloth(48, 1);
        set_rule(w, HK_CG_STOP_FORCE, tols[t], 5000);
        assert_int_equal(hk_world_step(w), HK_OK); /* a deformed state */
        hk_implicit *im = hk_implicit_solver(w);
        assert_non_null(im);
        const hk_real h = (hk_real)DT;
        const hk_cg_result res = solve(w, im, tols[t], 5000, 3);
        assert_int_equal(res.status, HK_CG_CONVERGED);
        const double got = true_measure(w, im, h * h, h);
        const hk_cg_result less = solve(w, im, tols[t], res.iterations - 1, 3);
        assert_int_equal(less.status, HK_CG_MAX_ITERATIONS);
        const double before = true_measure(w, im, h * h, h);
        print_message("force rule %g: %d iterations, largest residual %.4g of the moving force (CG's own %.4g); "
                      "%.4g one iteration earlier\n",
                      tols[t], res.iterations, got, res.residual, before);
        assert_true(res.iterations >= 2);
        assert_true(res.residual <= tols[t] && got <= 1.01 * tols[t]);
        assert_true(before > tols[t]);
        hk_world_destroy(w);
    }
}

/* The energy rule bounds the velocity error: against a tight solve, the
 * error's energy e . A e is within three times the tolerance of the
 * energy of dv (in the square root: the preconditioner's estimate r . B r
 * falls short of it by 1.1 to 2.4 times here), its kinetic part sum m_i
 * |e_i|^2 within the tolerance, and a tighter tolerance takes more
 * iterations for a smaller error. */
static void test_energy_bound(void **state)
{
    (void)state;
    hk_world *w = stiff_cloth(48, 1);
    set_rule(w, HK_CG_STOP_ENERGY, 1e-2, 5000);
    assert_int_equal(hk_world_step(w), HK_OK); /* a deformed state */
    hk_implicit *im = hk_implicit_solver(w);
    assert_non_null(im);
    const int n = hk_world_particles(w).count;
    double *exact = malloc(sizeof(double) * 3 * (size_t)n);
    assert_non_null(exact);
    assert_int_equal(solve_by(w, im, HK_CG_STOP_RELATIVE, 1e-9, 5000, 3).status, HK_CG_CONVERGED);
    for (int i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) exact[3 * i + c] = im->v[HK_SYS_DV][c][i];
    const double tols[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
    const hk_real h = (hk_real)DT;
    double last_error = INFINITY;
    int last_iterations = 0;
    for (size_t t = 0; t < sizeof tols / sizeof tols[0]; t++) {
        const hk_cg_result res = solve_by(w, im, HK_CG_STOP_ENERGY, tols[t], 5000, 3);
        assert_int_equal(res.status, HK_CG_CONVERGED);
        double energy, kinetic;
        error_energy(w, im, exact, &energy, &kinetic);
        hk_system_apply(w, im, h * h, h, 1, im->v[HK_SYS_DV], im->v[HK_SYS_Q]); /* the energy of dv: dv . A dv */
        const double ref = fmax(hk_system_dot(w, im, im->v[HK_SYS_DV], im->v[HK_SYS_Q]), im->stop_energy);
        const double e = sqrt(energy / ref), k = sqrt(kinetic / ref);
        print_message("energy rule %g: %d iterations, estimate %.4g, error's energy %.4g, its kinetic part %.4g "
                      "(square roots over dv's energy %.4g J; gravity's %.4g J)\n",
                      tols[t], res.iterations, res.residual, e, k, ref, im->stop_energy);
        assert_true(res.residual <= tols[t]);
        assert_true(e <= 3 * tols[t] && k <= tols[t]);
        assert_true(res.iterations > last_iterations && e < last_error);
        last_iterations = res.iterations;
        last_error = e;
    }
    free(exact);
    hk_world_destroy(w);
}

/* The weights stop_i = 1 / (h F_i): with b the weight's impulse, doubled
 * on one particle, F_i is m_i times the mean acceleration (above g), and
 * that particle's own force where it is larger; the same without gravity;
 * and b = 0 ends the solve at once with dv = 0, from dv = 0 and from a
 * guess (without gravity every weight is then at its cap, 1 / (h F_i) with
 * F_i = 0: the double build reported this solved system as a breakdown). */
static void test_weights(void **state)
{
    (void)state;
    for (int gravity = 1; gravity >= 0; gravity--) {
        hk_world *w = stiff_cloth(16, gravity);
        set_rule(w, HK_CG_STOP_FORCE, 1e-2, 1000);
        assert_int_equal(hk_world_step(w), HK_OK);
        hk_implicit *im = hk_implicit_solver(w);
        assert_non_null(im);
        const hk_particles_view pv = hk_world_particles(w);
        const hk_real h = (hk_real)DT;
        /* b: the weight's impulse, doubled on particle 40 */
        for (int i = 0; i < pv.count; i++)
            for (int c = 0; c < 3; c++)
                im->v[HK_SYS_B][c][i] =
                    pv.inv_mass[i] != 0 && c == 1 ? (hk_real)(-9.81 * DT * pv.mass[i] * (i == 40 ? 2 : 1)) : 0;
        hk_cg_weights(w, im, h, HK_CG_STOP_FORCE);
        int free_count = 0;
        for (int i = 0; i < pv.count; i++) free_count += pv.inv_mass[i] != 0;
        const double mean_a = 9.81 * (free_count + 1) / free_count; /* the mean |b_j| / (h m_j) */
        for (int i = 0; i < pv.count; i++) {
            if (pv.inv_mass[i] == 0) {
                assert_true(im->stop[i] == 0);
                continue;
            }
            const double a = fmax(gravity ? 9.81 : 0, mean_a), f = pv.mass[i] * fmax(a, i == 40 ? 2 * 9.81 : 0);
            assert_near(im->stop[i], 1 / (DT * f), 1e-5 / (DT * f));
        }
        for (int i = 0; i < pv.count; i++)
            for (int c = 0; c < 3; c++) im->v[HK_SYS_B][c][i] = 0;
        hk_cg_weights(w, im, h, HK_CG_STOP_FORCE);
        for (int warm = 0; warm <= 1; warm++) { /* from dv = 0, and from a guess (the substep before's dv) */
            for (int i = 0; i < pv.count; i++)
                for (int c = 0; c < 3; c++) im->v[HK_SYS_DV][c][i] = pv.inv_mass[i] != 0 ? (hk_real)(0.01 * c) : 0;
            const hk_cg_result res = hk_cg_solve(w, im, h * h, h, HK_CG_STOP_FORCE, 1e-2, 1000, warm);
            assert_int_equal(res.status, HK_CG_CONVERGED);
            assert_int_equal(res.iterations, 0);
            for (int i = 0; i < pv.count; i++)
                for (int c = 0; c < 3; c++) assert_true(im->v[HK_SYS_DV][c][i] == 0);
        }
        hk_world_destroy(w);
    }
}

/* Worlds whose forces end after substeps with forces, without gravity: the right-hand side of the implicit step is
 * then 0 (nothing moves any particle, and dv = 0 solves the system). A tension-only spring of 100 N/m on 1 kg,
 * stretched by 0.1 m, goes slack at about step 16 (a quarter period, pi/2 sqrt(m / k) = 0.157 s); a particle at
 * 1 m/s bounces off a box collider and leaves its layer at about step 16; two particles at 1 m/s meet under the
 * particle contact model and part at about step 23. */
static const struct coast_case {
    const char *name, *text;
} coast_cases[] = {
    {"slack spring", "world\n gravity 0 0 0\nend\nbody spring\n a 0 0 0\n b 1.1 0 0\n mass_b 1\n"
                     " springs main k 100 behaviour tension_only rest_length 1\nend\n"},
    {"leaving a box", "world\n gravity 0 0 0\nend\ncollider\n shape box\n size 1 1 1\n thickness 0.05\n"
                      " stiffness 1000\nend\nbody points\n point 0 0.605 0 1 0 -1 0\nend\n"},
    {"parting pair", "world\n gravity 0 0 0\nend\ncontact\n model particles\n radius 0.05\n stiffness 1000\n"
                     " damping_ratio 0\nend\nbody points\n point -0.2025 0 0 1 1 0 0\nend\n"
                     "body points\n point 0.2025 0 0 1 -1 0 0\nend\n"},
};

/* Each case under backward Euler and the trapezoidal rule at dt = 1e-2 s, the force rule at its default: 60 steps
 * run, and from step 40 on, once the forces have ended, every particle coasts: its velocity keeps its bits, the
 * energy is at most the start's (backward Euler) or within 10 % of it (the trapezoidal rule: 7.8e-4 of it for the
 * spring, 1.6e-3 for the box, 3.8e-2 for the pair), and no particle turned back (the spring's particle moves towards
 * its pin, the box's particle away from the box, the pair apart with their momentum 0). */
static void test_coasting_once_forces_end(void **state)
{
    (void)state;
    const hk_integrator_kind kinds[] = {HK_IMPLICIT_EULER, HK_TRAPEZOIDAL};
    int failed = 0; /* runs that stopped: each is said, then the test fails */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        for (size_t c = 0; c < sizeof coast_cases / sizeof coast_cases[0]; c++) {
            hk_scene sc;
            char err[1024];
            if (hk_scene_parse(coast_cases[c].text, "x.scene", &sc, err, sizeof err) != 0) {
                print_error("%s\n", err);
                fail();
            }
            hk_world *w = sc.world;
            hk_integrator_def d = hk_default_integrator_def();
            d.kind = kinds[k];
            d.dt = 1e-2;
            assert_int_equal(hk_world_set_integrator(w, &d), 0);
            const double e0 = hk_world_stats(w).total;
            const int n = hk_world_particles(w).count;
            double v40[2][3] = {{0}};
            int s = 1;
            for (; s <= 60; s++) {
                if (hk_world_step(w) != HK_OK) {
                    print_error("%s, %s: %s\n", coast_cases[c].name, hk_integrator_info_of(kinds[k])->name,
                                hk_world_error(w));
                    break;
                }
                const hk_particles_view pv = hk_world_particles(w);
                for (int i = 0; i < n && s >= 40; i++) {
                    const double v[3] = {pv.vx[i], pv.vy[i], pv.vz[i]};
                    for (int a = 0; a < 3; a++) {
                        if (s == 40) v40[i][a] = v[a];
                        assert_true(v[a] == v40[i][a]);
                    }
                }
            }
            if (s <= 60) {
                failed++;
                hk_scene_free(&sc);
                continue;
            }
            const hk_particles_view pv = hk_world_particles(w);
            const double e = hk_world_stats(w).total;
            print_message("%s, %s: energy %.6g J of %.6g J; velocity of particle %d (%.6g, %.6g, %.6g) m/s\n",
                          coast_cases[c].name, hk_integrator_info_of(kinds[k])->name, e, e0, n - 1, pv.vx[n - 1],
                          pv.vy[n - 1], pv.vz[n - 1]);
            assert_true(e > 0);
            if (kinds[k] == HK_IMPLICIT_EULER)
                assert_le(e, e0);
            else /* it keeps a linear spring's energy; the steps where a force begins or ends move it */
                assert_near(e, e0, 0.1 * e0);
            if (c == 0) assert_true(pv.vx[1] < 0);
            if (c == 1) assert_true(pv.vy[0] > 0);
            if (c == 2) {
                assert_true(pv.vx[0] < 0 && pv.vx[1] > 0);
                assert_near((double)pv.vx[0] + pv.vx[1], 0, 4 * HK_EPS);
            }
            hk_scene_free(&sc);
        }
    assert_int_equal(failed, 0);
}

typedef struct {
    double kinetic, stretch;
    int64_t cg;
    int unconverged;
} run_result;

/* A quarter second of the falling stiff cloth, its integrator set_solver's. */
static run_result run_on(hk_cg_stop rule, double tol, double ntol, int threads)
{
    hk_world *w = stiff_cloth(48, 1);
    assert_int_equal(hk_world_set_threads(w, threads), 0);
    set_solver(w, rule, tol, 20000, ntol);
    for (int s = 0; s < 60; s++) assert_int_equal(hk_world_step(w), HK_OK);
    const hk_stats st = hk_world_stats(w);
    const hk_solver_stats ss = hk_world_solver_stats(w);
    run_result r = {st.kinetic, st.max_stretch, ss.cg_total, (int)(ss.unconverged + ss.newton_unconverged)};
    hk_world_destroy(w);
    return r;
}

static run_result run(hk_cg_stop rule, double tol, int threads) { return run_on(rule, tol, -1, threads); }

/* A quarter second of a falling stiff cloth against a solve to a relative
 * residual of 1e-8: the force rule's default (1e-5) agrees to 2e-3 of the
 * kinetic energy and 1e-5 of the largest stretch (float's rounding alone
 * moves the energy by about 5e-4 here, by 1.3e-3 between two solves of the
 * energy rule at 1e-7 and 1e-8), force 1e-2 to 1e-2 and 5e-5, in fewer
 * iterations; the energy rule's default (1e-5) to 3e-3 and 1e-5, its 1e-3
 * to 1e-2 and 5e-5 in fewer; the same bits on 1 and 2 threads. */
static void test_motion_agrees(void **state)
{
    (void)state;
    const run_result tight = run(HK_CG_STOP_RELATIVE, 1e-8, 1), loose = run(HK_CG_STOP_FORCE, 1e-2, 1);
    const run_result dflt = run(HK_CG_STOP_FORCE, 0, 1), two = run(HK_CG_STOP_FORCE, 1e-2, 2);
    const run_result energy = run(HK_CG_STOP_ENERGY, 1e-3, 1), energy_dflt = run(HK_CG_STOP_ENERGY, 0, 1);
    const run_result energy_two = run(HK_CG_STOP_ENERGY, 1e-3, 2);
    print_message("kinetic %.9g J, stretch %.6g (relative 1e-8, %lld CG iterations); force 1e-2: %.9g J, %.6g (%lld); "
                  "force default: %.9g J, %.6g (%lld); energy 1e-3: %.9g J, %.6g (%lld); energy default: %.9g J, "
                  "%.6g (%lld)\n",
                  tight.kinetic, tight.stretch, (long long)tight.cg, loose.kinetic, loose.stretch, (long long)loose.cg,
                  dflt.kinetic, dflt.stretch, (long long)dflt.cg, energy.kinetic, energy.stretch, (long long)energy.cg,
                  energy_dflt.kinetic, energy_dflt.stretch, (long long)energy_dflt.cg);
    assert_int_equal(tight.unconverged + loose.unconverged + dflt.unconverged, 0);
    assert_int_equal(energy.unconverged + energy_dflt.unconverged, 0);
    assert_true(tight.kinetic > 0 && tight.stretch > 1);
    assert_near(dflt.kinetic, tight.kinetic, 2e-3 * tight.kinetic);
    assert_near(dflt.stretch, tight.stretch, 1e-5);
    assert_near(loose.kinetic, tight.kinetic, 1e-2 * tight.kinetic);
    assert_near(loose.stretch, tight.stretch, 5e-5);
    assert_true(loose.cg < dflt.cg && dflt.cg < tight.cg);
    assert_true(two.kinetic == loose.kinetic && two.stretch == loose.stretch && two.cg == loose.cg);
    assert_near(energy_dflt.kinetic, tight.kinetic, 3e-3 * tight.kinetic);
    assert_near(energy_dflt.stretch, tight.stretch, 1e-5);
    assert_near(energy.kinetic, tight.kinetic, 1e-2 * tight.kinetic);
    assert_near(energy.stretch, tight.stretch, 5e-5);
    assert_true(energy.cg < energy_dflt.cg && energy_dflt.cg < tight.cg);
    assert_true(energy_two.kinetic == energy.kinetic && energy_two.stretch == energy.stretch &&
                energy_two.cg == energy.cg);
}

/* hang.scene's sheet at 32 x 32 nodes (the same 2 m square, fabric, pins, tethers and 1 % strain limits) hung for
 * 1 s (120 steps) with its run section's solver settings `solver`: the sag of its top edge's middle below its
 * corners [m], and the CG iterations. */
static double hung_sag(const char *solver, int64_t *cg)
{
    char text[2048];
    snprintf(text, sizeof text,
             "world\n gravity 0 -9.8 0\n air_drag 1e-6\n strain_sweeps 1000\nend\n"
             "body cloth\n nx 32\n ny 32\n spacing 0.064516129032258\n origin -1 1 0\n u 1 0 0\n v 0 -1 0.05\n"
             " mass 7.936e-4\n pins two_corners\n tethers euclidean\n tether_stretch 0.01\n"
             " springs structural k 10000 damping 0.02 damping_model relative strain_limit 0.01\n"
             " springs shear k 100 damping 0.02 damping_model relative strain_limit 0.01\n"
             " springs bend k 1 damping 0.002 damping_model relative\nend\n"
             "run\n integrator implicit_euler\n dt 0.00833333333333333\n%send\n",
             solver);
    hk_scene sc;
    char err[512];
    if (hk_scene_parse(text, "hang32.scene", &sc, err, sizeof err) != 0) fail_msg("%s", err);
    assert_int_equal(hk_world_set_integrator(sc.world, &sc.integrator), HK_OK);
    for (int s = 0; s < 120; s++) assert_int_equal(hk_world_step(sc.world), HK_OK);
    const double sag = (hk_world_position(sc.world, 0).y + hk_world_position(sc.world, 31).y) / 2 -
                       (hk_world_position(sc.world, 15).y + hk_world_position(sc.world, 16).y) / 2;
    const hk_solver_stats ss = hk_world_solver_stats(sc.world);
    assert_int_equal(ss.unconverged + ss.newton_unconverged, 0);
    *cg = ss.cg_total;
    hk_scene_free(&sc);
    return sag;
}

/* The newton rule (inexact Newton) stops each Newton iteration's solve once its error's energy is a hundredth of its
 * step's, or a tenth of the energy where the minimisation stops; the minimisation still ends where newton_tolerance
 * puts it, whose default under this rule is the square of the exact solves' (1e-4): an inexact last step lands short
 * of exact Newton's quadratic one. Against the minimisation converged (solves to a relative 1e-8, newton_tolerance
 * 1e-4), over a quarter second of the falling stiff cloth: the newton rule's defaults agree to 1e-2 of the kinetic
 * energy and 1e-4 of the largest stretch (float's rounding over the 60 steps moves them by a few 1e-3), in fewer
 * iterations than the force rule (a third as many in float, two thirds in double), whose defaults agree to 5e-2 and
 * 1e-4 (its newton_tolerance leaves that much: 2.8 % of the kinetic energy in float, 3.6 % in double) and land at
 * least four times further from the converged energy than the newton rule's; the same bits on 1 and 2 threads. A
 * hanging sheet creeping under its limits is where the Newton tolerance shows: after 1 s its sag under the newton
 * rule's defaults is within 0.5 % of the tight solves' (at newton_tolerance 1e-2 it is 1.8 % off). The linearised
 * steps, which have no Newton rule, refuse it. */
static void test_newton_rule(void **state)
{
    (void)state;
    const run_result tight = run_on(HK_CG_STOP_RELATIVE, 1e-8, 1e-4, 1);
    const run_result force = run_on(HK_CG_STOP_FORCE, 0, 0, 1), newton = run_on(HK_CG_STOP_NEWTON, 0, 0, 1);
    const run_result two = run_on(HK_CG_STOP_NEWTON, 0, 0, 2);
    print_message("minimised: kinetic %.9g J, stretch %.6g (relative 1e-8, newton_tolerance 1e-4: %lld CG "
                  "iterations); the defaults: force rule %.9g J, %.6g (%lld), newton rule %.9g J, %.6g (%lld)\n",
                  tight.kinetic, tight.stretch, (long long)tight.cg, force.kinetic, force.stretch, (long long)force.cg,
                  newton.kinetic, newton.stretch, (long long)newton.cg);
    assert_int_equal(tight.unconverged + force.unconverged + newton.unconverged, 0);
    assert_true(tight.kinetic > 0 && tight.stretch > 1);
    assert_near(newton.kinetic, tight.kinetic, 1e-2 * tight.kinetic);
    assert_near(newton.stretch, tight.stretch, 1e-4);
    assert_near(force.kinetic, tight.kinetic, 5e-2 * tight.kinetic);
    assert_true(fabs(newton.kinetic - tight.kinetic) < fabs(force.kinetic - tight.kinetic) / 4);
    assert_near(force.stretch, tight.stretch, 1e-4);
    assert_true(newton.cg < force.cg);
    assert_true(two.kinetic == newton.kinetic && two.stretch == newton.stretch && two.cg == newton.cg);
    int64_t cg_tight, cg_newton;
    const double sag_tight = hung_sag(" cg_stop relative\n cg_tolerance 1e-7\n newton_tolerance 1e-4\n", &cg_tight);
    const double sag_newton = hung_sag(" cg_stop newton\n", &cg_newton);
    print_message("hanging sheet, 1 s: sag %.6g cm with tight solves (%lld CG iterations), %.6g cm by the newton "
                  "rule (%lld)\n",
                  100 * sag_tight, (long long)cg_tight, 100 * sag_newton, (long long)cg_newton);
    assert_true(sag_tight > 0.01);
    assert_near(sag_newton, sag_tight, 5e-3 * sag_tight);
    assert_true(cg_newton < cg_tight);
    hk_world *w = stiff_cloth(8, 1);
    hk_integrator_def d = hk_default_integrator_def();
    d.dt = DT;
    d.cg_stop = HK_CG_STOP_NEWTON;
    const struct {
        hk_integrator_kind kind;
        int newton_iterations;
    } refused[] = {{HK_IMPLICIT_EULER, 1}, {HK_TRAPEZOIDAL, 0}};
    for (int k = 0; k < 2; k++) {
        d.kind = refused[k].kind;
        d.newton_iterations = refused[k].newton_iterations;
        assert_int_not_equal(hk_world_set_integrator(w, &d), 0);
        print_message("refused: %s\n", hk_world_error(w));
        assert_non_null(strstr(hk_world_error(w), "cg_stop newton is the minimising integrators'"));
    }
    d.kind = HK_BDF2;
    d.newton_iterations = 0;
    assert_int_equal(hk_world_set_integrator(w, &d), 0);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_force_bound),  cmocka_unit_test(test_weights),
        cmocka_unit_test(test_energy_bound), cmocka_unit_test(test_motion_agrees),
        cmocka_unit_test(test_newton_rule),  cmocka_unit_test(test_coasting_once_forces_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
