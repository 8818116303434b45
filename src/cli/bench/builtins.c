/* builtins.c — the builtin problems of `hooke bench`: the cloth_512 cloth and a jelly block, for weak scaling. */
/* SPDX-License-Identifier: MIT */
#include "builtins.h"

#include <stdio.h>

#include "world.h"

/* The cloth_512 benchmark problem (scenes/cloth_512.scene, with N x N
 * nodes), `copies` times: independent panels side by side along x. */
hk_world *hk_bench_cloth(const hk_world_def *base, int defer, int copies, int N, char *name, size_t len)
{
    hk_world_def wd = *base;
    wd.air_drag = 2e-6;
    hk_world *w = hk_world_create(&wd);
    if (!w) return NULL;
    hk_world_defer_lattices(w, defer);
    hk_cloth_def d = hk_default_cloth_def();
    d.nx = d.ny = N;
    d.spacing = 0.01;
    d.mass = 2e-5;
    d.pins = HK_PIN_TWO_CORNERS;
    d.structural_springs.k = 6000;
    d.structural_springs.damping = 0.02;
    d.structural_springs.damping_model = HK_DAMP_RELATIVE;
    d.shear_springs = d.bend_springs = d.structural_springs;
    hk_integrator_def id = hk_default_integrator_def();
    id.kind = HK_SEMI_IMPLICIT_EULER;
    id.dt = 2e-5;
    for (int c = 0; c < copies; c++) {
        d.origin = (hk_vec3){c * (N + 8) * d.spacing, 0, 0}; /* 8 spacings apart */
        if (hk_world_add_cloth(w, &d) < 0) {
            hk_world_destroy(w);
            return NULL;
        }
    }
    if (hk_world_set_integrator(w, &id) != 0) {
        hk_world_destroy(w);
        return NULL;
    }
    if (copies > 1)
        snprintf(name, len, "%d cloth panels %dx%d (cloth_512 parameters)", copies, d.nx, d.ny);
    else
        snprintf(name, len, "cloth %dx%d (cloth_512 parameters)", d.nx, d.ny);
    return w;
}

/* An N^3 jelly, 26 neighbours, dropped on the spring ground, `copies`
 * times: independent blocks side by side along x. */
hk_world *hk_bench_jelly(const hk_world_def *base, int defer, int copies, int N, char *name, size_t len)
{
    hk_world_def wd = *base;
    wd.ground.model = HK_GROUND_SPRING;
    wd.ground.height = -0.05;
    wd.ground.stiffness = 500;
    hk_world *w = hk_world_create(&wd);
    if (!w) return NULL;
    hk_world_defer_lattices(w, defer);
    hk_jelly_def d = hk_default_jelly_def();
    d.nx = d.ny = d.nz = N;
    d.spacing = 0.01;
    d.mass = 1e-3;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) {
        d.springs[c].k = 500;
        d.springs[c].damping = 0.01;
    }
    /* Gershgorin: omega <= sqrt(2 * 26 * 500 / 1e-3) = 5.1e3 rad/s; dt 1e-4 s gives 0.51 */
    hk_integrator_def id = hk_default_integrator_def();
    id.kind = HK_SEMI_IMPLICIT_EULER;
    id.dt = 1e-4;
    for (int c = 0; c < copies; c++) {
        d.origin = (hk_vec3){c * (N + 8) * d.spacing, 0, 0};
        if (hk_world_add_jelly(w, &d) < 0) {
            hk_world_destroy(w);
            return NULL;
        }
    }
    if (hk_world_set_integrator(w, &id) != 0) {
        hk_world_destroy(w);
        return NULL;
    }
    if (copies > 1)
        snprintf(name, len, "%d jelly blocks %dx%dx%d, 26 neighbours", copies, d.nx, d.ny, d.nz);
    else
        snprintf(name, len, "jelly %dx%dx%d, 26 neighbours", d.nx, d.ny, d.nz);
    return w;
}
