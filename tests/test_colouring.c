/* test_colouring.c — greedy edge colouring of list families (colour.h): invariants. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_graph.h"

#include "colour.h"
#include "forces.h"
#include "kernels.h"

/* ------------------------------------------------------------------------ */
/* World from a graph                                                        */

/* Points at distinct pseudo-random positions (so every rest length differs),
 * one list family with the graph's springs. */
static hk_world *graph_world(const graph *g, const hk_spring_params *params, int *family)
{
    hk_world *w = hk_test_empty_world();
    hk_vec3 *pos = malloc((size_t)g->n * sizeof *pos);
    double *mass = malloc((size_t)g->n * sizeof *mass);
    assert_non_null(pos);
    assert_non_null(mass);
    for (int i = 0; i < g->n; i++) {
        pos[i] = (hk_vec3){hk_test_unit(3 * (uint64_t)i), hk_test_unit(3 * (uint64_t)i + 1),
                           hk_test_unit(3 * (uint64_t)i + 2)};
        mass[i] = 0.01;
    }
    int body = hk_world_add_points(w, g->n, pos, NULL, mass);
    free(pos);
    free(mass);
    assert_int_equal(body, 0);
    hk_spring_params sp = params ? *params : hk_default_spring_params();
    *family = hk_world_add_springs(w, body, g->m, g->a, g->b, &sp);
    if (*family < 0) print_error("add_springs: %s\n", hk_world_error(w));
    assert_true(*family >= 0);
    return w;
}

static spring_rec *records(const hk_family *f)
{
    spring_rec *r = malloc((size_t)f->count * sizeof *r);
    assert_non_null(r);
    for (int64_t s = 0; s < f->count; s++) {
        int a = f->a[s], b = f->b[s];
        r[s].lo = a < b ? a : b;
        r[s].hi = a < b ? b : a;
        r[s].rest = f->rest_list ? f->rest_list[s] : f->rest;
        r[s].broken = f->broken ? f->broken[s] : 0;
    }
    qsort(r, (size_t)f->count, sizeof *r, rec_cmp);
    return r;
}

/* Colours family f of world w and checks every documented invariant.
 * Returns the number of colours. */
