/* layer_rule.c — the thickness rule: a contact layer's size against the bodies' smallest spring, one check. */
/* SPDX-License-Identifier: MIT */
#include "layer_rule.h"

#include <math.h>

#include "pairs.h"

/* What each layer is called, what its limit is, and what a larger one would meet. */
static const struct {
    const char *size, *limit, *meets;
} layers[HK_LAYER_COUNT] = {
    [HK_LAYER_COLLIDER] = {"thickness", "the smallest spring rest length",
                           "a particle would meet the collider through its neighbours"},
    [HK_LAYER_TRIANGLES] = {"thickness", "the smallest spring rest length",
                            "a particle would meet its own body's triangles through its neighbours"},
    [HK_LAYER_PARTICLES] = {"radius", "the smallest spring rest length times the bodies' stencil reach,",
                            "a particle would meet its own body's particles next to its neighbours at rest"},
};

double hk_smallest_rest_length(const hk_world *w)
{
    double best = INFINITY;
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->count == 0) continue;
        if (f->kind == HK_FAMILY_LIST && f->rest_list)
            for (int64_t s = 0; s < f->count; s++) best = fmin(best, (double)f->rest_list[s]);
        else
            best = fmin(best, (double)f->rest);
    }
    return best;
}

int hk_layer_fits(const hk_world *w, hk_layer kind, double size, double rest, double *most)
{
    *most = kind == HK_LAYER_PARTICLES ? hk_particle_radius_limit(w, rest) : rest;
    return !((hk_real)size > (hk_real)*most);
}

int hk_layer_check(hk_world *w, const char *who, hk_layer kind, double size, double rest)
{
    double most;
    if (hk_layer_fits(w, kind, size, rest, &most)) return 0;
    return hk_fail(w, "%s: %s %g m is larger than %s %g m (%s): give a %s of at most %g m", who, layers[kind].size,
                   size, layers[kind].limit, most, layers[kind].meets, layers[kind].size, most);
}
