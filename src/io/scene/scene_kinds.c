/* scene_kinds.c — the scene format's facts: every section, key, choice, spring family and body kind. */
/* SPDX-License-Identifier: MIT */
#include "scene_kinds.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "scene_collider.h"
#include "scene_keys.h"
#include "scene_points.h"

/* A new key is one row in its section's table; a new body kind is one row of sc_items with its key
 * table (and any descriptor wrapper, hooks) next to it. Each key writes through offsetof straight
 * into its section's descriptor; the macros (scene_keys.h) check the field's C type against the
 * key's type. The collider's table and hooks live in scene_collider.c, body points' in scene_points.c. */

/* ------------------------------------------------------------------------ */
/* Choices, indexed by the enum they name (NULL: not accepted in scene files) */

static const char *const ground_models[] = {[HK_GROUND_REPULSION] = "repulsion", [HK_GROUND_SPRING] = "spring"};
static const char *const rope_topologies[] = {
    [HK_ROPE_CHAIN] = "chain", [HK_ROPE_SKIP_ONE] = "skip_one", [HK_ROPE_ALL_TO_ALL] = "all_to_all"};
static const char *const cloth_pin_modes[] = {[HK_PIN_NONE] = "none",
                                              [HK_PIN_EDGE] = "edge",
                                              [HK_PIN_TWO_CORNERS] = "two_corners",
                                              [HK_PIN_FOUR_EDGES] = "four_edges"};
static const char *const damping_models[] = {[HK_DAMP_ALONG] = "along", [HK_DAMP_RELATIVE] = "relative"};
static const char *const behaviours[] = {[HK_SPRING_NORMAL] = "normal",
                                         [HK_SPRING_TENSION_ONLY] = "tension_only",
                                         [HK_SPRING_COMPRESSION_ONLY] = "compression_only",
                                         [HK_SPRING_BREAKABLE] = "breakable"};
static const char *const wind_models[] = {
    [HK_WIND_NONE] = "none", [HK_WIND_VERTEX] = "vertex", [HK_WIND_TRIANGLE] = "triangle"};
static const char *const preconditioners[] = {
    [HK_PRECONDITIONER_MULTIGRID] = "multigrid", [HK_PRECONDITIONER_BLOCK_JACOBI] = "block_jacobi"};
static const char *const cg_stops[] = {[HK_CG_STOP_FORCE] = "force",
                                       [HK_CG_STOP_RELATIVE] = "relative",
                                       [HK_CG_STOP_ENERGY] = "energy",
                                       [HK_CG_STOP_NEWTON] = "newton"};
static const char *const jelly_neighbours[] = {"26", "52"};
static const int jelly_neighbour_counts[] = {26, 52};

_Static_assert(COUNT_OF(ground_models) == HK_GROUND_MODEL_COUNT, "a ground model without its scene name");
_Static_assert(COUNT_OF(rope_topologies) == HK_ROPE_TOPOLOGY_COUNT, "a rope topology without its scene name");
_Static_assert(COUNT_OF(cloth_pin_modes) == HK_CLOTH_PINS_COUNT, "a cloth pin mode without its scene name");
_Static_assert(COUNT_OF(damping_models) == HK_DAMP_MODEL_COUNT, "a damping model without its scene name");
_Static_assert(COUNT_OF(behaviours) == HK_SPRING_BEHAVIOUR_COUNT, "a spring behaviour without its scene name");
_Static_assert(COUNT_OF(preconditioners) == HK_PRECONDITIONER_COUNT, "a preconditioner without its scene name");
_Static_assert(COUNT_OF(cg_stops) == HK_CG_STOP_COUNT, "a CG stopping rule without its scene name");
_Static_assert(COUNT_OF(wind_models) == HK_WIND_MODEL_COUNT, "a wind model without its scene name");
_Static_assert(COUNT_OF(jelly_neighbours) == COUNT_OF(jelly_neighbour_counts), "a neighbour count without its name");

/* ------------------------------------------------------------------------ */
/* Hook helpers                                                              */

/* "key '%s' needs 'nrt' > 0" when pump_rate is given without a pressure */
static int check_pump(sc_section *s, const hk_pressure_def *pr, size_t pump_off)
{
    if (sc_given_at(s, pump_off, "pressure.pump_rate") && !(pr->nrt > 0))
        return sc_fail_key(s, pump_off, "pressure.pump_rate", "key '%s' needs 'nrt' > 0");
    return 0;
}

