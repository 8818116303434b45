/* test_stability.c — `hooke stability`: the drift and cost plot (its pixels and its text), the pendulum's analytic
 * answer, the error against the reference, stretch and cost on the tilted strand, the sweep flags and their bad values,
 * --help, and a table that does not depend on the thread count. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_cost.h"
#include "hk_test_png.h"
#include "hk_test_text.h"

#include <math.h>

#include "plot.h"
#include "stability.h"
#include "stability_plot.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* The CSV's sweep row `row` (0-based) of integrator name: dt, stable, drift, error. */
static void sweep_row(const char *csv, const char *name, int row, double *dt, int *stable, double *drift, double *err)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s,sweep,", name);
    const char *p = strstr(csv, pat);
    for (int i = 0; i < row && p; i++) p = strstr(p + 1, pat);
    if (!p) {
        print_error("no sweep row %d of %s in\n%s\n", row, name, csv);
        fail();
    }
    double wdt;
    assert_int_equal(sscanf(p + strlen(pat), "%lf,%lf,%d,%lf,%lf", dt, &wdt, stable, drift, err), 5);
}

/* The stable_dt_max and omega*dt cells of integrator name in the printed table. */
static void limit_cells(const char *out, const char *name, const char *dt, const char *wdt)
{
    char pat[64], a[32], b[32];
    snprintf(pat, sizeof pat, "\n%s ", name);
    const char *p = strstr(out, pat);
    assert_non_null(p);
    assert_int_equal(sscanf(p + strlen(pat), "%31s %31s", a, b), 2);
    assert_string_equal(a, dt);
    assert_string_equal(b, wdt);
}

static int count(const char *text, const char *pat)
{
    int n = 0;
    for (const char *p = strstr(text, pat); p; p = strstr(p + 1, pat)) n++;
    return n;
}

/* Leftmost column holding at least min pixels of colour c (the dashed limit line); -1 if none. */
static int dashed_column(const hk_png *p, hk_rgb c, int min)
{
    for (int x = 0; x < p->w; x++) {
        int n = 0;
        for (int y = 0; y < p->h; y++) {
            const unsigned char *q = p->rgb + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
            n += q[0] == c.r && q[1] == c.g && q[2] == c.b;
        }
        if (n >= min) return x;
    }
    return -1;
}

static void test_stability_plot(void **state)
{
    (void)state;
    const char *png = hk_test_path("stability.png");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators verlet,rk4 --time 1 --points 4 --plot '%s'", png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    char wrote[512];
    snprintf(wrote, sizeof wrote, /* the sweep, and no progress: stderr is a file */
             "hooke: stability: 2 integrators x 4 dt from 0.001 to 0.4 s (omega_max dt 0.01 to 4), 1 s per run "
             "(--time), 16000 steps in all, after the reference's 12001 + 6001 implicit_euler steps at dt 0.0001 "
             "and 0.0002 s\nhooke: wrote %s\n",
             png);
    assert_string_equal(r.err, wrote);
    hk_run_free(&r);
    hk_png p = hk_test_png_read(png);
    assert_int_equal(p.w, 1200); /* 900, and the legend's column right of the plot */
    assert_int_equal(p.h, 1200); /* the drift's panel over the cost's */
    const hk_rgb verlet = hk_plot_colour(HK_VERLET), rk4 = hk_plot_colour(HK_RK4);
    /* each curve (4 markers and lines) and its dashed limit line: the plot area is 488 px high, dashes cover half */
    assert_true(hk_test_png_count(&p, 0, p.h, verlet.r, verlet.g, verlet.b) > 400);
    assert_true(hk_test_png_count(&p, 0, p.h, rk4.r, rk4.g, rk4.b) > 400);
    const int xv = dashed_column(&p, verlet, 200), xr = dashed_column(&p, rk4, 200);
    assert_true(xv > 80 && xr > 80);
    /* log dt axis: 0.001 .. 1 s over 796 px, so omega*dt 2.00 and 2.83 lie log10(2.828 / 2.003) / 3 * 796 = 40 px apart
     */
    if (abs(xr - xv - 40) > 3) {
        print_error("limit lines at x = %d (verlet) and %d (rk4), expected 40 px apart\n", xv, xr);
        fail();
    }
    free(p.rgb);
    /* an unwritable picture: exit 3 */
    r = hk_test_hooke("", "stability " SCENE(
                              "oscillator.scene") " --integrators rk4 --time 0.1 --points 2 --plot /nonexistent/s.png");
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write /nonexistent/s.png"));
    hk_run_free(&r);
}

/* Columns whose pixels of colour c in rows [y0, y1) number at least min: the leftmost into *x (-1: none);
 * returns how many. */
static int columns_of(const hk_png *p, hk_rgb c, int y0, int y1, int min, int *x)
{
    int n = 0;
    *x = -1;
    for (int cx = 0; cx < p->w; cx++) {
        int k = 0;
        for (int y = y0; y < y1; y++) {
            const unsigned char *q = p->rgb + ((size_t)y * (size_t)p->w + (size_t)cx) * 3;
            k += q[0] == c.r && q[1] == c.g && q[2] == c.b;
        }
        if (k >= min) {
            if (*x < 0) *x = cx;
            n++;
        }
    }
    return n;
}

