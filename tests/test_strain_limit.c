/* test_strain_limit.c — strain limits: no spring past its limit after a projection, momentum kept, bits, refusals. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pairs.h"
#include "world.h"

/* The largest and smallest r / L0 of every spring of w, read through the public API. */
static void ratios(const hk_world *w, double *most, double *least)
{
    *most = 0;
    *least = INFINITY;
    for (int f = 0; f < hk_world_family_count(w); f++) {
        const int n = hk_world_family(w, f).springs;
        double *rest = malloc((size_t)n * sizeof *rest), *len = malloc((size_t)n * sizeof *len);
        assert_non_null(rest);
        assert_non_null(len);
        assert_int_equal(hk_world_spring_lengths(w, f, 0, n, rest, len, NULL), HK_OK);
        for (int s = 0; s < n; s++) {
            *most = fmax(*most, len[s] / rest[s]);
            *least = fmin(*least, len[s] / rest[s]);
        }
        free(rest);
        free(len);
    }
}

/* A strip of cloth 4 x 24 nodes 2 cm apart hanging from its top edge under gravity: springs so soft (k 2 N/m, 1 g a
 * node) that unlimited it stretches by tens of percent; every family limited to `limit`. The sweeps may take up to
 * 1000 a substep (the strain limits' own convergence, which test_a_chain_at_once is about, not this test). */
static hk_world *strip(double limit, int threads)
{
    hk_world_def def = hk_test_world_def((hk_vec3){0, -9.81, 0});
    def.threads = threads;
    def.full_team = 1;
    def.strain_sweeps = 1000;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = 4;
    c.ny = 24;
    c.spacing = 0.02;
    c.u = (hk_vec3){1, 0, 0};
    c.v = (hk_vec3){0, -1, 0};
    c.mass = 1e-3;
    c.pins = HK_PIN_EDGE;
    hk_spring_params *fam[3] = {&c.structural_springs, &c.shear_springs, &c.bend_springs};
    for (int f = 0; f < 3; f++) {
        fam[f]->k = 2;
        fam[f]->damping = 2e-3;
        fam[f]->strain_limit = limit;
    }
    c.structural = c.shear = c.bend = 1;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    return w;
}

/* Under every integrator (a row per kind of the table): after every step every spring of the stretched strip lies
 * within 1.05 of its rest length, the projection said it found more and left none, and unlimited the same strip
 * stretches well past it (the test can fail). */
static void test_no_spring_past_its_limit(void **state)
{
    (void)state;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        for (int limited = 0; limited <= 1; limited++) {
            hk_world *w = strip(limited ? 0.05 : 0, 1);
            hk_integrator_def d = hk_default_integrator_def();
            d.kind = (hk_integrator_kind)k;
            d.dt = 2e-3;
            d.dt_max = 2e-3;
            d.jelly_alpha = 1.0;
            assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
            double worst = 0, found = 0;
            for (int s = 0; s < 150; s++) {
                if (hk_world_step(w) != HK_OK)
                    fail_msg("%s, step %d: %s", hk_integrator_info_of((hk_integrator_kind)k)->name, s,
                             hk_world_error(w));
                double most, least;
                ratios(w, &most, &least);
                worst = fmax(worst, most);
                if (!limited) continue;
                const hk_strain_stats st = hk_world_strain_stats(w);
                assert_int_equal(st.step, s);
                if (st.unconverged)
                    fail_msg("%s, step %d: %d substeps left past the limit after %d sweeps (r / L0 %.9g to %.9g)",
                             hk_integrator_info_of((hk_integrator_kind)k)->name, s, st.unconverged, st.sweeps,
                             st.before_max, st.after_max);
                assert_true(st.after_max <= 1.05);
                assert_true(fabs(st.after_max - most) <= 1e-12 * most); /* what the stats say is what is there */
                found = fmax(found, st.before_max);
            }
            const char *name = hk_integrator_info_of((hk_integrator_kind)k)->name;
            if (limited) {
                if (!(worst <= 1.05 && found > 1.05))
                    fail_msg("%s: largest r / L0 %.9g after the projections, %.9g before", name, worst, found);
            } else if (!(worst > 1.2)) {
                fail_msg("%s: unlimited, the strip stretched only to %.9g", name, worst);
            }
            hk_world_destroy(w);
        }
    }
}

