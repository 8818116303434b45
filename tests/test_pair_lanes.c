/* test_pair_lanes.c — the triangle model's pairs in lanes against their scalar evaluation, bit for bit, every path. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_forces.h"
#include "hk_test_pairs.h"

#include "pair_kernels.h"
#include "pairs.h"
#include "world.h"

/*
 * Each world below is made once per variant: the scalar reference (the
 * pairs evaluated alone, pair_eval.c's hk_pair_evaluate and pair_anchor.c's
 * friction) and every lanes path this build and CPU have (scalar, avx2,
 * avx512: pair_lanes_isa.h at 1, 4 and 8 lanes), the same engine path for
 * all, and the same random state given to each. What the pairs' passes
 * leave (the touching pairs and their evaluations, their forces, bounds,
 * anchors, each particle's sum) and the worlds' states must be the same
 * bits in every variant: a lane that does an operation out of the scalar
 * order, or reads another lane's corner, shows up here.
 */

#define TH 0.0025  /* the thickness [m] */
#define SP 0.01    /* the spacing [m] */
#define VARIANTS 4 /* the reference, then the lanes paths */

static const char *const lane_paths[VARIANTS] = {NULL, "scalar", "avx2", "avx512"};

/* An n x n cloth folded in half on a floor (bench/contact_cases.c's fold, smaller), its upper half one thickness
 * over the lower, every particle then moved by up to `jitter` thicknesses (a seeded pseudo-random offset) and given
 * a velocity of up to 0.03 m/s each way, so that the pairs meet in every region of a triangle and at every angle. */
static hk_world *folded(int n, const char *run, double jitter, uint64_t seed)
{
    char text[2048];
    snprintf(text, sizeof text,
             "world\n  gravity 0 -9.81 0\nend\n"
             "body cloth\n  nx %d\n  ny %d\n  spacing %g\n  origin 0 0.002 0\n  u 1 0 0\n  v 0 0 1\n  mass 2e-5\n"
             "  springs structural k 6000 damping 0.02 damping_model relative\n"
             "  springs shear k 6000 damping 0.02 damping_model relative\nend\n"
             "collider\n  shape box\n  size 100 1 100\n  offset 0 -0.5 0\n  thickness %g\n  stiffness 20\n"
             "  damping_ratio 1\n  friction 0.3\nend\n"
             "contact\n  self 1\n  thickness %g\n  stiffness 20\n  damping_ratio 1\n  friction 0.3\nend\n"
             "run\n%send\n",
             n, n, SP, TH, TH, run);
    hk_world *w = hk_test_scene_world(text, "test_pair_lanes.scene");
    const double dz = sqrt(SP * SP - TH * TH);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int upper = j >= n / 2, p = j * n + i;
            const uint64_t key = seed * 1000003u + 6 * (uint64_t)p;
            const hk_vec3 x = {i * SP + jitter * TH * hk_test_unit(key),
                               0.002 + (upper ? TH : 0) + jitter * TH * hk_test_unit(key + 1),
                               (upper ? (n / 2 - 1) * SP + dz - (j - n / 2) * SP : j * SP) +
                                   jitter * TH * hk_test_unit(key + 2)};
            hk_world_set_position(w, p, x);
            w->p.vx[p] = (hk_real)(0.03 * hk_test_unit(key + 3));
            w->p.vy[p] = (hk_real)(0.03 * hk_test_unit(key + 4));
            w->p.vz[p] = (hk_real)(0.03 * hk_test_unit(key + 5));
        }
    return w;
}

/* The variants of a world: [0] the scalar reference, then a world per lanes path there is (NULL where none). */
typedef struct variants {
    hk_world *w[VARIANTS];
} variants;

static variants make(int n, const char *run, double jitter, uint64_t seed, int threads)
{
    variants v = {{NULL}};
    for (int k = 0; k < VARIANTS; k++) {
        const hk_pair_lanes *l = lane_paths[k] ? hk_pair_lanes_named(lane_paths[k]) : NULL;
        if (lane_paths[k] && !l) continue; /* this build or CPU lacks it */
        v.w[k] = folded(n, run, jitter, seed);
        v.w[k]->def.list_parallel_min = 0; /* every loop over pairs or particles on the team */
        assert_int_equal(hk_world_set_threads(v.w[k], threads), HK_OK);
        hk_pairs *pr = hk_pairs_of(v.w[k]);
        assert_non_null(pr);
        hk_pair_lanes_use(pr, l);
    }
    assert_non_null(v.w[1]); /* the scalar lanes are in every build */
    return v;
}