/* The keys u and v (at u_off, v_off) must span a plane. */
static int check_not_parallel(sc_section *s, hk_vec3 u, hk_vec3 v, size_t u_off, size_t v_off)
{
    hk_vec3 c = {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
    double cn = sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
    double un = sqrt(u.x * u.x + u.y * u.y + u.z * u.z), vn = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (cn > 1e-9 * un * vn) return 0;
    const sc_given *kv = sc_given_at(s, v_off, "v");
    if (!kv) kv = sc_given_at(s, u_off, "u");
    return sc_fail(s->lx, kv ? kv->line : s->lx->line, kv ? kv->vcol : 1,
                   "expected 'u' and 'v' not parallel in %s (they span the body's plane)", s->kind->title);
}

/* ------------------------------------------------------------------------ */
/* Sections: world, run, ground, walls                                       */

static const sc_key world_keys[] = {
    VEC(hk_world_def, "gravity", gravity, CK_ANY, OPT),
    NUM(hk_world_def, "air_drag", air_drag, CK_DAMPING, OPT),
    INT(hk_world_def, "threads", threads, 0, HK_MAX_THREADS, OPT),
    VEC(hk_world_def, "wind", wind, CK_ANY, OPT),
    CHOICE(hk_world_def, "wind_model", wind_model, wind_models),
    NUM(hk_world_def, "wind_drag", wind_drag, CK_DAMPING, OPT),
    INT(hk_world_def, "strain_sweeps", strain_sweeps, 1, 1000000, OPT),
    OWN("gravity_schedule", T_SCHEDULE, OPT),
};

static int world_finish(sc_section *s, void *def, int64_t *count)
{
    (void)count;
    const hk_world_def *w = def;
    const char *needs = "key '%s' needs 'wind_model vertex' or 'wind_model triangle'";
    if (w->wind_model != HK_WIND_NONE) return 0;
    if (SC_GIVEN(s, hk_world_def, wind)) return SC_FAIL_KEY(s, hk_world_def, wind, needs);
    if (SC_GIVEN(s, hk_world_def, wind_drag)) return SC_FAIL_KEY(s, hk_world_def, wind_drag, needs);
    return 0;
}

static const sc_key run_keys[] = {
    {.name = "integrator", .type = T_INTEGRATOR, .off = AT_ENUM(sc_settings, integrator.kind)},
    NUM(sc_settings, "dt", integrator.dt, CK_STEP, REQ),
    NUM(sc_settings, "dt_max", integrator.dt_max, CK_STEP_OR_0, OPT),
    INT64(sc_settings, "steps", steps, 1, INT64_MAX, OPT),
    NUM(sc_settings, "time", time, CK_POS, OPT),
    INT64(sc_settings, "every", every, 1, INT64_MAX, OPT),
    NUM(sc_settings, "stretch_limit", stretch_limit, CK_GT1, OPT),
    NUM(sc_settings, "jelly_dt_a", integrator.jelly_dt_a, CK_STEP_OR_0, OPT),
    NUM(sc_settings, "jelly_dt_v", integrator.jelly_dt_v, CK_STEP_OR_0, OPT),
    NUM(sc_settings, "jelly_alpha", integrator.jelly_alpha, CK_ALPHA, OPT),
    NUM(sc_settings, "cg_tolerance", integrator.cg_tolerance, CK_FRACTION, OPT),
    INT(sc_settings, "cg_max_iterations", integrator.cg_max_iterations, 1, INT_MAX, OPT),
    INT(sc_settings, "newton_iterations", integrator.newton_iterations, 1, HK_MAX_NEWTON_ITERATIONS, OPT),
    NUM(sc_settings, "newton_tolerance", integrator.newton_tolerance, CK_FRACTION, OPT),
    INT(sc_settings, "iterations", integrator.iterations, 1, HK_MAX_ITERATIONS, OPT),
    NUM(sc_settings, "chebyshev_rho", integrator.chebyshev_rho, CK_FRACTION, OPT),
    CHOICE(sc_settings, "cg_preconditioner", integrator.preconditioner, preconditioners),
    CHOICE(sc_settings, "cg_stop", integrator.cg_stop, cg_stops),
};

/* -1 if the key at off, a setting of the jelly integrator only, is given */
static int jelly_only(sc_section *s, size_t off, const char *field)
{
    const sc_given *g = sc_given_at(s, off, field);
    if (!g) return 0;
    return sc_fail(s->lx, g->line, g->col, "key '%s' needs 'integrator %s'", sc_key_at(s, off, field)->name,
                   hk_integrator_name(HK_JELLY));
}
#define JELLY_ONLY(s, f) jelly_only((s), offsetof(sc_settings, f), #f)

/* The facts of the integrator table (hooke.h hk_integrator_info) that a run key needs, and what the refusal calls
 * the integrators that have one. */
typedef enum { NEEDS_IMPLICIT, NEEDS_LINEARISED, NEEDS_MINIMISED, NEEDS_ITERATED, NEEDS_ACCELERATED } integrator_fact;
static const char *const fact_words[] = {"an implicit", "a linearised", "a minimising", "an iterated",
                                         "an accelerated"};

static int has_fact(hk_integrator_kind kind, integrator_fact fact)
{
    const hk_integrator_info *in = hk_integrator_info_of(kind);
    return fact == NEEDS_IMPLICIT     ? in->implicit
           : fact == NEEDS_LINEARISED ? in->linearised
           : fact == NEEDS_MINIMISED  ? in->minimised
           : fact == NEEDS_ITERATED   ? in->iterated
                                      : in->accelerated;
}

/* -1 if the key at off, a setting of the integrators with the fact only, is given to one without it */
static int needs_fact(sc_section *s, const sc_settings *r, size_t off, const char *field, integrator_fact fact)
{
    const sc_given *g = sc_given_at(s, off, field);
    if (!g || has_fact(r->integrator.kind, fact)) return 0;
    char names[256] = ""; /* the integrators that have it, as "a, b or c" */
    int n = 0, total = 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) total += has_fact(k, fact) != 0;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        if (!has_fact(k, fact)) continue;
        const size_t at = strlen(names);
        snprintf(names + at, sizeof names - at, "%s%s",
                 n == 0           ? ""
                 : n == total - 1 ? " or "
                                  : ", ",
                 hk_integrator_name(k));
        n++;
    }
    return sc_fail(s->lx, g->line, g->col, "key '%s' needs %s integrator (%s)", sc_key_at(s, off, field)->name,
                   fact_words[fact], names);
}
#define NEEDS(s, r, f, fact) needs_fact((s), (r), offsetof(sc_settings, f), #f, (fact))