/* A strip of 6 x 2 nodes (1 cm apart, its springs limited to 1.05) thrown at 20 m/s onto a cloth held at its edges,
 * 2 cm a step against a contact layer of 4 mm, its first three columns over the cloth and the rest past its edge: the
 * contact force cannot stop it, and at the end of the step that meets the cloth the safety net pushes the pairs it
 * finds apart (the strip's nodes over the cloth back on their side) while the nodes past the edge fly on; without
 * the projection after the net a spring across the edge ends that step at r / L0 1.082. The limits keep the last
 * word: after every step every spring of the strip lies within 1.05, the net having pushed pairs apart. */
static void test_limits_after_the_safety_net(void **state)
{
    (void)state;
    const char text[] = "world\n  gravity 0 0 0\nend\n"
                        "body cloth\n  nx 10\n  ny 10\n  spacing 0.02\n  origin 0 0 0\n  u 1 0 0\n  v 0 0 1\n"
                        "  mass 1e-3\n  pins four_edges\n  springs structural k 200\n  springs shear k 200\nend\n"
                        "body cloth\n  nx 6\n  ny 2\n  spacing 0.01\n  origin 0.155 0.05 0.085\n  u 1 0 0\n"
                        "  v 0 0 1\n  mass 1e-3\n  springs structural k 200 strain_limit 0.05\n"
                        "  springs shear k 200 strain_limit 0.05\nend\n"
                        "contact\n  thickness 0.004\n  stiffness 500\n  damping_ratio 1\n  friction 0.3\nend\n"
                        "run\n  integrator semi_implicit_euler\n  dt 1e-3\nend\n";
    char err[1024];
    hk_world *w = hk_world_parse_scene(text, "test_strain_limit.scene", NULL, err, sizeof err);
    if (!w) fail_msg("%s", err);
    const hk_particles_view v = hk_world_particles(w);
    for (int i = 100; i < v.count; i++) hk_test_mut(v.vy)[i] = -20;
    double worst = 0;
    for (int s = 0; s < 10; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        for (int f = 0; f < hk_world_family_count(w); f++) {
            const hk_family_info fi = hk_world_family(w, f);
            if (fi.body != 1) continue;
            double rest[32], len[32];
            assert_true(fi.springs <= 32);
            assert_int_equal(hk_world_spring_lengths(w, f, 0, fi.springs, rest, len, NULL), HK_OK);
            for (int k = 0; k < fi.springs; k++) {
                worst = fmax(worst, len[k] / rest[k]);
                if (!(len[k] / rest[k] <= 1.05))
                    fail_msg("step %d: %s spring %d of the strip at r / L0 = %.9g after the step", s, fi.name, k,
                             len[k] / rest[k]);
            }
        }
    }
    const hk_pairs *pr = hk_pairs_of(w);
    print_message("%lld pairs pushed apart by the safety net, the strip's springs at most %.9g\n",
                  (long long)(pr ? pr->caught : 0), worst);
    assert_true(pr && pr->caught > 0);
    hk_world_destroy(w);
}

/* A rope of 100 springs (1 g nodes 1 cm apart, k 5 N/m) hung from its top under backward Euler at 5 ms, limited to
 * 1.01: soft enough that its every spring lies at the limit, each substep's fall stretching them all. The rope is one
 * chain, projected at once: within the default 100 sweeps every step ends within the limit, in a few sweeps a step
 * on average (a projection spring by spring passes the correction on by one spring a sweep: it left 98 of these 100
 * steps unconverged, the springs at up to 1.0997). */