static int check_colouring(hk_world *w, hk_family *f, const char *name)
{
    const int n = w->p.count;
    /* degree, counted independently */
    int *deg = calloc((size_t)n, sizeof *deg);
    assert_non_null(deg);
    int delta = 0;
    for (int64_t s = 0; s < f->count; s++) {
        if (++deg[f->a[s]] > delta) delta = deg[f->a[s]];
        if (++deg[f->b[s]] > delta) delta = deg[f->b[s]];
    }
    free(deg);
    assert_int_equal(hk_family_max_degree(f, 0, n), delta);

    spring_rec *before = records(f);
    assert_int_equal(hk_colour_family(f, 0, n), 0);
    assert_non_null(f->colour_start);
    char why[256]; /* the engine's own check of the colouring (check.h) agrees with this test's */
    if (hk_colour_check(f, 0, n, why, sizeof why) != 0) {
        print_error("%s: %s\n", name, why);
        fail();
    }

    /* (a) the same springs, each exactly once, rest lengths and broken flags
     * moved with them */
    spring_rec *after = records(f);
    for (int64_t s = 0; s < f->count; s++)
        if (rec_cmp(&before[s], &after[s]) != 0) {
            print_error("%s: spring multiset changed at sorted slot %lld: (%d,%d) -> (%d,%d)\n", name, (long long)s,
                        before[s].lo, before[s].hi, after[s].lo, after[s].hi);
            fail();
        }
    free(before);
    free(after);
    if (f->rest_list) /* each slot's rest length is still the initial length of that slot's spring */
        for (int64_t s = 0; s < f->count; s++) {
            hk_real d[3];
            hk_spring_delta(f, &w->p, s, f->a[s], f->b[s], d);
            assert_true(f->rest_list[s] == hk_spring_length(d[0], d[1], d[2]));
        }

    /* (c) contiguous slices covering [0, count), none empty (greedy only
     * opens a colour for a spring that takes it) */
    const int C = f->colour_count;
    assert_true(C >= 1 || f->count == 0);
    assert_true(f->colour_start[0] == 0);
    assert_true(f->colour_start[C] == f->count);
    for (int c = 0; c < C; c++) assert_true(f->colour_start[c] < f->colour_start[c + 1]);

    /* (b) no particle twice within a colour, except the overflow colour,
     * which is the last; each colour's near part, then its far part, sorted
     * by lower endpoint (colour.h) */
    int *stamp = malloc((size_t)n * sizeof *stamp);
    uint64_t *touch = calloc((size_t)n * 2, sizeof *touch); /* colours (< 128) at each particle */
    assert_non_null(stamp);
    assert_non_null(touch);
    for (int i = 0; i < n; i++) stamp[i] = -1;
    const int regular = f->overflow ? C - 1 : C;
    for (int c = 0; c < regular; c++) {
        int prev_lo = -1;
        for (int64_t s = f->colour_start[c]; s < f->colour_start[c + 1]; s++) {
            const int a = f->a[s], b = f->b[s], lo = a < b ? a : b;
            if (s == f->near_end[c]) prev_lo = -1; /* the far part starts */
            if (stamp[a] == c || stamp[b] == c) {
                print_error("%s: colour %d has particle %d twice (spring %lld)\n", name, c, stamp[a] == c ? a : b,
                            (long long)s);
                fail();
            }
            stamp[a] = stamp[b] = c;
            assert_true(lo >= prev_lo);
            prev_lo = lo;
            touch[2 * a + c / 64] |= 1ull << (c % 64);
            touch[2 * b + c / 64] |= 1ull << (c % 64);
        }
    }
    /* greedy: a spring of colour c found every lower colour taken at one of
     * its ends (colours never change once given) */
    for (int c = 1; c < regular; c++)
        for (int64_t s = f->colour_start[c]; s < f->colour_start[c + 1]; s++) {
            const int a = f->a[s], b = f->b[s];
            for (int lower = 0; lower < c; lower++) {
                const uint64_t bit = 1ull << (lower % 64);
                if (!((touch[2 * a + lower / 64] | touch[2 * b + lower / 64]) & bit)) {
                    print_error("%s: spring %lld (%d,%d) has colour %d but colour %d was free at both ends\n", name,
                                (long long)s, a, b, c, lower);
                    fail();
                }
            }
        }
    free(stamp);
    free(touch);

    /* (e) bands: near springs join a band to itself or the next, far ones
     * do not; the band table splits each near part by the lower endpoint's
     * band; the overflow colour is one part */
    const int NB = f->band_count;
    assert_int_equal(NB, (n + HK_BAND - 1) / HK_BAND + (n == 0));
    for (int c = 0; c < C; c++) {
        const int64_t *bs = f->band_start + (size_t)c * ((size_t)NB + 1);
        assert_true(bs[0] == f->colour_start[c]);
        assert_true(bs[NB] == f->near_end[c]);
        if (c == regular) assert_true(f->near_end[c] == f->colour_start[c + 1]);
        for (int b = 0; b < NB; b++) {
            assert_true(bs[b] <= bs[b + 1]);
            for (int64_t s = bs[b]; s < bs[b + 1]; s++) {
                const int a = f->a[s], e = f->b[s], lo = a < e ? a : e, hi = a < e ? e : a;
                assert_int_equal(lo / HK_BAND, b);
                if (c < regular) assert_true(hi / HK_BAND <= b + 1);
            }
        }
        for (int64_t s = f->near_end[c]; s < f->colour_start[c + 1]; s++) {
            const int a = f->a[s], e = f->b[s], lo = a < e ? a : e, hi = a < e ? e : a;
            assert_true(hi / HK_BAND > lo / HK_BAND + 1);
        }
    }

    /* (d) the greedy bound: a spring meets at most 2 (Delta - 1) others, so
     * it never needs more than 2 Delta - 1 colours; overflow only once all
     * HK_MAX_COLOURS are used */
    if (f->overflow) {
        assert_int_equal(regular, HK_MAX_COLOURS);
        assert_true(2 * delta - 1 > HK_MAX_COLOURS);
    } else {
        assert_true(C <= 2 * delta - 1);
    }
    print_message("%-32s n=%5d springs=%6lld  Delta=%3d  colours=%3d  2*Delta-1=%3d%s\n", name, n, (long long)f->count,
                  delta, C, 2 * delta - 1, f->overflow ? "  (last = overflow)" : "");

    /* idempotent: a second call changes nothing */
    int64_t *start = f->colour_start;
    int *a0 = malloc((size_t)f->count * sizeof *a0);
    assert_non_null(a0);
    memcpy(a0, f->a, (size_t)f->count * sizeof *a0);
    assert_int_equal(hk_colour_family(f, 0, n), 0);
    assert_ptr_equal(f->colour_start, start);
    assert_int_equal(f->colour_count, C);
    assert_memory_equal(a0, f->a, (size_t)f->count * sizeof *a0);
    free(a0);
    return C;
}

