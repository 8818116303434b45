/* scene_collider.c — the scene's `collider` and `contact` sections: keys, rules of each, the builds with checks. */
/* SPDX-License-Identifier: MIT */
#include "scene_collider.h"

#include <stdlib.h>

#include "layer_rule.h"
#include "pairs.h"
#include "response.h"
#include "scene_keys.h"

/* indexed by hk_collider_shape */
static const char *const shapes[] = {
    [HK_COLLIDER_MESH] = "mesh", [HK_COLLIDER_BOX] = "box", [HK_COLLIDER_CAPSULE] = "capsule"};
_Static_assert(COUNT_OF(shapes) == HK_COLLIDER_SHAPE_COUNT, "a collider shape without its scene name");

#define C(f) def.f
const sc_key sc_collider_keys[SC_COLLIDER_KEYS] = {
    CHOICE(sc_collider_scene, "shape", C(shape), shapes),
    OWN("file", T_FILE, OPT),
    VEC(sc_collider_scene, "offset", C(offset), CK_ANY, OPT),
    VEC(sc_collider_scene, "rotation", C(rotation), CK_ANY, OPT),
    VEC(sc_collider_scene, "size", C(size), CK_ANY, OPT),
    NUM(sc_collider_scene, "radius", C(radius), CK_POS, OPT),
    NUM(sc_collider_scene, "length", C(length), CK_NONNEG, OPT),
    VEC(sc_collider_scene, "velocity", C(velocity), CK_ANY, OPT),
    VEC(sc_collider_scene, "angular_velocity", C(angular_velocity), CK_ANY, OPT),
    NUM(sc_collider_scene, "thickness", C(thickness), CK_POS, REQ),
    NUM(sc_collider_scene, "stiffness", C(stiffness), CK_STIFF_POS, REQ),
    NUM(sc_collider_scene, "damping_ratio", C(damping_ratio), CK_DAMPING_RATIO, OPT),
    NUM(sc_collider_scene, "friction", C(friction), CK_NONNEG, OPT),
};
_Static_assert(COUNT_OF(sc_collider_keys) == SC_COLLIDER_KEYS, "SC_COLLIDER_KEYS counts the rows");

void sc_collider_init(void *def)
{
    sc_collider_scene *d = def;
    d->def = hk_default_collider_def();
    d->def.shape = HK_COLLIDER_SHAPE_COUNT; /* none until `shape` is read (a required key) */
    d->def.size = (hk_vec3){0, 0, 0};
}

/* The shape's keys: `need` must be given, the other shapes' keys not. */
typedef struct shape_key {
    hk_collider_shape shape;
    size_t off;
    const char *field;
    int need;
} shape_key;

int sc_collider_finish(sc_section *s, void *def, int64_t *count)
{
    sc_collider_scene *d = def;
    const hk_collider_shape shape = d->def.shape;
    *count = 0;
    if ((unsigned)shape >= HK_COLLIDER_SHAPE_COUNT)
        return sc_fail(s->lx, s->lx->line, s->end_col,
                       "collider is missing required key 'shape' (mesh, box or capsule)");
    const shape_key keys[] = {
        {HK_COLLIDER_MESH, SC_NO_FIELD, "file", 1},
        {HK_COLLIDER_BOX, offsetof(sc_collider_scene, def.size), "def.size", 1},
        {HK_COLLIDER_CAPSULE, offsetof(sc_collider_scene, def.radius), "def.radius", 1},
        {HK_COLLIDER_CAPSULE, offsetof(sc_collider_scene, def.length), "def.length", 0},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const int given = sc_given_at(s, keys[k].off, keys[k].field) != NULL;
        const char *name = sc_key_at(s, keys[k].off, keys[k].field)->name;
        if (given && keys[k].shape != shape)
            return sc_fail_key(s, keys[k].off, keys[k].field,
                               keys[k].shape == HK_COLLIDER_MESH  ? "key '%s' needs 'shape mesh'"
                               : keys[k].shape == HK_COLLIDER_BOX ? "key '%s' needs 'shape box'"
                                                                  : "key '%s' needs 'shape capsule'");
        if (!given && keys[k].need && keys[k].shape == shape)
            return sc_fail(s->lx, s->lx->line, s->end_col, "collider with shape %s is missing required key '%s'",
                           shapes[shape], name);
    }
    const hk_vec3 z = d->def.size;
    if (shape == HK_COLLIDER_BOX && !(z.x > 0 && z.y > 0 && z.z > 0)) {
        const sc_given *g = SC_GIVEN(s, sc_collider_scene, def.size);
        return sc_fail(s->lx, g->line, g->vcol, "expected 'size' > 0 in x, y and z, got (%g %g %g)", z.x, z.y, z.z);
    }
    const sc_given *t = SC_GIVEN(s, sc_collider_scene, def.thickness);
    d->thickness_line = t->line;
    d->thickness_col = t->vcol;
    return 0;
}

