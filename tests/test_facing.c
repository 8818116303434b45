/* test_facing.c — facing.h: the triangles of closed body surfaces turned outward, open ones left unknown. */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include <math.h>
#include <stdlib.h>

#include "facing.h"
#include "geometry.h"
#include "scene.h"
#include "world.h"

#define SCENE(name) HOOKE_SCENES_DIR "/" name

/* Scene path's surface triangles, their signs (facing.h) into *sign; its geometry into g. */
static hk_scene load(const char *path, hk_geometry *g, signed char **sign)
{
    hk_scene sc;
    char err[1024];
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    assert_int_equal(hk_geometry_build(sc.world, g), 0);
    *sign = malloc((size_t)g->tris + 1);
    assert_non_null(*sign);
    assert_int_equal(hk_facing_outward(g, *sign), 0);
    return sc;
}

/* Closed surfaces at rest (jelly boxes, an icosphere): every triangle gets a sign, and turned by it each one's
 * normal points away from its body's centre. */
static void test_facing_closed(void **state)
{
    (void)state;
    const char *scenes[] = {SCENE("jelly_pile.scene"), SCENE("pressure_ball.scene")};
    for (int s = 0; s < 2; s++) {
        hk_geometry g;
        signed char *sign;
        hk_scene sc = load(scenes[s], &g, &sign);
        const hk_world *w = sc.world;
        assert_true(g.tris > 0);
        int64_t out = 0;
        for (int64_t t = 0; t < g.tris; t++) {
            const hk_body *b = &w->bodies[g.tri_body[t]];
            double centre[3] = {0, 0, 0}, mid[3] = {0, 0, 0}, e[2][3];
            for (int i = b->first; i < b->first + b->count; i++)
                for (int c = 0; c < 3; c++) centre[c] += g.pos[3 * (size_t)i + c] / b->count;
            const int32_t *v = g.tri + 3 * t;
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) mid[c] += g.pos[3 * (size_t)v[k] + c] / 3;
                e[0][c] = g.pos[3 * (size_t)v[1] + c] - g.pos[3 * (size_t)v[0] + c];
                e[1][c] = g.pos[3 * (size_t)v[2] + c] - g.pos[3 * (size_t)v[0] + c];
            }
            const double n[3] = {e[0][1] * e[1][2] - e[0][2] * e[1][1], e[0][2] * e[1][0] - e[0][0] * e[1][2],
                                 e[0][0] * e[1][1] - e[0][1] * e[1][0]};
            const double d = n[0] * (mid[0] - centre[0]) + n[1] * (mid[1] - centre[1]) + n[2] * (mid[2] - centre[2]);
            out += sign[t] * d > 0;
        }
        print_message("%s: %lld of %lld triangles turned outward\n", scenes[s], (long long)out, (long long)g.tris);
        assert_int_equal(out, g.tris);
        free(sign);
        hk_geometry_free(&g);
        hk_scene_free(&sc);
    }
}

/* An open surface (a cloth) has no inside: none of its triangles gets a sign, so none is culled. */
static void test_facing_open(void **state)
{
    (void)state;
    hk_geometry g;
    signed char *sign;
    hk_scene sc = load(SCENE("cloth_fold.scene"), &g, &sign);
    assert_true(g.tris > 0);
    for (int64_t t = 0; t < g.tris; t++) assert_int_equal(sign[t], 0);
    free(sign);
    hk_geometry_free(&g);
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_facing_closed),
        cmocka_unit_test(test_facing_open),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
