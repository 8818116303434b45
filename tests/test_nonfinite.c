/* test_nonfinite.c — a NaN or inf in the state, stepped unchecked through the contact passes, is a blow-up, no crash.
 */
/* SPDX-License-Identifier: MIT */
#include "hk_test.h"

#include "world.h"

#define N 60         /* the cloth's nodes per side */
#define SPACING 0.02 /* [m] */
#define THICK 0.01   /* the colliders' and the contact's layer [m] */
#define STEPS 50     /* steps with no check between */

/* The worlds: each reaches its own passes of the contact and integrator code. */
enum {
    COLLIDERS,      /* a cloth lying on a box, over a sphere, a capsule and a mesh box */
    SELF_TRIANGLES, /* a cloth folding onto itself, the triangle model, on a box */
    PARTICLES,      /* the same, the particle model */
    IMPLICIT,       /* a cloth on a box and a mesh with self contact, backward Euler */
    WORLDS
};
static const char *const world_name[WORLDS] = {"colliders", "self contact (triangles)", "self contact (particles)",
                                               "implicit"};

/* A 60 x 60 cloth in the x-z plane at height y0, its centre over the origin. */
static void add_cloth(hk_world *w, double y0, double k)
{
    hk_cloth_def cl = hk_default_cloth_def();
    cl.nx = cl.ny = N;
    cl.spacing = SPACING;
    cl.mass = 1e-3;
    cl.origin = (hk_vec3){-0.5 * (N - 1) * SPACING, y0, -0.5 * (N - 1) * SPACING};
    cl.u = (hk_vec3){1, 0, 0};
    cl.v = (hk_vec3){0, 0, 1};
    cl.structural = cl.shear = cl.bend = 1;
    hk_spring_params *fam[3] = {&cl.structural_springs, &cl.shear_springs, &cl.bend_springs};
    for (int f = 0; f < 3; f++) fam[f]->k = k, fam[f]->damping = 0.01, fam[f]->damping_model = HK_DAMP_RELATIVE;
    assert_true(hk_world_add_cloth(w, &cl) >= 0);
}

static void add_collider(hk_world *w, hk_collider_def c)
{
    c.thickness = THICK;
    c.stiffness = 1e3;
    c.damping_ratio = 1;
    c.friction = 0.3;
    if (hk_world_add_collider(w, &c) < 0) {
        print_error("collider: %s\n", hk_world_error(w));
        fail();
    }
}

/* What is made non-finite: a velocity or a position (its y, the collider's normal), or (STIFF) the state itself, by
 * springs far too stiff for the substep: it blows up within a step, between its substeps. */
enum { VELOCITY, POSITION, STIFF };

static hk_world *build(int kind, int what)
{
    hk_world_def def = hk_default_world_def();
    def.gravity = (hk_vec3){0, -9.81, 0};
    def.ground.model = HK_GROUND_NONE;
    def.full_team = 1;
    hk_world *w = hk_world_create(&def);
    assert_non_null(w);
    add_cloth(w, 0.5 * THICK,
              what == STIFF ? 1e6 : 50); /* inside the box's layer: every particle a candidate of the broad phase */
    hk_collider_def box = hk_default_collider_def();
    box.shape = HK_COLLIDER_BOX;
    box.size = (hk_vec3){2, 1, 2};
    box.offset = (hk_vec3){0, -0.5, 0}; /* its top face at y = 0 */
    add_collider(w, box);
    if (kind == COLLIDERS || kind == IMPLICIT) {
        hk_collider_def cap = hk_default_collider_def();
        cap.shape = HK_COLLIDER_CAPSULE;
        cap.radius = 0.05;
        cap.length = 0; /* a sphere */
        cap.offset = (hk_vec3){0.3, 0.06, 0.3};
        add_collider(w, cap);
        cap.length = 0.2;
        cap.rotation = (hk_vec3){0, 0, M_PI / 2};
        cap.offset = (hk_vec3){-0.3, 0.06, 0.3};
        add_collider(w, cap);
        hk_mesh m = hk_test_box_mesh(0.05, 0.05, 0.05);
        hk_collider_def mesh = hk_default_collider_def();
        mesh.shape = HK_COLLIDER_MESH;
        mesh.mesh = &m;
        mesh.offset = (hk_vec3){-0.3, 0.06, -0.3};
        add_collider(w, mesh);
        hk_mesh_free(&m);
    }
    if (kind != COLLIDERS) {
        hk_contact_def c = hk_default_contact_def();
        c.self = 1;
        c.thickness = THICK;
        c.stiffness = 1e3;
        c.friction = 0.2;
        if (kind == PARTICLES) c.model = HK_CONTACT_PARTICLES, c.radius = 0.4 * SPACING;
        if (hk_world_set_contact(w, &c) != HK_OK) {
            print_error("contact: %s\n", hk_world_error(w));
            fail();
        }
    }
    hk_integrator_def in = hk_default_integrator_def();
    in.dt = 1e-3;
    if (kind == IMPLICIT) in.kind = HK_IMPLICIT_EULER, in.dt = 2e-3;
    if (what == STIFF && kind != IMPLICIT) in.dt = 2e-2, in.dt_max = 1e-3; /* omega dt = 100 in 20 substeps a step */
    assert_int_equal(hk_world_set_integrator(w, &in), HK_OK);
    return w;
}

