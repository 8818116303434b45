/* test_pictures.c — PNG frames: the bodies in view at every step, the ground and spheres drawn, the same bytes for the
 * same state, and what the caption and the colour bar say. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_png.h"
#include "hk_test_text.h"

#include "geometry.h"
#include "render.h"
#include "scene.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* Pixel (x, y) of p. */
static const unsigned char *px(const hk_png *p, int x, int y)
{
    return p->rgb + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
}

static int spread(const unsigned char *q)
{
    const int hi = q[0] > q[1] ? (q[0] > q[2] ? q[0] : q[2]) : (q[1] > q[2] ? q[1] : q[2]);
    const int lo = q[0] < q[1] ? (q[0] < q[2] ? q[0] : q[2]) : (q[1] < q[2] ? q[1] : q[2]);
    return hi - lo;
}

/* Pixels of the scene's viewport (render.h) that show a body: the stretch colours are all saturated (their channels
 * at least 40 apart, shaded too), while the background, the ground, shadows, spheres and text are greys. */
static int body_pixels(const hk_png *p)
{
    double vp[4];
    hk_render_viewport(p->w, p->h, vp);
    int n = 0;
    for (int y = (int)vp[1]; y < (int)vp[3]; y++)
        for (int x = (int)vp[0]; x < (int)vp[2]; x++) n += spread(px(p, x, y)) >= 40;
    return n;
}

/* Pixels of the sphere's shading: bluish greys (blue above red, channels within 40, not dark), which neither the
 * background, the ground (warm greys), shadows nor text have; a few hundred where a body's edge blends into the
 * background. */
static int sphere_pixels(const hk_png *p)
{
    double vp[4];
    hk_render_viewport(p->w, p->h, vp);
    int n = 0;
    for (int y = (int)vp[1]; y < (int)vp[3]; y++)
        for (int x = (int)vp[0]; x < (int)vp[2]; x++) {
            const unsigned char *q = px(p, x, y);
            n += spread(q) < 40 && q[2] >= q[0] + 3 && q[0] >= 100;
        }
    return n;
}

/* The ground's own colour (render.c `stage`), where no grid line or shadow lies. */
static int ground_pixels(const hk_png *p) { return hk_test_png_count(p, 0, p->h, 224, 222, 216); }

/* Runs scene to its end (last steps), a frame every `every` steps into dir, and checks every frame: at least
 * min_body pixels of bodies, and at least min_ground of the ground's colour and min_sphere of the sphere's. */
static void check_frames(const char *scene, int last, int every, int min_body, int min_ground, int min_sphere)
{
    char dir[256], args[1024];
    snprintf(dir, sizeof dir, "%s", hk_test_path(scene));
    snprintf(args, sizeof args, "run " SCENE("%s") " --every %d --out '%s' --format png --quiet", scene, every, dir);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0) {
        print_error("%s: status %d, stderr %s\n", scene, r.status, r.err);
        fail();
    }
    hk_run_free(&r);
    for (int step = 0; step <= last; step += every) {
        char path[512];
        snprintf(path, sizeof path, "%s/frame_%06d.png", dir, step);
        hk_png p = hk_test_png_read(path);
        assert_int_equal(p.w, 640);
        assert_int_equal(p.h, 480);
        const int body = body_pixels(&p), ground = ground_pixels(&p), sphere = sphere_pixels(&p);
        free(p.rgb);
        if (body < min_body || ground < min_ground || sphere < min_sphere) {
            print_error("%s at step %d: %d body, %d ground and %d sphere pixels of 640 x 480\n", scene, step, body,
                        ground, sphere);
            fail();
        }
    }
}

/* The shipped scenes whose bodies once left the first frame's view: in every frame to the last step they cover at
 * least 5 % of the picture (the torn curtain, lying flat on the ground and seen at 30 degrees, 2.5 %), and the
 * jelly's ground and sphere are drawn. A scene without ground or spheres shows neither. */
static void test_frames_follow_bodies(void **state)
{
    (void)state;
    const int area = 640 * 480;
    check_frames("jelly26.scene", 6000, 500, area / 20, area / 20, 2000);
    check_frames("tearing_cloth.scene", 3000, 500, area / 40, area / 20, 0);
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("corners"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 40 --every 40 --out '%s' --format png --quiet", dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000040.png", dir);
    hk_png p = hk_test_png_read(path);
    if (body_pixels(&p) < area / 20 || ground_pixels(&p) != 0 || sphere_pixels(&p) > 400) {
        print_error("cloth_corners: %d body, %d ground, %d sphere pixels\n", body_pixels(&p), ground_pixels(&p),
                    sphere_pixels(&p));
        fail();
    }
    free(p.rgb);
}

/* A closed surface casts a shadow: the pressure ball above the ground darkens a disc of it (the ground's colour
 * under the shadow's 16 % black, about 188,186,181). Its upper and lower faces, dropped onto the ground, turn
 * opposite ways; drawn as they come they cancelled to no shadow at all. */