static void test_a_chain_at_once(void **state)
{
    (void)state;
    const hk_world_def def = hk_test_world_def((hk_vec3){0, -9.8, 0});
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    hk_rope_def r = hk_default_rope_def();
    r.count = 101;
    r.mass = 1e-3;
    r.spacing = 0.01;
    r.direction = (hk_vec3){0, -1, 0};
    r.springs.k = 5;
    r.springs.damping = 1e-3;
    r.springs.strain_limit = 0.01;
    const int body = hk_world_add_rope(w, &r);
    assert_true(body >= 0);
    assert_int_equal(hk_world_pin(w, body, 0), HK_OK);
    hk_test_integrator(w, HK_IMPLICIT_EULER, 0.005);
    double sweeps = 0, before = 0;
    for (int s = 0; s < 100; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        const hk_strain_stats st = hk_world_strain_stats(w);
        double most, least;
        ratios(w, &most, &least);
        if (st.unconverged || !(most <= 1.01))
            fail_msg("step %d: r / L0 up to %.9g after %d sweeps (%d substeps unconverged)", s, most, st.sweeps,
                     st.unconverged);
        sweeps += st.sweeps;
        before = fmax(before, st.before_max);
    }
    print_message("%.2f sweeps a step on average, r / L0 up to %.9g before the projections\n", sweeps / 100, before);
    assert_true(before > 1.02); /* the falls stretched it well past the limit */
    assert_true(sweeps / 100 <= 10);
    hk_world_destroy(w);
}

/* A compression limit: springs whose rest length is 1.25 of their length start at r / L0 = 0.8 and are pushed out
 * to 0.9 at once (with the velocity of that move: the rope flies apart), and stay there or above. */
static void test_compression_limit(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 12;
    r.mass = 0.01;
    r.spacing = 0.1;
    r.springs.k = 1;
    r.springs.rest_length = 0.125;
    r.springs.compress_limit = 0.1;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    for (int s = 0; s < 20; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        double most, least;
        ratios(w, &most, &least);
        assert_true(least >= 0.9);
        const hk_strain_stats st = hk_world_strain_stats(w);
        if (s == 0) {
            assert_true(fabs(st.before_min - 0.8) < 1e-6);
            assert_true(st.projected > 0);
        }
        assert_true(st.after_min >= 0.9);
    }
    hk_world_destroy(w);
}

/* Two free particles of different masses flying apart on one spring of no stiffness, limited to 1.1: the
 * projection keeps the centre of mass and the momentum, and after it their velocities along the spring are those
 * of the moves (the distance stays at the limit, the pair turns into one body moving at the centre's velocity). */
static void test_momentum_and_velocity(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    const hk_vec3 pos[2] = {{0, 0, 0}, {1, 0, 0}}, vel[2] = {{-1, 0.5, 0}, {3, 0, 0}};
    const double mass[2] = {1, 3};
    const int body = hk_world_add_points(w, 2, pos, vel, mass);
    assert_true(body >= 0);
    hk_spring_params p = hk_default_spring_params();
    p.k = 0;
    p.strain_limit = 0.1;
    const int a = 0, b = 1;
    assert_true(hk_world_add_springs(w, body, 1, &a, &b, &p) >= 0);
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = HK_SEMI_IMPLICIT_EULER;
    d.dt = 0.01;
    assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
    const double P0[2] = {1 * -1 + 3 * 3, 1 * 0.5}; /* the momentum, x and y [kg m/s] */
    for (int s = 0; s < 50; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        const hk_vec3 x0 = hk_world_position(w, 0), x1 = hk_world_position(w, 1);
        const hk_vec3 v0 = {w->p.vx[0], w->p.vy[0], w->p.vz[0]}, v1 = {w->p.vx[1], w->p.vy[1], w->p.vz[1]};
        const double P[2] = {v0.x + 3 * v1.x, v0.y + 3 * v1.y};
        assert_true(fabs(P[0] - P0[0]) < 1e-5 && fabs(P[1] - P0[1]) < 1e-5);
        const double t = hk_world_time(w), cm = (x0.x + 3 * x1.x) / 4, cm0 = 0.75 + t * P0[0] / 4;
        assert_true(fabs(cm - cm0) < 1e-5);
        const double r = hypot(x1.x - x0.x, x1.y - x0.y);
        assert_true(r <= 1.1 + 1e-6);
        if (s > 4) { /* held at the limit (from t = 0.025 s): the 4 m/s apart gone; left, at most the limit's give (a
                      * projection leaves the spring at 1.098, 2 % of the limit's width inside it) crossed in a step,
                      * and what turning adds in a step */
            const double nx = (x1.x - x0.x) / r, ny = (x1.y - x0.y) / r;
            const double apart = (v1.x - v0.x) * nx + (v1.y - v0.y) * ny;
            const double turn = (v1.y - v0.y) * nx - (v1.x - v0.x) * ny; /* across the spring [m/s] */
            if (!(fabs(apart) <= (1.1 - 1.098) / d.dt + turn * turn * d.dt / r + 1e-6))
                fail_msg("step %d: %.9g m/s apart, %.9g across", s, apart, turn);
        }
    }
    hk_world_destroy(w);
}

