/* diagnosis.c — what a blow-up report says: the energy bound of closed worlds, and the hint that names the cause. */
/* SPDX-License-Identifier: MIT */
#include "diagnosis.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "external.h"
#include "part.h"
#include "response.h"
#include "springs.h"
#include "world.h"

typedef struct omega_ctx {
    const hk_particles *p;
    double *diag;
} omega_ctx;

static void omega_visit(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *vctx)
{
    (void)slot;
    (void)L0;
    omega_ctx *c = vctx;
    const double k = f->params.k, ia = c->p->inv_mass[a], ib = c->p->inv_mass[b];
    const double off = k * sqrt(ia * ib);
    c->diag[a] += k * ia + off;
    c->diag[b] += k * ib + off;
}

double hk_omega_max(const hk_world *w)
{
    const hk_particles *p = &w->p;
    double *row = calloc((size_t)(p->count ? p->count : 1), sizeof *row);
    if (!row) return 0;
    omega_ctx c = {p, row};
    /* on a distributed world the springs held here: every spring of each particle this rank computes */
    for (int f = 0; f < w->family_count; f++) hk_springs_visit(&w->families[f], omega_visit, &c);
    double external = hk_external_stiffness(&w->def); /* the per-particle forces' (the ground's) */
    const hk_collider *col; /* a particle may press on the ground, a collider and another body at once */
    for (int c = 0, n = hk_colliders(w, &col); c < n; c++) external += col[c].def.stiffness;
    const hk_contact_def cd = hk_world_contact(w);
    if (cd.bodies || cd.self) external += cd.stiffness;
    double best = 0;
    int one[2];
    const int *span, spans = hk_world_spans(w, one, &span);
    for (int s = 0; s < spans; s++)
        for (int i = span[2 * s]; i < span[2 * s + 1]; i++) best = fmax(best, row[i] + external * p->inv_mass[i]);
    free(row);
    hk_part_reduce(w, &best, 1, HK_REDUCE_MAX_F64);
    return sqrt(best);
}

const char *hk_stability_limit_text(const hk_integrator_info *in, char *buf, size_t len)
{
    if (isinf(in->stability_limit))
        snprintf(buf, len, "any");
    else if (in->stability_limit > 0)
        snprintf(buf, len, "%.3g", in->stability_limit);
    else
        snprintf(buf, len, "none");
    return buf;
}

/* omega_max times the substep (into *omega and *h). */
static double omega_dt(const hk_world *w, double *omega, double *h)
{
    *omega = hk_omega_max(w);
    *h = hk_world_integrator(w).dt / hk_world_substeps(w);
    return *omega * *h;
}

/* A contact layer (a collider's, or the contact between bodies') whose damper an explicit step cannot bear. */
typedef struct damping_excess {
    char what[48];   /* "collider 0 (box)", "the contact between bodies" */
    double k, zeta;  /* its stiffness [N/m] and damping ratio [1] */
    double m, h;     /* the lightest free particle [kg], the substep [s] */
    double a, b;     /* sqrt(k/m) h and c h / m = 2 zeta a at that particle [1] */
    double zeta_max; /* the largest damping ratio that step bears [1] */
} damping_excess;

/* The layer whose damper is furthest past what an explicit step bears: a particle of mass m in a layer of
 * stiffness k and damping c = 2 zeta sqrt(k m), stepped by semi-implicit Euler over h, keeps its normal motion
 * bounded only while (sqrt(k/m) h)^2 + 2 c h / m < 4 (the eigenvalues of the step's 2x2 map within the unit circle;
 * past it each step returns the particle faster than it came); the other explicit schemes' limits are alike. The
 * lightest free particle is the worst. 1 with *out filled, or 0 when every layer is within it. */