static int run_finish(sc_section *s, void *def, int64_t *count)
{
    (void)count;
    const sc_settings *r = def;
    if (r->integrator.kind != HK_JELLY &&
        (JELLY_ONLY(s, integrator.jelly_dt_a) || JELLY_ONLY(s, integrator.jelly_dt_v) ||
         JELLY_ONLY(s, integrator.jelly_alpha)))
        return -1;
    if (NEEDS(s, r, integrator.cg_tolerance, NEEDS_IMPLICIT) ||
        NEEDS(s, r, integrator.cg_max_iterations, NEEDS_IMPLICIT) ||
        NEEDS(s, r, integrator.preconditioner, NEEDS_IMPLICIT) || NEEDS(s, r, integrator.cg_stop, NEEDS_IMPLICIT) ||
        NEEDS(s, r, integrator.newton_iterations, NEEDS_LINEARISED) ||
        NEEDS(s, r, integrator.newton_tolerance, NEEDS_MINIMISED) ||
        NEEDS(s, r, integrator.iterations, NEEDS_ITERATED) || NEEDS(s, r, integrator.chebyshev_rho, NEEDS_ACCELERATED))
        return -1;
    if (SC_GIVEN(s, sc_settings, integrator.newton_tolerance) && SC_GIVEN(s, sc_settings, integrator.newton_iterations))
        return SC_FAIL_KEY(s, sc_settings, integrator.newton_tolerance,
                           "key '%s' conflicts with 'newton_iterations' (the minimisation's tolerance and the "
                           "linearised step's count: give one)");
    if (SC_GIVEN(s, sc_settings, steps) && SC_GIVEN(s, sc_settings, time))
        return SC_FAIL_KEY(s, sc_settings, time, "key '%s' conflicts with 'steps' in run (give one run length)");
    return 0;
}

static const sc_key ground_keys[] = {
    CHOICE(hk_ground, "model", model, ground_models),
    NUM(hk_ground, "height", height, CK_ANY, OPT),
    NUM(hk_ground, "repulsion", repulsion, CK_STIFFNESS, OPT),
    NUM(hk_ground, "friction", friction, CK_DAMPING, OPT),
    NUM(hk_ground, "absorption", absorption, CK_DAMPING, OPT),
    NUM(hk_ground, "stiffness", stiffness, CK_STIFFNESS, OPT),
};

static void ground_init(void *def) { ((hk_ground *)def)->model = HK_GROUND_REPULSION; }

/* "ground with model M is missing required key 'K'" at the `end` line */
static int ground_needs(sc_section *s, const hk_ground *g, size_t off, const char *field)
{
    if (sc_given_at(s, off, field)) return 0;
    return sc_fail(s->lx, s->lx->line, 1, "ground with model %s is missing required key '%s'", ground_models[g->model],
                   sc_key_at(s, off, field)->name);
}

static int ground_finish(sc_section *s, void *def, int64_t *count)
{
    (void)count;
    const hk_ground *g = def;
    if (g->model == HK_GROUND_REPULSION) {
        if (SC_GIVEN(s, hk_ground, stiffness))
            return SC_FAIL_KEY(s, hk_ground, stiffness, "key '%s' needs 'model spring'");
        return ground_needs(s, g, offsetof(hk_ground, repulsion), "repulsion");
    }
    const char *needs = "key '%s' needs 'model repulsion'";
    if (SC_GIVEN(s, hk_ground, repulsion)) return SC_FAIL_KEY(s, hk_ground, repulsion, needs);
    if (SC_GIVEN(s, hk_ground, friction)) return SC_FAIL_KEY(s, hk_ground, friction, needs);
    if (SC_GIVEN(s, hk_ground, absorption)) return SC_FAIL_KEY(s, hk_ground, absorption, needs);
    return ground_needs(s, g, offsetof(hk_ground, stiffness), "stiffness");
}

static const sc_key walls_keys[] = {
    VEC(hk_world_def, "min", walls_min, CK_ANY, REQ),
    VEC(hk_world_def, "max", walls_max, CK_ANY, REQ),
    NUM(hk_world_def, "loss", walls_loss, CK_UNIT, OPT),
};

static int walls_finish(sc_section *s, void *def, int64_t *count)
{
    (void)count;
    hk_world_def *w = def;
    hk_vec3 lo = w->walls_min, hi = w->walls_max;
    if (!(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z)) {
        const sc_given *v = SC_GIVEN(s, hk_world_def, walls_max);
        return sc_fail(s->lx, v->line, v->vcol,
                       "expected 'max' greater than 'min' in x, y and z, got max (%g %g %g) and min (%g %g %g)", hi.x,
                       hi.y, hi.z, lo.x, lo.y, lo.z);
    }
    w->has_walls = 1;
    return 0;
}