static void destroy(variants *v)
{
    for (int k = 0; k < VARIANTS; k++) hk_world_destroy(v->w[k]);
}

/* Whether n doubles (or other items of `size` bytes) at a and b are the same bits; a message names the first that
 * is not. */
static int same(const void *a, const void *b, int64_t n, size_t size, const char *what, const char *path)
{
    if (n <= 0 || memcmp(a, b, (size_t)n * size) == 0) return 1;
    int64_t i = 0;
    while (memcmp((const char *)a + i * (int64_t)size, (const char *)b + i * (int64_t)size, size) == 0) i++;
    if (size == sizeof(double))
        print_error("%s: %s[%lld] = %.17g, the reference %.17g\n", path, what, (long long)i, ((const double *)b)[i],
                    ((const double *)a)[i]);
    else
        print_error("%s: %s[%lld] differs from the reference\n", path, what, (long long)i);
    return 0;
}

/* Variant k's pairs against the reference's: what the last force evaluation left, bit for bit. */
static void same_pairs(const hk_pairs *a, const hk_pairs *b, const char *path)
{
    int ok = 1;
    ok &= a->npair == b->npair && a->non == b->non && a->shares == b->shares && a->ninv == b->ninv;
    if (!ok) {
        print_error("%s: %lld pairs, %lld touching, against %lld and %lld\n", path, (long long)b->npair,
                    (long long)b->non, (long long)a->npair, (long long)a->non);
        fail();
    }
    ok &= same(a->lb, b->lb, a->npair, sizeof *a->lb, "lb", path);
    for (int s = 0; s < a->shares; s++) {
        const int64_t k0 = a->share[HK_SHARE_N * s + HK_SHARE_K0], m = a->share[HK_SHARE_N * s + HK_SHARE_ON];
        ok &= k0 == b->share[HK_SHARE_N * s + HK_SHARE_K0] && m == b->share[HK_SHARE_N * s + HK_SHARE_ON];
        ok &= same(a->on + k0, b->on + k0, m, sizeof *a->on, "on", path);
        for (int c = 0; c < 4; c++) ok &= same(a->ev.a[c] + k0, b->ev.a[c] + k0, m, sizeof(double), "ev.a", path);
        for (int c = 0; c < 3; c++) {
            ok &= same(a->ev.n[c] + k0, b->ev.n[c] + k0, m, sizeof(double), "ev.n", path);
            ok &= same(a->ev.vr[c] + k0, b->ev.vr[c] + k0, m, sizeof(double), "ev.vr", path);
        }
        ok &= same(a->ev.fn + k0, b->ev.fn + k0, m, sizeof(double), "ev.fn", path);
        ok &= same(a->ev.m + k0, b->ev.m + k0, m, sizeof(double), "ev.m", path);
    }
    if (b->unlisted) { /* the sums without the lists (or the forces): each particle's terms from 0 in pair order, in
                        * double, from the reference's forces */
        double *s = calloc(3 * (size_t)a->ninv + 1, sizeof *s);
        assert_non_null(s);
        int64_t q = 0;
        for (int sh = 0; sh < a->shares; sh++) {
            const int64_t k0 = a->share[HK_SHARE_N * sh + HK_SHARE_K0], m = a->share[HK_SHARE_N * sh + HK_SHARE_ON];
            for (int64_t i = 0; i < m; i++, q++)
                for (int c = 0; c < 4; c++)
                    for (int e = 0; e < 3; e++)
                        s[3 * (int64_t)a->at[4 * a->on[k0 + i] + c] + e] += a->ev.a[c][k0 + i] * a->tf[3 * q + e];
        }
        ok &= same(s, b->acc, 3 * (int64_t)a->ninv, sizeof *s, "the sums in pair order", path);
        free(s);
    } else { /* the forces, and the lists each particle's corners in the touching pairs (a solve reads them) */
        ok &= same(a->tf, b->tf, 3 * a->non, sizeof *a->tf, "tf", path);
        ok &= same(a->on_start, b->on_start, a->ninv + 1, sizeof *a->on_start, "on_start", path);
        ok &= same(a->on_slot, b->on_slot, a->on_start[a->ninv], sizeof *a->on_slot, "on_slot", path);
        ok &= same(a->slot_a, b->slot_a, a->on_start[a->ninv], sizeof *a->slot_a, "slot_a", path);
    }
    if (a->first) /* the anchors the first evaluation placed */
        for (int64_t q = 0; q < a->non; q++) {
            const hk_pair_anchor *x = &a->anch_next[q], *y = &b->anch_next[q];
            if (x->cand != y->cand || (x->cand >= 0 && (hk_pair_order(&x->key, &y->key) != 0 || x->pair != y->pair ||
                                                        memcmp(x->w, y->w, sizeof x->w) != 0))) {
                print_error("%s: the anchor of touching pair %lld differs from the reference\n", path, (long long)q);
                ok = 0;
                break;
            }
        }
    if (!ok) fail();
}