/* The same bits on 1, 2 and 3 threads for a cloth large enough that its colours split over the team (128 x 96, its
 * springs past the limit from the first steps), a lattice and a list family limited. */
static void test_bits_over_threads(void **state)
{
    (void)state;
    uint64_t first = 0;
    for (int threads = 1; threads <= 3; threads++) {
        hk_world_def def = hk_test_world_def((hk_vec3){0, -9.81, 0});
        def.threads = threads;
        def.full_team = 1;
        hk_world *w = hk_world_create(&def);
        hk_cloth_def c = hk_default_cloth_def();
        c.nx = 128;
        c.ny = 96;
        c.spacing = 0.01;
        c.mass = 1e-4;
        c.pins = HK_PIN_TWO_CORNERS;
        c.structural = c.shear = c.bend = 1;
        hk_spring_params *fam[3] = {&c.structural_springs, &c.shear_springs, &c.bend_springs};
        for (int f = 0; f < 3; f++) {
            fam[f]->k = 5;
            fam[f]->strain_limit = 0.02;
        }
        assert_true(hk_world_add_cloth(w, &c) >= 0);
        hk_vec3 pos[40];
        double m[40];
        int a[39], b[39];
        for (int i = 0; i < 40; i++) pos[i] = (hk_vec3){0.01 * i, 2, 0}, m[i] = 1e-3;
        for (int i = 0; i < 39; i++) a[i] = i, b[i] = i + 1;
        assert_true(hk_world_add_points(w, 40, pos, NULL, NULL) < 0); /* no masses: refused, not read */
        const int rope = hk_world_add_points(w, 40, pos, NULL, m);
        assert_true(rope >= 0);
        assert_int_equal(hk_world_pin(w, rope, 0), HK_OK);
        hk_spring_params p = hk_default_spring_params();
        p.k = 1;
        p.strain_limit = 0.03;
        assert_true(hk_world_add_springs(w, rope, 39, a, b, &p) >= 0);
        for (int s = 0; s < 40; s++) assert_int_equal(hk_world_step(w), HK_OK);
        const hk_strain_stats st = hk_world_strain_stats(w);
        assert_true(st.before_max > 1.02 && st.after_max <= 1.03 && st.projected > 0);
        const uint64_t h = hk_world_state_hash(w);
        if (threads == 1)
            first = h;
        else if (h != first)
            fail_msg("%d threads: state hash %016llx, 1 thread %016llx", threads, (unsigned long long)h,
                     (unsigned long long)first);
        hk_world_destroy(w);
    }
}

