/* test_colouring.c — greedy edge colouring of list families (colour.h) and RCM particle reordering: invariants. */
#include "hk_test_forces.h"

#include "colour.h"
#include "forces.h"
#include "kernels.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

/* ------------------------------------------------------------------------ */
/* Graphs as edge lists                                                      */

typedef struct graph {
    char name[64];
    int n;      /* particles */
    int m, cap; /* springs */
    int *a, *b;
} graph;

static void graph_init(graph *g, const char *name, int n)
{
    memset(g, 0, sizeof *g);
    snprintf(g->name, sizeof g->name, "%s", name);
    g->n = n;
}

static void graph_add(graph *g, int a, int b)
{
    assert_true(a >= 0 && a < g->n && b >= 0 && b < g->n && a != b);
    if (g->m == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->a = realloc(g->a, (size_t)g->cap * sizeof *g->a);
        g->b = realloc(g->b, (size_t)g->cap * sizeof *g->b);
        assert_non_null(g->a);
        assert_non_null(g->b);
    }
    g->a[g->m] = a;
    g->b[g->m] = b;
    g->m++;
}

static void graph_free(graph *g)
{
    free(g->a);
    free(g->b);
}

/* Random multigraph: m endpoint pairs drawn uniformly (a != b; repeated pairs
 * allowed, they are legal list springs and harder to colour). */
static void random_graph(graph *g, int n, int avg_degree, uint64_t seed)
{
    char name[64];
    snprintf(name, sizeof name, "random n=%d d=%d seed=%llu", n, avg_degree, (unsigned long long)seed);
    graph_init(g, name, n);
    hk_test_rng r = {seed * 7919u};
    const int m = n * avg_degree / 2;
    for (int s = 0; s < m; s++) {
        int a = hk_test_below(&r, n), b = hk_test_below(&r, n);
        if (a == b) b = (a + 1) % n;
        graph_add(g, a, b);
    }
}

/* A few hubs joined to many random particles: very uneven degrees. */
static void hub_graph(graph *g, int n, int hubs, int hub_degree, uint64_t seed)
{
    graph_init(g, "random hubs", n);
    hk_test_rng r = {seed};
    for (int h = 0; h < hubs; h++)
        for (int e = 0; e < hub_degree; e++) {
            int b = hubs + hk_test_below(&r, n - hubs);
            graph_add(g, h, b);
        }
    for (int s = 0; s < n; s++) { /* a sparse background */
        int a = hubs + hk_test_below(&r, n - hubs), b = hubs + hk_test_below(&r, n - hubs);
        if (a != b) graph_add(g, a, b);
    }
}

/* Cloth nx x ny: structural (1,0) (0,1), shear (1,1) (1,-1), bend (2,0) (0,2). */
static void cloth_graph(graph *g, int nx, int ny)
{
    graph_init(g, "cloth struct+shear+bend", nx * ny);
    static const int off[6][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}, {2, 0}, {0, 2}};
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            for (int o = 0; o < 6; o++) {
                int i2 = i + off[o][0], j2 = j + off[o][1];
                if (i2 >= 0 && i2 < nx && j2 >= 0 && j2 < ny) graph_add(g, i + nx * j, i2 + nx * j2);
            }
}

/* Jelly n^3 lattice: every node to its 26 neighbours (offsets in {-1,0,1}^3),
 * and with ring2 also to those offsets x 2 (52 neighbours). Each pair once:
 * only offsets pointing forward in memory. */
static void jelly_graph(graph *g, int n, int ring2)
{
    graph_init(g, ring2 ? "jelly 52-neighbour" : "jelly 26-neighbour", n * n * n);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                for (int ring = 1; ring <= (ring2 ? 2 : 1); ring++)
                    for (int dk = -1; dk <= 1; dk++)
                        for (int dj = -1; dj <= 1; dj++)
                            for (int di = -1; di <= 1; di++) {
                                if (!(dk > 0 || (dk == 0 && (dj > 0 || (dj == 0 && di > 0))))) continue;
                                int i2 = i + ring * di, j2 = j + ring * dj, k2 = k + ring * dk;
                                if (i2 < 0 || i2 >= n || j2 < 0 || j2 >= n || k2 < 0 || k2 >= n) continue;
                                graph_add(g, i + n * (j + n * k), i2 + n * (j2 + n * k2));
                            }
}

/* Triangle mesh of a torus, nu x nv quads each split by one diagonal: every
 * vertex has degree 6. */
static void torus_graph(graph *g, int nu, int nv)
{
    graph_init(g, "torus triangle mesh", nu * nv);
    for (int v = 0; v < nv; v++)
        for (int u = 0; u < nu; u++) {
            int p = u + nu * v;
            graph_add(g, p, (u + 1) % nu + nu * v);
            graph_add(g, p, u + nu * ((v + 1) % nv));
            graph_add(g, p, (u + 1) % nu + nu * ((v + 1) % nv));
        }
}

/* Complete graph K_n (the all_to_all rope). */
static void complete_graph(graph *g, int n)
{
    graph_init(g, "complete (all_to_all)", n);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) graph_add(g, a, b);
}

/* A star with more leaves than HK_MAX_COLOURS: forces the overflow colour. */
static void star_graph(graph *g, int leaves)
{
    graph_init(g, "star (overflow)", leaves + 1);
    for (int l = 1; l <= leaves; l++) graph_add(g, 0, l);
    for (int l = 1; l < leaves; l += 2) graph_add(g, l, l + 1); /* a rim, so other colours have company */
}

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

/* One spring as a sortable record. */
typedef struct spring_rec {
    int lo, hi;
    hk_real rest;
    int broken;
} spring_rec;

static int rec_cmp(const void *pa, const void *pb)
{
    const spring_rec *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    if (a->rest != b->rest) return a->rest < b->rest ? -1 : 1;
    return a->broken - b->broken;
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
#ifdef HOOKE_USE_OPENMP
                omp_set_num_threads(t);
#else
                if (t > 1) break;
#endif
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
#ifdef HOOKE_USE_OPENMP
        omp_set_num_threads(1);
#endif
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
    hk_world_destroy(w);
}

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
        cmocka_unit_test(test_random_graphs),
        cmocka_unit_test(test_lattice_topologies),
        cmocka_unit_test(test_meshes),
        cmocka_unit_test(test_bands),
        cmocka_unit_test(test_broken_flags_move),
        cmocka_unit_test(test_overflow_colour),
        cmocka_unit_test(test_max_degree),
        cmocka_unit_test(test_reorder_rcm),
        cmocka_unit_test(test_reorder_lattice_and_errors),
        cmocka_unit_test(test_reorder_second_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