/* Limits at one dt (semi-implicit Euler and jelly are one scheme here, and so are the two Verlets; their limits,
 * omega*dt 1.979 and 2.003, lie 1.4 px apart) each show in their integrator's colour: their dashes take turns down
 * one column instead of the last one drawn covering the others, and their triangles stand side by side, each in
 * its colour. Before, only jelly's orange and velocity Verlet's purple showed, over grey triangles. */
static void test_stability_plot_coinciding(void **state)
{
    (void)state;
    const char *png = hk_test_path("coinciding.png");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators semi_implicit_euler,jelly,verlet,velocity_verlet "
                                                    "--time 1 --points 4 --plot '%s' --quiet",
             png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    hk_png p = hk_test_png_read(png);
    const int kinds[] = {HK_SEMI_IMPLICIT_EULER, HK_JELLY, HK_VERLET, HK_VELOCITY_VERLET};
    const int top = 76, bottom = 552; /* the plot area (src/cli/stability/stability_plot.c) */
    int xs[4];
    for (int k = 0; k < 4; k++) {
        const hk_rgb c = hk_plot_colour(kinds[k]);
        /* its dashes: one of 6 px in every 40 down the 476 px of the area, some 70 px (curves add a few) */
        const int n = columns_of(&p, c, top + 10, bottom, 40, &xs[k]);
        /* its triangle at the top of the area, 8 px wide and 6 high */
        int tx, tri = 0;
        columns_of(&p, c, top + 2, top + 8, 1, &tx);
        for (int y = top + 2; y < top + 8; y++) tri += hk_test_png_count(&p, y, y + 1, c.r, c.g, c.b);
        print_message("%s: limit line at x = %d (%d column%s), %d triangle pixels\n",
                      hk_integrator_name((hk_integrator_kind)kinds[k]), xs[k], n, n == 1 ? "" : "s", tri);
        if (n < 1 || tri < 12) {
            print_error("%s: its limit does not show in its colour\n",
                        hk_integrator_name((hk_integrator_kind)kinds[k]));
            fail();
        }
    }
    for (int k = 1; k < 4; k++) assert_true(abs(xs[k] - xs[0]) <= 4);
    free(p.rgb);
}

/* Curves of the same data (two integrators with one drift at every dt) each show in their colour inside the plot
 * area: the first drawn is the widest, with the largest markers, so that a later one lying on it leaves its edges
 * and its markers' rims showing. Before, the last one drawn covered the others to the pixel. */
static void test_stability_plot_overlap(void **state)
{
    (void)state;
    const char *png = hk_test_path("overlap.png");
    double dts[4] = {1e-3, 2e-3, 4e-3, 8e-3}, drift[4] = {1e-6, 1e-5, 1e-4, 1e-3}, error[4] = {0};
    double ref_error[4] = {1e-5, 1e-4, 1e-3, 1e-2}, stretch[4] = {1, 1, 1, 1}, cpu[4] = {8, 4, 2, 1}, cg[4] = {0};
    int stable[4] = {1, 1, 1, 1};
    const int kinds[3] = {HK_VERLET, HK_RK4, HK_SEMI_IMPLICIT_EULER};
    hk_stability_profile pr[3];
    for (int k = 0; k < 3; k++)
        pr[k] = (hk_stability_profile){.kind = kinds[k],
                                       .style = kinds[k],
                                       .limit = INFINITY,
                                       .drift = drift,
                                       .error = error,
                                       .stable = stable,
                                       .ref_error = ref_error,
                                       .max_stretch = stretch,
                                       .cpu = cpu,
                                       .cg = cg};
    assert_int_equal(hk_stability_plot(png, "same.scene", 10, dts, 4, pr, 3, NULL), 0);
    hk_png p = hk_test_png_read(png);
    const int top = 76, bottom = 552, right = 876; /* the plot area (src/cli/stability/stability_plot.c) */
    for (int k = 0; k < 3; k++) {
        const hk_rgb c = hk_plot_colour(kinds[k]);
        int n = 0;
        for (int y = top; y <= bottom; y++)
            for (int x = 0; x <= right; x++) {
                const unsigned char *q = p.rgb + ((size_t)y * (size_t)p.w + (size_t)x) * 3;
                n += q[0] == c.r && q[1] == c.g && q[2] == c.b;
            }
        print_message("%s: %d pixels of its colour in the plot area\n",
                      hk_integrator_name((hk_integrator_kind)kinds[k]), n);
        if (n < 100) {
            print_error("%s: its curve does not show\n", hk_integrator_name((hk_integrator_kind)kinds[k]));
            fail();
        }
    }
    free(p.rgb);
}

/* Where the limit marks go (hk_plot_limit_marks): lines on their own pixel columns, those within 4 px taking
 * turns; triangles over their lines, side by side 10 px apart where they would overlap, centred on their lines. */
