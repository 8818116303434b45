/* test_plot_axis.c — the plots' axes (plot_axis.h): ranges, ticks and their labels over any finite data. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_text.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "plot.h"

/* A label's value; long double where it has the wider exponent range, so "2e308" (an axis end past DBL_MAX)
 * still compares. */
static long double label_value(const char *label)
{
    char *end;
#if LDBL_MAX_EXP > DBL_MAX_EXP
    const long double v = strtold(label, &end);
#else
    const long double v = strtod(label, &end);
#endif
    if (!*label || *end) {
        print_error("tick label '%s' is not a number\n", label);
        fail();
    }
    return v;
}

/* The ticks of an axis over [lo, hi]: at least 2, labels numbers without nan or inf, distinct and increasing
 * (positions too), and the data inside the axis. Returns the labels joined by spaces into text. */
static void check_ticks(double lo, double hi, int logscale, char *text, size_t len)
{
    hk_plot_axes ax;
    hk_plot_axes_set(&ax, 100, 10, 900, 210, 0, 1, 0, lo, hi, logscale);
    double at[HK_PLOT_MAX_TICKS];
    char label[HK_PLOT_MAX_TICKS][HK_PLOT_LABEL];
    const int n = hk_plot_ticks(&ax.y, at, label, HK_PLOT_MAX_TICKS);
    text[0] = '\0';
    for (int i = 0; i < n; i++) snprintf(text + strlen(text), len - strlen(text), "%s%s", i ? " " : "", label[i]);
    if (n < 2 || !isfinite(ax.y.min) || !isfinite(ax.y.max) || !(ax.y.min < ax.y.max)) {
        print_error("%g..%g: %d ticks (%s), axis %g..%g\n", lo, hi, n, text, ax.y.min, ax.y.max);
        fail();
    }
    for (int i = 0; i < n; i++) {
        char lower[HK_PLOT_LABEL];
        for (int c = 0; c < HK_PLOT_LABEL; c++) lower[c] = (char)tolower((unsigned char)label[i][c]);
        if (strstr(lower, "nan") || strstr(lower, "inf") || !isfinite(at[i]) || at[i] < ax.y.min || at[i] > ax.y.max) {
            print_error("%g..%g: tick %d '%s' at %g (axis %g..%g)\n", lo, hi, i, label[i], at[i], ax.y.min, ax.y.max);
            fail();
        }
        if (i > 0 && !(at[i] > at[i - 1] && label_value(label[i]) > label_value(label[i - 1]) &&
                       strcmp(label[i], label[i - 1]) != 0)) {
            print_error("%g..%g: ticks not increasing: %s\n", lo, hi, text);
            fail();
        }
        /* printed: no "e" notation (7e+02, 7E+02), and read back it is the label's value */
        char printed[HK_PLOT_TEXT], ascii[HK_PLOT_TEXT];
        hk_plot_tick_text(&ax.y, at[i], label[i], printed);
        hk_tick_text_ascii(printed, ascii, sizeof ascii);
        if (strpbrk(printed, "eE+") || label_value(ascii) != label_value(label[i])) {
            print_error("%g..%g: tick '%s' printed as '%s' (%s)\n", lo, hi, label[i], printed, ascii);
            fail();
        }
    }
    /* finite data lie on the axis (the pixel rows of the area, 10..210) */
    const double data[2] = {lo, hi};
    for (int k = 0; k < 2; k++) {
        if (!isfinite(data[k]) || (logscale && !(data[k] > 0))) continue;
        const double py = hk_plot_py(&ax, data[k]);
        if (!(py >= 10 - 1e-6 && py <= 210 + 1e-6)) {
            print_error("%g..%g: %g lies at pixel row %g, outside 10..210 (ticks %s)\n", lo, hi, data[k], py, text);
            fail();
        }
    }
}

/* Axes over any finite data: ranges near +-DBL_MAX, zero ranges, ranges of 1e-300 and of subnormal numbers,
 * huge and tiny together. The labels are the exact tick values in %g's notation. */