static int contact_damping_excess(const hk_world *w, damping_excess *out)
{
    const hk_integrator_info *in = hk_integrator_info_of(hk_world_integrator(w).kind);
    if (in->implicit) return 0; /* the solve takes the damping implicitly: stable at any ratio */
    double inv_m = 0;
    for (int i = 0; i < w->p.count; i++) inv_m = fmax(inv_m, (double)w->p.inv_mass[i]);
    hk_part_reduce(w, &inv_m, 1, HK_REDUCE_MAX_F64);
    if (!(inv_m > 0)) return 0;
    const double h = hk_world_integrator(w).dt / hk_world_substeps(w);
    const hk_collider *col;
    const int n = hk_colliders(w, &col);
    const hk_contact_def cd = hk_world_contact(w);
    double worst = 1;
    for (int c = 0; c <= n; c++) {
        const int pairs = c == n;
        if (pairs && !cd.bodies && !cd.self) break;
        const double k = pairs ? cd.stiffness : col[c].def.stiffness,
                     zeta = pairs ? cd.damping_ratio : col[c].def.damping_ratio;
        const double a = sqrt(k * inv_m) * h, b = 2 * zeta * a, excess = (a * a + 2 * b) / 4;
        if (!(a < 2) || !(excess > worst)) continue; /* a >= 2: the layer's spring alone is past it (omega*dt) */
        worst = excess;
        static const char *const shapes[] = {"mesh", "box", "capsule"};
        *out = (damping_excess){
            .k = k, .zeta = zeta, .m = 1 / inv_m, .h = h, .a = a, .b = b, .zeta_max = (4 - a * a) / (4 * a)};
        if (pairs)
            snprintf(out->what, sizeof out->what, "the contact between bodies");
        else
            snprintf(out->what, sizeof out->what, "collider %d (%s)", c,
                     (unsigned)col[c].def.shape < 3 ? shapes[col[c].def.shape] : "?");
    }
    return worst > 1;
}

/* The numbers of the excess, for the warning and the hint. */
static void print_damping_excess(FILE *out, const damping_excess *x, const char *integrator)
{
    fprintf(out,
            "%s damps a particle's normal motion by c dt / m = 2 damping_ratio sqrt(k/m) dt = %.3g at the lightest "
            "particle (m = %.3g kg; stiffness %.4g N/m, damping_ratio %g, substep %.3g s), past what %s's step bears "
            "((sqrt(k/m) dt)^2 + 2 c dt / m < 4): each step returns the particle faster than it came; give a "
            "damping_ratio below %.3g, lower dt or set dt_max, or use implicit_euler\n",
            x->what, x->b, x->m, x->k, x->zeta, x->h, integrator, x->zeta_max);
}

int hk_warn_unstable(FILE *out, const hk_world *w, const char *scene)
{
    const hk_integrator_info *in = hk_integrator_info_of(hk_world_integrator(w).kind);
    const double limit = in->stability_limit;
    int warned = 0;
    damping_excess x;
    if (contact_damping_excess(w, &x)) {
        fprintf(out, "hooke: warning: %s: the run may blow up: ", scene);
        print_damping_excess(out, &x, in->name);
        warned = 1;
    }
    if (in->implicit || !(limit > 0) || isinf(limit)) return warned;
    double omega, h;
    const double wh = omega_dt(w, &omega, &h);
    if (!(wh > limit)) return warned;
    fprintf(out,
            "hooke: warning: %s: omega*dt = %.3g is above %s's stability limit %.3g (omega_max = %.4g rad/s, an upper "
            "bound from k and m, colliders and contact included; substep %.3g s): the run may blow up; lower dt or "
            "set dt_max below %.3g s\n",
            scene, wh, in->name, limit, omega, h, limit / omega);
    return 1;
}