const sc_kind sc_sections[SC_SECTION_COUNT] = {
    [SC_WORLD] = {.word = "world",
                  .title = "world",
                  KEYS(world_keys),
                  .base = offsetof(sc_settings, world),
                  .finish = world_finish},
    [SC_RUN] = {.word = "run", .title = "run", KEYS(run_keys), .base = 0, .finish = run_finish},
    [SC_GROUND] = {.word = "ground",
                   .title = "ground",
                   KEYS(ground_keys),
                   .base = offsetof(sc_settings, world.ground),
                   .init = ground_init,
                   .finish = ground_finish},
    [SC_WALLS] = {.word = "walls",
                  .title = "walls",
                  KEYS(walls_keys),
                  .base = offsetof(sc_settings, world),
                  .finish = walls_finish},
    [SC_CONTACT] = {.word = "contact",
                    .title = "contact",
                    .keys = sc_contact_keys,
                    .nkeys = SC_CONTACT_KEYS,
                    .base = 0,
                    .init = sc_contact_init,
                    .finish = sc_contact_finish},
};

sc_settings sc_default_settings(void)
{
    sc_settings s;
    memset(&s, 0, sizeof s);
    s.world = hk_default_world_def();
    s.integrator = hk_default_integrator_def();
    s.every = 0; /* not given: the program chooses */
    s.stretch_limit = HK_STRETCH_LIMIT;
    return s;
}

/* keys of a `springs FAMILY ...` line */
static const sc_key springs_keys[] = {
    NUM(hk_spring_params, "k", k, CK_STIFFNESS, REQ),
    NUM(hk_spring_params, "damping", damping, CK_DAMPING, OPT),
    CHOICE(hk_spring_params, "damping_model", damping_model, damping_models),
    CHOICE(hk_spring_params, "behaviour", behaviour, behaviours),
    NUM(hk_spring_params, "break_ratio", break_ratio, CK_GT1, OPT),
    NUM(hk_spring_params, "rest_length", rest_length, CK_NONNEG, OPT),
    NUM(hk_spring_params, "strain_limit", strain_limit, CK_POS, OPT),
    NUM(hk_spring_params, "compress_limit", compress_limit, CK_FRACTION, OPT),
};
const sc_kind sc_springs_line = {.word = "springs", .title = "springs line", KEYS(springs_keys)};

/* ------------------------------------------------------------------------ */
/* Items: sphere and the body kinds                                          */

static const sc_key sphere_keys[] = {
    VEC(hk_sphere_def, "center", center, CK_ANY, REQ),
    NUM(hk_sphere_def, "radius", radius, CK_POS, REQ),
    VEC(hk_sphere_def, "velocity", velocity, CK_ANY, OPT),
    NUM(hk_sphere_def, "loss", loss, CK_UNIT, OPT),
};
static int sphere_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_sphere(w, it->def);
}

static const sc_key rope_keys[] = {
    INT(hk_rope_def, "count", count, 2, SC_MAX_BODY_PARTICLES, REQ),
    NUM(hk_rope_def, "mass", mass, CK_MASS, REQ),
    NUM(hk_rope_def, "spacing", spacing, CK_POS, REQ),
    VEC(hk_rope_def, "origin", origin, CK_ANY, OPT),
    VEC(hk_rope_def, "direction", direction, CK_NONZERO, OPT),
    CHOICE(hk_rope_def, "topology", topology, rope_topologies),
    INT(hk_rope_def, "anchor", anchor, 0, 1, OPT),
    VEC(hk_rope_def, "anchor_velocity", anchor_velocity, CK_ANY, OPT),
    PINS,
    TETHERS,
};
static const sc_family rope_families[] = {
    FAMILY(hk_rope_def, "chain", springs),
    FAMILY(hk_rope_def, "skip", skip_springs),
};
static void rope_init(void *def) { *(hk_rope_def *)def = hk_default_rope_def(); }
static int rope_finish(sc_section *s, void *def, int64_t *count)
{
    hk_rope_def *d = def;
    if (SC_GIVEN(s, hk_rope_def, anchor_velocity) && !d->anchor)
        return SC_FAIL_KEY(s, hk_rope_def, anchor_velocity, "key '%s' needs 'anchor 1'");
    const int skip = SC_FAMILY(s, hk_rope_def, skip_springs) != NULL;
    if (skip && d->topology != HK_ROPE_SKIP_ONE)
        return SC_FAIL_FAMILY(s, hk_rope_def, skip_springs, "needs 'topology skip_one'");
    if (!skip) d->skip_springs = d->springs;
    *count = d->count;
    s->one_row = d->topology != HK_ROPE_ALL_TO_ALL;
    s->lattice_families = d->topology == HK_ROPE_SKIP_ONE ? 2 : d->topology == HK_ROPE_CHAIN ? 1 : 0;
    if (d->topology == HK_ROPE_ALL_TO_ALL) s->list_springs = (int64_t)d->count * (d->count - 1) / 2;
    return 0;
}
static int rope_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_rope(w, it->def);
}

/* a cloth and the named fabric its `preset` key chose (fabric.h) */
typedef struct cloth_scene {
    hk_cloth_def cloth;
    int preset;
} cloth_scene;
#define FABRIC_NAME(name, rho, stretch, shear, bend) #name,
static const char *const fabric_names[] = {HK_FABRIC_PRESETS(FABRIC_NAME)};
const char *const sc_tether_kinds[] = {
    [HK_TETHERS_NONE] = "none", [HK_TETHERS_EUCLIDEAN] = "euclidean", [HK_TETHERS_GEODESIC] = "geodesic"};

