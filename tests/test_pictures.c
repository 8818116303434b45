/* test_pictures.c — PNG frames: one camera and one colour range for a run (continued by a restart), the bodies in
 * view at every step, the ground and spheres drawn, the same bytes for the same state, what the caption and bar say. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_png.h"
#include "hk_test_text.h"

#include <errno.h>

#include "geometry.h"
#include "png_write.h"
#include "render.h"
#include "scene.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* Runs `hooke ARGS`, which must exit 0. */
static void hooke_ok(const char *args)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0) {
        print_error("hooke %s: status %d, stderr %s\n", args, r.status, r.err);
        fail();
    }
    hk_run_free(&r);
}

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

/* Pixels on the viewport's edge (its outermost rows and columns) that are not the background: where a body, the
 * ground or a sphere is cut by the edge of the picture or by the colour bar beside it. */
static int cut_pixels(const hk_png *p)
{
    double vp[4];
    hk_render_viewport(p->w, p->h, vp);
    const int x0 = (int)vp[0], x1 = (int)vp[2] - 1, y0 = (int)vp[1], y1 = (int)vp[3] - 1;
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            if (y != y0 && y != y1 && x != x0 && x != x1) continue;
            const unsigned char *q = px(p, x, y);
            n += q[0] != 246 || q[1] != 246 || q[2] != 243; /* render.c `background` */
        }
    return n;
}

/* Runs scene to its end (last steps), a frame every `every` steps into dir, and checks every frame: at least
 * min_body pixels of bodies, and at least min_ground of the ground's colour and min_sphere of the sphere's, and
 * nothing cut at the viewport's edge. */
static void check_frames(const char *scene, int last, int every, int min_body, int min_ground, int min_sphere)
{
    char dir[256], args[1024];
    snprintf(dir, sizeof dir, "%s", hk_test_path(scene));
    snprintf(args, sizeof args, "run " SCENE("%s") " --every %d --out '%s' --format png --quiet", scene, every, dir);
    hooke_ok(args);
    for (int step = 0; step <= last; step += every) {
        char path[512];
        snprintf(path, sizeof path, "%s/frame_%06d.png", dir, step);
        hk_png p = hk_test_png_read(path);
        assert_int_equal(p.w, 640);
        assert_int_equal(p.h, 480);
        const int body = body_pixels(&p), ground = ground_pixels(&p), sphere = sphere_pixels(&p), cut = cut_pixels(&p);
        free(p.rgb);
        if (body < min_body || ground < min_ground || sphere < min_sphere || cut > 0) {
            print_error("%s at step %d: %d body, %d ground and %d sphere pixels of 640 x 480, %d cut at the edge\n",
                        scene, step, body, ground, sphere, cut);
            fail();
        }
    }
}

/* The shipped scenes whose bodies once left the first frame's view, each drawn by the run's one camera: in every
 * frame to the last step the bodies are there whole (nothing cut at the viewport's edge, the floor not cut by the
 * colour bar) and cover at least 1 % of the picture (the torn curtain, shreds lying on the ground seen at 30
 * degrees, 300 pixels), and the jelly's ground and sphere are drawn. A scene without ground or spheres shows
 * neither. */