/* Variant k's particles against the reference's. */
static void same_state(const hk_world *a, const hk_world *b, const char *path)
{
    const int n = a->p.count;
    const hk_real *x[6] = {a->p.qx, a->p.qy, a->p.qz, a->p.vx, a->p.vy, a->p.vz};
    const hk_real *y[6] = {b->p.qx, b->p.qy, b->p.qz, b->p.vx, b->p.vy, b->p.vz};
    for (int c = 0; c < 6; c++)
        if (!same(x[c], y[c], n, sizeof(hk_real), c < 3 ? "q" : "v", path)) fail();
}

/* One force evaluation of every variant's pairs now, into zeroed forces, compared (each particle's sum too). */
static void evaluate_all(variants *v)
{
    const int n = v->w[0]->p.count;
    hk_real *f[VARIANTS][3];
    for (int k = 0; k < VARIANTS; k++) {
        if (!v->w[k]) continue;
        for (int c = 0; c < 3; c++) {
            f[k][c] = calloc((size_t)n, sizeof(hk_real));
            assert_non_null(f[k][c]);
        }
        hk_pairs_forces(v->w[k], hk_pairs_of(v->w[k]), v->w[k]->h, f[k]);
        assert_string_equal(hk_world_error(v->w[k]), "");
        if (k == 0) continue;
        same_pairs(hk_pairs_of(v->w[0]), hk_pairs_of(v->w[k]), lane_paths[k]);
        for (int c = 0; c < 3; c++)
            if (!same(f[0][c], f[k][c], n, sizeof(hk_real), "f", lane_paths[k])) fail();
    }
    for (int k = 0; k < VARIANTS; k++)
        for (int c = 0; v->w[k] && c < 3; c++) free(f[k][c]);
}

/* Steps every variant `steps` times, each step compared (the particles after it, then the pairs of an evaluation
 * of the state it leaves: the step's own may have been followed by a new choice of pairs). */
static void step_all(variants *v, int steps)
{
    for (int s = 0; s < steps; s++) {
        for (int k = 0; k < VARIANTS; k++) {
            if (!v->w[k]) continue;
            hk_test_steps(v->w[k], 1);
            if (k > 0) same_state(v->w[0], v->w[k], lane_paths[k]);
        }
        evaluate_all(v);
    }
}

/* Trial `trial`'s state of w (the same in every variant): each particle of the pairs moved by up to a fifth of the
 * thickness and its x velocity changed, the pairs' bounds set or not, a first evaluation or not; from trial 4 some
 * particles past their step's bound, at trial 6 a particle of the upper layer exactly where one of the lower is
 * (sides that meet), at trial 7 an edge of no length (a particle where its neighbour is). */
