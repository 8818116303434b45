/* test_scene_colliders.c — the scene's collider section: what it builds, and every refusal with FILE:LINE:COL. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "hk_test.h"

#include <unistd.h>

#include "hk_test_parse.h"

/* A cloth whose smallest springs are 2 cm (its structural ones), to follow the collider under test. */
#define CLOTH                                                                                                          \
    "body cloth\n  nx 4\n  ny 4\n  spacing 0.02\n  mass 1e-3\n  springs structural k 100\n  springs shear k 100\n"     \
    "end\n"

/* A file holding text, named NAME.EXT in /tmp (path into out); unlinked by the caller. */
static void temp_file(const char *text, const char *ext, char *out, size_t cap)
{
    char tmpl[] = "/tmp/hooke_collider_XXXXXX";
    const int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    close(fd);
    unlink(tmpl);
    snprintf(out, cap, "%s.%s", tmpl, ext);
    FILE *f = fopen(out, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A tetrahedron, faces outward (`flip` 1: inward), as OBJ. */
static const char *tetra(int flip)
{
    return flip ? "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 4 2\nf 1 3 4\nf 2 4 3\n"
                : "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";
}

static void test_collider_builds(void **state)
{
    (void)state;
    char obj[64], text[2048];
    temp_file(tetra(0), "obj", obj, sizeof obj);
    snprintf(text, sizeof text,
             "collider\n  shape mesh\n  file %s\n  offset 1 2 3\n  rotation 0.1 0.2 0.3\n  thickness 0.01\n"
             "  stiffness 100\n  damping_ratio 0.5\n  friction 0.4\n  velocity 0 1 0\n  angular_velocity 0 0 2\nend\n"
             "collider\n  shape box\n  size 1 2 3\n  thickness 0.02\n  stiffness 50\nend\n" CLOTH
             "collider\n  shape capsule\n  radius 0.2\n  length 1\n  thickness 0.005\n  stiffness 10\nend\n",
             obj);
    hk_scene sc = parse_ok(text);
    unlink(obj);
    assert_int_equal(hk_world_collider_count(sc.world), 3);
    hk_collider_def d;
    assert_int_equal(hk_world_collider(sc.world, 0, &d), HK_OK);
    assert_int_equal(d.shape, HK_COLLIDER_MESH);
    assert_null(d.mesh);
    assert_true(d.offset.x == 1 && d.offset.y == 2 && d.offset.z == 3);
    assert_true(d.rotation.x == 0.1 && d.rotation.y == 0.2 && d.rotation.z == 0.3);
    assert_true(d.thickness == 0.01 && d.stiffness == 100 && d.damping_ratio == 0.5 && d.friction == 0.4);
    assert_true(d.velocity.y == 1 && d.angular_velocity.z == 2);
    assert_int_equal(hk_world_collider(sc.world, 1, &d), HK_OK);
    assert_int_equal(d.shape, HK_COLLIDER_BOX);
    assert_true(d.size.x == 1 && d.size.y == 2 && d.size.z == 3 && d.friction == 0 && d.damping_ratio == 0);
    assert_int_equal(hk_world_collider(sc.world, 2, &d), HK_OK);
    assert_int_equal(d.shape, HK_COLLIDER_CAPSULE);
    assert_true(d.radius == 0.2 && d.length == 1 && d.thickness == 0.005);
    assert_int_equal(hk_world_collider(sc.world, 3, &d), HK_ERR_INVALID);
    /* the body is body 0 whatever comes before it; the mesh file is listed among the scene's files */
    assert_int_equal(sc.body_line[0], 19);
    assert_int_equal(sc.file_count, 1);
    hk_scene_free(&sc);
}

static void test_collider_key_rules(void **state)
{
    (void)state;
    check_error("collider\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:1: error: collider is missing required key 'shape' (mesh, box or capsule)");
    check_error("collider\n  shape ball\nend\n" CLOTH, "x.scene:2:9: error: expected mesh, box or capsule for 'shape'");
    check_error("collider\n  shape box\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:5:1: error: collider with shape box is missing required key 'size'");
    check_error("collider\n  shape capsule\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:5:1: error: collider with shape capsule is missing required key 'radius'");
    check_error("collider\n  shape mesh\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:5:1: error: collider with shape mesh is missing required key 'file'");
    check_error("collider\n  shape box\n  size 1 1 1\n  radius 1\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:3: error: key 'radius' needs 'shape capsule'");
    check_error("collider\n  shape capsule\n  radius 1\n  size 1 1 1\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:3: error: key 'size' needs 'shape box'");
    check_error("collider\n  shape box\n  size 1 1 1\n  file t.obj\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:3: error: key 'file' needs 'shape mesh'");
    check_error("collider\n  shape box\n  size 1 0 1\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:3:8: error: expected 'size' > 0 in x, y and z, got (1 0 1)");
    check_error("collider\n  shape box\n  size 1 1 1\n  stiffness 10\nend\n" CLOTH,
                "x.scene:5:1: error: collider is missing required key 'thickness'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0.01\nend\n" CLOTH,
                "x.scene:5:1: error: collider is missing required key 'stiffness'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:13: error: expected a positive number for 'thickness', got '0'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness inf\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:13: error: expected a number for 'thickness', got 'inf'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0.01\n  stiffness 1e30\nend\n" CLOTH,
                "x.scene:5:13: error: expected a stiffness in [1e-12, 1e12] N/m for 'stiffness'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0.01\n  stiffness 10\n  friction -1\nend\n" CLOTH,
                "x.scene:6:12: error: expected a number >= 0 for 'friction', got '-1'");
    /* a damping ratio past the bound (1e30 was taken, and the run blew up at its 6th step), with the reason */
    check_error(
        "collider\n  shape box\n  size 1 1 1\n  thickness 0.01\n  stiffness 10\n  damping_ratio 1e30\nend\n" CLOTH,
        "x.scene:6:17: error: expected a damping ratio in [0, 100] for 'damping_ratio', got '1e30' (a bounce "
        "keeps e^-2 = 0.135 of a particle's speed at 1 (critical damping) and 0.0024 at 10; past 100 the layer's "
        "damper only slows a particle's way out of it, and the step an explicit integrator can take shrinks as 1 / "
        "(damping_ratio sqrt(k/m)))");
    check_error(
        "collider\n  shape box\n  size 1 1 1\n  thickness 0.01\n  stiffness 10\n  damping_ratio -1\nend\n" CLOTH,
        "x.scene:6:17: error: expected a damping ratio in [0, 100] for 'damping_ratio', got '-1'");
    check_error("collider\n  shape capsule\n  radius 1\n  length -1\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:10: error: expected a number >= 0 for 'length', got '-1'");
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0.01\n  stiffness 10\nend\n",
                "x.scene:7:1: error: no body in scene");
}

/* Thicker than the smallest spring rest length of the scene (the cloth's 2 cm, a body after it): refused at the
 * key, whichever comes first. */
static void test_collider_thickness_against_springs(void **state)
{
    (void)state;
    check_error("collider\n  shape box\n  size 1 1 1\n  thickness 0.03\n  stiffness 10\nend\n" CLOTH,
                "x.scene:4:13: error: expected a 'thickness' of at most 0.02 m, the smallest spring rest length in the "
                "scene, got 0.03 m");
    check_error(CLOTH "collider\n  shape capsule\n  radius 1\n  thickness 0.021\n  stiffness 10\nend\n",
                "x.scene:12:13: error: expected a 'thickness' of at most 0.02 m");
    hk_scene sc = parse_ok(CLOTH "collider\n  shape capsule\n  radius 1\n  thickness 0.02\n  stiffness 10\nend\n");
    hk_scene_free(&sc);
}

/* The mesh of a collider: missing, or open, inverted, degenerate or not finite, refused at its `file` key with
 * the reader's own reason (FILE:LINE of the face). */
static void test_collider_bad_meshes(void **state)
{
    (void)state;
    struct {
        const char *obj, *want;
    } bad[] = {
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\n", "the mesh is not closed (open edge)"},
        {NULL, "the faces point inward"},
        {"v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", "is degenerate: zero area"},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1e999\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", "expected 3 numbers"},
        {"", "a closed mesh needs at least 4 vertices"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char obj[64], text[1024], want[256];
        temp_file(bad[i].obj ? bad[i].obj : tetra(1), "obj", obj, sizeof obj);
        snprintf(text, sizeof text, "collider\n  shape mesh\n  file %s\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                 obj);
        snprintf(want, sizeof want, "x.scene:3:8: error: cannot load mesh: %s", obj);
        check_error(text, want);
        check_error(text, bad[i].want);
        unlink(obj);
    }
    check_error("collider\n  shape mesh\n  file /nonexistent/table.obj\n  thickness 0.01\n  stiffness 10\nend\n" CLOTH,
                "x.scene:3:8: error: cannot load mesh: /nonexistent/table.obj: cannot open");
}

/* The contact section: its keys into hk_world_contact, its defaults (both kinds on when the section is there). */
static void test_contact_section_builds(void **state)
{
    (void)state;
    hk_scene sc = parse_ok(CLOTH "contact\n  self 0\n  thickness 0.005\n  stiffness 300\n  damping_ratio 0.5\n"
                                 "  friction 0.2\nend\n");
    hk_contact_def d = hk_world_contact(sc.world);
    assert_true(d.bodies == 1 && d.self == 0);
    assert_true(d.thickness == 0.005 && d.stiffness == 300 && d.damping_ratio == 0.5 && d.friction == 0.2);
    hk_scene_free(&sc);
    sc = parse_ok(CLOTH "contact\n  thickness 0.02\n  stiffness 1\nend\n"); /* the thickness may equal the rest */
    d = hk_world_contact(sc.world);
    assert_true(d.bodies == 1 && d.self == 1 && d.damping_ratio == 1 && d.friction == 0);
    hk_scene_free(&sc);
    sc = parse_ok(CLOTH "contact\n  model particles\n  radius 0.02\n  stiffness 1\nend\n"); /* at most rest x 1 */
    d = hk_world_contact(sc.world);
    assert_true(d.model == HK_CONTACT_PARTICLES && d.radius == 0.02 && d.bodies == 1 && d.self == 1);
    hk_scene_free(&sc);
    sc = parse_ok(CLOTH "contact\n  model triangles\n  thickness 0.01\n  stiffness 1\nend\n");
    assert_true(hk_world_contact(sc.world).model == HK_CONTACT_TRIANGLES);
    hk_scene_free(&sc);
    sc = parse_ok(CLOTH); /* no section: off */
    d = hk_world_contact(sc.world);
    assert_true(d.bodies == 0 && d.self == 0);
    hk_scene_free(&sc);
}

/* Every refusal of the contact section, at the line and column of the value at fault. */
static void test_contact_section_refusals(void **state)
{
    (void)state;
    check_error(CLOTH "contact\n  stiffness 10\nend\n",
                "x.scene:11:1: error: contact is missing required key 'thickness'");
    check_error(CLOTH "contact\n  thickness 0.01\nend\n",
                "x.scene:11:1: error: contact is missing required key 'stiffness'");
    check_error(CLOTH "contact\n  thickness 0.03\n  stiffness 10\nend\n",
                "x.scene:10:13: error: expected a 'thickness' of at most 0.02 m, the smallest spring rest length");
    check_error(CLOTH "contact\n  thickness 0\n  stiffness 10\nend\n",
                "x.scene:10:13: error: expected a positive number for 'thickness', got '0'");
    check_error(CLOTH "contact\n  thickness nan\n  stiffness 10\nend\n",
                "x.scene:10:13: error: expected a number for 'thickness', got 'nan'");
    check_error(CLOTH "contact\n  thickness 0.01\n  stiffness 0\nend\n",
                "x.scene:11:13: error: expected a stiffness in [1e-12, 1e12] N/m for 'stiffness', got '0'");
    check_error(CLOTH "contact\n  thickness 0.01\n  stiffness 10\n  damping_ratio inf\nend\n",
                "x.scene:12:17: error: expected a number for 'damping_ratio', got 'inf'");
    check_error(
        CLOTH "contact\n  thickness 0.01\n  stiffness 10\n  damping_ratio 101\nend\n",
        "x.scene:12:17: error: expected a damping ratio in [0, 100] for 'damping_ratio', got '101' (a bounce keeps");
    check_error(CLOTH "contact\n  thickness 0.01\n  stiffness 10\n  friction -1\nend\n",
                "x.scene:12:12: error: expected a number >= 0 for 'friction', got '-1'");
    check_error(CLOTH "contact\n  thickness 0.01\n  stiffness 10\n  self 2\nend\n",
                "x.scene:12:8: error: expected 0 or 1 for 'self', got '2'");
    check_error(CLOTH "contact\n  thickness 0.01\n  stiffness 10\n  colour 1\nend\n",
                "x.scene:12:3: error: unknown key 'colour' in contact");
    /* the particle model: its model word, its radius (a sphere of at most the rest length times the stencil's
     * reach, 1 here: structural and shear springs), each model's own key */
    check_error(CLOTH "contact\n  model spheres\n  radius 0.01\n  stiffness 10\nend\n",
                "x.scene:10:9: error: expected triangles or particles for 'model', got 'spheres'");
    check_error(CLOTH "contact\n  model particles\n  radius 0\n  stiffness 10\nend\n",
                "x.scene:11:10: error: expected a positive number for 'radius', got '0'");
    check_error(CLOTH "contact\n  model particles\n  radius -0.01\n  stiffness 10\nend\n",
                "x.scene:11:10: error: expected a positive number for 'radius', got '-0.01'");
    check_error(CLOTH "contact\n  model particles\n  radius inf\n  stiffness 10\nend\n",
                "x.scene:11:10: error: expected a number for 'radius', got 'inf'");
    check_error(CLOTH "contact\n  model particles\n  radius 0.021\n  stiffness 10\nend\n",
                "x.scene:11:10: error: expected a 'radius' of at most 0.02 m, the smallest spring rest length in the "
                "scene times the bodies' stencil reach, got 0.021 m");
    check_error(CLOTH "contact\n  model particles\n  stiffness 10\nend\n",
                "x.scene:12:1: error: contact with model particles is missing required key 'radius'");
    check_error(CLOTH "contact\n  model particles\n  radius 0.01\n  thickness 0.01\n  stiffness 10\nend\n",
                "x.scene:12:3: error: key 'thickness' belongs to 'model triangles'; 'model particles' takes 'radius'");
    check_error(CLOTH "contact\n  radius 0.01\n  thickness 0.01\n  stiffness 10\nend\n",
                "x.scene:10:3: error: key 'radius' belongs to 'model particles'; 'model triangles' takes 'thickness'");
    check_error(CLOTH
                "contact\n  thickness 0.01\n  stiffness 10\nend\ncontact\n  thickness 0.01\n  stiffness 10\nend\n",
                "x.scene:13:1: error: section 'contact' repeated (first at line 9)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_collider_builds),
        cmocka_unit_test(test_collider_key_rules),
        cmocka_unit_test(test_collider_thickness_against_springs),
        cmocka_unit_test(test_collider_bad_meshes),
        cmocka_unit_test(test_contact_section_builds),
        cmocka_unit_test(test_contact_section_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
