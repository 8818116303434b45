/* stability_report.c — the stability profile as a table (stdout), CSV and JSON. */
/* SPDX-License-Identifier: MIT */
#include "stability_report.h"

#include <math.h>
#include <string.h>

#include "diagnosis.h"
#include "json.h"

/* dt columns per block of the printed drift table */
#define DRIFT_COLUMNS 5

/* The reference's line of the table's header: how it was made, its own error, its largest stretch. */
static void print_reference(FILE *f, const hk_stability_result *r)
{
    const hk_reference *ref = r->ref;
    if (r->factor == 0) {
        fprintf(f, "reference: none (--reference 0): no error against it\n");
        return;
    }
    fprintf(f,
            "reference: implicit_euler at dt %.4g s (dt_min / %d; cg_stop relative %g, at most %d Newton iterations "
            "a step)",
            ref->dt, r->factor, HK_REF_CG_TOLERANCE, HK_REF_NEWTON);
    if (!ref->ok) {
        const int k = ref->why[0][0] ? 0 : 1;
        fprintf(f, " did not finish%s: %s; no error against it\n", k ? " at 2 dt" : "", ref->why[k]);
        return;
    }
    fprintf(f,
            "; its own error %.3e m (RMS distance from the same at 2 dt), %.3g of the bodies' size %.4g m; "
            "max_stretch %.7g\n",
            ref->own_error, ref->size > 0 ? ref->own_error / ref->size : NAN, ref->size, ref->max_stretch);
}

/* The error against the reference relative to the bodies' size [1]. */
static double relative(const hk_reference *ref, double e) { return ref->size > 0 ? e / ref->size : NAN; }