/* A spring held at both ends past its limit cannot be projected back: the first step says so, naming it. */
static void test_pins_past_the_limit(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 5;
    r.mass = 0.01;
    r.spacing = 0.1;
    r.springs.rest_length = 0.09; /* r / L0 = 1.11 at rest */
    r.springs.strain_limit = 0.05;
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_step(w), HK_OK); /* free ends: projected within the limit */
    assert_int_equal(hk_world_pin(w, 0, 3), HK_OK);
    assert_int_equal(hk_world_pin(w, 0, 4), HK_OK);
    assert_int_equal(hk_world_step(w), HK_OK); /* held where the projection left them: within it */
    hk_world_destroy(w);

    w = hk_test_empty_world();
    assert_true(hk_world_add_rope(w, &r) >= 0);
    assert_int_equal(hk_world_pin(w, 0, 3), HK_OK);
    assert_int_equal(hk_world_pin(w, 0, 4), HK_OK);
    assert_int_not_equal(hk_world_step(w), HK_OK);
    const char *e = hk_world_error(w);
    if (!strstr(e, "spring 3 joins two held particles") || !strstr(e, "no projection can move it back"))
        fail_msg("error: %s", e);
    hk_world_destroy(w);
}

/* A soft cloth 12 x 16 nodes 2 cm apart hanging from its top corners (k 1 N/m: unheld, it sags to twice its length),
 * with geodesic tethers: every particle stays within the shortest path along the springs at rest from the corner
 * nearest it that way, s (sqrt 2 min(i, j) + |i - j|) for a node i columns and j rows from it (diagonals and
 * straight springs); with euclidean tethers within the straight line, s sqrt(i^2 + j^2); without tethers the far
 * corners hang past both. */
static void test_tethers_hold_a_hanging_cloth(void **state)
{
    (void)state;
    const int nx = 12, ny = 16;
    const double s = 0.02;
    for (int kind = HK_TETHERS_NONE; kind <= HK_TETHERS_GEODESIC; kind++) {
        const hk_world_def def = hk_test_world_def((hk_vec3){0, -9.81, 0});
        hk_world *w = hk_world_create(&def);
        hk_cloth_def c = hk_default_cloth_def();
        c.nx = nx;
        c.ny = ny;
        c.spacing = s;
        c.u = (hk_vec3){1, 0, 0};
        c.v = (hk_vec3){0, -1, 0};
        c.mass = 1e-3;
        c.pins = HK_PIN_TWO_CORNERS;
        c.structural = c.shear = c.bend = 1;
        c.structural_springs.k = c.shear_springs.k = c.bend_springs.k = 1;
        c.structural_springs.damping = c.shear_springs.damping = c.bend_springs.damping = 0.01;
        const int body = hk_world_add_cloth(w, &c);
        assert_true(body >= 0);
        if (kind != HK_TETHERS_NONE) assert_int_equal(hk_world_set_tethers(w, body, kind, 0), HK_OK);
        hk_integrator_def d = hk_default_integrator_def();
        d.kind = HK_IMPLICIT_EULER;
        d.dt = 0.01;
        assert_int_equal(hk_world_set_integrator(w, &d), HK_OK);
        double worst = 0; /* the largest distance from the nearer corner over the allowed one */
        for (int step = 0; step < 200; step++) {
            assert_int_equal(hk_world_step(w), HK_OK);
            const hk_vec3 p0 = hk_world_position(w, 0), p1 = hk_world_position(w, nx - 1);
            for (int j = 0; j < ny; j++)
                for (int i = 0; i < nx; i++) {
                    const hk_vec3 x = hk_world_position(w, i + nx * j);
                    const int i1 = nx - 1 - i;
                    const double r0 = sqrt(pow(x.x - p0.x, 2) + pow(x.y - p0.y, 2) + pow(x.z - p0.z, 2));
                    const double r1 = sqrt(pow(x.x - p1.x, 2) + pow(x.y - p1.y, 2) + pow(x.z - p1.z, 2));
                    const double g0 =
                        kind == HK_TETHERS_EUCLIDEAN ? s * hypot(i, j) : s * (sqrt(2) * fmin(i, j) + abs(i - j));
                    const double g1 =
                        kind == HK_TETHERS_EUCLIDEAN ? s * hypot(i1, j) : s * (sqrt(2) * fmin(i1, j) + abs(i1 - j));
                    /* tied to the nearer pin (the lower index on a tie): within its distance */
                    const double ratio = g0 <= g1 ? r0 / g0 : r1 / g1;
                    if (g0 > 0 && g1 > 0) worst = fmax(worst, ratio);
                }
        }
        if (kind == HK_TETHERS_NONE) {
            if (!(worst > 1.3)) fail_msg("untethered, the cloth hangs within %.6g of the geodesic", worst);
        } else {
            if (!(worst <= 1 + 1e-5)) fail_msg("tethers %d: a particle at %.9g of its tether", kind, worst);
            const hk_strain_stats st = hk_world_strain_stats(w);
            assert_true(st.tethered > 0);
        }
        hk_world_destroy(w);
    }
}