static void test_stability_limit_marks(void **state)
{
    (void)state;
    hk_plot_axes ax;
    hk_plot_axes_set(&ax, 100, 76, 900, 552, 1e-3, 1, 1, 1e-9, 1e-3, 1); /* 3 decades over 800 px */
    /* five at one dt, one 2.83/2.0 further (120 px), two 0.2 px apart, one not finite, one past the axis */
    const double x[] = {0.0633, 0.0633, 0.0633, 0.0633, 0.0633, 0.0894, 0.5, 0.5003, NAN, 10};
    const int n = (int)(sizeof x / sizeof x[0]);
    hk_plot_mark m[16];
    hk_plot_limit_marks(&ax, n, x, m);
    const double at = floor(hk_plot_px(&ax, 0.0633)) + 0.5;
    for (int i = 0; i < 5; i++) {
        assert_true(m[i].x == at);
        assert_int_equal(m[i].turn, i);
        assert_int_equal(m[i].turns, 5);
        assert_true(fabs(m[i].tip - (at + 10 * (i - 2))) < 1e-9); /* side by side, centred on the line */
    }
    assert_int_equal(m[5].turns, 1);
    assert_true(m[5].x == floor(hk_plot_px(&ax, 0.0894)) + 0.5 && m[5].tip == m[5].x);
    assert_int_equal(m[6].turns, 2);
    assert_int_equal(m[7].turns, 2);
    assert_int_equal(m[6].turn + m[7].turn, 1);
    assert_true(fabs(fabs(m[7].tip - m[6].tip) - 10) < 1e-9);
    assert_true(fabs(0.5 * (m[6].tip + m[7].tip) - 0.5 * (m[6].x + m[7].x)) < 1e-9);
    assert_true(isnan(m[8].x) && isnan(m[9].x));
    /* lines 3 px apart, then 3 more: one run of turns (each near the one before); triangles 3 px apart merge */
    const double y[] = {0.1, 0.1 * pow(10, 3 * 3.0 / 800), 0.1 * pow(10, 6 * 3.0 / 800)};
    hk_plot_limit_marks(&ax, 3, y, m);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(m[i].turns, 3);
        assert_int_equal(m[i].turn, i);
    }
    assert_true(m[1].tip - m[0].tip >= 10 - 1e-9 && m[2].tip - m[1].tip >= 10 - 1e-9);
}

/* What the drift plot says (the canvas's text hook, in this process), written as PDF: mixed-case titles, the
 * integrators' limits in the legend, decades as powers of ten. */
static void test_stability_plot_text(void **state)
{
    (void)state;
    char pdf[256], scene[512];
    snprintf(pdf, sizeof pdf, "%s", hk_test_path("stability.pdf"));
    snprintf(scene, sizeof scene, "%s/oscillator.scene", HOOKE_SCENES_DIR);
    char *argv[] = {"hooke", "stability", scene, "--integrators", "verlet,rk4", "--time", "1", "--points",
                    "4",     "--plot",    pdf,   "--quiet",       NULL};
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_cmd_stability(12, argv);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    hk_texts_expect(t, HK_TEXT_TITLE, "Stability: oscillator.scene");
    hk_texts_expect(t, HK_TEXT_SUBTITLE,
                    "\u03c9_max = 10 rad/s. Dashed: the largest stable dt of each integrator (limits at one dt "
                    "alternate their dashes). Unstable runs are not drawn.");
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "|Energy drift| / E\u2080 per simulated second (1/s)");
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "Time step dt (s)");
    /* the limits, as the table prints them: omega*dt 2.003 (verlet) and 2.828 (rk4) */
    hk_texts_expect(t, HK_TEXT_LEGEND, "verlet: limit \u03c9\u00b7dt = 2.003");
    hk_texts_expect(t, HK_TEXT_LEGEND, "rk4: limit \u03c9\u00b7dt = 2.828");
    /* the cost's panel below: error against CPU time, the reference's own error a line of its own */
    hk_texts_expect(t, HK_TEXT_TITLE, "Error against cost");
    hk_texts_expect(t, HK_TEXT_SUBTITLE,
                    "Each integrator's stable runs, a marker per dt. The reference: implicit Euler at dt = 0.0001 s; "
                    "grey: its own error, below which errors are not resolved.");
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "RMS distance from the converged reference (m)");
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "CPU time per simulated second (s/s): the run's thread, in its steps");
    hk_texts_expect(t, HK_TEXT_LEGEND, "verlet");
    hk_texts_expect(t, HK_TEXT_LEGEND, "the reference's own error");
    /* dt from 1e-3 to 1 s (omega_max 10 rad/s: 0.01 / omega .. 4 / omega, whole decades) */
    static const char *const decades[] = {"10\u207b\u00b3", "10\u207b\u00b2", "10\u207b\u00b9", "10\u2070"};
    for (int i = 0; i < 4; i++) hk_texts_expect(t, HK_TEXT_TICK, decades[i]);
    for (int i = 0; i < t->n; i++)
        if (t->role[i] != HK_TEXT_TICK && !hk_text_has_lower(t->text[i])) {
            print_error("'%s' has no lower-case letter\n", t->text[i]);
            fail();
        }
    free(t);
    char *text = hk_test_slurp(pdf);
    assert_non_null(text);
    assert_memory_equal(text, "%PDF-", 5);
    free(text);
}