static double norm3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* What feeds w energy (into out), or 0 when nothing does. */
static int energy_source(const hk_world *w, char *out, size_t len)
{
    const hk_vec3 wind = w->def.wind;
    const char *term = hk_external_source(&w->def);
    int n = 0;
    if (term) n = snprintf(out, len, "%s", term);
    if (!n && w->applied_on) n = snprintf(out, len, "the applied forces (hk_world_set_applied_forces)");
    if (!n && hk_world_gravity_schedule(w) > 0)
        n = snprintf(out, len, "gravity that changes in time (gravity_schedule)");
    if (!n && hk_world_targets(w, NULL, NULL) > 0)
        n = snprintf(out, len, "the kinematic targets (hk_world_set_targets)");
    if (!n && w->def.wind_model != HK_WIND_NONE && (wind.x != 0 || wind.y != 0 || wind.z != 0))
        n = snprintf(out, len, "wind");
    for (int s = 0; !n && s < w->surface_count; s++)
        if (w->surfaces[s].nrt > 0) n = snprintf(out, len, "pressure in body %d", w->surfaces[s].body);
    for (int b = 0; !n && b < w->body_count; b++)
        if (w->bodies[b].anchor && norm3(w->bodies[b].anchor_vel) > 0)
            n = snprintf(out, len, "the moving anchor of body %d", b);
    for (int s = 0; !n && s < w->sphere_count; s++) {
        const hk_vec3 v = w->spheres[s].velocity;
        if (v.x != 0 || v.y != 0 || v.z != 0) n = snprintf(out, len, "moving sphere %d", s);
    }
    return n > 0;
}

static void floor_visit(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx)
{
    (void)slot;
    (void)a;
    (void)b;
    const double e = 0.01 * (double)L0;
    *(double *)ctx += 0.5 * (double)f->params.k * e * e;
}

/* The floor's sum over family fi's springs from the sources [l0, l1) (a relay's piece: part.h). */
static void floor_piece(void *ctx, void *state, int fi, int64_t l0, int64_t l1)
{
    const hk_world *w = ctx;
    hk_springs_visit_sources(&w->families[fi], l0, l1, floor_visit, state);
}

void hk_energy_guard_init(hk_energy_guard *g, const hk_world *w)
{
    memset(g, 0, sizeof *g);
    g->active = !energy_source(w, g->source, sizeof g->source);
    const hk_stats s = hk_world_stats(w);
    double floor = 0; /* every spring in order, relayed over the ranks of a distributed world */
    hk_part_relay(w, 1, &floor, sizeof floor, floor_piece, (void *)w);
    g->e0 = s.total;
    g->scale = fmax(fmax(fabs(s.total), fabs(s.kinetic) + fabs(s.gravity) + fabs(s.spring)), floor);
    g->g0 = s.gravity;
}

double hk_energy_rounding(const hk_energy_guard *g, int64_t substeps)
{
    const double u = 0.5 * (sizeof(hk_real) == sizeof(float) ? FLT_EPSILON : DBL_EPSILON);
    return HK_ENERGY_ROUNDING * u * (double)substeps * g->moved;
}

int hk_energy_runaway(hk_energy_guard *g, const hk_stats *s, int64_t substeps)
{
    if (fabs(s->gravity - g->g0) > g->moved) g->moved = fabs(s->gravity - g->g0);
    return g->active && g->scale > 0 &&
           !(s->total - g->e0 <= HK_ENERGY_GROWTH * g->scale + hk_energy_rounding(g, substeps));
}

/* The free mass of the particles [l0, l1) of body b added to *state when b is the body asked for (ctx). */
typedef struct mass_of {
    const hk_world *w;
    int body;
} mass_of;

static void mass_piece(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const mass_of *mo = ctx;
    if (b != mo->body) return;
    const int64_t base = hk_body_base(&mo->w->bodies[b]);
    for (int64_t l = l0; l < l1; l++)
        if (mo->w->p.inv_mass[base + l] != 0) *(double *)state += mo->w->p.mass[base + l];
}

/* Total mass of body b [kg] (free particles: the load its springs carry), in particle order (relayed over the ranks
 * of a distributed world). */