static void colour_graph(const graph *g, const hk_spring_params *params)
{
    int fam;
    hk_world *w = graph_world(g, params, &fam);
    check_colouring(w, &w->families[fam], g->name);
    hk_world_destroy(w);
}

/* ------------------------------------------------------------------------ */
/* Colouring tests                                                           */

static void test_random_graphs(void **state)
{
    (void)state;
    static const int degrees[4] = {2, 6, 16, 40};
    for (uint64_t seed = 1; seed <= 3; seed++)
        for (int d = 0; d < 4; d++) {
            graph g;
            random_graph(&g, 300 + 200 * (int)seed, degrees[d], seed);
            colour_graph(&g, NULL);
            graph_free(&g);
        }
    graph g;
    hub_graph(&g, 500, 4, 60, 11);
    colour_graph(&g, NULL);
    graph_free(&g);
}

static void test_lattice_topologies(void **state)
{
    (void)state;
    graph g;
    cloth_graph(&g, 24, 20);
    colour_graph(&g, NULL);
    graph_free(&g);
    jelly_graph(&g, 6, 0); /* interior nodes (1..4)^3 have all 26 neighbours */
    colour_graph(&g, NULL);
    graph_free(&g);
    jelly_graph(&g, 6, 1); /* nodes (2..3)^3 have all 52 */
    colour_graph(&g, NULL);
    graph_free(&g);
}

static void test_meshes(void **state)
{
    (void)state;
    graph g;
    torus_graph(&g, 32, 12);
    colour_graph(&g, NULL);
    graph_free(&g);
    complete_graph(&g, 48);
    colour_graph(&g, NULL);
    graph_free(&g);
}

/* Several bands (colour.h): a torus mesh in its natural order (near springs,
 * plus the far ones that close it), and a random graph (mostly far), each
 * with about 5 bands. The invariants hold; the forces are the same bits on
 * 1, 2 and 3 threads on every path (the banded sweep runs even bands, then
 * odd ones, then far springs), and agree with the reference within the
 * rounding bound of test_kernels_agree.c. */