static void test_frames_follow_bodies(void **state)
{
    (void)state;
    const int area = 640 * 480;
    check_frames("jelly26.scene", 6000, 500, area / 100, area / 20, 2000);
    check_frames("tearing_cloth.scene", 3000, 500, 300, area / 20, 0);
    check_frames("pressure_ball.scene", 1000, 100, area / 100, area / 20, 0);
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("corners"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 40 --every 40 --out '%s' --format png --quiet", dir);
    hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000040.png", dir);
    hk_png p = hk_test_png_read(path);
    if (body_pixels(&p) < area / 50 || ground_pixels(&p) != 0 || sphere_pixels(&p) > 400) {
        print_error("cloth_corners: %d body, %d ground, %d sphere pixels\n", body_pixels(&p), ground_pixels(&p),
                    sphere_pixels(&p));
        fail();
    }
    free(p.rgb);
}

/* A closed surface casts a shadow: the pressure ball above the ground darkens a disc of it (the ground's colour
 * under the shadow's 16 % black, about 188,186,181; its 0.2 m radius at the run's camera, about 3500 pixels). Its
 * upper and lower faces, dropped onto the ground, turn opposite ways; drawn as they come they cancelled to no shadow
 * at all (90 pixels). */
static void test_closed_mesh_shadow(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("ball"));
    snprintf(args, sizeof args, "run " SCENE("pressure_ball.scene") " --steps 1 --out '%s' --format png --quiet", dir);
    hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000000.png", dir);
    hk_png p = hk_test_png_read(path);
    int shadow = 0;
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < p.w; x++) {
            const unsigned char *q = px(&p, x, y);
            shadow += abs(q[0] - 188) <= 2 && abs(q[1] - 186) <= 2 && abs(q[2] - 181) <= 2;
        }
    free(p.rgb);
    if (shadow < 2500) {
        print_error("pressure_ball: %d shadow pixels under the ball, want >= 2500\n", shadow);
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

/* The mean screen row of the body pixels of a frame file. */
static double body_row(const char *path)
{
    hk_png p = hk_test_png_read(path);
    double vp[4], sum = 0;
    hk_render_viewport(p.w, p.h, vp);
    int n = 0;
    for (int y = (int)vp[1]; y < (int)vp[3]; y++)
        for (int x = (int)vp[0]; x < (int)vp[2]; x++)
            if (spread(px(&p, x, y)) >= 40) {
                sum += y;
                n++;
            }
    free(p.rgb);
    assert_true(n > 0);
    return sum / n;
}

/* The rows of DIR/frames_png.csv, each as its fields. */
typedef struct index_row {
    long long step;
    double f[10]; /* time, stretch_min, stretch_max, box x0 y0 z0 x1 y1 z1, grid */
} index_row;

static int read_index(const char *dir, index_row *rows, int max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/frames_png.csv", dir);
    char *text = hk_test_slurp(path);
    assert_non_null(text);
    const char *line = strchr(text, '\n');
    assert_non_null(line);
    int n = 0;
    while (line && line[1] && n < max) {
        index_row *r = &rows[n++];
        assert_int_equal(sscanf(line + 1, "%lld,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg,%lg", &r->step, &r->f[0], &r->f[1],
                                &r->f[2], &r->f[3], &r->f[4], &r->f[5], &r->f[6], &r->f[7], &r->f[8], &r->f[9]),
                         11);
        line = strchr(line + 1, '\n');
    }
    free(text);
    return n;
}

/* A cloth hung by two corners falls, seen by one camera for the run: every frame's index row has the same box and
 * grid, and the cloth goes down the picture (by more than 20 pixels in each 0.15 s; a camera fitted to each frame
 * kept it in the middle, so it looked still). */
static void test_camera_fixed(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("falling"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 1200 --every 600 --out '%s' --format png --quiet", dir);
    hooke_ok(args);
    index_row rows[8];
    assert_int_equal(read_index(dir, rows, 8), 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(rows[i].step, 600 * i);
        for (int k = 3; k < 10; k++) assert_true(rows[i].f[k] == rows[0].f[k]);
    }
    double row[3];
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/frame_%06d.png", dir, 600 * i);
        row[i] = body_row(path);
    }
    if (!(row[1] > row[0] + 20 && row[2] > row[1] + 20)) {
        print_error("cloth_corners: the cloth's mean row %.1f, %.1f, %.1f at steps 0, 600, 1200: want it falling\n",
                    row[0], row[1], row[2]);
        fail();
    }
}

/* The colours are scaled to the run. The pressure ball's springs stretch to about twice their length: its frames
 * widen the range from 0.99 .. 1.01 (at rest) in 1-2-5 steps, never narrower, and at the end at most a tenth of the
 * ball shows the red of the range's end (with the range fixed at 0.8 .. 1.2 it was all red). */
static void test_colour_range(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("ball_colours"));
    snprintf(args, sizeof args, "run " SCENE("pressure_ball.scene") " --every 100 --out '%s' --format png --quiet",
             dir);
    hooke_ok(args);
    index_row rows[16];
    assert_int_equal(read_index(dir, rows, 16), 11);
    assert_true(rows[0].f[1] == 0.99 && rows[0].f[2] == 1.01);
    for (int i = 0; i < 11; i++) {
        const double lo = rows[i].f[1], hi = rows[i].f[2];
        if (i > 0) assert_true(lo <= rows[i - 1].f[1] && hi >= rows[i - 1].f[2]);
        assert_true(fabs(hk_view_step(1 - lo) - (1 - lo)) <= 1e-12 || lo == 0); /* on the 1-2-5 ladder */
        assert_true(fabs(hk_view_step(hi - 1) - (hi - 1)) <= 1e-12 * hi);
    }
    assert_true(rows[10].f[2] >= 2);
    snprintf(path, sizeof path, "%s/frame_001000.png", dir);
    hk_png p = hk_test_png_read(path);
    int body = 0, red = 0;
    for (int i = 0; i < p.w * p.h; i++) {
        const unsigned char *q = p.rgb + 3 * (size_t)i;
        if (spread(q) < 40) continue;
        body++;
        red += q[1] < 0.35 * q[0] && q[2] < 0.35 * q[0];
    }
    free(p.rgb);
    if (body < 5000 || red > body / 10) {
        print_error("pressure_ball at step 1000: %d of %d ball pixels red\n", red, body);
        fail();
    }
}