static double body_mass(const hk_world *w, int b)
{
    double m = 0;
    mass_of mo = {w, b};
    hk_part_relay(w, 0, &m, sizeof m, mass_piece, &mo);
    return m;
}

/* The implicit integrators are stable at every dt on linear springs (the undamped oscillator); where springs turn
 * and stretch within a substep (a cloth that falls or swings, at large omega*dt) each can still fail, each its own
 * way, with its own cure. An 8 x 8 cloth hung by two corners at omega_max dt = 50 gains energy under the trapezoidal
 * rule until the run stops (at step 52; with 30 Newton iterations a substep, at step 494), and loses energy under
 * backward Euler; at omega_max dt = 1000 backward Euler linearised once a substep stretches a spring 45 times in its
 * first step, and with 8 Newton iterations a substep, or minimised (the default), loses energy
 * (tests/test_diagnosis.c). */
static const struct implicit_failure {
    hk_integrator_kind kind;
    int minimised;    /* 1: the minimisation (hooke.h hk_integrator_info.minimised, without newton_iterations) */
    const char *how;  /* how it fails there */
    const char *cure; /* what to do */
} implicit_failures[] = {
    {HK_IMPLICIT_EULER, 0,
     "each substep solves the springs linearised at its start, and where they turn and stretch far within a "
     "substep the step overshoots",
     "raise newton_iterations, or drop it for the minimisation, or lower dt or set dt_max"},
    {HK_IMPLICIT_EULER, 1,
     "each substep minimises its energy, so its springs cannot gain energy; a minimisation stopped at its "
     "iteration bound ends where it stopped",
     "lower newton_tolerance, or lower dt or set dt_max"},
    {HK_TRAPEZOIDAL, 0,
     "where springs turn and stretch it can gain energy at large omega*dt, its solves converged or not "
     "(more newton_iterations do not help)",
     "use implicit_euler, which damps, or lower dt or set dt_max"},
    {HK_BDF2, 1,
     "each substep minimises its energy, but its step reaches back over two substeps, so unlike backward Euler's "
     "it is not bound to lose energy where springs turn and stretch far within a substep; a minimisation stopped "
     "at its iteration bound ends where it stopped",
     "lower newton_tolerance, or use implicit_euler, which damps, or lower dt or set dt_max"},
};

static void implicit_hint(FILE *out, const hk_world *w, const hk_integrator_info *in)
{
    const hk_solver_stats st = hk_world_solver_stats(w);
    if (st.diverged) {
        fprintf(out,
                "hooke: hint: the linear solve of step %lld met a non-finite value or a matrix that is no longer "
                "positive definite (the step was not taken): lower dt or set dt_max, and look for springs of zero "
                "length or a mesh that has turned inside out\n",
                (long long)st.step);
        return;
    }
    const int newton = hk_world_integrator(w).newton_iterations;
    const int minimised = in->minimised && (newton == 0 || !in->linearised);
    const struct implicit_failure *f = NULL;
    for (size_t k = 0; k < sizeof implicit_failures / sizeof implicit_failures[0]; k++)
        if (implicit_failures[k].kind == in->kind && implicit_failures[k].minimised == minimised)
            f = &implicit_failures[k];
    HK_ASSERT(f != NULL);
    double omega, h;
    const double wh = omega_dt(w, &omega, &h);
    char iterations[96];
    if (minimised)
        snprintf(iterations, sizeof iterations, "minimised, %lld substeps stopped at the bound",
                 (long long)st.newton_unconverged);
    else
        snprintf(iterations, sizeof iterations, "newton_iterations %d", newton > 0 ? newton : 1);
    fprintf(out,
            "hooke: hint: omega*dt = %.4g (omega_max = %.4g rad/s from k and m, substep %.3g s, %s); %s is stable "
            "at every dt on linear springs only: %s: %s. Other causes: the terms it takes explicitly (ground, walls, "
            "spheres, pressure, wind), or inexact solves (%lld stopped at cg_max_iterations so far): raise "
            "cg_max_iterations or lower cg_tolerance\n",
            wh, omega, h, iterations, in->name, f->how, f->cure, (long long)st.unconverged);
}

