/* test_mesh_io.c — .asc and .obj loaders, mesh validation and its messages, the icosphere generator. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "hk_test.h"

#include <unistd.h>

/* Parses text as FORMAT and expects failure with a message containing want. */
static void expect_error(int obj, const char *text, const char *want)
{
    hk_mesh m;
    char err[512];
    int rc = obj ? hk_mesh_parse_obj(text, "bad.obj", &m, err, sizeof err)
                 : hk_mesh_parse_asc(text, "bad.asc", &m, err, sizeof err);
    if (rc != -1 || !strstr(err, want)) {
        print_error("expected an error containing \"%s\", got rc %d: \"%s\"\n", want, rc, rc ? err : "(none)");
        fail();
    }
    print_message("  %s\n", err);
}

static void test_cube_asc_loads(void **state)
{
    (void)state;
    hk_mesh m;
    char err[512] = "";
    int rc = hk_mesh_load(HOOKE_SCENES_DIR "/cube.asc", &m, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 12);
    /* a 2 m cube: volume 8 m^3 by both exact formulas, exactly (integers) */
    assert_true(hk_mesh_volume(&m, HK_VOLUME_GAUSS) == 8.0);
    assert_true(hk_mesh_volume(&m, HK_VOLUME_TETRA) == 8.0);
    assert_true(hk_mesh_volume(&m, HK_VOLUME_BOX) == 8.0);
    assert_near(hk_mesh_volume(&m, HK_VOLUME_ELLIPSOID), M_PI / 6 * 8, 1e-12);
    assert_int_equal(m.face_lines[0], 13); /* "Face 0" is on line 13 of cube.asc */
    hk_mesh_free(&m);
}