static const sc_key cloth_keys[] = {
    INT(cloth_scene, "nx", cloth.nx, 2, SC_MAX_BODY_PARTICLES, REQ),
    INT(cloth_scene, "ny", cloth.ny, 2, SC_MAX_BODY_PARTICLES, REQ),
    NUM(cloth_scene, "spacing", cloth.spacing, CK_POS, REQ),
    VEC(cloth_scene, "origin", cloth.origin, CK_ANY, OPT),
    VEC(cloth_scene, "u", cloth.u, CK_NONZERO, OPT),
    VEC(cloth_scene, "v", cloth.v, CK_NONZERO, OPT),
    NUM(cloth_scene, "mass", cloth.mass, CK_MASS, OPT),
    NUM(cloth_scene, "radius", cloth.radius, CK_POS, OPT),
    CHOICE(cloth_scene, "pins", cloth.pins, cloth_pin_modes),
    PINS,
    TETHERS,
    NUM(cloth_scene, "areal_density", cloth.fabric.areal_density, CK_POS, OPT),
    NUM(cloth_scene, "stretch", cloth.fabric.stretch, CK_POS, OPT),
    NUM(cloth_scene, "shear", cloth.fabric.shear, CK_POS, OPT),
    NUM(cloth_scene, "bend", cloth.fabric.bend, CK_POS, OPT),
    CHOICE(cloth_scene, "preset", preset, fabric_names),
};
static const sc_family cloth_families[] = {
    FAMILY(cloth_scene, "structural", cloth.structural_springs),
    FAMILY(cloth_scene, "shear", cloth.shear_springs),
    FAMILY(cloth_scene, "bend", cloth.bend_springs),
    FAMILY(cloth_scene, "radius", cloth.radius_springs),
};
static void cloth_init(void *def) { ((cloth_scene *)def)->cloth = hk_default_cloth_def(); }

/* The fabric figure of the key at `off` of cloth_scene: the key's value, or where it is not given the preset's. */
static double fabric_figure(sc_section *s, size_t off, const hk_fabric *preset)
{
    double *v = (double *)((char *)s->def + off);
    if (preset && !sc_given_at(s, off, "cloth.fabric"))
        memcpy(v, (const char *)preset + (off - offsetof(cloth_scene, cloth.fabric)), sizeof *v);
    return *v;
}

/* The fabric figures that set a family's k (builders.c, fabric.h), each with that family. */
static const struct {
    size_t key, family;
} fabric_families[] = {
    {offsetof(cloth_scene, cloth.fabric.stretch), offsetof(cloth_scene, cloth.structural_springs)},
    {offsetof(cloth_scene, cloth.fabric.shear), offsetof(cloth_scene, cloth.shear_springs)},
    {offsetof(cloth_scene, cloth.fabric.bend), offsetof(cloth_scene, cloth.bend_springs)},
};

static int cloth_finish(sc_section *s, void *def, int64_t *count)
{
    cloth_scene *cs = def;
    hk_cloth_def *d = &cs->cloth;
    const int preset = SC_GIVEN(s, cloth_scene, preset) != NULL;
    const hk_fabric *row = preset ? &hk_fabric_rows[cs->preset].fabric : NULL;
    const int mass = SC_GIVEN(s, cloth_scene, cloth.mass) != NULL;
    if (mass && SC_GIVEN(s, cloth_scene, cloth.fabric.areal_density))
        return SC_FAIL_KEY(s, cloth_scene, cloth.fabric.areal_density,
                           "key '%s' conflicts with 'mass' (the mass per area, or the mass per node: give one)");
    /* a mass given overrides the preset's areal density */
    if (!mass && !(fabric_figure(s, offsetof(cloth_scene, cloth.fabric.areal_density), row) > 0))
        return sc_fail(s->lx, s->lx->line, s->end_col,
                       "%s is missing required key 'mass' (or 'areal_density', or a 'preset', which gives it)",
                       s->kind->title);
    int *const on[] = {&d->structural, &d->shear, &d->bend};
    for (int f = 0; f < COUNT_OF(fabric_families); f++) {
        const size_t key = fabric_families[f].key, fam = fabric_families[f].family;
        const double v = fabric_figure(s, key, row);
        const sc_given *line = sc_family_at(s, fam, "cloth.*_springs");
        if (v > 0 && line) {
            const sc_key *k = sc_key_at(s, key, "cloth.fabric");
            char why[200];
            snprintf(why, sizeof why, "gives k where %s '%s' sets it (give one: the fabric figure or the line's k)",
                     sc_given_at(s, key, "cloth.fabric") ? "the key" : "the preset's figure", k->name);
            return sc_fail_family(s, fam, "cloth.*_springs", why);
        }
        *on[f] = line != NULL || v > 0; /* naming a family enables it, and so does its fabric figure */
    }
    const int radius_line = SC_FAMILY(s, cloth_scene, cloth.radius_springs) != NULL;
    if (!d->structural && !d->shear && !d->bend && !radius_line) {
        char list[256];
        size_t o = 0;
        list[0] = '\0';
        for (int f = 0; f < s->kind->nfamilies && o < sizeof list; f++)
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", f ? ", " : "", s->kind->families[f].name);
        return sc_fail(s->lx, s->lx->line, s->end_col,
                       "%s has no springs line (expected at least one of: %s) and no fabric figure (stretch, shear, "
                       "bend or preset)",
                       s->kind->title, list);
    }
    if (SC_GIVEN(s, cloth_scene, cloth.radius) && !radius_line)
        return SC_FAIL_KEY(s, cloth_scene, cloth.radius, "key '%s' needs a 'springs radius' line");
    if (radius_line && !SC_GIVEN(s, cloth_scene, cloth.radius))
        return SC_FAIL_FAMILY(s, cloth_scene, cloth.radius_springs, "needs the key 'radius'");
    if (check_not_parallel(s, d->u, d->v, offsetof(cloth_scene, cloth.u), offsetof(cloth_scene, cloth.v))) return -1;
    *count = (int64_t)d->nx * d->ny;
    /* two families a kind (builders.c; a fabric's structural six: its edge rows), and the radius families: the
     * offsets within the radius, half of them */
    const double reach = radius_line ? d->radius / d->spacing : 0;
    s->lattice_families = 2 * (d->structural + d->shear + d->bend) + 4 * (d->fabric.stretch > 0) +
                          (int)fmin(4096, 1.6 * reach * reach + 1);
    return 0;
}
static int cloth_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_cloth(w, &((const cloth_scene *)it->def)->cloth);
}