void hk_report_blowup(FILE *out, const hk_world *w, const hk_blowup *b, const hk_energy_guard *g, double energy_e,
                      int64_t substeps, const char *scene, double stretch_limit)
{
    fprintf(out, "hooke: error: %s: simulation blew up at step %lld (t = %.6g s): ", scene,
            (long long)hk_world_step_count(w), hk_world_time(w));
    if (!b) {
        const double rounding = hk_energy_rounding(g, substeps);
        char allowed[200] = ""; /* what rounding explains, where gravity has done work */
        if (rounding > 0)
            snprintf(allowed, sizeof allowed,
                     ", plus %.3g J that float rounding explains over %lld substeps with %.4g J of work by gravity",
                     rounding, (long long)substeps, g->moved);
        fprintf(
            out,
            "energy runaway: the total energy grew to %.6g J from %.6g J, a rise of %.4g times its starting scale of "
            "%.6g J "
            "(the limit is %g%s); nothing in the scene feeds it energy (no wind, pressure, moving anchors or "
            "spheres), so the integration is adding it\n",
            energy_e, g->e0, (energy_e - g->e0) / g->scale, g->scale, HK_ENERGY_GROWTH, allowed);
    } else {
        fprintf(out, "%s", b->cause);
        if (b->particle >= 0) fprintf(out, " at particle %d of body %d (value %g)", b->particle, b->body, b->value);
        if (b->family >= 0) {
            hk_family_info f = hk_world_family(w, b->family);
            fprintf(out, " in spring %lld of family %s of body %d (r/L0 = %g, limit %g)", (long long)b->spring, f.name,
                    b->body, b->value, stretch_limit);
        }
        fprintf(out, "\n");
    }
    const hk_integrator_info *in = hk_integrator_info_of(hk_world_integrator(w).kind);
    if (in->implicit) {
        implicit_hint(out, w, in);
        return;
    }
    damping_excess x;
    if (contact_damping_excess(w, &x)) { /* the contact's damper, not the springs' omega*dt */
        fprintf(out, "hooke: hint: ");
        print_damping_excess(out, &x, in->name);
        return;
    }
    double omega, h;
    const double wh = omega_dt(w, &omega, &h), limit = in->stability_limit;
    const double rho = hk_world_integrator(w).chebyshev_rho;
    if (rho > 0) { /* the acceleration first: past the sweeps' spectral radius it runs away */
        fprintf(out,
                "hooke: hint: %s's sweeps are accelerated with chebyshev_rho %g, which pushes each sweep's change "
                "further the nearer it is to 1; where the sweeps do not shrink their error steadily by that factor "
                "(stiff springs against their masses, stiffness or mass ratios) the push overshoots and runs away: "
                "lower chebyshev_rho, or leave it out\n",
                in->name, rho);
        return;
    }
    if (in->iterated) { /* no limit in omega*dt: the sweeps fall short of the step they converge to */
        const int sweeps = hk_world_integrator(w).iterations > 0 ? hk_world_integrator(w).iterations : in->iterated;
        fprintf(out,
                "hooke: hint: omega*dt = %.3g (omega_max = %.4g rad/s from k and m, substep %.3g s); %s sweeps the "
                "springs %d time%s a substep, and each sweep carries a correction about one spring along, so where "
                "springs are stiff against their masses, and masses or stiffnesses differ by orders of magnitude, "
                "the sweeps leave springs stretched far past what their k allows, which reads as spring energy: set "
                "dt_max for more, shorter substeps, or raise iterations, or use implicit_euler, which solves the "
                "step the sweeps converge to\n",
                wh, omega, h, in->name, sweeps, sweeps > 1 ? "s" : "");
        return;
    }
    /* far below the limit (under half of it) the step is not the cause: a stretch blow-up is the load or the
     * initial state; an energy runaway or a non-finite state there is still the integrator's (euler gains
     * energy at every dt) */
    if (b && b->family >= 0 && limit > 0 && wh < 0.5 * limit) {
        const hk_family_info f = hk_world_family(w, b->family);
        const double g = norm3((const double[3]){w->def.gravity.x, w->def.gravity.y, w->def.gravity.z});
        const double weight = body_mass(w, b->body) * g;
        fprintf(out,
                "hooke: hint: omega*dt = %.3g is far below %s's limit %.3g, so dt is not the cause: the spring is "
                "overstretched by the load or by the initial state: check masses and stiffnesses (body %d weighs "
                "%.4g kg x %.4g m/s^2 = %.4g N; family %s has k = %.4g N/m and L0 = %.4g m, so that weight on one "
                "spring would stretch it %.4g times its rest length)\n",
                wh, in->name, limit, b->body, body_mass(w, b->body), g, weight, f.name, f.params.k,
                (double)w->families[b->family].rest,
                f.params.k > 0 && w->families[b->family].rest > 0
                    ? 1 + weight / (f.params.k * (double)w->families[b->family].rest)
                    : INFINITY);
        return;
    }
    char lim[64];
    if (limit > 0)
        snprintf(lim, sizeof lim, "%.3g", limit);
    else
        snprintf(lim, sizeof lim, "0 (it gains energy at every dt)");
    fprintf(out,
            "hooke: hint: omega*dt = %.3g (omega_max = %.4g rad/s from k and m, substep %.3g s); %s is stable only "
            "below omega*dt = %s: lower dt or set dt_max\n",
            wh, omega, h, in->name, lim);
}