static void test_plot_axis_any_finite(void **state)
{
    (void)state;
    static const struct {
        double lo, hi;
        int log;
        const char *want; /* the labels, or NULL: only the general checks */
    } cases[] = {
        {0, 1, 0, "0 0.2 0.4 0.6 0.8 1"},
        {-DBL_MAX, DBL_MAX, 0, "-2e308 -1e308 0 1e308 2e308"},
        {-1e308, 1e308, 0, "-1e308 -5e307 0 5e307 1e308"},
        {DBL_MAX, DBL_MAX, 0, "1.797691e308 1.797692e308 1.797693e308 1.797694e308 1.797695e308"},
        {-DBL_MAX, -DBL_MAX, 0, NULL},
        {-DBL_MAX, 1e-300, 0, "-2e308 -1.5e308 -1e308 -5e307 0"},
        {-1.5, 1e308, 0, "0 2e307 4e307 6e307 8e307 1e308"},
        {5, 5, 0, "4.999994 4.999996 4.999998 5 5.000002 5.000004 5.000006"},
        {-1, -1, 0, "-1.000001 -1.0000005 -1 -0.9999995 -0.999999"},
        {0, 0, 0, "0 0.2 0.4 0.6 0.8 1"},
        {1, 1 + DBL_EPSILON, 0, "0.999999 0.9999995 1 1.0000005 1.000001"},
        {1e-300, 2e-300, 0, "1e-300 1.2e-300 1.4e-300 1.6e-300 1.8e-300 2e-300"},
        {0, 1e-300, 0, "0 2e-301 4e-301 6e-301 8e-301 1e-300"},
        {-1e-300, 0, 0, NULL},
        {0, 4.9e-324, 0, "0 1e-324 2e-324 3e-324 4e-324 5e-324"},
        {4.9e-324, 4.9e-324, 0, NULL},
        {-3e-5, 1e-5, 0, "-3e-5 -2e-5 -1e-5 0 1e-5"},
        {1e5, 1e5 + 1, 0, "100000 100000.2 100000.4 100000.6 100000.8 100001"},
        {1e10, 3e10, 0, "1e10 1.5e10 2e10 2.5e10 3e10"},
        {123456789, 123456790, 0, NULL},
        {NAN, INFINITY, 0, "0 0.2 0.4 0.6 0.8 1"},
        {4.9e-324, DBL_MAX, 1, NULL},
        {1e308, -INFINITY, 1, "1e308 1e309"},
        {0.5, 2, 1, "1e-1 1 10"},
        {0, 0, 1, "1 10"},
    };
    char text[1024];
    /* random finite doubles (every exponent, both signs): pairs, equal values, neighbours one ulp apart */
    uint64_t seed = 42;
    for (int i = 0; i < 30000; i++) {
        double v[2];
        for (int k = 0; k < 2; k++) {
            do {
                uint64_t z = (seed += 0x9e3779b97f4a7c15ULL); /* splitmix64 */
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                z ^= z >> 31;
                memcpy(&v[k], &z, sizeof v[k]);
            } while (!isfinite(v[k]));
        }
        const double hi = i % 3 == 0 ? v[1] : i % 3 == 1 ? v[0] : nextafter(v[0], INFINITY);
        check_ticks(v[0], hi, i % 2, text, sizeof text);
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        check_ticks(cases[i].lo, cases[i].hi, cases[i].log, text, sizeof text);
        check_ticks(cases[i].hi, cases[i].lo, cases[i].log, text, sizeof text); /* the order does not matter */
        if (cases[i].want && strcmp(text, cases[i].want) != 0) {
            print_error("%g..%g: ticks '%s', expected '%s'\n", cases[i].lo, cases[i].hi, text, cases[i].want);
            fail();
        }
    }
}

/* How tick labels are printed (hk_plot_tick_text): the minus sign, powers of ten with superscripts. */
static void test_plot_tick_text(void **state)
{
    (void)state;
    hk_plot_scale lin, lg;
    hk_plot_scale_set(&lin, 0, 1, 0);
    hk_plot_scale_set(&lg, 1e-3, 1e2, 1);
    static const struct {
        int log;
        double at;
        const char *label, *want;
    } cases[] = {
        {0, 0, "0", "0"},
        {0, 0, "0.25", "0.25"},
        {0, 0, "700", "700"},
        {0, 0, "-1.5", "\u22121.5"},
        {0, 0, "100000.2", "100000.2"},
        {0, 0, "1e10", "1\u00d710\u00b9\u2070"},
        {0, 0, "1.5e-300", "1.5\u00d710\u207b\u00b3\u2070\u2070"},
        {0, 0, "-2e308", "\u22122\u00d710\u00b3\u2070\u2078"},
        {1, -3, "1e-3", "10\u207b\u00b3"},
        {1, 0, "1", "10\u2070"},
        {1, 1, "10", "10\u00b9"},
        {1, 2, "1e2", "10\u00b2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[HK_PLOT_TEXT];
        hk_plot_tick_text(cases[i].log ? &lg : &lin, cases[i].at, cases[i].label, out);
        if (strcmp(out, cases[i].want) != 0) {
            print_error("'%s' printed as '%s', expected '%s'\n", cases[i].label, out, cases[i].want);
            fail();
        }
    }
}

/* A series that is constant gets an axis around its value that keeps its sign: all zero (a count that stays 0, or a
 * column never filled) is 0..1 with the line along the bottom, not -1..1 with negative values no row has; a
 * constant positive or negative value an axis of its own sign. */
static void test_plot_axis_constant(void **state)
{
    (void)state;
    static const double values[] = {0, -0.0, 3, 1e-300, 1e300, -2, -1e-300};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const double v = values[i];
        hk_plot_scale s;
        hk_plot_scale_set(&s, v, v, 0);
        const double lo = ldexp(s.min, s.exp2), hi = ldexp(s.max, s.exp2);
        if (!(lo <= v && v <= hi && lo < hi) || (v >= 0 && lo < 0) || (v < 0 && hi > 0)) {
            print_error("constant %g: axis %g..%g\n", v, lo, hi);
            fail();
        }
        if (v == 0 && !(lo == 0 && hi == 1)) {
            print_error("all zero: axis %g..%g, expected 0..1\n", lo, hi);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_axis_any_finite),
        cmocka_unit_test(test_plot_tick_text),
        cmocka_unit_test(test_plot_axis_constant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