static void trial_state(hk_world *w, int trial, int nx)
{
    hk_pairs *pr = hk_pairs_of(w);
    const int n = w->p.count;
    for (int i = 0; i < n; i++) {
        if (pr->place[i] < 0) continue;
        const uint64_t key = 977 * (uint64_t)trial + 7 * (uint64_t)i;
        const double *x = pr->xs + 3 * (int64_t)pr->place[i];
        const hk_vec3 y = {x[0] + 0.2 * TH * hk_test_unit(key), x[1] + 0.2 * TH * hk_test_unit(key + 1),
                           x[2] + 0.2 * TH * hk_test_unit(key + 2)};
        hk_world_set_position(w, i, y);
        w->p.vx[i] += (hk_real)(0.01 * hk_test_unit(key + 3));
    }
    pr->lb_set = trial % 3 != 0;
    pr->first = trial % 2;
    if (trial >= 4)
        for (int i = trial; i < n; i += 37) pr->b[i] = 0;
    if (trial == 6) hk_world_set_position(w, 14 * nx + 7, hk_world_position(w, 5 * nx + 7));
    if (trial == 7) hk_world_set_position(w, 15 * nx + 10, hk_world_position(w, 15 * nx + 9));
}

/* Semi-implicit Euler (every evaluation its substep's first: it places and drags the anchors), one thread and two:
 * steps, then evaluations of states the steps do not reach: every evaluation setting the pairs' bounds, none
 * setting them, particles past their step's bound (taken alone), a particle exactly at another's place (sides that
 * meet: taken alone), and an edge of no length. Each must give the reference's bits on every lanes path. */
static void test_semi_implicit_against_reference(void **state)
{
    (void)state;
    for (int threads = 1; threads <= 2; threads++) {
        variants v = make(20, "  integrator semi_implicit_euler\n  dt 2e-5\n", 0.3, 7 + (uint64_t)threads, threads);
        step_all(&v, 6);
        const hk_pairs *p0 = hk_pairs_of(v.w[0]);
        print_message("%d thread(s): %lld pairs, %lld touching\n", threads, (long long)p0->npair, (long long)p0->non);
        assert_true(p0->non > 100);
        for (int trial = 0; trial < 8; trial++) {
            for (int k = 0; k < VARIANTS; k++)
                if (v.w[k]) trial_state(v.w[k], trial, 20);
            evaluate_all(&v);
        }
        destroy(&v);
    }
}

/* rk4 (four evaluations a substep: the later ones find the anchors held, or take the viscous friction where a pair
 * began to touch after the first) and implicit Euler (its solve's blocks): stepped, every step the reference's
 * bits. */
static void test_other_integrators_against_reference(void **state)
{
    (void)state;
    variants v = make(16, "  integrator rk4\n  dt 2e-5\n", 0.3, 11, 1);
    step_all(&v, 6);
    assert_true(hk_pairs_of(v.w[0])->non > 50);
    destroy(&v);
    v = make(16,
             "  integrator implicit_euler\n  dt 0.004\n  cg_stop force\n  cg_tolerance 0.1\n  cg_max_iterations 500\n",
             0.3, 13, 1);
    step_all(&v, 3);
    assert_true(hk_pairs_of(v.w[0])->non > 50);
    destroy(&v);
}

/* The chunk's select keeps, in order, exactly the pairs whose bound is not above their own far (a NaN bound kept,
 * as evaluate keeps it), on every path; over lengths that are not a whole number of lanes. */
static void test_select(void **state)
{
    (void)state;
    float lb[PAIR_CHUNK];
    double far[PAIR_CHUNK];
    int32_t off[PAIR_CHUNK + PAIR_LANES_PAD], want[PAIR_CHUNK];
    for (int k = 1; k < VARIANTS; k++) {
        const hk_pair_lanes *l = hk_pair_lanes_named(lane_paths[k]);
        if (!l) continue;
        for (int n = 0; n <= PAIR_CHUNK; n += 37) {
            for (int i = 0; i < n; i++) {
                lb[i] = i % 11 == 3 ? NAN : (float)(1 + hk_test_unit(31 * (uint64_t)i + (uint64_t)n));
                far[i] = 1.2 + 0.5 * hk_test_unit(17 * (uint64_t)i + 5);
            }
            far[n / 2] = 1.2, lb[n / 2] = nextafterf((float)1.2, INFINITY); /* just above (1.2 is below its float) */
            int m = 0;
            for (int i = 0; i < n; i++)
                if (!((double)lb[i] > far[i])) want[m++] = i;
            assert_true(n < 2 || (m > 0 && m < n)); /* some kept, some left out */
            assert_int_equal(l->select(lb, far, n, off), m);
            assert_memory_equal(off, want, (size_t)m * sizeof *off);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_semi_implicit_against_reference),
        cmocka_unit_test(test_other_integrators_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