/* a jelly and its springs family "all": the default of every class not given */
typedef struct jelly_scene {
    hk_jelly_def jelly;
    hk_spring_params all;
} jelly_scene;
static const sc_key jelly_keys[] = {
    INT(jelly_scene, "nx", jelly.nx, 2, SC_MAX_BODY_PARTICLES, REQ),
    INT(jelly_scene, "ny", jelly.ny, 2, SC_MAX_BODY_PARTICLES, REQ),
    INT(jelly_scene, "nz", jelly.nz, 2, SC_MAX_BODY_PARTICLES, REQ),
    NUM(jelly_scene, "spacing", jelly.spacing, CK_POS, REQ),
    VEC(jelly_scene, "origin", jelly.origin, CK_ANY, OPT),
    NUM(jelly_scene, "mass", jelly.mass, CK_MASS, REQ),
    CHOICE_OF(jelly_scene, "neighbours", jelly.neighbours, jelly_neighbours, jelly_neighbour_counts),
    PINS,
};
static const sc_family jelly_families[] = {
    FAMILY(jelly_scene, "K1", jelly.springs[HK_K1]),
    FAMILY(jelly_scene, "K2", jelly.springs[HK_K2]),
    FAMILY(jelly_scene, "K3", jelly.springs[HK_K3]),
    FAMILY(jelly_scene, "Kb1", jelly.springs[HK_KB1]),
    FAMILY(jelly_scene, "Kb2", jelly.springs[HK_KB2]),
    FAMILY(jelly_scene, "Kb3", jelly.springs[HK_KB3]),
    FAMILY(jelly_scene, "all", all),
};
static void jelly_init(void *def) { ((jelly_scene *)def)->jelly = hk_default_jelly_def(); }
static int jelly_finish(sc_section *s, void *def, int64_t *count)
{
    jelly_scene *j = def;
    hk_jelly_def *d = &j->jelly;
    const int all = SC_FAMILY(s, jelly_scene, all) != NULL;
    for (int c = 0; c < HK_JELLY_CLASSES; c++) {
        const size_t off = offsetof(jelly_scene, jelly.springs) + (size_t)c * sizeof d->springs[0];
        const int given = sc_family_at(s, off, "jelly.springs[c]") != NULL;
        if (c >= HK_KB1 && d->neighbours == 26 && given)
            return sc_fail_family(s, off, "jelly.springs[c]", "needs 'neighbours 52'");
        if (!given && all) d->springs[c] = j->all;
    }
    *count = (int64_t)d->nx * d->ny * d->nz;
    s->lattice_families = d->neighbours / 2; /* the half stencil (builders.c) */
    return 0;
}
static int jelly_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_jelly(w, &((const jelly_scene *)it->def)->jelly);
}

static const sc_key quad_keys[] = {
    NUM(hk_quad_def, "size", size, CK_POS, REQ),
    VEC(hk_quad_def, "origin", origin, CK_ANY, OPT),
    VEC(hk_quad_def, "u", u, CK_NONZERO, OPT),
    VEC(hk_quad_def, "v", v, CK_NONZERO, OPT),
    NUM(hk_quad_def, "mass", mass, CK_MASS, REQ),
    INT(hk_quad_def, "diagonals", diagonals, 0, 1, OPT),
    PINS,
};
static const sc_family quad_families[] = {FAMILY(hk_quad_def, "main", springs)};
static void quad_init(void *def) { *(hk_quad_def *)def = hk_default_quad_def(); }
static int quad_finish(sc_section *s, void *def, int64_t *count)
{
    const hk_quad_def *d = def;
    if (check_not_parallel(s, d->u, d->v, offsetof(hk_quad_def, u), offsetof(hk_quad_def, v))) return -1;
    *count = 4;
    return 0;
}
static int quad_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_quad(w, it->def);
}