/* Tethers are refused on a body with nothing to tie them to, and for a body or stretch out of range. */
static void test_tether_refusals(void **state)
{
    (void)state;
    hk_world *w = hk_test_empty_world();
    hk_rope_def r = hk_default_rope_def();
    r.count = 4;
    r.mass = 0.01;
    r.spacing = 0.1;
    const int body = hk_world_add_rope(w, &r);
    assert_int_equal(hk_world_set_tethers(w, body, HK_TETHERS_GEODESIC, 0), HK_ERR_INVALID);
    assert_non_null(strstr(hk_world_error(w), "has no pinned or driven particle"));
    assert_int_equal(hk_world_pin(w, body, 0), HK_OK);
    assert_int_equal(hk_world_set_tethers(w, body + 1, HK_TETHERS_GEODESIC, 0), HK_ERR_INVALID);
    assert_int_equal(hk_world_set_tethers(w, body, HK_TETHERS_GEODESIC, -1), HK_ERR_INVALID);
    assert_int_equal(hk_world_set_tethers(w, body, HK_TETHERS_GEODESIC, NAN), HK_ERR_INVALID);
    assert_int_equal(hk_world_set_tethers(w, body, HK_TETHERS_GEODESIC, 0), HK_OK);
    assert_int_equal(hk_world_step(w), HK_OK);
    assert_int_equal(hk_world_unpin(w, body, 0), HK_OK); /* the pin gone: the next step says so */
    assert_int_not_equal(hk_world_step(w), HK_OK);
    assert_non_null(strstr(hk_world_error(w), "no pinned or driven particle to tie them to"));
    hk_world_destroy(w);
}

/* Limits that are not limits are refused by the builders, naming the key. */
static void test_bad_limits(void **state)
{
    (void)state;
    const struct {
        double strain, compress;
        const char *says;
    } rows[] = {
        {-0.1, 0, "strain_limit must be 0 (none) or > 0 (got -0.1)"},
        {NAN, 0, "strain_limit must be 0 (none) or > 0 (got nan)"},
        {INFINITY, 0, "strain_limit must be 0 (none) or > 0 (got inf)"},
        {0, 1, "compress_limit must be 0 (none) or in (0, 1) (got 1)"},
        {0, -0.5, "compress_limit must be 0 (none) or in (0, 1) (got -0.5)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        hk_world *w = hk_test_empty_world();
        hk_rope_def r = hk_default_rope_def();
        r.count = 3;
        r.mass = 0.01;
        r.spacing = 0.1;
        r.springs.strain_limit = rows[i].strain;
        r.springs.compress_limit = rows[i].compress;
        assert_true(hk_world_add_rope(w, &r) < 0);
        if (!strstr(hk_world_error(w), rows[i].says)) fail_msg("row %zu: %s", i, hk_world_error(w));
        hk_world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_spring_past_its_limit),     cmocka_unit_test(test_compression_limit),
        cmocka_unit_test(test_momentum_and_velocity),        cmocka_unit_test(test_bits_over_threads),
        cmocka_unit_test(test_pins_past_the_limit),          cmocka_unit_test(test_bad_limits),
        cmocka_unit_test(test_tethers_hold_a_hanging_cloth), cmocka_unit_test(test_tether_refusals),
        cmocka_unit_test(test_limits_after_the_safety_net),  cmocka_unit_test(test_a_chain_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
