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
};

const hk_bound *hk_bound_of(hk_bound_kind kind) { return (unsigned)kind < HK_BOUND_COUNT ? &bounds[kind] : NULL; }

int hk_bound_ok(hk_bound_kind kind, int zero_ok, double v)
{
    const hk_bound *b = hk_bound_of(kind);
    if (!b) return 0;
    return (zero_ok && v == 0) || (v >= b->min && v <= b->max && isfinite(v));
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
    if (isfinite(b->max))
        snprintf(out, cap, "%sin [%s, %s] %s", zero_ok ? "0 or " : "", lo, hi, b->unit);
    else
        snprintf(out, cap, "%s>= %s %s", zero_ok ? "0 or " : "", lo, b->unit);
}

int hk_check_bound(hk_world *w, const char *what, const char *field, hk_bound_kind kind, int zero_ok, double v)
{
    if (hk_bound_ok(kind, zero_ok, v)) return 0;
    char range[96];
    hk_bound_text(kind, zero_ok, range, sizeof range);
    const hk_bound *b = hk_bound_of(kind);
    /* the reason explains the magnitudes, not the sign */
    const int magnitude = v > 0 && b;
    return hk_fail(w, "%s%s%s must be %s (got %g)%s%s", what ? what : "", what ? ": " : "", field, range, v,
                   magnitude ? ": " : "", magnitude ? b->reason : "");
}