static void test_torus_asc_loads(void **state)
{
    (void)state;
    hk_mesh m;
    char err[512] = "";
    int rc = hk_mesh_load(HOOKE_SCENES_DIR "/torus.asc", &m, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(m.vertex_count, 288);
    assert_int_equal(m.face_count, 576);
    /* polyhedral torus (24 x 12) below the smooth 2 pi^2 R r^2 = 0.0853 */
    double v = hk_mesh_volume(&m, HK_VOLUME_GAUSS);
    print_message("torus volume %.9g (smooth torus %.9g)\n", v, 2 * M_PI * M_PI * 0.3 * 0.12 * 0.12);
    assert_near(v, 0.0805030758, 1e-8);
    assert_near(hk_mesh_volume(&m, HK_VOLUME_TETRA), v, 1e-12);
    hk_mesh_free(&m);
}

static const char *const cube_obj = "# a cube of side 2 as quads\n"
                                    "o cube\n"
                                    "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                                    "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                                    "vn 0 0 1\n"
                                    "f 1 4 3 2\n"                  /* z = -1, normal -z */
                                    "f 5 6 7 8 # top\n"            /* z = +1 */
                                    "f 1 2 6 5\n"                  /* y = -1 */
                                    "f 4 8 7 3\n"                  /* y = +1 */
                                    "f 1/1 5/1 8/1 4/1\n"          /* x = -1, v/vt */
                                    "f -7//1 -6//1 -2//1 -3//1\n"; /* x = +1 as negative indices 2 3 7 6 */

static void test_obj_loads(void **state)
{
    (void)state;
    hk_mesh m;
    char err[512] = "";
    int rc = hk_mesh_parse_obj(cube_obj, "cube.obj", &m, err, sizeof err);
    if (rc) print_error("%s\n", err);
    assert_int_equal(rc, 0);
    assert_int_equal(m.vertex_count, 8);
    assert_int_equal(m.face_count, 12); /* 6 quads, fan-triangulated */
    assert_true(hk_mesh_volume(&m, HK_VOLUME_GAUSS) == 8.0);
    hk_mesh_free(&m);
}

static void test_flipped_detected(void **state)
{
    (void)state;
    hk_mesh m;
    char err[512] = "";
    assert_int_equal(hk_mesh_load(HOOKE_SCENES_DIR "/cube.asc", &m, err, sizeof err), 0);
    for (int f = 0; f < m.face_count; f++) { /* turn every face inside out */
        int t = m.faces[3 * f + 1];
        m.faces[3 * f + 1] = m.faces[3 * f + 2];
        m.faces[3 * f + 2] = t;
    }
    assert_true(hk_mesh_volume(&m, HK_VOLUME_GAUSS) == -8.0);
    assert_int_equal(hk_mesh_validate(&m, "flipped", 0, err, sizeof err), -1);
    print_message("  %s\n", err);
    assert_non_null(strstr(err, "point inward"));
    assert_int_equal(hk_mesh_validate(&m, "flipped", 1, err, sizeof err), 0); /* fix = 1 flips it back */
    assert_true(hk_mesh_volume(&m, HK_VOLUME_GAUSS) == 8.0);
    /* one face flipped: inconsistent orientation, named */
    int t = m.faces[3 * 5 + 1];
    m.faces[3 * 5 + 1] = m.faces[3 * 5 + 2];
    m.faces[3 * 5 + 2] = t;
    assert_int_equal(hk_mesh_validate(&m, "cube.asc", 1, err, sizeof err), -1);
    print_message("  %s\n", err);
    assert_non_null(strstr(err, "cube.asc:"));
    assert_non_null(strstr(err, "inconsistent orientation"));
    assert_non_null(strstr(err, "face 5"));
    hk_mesh_free(&m);
}

#define ASC_HEAD "Named object: \"T\"\nTri-mesh, Vertices: 4 Faces: 4\n"
#define ASC_V "Vertex 0: X:0 Y:0 Z:0\nVertex 1: X:1 Y:0 Z:0\nVertex 2: X:0 Y:1 Z:0\nVertex 3: X:0 Y:0 Z:1\n"

static void test_asc_errors(void **state)
{
    (void)state;
    /* a valid tetrahedron first */
    const char *tet =
        ASC_HEAD ASC_V "Face 0: A:0 B:2 C:1\nFace 1: A:0 B:1 C:3\nFace 2: A:0 B:3 C:2\nFace 3: A:1 B:2 C:3\n";
    hk_mesh m;
    char err[512];
    assert_int_equal(hk_mesh_parse_asc(tet, "tet.asc", &m, err, sizeof err), 0);
    assert_near(hk_mesh_volume(&m, HK_VOLUME_GAUSS), 1.0 / 6, 1e-15);
    hk_mesh_free(&m);
    /* 1 missing counts */
    expect_error(0, "Vertex 0: X:0 Y:0 Z:0\n", "bad.asc:1: error: Vertex before the 'Tri-mesh");
    expect_error(0, "Named object: \"x\"\n", "no 'Tri-mesh, Vertices: N Faces: M' line (missing counts)");
    /* 2 malformed counts */
    expect_error(0, "Tri-mesh, Vertices: four Faces: 4\n",
                 "bad.asc:1: error: expected 'Tri-mesh, Vertices: N Faces: M'");
    /* 3 bad index */
    expect_error(0, ASC_HEAD ASC_V "Face 0: A:0 B:2 C:9\n",
                 "bad.asc:7: error: Face 0: C:9 is not a vertex index in [0, 3]");
    /* 4 wrong numbers */
    expect_error(0, ASC_HEAD "Vertex 0: X:0 Y:zero Z:0\n", "bad.asc:3: error: Vertex 0: expected a number after 'Y:'");
    expect_error(0, ASC_HEAD "Vertex 0: X:0 Y:0\n", "expected a number after 'Z:'");
    /* 5 out of order / count mismatch */
    expect_error(0, ASC_HEAD "Vertex 1: X:0 Y:0 Z:0\n", "expected Vertex 0, got Vertex 1");
    expect_error(0, ASC_HEAD ASC_V "Face 0: A:0 B:2 C:1\n", "Tri-mesh declares 4 faces, the file has 1");
    /* 6 open mesh */
    expect_error(
        0, "Tri-mesh, Vertices: 4 Faces: 3\n" ASC_V "Face 0: A:0 B:2 C:1\nFace 1: A:0 B:1 C:3\nFace 2: A:0 B:3 C:2\n",
        "the mesh is not closed (open edge)");
    /* 7 degenerate face */
    expect_error(0,
                 ASC_HEAD ASC_V "Face 0: A:0 B:0 C:1\nFace 1: A:0 B:1 C:3\nFace 2: A:0 B:3 C:2\nFace 3: A:1 B:2 C:3\n",
                 "bad.asc:7: error: face 0 (0 0 1) is degenerate");
    /* 8 inconsistent orientation, with the line of the face */
    expect_error(0,
                 ASC_HEAD ASC_V "Face 0: A:0 B:2 C:1\nFace 1: A:0 B:1 C:3\nFace 2: A:0 B:3 C:2\nFace 3: A:1 B:3 C:2\n",
                 "bad.asc:10: error: faces");
}

/* Two tetrahedra glued along edge 0-1 make it shared by 4 faces. */
static void test_obj_errors(void **state)
{
    (void)state;
    /* 9 non-manifold edge */
    expect_error(1,
                 "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0 -1 0\nv 0 0 -1\n"
                 "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
                 "f 1 2 5\nf 1 6 2\nf 1 5 6\nf 2 6 5\n",
                 "edge 0-1 is shared by 4 faces");
    /* 10 bad index, index 0, wrong numbers, unknown statement, short face */
    expect_error(1, "v 0 0 0\nv 1 0 0\nf 1 2 3\n",
                 "bad.obj:3: error: vertex index 3 out of range (2 vertices defined so far)");
    expect_error(1, "v 0 0 0\nf 0 1 1\n", "bad.obj:2: error: vertex index 0 is invalid");
    expect_error(1, "v 0 0 x\n", "bad.obj:1: error: expected 3 numbers after 'v', got 'x'");
    expect_error(1, "v 0 0 0\nv 1 0 0\nf 1 -3 2\n", "vertex index -3 out of range");
    expect_error(1, "v 0 0 0\ncurv 1 2\n", "bad.obj:2: error: unknown statement 'curv'");
    expect_error(1, "v 0 0 0\nv 1 0 0\nf 1 2\n", "a face needs at least 3 vertices, got 2");
    expect_error(1, "# nothing\n", "a closed mesh needs at least 4 vertices");
    /* open: the cube without its top */
    char open_cube[1024];
    snprintf(open_cube, sizeof open_cube, "%s", cube_obj);
    char *top = strstr(open_cube, "f 5 6 7 8");
    assert_non_null(top);
    top[0] = '#';
    expect_error(1, open_cube, "not closed (open edge)");
}

/* A file that begins with UTF-8's byte-order mark loads as without it; UTF-16's is refused by name. */
static void test_byte_order_marks(void **state)
{
    (void)state;
    char dir[] = "/tmp/hk_bom_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/cube.obj", dir);
    static const struct {
        const char *mark, *want; /* want: NULL where it loads */
    } rows[] = {
        {"\xEF\xBB\xBF", NULL},
        {"\xFF\xFE", "cube.obj:1: error: expected UTF-8 or ASCII text, got a UTF-16 little-endian byte-order mark"},
        {"\xFE\xFF", "got a UTF-16 big-endian byte-order mark: save the file as UTF-8"}};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        fputs(rows[r].mark, f);
        fputs(cube_obj, f);
        assert_int_equal(fclose(f), 0);
        hk_mesh m;
        char err[512] = "";
        const int rc = hk_mesh_load(path, &m, err, sizeof err);
        if (rows[r].want ? rc == 0 || !strstr(err, rows[r].want) : rc != 0) {
            print_error("mark %zu: rc %d, message: %s\nexpected: %s\n", r, rc, err,
                        rows[r].want ? rows[r].want : "loads");
            fail();
        }
        if (rc == 0) {
            assert_int_equal(m.vertex_count, 8);
            assert_int_equal(m.face_count, 12);
            hk_mesh_free(&m);
        }
    }
    unlink(path);
    rmdir(dir);
}