/* A run stopped after a checkpoint and restarted into the same folder draws with the uninterrupted run's camera
 * and colours: its frames and frames_png.csv equal that run's byte for byte. The pressure ball widens both its box
 * and its range before the checkpoint (step 50), where a view fitted afresh would differ. */
static void test_frames_restart(void **state)
{
    (void)state;
    char whole[256], split[256], ck[256], args[1024];
    snprintf(whole, sizeof whole, "%s", hk_test_path("png_whole"));
    snprintf(split, sizeof split, "%s", hk_test_path("png_split"));
    snprintf(ck, sizeof ck, "%s", hk_test_path("png.ck"));
    const char *common = "run " SCENE("pressure_ball.scene") " --every 10 --format png --quiet";
    snprintf(args, sizeof args, "%s --steps 100 --out '%s'", common, whole);
    hooke_ok(args);
    /* the first part runs past its checkpoint (step 50) to step 60: the restart replaces frames 50 and 60 */
    snprintf(args, sizeof args, "%s --steps 60 --out '%s' --checkpoint '%s' --checkpoint-every 50", common, split, ck);
    hooke_ok(args);
    snprintf(args, sizeof args, "%s --steps 100 --out '%s' --restart '%s'", common, split, ck);
    hooke_ok(args);
    index_row rows[16];
    assert_int_equal(read_index(whole, rows, 16), 11);
    assert_true(rows[5].f[2] > rows[0].f[2] && rows[5].f[7] > rows[0].f[7]); /* range and box widened by step 50 */
    for (int i = -1; i <= 10; i++) { /* the index, then frames 0, 10, ..., 100 */
        char name[64], a[512], b[512];
        if (i < 0)
            snprintf(name, sizeof name, "frames_png.csv");
        else
            snprintf(name, sizeof name, "frame_%06d.png", 10 * i);
        snprintf(a, sizeof a, "%s/%s", whole, name);
        snprintf(b, sizeof b, "%s/%s", split, name);
        size_t na, nb;
        unsigned char *x = read_bytes(a, &na), *y = read_bytes(b, &nb);
        if (na != nb || memcmp(x, y, na) != 0) {
            print_error("%s after the restart differs from the uninterrupted run's\n", name);
            fail();
        }
        free(x);
        free(y);
    }
}

/* jelly26.scene after 30 steps, with its frame's geometry in g. */
static hk_scene jelly_at_step_30(hk_geometry *g)
{
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_load(HOOKE_SCENES_DIR "/jelly26.scene", &sc, err, sizeof err), 0);
    for (int i = 0; i < 30; i++) hk_world_step(sc.world);
    assert_int_equal(hk_geometry_build(sc.world, g), 0);
    return sc;
}

/* What a frame says (the canvas's text hook, in this process): the time with the step's decimals and the step, the
 * colour bar's title and its stops labelled with the view's range (0.9 .. 1.5 here: wider than the frame's stretches,
 * so the frame leaves it as it is), the ground grid's spacing. */