/* Makes the y component of the velocity or displacement of particles a (NaN) and b (inf) non-finite in world
 * `kind` (or blows it up, STIFF), steps STEPS times with no check between, and asserts that no step crashed or wrote
 * out of bounds (the sanitizers'), and that the check then reports the non-finite state: its cause, a particle of
 * the cloth. A step may fail, said so: contact between bodies refuses a state that is not finite at a step's start
 * (pair_set.c), and the implicit solve may break down. */
static void run(int kind, int what)
{
    hk_world *w = build(kind, what);
    const int n = w->p.count;
    const int a = (N / 2) * N + N / 2, b = (N / 3) * N + 2 * N / 3; /* both in the box's layer, near the others */
    if (what != STIFF) {
        hk_real *y = what == VELOCITY ? w->p.vy : w->p.qy;
        y[a] = (hk_real)NAN;
        y[b] = (hk_real)INFINITY;
    }
    int failed = -1;
    for (int s = 0; s < STEPS; s++) {
        const hk_status st = hk_world_step(w);
        if (st == HK_OK) continue;
        if (failed < 0) print_message("%s: step %d: %s\n", world_name[kind], s + 1, hk_world_error(w)), failed = s;
        if (st != HK_ERR_DIVERGED && !strstr(hk_world_error(w), "not finite")) {
            print_error("%s: step %d failed for another reason: %s\n", world_name[kind], s + 1, hk_world_error(w));
            fail();
        }
    }
    hk_blowup bl;
    assert_int_equal(hk_world_check(w, 100, &bl), 1);
    print_message("%s, %s: after %lld steps: %s at particle %d (value %g)\n", world_name[kind],
                  what == VELOCITY   ? "velocity"
                  : what == POSITION ? "position"
                                     : "stiff",
                  (long long)hk_world_step_count(w), bl.cause, bl.particle, bl.value);
    /* a failed step said why: the state not finite (its message names the particle), or the implicit solve's
     * breakdown from a finite start; the check reports a state that is not finite as such, failed step or not */
    const int diverged = failed >= 0 && strcmp(bl.cause, "implicit solve broke down") == 0;
    if (failed >= 0 && !diverged) assert_non_null(strstr(hk_world_error(w), "not finite"));
    if (!diverged) {
        if (strcmp(bl.cause, "non-finite position") != 0 && strcmp(bl.cause, "non-finite velocity") != 0) {
            print_error("%s: the check's cause is '%s', not the state's\n", world_name[kind], bl.cause);
            fail();
        }
        assert_true(bl.particle >= 0 && bl.particle < n);
        assert_int_equal(bl.body, 0);
        assert_false(isfinite(bl.value));
    }
    hk_world_destroy(w);
}

static void test_colliders_velocity(void **state) { (void)state, run(COLLIDERS, VELOCITY); }
static void test_colliders_position(void **state) { (void)state, run(COLLIDERS, POSITION); }
static void test_self_triangles_velocity(void **state) { (void)state, run(SELF_TRIANGLES, VELOCITY); }
static void test_self_triangles_position(void **state) { (void)state, run(SELF_TRIANGLES, POSITION); }
static void test_self_particles_velocity(void **state) { (void)state, run(PARTICLES, VELOCITY); }
static void test_self_particles_position(void **state) { (void)state, run(PARTICLES, POSITION); }
static void test_implicit_velocity(void **state) { (void)state, run(IMPLICIT, VELOCITY); }
static void test_implicit_position(void **state) { (void)state, run(IMPLICIT, POSITION); }
static void test_colliders_stiff(void **state) { (void)state, run(COLLIDERS, STIFF); }
static void test_self_triangles_stiff(void **state) { (void)state, run(SELF_TRIANGLES, STIFF); }
static void test_self_particles_stiff(void **state) { (void)state, run(PARTICLES, STIFF); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colliders_velocity),      cmocka_unit_test(test_colliders_position),
        cmocka_unit_test(test_self_triangles_velocity), cmocka_unit_test(test_self_triangles_position),
        cmocka_unit_test(test_self_particles_velocity), cmocka_unit_test(test_self_particles_position),
        cmocka_unit_test(test_implicit_velocity),       cmocka_unit_test(test_implicit_position),
        cmocka_unit_test(test_colliders_stiff),         cmocka_unit_test(test_self_triangles_stiff),
        cmocka_unit_test(test_self_particles_stiff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