static void test_load_errors(void **state)
{
    (void)state;
    hk_mesh m;
    char err[512];
    assert_int_equal(hk_mesh_load("no/such/file.asc", &m, err, sizeof err), HK_ERR_IO);
    assert_non_null(strstr(err, "no/such/file.asc: error: cannot open mesh: No such file or directory"));
    assert_int_equal(hk_mesh_load("mesh.stl", &m, err, sizeof err), -1);
    assert_non_null(strstr(err, "expected a file name ending in .asc or .obj"));
}

static void test_icosphere_closed(void **state)
{
    (void)state;
    for (int level = 0; level <= 4; level++) {
        hk_mesh m;
        assert_int_equal(hk_mesh_icosphere(&m, 2.0, level, (hk_vec3){1, 2, 3}), 0);
        assert_int_equal(m.face_count, 20 << (2 * level));
        assert_int_equal(m.vertex_count, 10 * (1 << (2 * level)) + 2); /* Euler: V = F / 2 + 2 */
        char err[256];
        int rc = hk_mesh_validate(&m, "icosphere", 0, err, sizeof err);
        if (rc) print_error("%s\n", err);
        assert_int_equal(rc, 0);
        for (int v = 0; v < m.vertex_count; v++) {
            double dx = m.vertices[v].x - 1, dy = m.vertices[v].y - 2, dz = m.vertices[v].z - 3;
            assert_near(sqrt(dx * dx + dy * dy + dz * dz), 2.0, 1e-12);
        }
        hk_mesh_free(&m);
    }
    hk_mesh m;
    assert_int_equal(hk_mesh_icosphere(&m, -1, 0, (hk_vec3){0, 0, 0}), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube_asc_loads),   cmocka_unit_test(test_torus_asc_loads),
        cmocka_unit_test(test_obj_loads),        cmocka_unit_test(test_flipped_detected),
        cmocka_unit_test(test_asc_errors),       cmocka_unit_test(test_obj_errors),
        cmocka_unit_test(test_load_errors),      cmocka_unit_test(test_byte_order_marks),
        cmocka_unit_test(test_icosphere_closed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