static void test_frame_text(void **state)
{
    (void)state;
    hk_geometry g;
    hk_scene sc = jelly_at_step_30(&g);
    hk_view v;
    assert_int_equal(hk_render_fit(&v, sc.world, &g, 1), 0);
    v.stretch_lo = 0.9;
    v.stretch_hi = 1.5;
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_render_png(hk_test_path("text.png"), sc.world, &g, &v, 640, 480, NULL);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    assert_true(v.stretch_lo == 0.9 && v.stretch_hi == 1.5);
    /* dt = 5e-4 s: four decimals */
    hk_texts_expect(t, HK_TEXT_CAPTION, "t = 0.0150 s    step 30");
    hk_texts_expect(t, HK_TEXT_CAPTION, "stretch");
    hk_texts_expect(t, HK_TEXT_CAPTION, "r/L\u2080");
    static const char *const ticks[] = {"0.9", "0.95", "1", "1.25", "1.5"};
    for (int i = 0; i < 5; i++) hk_texts_expect(t, HK_TEXT_TICK, ticks[i]);
    int notes = 0;
    for (int i = 0; i < t->n; i++)
        if (t->role[i] == HK_TEXT_NOTE) {
            notes++;
            assert_string_equal(t->text[i], "ground grid 20 cm"); /* a 1-2-5 step near a fifth of the 1.05 m box */
        }
    assert_int_equal(notes, 1);
    free(t);
    /* the stretch colours in the range 0.5 .. 2: the stops at 0.5, 0.75, 1 (green), 1.5 and 2; clamped past the ends,
     * red where there is no number */
    const hk_view r = {.stretch_lo = 0.5, .stretch_hi = 2};
    const hk_rgb lo = hk_render_stretch_colour(&r, 0.5), rest = hk_render_stretch_colour(&r, 1),
                 hi = hk_render_stretch_colour(&r, 2);
    assert_true(lo.b > lo.r && lo.b > lo.g && rest.g > rest.r && rest.g > rest.b && hi.r > hi.g && hi.r > hi.b);
    assert_true(lo.r == 45 && lo.g == 75 && lo.b == 200);       /* the first stop of render.c's map */
    assert_true(rest.r == 70 && rest.g == 175 && rest.b == 90); /* the middle one, at rest */
    const hk_rgb q1 = hk_render_stretch_colour(&r, 0.75), q3 = hk_render_stretch_colour(&r, 1.5);
    assert_true(q1.r == 40 && q1.g == 165 && q1.b == 210 && q3.r == 240 && q3.g == 190 && q3.b == 40);
    const hk_rgb below = hk_render_stretch_colour(&r, 0.1), above = hk_render_stretch_colour(&r, 7),
                 nan = hk_render_stretch_colour(&r, NAN);
    assert_memory_equal(&below, &lo, sizeof lo);
    assert_memory_equal(&above, &hi, sizeof hi);
    assert_memory_equal(&nan, &hi, sizeof hi);
    hk_geometry_free(&g);
    hk_scene_free(&sc);
}

/* hk_world_render draws in memory the pixels the PNG file of hk_render_png (the camera fitted to the bodies now)
 * holds; sizes out of 16 .. HK_RENDER_MAX are refused, nothing written. */
static void test_render_in_memory(void **state)
{
    (void)state;
    hk_geometry g;
    hk_scene sc = jelly_at_step_30(&g);
    assert_int_equal(hk_render_png(hk_test_path("memory.png"), sc.world, &g, NULL, 640, 480, NULL), 0);
    hk_geometry_free(&g);
    uint8_t *rgb = malloc(640 * 480 * 3);
    assert_non_null(rgb);
    assert_int_equal(hk_world_render(sc.world, 640, 480, rgb), HK_OK);
    hk_png p = hk_test_png_read(hk_test_path("memory.png"));
    assert_int_equal(p.w, 640);
    assert_int_equal(p.h, 480);
    assert_memory_equal(p.rgb, rgb, 640 * 480 * 3);
    free(p.rgb);
    rgb[0] = 7;
    assert_int_equal(hk_world_render(sc.world, 15, 480, rgb), HK_ERR_INVALID);
    assert_int_equal(hk_world_render(sc.world, 640, HK_RENDER_MAX + 1, rgb), HK_ERR_INVALID);
    assert_int_equal(hk_world_render(sc.world, 640, 480, NULL), HK_ERR_INVALID);
    assert_int_equal(rgb[0], 7);
    free(rgb);
    hk_scene_free(&sc);
}

