/* stability.c — omega_max estimate, and the stability profiler: every integrator over a sweep of dt on one scene. */
#include "stability.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene.h"
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
    for (int f = 0; f < w->family_count; f++) hk_springs_visit(&w->families[f], omega_visit, &c);
    double ground = 0;
    if (w->def.ground.model == HK_GROUND_REPULSION) ground = w->def.ground.repulsion;
    if (w->def.ground.model == HK_GROUND_SPRING) ground = w->def.ground.stiffness;
    double best = 0;
    for (int i = 0; i < p->count; i++) best = fmax(best, row[i] + ground * p->inv_mass[i]);
    free(row);
    return sqrt(best);
}

/* ---- the profiler -------------------------------------------------------- */

typedef struct trial {
    int stable;
    double drift;  /* relative energy change per simulated second [1/s] */
    double error;  /* largest distance from the analytic answer [m], NAN without one */
} trial;

typedef struct oscillator {
    int found;
    int bob;                 /* particle index of the moving mass */
    double anchor[3], axis[3];
    double L0, d0, v0, omega;
} oscillator;

/* The analytic case: one pinned-end spring pair, no gravity, ground, drag or damping. */
static oscillator find_oscillator(const hk_world *w)
{
    oscillator o = {0};
    if (w->body_count != 1 || w->family_count != 1 || strcmp(w->bodies[0].kind, "pair") != 0) return o;
    const hk_family *f = &w->families[0];
    const hk_particles *p = &w->p;
    if (f->kind != HK_FAMILY_LIST || f->count != 1 || f->params.damping != 0 ||
        f->params.behaviour != HK_SPRING_NORMAL || w->def.ground.model != HK_GROUND_NONE || w->def.air_drag != 0 ||
        w->def.has_walls || w->sphere_count || w->def.gravity.x != 0 || w->def.gravity.y != 0 || w->def.gravity.z != 0)
        return o;
    int a = f->a[0], b = f->b[0];
    if (p->inv_mass[a] != 0) {
        int t = a;
        a = b;
        b = t;
    }
    if (p->inv_mass[a] != 0 || p->inv_mass[b] == 0) return o;
    const double d[3] = {(double)p->x[b] - p->x[a], (double)p->y[b] - p->y[a], (double)p->z[b] - p->z[a]};
    const double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(r > 0)) return o;
    o.found = 1;
    o.bob = b;
    for (int c = 0; c < 3; c++) o.axis[c] = d[c] / r;
    o.anchor[0] = p->x[a], o.anchor[1] = p->y[a], o.anchor[2] = p->z[a];
    o.L0 = f->rest_list ? (double)f->rest_list[0] : (double)f->rest;
    o.d0 = r - o.L0;
    o.v0 = p->vx[b] * o.axis[0] + p->vy[b] * o.axis[1] + p->vz[b] * o.axis[2];
    o.omega = sqrt(f->params.k * p->inv_mass[b]);
    return o;
}

static double total_energy(const hk_world *w, double *scale)
{
    hk_stats s = hk_world_stats(w);
    if (scale) *scale = fmax(fabs(s.total), s.kinetic + s.spring + fabs(s.gravity));
    return s.total;
}

/* Runs SCENE with integrator kind and step dt (no substeps) for `time` s (at least 2000 steps);
 * the run counts as unstable once |E - E0| > 100 * (|E0| or the largest energy term at the start). */
