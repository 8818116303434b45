/* test_pair_search.c — contact's search structures: the grid's boxes met once each, non-finite boxes left out, the
 * neighbour masks as the neighbours. */
/* SPDX-License-Identifier: MIT */
#include "hk_test_pairs.h"

#include "pair_grid.h"
#include "pair_neighbours.h"
#include "pair_search.h"
#include "pairs.h"
#include "scene.h"
#include "world.h"

static hk_world *load(const char *text) { return hk_test_scene_world(text, "test_pair_search.scene"); }
/* The broad phase's grid over a finite box and one that is not (a blown-up step's particle: NaN and infinite
 * bounds): the second covers no cell and lands in no bucket, so no cell index is made from a NaN or an
 * infinity and no loop runs over the cells between. */
static void test_grid_leaves_out_non_finite_boxes(void **state)
{
    (void)state;
    const pair_box b[3] = {
        {{0, 0, 0}, {0.1, 0.1, 0.1}}, {{NAN, 0, 0}, {INFINITY, 0.1, 0.1}}, {{-INFINITY, 0, 0}, {0.05, 0.1, 0.1}}};
    pair_grid g = {0};
    assert_int_equal(hk_pair_grid_hash(&g, b, 3, b, 3), 0);
    assert_true(g.cell > 0 && isfinite(g.cell));
    int64_t lo[3], hi[3], cells = 1;
    for (int k = 1; k < 3; k++) {
        pair_grid_cells(&g, &b[k], lo, hi);
        for (int c = 0; c < 3; c++) assert_true(hi[c] < lo[c]);
    }
    pair_grid_cells(&g, &b[0], lo, hi);
    for (int c = 0; c < 3; c++) {
        assert_true(hi[c] >= lo[c]);
        cells *= hi[c] - lo[c] + 1;
    }
    assert_int_equal(g.start[g.mask + 1], cells); /* every entry is the finite box's */
    for (int64_t e = 0; e < cells; e++) assert_int_equal(g.item[e], 0);
    hk_pair_grid_free(&g);
    /* the rows alike: a query over all three meets the finite box alone */
    pair_grid r = {0};
    const pair_tiles t = {3, (pair_box *)b, NULL};
    const pair_box all = {{-10, -10, -10}, {10, 10, 10}};
    int32_t near[4] = {-1, -1, -1, -1};
    uint8_t seen[4] = {0};
    assert_int_equal(hk_pair_grid_rows(&r, b, 3), 0);
    assert_int_equal(hk_pair_tiles_near(&r, &t, &all, 0, near, seen), 1);
    assert_int_equal(near[0], 0);
    hk_pair_grid_free(&r);
}

/* Every query's list against every tile's box tested in turn (test_tiles_met_once_each); every third query's
 * from a tile on (an edge's search lists the tiles from its own on). */
static void tiles_met_once_each(const pair_grid *g, const pair_tiles *t, const pair_box *q, int nq)
{
    int32_t near[512];
    uint8_t seen[512] = {0};
    int64_t listed = 0, most = 0;
    assert_true(t->n <= 512);
    for (int k = 0; k < nq; k++) {
        const int32_t from = k % 3 == 2 ? (int32_t)(k * 37 % t->n) : 0;
        const int64_t m = hk_pair_tiles_near(g, t, &q[k], from, near, seen);
        int64_t want = 0;
        for (int32_t i = from; i < t->n; i++) {
            if (!pair_box_finite(&t->box[i]) || !pair_box_finite(&q[k]) || !pair_box_overlap(&q[k], &t->box[i]))
                continue;
            assert_true(want < m);
            assert_int_equal(near[want], i);
            want++;
        }
        assert_int_equal(m, want);
        listed += m, most = m > most ? m : most;
    }
    for (int i = 0; i < 512; i++) assert_int_equal(seen[i], 0);
    print_message("%lld tiles listed for %d queries, at most %lld for one\n", (long long)listed, nq, (long long)most);
    assert_true(listed > nq / 4 && most > 32); /* the lists are not empty, nor of one tile each */
}

/* A query lists every tile whose box overlaps its own, once each, ascending: 500 primitives' boxes, 1 cm, in tiles
 * around points scattered over a metre cube (every 13th tile's 30 cm, a thousand cells of the grid, so that the hash
 * puts such a tile in one bucket for several of its cells; some boxes not finite), queried with 200 boxes of 5 cm
 * and 40 cm (one of 3 m, meeting them all; one not finite, meeting none), against every tile's box tested in turn:
 * through the hash, and through the rows (what a grid over so few tiles holds). */