/* The blow-up check is a serial pass over every particle and spring (and,
 * for the energy bound, a second one), about ten times a parallel SIMD
 * step's cost per item (a 30 x 30 cloth's check costs 3.4 of its steps).
 * Its cadence follows the problem size alone, so the report does not
 * depend on the machine: every step up to 4096 particles + springs (where
 * a step's fixed costs weigh most), then every 16th, and from 2^17 items
 * every 32nd, 64th, ... up to every 256th (cloth_512: every 256th, about
 * 2%). A world with contact between bodies is checked
 * every step: its step costs far more than the check, and a blow-up there
 * flings every pair of a body into the swept test, so each unchecked step
 * past it could cost minutes. `hooke run` also checks before every frame (so
 * every frame is sound) and after the last step. It only reads the state. */
int64_t hk_check_cadence_of(const hk_world *w, int64_t items)
{
    const hk_contact_def c = hk_world_contact(w);
    if (c.bodies || c.self) return 1;
    int64_t every = 1;
    for (int64_t n = items; n > 4096 && every < 256; n /= 2) every *= 2;
    if (items > 4096 && every < 16) every = 16;
    return every;
}

int64_t hk_check_cadence(const hk_world *w) { return hk_check_cadence_of(w, w->gcount + hk_world_spring_count(w)); }

int hk_start_refused(const hk_world *w, double stretch_limit, const int *body_line, const char *scene, char *err,
                     size_t errlen)
{
    hk_blowup b;
    if (!hk_world_check(w, stretch_limit, &b)) return 0;
    const int line = b.body >= 0 && body_line ? body_line[b.body] : 1;
    if (b.family >= 0)
        snprintf(err, errlen,
                 "%s:%d: error: body %d starts past the stretch limit: spring %lld of family %s has r/L0 = %g, more "
                 "than %g (stretch_limit in the run section, or --stretch-limit); its initial positions do not match "
                 "its rest lengths",
                 scene, line, b.body, (long long)b.spring, hk_world_family(w, b.family).name, b.value, stretch_limit);
    else
        snprintf(err, errlen, "%s:%d: error: body %d starts with a %s at particle %d (value %g)", scene, line, b.body,
                 b.cause, b.particle, b.value);
    return 1;
}
