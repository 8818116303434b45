/* plot_axis.c — axes for any finite data: 1-2-5 tick steps in scaled units, exact decimal labels, printed labels. */
/* SPDX-License-Identifier: MIT */
#include "plot_axis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 10^p * 2^-e, for the p and e of an axis (the result near its tick step, a normal number): pow is
 * within an ulp and ldexp exact, with 10^p split where it alone would be subnormal. */
static double pow10_scaled(int p, int e)
{
    return p >= -300 ? ldexp(pow(10, p), -e) : ldexp(pow(10, p + 30), -e) * 1e-30;
}

/* A linear axis over [lo, hi]. Everything is computed in units of 2^exp2, the
 * data scaled so the largest magnitude lies in [0.5, 1): no difference of two
 * values can overflow (-DBL_MAX..DBL_MAX is 2 units wide) and subnormal data
 * scale up to normal numbers. The tick step, 1, 2 or 5 times 10^pow10 in data
 * units, is chosen from the step's decimal logarithm, which is finite for
 * every finite input, and the labels are written from integers (tick_label). */
static void scale_linear(double lo, double hi, hk_plot_scale *s)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = isfinite(lo) ? lo : isfinite(hi) ? hi : 0;
        hi = lo;
    }
    if (hi < lo) {
        const double t = lo;
        lo = hi;
        hi = t;
    }
    if (lo == 0 && hi == 0) { /* an all-zero column (a count that stays 0): 0..1, the line along the bottom; no
                               * negative values that no row has */
        lo = 0;
        hi = 1;
    }
    frexp(fmax(fabs(lo), fabs(hi)), &s->exp2);
    double a = ldexp(lo, -s->exp2), b = ldexp(hi, -s->exp2);
    /* at least a millionth of the values' size, so a constant series shows as a flat line with readable ticks */
    const double span = 1e-6 * fmax(fabs(a), fabs(b));
    if (b - a < span) {
        const double mid = 0.5 * (a + b);
        a = mid - span;
        b = mid + span;
    }
    /* about 5 steps: raw in scaled units, 10^p <= raw * 2^exp2 < 10^(p + 1) */
    const double raw = (b - a) / 5;
    int p = (int)floor(log10(raw) + s->exp2 * 0.30102999566398119521);
    double unit = pow10_scaled(p, s->exp2);
    if (raw / unit >= 10) unit = pow10_scaled(++p, s->exp2);
    if (raw / unit < 1) unit = pow10_scaled(--p, s->exp2);
    const double f = raw / unit;
    int m = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    if (m == 10) {
        m = 1;
        unit = pow10_scaled(++p, s->exp2);
    }
    s->step = m * unit;
    s->pow10 = p;
    s->mult = m;
    /* a limit within rounding of a tick (k within 1e-12 of it, relative) is that tick, not one step further */
    const double ka = a / s->step, kb = b / s->step;
    s->k0 = (long long)floor(ka + 1e-12 * fmax(1, fabs(ka)));
    s->k1 = (long long)ceil(kb - 1e-12 * fmax(1, fabs(kb)));
    s->min = (double)s->k0 * s->step;
    s->max = (double)s->k1 * s->step;
}

/* A log axis over [lo, hi] in whole decades; a non-positive or non-finite limit is dropped (the other one alone:
 * its decade; neither: 1..10). */
static void scale_log(double lo, double hi, hk_plot_scale *s)
{
    const int lok = lo > 0 && isfinite(lo), hik = hi > 0 && isfinite(hi);
    double dlo = lok ? log10(lo) : hik ? log10(hi) : 0;
    double dhi = hik ? log10(hi) : dlo;
    if (dhi < dlo) {
        const double t = dlo;
        dlo = dhi;
        dhi = t;
    }
    s->exp2 = 0;
    s->pow10 = 0;
    s->step = 1;
    s->min = floor(dlo);
    s->max = ceil(dhi);
    if (s->max <= s->min) s->max = s->min + 1;
    const int decades = (int)(s->max - s->min);
    s->mult = decades > 10 ? (decades + 9) / 10 : 1; /* a tick every mult decades */
    s->k0 = (long long)s->min;
    s->k1 = (long long)s->max;
}

void hk_plot_scale_set(hk_plot_scale *s, double lo, double hi, int logscale)
{
    s->log = logscale != 0;
    if (s->log)
        scale_log(lo, hi, s);
    else
        scale_linear(lo, hi, s);
}

void hk_plot_axes_set(hk_plot_axes *ax, int left, int top, int right, int bottom, double xlo, double xhi, int xlog,
                      double ylo, double yhi, int ylog)
{
    ax->left = left;
    ax->top = top;
    ax->right = right;
    ax->bottom = bottom;
    hk_plot_scale_set(&ax->x, xlo, xhi, xlog);
    hk_plot_scale_set(&ax->y, ylo, yhi, ylog);
}

/* A data value in axis units: scaled by 2^-exp2, or log10 on a log axis; NAN when it cannot show. Values that
 * the scaling would take past 1e290 (far outside the axis) stop there, so pixel arithmetic stays finite. */