void hk_stability_print(FILE *f, const hk_stability_result *r)
{
    const int points = r->points, nk = r->nk;
    const double dt_min = r->dts[0], dt_max = r->dts[points - 1], omega = r->omega;
    const hk_analytic *exact = r->exact;
    fprintf(f,
            "stability of %s: omega_max = %.6g rad/s (estimate from k and m), %d dt from %.4g to %.4g s, %.4g s "
            "simulated per run (at least 2000 steps), %d thread%s\n",
            r->scene, omega, points, dt_min, dt_max, r->time, r->threads, r->threads == 1 ? "" : "s");
    if (exact->kind == HK_ANALYTIC_OSCILLATOR)
        fprintf(f,
                "analytic answer: harmonic oscillator, omega = %.6g rad/s, x(t) = L0 + %.6g cos(omega t) + %.6g "
                "sin(omega t) m along the spring\n",
                exact->omega, exact->d0, exact->v0 / exact->omega);
    else if (exact->kind == HK_ANALYTIC_PENDULUM)
        fprintf(f,
                "analytic answer: pendulum, exact elliptic-integral solution, theta0 = %.6g rad, L = %.9g m "
                "(rest length + m g / k), period %.9g s (small-amplitude 2 pi sqrt(L/g) = %.9g s)\n",
                exact->theta0, exact->L, exact->period, 2 * 3.14159265358979323846 / exact->omega0);
    print_reference(f, r);
    fprintf(f, "%-20s %14s %12s %7s  %s\n", "integrator", "stable_dt_max", "omega*dt", "theory", "max_error_m@dt_min");
    for (int ki = 0; ki < nk; ki++) {
        const hk_stability_profile *P = &r->pr[ki];
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
        /* the integrator's limit on the undamped oscillator, from its table row */
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)P->kind);
        char theory[16];
        char tag[32];
        fprintf(f, "%-20s %14s %12s %7s  ", hk_stability_label(P, tag, sizeof tag), lim, od,
                hk_stability_limit_text(in, theory, sizeof theory));
        if (isnan(P->error[0]))
            fprintf(f, "n/a\n");
        else
            fprintf(f, "%.3e\n", P->error[0]);
    }
    /* the drift, in blocks of DRIFT_COLUMNS dt each: the table stays within 80 columns at any --points */
    fprintf(f, "\nrelative energy drift per simulated second at each dt:\n");
    for (int i0 = 0; i0 < points; i0 += DRIFT_COLUMNS) {
        const int i1 = i0 + DRIFT_COLUMNS < points ? i0 + DRIFT_COLUMNS : points;
        fprintf(f, "%s%-20s", i0 ? "\n" : "", "dt [s]");
        for (int i = i0; i < i1; i++) fprintf(f, " %10.4g", r->dts[i]);
        fprintf(f, "\n");
        for (int ki = 0; ki < nk; ki++) {
            const hk_stability_profile *P = &r->pr[ki];
            char tag[32];
            fprintf(f, "%-20s", hk_stability_label(P, tag, sizeof tag));
            for (int i = i0; i < i1; i++)
                if (P->stable[i])
                    fprintf(f, " %+10.3e", P->drift[i]);
                else
                    fprintf(f, " %10s", "unstable");
            fprintf(f, "\n");
        }
    }
    /* what stability costs: a row per integrator and dt */
    fprintf(f, "\nat each dt: the error against the reference [m] (RMS over the free particles,\n"
               "the largest at the end of each quarter of the first T s), the largest r/L0,\n"
               "and the cost (the run's CPU time per simulated second, CG iterations a step):\n");
    fprintf(f, "%-19s %9s %10s %9s %10s %10s %7s\n", "integrator", "dt [s]", "error [m]", "err/size", "r/L0 max",
            "cpu [s/s]", "cg/step");
    for (int ki = 0; ki < nk; ki++) {
        const hk_stability_profile *P = &r->pr[ki];
        char tag[32];
        hk_stability_label(P, tag, sizeof tag);
        for (int i = 0; i < points; i++) {
            char err[32], rel[32], str[32];
            if (!P->stable[i]) {
                snprintf(err, sizeof err, "unstable");
                snprintf(rel, sizeof rel, "-");
                snprintf(str, sizeof str, "-");
            } else {
                if (isnan(P->ref_error[i])) {
                    snprintf(err, sizeof err, "n/a");
                    snprintf(rel, sizeof rel, "n/a");
                } else {
                    snprintf(err, sizeof err, "%.3e", P->ref_error[i]);
                    snprintf(rel, sizeof rel, "%.2e", relative(r->ref, P->ref_error[i]));
                }
                snprintf(str, sizeof str, "%.7f", P->max_stretch[i]);
            }
            fprintf(f, "%-19s %9.2e %10s %9s %10s %10.2e %7.1f\n", tag, r->dts[i], err, rel, str, P->cpu[i], P->cg[i]);
        }
    }
}

/* The reference as a JSON object (null without one). */
static void json_reference(hk_json *j, const hk_stability_result *r)
{
    const hk_reference *ref = r->ref;
    if (r->factor == 0) {
        hk_json_null(j, "reference");
        return;
    }
    hk_json_object(j, "reference");
    hk_json_str(j, "integrator", "implicit_euler");
    hk_json_num(j, "dt", ref->dt, 9);
    hk_json_int(j, "dt_min_over", r->factor);
    hk_json_str(j, "cg_stop", "relative");
    hk_json_num(j, "cg_tolerance", HK_REF_CG_TOLERANCE, 9);
    hk_json_int(j, "newton_iterations", HK_REF_NEWTON);
    hk_json_str(j, "failed", ref->ok ? NULL : ref->why[ref->why[0][0] ? 0 : 1]);
    hk_json_num(j, "size_m", ref->size, 9);
    hk_json_num(j, "own_error_m", ref->ok ? ref->own_error : NAN, 9);
    hk_json_num(j, "own_error_rel", ref->ok ? relative(ref, ref->own_error) : NAN, 9);
    hk_json_num(j, "max_stretch", ref->ok ? ref->max_stretch : NAN, 9);
    hk_json_num(j, "cpu_s_per_sim_s", ref->ok ? ref->cpu_per_s : NAN, 6);
    hk_json_num(j, "cg_per_step", ref->ok ? ref->cg_per_step : NAN, 9);
    hk_json_close(j);
}

/* The profile as JSON: the scene, omega_max, the analytic answer, the reference, and per integrator its dt limit
 * (null when none was found in the range) and the sweep (null for numbers a blow-up left undefined). */
