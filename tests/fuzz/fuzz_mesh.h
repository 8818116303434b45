/* fuzz_mesh.h — the body of the .asc and .obj harnesses: a loader, then the mesh body and the collider a scene makes
 * of what it loaded. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FUZZ_MESH_H
#define HOOKE_FUZZ_MESH_H

#include <math.h>

#include "fuzz.h"
#include "hooke/hooke.h"

typedef int (*fuzz_mesh_parser)(const char *text, const char *name, hk_mesh *out, char *err, size_t errlen);

static inline int fuzz_mesh(const uint8_t *data, size_t size, fuzz_mesh_parser parse, const char *name)
{
    char *text = fuzz_text(data, size);
    if (!text) return 0;
    hk_mesh m;
    char err[2048];
    if (parse(text, name, &m, err, sizeof err) == 0) {
        (void)hk_mesh_volume(&m, HK_VOLUME_GAUSS);
        (void)hk_mesh_volume(&m, HK_VOLUME_TETRA);
        hk_world_def wd = hk_default_world_def();
        hk_world *w = hk_world_create(&wd);
        FUZZ_REQUIRE(w != NULL, "no world");
        hk_mesh_def d = hk_default_mesh_def();
        d.mesh = &m;
        d.extra_rings = (int)(size % 3);       /* 0 to 2, as a scene may ask */
        d.pressure.nrt = size % 2 ? 100.0 : 0; /* with and without a gas inside */
        if (hk_world_add_mesh(w, &d) >= 0) fuzz_step(w, 10);
        hk_world_destroy(w);
        /* the mesh as a collider: a point dropped through its box's middle, its queries and swept test */
        w = hk_world_create(&wd);
        FUZZ_REQUIRE(w != NULL, "no world");
        hk_collider_def c = hk_default_collider_def();
        c.shape = HK_COLLIDER_MESH;
        c.mesh = &m;
        double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
        for (int v = 0; v < m.vertex_count; v++) {
            const double x[3] = {m.vertices[v].x, m.vertices[v].y, m.vertices[v].z};
            for (int k = 0; k < 3; k++) lo[k] = x[k] < lo[k] ? x[k] : lo[k], hi[k] = x[k] > hi[k] ? x[k] : hi[k];
        }
        const hk_vec3 x = {0.5 * (lo[0] + hi[0]), hi[1] + 0.01, 0.5 * (lo[2] + hi[2])}, v = {0, -100, 0};
        const double mass = 1;
        if (hk_world_add_collider(w, &c) >= 0 && hk_world_add_points(w, 1, &x, &v, &mass) >= 0) fuzz_step(w, 10);
        hk_world_destroy(w);
        hk_mesh_free(&m);
    } else {
        FUZZ_REQUIRE(fuzz_names(err, name), "the message does not name the file: '%s'", err);
    }
    free(text);
    return 0;
}

#endif