static void test_bands(void **state)
{
    (void)state;
    static const char *const paths[4] = {"reference", "scalar", "avx2", "avx512"};
    for (int which = 0; which < 2; which++) {
        graph g;
        if (which == 0)
            torus_graph(&g, 160, 110);
        else
            random_graph(&g, 17000, 6, 9);
        int fam;
        hk_world *w = graph_world(&g, NULL, &fam);
        hk_family *f = &w->families[fam];
        check_colouring(w, f, g.name);
        assert_true(f->band_count >= 4);
        int64_t near = 0;
        for (int c = 0; c < f->colour_count; c++) near += f->near_end[c] - f->colour_start[c];
        if (which == 0)
            assert_true(near > f->count / 2 && near < f->count); /* both kinds */
        else
            assert_true(near < f->count);
        print_message("  %s: %d bands, %lld of %lld springs near\n", g.name, f->band_count, (long long)near,
                      (long long)f->count);
        const int n = w->p.count;
        for (int i = 0; i < n; i++) w->p.vx[i] = (hk_real)(0.1 * hk_test_unit(7 * (uint64_t)i + 5));
        double *scale = malloc((size_t)n * sizeof *scale), *cond = malloc((size_t)n * sizeof *cond);
        int *terms = malloc((size_t)n * sizeof *terms);
        hk_real *ref[3], *one[3];
        for (int c = 0; c < 3; c++) {
            ref[c] = malloc((size_t)n * sizeof(hk_real));
            one[c] = malloc((size_t)n * sizeof(hk_real));
        }
        hk_test_force_scale(w, scale, cond, terms);
        assert_int_equal(hk_world_set_kernels(w, "reference"), 0);
        hk_forces_compute(w);
        memcpy(ref[0], w->p.fx, (size_t)n * sizeof(hk_real));
        memcpy(ref[1], w->p.fy, (size_t)n * sizeof(hk_real));
        memcpy(ref[2], w->p.fz, (size_t)n * sizeof(hk_real));
        for (int p = 1; p < 4; p++) {
            if (hk_world_set_kernels(w, paths[p]) != 0) continue;
            for (int t = 1; t <= 3; t++) {
#ifndef HOOKE_USE_OPENMP
                if (t > 1) break;
#endif
                assert_int_equal(hk_world_set_threads(w, t), 0); /* the world's own count, whatever its springs */
                hk_forces_compute(w);
                const hk_real *fc[3] = {w->p.fx, w->p.fy, w->p.fz};
                for (int c = 0; c < 3; c++) {
                    if (t == 1) {
                        memcpy(one[c], fc[c], (size_t)n * sizeof(hk_real));
                        for (int i = 0; i < n; i++)
                            if (fabs((double)fc[c][i] - ref[c][i]) > hk_test_force_tol(scale, cond, terms, i)) {
                                print_error("%s %s: particle %d component %d: %.9g, reference %.9g\n", g.name, paths[p],
                                            i, c, (double)fc[c][i], (double)ref[c][i]);
                                fail();
                            }
                    } else if (memcmp(one[c], fc[c], (size_t)n * sizeof(hk_real)) != 0) {
                        print_error("%s %s: %d threads differ from 1 thread\n", g.name, paths[p], t);
                        fail();
                    }
                }
            }
        }
        hk_kernels_select(NULL);
        for (int c = 0; c < 3; c++) {
            free(ref[c]);
            free(one[c]);
        }
        free(scale);
        free(cond);
        free(terms);
        hk_world_destroy(w);
        graph_free(&g);
    }
}

/* Broken flags are reordered with their springs (breakable family). */
static void test_broken_flags_move(void **state)
{
    (void)state;
    graph g;
    random_graph(&g, 400, 10, 42);
    hk_spring_params sp = hk_default_spring_params();
    sp.behaviour = HK_SPRING_BREAKABLE;
    sp.break_ratio = 1.5;
    int fam;
    hk_world *w = graph_world(&g, &sp, &fam);
    hk_family *f = &w->families[fam];
    assert_non_null(f->broken);
    for (int64_t s = 0; s < f->count; s += 7) f->broken[s] = 1; /* records() carry the flag */
    check_colouring(w, f, "random, breakable, 1/7 broken");
    int64_t nbroken = 0;
    for (int64_t s = 0; s < f->count; s++) nbroken += f->broken[s];
    assert_int_equal(nbroken, (f->count + 6) / 7);
    hk_world_destroy(w);
    graph_free(&g);
}