static const sc_key spring_keys[] = {
    VEC(hk_spring_pair_def, "a", a, CK_ANY, REQ),
    VEC(hk_spring_pair_def, "b", b, CK_ANY, REQ),
    VEC(hk_spring_pair_def, "velocity_b", velocity_b, CK_ANY, OPT),
    NUM(hk_spring_pair_def, "mass_a", mass_a, CK_MASS, OPT),
    NUM(hk_spring_pair_def, "mass_b", mass_b, CK_MASS, REQ),
    INT(hk_spring_pair_def, "pin_a", pin_a, 0, 1, OPT),
};
static const sc_family spring_families[] = {FAMILY(hk_spring_pair_def, "main", springs)};
static void spring_init(void *def) { *(hk_spring_pair_def *)def = hk_default_spring_pair_def(); }
static int spring_finish(sc_section *s, void *def, int64_t *count)
{
    hk_spring_pair_def *d = def;
    if (!SC_GIVEN(s, hk_spring_pair_def, mass_a)) d->mass_a = d->mass_b;
    const hk_vec3 ends[2] = {d->a, d->b};
    const int a = 0, b = 1;
    char why[320];
    if (hk_find_zero_length_spring(2, ends, 1, &a, &b, why, sizeof why) == 0) {
        const sc_given *g = SC_GIVEN(s, hk_spring_pair_def, b);
        return sc_fail(s->lx, g->line, g->col, "key 'b': the spring %s", why);
    }
    *count = 2;
    return 0;
}
static int spring_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_spring_pair(w, it->def);
}

static const sc_key pendulum_keys[] = {
    VEC(hk_pendulum_def, "pivot", pivot, CK_ANY, OPT), NUM(hk_pendulum_def, "length", length, CK_POS, REQ),
    NUM(hk_pendulum_def, "angle", angle, CK_ANY, OPT), NUM(hk_pendulum_def, "mass", mass, CK_MASS, REQ),
    NUM(hk_pendulum_def, "k", k, CK_STIFF_POS, REQ),   NUM(hk_pendulum_def, "damping", damping, CK_DAMPING, OPT),
};
static void pendulum_init(void *def) { *(hk_pendulum_def *)def = hk_default_pendulum_def(); }
static int pendulum_finish(sc_section *s, void *def, int64_t *count)
{
    (void)s;
    (void)def;
    *count = 2;
    return 0;
}
static int pendulum_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_pendulum(w, it->def);
}

/* mesh and icosphere: rules on the hk_mesh_def at `base` of the descriptor */
static int surface_finish(sc_section *s, hk_mesh_def *d, size_t base)
{
    if (d->extra_rings == 1)
        return sc_fail_key(s, base + offsetof(hk_mesh_def, extra_rings), "extra_rings",
                           "key '%s' must be 0 or in [2, 8] (1 is the edges)");
    const size_t extra = base + offsetof(hk_mesh_def, extra_springs);
    const int extra_line = sc_family_at(s, extra, "extra_springs") != NULL;
    if (!extra_line) d->extra_springs = d->springs;
    if (extra_line && d->extra_rings < 2) return sc_fail_family(s, extra, "extra_springs", "needs 'extra_rings' >= 2");
    return check_pump(s, &d->pressure, base + offsetof(hk_mesh_def, pressure.pump_rate));
}

static const sc_key mesh_keys[] = {
    OWN("file", T_FILE, REQ),
    VEC(hk_mesh_def, "offset", offset, CK_ANY, OPT),
    NUM(hk_mesh_def, "mass", mass, CK_MASS, REQ),
    VEC(hk_mesh_def, "velocity", velocity, CK_ANY, OPT),
    INT(hk_mesh_def, "extra_rings", extra_rings, 0, 8, OPT),
    NUM(hk_mesh_def, "nrt", pressure.nrt, CK_NONNEG, OPT),
    NUM(hk_mesh_def, "pump_rate", pressure.pump_rate, CK_ALPHA, OPT),
    PINS,
};
static const sc_family mesh_families[] = {
    FAMILY(hk_mesh_def, "edges", springs),
    FAMILY(hk_mesh_def, "extra", extra_springs),
};
static void mesh_init(void *def) { *(hk_mesh_def *)def = hk_default_mesh_def(); }
static int mesh_finish(sc_section *s, void *def, int64_t *count)
{
    *count = SC_COUNT_UNKNOWN; /* checked against the file when built */
    return surface_finish(s, def, 0);
}
static int mesh_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    hk_mesh m;
    if (sc_load_mesh(it, lx, &m) != 0) return SC_ADD_REPORTED;
    hk_mesh_def d = *(const hk_mesh_def *)it->def;
    d.mesh = &m;
    int body = hk_world_add_mesh(w, &d);
    hk_mesh_free(&m);
    return body;
}

