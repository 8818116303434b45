/* contact_cases.c — what contact costs: a cloth folded on the floor, with and without self collision, by phase. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "hooke/hooke.h"
#include "pairs.h"
#include "response.h"
#include "world.h"

hk_world *hk_bench_fold_world(int n, int threads, int implicit, int self, char *err, size_t errlen)
{
    /* the layers one contact distance apart: the thickness, or two radii (half the spacing each) */
    const double s = 0.01, th = 0.0025, y0 = 0.002, gap = self == HK_BENCH_FOLD_PARTICLES ? s : th;
    const char *contact[] = {
        [HK_BENCH_FOLD_WITHOUT] = "",
        [HK_BENCH_FOLD_TRIANGLES] = "contact\n  self 1\n  thickness 0.0025\n  stiffness 20\n  damping_ratio 1\n"
                                    "  friction 0.3\nend\n",
        [HK_BENCH_FOLD_PARTICLES] = "contact\n  self 1\n  model particles\n  radius 0.005\n  stiffness 20\n"
                                    "  damping_ratio 1\n  friction 0.3\nend\n",
    };
    if (self < HK_BENCH_FOLD_WITHOUT || self > HK_BENCH_FOLD_PARTICLES) {
        snprintf(err, errlen, "fold: contact %d: expected 0 (without), 1 (triangles) or 2 (particles)", self);
        return NULL;
    }
    char text[4096];
    snprintf(text, sizeof text,
             "world\n  gravity 0 -9.81 0\n  air_drag 2e-6\nend\n"
             "body cloth\n  nx %d\n  ny %d\n  spacing %g\n  origin 0 %g 0\n  u 1 0 0\n  v 0 0 1\n  mass 2e-5\n"
             "  springs structural k %d damping 0.02 damping_model relative\n"
             "  springs shear k %d damping 0.02 damping_model relative\nend\n"
             "collider\n  shape box\n  size 100 1 100\n  offset 0 -0.5 0\n  thickness %g\n  stiffness 20\n"
             "  damping_ratio 1\n  friction 0.3\nend\n"
             "%s"
             "run\n  integrator %s\n  dt %s\n%s"
             "end\n",
             n, n, s, y0, implicit ? 60000 : 6000, implicit ? 60000 : 6000, th, contact[self],
             implicit ? "implicit_euler" : "semi_implicit_euler", implicit ? "0.00416666666666667" : "2e-5",
             implicit ? "  cg_stop force\n  cg_tolerance 0.1\n  cg_max_iterations 2000\n" : "");
    hk_world *w = hk_world_parse_scene(text, "fold.scene", NULL, err, errlen);
    if (!w) return NULL;
    if (hk_world_set_threads(w, threads) != HK_OK) {
        snprintf(err, errlen, "%s", hk_world_error(w));
        hk_world_destroy(w);
        return NULL;
    }
    const double dz = sqrt(s * s - gap * gap); /* the crease's springs at their rest length */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            const int upper = j >= n / 2;
            const hk_vec3 x = {i * s, y0 + (upper ? gap : 0), upper ? (n / 2 - 1) * s + dz - (j - n / 2) * s : j * s};
            hk_world_set_position(w, j * n + i, x);
        }
    return w;
}

/* ---- the hooke_bench case ------------------------------------------------ */

typedef struct fold_case {
    hk_world *w;
    int particles;
    hk_contact_profile at_start; /* the profile when the timed runs began */
} fold_case;

void *hk_bench_setup_fold(int n, int threads, const char *variant)
{
    char err[1024];
    fold_case *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    const int model = strstr(variant, "_self")        ? HK_BENCH_FOLD_TRIANGLES
                      : strstr(variant, "_particles") ? HK_BENCH_FOLD_PARTICLES
                                                      : HK_BENCH_FOLD_WITHOUT;
    c->w = hk_bench_fold_world(n, threads, strncmp(variant, "implicit", 8) == 0, model, err, sizeof err);
    if (!c->w) {
        fprintf(stderr, "hooke_bench: fold: %s\n", err);
        free(c);
        return NULL;
    }
    c->particles = n * n;
    for (int k = 0; k < 2; k++) /* the first step finds the surfaces and the candidates */
        if (hk_world_step(c->w) != HK_OK) {
            hk_bench_fold_free(c);
            return NULL;
        }
    c->at_start = hk_contact_profile_of(c->w);
    return c;
}

void hk_bench_run_fold(void *s) { hk_world_step(((fold_case *)s)->w); }

int64_t hk_bench_fold_items(void *s) { return ((fold_case *)s)->particles; }

int hk_bench_fold_counters(void *s, hk_bench_counter *out, int max)
{
    fold_case *c = s;
    const hk_contact_profile p = hk_contact_profile_of(c->w), a = c->at_start;
    const double steps = p.steps > a.steps ? (double)(p.steps - a.steps) : 1;
    const hk_pairs *pr = hk_pairs_of(c->w);
    const int64_t on = pr ? pr->non : 0; /* the touching pairs of the last evaluation */
    const hk_bench_counter all[] = {
        {"broad_ms", 1e3 * (p.broad - a.broad) / steps},
        {"forces_ms", 1e3 * (p.forces - a.forces) / steps},
        {"safety_ms", 1e3 * (p.safety - a.safety) / steps},
        {"pairs", pr ? (double)pr->npair : 0},
        {"touching", (double)on},
    };
    int k = 0;
    for (; k < max && k < (int)(sizeof all / sizeof all[0]); k++) out[k] = all[k];
    return k;
}

void hk_bench_fold_free(void *s)
{
    fold_case *c = s;
    if (!c) return;
    hk_world_destroy(c->w);
    free(c);
}
