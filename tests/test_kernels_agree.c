/* test_kernels_agree.c — all kernel paths agree with the reference on forces and one step, every shipped scene. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "hk_test_env.h"
#include "hk_test_forces.h"
#include "hk_test_scenes.h"

#include "forces.h"
#include "kernels.h"
#include "pairs.h"
#include "scene.h"
#include "spring_length.h"

#include <stdlib.h> /* mkdtemp */
#include <unistd.h> /* rmdir */

/*
 * What is compared, and why the tolerances are what they are.
 *
 * Forces. The paths sum a particle's terms in different orders (the
 * reference walks family by family, the lattice sweep sums a row's families
 * into a ring buffer and adds them to the external force, colours order list
 * springs). Each spring's force itself has the same bits on every path: the
 * kernels perform hk_spring_force's operations in its order (its fused multiply-adds included).
 * Any two orders of summing the same n float terms t_k differ by at most
 * about n eps sum |t_k|. So per particle and component
 *     |f_path - f_ref| <= 2 eps (n_i + 1) S_i,
 * with S_i the sum of the 1-norms of all terms of particle i and n_i their
 * number; the factor 2 covers the final rounding of each term. eps is
 * FLT_EPSILON, or DBL_EPSILON in a double build. A wrong or missing spring,
 * or a spring rounded differently (about 8 eps (k (r + L0) + c |dv|), which
 * near the rest length is many ulps of F), shows up above this.
 *
 * One step. Run with the scene's integrator over one substep h (dt = h,
 * no dt_max), so a step is exactly one force evaluation followed by the
 * update. With G = the largest of h, dt_a, dt_v and alpha the jelly factor
 * (1 otherwise), a force difference dF moves the velocity by at most
 * G im dF and the position by at most G^2 im dF; the update's own roundings
 * (at most 3 per coordinate) add 4 eps |v'| / alpha and 4 eps |x'|:
 *     |dv| <= G im dF + 4 eps |v'| / alpha
 *     |dx| <= G (G im dF + 4 eps |v'| / alpha) + 4 eps |x'|
 * with dF the force bound above.
 *
 * Threads. For one path the forces with 1, 2 and 3 threads must be the same
 * bits: compared with memcmp.
 */

static const char *const paths[4] = {"reference", "scalar", "avx2", "avx512"};

/* Shortest rest length of any spring [m]: the perturbation's scale. */
static double shortest_rest(const hk_world *w)
{
    double best = INFINITY;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->rest_list) {
            for (int64_t s = 0; s < f->count; s++)
                if (f->rest_list[s] > 0 && f->rest_list[s] < best) best = f->rest_list[s];
        } else if (f->rest > 0 && f->rest < best) {
            best = f->rest;
        }
    }
    return isfinite(best) ? best : 1.0;
}

/* The world's thread count (its own setting: a scene's world would take hooke's default, fewer threads for the
 * small scenes). */
static void set_threads(hk_world *w, int t) { assert_int_equal(hk_world_set_threads(w, t), 0); }

/* Loads a scene and moves every free particle by up to 1e-3 of the shortest
 * spring, and its velocity by up to that much per substep: a generic state
 * (no spring exactly at rest, damping at work), the same for every path. */
