/* bounds.c — the magnitudes every entry point accepts for masses, stiffnesses, damping and time steps, and why. */
/* SPDX-License-Identifier: MIT */
#include "bounds.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One row per quantity; docs/scene-format.md ("Bounds") explains them. The
 * mass, stiffness and damping bounds keep k/m and c/m within 1e-24 .. 1e24
 * (omega = sqrt(k/m) <= 1e12 rad/s, so one step of the smallest dt resolves
 * the fastest spring); the time step bound is where single-precision
 * positions stop moving. */
static const hk_bound bounds[HK_BOUND_COUNT] = {
    [HK_BOUND_MASS] = {"mass", "kg", 1e-12, 1e12,
                       "outside it 1/m, k/m and c/m leave what single precision and the smallest dt resolve"},
    [HK_BOUND_STIFFNESS] = {"stiffness", "N/m", 1e-12, 1e12,
                            "outside it k/m leaves what single precision and the smallest dt resolve"},
    [HK_BOUND_DAMPING] = {"damping", "N*s/m", 1e-12, 1e12,
                          "outside it c/m leaves what single precision and the smallest dt resolve"},
    [HK_BOUND_DT] = {"time step", "s", 1e-12, INFINITY,
                     "a shorter step moves no particle, v dt vanishing next to a single-precision position, and "
                     "1e12 of them make one second"},
    [HK_BOUND_DAMPING_RATIO] = {"damping ratio", "", 0, 100,
                                "a bounce keeps e^-2 = 0.135 of a particle's speed at 1 (critical damping) and 0.0024 "
                                "at 10; past 100 the layer's damper only slows a particle's way out of it, and the "
                                "step an explicit integrator can take shrinks as 1 / (damping_ratio sqrt(k/m))"},
};

const hk_bound *hk_bound_of(hk_bound_kind kind) { return (unsigned)kind < HK_BOUND_COUNT ? &bounds[kind] : NULL; }

int hk_bound_ok(hk_bound_kind kind, int zero_ok, double v)
{
    const hk_bound *b = hk_bound_of(kind);
    if (!b) return 0;
    return (zero_ok && v == 0) || (v >= b->min && v <= b->max && isfinite(v) && hk_real_holds(v));
}

void hk_short_g(double v, char *out, size_t cap)
{
    char t[32];
    snprintf(t, sizeof t, "%g", v);
    size_t o = 0;
    for (const char *c = t; *c && o + 1 < cap; c++) {
        out[o++] = *c;
        if (*c != 'e') continue;
        if (c[1] == '+')
            c++;
        else if (c[1] == '-' && o + 1 < cap)
            out[o++] = *++c;
        while (c[1] == '0' && c[2]) c++;
    }
    out[o] = '\0';
}

void hk_bound_text(hk_bound_kind kind, int zero_ok, char *out, size_t cap)
{
    const hk_bound *b = hk_bound_of(kind);
    if (!b) {
        snprintf(out, cap, "?");
        return;
    }
    char lo[32], hi[32];
    hk_short_g(b->min, lo, sizeof lo);
    hk_short_g(b->max, hi, sizeof hi);
    const char *sp = b->unit[0] ? " " : ""; /* a ratio has no unit */
    if (isfinite(b->max))
        snprintf(out, cap, "%sin [%s, %s]%s%s", zero_ok ? "0 or " : "", lo, hi, sp, b->unit);
    else
        snprintf(out, cap, "%s>= %s%s%s", zero_ok ? "0 or " : "", lo, sp, b->unit);
}

void hk_bound_message(const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v, char *msg,
                      size_t cap)
{
    char range[96];
    hk_bound_text(kind, zero_ok, range, sizeof range);
    const hk_bound *b = hk_bound_of(kind);
    if (b && isfinite(v) && v >= b->min && v <= b->max &&
        !hk_real_holds(v)) { /* within the table, past what the build holds */
        snprintf(msg, cap, "%s%s%s must be %s and within this build's precision, at most %g %s (got %g)",
                 what ? what : "", what ? ": " : "", field, range, HK_REAL_LARGEST, b->unit, v);
        return;
    }
    /* the reason explains the magnitudes, not the sign */
    const int magnitude = v > 0 && b;
    snprintf(msg, cap, "%s%s%s must be %s (got %g)%s%s", what ? what : "", what ? ": " : "", field, range, v,
             magnitude ? ": " : "", magnitude ? b->reason : "");
}