int sc_collider_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    const sc_collider_scene *d = it->def;
    hk_collider_def def = d->def;
    /* colliders are added after every body (sc_kind.late): every spring is there to check the thickness against */
    double most; /* in the springs' precision, as hk_world_add_collider judges */
    if (!hk_layer_fits(w, HK_LAYER_COLLIDER, def.thickness, hk_smallest_rest_length(w), &most)) {
        sc_fail(lx, d->thickness_line, d->thickness_col,
                "expected a 'thickness' of at most %g m, the smallest spring rest length in the scene, got %g m (a "
                "particle would meet the collider through its neighbours)",
                most, def.thickness);
        return SC_ADD_REPORTED;
    }
    hk_mesh m = {0};
    if (def.shape == HK_COLLIDER_MESH) {
        if (sc_load_mesh(it, lx, &m) != 0) return SC_ADD_REPORTED;
        def.mesh = &m;
    }
    const int index = hk_world_add_collider(w, &def);
    hk_mesh_free(&m);
    return index;
}

/* ---- contact between bodies ---------------------------------------------------------------------------------- */

#define K(f) contact.f
static const char *const contact_models[] = {
    [HK_CONTACT_TRIANGLES] = "triangles", [HK_CONTACT_PARTICLES] = "particles"};
_Static_assert(COUNT_OF(contact_models) == HK_CONTACT_MODEL_COUNT, "a contact model without its scene name");
const sc_key sc_contact_keys[SC_CONTACT_KEYS] = {
    INT(sc_settings, "bodies", K(bodies), 0, 1, OPT),
    INT(sc_settings, "self", K(self), 0, 1, OPT),
    CHOICE(sc_settings, "model", K(model), contact_models),
    NUM(sc_settings, "thickness", K(thickness), CK_POS, OPT), /* the triangle model's, which needs it */
    NUM(sc_settings, "radius", K(radius), CK_POS, OPT),       /* the particle model's, which needs it */
    NUM(sc_settings, "stiffness", K(stiffness), CK_STIFF_POS, REQ),
    NUM(sc_settings, "damping_ratio", K(damping_ratio), CK_DAMPING_RATIO, OPT),
    NUM(sc_settings, "friction", K(friction), CK_NONNEG, OPT),
    INT64(sc_settings, "max_pairs", K(max_pairs), 1, (int64_t)1 << 40, OPT),
};
_Static_assert(COUNT_OF(sc_contact_keys) == SC_CONTACT_KEYS, "SC_CONTACT_KEYS counts the rows");

void sc_contact_init(void *def)
{
    sc_settings *set = def;
    set->contact = hk_default_contact_def();
    set->contact.bodies = set->contact.self = 1; /* the section asks for contact: both, unless it says not */
}

/* The model's own key given, the other model's not: the triangle model needs `thickness`, the particle model
 * `radius`. */
int sc_contact_finish(sc_section *s, void *def, int64_t *count)
{
    (void)count;
    sc_settings *set = def;
    const int spheres = set->contact.model == HK_CONTACT_PARTICLES;
    const sc_given *t = SC_GIVEN(s, sc_settings, contact.thickness), *r = SC_GIVEN(s, sc_settings, contact.radius);
    const sc_given *own = spheres ? r : t, *other = spheres ? t : r;
    if (other)
        return sc_fail(s->lx, other->line, other->col, "key '%s' belongs to 'model %s'; 'model %s' takes '%s'",
                       spheres ? "thickness" : "radius", contact_models[!set->contact.model],
                       contact_models[set->contact.model], spheres ? "radius" : "thickness");
    if (!own)
        return sc_fail(s->lx, s->lx->line, s->end_col, "contact%s is missing required key '%s'",
                       spheres ? " with model particles" : "", spheres ? "radius" : "thickness");
    set->contact_line = own->line;
    set->contact_col = own->vcol;
    return 0;
}

int sc_contact_build(hk_world *w, const sc_settings *set, sc_lexer *lx)
{
    if (!set->contact.bodies && !set->contact.self) return 0;
    const int spheres = set->contact.model == HK_CONTACT_PARTICLES;
    const double rest = hk_smallest_rest_length(w);
    double most; /* as hk_world_set_contact judges */
    if (spheres && !hk_layer_fits(w, HK_LAYER_PARTICLES, set->contact.radius, rest, &most))
        return sc_fail(lx, set->contact_line, set->contact_col,
                       "expected a 'radius' of at most %g m, the smallest spring rest length in the scene times the "
                       "bodies' stencil reach, got %g m (a particle would meet its own body's particles next to its "
                       "neighbours at rest)",
                       most, set->contact.radius);
    if (!spheres && !hk_layer_fits(w, HK_LAYER_TRIANGLES, set->contact.thickness, rest, &most))
        return sc_fail(lx, set->contact_line, set->contact_col,
                       "expected a 'thickness' of at most %g m, the smallest spring rest length in the scene, got %g "
                       "m (a particle would meet its own body's triangles through its neighbours)",
                       most, set->contact.thickness);
    if (hk_world_set_contact(w, &set->contact) != 0)
        return sc_fail(lx, set->contact_line, 1, "contact: %s", hk_world_error(w));
    return 0;
}