static void test_tiles_met_once_each(void **state)
{
    (void)state;
    enum { N = 500, Q = 200 };
    pair_box b[N], q[Q];
    uint64_t r = 12345;
    double at[3] = {0, 0, 0};
    for (int k = 0; k < N + Q; k++) {
        pair_box *x = k < N ? &b[k] : &q[k - N];
        const int fresh = k >= N || k % PAIR_TILE == 0; /* a tile's primitives lie around one point */
        const double side = k < N ? (k / PAIR_TILE % 13 == 0 ? 0.3 : 0.01) : (k % 9 == 0 ? 0.4 : 0.05);
        for (int c = 0; c < 3; c++) {
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            const double u = (double)(r >> 11) / 0x1p53;
            if (fresh) at[c] = u;
            x->lo[c] = at[c] + 0.02 * u, x->hi[c] = x->lo[c] + side;
        }
    }
    for (int c = 0; c < 3; c++) q[0].lo[c] = -1, q[0].hi[c] = 2; /* one query meets every tile: a long list */
    q[1].lo[0] = -INFINITY;                                      /* and one meets none */
    b[7].lo[0] = NAN, b[100].hi[1] = INFINITY,
    b[104].lo[2] = -INFINITY; /* a blown-up primitive takes part in nothing */
    pair_tiles t = {0};
    assert_int_equal(hk_pair_tiles_build(&t, b, N), 0);
    assert_int_equal(t.n, (N + PAIR_TILE - 1) / PAIR_TILE);
    assert_true(t.n <= PAIR_GRID_SCAN);
    for (int kind = 0; kind < 2; kind++) {
        pair_grid g = {0};
        assert_int_equal(kind ? hk_pair_grid_rows(&g, t.box, t.n) : hk_pair_grid_hash(&g, t.box, t.n, t.box, t.n), 0);
        if (kind) {
            pair_grid built = {0}; /* what the search builds over so few: the rows */
            assert_int_equal(hk_pair_grid_build(&built, t.box, t.n, t.box, t.n), 0);
            assert_true(built.rows && built.n == t.n);
            hk_pair_grid_free(&built);
        }
        tiles_met_once_each(&g, &t, q, Q);
        hk_pair_grid_free(&g);
    }
    for (int i = 0; i < N; i++) assert_int_equal(t.in[i], i != 7 && i != 100 && i != 104);
    hk_pair_tiles_free(&t);
}

/* Tile table nb (of the query primitives qc, qn corners each, nq of them, against the targets tc) against
 * pair_neighbours of every query and target of the same body; how many of the lanes are neighbours. */
static int64_t tile_nb_exact(const hk_world *w, const hk_pairs *pr, const hk_pair_tile_nb *nb, const int32_t *qc,
                             int qn, int64_t nq, const int32_t *tc, int tn, int64_t nt)
{
    const int64_t qt = (nq + PAIR_TILE - 1) / PAIR_TILE, tt = (nt + PAIR_TILE - 1) / PAIR_TILE;
    int32_t *all = malloc((size_t)tt * sizeof *all);
    uint64_t *mask = malloc((size_t)tt * sizeof *mask);
    assert_true(all && mask);
    for (int64_t k = 0; k < tt; k++) all[k] = (int32_t)k;
    int64_t found = 0;
    for (int64_t q = 0; q < qt; q++) {
        pair_tile_nb_masks(nb, q, all, tt, mask);
        for (int64_t p = q * PAIR_TILE; p < nq && p < (q + 1) * PAIR_TILE; p++)
            for (int64_t t = 0; t < nt; t++) {
                int near = 0;
                for (int x = 0; x < qn; x++)
                    for (int y = 0; y < tn; y++) {
                        const int a = qc ? qc[qn * p + x] : (int)p, c = tc[tn * t + y], b = hk_body_of(w, a);
                        near |= b == hk_body_of(w, c) && pair_neighbours(pr, b, a, c);
                    }
                const unsigned lanes = pair_tile_nb_lanes(mask[t / PAIR_TILE], (int)(p - q * PAIR_TILE));
                if (near != (int)(lanes >> (t % PAIR_TILE) & 1)) {
                    print_error("query %lld, target %lld: neighbours %d, the tile's mask says %d\n", (long long)p,
                                (long long)t, near, !near);
                    fail();
                }
                found += near;
            }
    }
    free(all), free(mask);
    return found;
}

/* The search leaves out a query's topological neighbours by each tile's mask of them, built once with the
 * surfaces: every mask is pair_neighbours of every query and target of the same body, for a cloth (a stencil of
 * reach 2 in a plane), a jelly cube (reach 1 in space) and an icosphere (a listed body: its springs' particles). */
static void test_neighbour_lanes_are_the_neighbours(void **state)
{
    (void)state;
    const char *scenes[] = {
        CLOTH_ON_JELLY("semi_implicit_euler", "0.004", "  dt_max 5e-4\n"),
        "world\n  gravity 0 -9.81 0\nend\n"
        "body icosphere\n  radius 0.2\n  level 2\n  center 0 0.6 0\n  mass 0.005\n  nrt 300\n"
        "  springs edges k 400 damping 0.5\nend\n" FOLD_CONTACT
        "run\n  integrator semi_implicit_euler\n  dt 1e-3\nend\n",
    };
    for (int s = 0; s < 2; s++) {
        hk_world *w = load(scenes[s]);
        hk_test_steps(w, 1); /* the surfaces, and their tables */
        const hk_pairs *pr = hk_pairs_of(w);
        assert_non_null(pr);
        assert_true(pr->ntri > 0 && pr->nedge > 0);
        const int64_t vt = tile_nb_exact(w, pr, &pr->vt_nb, NULL, 1, w->p.count, pr->tri, 3, pr->ntri);
        const int64_t ee = tile_nb_exact(w, pr, &pr->ee_nb, pr->edge, 2, pr->nedge, pr->edge, 2, pr->nedge);
        print_message("scene %d: %d particles, %lld triangles, %lld edges: %lld particle-triangle and %lld edge-edge "
                      "neighbours\n",
                      s, w->p.count, (long long)pr->ntri, (long long)pr->nedge, (long long)vt, (long long)ee);
        assert_true(vt > 0 && vt < (int64_t)w->p.count * pr->ntri); /* some neighbours, not all */
        assert_true(ee > 0 && ee < pr->nedge * pr->nedge);
        hk_world_destroy(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_leaves_out_non_finite_boxes),
        cmocka_unit_test(test_tiles_met_once_each),
        cmocka_unit_test(test_neighbour_lanes_are_the_neighbours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