static int run_trial(const char *scene, int kind, double dt, double time, trial *out, char *err, size_t errlen)
{
    hk_scene sc;
    if (hk_scene_load(scene, &sc, err, errlen) != 0) return -1;
    hk_world *w = sc.world;
    hk_integrator_def def = sc.integrator;
    def.kind = (hk_integrator_kind)kind;
    def.dt = dt;
    def.dt_max = 0;
    if (hk_world_set_integrator(w, &def) != 0) {
        snprintf(err, errlen, "%s: %s", scene, hk_world_error(w));
        hk_scene_free(&sc);
        return -1;
    }
    const oscillator o = find_oscillator(w);
    double scale;
    const double e0 = total_energy(w, &scale);
    if (!(scale > 0)) scale = 1;
    int64_t steps = (int64_t)ceil(time / dt);
    if (steps < 2000) steps = 2000;
    out->stable = 1;
    out->error = o.found ? 0 : NAN;
    hk_blowup b;
    const hk_particles *p = &w->p;
    for (int64_t s = 1; s <= steps; s++) {
        hk_world_step(w);
        if (o.found) {
            const double t = hk_world_time(w);
            const double ext = o.L0 + o.d0 * cos(o.omega * t) + o.v0 / o.omega * sin(o.omega * t);
            double e2 = 0;
            const double x[3] = {p->x[o.bob], p->y[o.bob], p->z[o.bob]};
            for (int c = 0; c < 3; c++) {
                const double d = x[c] - (o.anchor[c] + ext * o.axis[c]);
                e2 += d * d;
            }
            out->error = fmax(out->error, sqrt(e2));
        }
        /* unstable: non-finite, or the energy a hundred times off (a stable symplectic
         * scheme at omega*dt = 1.99 swings by 1/(1 - (omega dt / 2)^2) = 100 at most) */
        if (hk_world_check(w, 0, &b) || fabs(total_energy(w, NULL) - e0) > 100 * scale) {
            out->stable = 0;
            break;
        }
    }
    out->drift = out->stable ? (total_energy(w, NULL) - e0) / scale / hk_world_time(w) : INFINITY;
    if (!out->stable) out->error = INFINITY;
    hk_scene_free(&sc);
    return 0;
}

typedef struct profile {
    int kind;
    double limit;       /* largest stable dt [s]; 0: below dt_min; INFINITY: above dt_max */
    double *drift, *error;
    int *stable;
} profile;

static int parse_double(const char *s, double *out)
{
    if (!s || !*s) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v) || !(v > 0)) return -1;
    *out = v;
    return 0;
}

static int usage_error(const char *flag, const char *value, const char *expected)
{
    fprintf(stderr, "hooke: error: %s expects %s, got '%s'\n", flag, expected, value ? value : "nothing");
    return 1;
}