static void test_stability_pendulum(void **state)
{
    (void)state;
    const char *csv = hk_test_path("pendulum.csv");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("pendulum.scene") " --integrators rk4,semi_implicit_euler,velocity_verlet --time 2 "
                                                  "--dt-min 1e-4 --dt-max 5e-3 --points 3 --out '%s'",
             csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    const char *a =
        strstr(r.out, "analytic answer: pendulum, exact elliptic-integral solution, theta0 = 0.1 rad, L = ");
    assert_non_null(a);
    double L, T, T0;
    assert_int_equal(
        sscanf(a + strlen("analytic answer: pendulum, exact elliptic-integral solution, theta0 = 0.1 rad, L = "),
               "%lf m (rest length + m g / k), period %lf s (small-amplitude 2 pi sqrt(L/g) = %lf s)", &L, &T, &T0),
        3);
    /* L = 1 m + m g / k = 1 + 9.81 / 1e5; the period against the series 2 pi sqrt(L/g) (1 + q^2/16 + 11 q^4/3072),
     * whose next term is ~ 1e-8 at q = 0.1 rad */
    assert_true(fabs(L - (1 + 9.81 / 1e5)) < 1e-7);
    const double q = 0.1, small = 2 * M_PI * sqrt(L / 9.81);
    assert_true(fabs(T0 / small - 1) < 1e-8);
    assert_true(fabs(T / (small * (1 + q * q / 16 + 11 * q * q * q * q / 3072)) - 1) < 1e-7);
    hk_run_free(&r);
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    double dt, drift, err_fine, err_coarse;
    int stable;
    /* the floor is the rod's stretch: the bob starts at the rest length, m g / k = 9.81e-5 m from the analytic
     * rod length, so the distance never falls below about that; a fine step stays within 20 % of it */
    const char *names[] = {"rk4", "semi_implicit_euler", "velocity_verlet"};
    for (int k = 0; k < 3; k++) {
        sweep_row(text, names[k], 0, &dt, &stable, &drift, &err_fine);
        assert_true(fabs(dt - 1e-4) < 1e-12);
        assert_int_equal(stable, 1);
        if (!(err_fine > 0.9e-4 && err_fine < 1.2e-4)) {
            print_error("%s: error %g m at dt = 1e-4 s, expected 9e-5 .. 1.2e-4 m\n", names[k], err_fine);
            fail();
        }
        assert_true(fabs(drift) < 1e-5);
    }
    /* first-order semi-implicit Euler drifts in phase at dt = 5e-3 s: several times the floor; rk4 does not */
    sweep_row(text, "semi_implicit_euler", 2, &dt, &stable, &drift, &err_coarse);
    assert_true(fabs(dt - 5e-3) < 1e-12);
    assert_true(err_coarse > 5e-4);
    sweep_row(text, "rk4", 2, &dt, &stable, &drift, &err_coarse);
    assert_true(err_coarse < 1.2e-4);
    free(text);
}

/* The numbers of a CSV line's cells from the third on (NAN where a cell is empty), at most max; returns how many. */
static int csv_numbers(const char *line, double *v, int max)
{
    const char *p = line;
    for (int c = 0; c < 2 && p; c++) p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    int n = 0;
    while (p && n < max) {
        char *end;
        const double x = strtod(p, &end);
        v[n++] = end == p ? NAN : x;
        p = end + strcspn(end, ",\n");
        p = *p == ',' ? p + 1 : NULL;
    }
    return n;
}

/* A sweep row's cells: dt, omega*dt, stable, drift, analytic error, error against the reference [m] and over the
 * bodies' size, max stretch, CPU time per simulated second, CG iterations per step. */
enum { C_DT, C_OMEGA_DT, C_STABLE, C_DRIFT, C_ERROR, C_REF, C_REF_REL, C_STRETCH, C_CPU, C_CG, C_COUNT };
static void csv_row(const char *csv, const char *name, const char *kind, int row, double v[C_COUNT])
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s,%s,", name, kind);
    const char *p = strstr(csv, pat);
    for (int i = 0; i < row && p; i++) p = strstr(p + 1, pat);
    if (!p) {
        print_error("no %s row %d of %s in\n%s\n", kind, row, name, csv);
        fail();
    }
    assert_int_equal(csv_numbers(p + 1, v, C_COUNT), C_COUNT);
}

/* The tilted strand (a 1000 kg mass on 19 springs of k = 1e8 N/m): at each dt the error against the converged
 * reference, the largest stretch and the cost, for every integrator of the table. The reference's own error is a
 * small part of the strand's size, its stretch that of the end mass's weight suddenly taken, its solves take CG
 * iterations; every stable run's error is a finite distance and its stretch a tension, implicit Euler (first order)
 * strays further at a larger dt, the explicit integrators are past their limit at omega_max dt = 40; an implicit
 * integrator iterates and an explicit one does not. No CPU time is compared, only that each is there. */