static double to_axis(const hk_plot_scale *s, double v)
{
    if (!isfinite(v)) return NAN;
    if (s->log) return v > 0 ? log10(v) : NAN;
    return fmax(-1e290, fmin(1e290, ldexp(v, -s->exp2)));
}

double hk_plot_scale_pos(const hk_plot_scale *s, double at, double p0, double p1)
{
    return p0 + (at - s->min) / (s->max - s->min) * (p1 - p0);
}

double hk_plot_px(const hk_plot_axes *ax, double x)
{
    return hk_plot_scale_pos(&ax->x, to_axis(&ax->x, x), ax->left, ax->right);
}

double hk_plot_py(const hk_plot_axes *ax, double y)
{
    return hk_plot_scale_pos(&ax->y, to_axis(&ax->y, y), ax->bottom, ax->top);
}

/* K * 10^p written exactly (K != 0 has at most 19 digits), choosing plain or exponent notation as printf's %g
 * would: plain when the leading digit's exponent lies in -4..9, else "1.5e-324"-style (no '+', as the log
 * axis's "1e308"). */
static void tick_label(long long K, int p, char *buf, size_t len)
{
    char d[24], t[48];
    snprintf(d, sizeof d, "%llu", K < 0 ? 0ULL - (unsigned long long)K : (unsigned long long)K);
    int n = (int)strlen(d), w = 0;
    while (n > 1 && d[n - 1] == '0') { /* trailing zeros into the exponent */
        d[--n] = '\0';
        p++;
    }
    const int x = K == 0 ? 0 : n - 1 + p; /* exponent of the leading digit */
    if (K < 0) t[w++] = '-';
    if (K == 0) {
        t[w++] = '0';
    } else if (x < -4 || x > 9) {
        w += snprintf(t + w, sizeof t - (size_t)w, "%c%s%se%d", d[0], n > 1 ? "." : "", d + 1, x);
    } else if (x < 0) { /* 0.000ddd */
        t[w++] = '0';
        t[w++] = '.';
        for (int i = 0; i < -x - 1; i++) t[w++] = '0';
        for (int i = 0; i < n; i++) t[w++] = d[i];
    } else { /* ddd, ddd000 or dd.ddd */
        for (int i = 0; i <= x; i++) t[w++] = i < n ? d[i] : '0';
        if (n > x + 1) t[w++] = '.';
        for (int i = x + 1; i < n; i++) t[w++] = d[i];
    }
    t[w] = '\0';
    const size_t m = (size_t)w < len ? (size_t)w : len - 1; /* cut to the label's room, as snprintf would */
    memcpy(buf, t, m);
    buf[m] = '\0';
}

int hk_plot_ticks(const hk_plot_scale *s, double *at, char (*label)[HK_PLOT_LABEL], int max)
{
    int n = 0;
    if (s->log) {
        for (long long e = s->k0; e <= s->k1 && n < max; e += s->mult) {
            at[n] = (double)e;
            snprintf(label[n], HK_PLOT_LABEL, e == 0 ? "1" : e == 1 ? "10" : "1e%lld", e);
            n++;
        }
        return n;
    }
    for (long long k = s->k0; k <= s->k1 && n < max; k++) {
        at[n] = (double)k * s->step;
        tick_label(k * s->mult, s->pow10, label[n], HK_PLOT_LABEL);
        n++;
    }
    return n;
}

/* Appends the UTF-8 bytes of c to out (at most cap bytes in all, NUL included); the new length. */
static size_t put(char *out, size_t n, size_t cap, const char *c)
{
    const size_t k = strlen(c);
    if (n + k < cap) {
        memcpy(out + n, c, k + 1);
        n += k;
    }
    return n;
}

/* n written as superscript digits after out's n bytes. */
static size_t put_power(char *out, size_t n, size_t cap, long long e)
{
    static const char *const sup[10] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                        "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
    char d[24];
    snprintf(d, sizeof d, "%lld", e);
    n = put(out, n, cap, "10");
    for (const char *p = d; *p; p++) n = put(out, n, cap, *p == '-' ? "\u207b" : sup[*p - '0']);
    return n;
}

void hk_plot_tick_text(const hk_plot_scale *s, double at, const char *label, char out[HK_PLOT_TEXT])
{
    size_t n = 0;
    out[0] = '\0';
    if (s->log) {
        put_power(out, 0, HK_PLOT_TEXT, (long long)llround(at));
        return;
    }
    if (*label == '-') {
        n = put(out, n, HK_PLOT_TEXT, "\u2212");
        label++;
    }
    const char *e = strchr(label, 'e');
    char mant[HK_PLOT_LABEL];
    snprintf(mant, sizeof mant, "%.*s", (int)(e ? (size_t)(e - label) : strlen(label)), label);
    n = put(out, n, HK_PLOT_TEXT, mant);
    if (e) {
        n = put(out, n, HK_PLOT_TEXT, "\u00d7");
        put_power(out, n, HK_PLOT_TEXT, strtoll(e + 1, NULL, 10));
    }
}
