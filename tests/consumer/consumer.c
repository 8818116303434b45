/* consumer.c — a program outside hooke's tree that uses the installed library: it loads the oscillator
 * scene, runs it to the scene's end, checks the mass against the closed form and writes a VTK frame; a bad
 * world definition is refused by the field's name.
 *
 * usage: consumer SCENE DIR   (SCENE: scenes/oscillator.scene, a spring pair with one end pinned) */
/* SPDX-License-Identifier: MIT */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <hooke/hooke.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: consumer SCENE DIR\n");
        return 1;
    }
    if (strcmp(hk_version(), HOOKE_VERSION) != 0) {
        fprintf(stderr, "consumer: the library is hooke %s, its header %s\n", hk_version(), HOOKE_VERSION);
        return 1;
    }
    char err[1024];
    /* the library's boundary: a definition it cannot use is refused by the field's name, never clamped */
    hk_world_def bad = hk_default_world_def();
    bad.gravity.y = NAN;
    if (hk_world_def_check(&bad, err, sizeof err) != HK_ERR_INVALID || strncmp(err, "gravity.y ", 10) != 0 ||
        hk_world_create(&bad) != NULL) {
        fprintf(stderr, "consumer: a NaN gravity was not refused by name: '%s'\n", err);
        return 1;
    }
    hk_run_settings run;
    hk_world *w = hk_world_load_scene(argv[1], &run, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    hk_particles_view p = hk_world_particles(w);
    const hk_family_info spring = hk_world_family(w, 0);
    if (hk_world_body_count(w) != 1 || p.count != 2 || p.inv_mass[0] != 0 || spring.springs != 1) {
        fprintf(stderr, "consumer: %s is not one spring with one end pinned\n", argv[1]);
        hk_world_destroy(w);
        return 1;
    }
    /* no colliders and no contact between bodies in the scene; the defaults as hooke.h gives them */
    const hk_collider_def cd = hk_default_collider_def();
    const hk_contact_def pd = hk_default_contact_def(), set = hk_world_contact(w);
    if (hk_world_collider_count(w) != 0 || set.bodies || set.self || !(cd.thickness > 0) || pd.bodies || pd.self ||
        !(pd.thickness > 0 && pd.stiffness > 0)) {
        fprintf(stderr, "consumer: unexpected colliders or contact settings in %s\n", argv[1]);
        hk_world_destroy(w);
        return 1;
    }
    /* x(t) = L0 + d0 cos(omega t) along the spring, released at rest: omega = sqrt(k / m) */
    hk_vec3 a = hk_world_position(w, 0), b = hk_world_position(w, 1); /* world positions [m] */
    const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
    const double r0 = sqrt(ux * ux + uy * uy + uz * uz), L0 = spring.params.rest_length, d0 = r0 - L0;
    const double omega = sqrt(spring.params.k / p.mass[1]), dt = run.integrator.dt;

    for (int64_t s = 0; s < run.steps; s++) hk_world_step(w);

    a = hk_world_position(w, 0);
    b = hk_world_position(w, 1);
    const double t = hk_world_time(w);
    const double x = ((b.x - a.x) * ux + (b.y - a.y) * uy + (b.z - a.z) * uz) / r0;
    const double exact = L0 + d0 * cos(omega * t);
    /* a first-order method: the error stays within omega dt of the amplitude */
    const double bound = omega * dt * fabs(d0);
    printf("t = %g s: x = %.6f m, closed form %.6f m (|error| %.1e m, bound %.1e m)\n", t, x, exact, fabs(x - exact),
           bound);
    printf("state_hash=0x%016" PRIx64 "\n", hk_world_state_hash(w));
    if (!(fabs(x - exact) <= bound)) {
        fprintf(stderr, "consumer: the mass is %.3g m from the closed form, more than %.3g m\n", fabs(x - exact),
                bound);
        hk_world_destroy(w);
        return 1;
    }
    if (hk_frame_write(w, "vtk", argv[2], err, sizeof err) != 0) {
        fprintf(stderr, "consumer: %s\n", err);
        hk_world_destroy(w);
        return 1;
    }
    printf("wrote the VTK frame of step %" PRId64 " into %s\n", hk_world_step_count(w), argv[2]);
    hk_world_destroy(w);
    return 0;
}