/* an icosphere: a mesh descriptor (its offset is the centre) and the sphere it is cut from */
typedef struct icosphere_scene {
    hk_mesh_def mesh;
    double radius;
    int level;
} icosphere_scene;
static const sc_key icosphere_keys[] = {
    NUM(icosphere_scene, "radius", radius, CK_POS, REQ),
    INT(icosphere_scene, "level", level, 0, 7, REQ),
    VEC(icosphere_scene, "center", mesh.offset, CK_ANY, OPT),
    NUM(icosphere_scene, "mass", mesh.mass, CK_MASS, REQ),
    VEC(icosphere_scene, "velocity", mesh.velocity, CK_ANY, OPT),
    INT(icosphere_scene, "extra_rings", mesh.extra_rings, 0, 8, OPT),
    NUM(icosphere_scene, "nrt", mesh.pressure.nrt, CK_NONNEG, OPT),
    NUM(icosphere_scene, "pump_rate", mesh.pressure.pump_rate, CK_ALPHA, OPT),
    PINS,
};
static const sc_family icosphere_families[] = {
    FAMILY(icosphere_scene, "edges", mesh.springs),
    FAMILY(icosphere_scene, "extra", mesh.extra_springs),
};
static void icosphere_init(void *def) { ((icosphere_scene *)def)->mesh = hk_default_mesh_def(); }
static int icosphere_finish(sc_section *s, void *def, int64_t *count)
{
    icosphere_scene *d = def;
    if (surface_finish(s, &d->mesh, offsetof(icosphere_scene, mesh))) return -1;
    *count = 10 * ((int64_t)1 << (2 * d->level)) + 2;
    s->list_springs = 3 * (*count - 2) * (1 + d->mesh.extra_rings); /* its edges (V - 2 = E / 3), and the rings' */
    return 0;
}
static int icosphere_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    const icosphere_scene *d = it->def;
    return hk_world_add_icosphere(w, &d->mesh, d->radius, d->level);
}

static const sc_key ring_keys[] = {
    INT(hk_ring_def, "count", count, 3, 1 << 24, REQ),
    NUM(hk_ring_def, "radius", radius, CK_POS, REQ),
    VEC(hk_ring_def, "center", center, CK_ANY, OPT),
    NUM(hk_ring_def, "mass", mass, CK_MASS, REQ),
    NUM(hk_ring_def, "nrt", pressure.nrt, CK_NONNEG, OPT),
    NUM(hk_ring_def, "pump_rate", pressure.pump_rate, CK_ALPHA, OPT),
    PINS,
};
static const sc_family ring_families[] = {FAMILY(hk_ring_def, "ring", springs)};
static void ring_init(void *def) { *(hk_ring_def *)def = hk_default_ring_def(); }
static int ring_finish(sc_section *s, void *def, int64_t *count)
{
    const hk_ring_def *d = def;
    if (check_pump(s, &d->pressure, offsetof(hk_ring_def, pressure.pump_rate))) return -1;
    *count = d->count;
    return 0;
}
static int ring_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    (void)lx;
    return hk_world_add_ring(w, it->def);
}

/* The registry: one row per item kind; bodies in the order messages list them. */
const sc_kind sc_items[] = {
    {.word = "sphere", .title = "sphere", KEYS(sphere_keys), .size = sizeof(hk_sphere_def), .add = sphere_add},
    {BODY("rope"), KEYS(rope_keys), FAMILIES(rope_families), .size = sizeof(hk_rope_def), .init = rope_init,
     .finish = rope_finish, .add = rope_add},
    {BODY("cloth"), KEYS(cloth_keys), FAMILIES(cloth_families), .size = sizeof(cloth_scene), .init = cloth_init,
     .finish = cloth_finish, .add = cloth_add},
    {BODY("jelly"), KEYS(jelly_keys), FAMILIES(jelly_families), .size = sizeof(jelly_scene), .init = jelly_init,
     .finish = jelly_finish, .add = jelly_add},
    {BODY("quad"), KEYS(quad_keys), FAMILIES(quad_families), .size = sizeof(hk_quad_def), .init = quad_init,
     .finish = quad_finish, .add = quad_add},
    {BODY("spring"), KEYS(spring_keys), FAMILIES(spring_families), .size = sizeof(hk_spring_pair_def),
     .init = spring_init, .finish = spring_finish, .add = spring_add},
    {BODY("pendulum"), KEYS(pendulum_keys), .size = sizeof(hk_pendulum_def), .init = pendulum_init,
     .finish = pendulum_finish, .add = pendulum_add},
    {BODY("points"), .keys = sc_points_keys, .nkeys = SC_POINTS_KEYS, FAMILIES(sc_points_families),
     .size = sizeof(sc_points_scene), .init = sc_points_init, .finish = sc_points_finish, .add = sc_points_add,
     .declare = sc_points_declare},
    {BODY("mesh"), KEYS(mesh_keys), FAMILIES(mesh_families), .size = sizeof(hk_mesh_def), .init = mesh_init,
     .finish = mesh_finish, .add = mesh_add},
    {BODY("icosphere"), KEYS(icosphere_keys), FAMILIES(icosphere_families), .size = sizeof(icosphere_scene),
     .init = icosphere_init, .finish = icosphere_finish, .add = icosphere_add},
    {BODY("ring"), KEYS(ring_keys), FAMILIES(ring_families), .size = sizeof(hk_ring_def), .init = ring_init,
     .finish = ring_finish, .add = ring_add},
    {.word = "collider",
     .title = "collider",
     .keys = sc_collider_keys,
     .nkeys = SC_COLLIDER_KEYS,
     .size = sizeof(sc_collider_scene),
     .init = sc_collider_init,
     .finish = sc_collider_finish,
     .add = sc_collider_add,
     .late = 1},
};
const int sc_item_count = COUNT_OF(sc_items);
_Static_assert(COUNT_OF(sc_items) <= SC_MAX_ITEMS, "more item kinds than SC_MAX_ITEMS");