static void test_stability_strand_cost(void **state)
{
    (void)state;
    const char *csv = hk_test_path("strand.csv");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("stress_strand_tilted.scene") " --time 0.05 --dt-min 2e-5 --dt-max 2e-3 --points 3 "
                                                              "--out '%s'",
             csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nreference: implicit_euler at dt 2e-06 s (dt_min / 10; cg_stop relative 1e-06, "
                                  "at most 4 Newton iterations a step); its own error "));
    assert_non_null(strstr(r.out, "\nintegrator             dt [s]  error [m]  err/size   r/L0 max  cpu [s/s] "
                                  "cg/step\n"));
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_non_null(strstr(text, "integrator,row,dt,omega_dt,stable,energy_drift_per_s,max_error,ref_error_m,"
                                 "ref_error_rel,max_stretch,cpu_s_per_sim_s,cg_per_step,iterations\n"));
    const double size = 1 / cos(M_PI / 6);          /* from the pin to the end mass at x = 1 m: the box's diagonal */
    const double strain = 1000 * 10 / (1e8 * 0.05); /* the end mass's weight over k L0 */
    double ref[C_COUNT];
    csv_row(text, "implicit_euler", "reference", 0, ref);
    print_message("reference: own error %g m (%g of the size), max_stretch %.7f, %g CG a step\n", ref[C_REF],
                  ref[C_REF_REL], ref[C_STRETCH], ref[C_CG]);
    assert_true(fabs(ref[C_DT] - 2e-6) < 1e-15);
    assert_true(ref[C_REF] >= 0 && ref[C_REF_REL] < 2e-3); /* backward Euler's first-order error at dt_ref: the
                                                               strand falls from above its pin, a fast swing */
    assert_true(fabs(ref[C_REF] / ref[C_REF_REL] - size) < 1e-6);
    /* taken suddenly, the weight stretches the springs past its static share along the slope, at most twice the
     * whole strand's weight */
    assert_true(ref[C_STRETCH] > 1 + 0.5 * strain && ref[C_STRETCH] < 1 + 2 * 1.019 * strain);
    assert_true(ref[C_CG] > 0 && isfinite(ref[C_CPU]));
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        for (int i = 0; i < 3; i++) {
            double v[C_COUNT];
            csv_row(text, in->name, "sweep", i, v);
            print_message("%-20s dt %-7g %s error %-10.4g m stretch %-9.7f cg %g\n", in->name, v[C_DT],
                          v[C_STABLE] ? "stable  " : "unstable", v[C_REF], v[C_STRETCH], v[C_CG]);
            /* the minimisations solve a strand's banded system directly (0 CG iterations); the linearised
             * trapezoidal rule by CG; explicit schemes solve nothing */
            const int direct = in->minimised;
            if (in->implicit && !direct ? !(v[C_CG] > 0) : v[C_CG] != 0) {
                print_error("%s at dt %g: %g CG iterations a step\n", in->name, v[C_DT], v[C_CG]);
                fail();
            }
            assert_true(isfinite(v[C_CPU]) && v[C_CPU] >= 0);
            if (v[C_STABLE]) {
                assert_true(isfinite(v[C_REF]) && v[C_REF] >= 0);
                assert_true(fabs(v[C_REF] / size - v[C_REF_REL]) <= 1e-6 * v[C_REF_REL]);
                assert_true(v[C_STRETCH] >= 1 && v[C_STRETCH] < 1 + 10 * strain);
            } else {
                assert_true(isinf(v[C_REF]));
            }
            /* the explicit schemes are past their limit at 2e-3 s (an iterated one, which sweeps the springs
             * instead, may or may not hold: docs/user-guide.md "Springs as constraints") */
            if (i == 2 && !in->implicit && !in->iterated) assert_int_equal((int)v[C_STABLE], 0);
        }
    }
    double fine[C_COUNT], coarse[C_COUNT];
    csv_row(text, "implicit_euler", "sweep", 0, fine);
    csv_row(text, "implicit_euler", "sweep", 2, coarse);
    assert_true(fine[C_STABLE] == 1 && coarse[C_STABLE] == 1);
    assert_true(coarse[C_REF] > fine[C_REF] && coarse[C_REF] > 2 * ref[C_REF]);
    free(text);
    hk_run_free(&r);
    /* no reference: said so, and no error against it */
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators rk4 --time 0.5 --points 2 --reference 0 --out '%s'",
             csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nreference: none (--reference 0): no error against it\n"));
    assert_non_null(strstr(r.out, "\nrk4                  1.00e-03        n/a       n/a  1.1000000 "));
    hk_run_free(&r);
    text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_null(strstr(text, ",reference,"));
    double v[C_COUNT];
    csv_row(text, "rk4", "sweep", 0, v);
    assert_true(isnan(v[C_REF]) && isnan(v[C_REF_REL]) && v[C_STABLE] == 1);
    free(text);
}