static void test_closed_mesh_shadow(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("ball"));
    snprintf(args, sizeof args, "run " SCENE("pressure_ball.scene") " --steps 1 --out '%s' --format png --quiet", dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000000.png", dir);
    hk_png p = hk_test_png_read(path);
    int shadow = 0;
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < p.w; x++) {
            const unsigned char *q = px(&p, x, y);
            shadow += abs(q[0] - 188) <= 2 && abs(q[1] - 186) <= 2 && abs(q[2] - 181) <= 2;
        }
    free(p.rgb);
    if (shadow < 5000) {
        print_error("pressure_ball: %d shadow pixels under the ball, want >= 5000\n", shadow);
        fail();
    }
}

/* The whole file at path into *n bytes (malloc'd). */
static unsigned char *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_error("%s: cannot open\n", path);
        fail();
    }
    size_t cap = 1 << 16;
    unsigned char *b = malloc(cap);
    assert_non_null(b);
    *n = 0;
    for (size_t got; (got = fread(b + *n, 1, cap - *n, f)) > 0;) {
        *n += got;
        if (*n == cap) {
            b = realloc(b, cap *= 2);
            assert_non_null(b);
        }
    }
    fclose(f);
    return b;
}

/* The same state gives the same bytes: frames of runs on 1 and 2 threads (the same states, tests/test_golden.c)
 * are equal files, and frames of different states are not. */
static void test_frames_deterministic(void **state)
{
    (void)state;
    char a[256], b[256], args[1024];
    snprintf(a, sizeof a, "%s", hk_test_path("det1"));
    snprintf(b, sizeof b, "%s", hk_test_path("det2"));
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args,
                 "run " SCENE("jelly26.scene") " --steps 400 --every 200 --out '%s' --format png --quiet", k ? b : a);
        hk_run r = hk_test_hooke(k ? "OMP_NUM_THREADS=2" : "OMP_NUM_THREADS=1", args);
        assert_int_equal(r.status, 0);
        hk_run_free(&r);
    }
    unsigned char *frame[2][3];
    size_t len[2][3];
    for (int k = 0; k < 2; k++)
        for (int f = 0; f < 3; f++) {
            char path[512];
            snprintf(path, sizeof path, "%s/frame_%06d.png", k ? b : a, 200 * f);
            frame[k][f] = read_bytes(path, &len[k][f]);
        }
    for (int f = 0; f < 3; f++) {
        assert_int_equal(len[0][f], len[1][f]);
        assert_memory_equal(frame[0][f], frame[1][f], len[0][f]);
    }
    assert_true(len[0][1] != len[0][2] || memcmp(frame[0][1], frame[0][2], len[0][1]) != 0);
    for (int k = 0; k < 2; k++)
        for (int f = 0; f < 3; f++) free(frame[k][f]);
}

/* What a frame says (the canvas's text hook, in this process): the time with the step's decimals and the step, the
 * colour bar's title and ticks, the ground grid's spacing. */
static void test_frame_text(void **state)
{
    (void)state;
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_load(HOOKE_SCENES_DIR "/jelly26.scene", &sc, err, sizeof err), 0);
    for (int i = 0; i < 30; i++) hk_world_step(sc.world);
    hk_geometry g;
    assert_int_equal(hk_geometry_build(sc.world, &g), 0);
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_render_png(hk_test_path("text.png"), sc.world, &g, 640, 480);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    /* dt = 5e-4 s: four decimals */
    hk_texts_expect(t, HK_TEXT_CAPTION, "t = 0.0150 s    step 30");
    hk_texts_expect(t, HK_TEXT_CAPTION, "stretch");
    hk_texts_expect(t, HK_TEXT_CAPTION, "r/L\u2080");
    static const char *const ticks[] = {"0.8", "0.9", "1", "1.1", "1.2"};
    for (int i = 0; i < 5; i++) hk_texts_expect(t, HK_TEXT_TICK, ticks[i]);
    int notes = 0;
    for (int i = 0; i < t->n; i++)
        if (t->role[i] == HK_TEXT_NOTE) {
            notes++;
            assert_true(strncmp(t->text[i], "ground grid ", 12) == 0);
        }
    assert_int_equal(notes, 1);
    free(t);
    /* the stretch colours: blue, green at rest, red; clamped past the ends, red where there is no number */
    const hk_rgb lo = hk_render_stretch_colour(0.5), rest = hk_render_stretch_colour(1),
                 hi = hk_render_stretch_colour(2);
    assert_true(lo.b > lo.r && lo.b > lo.g && rest.g > rest.r && rest.g > rest.b && hi.r > hi.g && hi.r > hi.b);
    assert_true(lo.r == 45 && lo.g == 75 && lo.b == 200); /* the first stop of render.c's map */
    const hk_rgb nan = hk_render_stretch_colour(NAN);
    assert_memory_equal(&nan, &hi, sizeof hi);
    hk_geometry_free(&g);
    hk_scene_free(&sc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_follow_bodies),
        cmocka_unit_test(test_closed_mesh_shadow),
        cmocka_unit_test(test_frames_deterministic),
        cmocka_unit_test(test_frame_text),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_canvas_release_fonts(); /* the program's end: cairo's and fontconfig's caches released (leak check) */
    hk_test_cleanup();
    return rc;
}