int hk_cmd_stability(int argc, char **argv)
{
    const char *scene = NULL, *out = NULL, *list = "all";
    double dt_min = 0, dt_max = 0, time = 0;
    int points = 6;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--integrators") == 0) {
            if (!v || !*v) return usage_error(a, v, "all or a comma-separated list of integrators");
            list = v;
            i++;
        } else if (strcmp(a, "--dt-min") == 0 || strcmp(a, "--dt-max") == 0 || strcmp(a, "--time") == 0) {
            double *dst = strcmp(a, "--dt-min") == 0 ? &dt_min : strcmp(a, "--dt-max") == 0 ? &dt_max : &time;
            if (parse_double(v, dst)) return usage_error(a, v, "a number > 0");
            i++;
        } else if (strcmp(a, "--points") == 0) {
            char *end;
            long n = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || n < 2 || n > 100) return usage_error(a, v, "a whole number 2..100");
            points = (int)n;
            i++;
        } else if (strcmp(a, "--out") == 0) {
            if (!v || !*v) return usage_error(a, v, "a file name (.csv or .json)");
            out = v;
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "hooke: error: unknown option '%s' for stability (see hooke --help)\n", a);
            return 1;
        } else if (!scene) {
            scene = a;
        } else {
            fprintf(stderr, "hooke: error: more than one scene given ('%s' and '%s')\n", scene, a);
            return 1;
        }
    }
    if (!scene) {
        fprintf(stderr, "hooke: error: stability needs a scene file (see hooke --help)\n");
        return 1;
    }
    hk_scene sc;
    char err[1024];
    if (hk_scene_load(scene, &sc, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const double omega = hk_omega_max(sc.world);
    const double scene_time = sc.time > 0 ? sc.time : (sc.steps > 0 ? (double)sc.steps * sc.integrator.dt : 0);
    hk_scene_free(&sc);
    if (!(omega > 0)) {
        fprintf(stderr, "hooke: error: %s: no springs with a free end: nothing to profile\n", scene);
        return 1;
    }
    /* defaults: omega*dt from 0.01 to 4, run for the scene's length or 20 periods of omega_max */
    if (dt_min == 0) dt_min = 0.01 / omega;
    if (dt_max == 0) dt_max = 4.0 / omega;
    if (time == 0) time = scene_time > 0 ? scene_time : 20 * 2 * 3.14159265358979323846 / omega;
    if (!(dt_min < dt_max)) {
        fprintf(stderr, "hooke: error: --dt-min (%g) must be less than --dt-max (%g)\n", dt_min, dt_max);
        return 1;
    }
    int kinds[HK_INTEGRATOR_COUNT], nk = 0;
    if (strcmp(list, "all") == 0) {
        for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) kinds[nk++] = k;
    } else {
        const char *s = list;
        while (*s) {
            size_t n = strcspn(s, ",");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), s);
            int k = hk_integrator_from_name(name);
            if (k < 0 || nk == HK_INTEGRATOR_COUNT) {
                fprintf(stderr, "hooke: error: --integrators: unknown integrator '%s' (one of %s)\n", name,
                        hk_integrator_names());
                return 1;
            }
            kinds[nk++] = k;
            s += n;
            if (*s == ',') s++;
        }
    }
    double *dts = malloc((size_t)points * sizeof *dts);
    profile *pr = calloc((size_t)nk, sizeof *pr);
    if (!dts || !pr) {
        free(dts);
        free(pr);
        fprintf(stderr, "hooke: error: out of memory\n");
        return 1;
    }
    for (int i = 0; i < points; i++) dts[i] = dt_min * pow(dt_max / dt_min, (double)i / (points - 1));
    int rc = 0;
    for (int ki = 0; ki < nk && rc == 0; ki++) {
        profile *P = &pr[ki];
        P->kind = kinds[ki];
        P->drift = calloc((size_t)points, sizeof(double));
        P->error = calloc((size_t)points, sizeof(double));
        P->stable = calloc((size_t)points, sizeof(int));
        if (!P->drift || !P->error || !P->stable) {
            fprintf(stderr, "hooke: error: out of memory\n");
            rc = 1;
            break;
        }
        trial t;
        for (int i = 0; i < points && rc == 0; i++) {
            if (run_trial(scene, P->kind, dts[i], time, &t, err, sizeof err) != 0) {
                rc = 1;
                break;
            }
            P->stable[i] = t.stable;
            P->drift[i] = t.drift;
            P->error[i] = t.error;
        }
        if (rc) break;
        /* bisection (in log dt) between a stable and an unstable dt, to 1 % */
        double lo = dt_min, hi = dt_max;
        trial tl, th;
        if (run_trial(scene, P->kind, lo, time, &tl, err, sizeof err) || run_trial(scene, P->kind, hi, time, &th, err, sizeof err)) {
            rc = 1;
            break;
        }
        if (!tl.stable) {
            P->limit = 0;
        } else if (th.stable) {
            P->limit = INFINITY;
        } else {
            while (hi / lo > 1.005) {
                double mid = sqrt(lo * hi);
                if (run_trial(scene, P->kind, mid, time, &t, err, sizeof err)) {
                    rc = 1;
                    break;
                }
                *(t.stable ? &lo : &hi) = mid;
            }
            P->limit = sqrt(lo * hi);
        }
    }
    if (rc) fprintf(stderr, "%s\n", err);
    if (rc == 0) {
        printf("stability of %s: omega_max = %.6g rad/s (estimate from k and m), %d dt from %.4g to %.4g s, %.4g s "
               "simulated per run (at least 2000 steps)\n",
               scene, omega, points, dt_min, dt_max, time);
        printf("%-20s %14s %12s", "integrator", "stable_dt_max", "omega*dt");
        for (int i = 0; i < points; i++) printf(" drift/s@%-9.3g", dts[i]);
        printf("  max_error_m@dt_min\n");
        for (int ki = 0; ki < nk; ki++) {
            const profile *P = &pr[ki];
            char lim[32], od[32];
            if (P->limit == 0) {
                snprintf(lim, sizeof lim, "<%.4g", dt_min);
                snprintf(od, sizeof od, "<%.4g", omega * dt_min);
            } else if (isinf(P->limit)) {
                snprintf(lim, sizeof lim, ">%.4g", dt_max);
                snprintf(od, sizeof od, ">%.4g", omega * dt_max);
            } else {
                snprintf(lim, sizeof lim, "%.6g", P->limit);
                snprintf(od, sizeof od, "%.4f", omega * P->limit);
            }
            printf("%-20s %14s %12s", hk_integrator_name((hk_integrator_kind)P->kind), lim, od);
            for (int i = 0; i < points; i++)
                if (P->stable[i])
                    printf(" %+17.3e", P->drift[i]);
                else
                    printf(" %17s", "unstable");
            if (isnan(P->error[0]))
                printf("  n/a\n");
            else
                printf("  %.3e\n", P->error[0]);
        }
        if (out) {
            FILE *f = fopen(out, "w");
            const size_t ol = strlen(out);
            const int json = ol > 5 && strcmp(out + ol - 5, ".json") == 0;
            if (!f) {
                fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, strerror(errno));
                rc = 3;
            } else {
                if (json) {
                    fprintf(f, "{\"scene\": \"%s\", \"omega_max\": %.9g, \"integrators\": [\n", scene, omega);
                } else {
                    fprintf(f, "integrator,row,dt,omega_dt,stable,energy_drift_per_s,max_error\n");
                }
                for (int ki = 0; ki < nk; ki++) {
                    const profile *P = &pr[ki];
                    const char *name = hk_integrator_name((hk_integrator_kind)P->kind);
                    const double lim = P->limit;
                    if (json) {
                        fprintf(f, "  {\"name\": \"%s\", \"stable_dt_max\": ", name);
                        if (lim == 0 || isinf(lim))
                            fprintf(f, "null");
                        else
                            fprintf(f, "%.9g", lim);
                        fprintf(f, ", \"sweep\": [");
                        for (int i = 0; i < points; i++) {
                            fprintf(f, "%s{\"dt\": %.9g, \"stable\": %s, \"energy_drift_per_s\": ", i ? ", " : "",
                                    dts[i], P->stable[i] ? "true" : "false");
                            if (P->stable[i] && isfinite(P->drift[i]))
                                fprintf(f, "%.9g", P->drift[i]);
                            else
                                fprintf(f, "null");
                            fprintf(f, ", \"max_error\": ");
                            if (isfinite(P->error[i]))
                                fprintf(f, "%.9g}", P->error[i]);
                            else
                                fprintf(f, "null}");
                        }
                        fprintf(f, "]}%s\n", ki + 1 < nk ? "," : "");
                    } else {
                        fprintf(f, "%s,limit,%.9g,%.9g,,,\n", name, lim, omega * lim);
                        for (int i = 0; i < points; i++)
                            fprintf(f, "%s,sweep,%.9g,%.9g,%d,%.9g,%.9g\n", name, dts[i], omega * dts[i], P->stable[i],
                                    P->drift[i], P->error[i]);
                    }
                }
                if (json) fprintf(f, "]}\n");
                if (fclose(f) != 0) {
                    fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, strerror(errno));
                    rc = 3;
                }
            }
        }
    }
    for (int ki = 0; ki < nk; ki++) {
        free(pr[ki].drift);
        free(pr[ki].error);
        free(pr[ki].stable);
    }
    free(pr);
    free(dts);
    return rc;
}