static void test_stability_sweep_flags(void **state)
{
    (void)state;
    const char *csv = hk_test_path("flags.csv");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators rk4 --time 0.5 --dt-min 0.001 --dt-max 0.1 "
                                                    "--points 3 --out '%s'",
             csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3 dt from 0.001 to 0.1 s, 0.5 s simulated per run"));
    /* omega*dt = 1 at dt_max: stable everywhere, the limit lies above the sweep */
    limit_cells(r.out, "rk4", ">0.1", ">1");
    hk_run_free(&r);
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_int_equal(count(text, "\nrk4,sweep,"), 3);
    assert_non_null(strstr(text, "\nrk4,limit,inf,inf,,,,,,,,,\n"));
    const double want[3] = {0.001, 0.01, 0.1};
    for (int i = 0; i < 3; i++) {
        double dt, drift, err;
        int stable;
        sweep_row(text, "rk4", i, &dt, &stable, &drift, &err);
        assert_true(fabs(dt / want[i] - 1) < 1e-8);
        assert_int_equal(stable, 1);
    }
    free(text);
    /* omega*dt from 3 to 5: past rk4's 2.83 everywhere */
    r = hk_test_hooke("", "stability " SCENE(
                              "oscillator.scene") " --integrators rk4 --time 0.5 --dt-min 0.3 --dt-max 0.5 --points 2");
    assert_int_equal(r.status, 0);
    limit_cells(r.out, "rk4", "<0.3", "<3");
    hk_run_free(&r);
    static const struct {
        const char *flags, *msg;
    } bad[] = {
        {"--points 1", "--points expects a whole number 2..100, got '1'"},
        {"--points 101", "--points expects a whole number 2..100, got '101'"},
        {"--points 3.5", "--points expects a whole number 2..100, got '3.5'"},
        {"--points ''", "--points expects a whole number 2..100, got ''"},
        {"--points", "--points expects a whole number 2..100, got 'nothing'"},
        {"--dt-min 0", "--dt-min expects a number > 0, got '0'"},
        {"--dt-min -1e-3", "--dt-min expects a number > 0, got '-1e-3'"},
        {"--dt-max abc", "--dt-max expects a number > 0, got 'abc'"},
        {"--dt-max inf", "--dt-max expects a number > 0, got 'inf'"},
        {"--dt-max", "--dt-max expects a number > 0, got 'nothing'"},
        {"--time 0", "--time expects a number > 0, got '0'"},
        {"--threads 0", "--threads expects a thread count 1..4096, got '0'"},
        {"--reference 1", "--reference expects 0 or a whole number 2..100000, got '1'"},
        {"--reference -1", "--reference expects 0 or a whole number 2..100000, got '-1'"},
        {"--reference 2.5", "--reference expects 0 or a whole number 2..100000, got '2.5'"},
        {"--reference 100001", "--reference expects 0 or a whole number 2..100000, got '100001'"},
        {"--dt-min 0.1 --dt-max 0.01", "--dt-min (0.1) must be less than --dt-max (0.01)"},
        {"--dt-min 0.1 --dt-max 0.1", "--dt-min (0.1) must be less than --dt-max (0.1)"},
        {"--dt-min 500", "--dt-min (500) must be less than --dt-max (0.4)"},
        {"--plot", "--plot expects a file name ending in .png, .svg or .pdf, got 'nothing'"},
        {"--plot x.gif", "--plot expects a file name ending in .png, .svg or .pdf, got 'x.gif'"},
        {"--bogus 1", "unknown option '--bogus' for stability (see hooke stability --help)"},
        {"--iterations 0", "--iterations: expected a comma-separated list of 1 to 8 counts, each 1..10000, got '0'"},
        {"--iterations 1,x",
         "--iterations: expected a comma-separated list of 1 to 8 counts, each 1..10000, got '1,x'"},
        {"--iterations 1,,2", "--iterations: expected a comma-separated list of 1 to 8 counts, each 1..10000, got "
                              "'1,,2'"},
        {"--iterations 10001", "--iterations: expected a comma-separated list of 1 to 8 counts, each 1..10000, got "
                               "'10001'"},
        {"--iterations 1,2,3,4,5,6,7,8,9", "--iterations: expected a comma-separated list of 1 to 8 counts"},
        {"--iterations", "--iterations expects a comma-separated list of sweep counts, got 'nothing'"},
        {"--integrators rk4 --iterations 2", "--iterations: no integrator profiled sweeps the springs (those that do: "
                                             "xpbd"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " %s", bad[i].flags);
        r = hk_test_hooke("", args);
        if (r.status != 1 || !strstr(r.err, bad[i].msg) || strncmp(r.err, "hooke: error: ", 14) != 0) {
            print_error("%s: status %d, stderr %s", bad[i].flags, r.status, r.err);
            fail();
        }
        assert_string_equal(r.out, "");
        hk_run_free(&r);
    }
}

/* --iterations profiles an integrator that sweeps the springs once per count, each a row of its own ("xpbd:N" in
 * the table, its count in the CSV's and the JSON's iterations), the others once. On the oscillator (one spring) a
 * single sweep already solves backward Euler's step exactly (xpbd.c), so every count gives the same motion to
 * rounding (the later sweeps move nothing but it): the same drift and error at each dt, and backward Euler's own
 * to its minimisation's tolerance. */
