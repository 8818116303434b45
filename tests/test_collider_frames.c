/* test_collider_frames.c — colliders in the outputs: their VTK surfaces, the per-point contact count, the PNG
 * picture, the frames after a restart, and the stability profiler's omega_max. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_png.h"
#include "hk_test_vtk.h"

#include <math.h>

#include "collider.h"
#include "diagnosis.h"
#include "geometry.h"
#include "render.h"
#include "response.h"
#include "scene.h"
#include "world.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* The world of cloth_box.scene (a box and a turning capsule) at time t. */
static hk_world *cloth_box_at(double t)
{
    char err[1024];
    hk_scene sc;
    if (hk_scene_load(HOOKE_SCENES_DIR "/cloth_box.scene", &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = hk_scene_take_world(&sc);
    w->time = t;
    return w;
}

/* cloth_box.scene's frame at step 48 (0.2 s, the cloth on the box): colliders_000048.vtp holds both colliders'
 * surfaces where the colliders are at that time (every point on a surface, the capsule turned by then), with
 * their ids; frame_000048.vtp's point array `contacts` is, for every particle, the number of colliders within
 * whose thickness its place in the frame lies; frames.pvd lists the colliders as part 1 of each step. */
static void test_vtk_colliders_and_contacts(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("box_vtk"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_box.scene") " --steps 48 --every 48 --out '%s' --format vtk --quiet", dir);
    hk_test_hooke_ok(args);
    hk_world *w = cloth_box_at(48 * (1.0 / 240));
    const hk_collider *col;
    assert_int_equal(hk_colliders(w, &col), 2);
    snprintf(path, sizeof path, "%s/colliders_000048.vtp", dir);
    hk_vtp c = hk_vtp_read(path);
    const hk_vtk_arr *pts = hk_vtp_get(&c, "Points", "Points"), *id = hk_vtp_get(&c, "CellData", "collider_id");
    const hk_vtk_arr *conn = hk_vtp_get(&c, "Polys", "connectivity");
    assert_int_equal(id->values, c.polys);
    int seen[2] = {0, 0};
    for (int64_t t = 0; t < c.polys; t++) {
        const int k = (int)hk_vtk_int(id, t);
        assert_true(k == 0 || k == 1);
        seen[k]++;
        hk_pose P;
        hk_collider_pose(&col[k], hk_world_time(w), &P);
        for (int v = 0; v < 3; v++) { /* a corner of a collider's triangle lies on that collider's surface */
            const int64_t at = hk_vtk_int(conn, 3 * t + v);
            const double x[3] = {hk_vtk_real(pts, 3 * at), hk_vtk_real(pts, 3 * at + 1), hk_vtk_real(pts, 3 * at + 2)};
            double p[3], q[3], n[3], phi;
            hk_pose_to_local(&P, x, p);
            assert_true(hk_collider_nearest(&col[k], p, 1, q, n, &phi));
            assert_near(phi, 0, 1e-12);
        }
    }
    assert_int_equal(seen[0], 12); /* the box; the capsule cut into HK_GEOMETRY_AROUND sides */
    assert_true(seen[1] > 100);
    hk_vtp_free(&c);
    snprintf(path, sizeof path, "%s/frame_000048.vtp", dir);
    hk_vtp f = hk_vtp_read(path);
    const hk_vtk_arr *fp = hk_vtp_get(&f, "Points", "Points"), *cnt = hk_vtp_get(&f, "PointData", "contacts");
    assert_string_equal(cnt->type, "Int32");
    assert_int_equal(cnt->values, f.points);
    int touching = 0;
    for (int64_t i = 0; i < f.points; i++) {
        int expected = 0;
        for (int k = 0; k < 2; k++) {
            hk_pose P;
            hk_collider_pose(&col[k], hk_world_time(w), &P);
            const double x[3] = {hk_vtk_real(fp, 3 * i), hk_vtk_real(fp, 3 * i + 1), hk_vtk_real(fp, 3 * i + 2)};
            double p[3], q[3], n[3], phi;
            hk_pose_to_local(&P, x, p);
            expected += hk_collider_nearest(&col[k], p, col[k].def.thickness, q, n, &phi) && phi < col[k].def.thickness;
        }
        assert_int_equal(hk_vtk_int(cnt, i), expected);
        touching += expected > 0;
    }
    print_message("%d of %lld particles touch a collider at 0.2 s\n", touching, (long long)f.points);
    assert_true(touching > f.points / 4); /* a quarter of the cloth lies on the box, and more */
    hk_vtp_free(&f);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = hk_test_slurp(path);
    assert_non_null(strstr(pvd, "part=\"1\" file=\"colliders_000000.vtp\""));
    assert_non_null(strstr(pvd, "part=\"1\" file=\"colliders_000048.vtp\""));
    assert_non_null(strstr(pvd, "part=\"0\" file=\"frame_000048.vtp\""));
    free(pvd);
    hk_world_destroy(w);
}

/* jelly_pile.scene at 0.5 s (four jelly cubes piled on the floor box, a `contact` section between them): a point's
 * `contacts` counts the colliders within whose thickness it lies and also the touching pairs of bodies it takes part
 * in, as the particle or a corner of the triangle or an end of an edge (2 to 4 points a pair). The colliders' part is
 * measured here from the frame's points; the pairs' from the statistics, whose `contacts` is the collider contacts
 * plus the touching pairs. A point of the lowest cube touches one collider and many pairs (16 at most here). */
static void test_vtk_contacts_count_pairs(void **state)
{
    (void)state;
    char dir[256], csv[256], args[1024], path[512], err[1024];
    snprintf(dir, sizeof dir, "%s", hk_test_path("pile_vtk"));
    snprintf(csv, sizeof csv, "%s", hk_test_path("pile.csv"));
    snprintf(args, sizeof args,
             "run " SCENE("jelly_pile.scene") " --steps 120 --every 120 --out '%s' --format vtk --stats '%s' --quiet",
             dir, csv);
    hk_test_hooke_ok(args);
    hk_scene sc;
    if (hk_scene_load(HOOKE_SCENES_DIR "/jelly_pile.scene", &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_world *w = hk_scene_take_world(&sc);
    w->time = 0.5;
    const hk_collider *col;
    const int ncol = hk_colliders(w, &col);
    assert_int_equal(ncol, 1);
    /* the statistics' last row (step 120): contacts is the 13th column */
    char *text = hk_test_slurp(csv);
    assert_non_null(
        strstr(text, ",cg_iterations,cg_residual,newton_iterations,newton_stopped,contacts,min_gap,crossings\n"));
    const char *row = text + strlen(text) - 1;
    while (row > text && row[-1] != '\n') row--;
    assert_int_equal(strtol(row, NULL, 10), 120);
    for (int k = 0; k < 12 && row; k++) row = strchr(row, ',') ? strchr(row, ',') + 1 : NULL;
    assert_non_null(row);
    const long stats_contacts = strtol(row, NULL, 10);
    free(text);
    snprintf(path, sizeof path, "%s/frame_000120.vtp", dir);
    hk_vtp f = hk_vtp_read(path);
    const hk_vtk_arr *fp = hk_vtp_get(&f, "Points", "Points"), *cnt = hk_vtp_get(&f, "PointData", "contacts");
    long colliders = 0, pairs_points = 0, most = 0;
    for (int64_t i = 0; i < f.points; i++) {
        int in = 0;
        for (int k = 0; k < ncol; k++) {
            hk_pose P;
            hk_collider_pose(&col[k], hk_world_time(w), &P);
            const double x[3] = {hk_vtk_real(fp, 3 * i), hk_vtk_real(fp, 3 * i + 1), hk_vtk_real(fp, 3 * i + 2)};
            double p[3], q[3], n[3], phi;
            hk_pose_to_local(&P, x, p);
            in += hk_collider_nearest(&col[k], p, col[k].def.thickness, q, n, &phi) && phi < col[k].def.thickness;
        }
        const int64_t c = hk_vtk_int(cnt, i);
        assert_true(c >= in);
        colliders += in;
        pairs_points += c - in;
        most = c > most ? c : most;
    }
    const long pairs = stats_contacts - colliders;
    print_message("jelly_pile at 0.5 s: %ld collider contacts, %ld touching pairs (stats), their points counted %ld "
                  "times, at most %ld contacts at a point\n",
                  colliders, pairs, pairs_points, most);
    assert_true(colliders > 0);
    assert_true(pairs > 0);
    assert_true(pairs_points >= 2 * pairs && pairs_points <= 4 * pairs);
    assert_true(most > ncol);
    hk_vtp_free(&f);
    hk_world_destroy(w);
}

/* A restarted run continues the collection with the colliders of the first run's frames listed as they were. */
static void test_vtk_colliders_after_restart(void **state)
{
    (void)state;
    char dir[256], ck[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("box_restart"));
    snprintf(ck, sizeof ck, "%s", hk_test_path("box.ck"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_box.scene") " --steps 8 --every 4 --out '%s' --format vtk --checkpoint '%s' "
                                             "--checkpoint-every 8 --quiet",
             dir, ck);
    hk_test_hooke_ok(args);
    snprintf(args, sizeof args,
             "run " SCENE("cloth_box.scene") " --steps 12 --every 4 --out '%s' --format vtk --restart '%s' --quiet",
             dir, ck);
    hk_test_hooke_ok(args);
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = hk_test_slurp(path);
    const char *at = pvd;
    for (int step = 0; step <= 12; step += 4)
        for (int part = 0; part < 2; part++) { /* every step's frame, then its colliders, in order */
            char want[128];
            snprintf(want, sizeof want, "part=\"%d\" file=\"%s_%06d.vtp\"", part, part ? "colliders" : "frame", step);
            const char *hit = strstr(at, want);
            if (!hit) {
                print_error("frames.pvd lacks %s after its earlier entries:\n%s\n", want, pvd);
                fail();
            }
            at = hit;
        }
    free(pvd);
}

/* The colliders' warm grey, shaded (render.c): red above blue by 5 to 20, not as light as the ground or the
 * shadows on it (188 and above), not text. */
static int collider_pixels(const hk_png *p)
{
    int n = 0;
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            const unsigned char *q = p->rgb + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
            n += q[0] <= 176 && q[0] >= 80 && q[0] >= q[1] && q[1] >= q[2] && q[0] - q[2] >= 5 && q[0] - q[2] <= 20;
        }
    return n;
}

/* cloth_box.scene's picture shows its box and capsule (some 2400 pixels of their grey under the run's camera, which
 * frames the stage where the cloth can go: look at the picture, docs/img/cloth_box_frame.png); cloth_corners.scene,
 * without colliders, has almost none of it. */
static void test_png_draws_colliders(void **state)
{
    (void)state;
    char dir[256], args[1024], path[512];
    snprintf(dir, sizeof dir, "%s", hk_test_path("box_png"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_box.scene") " --steps 24 --every 24 --out '%s' --format png --quiet", dir);
    hk_test_hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000024.png", dir);
    hk_png p = hk_test_png_read(path);
    const int with = collider_pixels(&p);
    free(p.rgb);
    snprintf(dir, sizeof dir, "%s", hk_test_path("corners_png"));
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 1 --every 1 --out '%s' --format png --quiet", dir);
    hk_test_hooke_ok(args);
    snprintf(path, sizeof path, "%s/frame_000001.png", dir);
    p = hk_test_png_read(path);
    const int without = collider_pixels(&p);
    free(p.rgb);
    print_message("collider pixels: %d with colliders, %d without\n", with, without);
    assert_true(with > 2000);
    assert_true(without < 200);
}

/* The picture of scene text (a world at rest) drawn with view v into name; what was drawn into st. */
static hk_png draw_scene_text(const char *text, const hk_view *v, const char *name, hk_render_stats *st)
{
    hk_scene sc;
    char err[1024];
    if (hk_scene_parse(text, name, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    hk_geometry g;
    assert_int_equal(hk_geometry_build(sc.world, &g), 0);
    hk_view view = *v;
    assert_int_equal(hk_render_png(hk_test_path(name), sc.world, &g, &view, 640, 480, st), 0);
    hk_geometry_free(&g);
    hk_scene_free(&sc);
    return hk_test_png_read(hk_test_path(name));
}

/* Pixels of the stretch colours (saturated: channels at least 40 apart), which the colliders' greys are not. */
static int body_pixels(const hk_png *p)
{
    int n = 0;
    for (int i = 0; i < p->w * p->h; i++) {
        const unsigned char *q = p->rgb + 3 * (size_t)i;
        const int hi = q[0] > q[1] ? (q[0] > q[2] ? q[0] : q[2]) : (q[1] > q[2] ? q[1] : q[2]);
        const int lo = q[0] < q[1] ? (q[0] < q[2] ? q[0] : q[2]) : (q[1] < q[2] ? q[1] : q[2]);
        n += hi - lo >= 40;
    }
    return n;
}

/* A wall in front of a hanging cloth hides all of it but its top: drawn back to front, the wall's faces come after
 * the cloth behind their plane. (A collider's faces are drawn whole, as if at their farthest corner, here the
 * wall's foot, far below the cloth; where something behind their plane shares their pixels, their triangles are
 * drawn again over it, here whole, as nothing in front of them shares their pixels. Without that the cloth was
 * drawn over the wall, all of it in view.) */
static void test_png_collider_in_front(void **state)
{
    (void)state;
    static const char cloth[] = "world\n  gravity 0 0 0\nend\n"
                                "body cloth\n  nx 20\n  ny 20\n  spacing 0.05\n  origin -0.5 1.95 -0.3\n  u 1 0 0\n"
                                "  v 0 -1 0\n  mass 1e-3\n  springs structural k 100\nend\n";
    static const char wall[] = "collider\n  shape box\n  size 2 2 0.1\n  offset 0 1 0.05\n  thickness 0.01\n"
                               "  stiffness 100\nend\n";
    char both[1024];
    snprintf(both, sizeof both, "%s%s", cloth, wall);
    const hk_view v = {{-0.5, 1, -0.3}, {0.45, 1.95, -0.3}, 0.2, 0.99, 1.01, 0}; /* the cloth's box */
    hk_render_stats st;
    hk_png alone = draw_scene_text(cloth, &v, "alone.png", &st), front = draw_scene_text(both, &v, "front.png", &st);
    const int seen_alone = body_pixels(&alone), seen_front = body_pixels(&front);
    print_message("cloth pixels: %d alone, %d behind the wall (%lld faces, %lld pieces)\n", seen_alone, seen_front,
                  (long long)st.collider_faces, (long long)st.collider_pieces);
    assert_int_equal(st.collider_faces, 3); /* the wall's sides that face the camera */
    assert_true(st.collider_pieces >= 1 && st.collider_pieces <= 6);
    assert_true(seen_alone > 100000);
    assert_true(seen_front < 0.3 * seen_alone);
    assert_true(seen_front > 0.05 * seen_alone); /* its top is in view */
    free(alone.rgb);
    free(front.rgb);
}

/* A frame of a contact scene draws its colliders' faces whole where the bodies rest on them: jelly_pile's four
 * cubes and cloth_fold's strip stand on their floor (a box collider 2 m wide), in front of every face of it that
 * faces the camera (3 faces, 0 pieces: cutting all its triangles into pieces a 40th of the camera's half height
 * across, as frames once did, drew some 50 000 of them, 0.2 s a frame). cloth_box's cloth hangs over a turning
 * capsule, partly behind it: the capsule's triangles are cut where the cloth shares their pixels, at most 2^12
 * pieces a triangle, and far fewer. */
static void test_png_collider_pieces(void **state)
{
    (void)state;
    static const struct {
        const char *scene;
        int steps;
        int64_t faces, most_pieces;
    } cases[] = {{"jelly_pile.scene", 0, 3, 0},
                 {"jelly_pile.scene", 240, 3, 0},
                 {"cloth_fold.scene", 100, 3, 0},
                 {"cloth_box.scene", 48, 275, 20000}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char err[1024], path[512];
        hk_scene sc;
        snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, cases[k].scene);
        assert_int_equal(hk_scene_load(path, &sc, err, sizeof err), 0);
        assert_int_equal(hk_world_set_integrator(sc.world, &sc.integrator), HK_OK);
        for (int i = 0; i < cases[k].steps; i++) assert_int_equal(hk_world_step(sc.world), HK_OK);
        hk_geometry g;
        assert_int_equal(hk_geometry_build(sc.world, &g), 0);
        hk_view v;
        assert_int_equal(hk_render_fit(&v, sc.world, &g, 1), 0);
        hk_render_stats st;
        assert_int_equal(hk_render_png(hk_test_path("pieces.png"), sc.world, &g, &v, 640, 480, &st), 0);
        print_message("%s at step %d: %lld collider faces, %lld pieces, %lld things drawn\n", cases[k].scene,
                      cases[k].steps, (long long)st.collider_faces, (long long)st.collider_pieces, (long long)st.items);
        assert_int_equal(st.collider_faces, cases[k].faces);
        assert_true(st.collider_pieces <= cases[k].most_pieces);
        if (cases[k].most_pieces > 0) assert_true(st.collider_pieces > 0);
        hk_geometry_free(&g);
        hk_scene_free(&sc);
    }
}

/* The blender format carries the colliders: frames.obj holds, after the object "hooke" of the particles (whose
 * vertices, first in the file and in particle order, the point cache moves), one object per collider with its
 * surface where the collider is at the first frame: cloth_box's box (8 vertices, 12 triangles, its corners those
 * of the collider) and its capsule (cut into 32 sides: 514 vertices, every one on the capsule's surface). Before,
 * the cloth lay in Blender over a box that was not there. With a breakable spring the split layout (a vertex set
 * per triangle) has the same collider objects after its own vertices. */
static void test_blender_colliders(void **state)
{
    (void)state;
    for (int split = 0; split < 2; split++) {
        char dir[256], args[1024], path[512];
        snprintf(dir, sizeof dir, "%s", hk_test_path(split ? "box_blender_split" : "box_blender"));
        snprintf(args, sizeof args,
                 "run " SCENE("cloth_box.scene") " --steps 4 --every 4 --out '%s' --format blender --quiet", dir);
        if (!split) {
            hk_test_hooke_ok(args);
        } else { /* the scene with its structural springs breakable: the split layout */
            char *text = hk_test_slurp(HOOKE_SCENES_DIR "/cloth_box.scene");
            assert_non_null(text);
            char *at = strstr(text, "springs structural k 300 damping 0.002 damping_model relative");
            assert_non_null(at);
            char scene[16384];
            snprintf(scene, sizeof scene,
                     "%.*s springs structural k 300 damping 0.002 damping_model relative "
                     "behaviour breakable break_ratio 5%s",
                     (int)(at - text), text,
                     at + strlen("springs structural k 300 damping 0.002 damping_model relative"));
            free(text);
            snprintf(path, sizeof path, "%s", hk_test_path("box_split.scene"));
            FILE *f = fopen(path, "w");
            assert_non_null(f);
            fputs(scene, f);
            fclose(f);
            snprintf(args, sizeof args, "run '%s' --steps 4 --every 4 --out '%s' --format blender --quiet", path, dir);
            hk_test_hooke_ok(args);
        }
        hk_world *w = cloth_box_at(0);
        const hk_collider *col;
        assert_int_equal(hk_colliders(w, &col), 2);
        snprintf(path, sizeof path, "%s/frames.obj", dir);
        char *obj = hk_test_slurp(path);
        assert_non_null(obj);
        /* the objects in order; the vertices before "o collider0_box" are the hooke object's */
        const char *hooke = strstr(obj, "\no hooke\n"), *box = strstr(obj, "\no collider0_box\n"),
                   *capsule = strstr(obj, "\no collider1_capsule\n");
        assert_true(hooke && box && capsule && hooke < box && box < capsule);
        int64_t before = 0;
        for (const char *p = obj; p < box; p = strchr(p, '\n') + 1) before += strncmp(p, "v ", 2) == 0;
        assert_int_equal(before, split ? 3 * 2 * 47 * 47 : 2304); /* split: 3 vertices per triangle of the cloth */
        const char *part[2][2] = {{box, capsule}, {capsule, obj + strlen(obj)}};
        const int want_v[2] = {8, 514}, want_f[2] = {12, 2 * 32 * 15 + 2 * 32};
        int64_t first = before + 1;
        for (int k = 0; k < 2; k++) {
            hk_pose P;
            hk_collider_pose(&col[k], 0, &P);
            int nv = 0, nf = 0;
            double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
            for (const char *p = part[k][0] + 1; p < part[k][1]; p = strchr(p, '\n') + 1) {
                if (strncmp(p, "v ", 2) == 0) {
                    double x[3], l[3], q[3], n[3], phi;
                    assert_int_equal(sscanf(p + 2, "%lf %lf %lf", &x[0], &x[1], &x[2]), 3);
                    hk_pose_to_local(&P, x, l);
                    assert_true(hk_collider_nearest(&col[k], l, 1, q, n, &phi)); /* on its surface */
                    assert_near(phi, 0, 1e-7);
                    for (int d = 0; d < 3; d++) lo[d] = fmin(lo[d], l[d]), hi[d] = fmax(hi[d], l[d]);
                    nv++;
                } else if (strncmp(p, "f ", 2) == 0) {
                    long long a[3];
                    assert_int_equal(sscanf(p + 2, "%lld %lld %lld", &a[0], &a[1], &a[2]), 3);
                    for (int i = 0; i < 3; i++) assert_true(a[i] >= first && a[i] < first + want_v[k]);
                    nf++;
                }
            }
            assert_int_equal(nv, want_v[k]);
            assert_int_equal(nf, want_f[k]);
            first += nv;
            if (k == 0) /* the box's corners: its half extents 0.3, 0.2, 0.3 in its frame */
                for (int d = 0; d < 3; d++) {
                    assert_near(hi[d], d == 1 ? 0.2 : 0.3, 1e-7);
                    assert_near(lo[d], d == 1 ? -0.2 : -0.3, 1e-7);
                }
        }
        free(obj);
        hk_world_destroy(w);
    }
}

/* The stability profiler's omega_max counts a collider's contact spring as it counts the ground's: a particle of
 * 0.01 kg on no spring but a collider of 1000 N/m has omega_max = sqrt(k / m) = 316 rad/s. */
static void test_omega_max_counts_colliders(void **state)
{
    (void)state;
    hk_world_def d = hk_default_world_def();
    d.ground.model = HK_GROUND_NONE;
    hk_world *w = hk_world_create(&d);
    const hk_vec3 x = {0, 1, 0};
    const double m = 0.01;
    assert_true(hk_world_add_points(w, 1, &x, NULL, &m) >= 0);
    assert_near(hk_omega_max(w), 0, 0);
    hk_collider_def c = hk_default_collider_def();
    c.stiffness = 1000;
    assert_int_equal(hk_world_add_collider(w, &c), 0);
    assert_near(hk_omega_max(w), sqrt(1000 / m), 1e-9 * sqrt(1000 / m));
    hk_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vtk_colliders_and_contacts),  cmocka_unit_test(test_vtk_contacts_count_pairs),
        cmocka_unit_test(test_vtk_colliders_after_restart), cmocka_unit_test(test_png_draws_colliders),
        cmocka_unit_test(test_png_collider_in_front),       cmocka_unit_test(test_png_collider_pieces),
        cmocka_unit_test(test_blender_colliders),           cmocka_unit_test(test_omega_max_counts_colliders),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_canvas_release_fonts(); /* the program's end: cairo's and fontconfig's caches released (leak check) */
    hk_test_cleanup();
    return rc;
}