int hk_check_bound(hk_world *w, const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v)
{
    if (hk_bound_ok(kind, zero_ok, v)) return 0;
    char msg[sizeof w->error];
    hk_bound_message(what, field, kind, zero_ok, v, msg, sizeof msg);
    return hk_fail(w, "%s", msg);
}

int hk_vec_message(const char *field, hk_vec3 v, char *msg, size_t cap)
{
    const double c[3] = {v.x, v.y, v.z};
    for (int k = 0; k < 3; k++) {
        if (!isfinite(c[k])) {
            snprintf(msg, cap, "%s.%c must be finite (got %g)", field, "xyz"[k], c[k]);
            return -1;
        }
        if (!hk_real_holds(c[k])) {
            snprintf(msg, cap, "%s.%c must be within this build's precision, |%c| <= %g (got %g)", field, "xyz"[k],
                     "xyz"[k], HK_REAL_LARGEST, c[k]);
            return -1;
        }
    }
    return 0;
}

int hk_check_vec(hk_world *w, const char *what, const char *field, hk_vec3 v)
{
    char msg[sizeof w->error];
    return hk_vec_message(field, v, msg, sizeof msg) ? hk_fail(w, "%s: %s", what, msg) : 0;
}

int hk_check_positive(hk_world *w, const char *what, const char *field, double v)
{
    return v > 0 && isfinite(v) ? 0 : hk_fail(w, "%s: %s must be > 0 (got %g)", what, field, v);
}

void hk_field_text(const hk_field *f, char *out, size_t cap)
{
    switch (f->rule) {
    case HK_RULE_FINITE: snprintf(out, cap, "finite, within the build's precision"); return;
    case HK_RULE_VEC: snprintf(out, cap, "finite in x, y and z, within the build's precision"); return;
    case HK_RULE_INT:
        if (f->a == 0 && f->b == 1)
            snprintf(out, cap, "0 or 1");
        else
            snprintf(out, cap, "in [%.0f, %.0f]", f->a, f->b);
        return;
    case HK_RULE_RANGE: snprintf(out, cap, "in [%g, %g]", f->a, f->b); return;
    default: hk_bound_text((hk_bound_kind)f->a, f->rule == HK_RULE_BOUND_OR_0, out, cap); return;
    }
}

int hk_field_check(const hk_field *f, const void *base, char *msg, size_t cap)
{
    const char *at = (const char *)base + f->offset;
    char rule[96];
    hk_field_text(f, rule, sizeof rule);
    if (f->rule == HK_RULE_VEC) {
        hk_vec3 x;
        memcpy(&x, at, sizeof x);
        return hk_vec_message(f->name, x, msg, cap);
    }
    if (f->rule == HK_RULE_INT) {
        int i;
        memcpy(&i, at, sizeof i);
        if (i >= f->a && i <= f->b) return 0;
        snprintf(msg, cap, "%s must be %s (got %d)", f->name, rule, i);
        return -1;
    }
    double v;
    memcpy(&v, at, sizeof v);
    if (f->rule == HK_RULE_FINITE && isfinite(v) && !hk_real_holds(v)) {
        snprintf(msg, cap, "%s must be within this build's precision, |%s| <= %g (got %g)", f->name, f->name,
                 HK_REAL_LARGEST, v);
        return -1;
    }
    if (f->rule == HK_RULE_FINITE  ? isfinite(v)
        : f->rule == HK_RULE_RANGE ? v >= f->a && v <= f->b
                                   : hk_bound_ok((hk_bound_kind)f->a, f->rule == HK_RULE_BOUND_OR_0, v))
        return 0;
    if (f->rule == HK_RULE_BOUND || f->rule == HK_RULE_BOUND_OR_0)
        hk_bound_message(NULL, f->name, (hk_bound_kind)f->a, f->rule == HK_RULE_BOUND_OR_0, v, msg, cap);
    else
        snprintf(msg, cap, "%s must be %s (got %g)", f->name, rule, v);
    return -1;
}