static void test_stability_iterations(void **state)
{
    (void)state;
    const char *csv = hk_test_path("iterations.csv"), *json = hk_test_path("iterations.json");
    char args[512];
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators implicit_euler,xpbd --iterations 1,4 --time 0.5 "
                                                    "--points 2 --reference 0 --out '%s'",
             csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nxpbd:1 "));
    assert_non_null(strstr(r.out, "\nxpbd:4 "));
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_int_equal(count(text, "\nxpbd,sweep,"), 4);
    assert_int_equal(count(text, "\nimplicit_euler,sweep,"), 2);
    for (int i = 0; i < 2; i++) {
        double dt[3], drift[3], err[3];
        int stable[3];
        sweep_row(text, "implicit_euler", i, &dt[0], &stable[0], &drift[0], &err[0]);
        sweep_row(text, "xpbd", i, &dt[1], &stable[1], &drift[1], &err[1]);
        sweep_row(text, "xpbd", 2 + i, &dt[2], &stable[2], &drift[2], &err[2]);
        print_message("dt %g: drift %.9g (implicit_euler) %.9g (xpbd:1) %.9g (xpbd:4)\n", dt[0], drift[0], drift[1],
                      drift[2]);
        assert_true(stable[1] && stable[2]);
        assert_true(fabs(drift[1] - drift[2]) <= 1e-6 * fabs(drift[1]) && fabs(err[1] - err[2]) <= 1e-6 * err[1]);
        /* backward Euler's minimisation stops at its newton_tolerance (1e-2): within a part in 200 */
        assert_true(fabs(drift[1] - drift[0]) <= 5e-3 * fabs(drift[0]));
    }
    /* each row says its count: 1 and 4 for xpbd, empty for implicit_euler */
    assert_non_null(strstr(text, "\nxpbd,limit,"));
    const char *line = strstr(text, "\nxpbd,sweep,");
    assert_non_null(line);
    assert_true(strncmp(strchr(line + 1, '\n') - 2, ",1", 2) == 0);
    line = strstr(text, "\nimplicit_euler,sweep,");
    assert_true(strchr(line + 1, '\n')[-1] == ',');
    free(text);
    hk_run_free(&r);
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators xpbd --iterations 4 --time 0.5 --points 2 "
                                                    "--reference 0 --out '%s'",
             json);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    text = hk_test_slurp(json);
    assert_non_null(text);
    assert_non_null(strstr(text, "\"name\": \"xpbd\""));
    assert_non_null(strstr(text, "\"iterations\": 4"));
    free(text);
    hk_run_free(&r);
}

/* What a user sees of a sweep: before any run, a line on stderr saying the sweep (integrators, dt, simulated
 * time and where it came from, steps in all); a table no wider than 80 columns at 12 points (the drift in
 * blocks of dt), each dt's drift in it. */
static void test_stability_table_width(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " --integrators rk4,verlet --time 0.5 "
                                                                        "--dt-min 0.001 --dt-max 0.1 --points 12");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "hooke: stability: 2 integrators x 12 dt from 0.001 to 0.1 s (omega_max dt 0.01 "
                                  "to 1), 0.5 s per run (--time), "));
    int lines = 0, widest = 0;
    for (const char *p = r.out; *p; lines++) {
        const char *e = strchr(p, '\n');
        const int len = (int)(e ? e - p : (long)strlen(p));
        if (len > widest && strncmp(p, "stability of", 12) != 0 && strncmp(p, "analytic answer", 15) != 0 &&
            strncmp(p, "reference:", 10) != 0)
            widest = len;
        p += len + (e != NULL);
    }
    print_message("%d lines, the widest table line %d columns\n", lines, widest);
    assert_true(widest <= 80);
    /* the limits, then 3 blocks of drift (5 + 5 + 2 dt), then a row of error and cost per dt */
    assert_int_equal(count(r.out, "\nrk4 "), 1 + 3 + 12);
    assert_int_equal(count(r.out, "\ndt [s] "), 3);
    hk_run_free(&r);
    r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " --integrators rk4 --time 0.5 --points 2 --quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
}

static void test_stability_help(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "stability --help");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "usage: hooke stability SCENE [--integrators all|LIST]"));
    assert_non_null(strstr(r.out, "--plot FILE.png"));
    assert_non_null(strstr(r.out, "--threads N"));
    assert_non_null(strstr(r.out, "exact solution"));
    assert_non_null(strstr(r.out, hk_integrator_names()));
    hk_run_free(&r);
    r = hk_test_hooke("", "stability");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: stability needs a scene file (see hooke stability --help)"));
    hk_run_free(&r);
}