static void test_overflow_colour(void **state)
{
    (void)state;
    graph g;
    star_graph(&g, 200);
    int fam;
    hk_world *w = graph_world(&g, NULL, &fam);
    hk_family *f = &w->families[fam];
    assert_int_equal(hk_family_max_degree(f, 0, w->p.count), 200);
    check_colouring(w, f, g.name);
    assert_true(f->overflow);
    assert_int_equal(f->colour_count, HK_MAX_COLOURS + 1);
    /* the hub's 200 springs: one in each of the 128 colours, the other 72 in
     * the overflow colour */
    const int64_t last = f->colour_start[f->colour_count - 1];
    int64_t hub_in_overflow = 0;
    for (int64_t s = last; s < f->count; s++) hub_in_overflow += f->a[s] == 0 || f->b[s] == 0;
    assert_int_equal(hub_in_overflow, 200 - HK_MAX_COLOURS);
    hk_world_destroy(w);
    graph_free(&g);
}

static void test_max_degree(void **state)
{
    (void)state;
    graph g;
    star_graph(&g, 10);
    int fam;
    hk_world *w = graph_world(&g, NULL, &fam);
    assert_int_equal(hk_family_max_degree(&w->families[fam], 0, w->p.count), 10);
    hk_world_destroy(w);
    graph_free(&g);
    jelly_graph(&g, 5, 0);
    w = graph_world(&g, NULL, &fam);
    assert_int_equal(hk_family_max_degree(&w->families[fam], 0, w->p.count), 26);
    hk_world_destroy(w);
    graph_free(&g);
    jelly_graph(&g, 5, 1);
    w = graph_world(&g, NULL, &fam);
    assert_int_equal(hk_family_max_degree(&w->families[fam], 0, w->p.count), 52);
    hk_world_destroy(w);
    graph_free(&g);
    cloth_graph(&g, 8, 8);
    w = graph_world(&g, NULL, &fam);
    assert_int_equal(hk_family_max_degree(&w->families[fam], 0, w->p.count), 12);
    hk_world_destroy(w);
    graph_free(&g);
    /* a lattice family has no list: 0 */
    w = hk_test_empty_world();
    hk_cloth_def c = hk_default_cloth_def();
    c.nx = c.ny = 4;
    c.spacing = 0.1;
    c.mass = 0.01;
    assert_true(hk_world_add_cloth(w, &c) >= 0);
    assert_int_equal(w->families[0].kind, HK_FAMILY_LATTICE);
    assert_int_equal(hk_family_max_degree(&w->families[0], 0, w->p.count), 0);
    assert_int_equal(hk_colour_family(&w->families[0], 0, w->p.count), 0); /* no-op */
    assert_null(w->families[0].colour_start);
    /* a list body after the cloth (its particles from 16 on): a hub at the second end of its 10 springs */
    hk_vec3 pos[11];
    double mass[11];
    int a[10], b[10];
    for (int i = 0; i < 11; i++) {
        pos[i] = (hk_vec3){0.1 * i, 1, 0.01 * i * i};
        mass[i] = 0.01;
    }
    for (int i = 0; i < 10; i++) a[i] = i + 1, b[i] = 0;
    const int body = hk_world_add_points(w, 11, pos, NULL, mass);
    assert_true(body > 0);
    const hk_spring_params sp = hk_default_spring_params();
    const int star = hk_world_add_springs(w, body, 10, a, b, &sp);
    assert_true(star > 0);
    const hk_body *bd = &w->bodies[body];
    assert_int_equal(bd->first, 16);
    assert_int_equal(hk_family_max_degree(&w->families[star], bd->first, bd->count), 10);
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_graphs),
        cmocka_unit_test(test_lattice_topologies),
        cmocka_unit_test(test_meshes),
        cmocka_unit_test(test_bands),
        cmocka_unit_test(test_broken_flags_move),
        cmocka_unit_test(test_overflow_colour),
        cmocka_unit_test(test_max_degree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