static hk_scene load_perturbed(const char *file)
{
    char path[8192], err[1024];
    if (file[0] == '/')
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, file);
    hk_scene sc;
    const hk_world_def base = hk_test_env_def(); /* HOOKE_LIST_PARALLEL_MIN=0: every list body on the team */
    if (hk_scene_load_on(path, &base, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = sc.world;
    set_threads(w, 1);
    const double L = shortest_rest(w), h = w->h; /* the substep (the scene set its integrator) */
    const double dx = 1e-3 * L, dv = 1e-3 * L / h;
    hk_real *arr[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
    for (int i = 0; i < w->p.count; i++) {
        if (w->p.inv_mass[i] == 0) continue;
        for (int c = 0; c < 6; c++)
            arr[c][i] += (hk_real)((c < 3 ? dx : dv) * hk_test_unit(6 * (uint64_t)i + (uint64_t)c));
    }
    return sc;
}

static hk_real *copy_of(const hk_real *a, int n)
{
    hk_real *c = malloc((size_t)(n ? n : 1) * sizeof *c);
    assert_non_null(c);
    memcpy(c, a, (size_t)n * sizeof *c);
    return c;
}

/* One step of one substep h with the scene's integrator. */
static void one_substep(hk_scene *sc)
{
    hk_integrator_def d = sc->integrator;
    d.dt = sc->world->h;
    d.dt_max = 0;
    assert_int_equal(hk_world_set_integrator(sc->world, &d), 0);
    hk_world_step(sc->world);
    assert_string_equal(hk_world_error(sc->world), "");
}

typedef struct reference {
    int n;
    double *scale;   /* S_i */
    double *cond;    /* C_i */
    int *terms;      /* n_i */
    hk_real *f[3];   /* forces */
    hk_real *xv[6];  /* after one substep (NULL: not stepped) */
    double G, alpha; /* step sizes of the update */
} reference;

static void reference_free(reference *r)
{
    free(r->scale);
    free(r->cond);
    free(r->terms);
    for (int c = 0; c < 3; c++) free(r->f[c]);
    for (int c = 0; c < 6; c++) free(r->xv[c]);
}

/* Largest big-scene size whose step is compared too (the two benchmark
 * scenes are checked on forces only). */
#define STEP_MAX_PARTICLES 100000

static void check_scene(const char *file)
{
    /* the reference path */
    assert_int_equal(hk_kernels_select("reference"), 0);
    reference ref = {0};
    hk_scene sc = load_perturbed(file);
    hk_world *w = sc.world;
    const int n = ref.n = w->p.count;
    ref.scale = malloc((size_t)n * sizeof *ref.scale);
    ref.cond = malloc((size_t)n * sizeof *ref.cond);
    ref.terms = malloc((size_t)n * sizeof *ref.terms);
    assert_non_null(ref.scale);
    assert_non_null(ref.cond);
    assert_non_null(ref.terms);
    hk_test_force_scale(w, ref.scale, ref.cond, ref.terms);
    hk_forces_compute(w);
    ref.f[0] = copy_of(w->p.fx, n);
    ref.f[1] = copy_of(w->p.fy, n);
    ref.f[2] = copy_of(w->p.fz, n);
    const int stepped = n <= STEP_MAX_PARTICLES;
    if (stepped) {
        const hk_integrator_def *d = &sc.integrator;
        double h = w->h;
        ref.G = h;
        ref.alpha = 1;
        if (d->kind == HK_JELLY) {
            if (d->jelly_dt_a > ref.G) ref.G = d->jelly_dt_a;
            if (d->jelly_dt_v > ref.G) ref.G = d->jelly_dt_v;
            ref.alpha = d->jelly_alpha;
        }
        one_substep(&sc);
        hk_real *a[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
        for (int c = 0; c < 6; c++) ref.xv[c] = copy_of(a[c], n);
    }
    hk_scene_free(&sc);

    /* the SIMD paths against the scalar one: the same bits (docs/determinism.md) */
    hk_real *scalar_f[3] = {NULL, NULL, NULL};
    for (int p = 1; p < 4; p++) {
        if (!hk_kernels_cpu_has(paths[p])) continue; /* this CPU cannot run it */
        if (hk_kernels_select(paths[p]) != 0) {
#ifdef HK_TEST_REFERENCE_ONLY
            continue; /* HOOKE_SIMD=OFF: only the reference path is built */
#else
            print_error("%s: the CPU has the %s path but this build lacks it\n", file, paths[p]);
            fail();
#endif
        }
        assert_string_equal(hk_kernels_name(), paths[p]);
        /* forces, 1 thread, against the reference */
        sc = load_perturbed(file);
        w = sc.world;
        assert_int_equal(w->p.count, n);
        set_threads(w, 1);
        hk_forces_compute(w);
        assert_string_equal(hk_world_error(w), "");
        const hk_real *f[3] = {w->p.fx, w->p.fy, w->p.fz};
        double worst_ratio = 0, worst_abs = 0, worst_eps = 0, fref_max = 0;
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 3; c++) {
                const double d = fabs((double)f[c][i] - (double)ref.f[c][i]);
                const double tol = hk_test_force_tol(ref.scale, ref.cond, ref.terms, i);
                if (fabs((double)ref.f[c][i]) > fref_max) fref_max = fabs((double)ref.f[c][i]);
                if (d > worst_abs) worst_abs = d;
                if (d > 0 && d / tol > worst_ratio) worst_ratio = d / tol;
                if (d > 0 && d / (HK_EPS * ref.scale[i]) > worst_eps) worst_eps = d / (HK_EPS * ref.scale[i]);
                if (!(d <= tol)) {
                    print_error("%s, %s: particle %d force %c = %.9g, reference %.9g (off %.3g, tol %.3g; "
                                "%d terms, scale %.3g, cond %.3g)\n",
                                file, paths[p], i, "xyz"[c], (double)f[c][i], (double)ref.f[c][i], d, tol, ref.terms[i],
                                ref.scale[i], ref.cond[i]);
                    fail();
                }
            }
        /* the same path with 2 and 3 threads: the same bits */
        hk_real *one[3] = {copy_of(w->p.fx, n), copy_of(w->p.fy, n), copy_of(w->p.fz, n)};
        for (int t = 2; t <= 3; t++) {
            set_threads(w, t);
            for (int c = 0; c < 3; c++) memset((void *)(uintptr_t)f[c], 0xff, (size_t)n * sizeof(hk_real));
            hk_forces_compute(w);
            for (int c = 0; c < 3; c++)
                if (memcmp(one[c], f[c], (size_t)n * sizeof(hk_real)) != 0) {
                    int i = 0;
                    while (one[c][i] == f[c][i]) i++;
                    print_error("%s, %s: %d threads give force %c[%d] = %.9g, 1 thread %.9g\n", file, paths[p], t,
                                "xyz"[c], i, (double)f[c][i], (double)one[c][i]);
                    fail();
                }
        }
        set_threads(w, 1);
        if (!scalar_f[0]) {
            for (int c = 0; c < 3; c++) scalar_f[c] = copy_of(one[c], n);
        } else {
            for (int c = 0; c < 3; c++)
                if (memcmp(scalar_f[c], one[c], (size_t)n * sizeof(hk_real)) != 0) {
                    int i = 0;
                    while (scalar_f[c][i] == one[c][i]) i++;
                    print_error("%s, %s: force %c[%d] = %.9g, the scalar path %.9g (not the same bits)\n", file,
                                paths[p], "xyz"[c], i, (double)one[c][i], (double)scalar_f[c][i]);
                    fail();
                }
        }
        for (int c = 0; c < 3; c++) free(one[c]);

        /* one substep against the reference's */
        double worst_x = 0, worst_v = 0;
        if (stepped) {
            one_substep(&sc);
            const hk_real *xv[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
            for (int i = 0; i < n; i++) {
                const double im = w->p.inv_mass[i];
                const double dF = hk_test_force_tol(ref.scale, ref.cond, ref.terms, i);
                for (int c = 0; c < 3; c++) {
                    const double vabs = fmax(fabs((double)xv[3 + c][i]), fabs((double)ref.xv[3 + c][i]));
                    const double xabs = fmax(fabs((double)xv[c][i]), fabs((double)ref.xv[c][i]));
                    const double tol_v = ref.G * im * dF + 4 * HK_EPS * vabs / ref.alpha;
                    const double tol_x = ref.G * tol_v + 4 * HK_EPS * xabs;
                    const double ex = fabs((double)xv[c][i] - (double)ref.xv[c][i]);
                    const double ev = fabs((double)xv[3 + c][i] - (double)ref.xv[3 + c][i]);
                    if (ex > worst_x) worst_x = ex;
                    if (ev > worst_v) worst_v = ev;
                    if (!(ex <= tol_x) || !(ev <= tol_v)) {
                        print_error("%s, %s: after one step particle %d: x%c %.9g vs %.9g (tol %.3g), v%c %.9g vs "
                                    "%.9g (tol %.3g)\n",
                                    file, paths[p], i, "xyz"[c], (double)xv[c][i], (double)ref.xv[c][i], tol_x,
                                    "xyz"[c], (double)xv[3 + c][i], (double)ref.xv[3 + c][i], tol_v);
                        fail();
                    }
                }
            }
        }
        print_message("%-22s %-7s max|df| %.3g N = %.3g eps S = %.2g of tol (max|f| %.3g N)%s", file, paths[p],
                      worst_abs, worst_eps, worst_ratio, fref_max, stepped ? "" : "  [forces only]\n");
        if (stepped) print_message("  step: max|dx| %.3g m, max|dv| %.3g m/s\n", worst_x, worst_v);
        hk_scene_free(&sc);
    }
    for (int c = 0; c < 3; c++) free(scalar_f[c]);
    reference_free(&ref);
    hk_kernels_select(NULL);
}

static void test_every_shipped_scene(void **state)
{
    (void)state;
    char names[64][64];
    const int n = hk_test_scene_files(names, 64);
    assert_true(n >= 13);
    for (int i = 0; i < n; i++) check_scene(names[i]);
}

/* Lattices whose families differ in damping model and behaviour from one
 * to the next, on rows that are not a whole number of vectors, and a cloth
 * with a radius stencil (its rows form groups whose shifts are read at run
 * time): the AVX-512 sweep runs some families in blocked groups
 * (row_group.h, group_row) and the others alone, and must still give the
 * scalar path's bits. The last three bodies have rows of 10 vectors and
 * more, not a whole number of them, where group_row runs its middle
 * vectors without row-end tests. */
static void test_mixed_families(void **state)
{
    (void)state;
    char dir[] = "/tmp/hooke_mixed_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/mixed.scene", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(
        "world\n  gravity 0 -9.81 0\nend\n"
        "body cloth\n  nx 37\n  ny 23\n  spacing 0.02\n  origin 0 1 0\n  u 1 0 0\n  v 0 -1 0\n  mass 0.01\n"
        "  springs structural k 800 damping 0.05 damping_model relative\n"
        "  springs shear k 400 damping 0.03\n"
        "  springs bend k 100 damping 0.02 damping_model relative behaviour tension_only\nend\n"
        "body jelly\n  nx 19\n  ny 7\n  nz 5\n  spacing 0.05\n  origin 1 0.5 0\n  mass 0.01\n  neighbours 52\n"
        "  springs K1 k 500 damping 0.1\n  springs K2 k 250 damping 0.1 damping_model relative\n"
        "  springs K3 k 150 damping 0.1\n  springs Kb1 k 200 behaviour compression_only\n"
        "  springs Kb2 k 100 damping 0.1\n  springs Kb3 k 60 damping 0.1\nend\n"
        "body cloth\n  nx 41\n  ny 9\n  spacing 0.02\n  origin 0 3 0\n  u 1 0 0\n  v 0 -1 0\n  mass 0.01\n"
        "  radius 0.061\n  springs structural k 800 damping 0.05 damping_model relative\n"
        "  springs shear k 400 damping 0.03 damping_model relative\n"
        "  springs bend k 100 damping 0.02 damping_model relative\n"
        "  springs radius k 300 damping 0.02 damping_model relative\nend\n"
        "body jelly\n  nx 33\n  ny 4\n  nz 3\n  spacing 0.05\n  origin 3 0.5 0\n  mass 0.01\n  neighbours 26\n"
        "  springs K1 k 500 damping 0.1 damping_model relative\n  springs K2 k 250 damping 0.1 damping_model relative\n"
        "  springs K3 k 150 damping 0.1 damping_model relative\nend\n"
        "body cloth\n  nx 173\n  ny 5\n  spacing 0.02\n  origin 0 5 0\n  u 1 0 0\n  v 0 -1 0\n  mass 0.01\n"
        "  springs structural k 800 damping 0.05 damping_model relative\n"
        "  springs shear k 400 damping 0.03 damping_model relative\n"
        "  springs bend k 100 damping 0.02 damping_model relative\nend\n"
        "body cloth\n  nx 167\n  ny 4\n  spacing 0.02\n  origin 0 6 0\n  u 1 0 0\n  v 0 -1 0\n  mass 0.01\n"
        "  radius 0.045\n  springs structural k 800 damping 0.05\n  springs shear k 400 damping 0.03\n"
        "  springs bend k 100 damping 0.02\n  springs radius k 300 damping 0.02\nend\n"
        "body jelly\n  nx 170\n  ny 3\n  nz 3\n  spacing 0.05\n  origin 0 7 0\n  mass 0.01\n  neighbours 26\n"
        "  springs K1 k 500 damping 0.1 damping_model relative\n  springs K2 k 250 damping 0.1 damping_model relative\n"
        "  springs K3 k 150 damping 0.1 damping_model relative\nend\n"
        "run\n  integrator semi_implicit_euler\n  dt 1e-4\n  steps 1\nend\n",
        fp);
    assert_int_equal(fclose(fp), 0);
    check_scene(path);
    assert_int_equal(remove(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* A cloth folded onto itself, its layers a contact thickness apart and every particle moved a little: its pairs
 * touch, and their evaluation and friction run in lanes (core/contact/pair_lanes.h) as wide as the kernel path's
 * (1, 4 or 8 doubles). Every path must give the same bits, a step after another. */
static hk_world *folded_cloth(void)
{
    const int n = 16;
    const double s = 0.01, th = 0.0025, dz = sqrt(s * s - th * th);
    char text[2048], err[1024];
    snprintf(text, sizeof text,
             "world\n  gravity 0 -9.81 0\nend\n"
             "body cloth\n  nx %d\n  ny %d\n  spacing %g\n  origin 0 0.002 0\n  u 1 0 0\n  v 0 0 1\n  mass 2e-5\n"
             "  springs structural k 6000 damping 0.02 damping_model relative\n"
             "  springs shear k 6000 damping 0.02 damping_model relative\nend\n"
             "collider\n  shape box\n  size 100 1 100\n  offset 0 -0.5 0\n  thickness %g\n  stiffness 20\n"
             "  damping_ratio 1\n  friction 0.3\nend\n"
             "contact\n  self 1\n  thickness %g\n  stiffness 20\n  damping_ratio 1\n  friction 0.3\nend\n"
             "run\n  integrator semi_implicit_euler\n  dt 2e-5\nend\n",
             n, n, s, th, th);
    hk_world *w = hk_world_parse_scene(text, "folded.scene", NULL, err, sizeof err);
    if (!w) {
        print_error("%s\n", err);
        fail();
    }
    w->def.list_parallel_min = 0; /* every loop over pairs or particles on the team (as HOOKE_LIST_PARALLEL_MIN=0) */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int upper = j >= n / 2, p = j * n + i;
            const double jx = 0.3 * th * hk_test_unit(3 * (uint64_t)p);
            const double jy = 0.3 * th * hk_test_unit(3 * (uint64_t)p + 1);
            const hk_vec3 x = {i * s + jx, 0.002 + (upper ? th : 0) + jy,
                               upper ? (n / 2 - 1) * s + dz - (j - n / 2) * s : j * s};
            hk_world_set_position(w, p, x);
        }
    return w;
}

static void test_folded_cloth_pairs(void **state)
{
    (void)state;
    hk_real *first[6] = {NULL};
    const char *first_path = NULL;
    for (int p = 1; p < 4; p++) {
        if (!hk_kernels_cpu_has(paths[p]) || hk_kernels_select(paths[p]) != 0) continue;
        hk_world *w = folded_cloth();
        set_threads(w, 1);
        for (int s = 0; s < 8; s++) hk_world_step(w);
        assert_string_equal(hk_world_error(w), "");
        const int64_t touching = hk_pairs_contacts(w, hk_pairs_of(w), NULL);
        print_message("folded cloth, %s: %lld pairs within the thickness\n", paths[p], (long long)touching);
        assert_true(touching > 50);
        const int n = w->p.count;
        hk_real *a[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
        if (!first_path) {
            first_path = paths[p];
            for (int c = 0; c < 6; c++) first[c] = copy_of(a[c], n);
        } else {
            for (int c = 0; c < 6; c++)
                if (memcmp(first[c], a[c], (size_t)n * sizeof(hk_real)) != 0) {
                    int i = 0;
                    while (first[c][i] == a[c][i]) i++;
                    print_error("folded cloth, %s: %s%c[%d] = %.9g, the %s path %.9g\n", paths[p], c < 3 ? "q" : "v",
                                "xyz"[c % 3], i, (double)a[c][i], first_path, (double)first[c][i]);
                    fail();
                }
        }
        hk_world_destroy(w);
    }
    for (int c = 0; c < 6; c++) free(first[c]);
    hk_kernels_select(NULL);
}

/* The strain limits' look (kernel_table.h length2_rows) on every built path: each family's largest and smallest r^2
 * over the rows, the same bits as the reference's measure spring by spring (spring_length.h), for rows shorter than
 * a vector and longer, families whose columns differ (starting at 1 or 2, ending 1 to 3 before the row's end), and
 * 1 to 9 families at once (more than one pass of any path takes). */
static void test_limit_look(void **state)
{
    (void)state;
    const int widths[] = {2, 3, 9, 16, 17, 40, 67};
    int runs = 0;
    for (int p = 1; p < 4; p++) {
        const hk_kernels *k = NULL;
        if (hk_kernels_find(paths[p], &k) != 0) continue; /* a path this CPU or build lacks */
        for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
            const int nx = widths[wi], ny = 7;
            hk_real *q[3];
            for (int c = 0; c < 3; c++) {
                q[c] = malloc((size_t)nx * ny * sizeof *q[c]);
                for (int64_t i = 0; i < (int64_t)nx * ny; i++) q[c][i] = (hk_real)(0.3 * sin(1.7 * i + c) + 0.01 * c);
            }
            /* (offset, i0, i1): along i, j, the diagonals, two along i and j, and narrower columns */
            const int64_t shape[9][3] = {{1, 0, nx - 1},  {nx, 0, nx},     {nx + 1, 0, nx - 1},
                                         {nx - 1, 1, nx}, {2, 0, nx - 2},  {2 * nx, 0, nx},
                                         {1, 1, nx - 2},  {nx, 2, nx - 3}, {nx + 1, 1, nx - 1}};
            hk_look_family f[9];
            int nf = 0;
            for (int m = 0; m < 9; m++) {
                if (shape[m][2] <= shape[m][1]) continue; /* no spring in a row this narrow */
                f[nf] = (hk_look_family){.offset = shape[m][0],
                                         .i0 = shape[m][1],
                                         .i1 = shape[m][2],
                                         .D = {(hk_real)(0.05 * m), (hk_real)(-0.02 * m), (hk_real)0.01}};
                nf++;
            }
            const int64_t first = nx, rows = ny - 3; /* rows 1 .. ny - 3: two rows ahead stay in the arrays */
            for (int n = 1; n <= nf; n++) {
                hk_real most[9], least[9];
                k->length2_rows(q, first, rows, nx, f, n, most, least);
                for (int m = 0; m < n; m++) {
                    hk_real want_most = 0, want_least = INFINITY;
                    for (int64_t t = 0; t < rows; t++) {
                        const int64_t a = first + t * nx + f[m].i0, b = a + f[m].offset;
                        hk_real mx, mn;
                        hk_length2_range_scalar((hk_real *const[3]){q[0] + a, q[1] + a, q[2] + a},
                                                (hk_real *const[3]){q[0] + b, q[1] + b, q[2] + b}, f[m].D,
                                                f[m].i1 - f[m].i0, &mx, &mn);
                        want_most = mx > want_most ? mx : want_most;
                        want_least = mn < want_least ? mn : want_least;
                    }
                    if (most[m] != want_most || least[m] != want_least)
                        fail_msg("%s, nx %d, %d families: family %d (offset %lld, columns %lld to %lld) gives r^2 "
                                 "from %.9g to %.9g, one by one %.9g to %.9g",
                                 paths[p], nx, n, m, (long long)f[m].offset, (long long)f[m].i0, (long long)f[m].i1,
                                 (double)least[m], (double)most[m], (double)want_least, (double)want_most);
                }
                runs++;
            }
            for (int c = 0; c < 3; c++) free(q[c]);
        }
    }
#ifndef HK_TEST_REFERENCE_ONLY
    assert_true(runs > 0); /* the scalar path at least */
#else
    (void)runs;
#endif
}

/* The reference path is always there; the scalar one whenever SIMD kernels
 * are built, and a path the CPU lacks is refused, not faked. */
static void test_path_selection(void **state)
{
    (void)state;
    assert_int_equal(hk_kernels_select("reference"), 0);
    assert_null(hk_kernels_active());
    assert_string_equal(hk_kernels_name(), "reference");
    assert_int_equal(hk_kernels_select("sse9"), -1);
    assert_string_equal(hk_kernels_name(), "reference"); /* unchanged by a refused name */
    for (int p = 1; p < 4; p++)
        if (hk_kernels_select(paths[p]) == 0) {
            const hk_kernels *k = hk_kernels_active();
            assert_non_null(k);
            assert_string_equal(k->isa, paths[p]);
            assert_true(k->width >= 1 && k->width <= 16);
        }
    assert_int_equal(hk_kernels_select(NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_selection), cmocka_unit_test(test_every_shipped_scene),
        cmocka_unit_test(test_mixed_families), cmocka_unit_test(test_folded_cloth_pairs),
        cmocka_unit_test(test_limit_look),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