/* Every run is one world on one thread: the CSV is byte-identical for 1 and 2 threads, but for the CPU times. */
static void test_stability_threads(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* built without OpenMP: one thread only */
#endif
    char args[512];
    char *csv[2];
    for (int t = 0; t < 2; t++) {
        const char *path = hk_test_path(t ? "t2.csv" : "t1.csv");
        snprintf(args, sizeof args,
                 "stability " SCENE("oscillator.scene") " --time 1 --points 5 --threads %d --out '%s'", t + 1, path);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, t ? ", 2 threads\n" : ", 1 thread\n"));
        hk_run_free(&r);
        csv[t] = hk_test_slurp(path);
        assert_non_null(csv[t]);
    }
    assert_int_equal(count(csv[0], ",sweep,"), HK_INTEGRATOR_COUNT * 5);
    hk_mask_cost_csv(csv[0]); /* but for the CPU times */
    hk_mask_cost_csv(csv[1]);
    assert_string_equal(csv[0], csv[1]);
    free(csv[0]);
    free(csv[1]);
}

/* The implicit integrators are stable over the whole default sweep (six dt,
 * omega*dt 0.01 to 4) on the oscillator, the pendulum and a cloth hung by
 * two corners. On the oscillator backward Euler loses energy at every dt
 * and the trapezoidal rule does not: its drift is under 1e-5 of the energy
 * per second at every dt, a hundred times less than backward Euler's at the
 * smallest, and backward Euler loses at least as much per second at every
 * larger dt (its amplitude shrinks by 1 / sqrt(1 + (omega dt)^2) a step). */
static void test_stability_implicit(void **state)
{
    (void)state;
    const char *cloth = hk_test_path("small_cloth.scene");
    hk_test_write(cloth, "world\n gravity 0 -9.81 0\n air_drag 1e-4\nend\n"
                         "body cloth\n nx 8\n ny 8\n spacing 0.05\n origin 0 1 0\n u 1 0 0\n v 0 0 1\n mass 1e-3\n"
                         " pins two_corners\n springs structural k 500 damping 0.01\n springs shear k 100\n"
                         " springs bend k 50\nend\nrun\n integrator semi_implicit_euler\n dt 1e-3\n time 0.5\nend\n");
    const char *scenes[] = {HOOKE_SCENES_DIR "/oscillator.scene", HOOKE_SCENES_DIR "/pendulum.scene", cloth};
    const char *names[] = {"implicit_euler", "trapezoidal"};
    for (int sc = 0; sc < 3; sc++) {
        const char *csv = hk_test_path("implicit.csv");
        char args[2048];
        /* no reference: at the default sweep's smallest dt over 10 it would take ten times the sweep's steps */
        snprintf(args, sizeof args, "stability '%s' --integrators implicit_euler,trapezoidal --reference 0 --out '%s'",
                 scenes[sc], csv);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 0);
        hk_run_free(&r);
        char *text = hk_test_slurp(csv);
        assert_non_null(text);
        for (int k = 0; k < 2; k++) {
            char want[64];
            snprintf(want, sizeof want, "\n%s,limit,inf,inf,", names[k]);
            if (!strstr(text, want)) {
                print_error("%s: %s is not stable over the whole sweep:\n%s\n", scenes[sc], names[k], text);
                fail();
            }
            for (int i = 0; i < 6; i++) {
                double dt, drift, err;
                int stable;
                sweep_row(text, names[k], i, &dt, &stable, &drift, &err);
                assert_int_equal(stable, 1);
            }
        }
        if (sc == 0) {
            double dt, be0 = 0, tr, err;
            int stable;
            for (int i = 0; i < 6; i++) {
                double be;
                sweep_row(text, "implicit_euler", i, &dt, &stable, &be, &err);
                sweep_row(text, "trapezoidal", i, &dt, &stable, &tr, &err);
                if (i == 0) be0 = be;
                if (!(be < 0 && be <= be0 && fabs(tr) < 1e-5 && fabs(tr) < fabs(be0) / 100)) {
                    print_error("oscillator, dt = %g: drift per second %g (backward Euler; %g at the smallest dt), %g "
                                "(trapezoidal)\n",
                                dt, be, be0, tr);
                    fail();
                }
            }
        }
        free(text);
    }
}

/* --only PATTERN runs the tests whose names match it, --skip PATTERN the
 * others (CTest runs the implicit sweeps as a test of their own). */
int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--only") == 0)
        cmocka_set_test_filter(argv[2]);
    else if (argc == 3 && strcmp(argv[1], "--skip") == 0)
        cmocka_set_skip_filter(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--only PATTERN | --skip PATTERN]\n", argv[0]);
        return 2;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stability_plot),
        cmocka_unit_test(test_stability_plot_text),
        cmocka_unit_test(test_stability_plot_coinciding),
        cmocka_unit_test(test_stability_plot_overlap),
        cmocka_unit_test(test_stability_limit_marks),
        cmocka_unit_test(test_stability_pendulum),
        cmocka_unit_test(test_stability_strand_cost),
        cmocka_unit_test(test_stability_sweep_flags),
        cmocka_unit_test(test_stability_iterations),
        cmocka_unit_test(test_stability_table_width),
        cmocka_unit_test(test_stability_help),
        cmocka_unit_test(test_stability_threads),
        cmocka_unit_test(test_stability_implicit),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_canvas_release_fonts(); /* the program's end: cairo's and fontconfig's caches released (leak check) */
    hk_test_cleanup();
    return rc;
}
