/* contact_def.c — the setting of contact between bodies and within one: its defaults, its check, its value. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "collider.h"
#include "layer_rule.h"
#include "pairs.h"
#include "response.h"

hk_contact_def hk_default_contact_def(void)
{
    hk_contact_def d = {0, 0, 0.005, 1000, 1, 0, HK_CONTACT_MAX_PAIRS, HK_CONTACT_TRIANGLES, 0};
    return d;
}

int hk_world_set_contact(hk_world *w, const hk_contact_def *def)
{
    if (!def) return hk_fail(w, "contact: no definition given");
    char why[256];
    if (hk_contact_layer_check("contact", def->thickness, def->stiffness, def->damping_ratio, def->friction, why,
                               sizeof why) != 0)
        return hk_fail(w, "%s", why);
    if (def->max_pairs < 1)
        return hk_fail(w, "contact: max_pairs must be at least 1 (got %lld)", (long long)def->max_pairs);
    if ((def->bodies != 0 && def->bodies != 1) || (def->self != 0 && def->self != 1))
        return hk_fail(w, "contact: bodies and self must be 0 or 1 (got %d, %d)", def->bodies, def->self);
    if (def->model != HK_CONTACT_TRIANGLES && def->model != HK_CONTACT_PARTICLES)
        return hk_fail(w, "contact: model must be HK_CONTACT_TRIANGLES or HK_CONTACT_PARTICLES (got %d)",
                       (int)def->model);
    const int spheres = def->model == HK_CONTACT_PARTICLES;
    if (spheres && !(def->radius > 0 && isfinite(def->radius)))
        return hk_fail(w, "contact: the particle model's radius must be a finite number > 0 m (got %g)", def->radius);
    struct hk_contact *ct = hk_contact_get(w);
    if (!ct) return hk_failed(w);
    const int unfit = def->bodies || def->self
                          ? hk_layer_check(w, "contact", spheres ? HK_LAYER_PARTICLES : HK_LAYER_TRIANGLES,
                                           spheres ? def->radius : def->thickness, hk_smallest_rest_length(w))
                          : 0;
    if (unfit) return unfit;
    if (!def->bodies && !def->self) { /* off */
        hk_pairs_free(ct->pairs);
        ct->pairs = NULL;
        return HK_OK;
    }
    if (!ct->pairs && !(ct->pairs = calloc(1, sizeof *ct->pairs)))
        return hk_fail_memory(w, "out of memory for the contact between bodies");
    if (ct->pairs->def.model != def->model) ct->pairs->built_bodies = -1; /* the surfaces are the model's */
    ct->pairs->def = *def;
    ct->pairs->th = spheres ? 2 * def->radius : def->thickness;
    ct->pairs->surfaces_changed = 1; /* the candidates and the step's pairs are found again, for this layer */
    ct->checked_families = -1;
    return HK_OK;
}

hk_contact_def hk_world_contact(const hk_world *w)
{
    return w->contact && w->contact->pairs ? w->contact->pairs->def : hk_default_contact_def();
}