/* The rows y0..y1 and columns x0..x1 of a frame file's body pixels (in the viewport). */
static void body_extent(const char *path, int ext[4])
{
    hk_png p = hk_test_png_read(path);
    double vp[4];
    hk_render_viewport(p.w, p.h, vp);
    ext[0] = ext[1] = 1 << 20;
    ext[2] = ext[3] = -1;
    for (int y = (int)vp[1]; y < (int)vp[3]; y++)
        for (int x = (int)vp[0]; x < (int)vp[2]; x++)
            if (spread(px(&p, x, y)) >= 40) {
                ext[0] = x < ext[0] ? x : ext[0];
                ext[1] = y < ext[1] ? y : ext[1];
                ext[2] = x > ext[2] ? x : ext[2];
                ext[3] = y > ext[3] ? y : ext[3];
            }
    free(p.rgb);
}

/* The camera frames the bodies, not the colliders: cloth_fold's strip of cloth, 1.42 m long, stands on end on a
 * floor 2 m wide (a box collider) and spans most of the picture's height in the first frame (the camera fitted
 * to the floor as well showed it over less than half the height, and its folds at the end some 80 x 50 pixels);
 * the floor is drawn where it is in view. */
static void test_camera_fits_bodies(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("fold"));
    snprintf(args, sizeof args, "run " SCENE("cloth_fold.scene") " --steps 1 --out '%s' --format png --quiet", dir);
    hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000000.png", dir);
    int ext[4];
    body_extent(path, ext);
    double vp[4];
    hk_render_viewport(640, 480, vp);
    const double share = (ext[3] - ext[1] + 1) / (vp[3] - vp[1]);
    print_message("cloth_fold at step 0: the strip over rows %d..%d, %.0f %% of the viewport's height\n", ext[1],
                  ext[3], 100 * share);
    assert_true(share > 0.75);
    hk_png p = hk_test_png_read(path); /* the floor: its grey (render.c) under the strip */
    int floor = 0;
    for (int i = 0; i < p.w * p.h; i++) {
        const unsigned char *q = p.rgb + 3 * (size_t)i;
        floor += spread(q) < 40 && q[0] >= q[2] + 5 && q[0] <= 176 && q[0] >= 80;
    }
    free(p.rgb);
    assert_true(floor > 1000);
}

/* --camera follow fits each frame to the bodies where they are: cloth_fold's strip, piled in folds on its floor
 * after 2 s, spans more than half the viewport's width (with the run's one camera, which must hold the strip
 * standing 1.42 m tall, some 110 pixels of 556); each row of frames_png.csv has its frame's box. --camera with a
 * box frames that box in every frame, never widened. */
static void test_camera_option(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("fold_follow"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_fold.scene") " --every 250 --out '%s' --format png --camera follow --quiet", dir);
    hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000500.png", dir);
    int ext[4];
    body_extent(path, ext);
    double vp[4];
    hk_render_viewport(640, 480, vp);
    print_message("cloth_fold at 2 s, --camera follow: the folds over %d x %d pixels\n", ext[2] - ext[0] + 1,
                  ext[3] - ext[1] + 1);
    assert_true(ext[2] - ext[0] + 1 > 0.5 * (vp[2] - vp[0]));
    index_row rows[4];
    assert_int_equal(read_index(dir, rows, 4), 3);
    assert_true(rows[2].f[7] < 0.5 * rows[0].f[7]); /* the box's top: the pile, not the standing strip */
    snprintf(dir, sizeof dir, "%s", hk_test_path("fold_box"));
    snprintf(args, sizeof args,
             "run " SCENE(
                 "cloth_fold.scene") " --every 250 --out '%s' --format png --camera=-0.5,0,-0.5,0.5,0.3,0.5 --quiet",
             dir);
    hooke_ok(args);
    assert_int_equal(read_index(dir, rows, 4), 3);
    const double want[6] = {-0.5, 0, -0.5, 0.5, 0.3, 0.5};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 6; k++) assert_true(rows[i].f[3 + k] == want[k]);
}

/* A bad --camera is refused before the run, with what was expected and why (exit 1), and so is --camera without
 * PNG frames. */