static int write_json(FILE *f, const hk_stability_result *r)
{
    hk_json j;
    hk_json_begin(&j, f);
    hk_json_object(&j, NULL);
    hk_json_str(&j, "scene", r->scene);
    hk_json_num(&j, "omega_max", r->omega, 9);
    hk_json_str(&j, "analytic",
                r->exact->kind == HK_ANALYTIC_OSCILLATOR ? "oscillator"
                : r->exact->kind == HK_ANALYTIC_PENDULUM ? "pendulum"
                                                         : NULL);
    json_reference(&j, r);
    hk_json_array(&j, "integrators");
    for (int ki = 0; ki < r->nk; ki++) {
        const hk_stability_profile *P = &r->pr[ki];
        hk_json_object_line(&j, NULL);
        hk_json_str(&j, "name", hk_integrator_name((hk_integrator_kind)P->kind));
        hk_json_num(&j, "iterations", P->iterations > 0 ? P->iterations : NAN, 9); /* null: not iterated, or its own */
        hk_json_num(&j, "stable_dt_max", P->limit == 0 ? NAN : P->limit, 9);       /* null: none, or above dt_max */
        hk_json_array_line(&j, "sweep");
        for (int i = 0; i < r->points; i++) {
            const int ok = P->stable[i];
            hk_json_object_line(&j, NULL);
            hk_json_num(&j, "dt", r->dts[i], 9);
            hk_json_bool(&j, "stable", ok);
            hk_json_num(&j, "energy_drift_per_s", ok ? P->drift[i] : NAN, 9);
            hk_json_num(&j, "max_error", P->error[i], 9);
            hk_json_num(&j, "ref_error_m", ok ? P->ref_error[i] : NAN, 9);
            hk_json_num(&j, "ref_error_rel", ok ? relative(r->ref, P->ref_error[i]) : NAN, 9);
            hk_json_num(&j, "max_stretch", ok ? P->max_stretch[i] : NAN, 9);
            hk_json_num(&j, "cpu_s_per_sim_s", P->cpu[i], 6);
            hk_json_num(&j, "cg_per_step", P->cg[i], 9);
            hk_json_close(&j);
        }
        hk_json_close(&j);
        hk_json_close(&j);
    }
    hk_json_close(&j);
    hk_json_close(&j);
    return hk_json_end(&j);
}

int hk_stability_write(FILE *f, const hk_stability_result *r, int json)
{
    if (json) return write_json(f, r);
    const double omega = r->omega;
    const hk_reference *ref = r->ref;
    fprintf(f, "integrator,row,dt,omega_dt,stable,energy_drift_per_s,max_error,ref_error_m,ref_error_rel,max_stretch,"
               "cpu_s_per_sim_s,cg_per_step,iterations\n");
    if (r->factor > 0 && ref->ok)
        fprintf(f, "implicit_euler,reference,%.9g,%.9g,1,,,%.9g,%.9g,%.9g,%.6g,%.9g,\n", ref->dt, omega * ref->dt,
                ref->own_error, relative(ref, ref->own_error), ref->max_stretch, ref->cpu_per_s, ref->cg_per_step);
    for (int ki = 0; ki < r->nk; ki++) {
        const hk_stability_profile *P = &r->pr[ki];
        const char *name = hk_integrator_name((hk_integrator_kind)P->kind);
        char its[16] = ""; /* empty: not iterated, or at its own default */
        if (P->iterations > 0) snprintf(its, sizeof its, "%d", P->iterations);
        fprintf(f, "%s,limit,%.9g,%.9g,,,,,,,,,%s\n", name, P->limit, omega * P->limit, its);
        for (int i = 0; i < r->points; i++)
            fprintf(f, "%s,sweep,%.9g,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.6g,%.9g,%s\n", name, r->dts[i],
                    omega * r->dts[i], P->stable[i], P->drift[i], P->error[i], P->ref_error[i],
                    relative(ref, P->ref_error[i]), P->max_stretch[i], P->cpu[i], P->cg[i], its);
    }
    return 0;
}