static void test_camera_refused(void **state)
{
    (void)state;
    static const struct {
        const char *value, *why;
    } bad[] = {{"fixed", "six numbers, comma separated, found fewer"},
               {"0,0,0,1,1", "six numbers, comma separated, found fewer"},
               {"0,0,0,1,1,1,1", "six numbers, comma separated, found more"},
               {"0,0,0,1,1,nan", "Z1: 'nan' is not a number"},
               {"0,2,0,1,1,1", "Y0 = 2 is above Y1 = 1"},
               {"0,0,0,0.0001,0,0", "the box is less than 1 mm across"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char args[1024], want[256];
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 2 --out '%s' --format png --camera '%s'",
                 hk_test_path("refused"), bad[k].value);
        hk_run r = hk_test_hooke("", args);
        snprintf(want, sizeof want,
                 "hooke: error: --camera expects run, follow or a box X0,Y0,Z0,X1,Y1,Z1 in metres, got '%s' (%s)\n",
                 bad[k].value, bad[k].why);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.err, want);
        hk_run_free(&r);
    }
    hk_run r = hk_test_hooke("", "run " SCENE("rope.scene") " --steps 2 --camera follow");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "hooke: error: --camera needs --format png (with --out DIR)\n");
    hk_run_free(&r);
}

/* The PNG writer keeps every pixel: cairo images of pixels drawn at random (which deflate no smaller: many IDAT
 * chunks) and of flat runs with a picture's shading, of odd sizes, read back by libpng as they were; the same
 * pixels give the same bytes. */
static void test_png_writer(void **state)
{
    (void)state;
    static const int size[][2] = {{1, 1}, {97, 61}, {640, 480}};
    uint32_t seed = 12345;
    for (int k = 0; k < 3; k++)
        for (int random = 0; random < 2; random++) {
            const int w = size[k][0], h = size[k][1];
            cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
            cairo_surface_flush(s);
            unsigned char *data = cairo_image_surface_get_data(s);
            const int stride = cairo_image_surface_get_stride(s);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    seed = seed * 1664525u + 1013904223u;
                    const uint32_t flat = (uint32_t)(x / 16 * 40 % 256) << 16 | (uint32_t)(y * 3 % 256) << 8 | 200u;
                    ((uint32_t *)(void *)(data + (size_t)y * (size_t)stride))[x] = random ? seed >> 8 : flat;
                }
            cairo_surface_mark_dirty(s);
            char path[2][512];
            for (int copy = 0; copy < 2; copy++) {
                snprintf(path[copy], sizeof path[copy], "%s", hk_test_path(copy ? "writer_b.png" : "writer_a.png"));
                FILE *f = fopen(path[copy], "wb");
                assert_non_null(f);
                assert_int_equal(hk_png_write(f, s), 0);
                assert_int_equal(fclose(f), 0);
            }
            hk_png p = hk_test_png_read(path[0]);
            assert_int_equal(p.w, w);
            assert_int_equal(p.h, h);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    const uint32_t v = ((const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride))[x];
                    const unsigned char *q = px(&p, x, y);
                    if (q[0] != (unsigned char)(v >> 16) || q[1] != (unsigned char)(v >> 8) || q[2] != (unsigned char)v)
                        fail_msg("%d x %d %s: pixel (%d, %d) is %d,%d,%d, was %d,%d,%d", w, h,
                                 random ? "random" : "flat", x, y, q[0], q[1], q[2], (int)(v >> 16 & 255),
                                 (int)(v >> 8 & 255), (int)(v & 255));
                }
            free(p.rgb);
            size_t na, nb;
            unsigned char *a = read_bytes(path[0], &na), *b = read_bytes(path[1], &nb);
            assert_int_equal(na, nb);
            assert_memory_equal(a, b, na);
            free(a);
            free(b);
            cairo_surface_destroy(s);
        }
    /* not an RGB24 image: refused */
    cairo_surface_t *argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    FILE *f = fopen(hk_test_path("argb.png"), "wb");
    assert_non_null(f);
    errno = 0;
    assert_int_equal(hk_png_write(f, argb), -1);
    assert_int_equal(errno, EINVAL);
    fclose(f);
    cairo_surface_destroy(argb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_follow_bodies), cmocka_unit_test(test_closed_mesh_shadow),
        cmocka_unit_test(test_frames_deterministic), cmocka_unit_test(test_camera_fixed),
        cmocka_unit_test(test_colour_range),         cmocka_unit_test(test_frames_restart),
        cmocka_unit_test(test_frame_text),           cmocka_unit_test(test_png_writer),
        cmocka_unit_test(test_camera_fits_bodies),   cmocka_unit_test(test_camera_option),
        cmocka_unit_test(test_camera_refused),       cmocka_unit_test(test_render_in_memory),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_canvas_release_fonts(); /* the program's end: cairo's and fontconfig's caches released (leak check) */
    hk_test_cleanup();
    return rc;
}
