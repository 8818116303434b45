/* plot.c — line charts on the raster canvas, and `hooke plot`: a stats CSV as stacked panels against time. */
#define _POSIX_C_SOURCE 200809L
#include "plot.h"

#include "args.h"
#include "options.h"
#include "stats_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- chart pieces -------------------------------------------------------- */

static const hk_rgb black = {0, 0, 0}, grid_grey = {225, 225, 225}, frame_grey = {90, 90, 90}, white = {255, 255, 255};

hk_rgb hk_plot_colour(int i)
{
    static const hk_rgb palette[] = {
        {31, 119, 180}, {214, 39, 40},  {44, 160, 44}, {0, 0, 0},       {148, 103, 189},
        {255, 127, 14}, {23, 190, 207}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
    };
    const int n = (int)(sizeof palette / sizeof palette[0]);
    return palette[((i % n) + n) % n];
}

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
    if (lo == 0 && hi == 0) { /* an all-zero column: -1..1, the line in the middle */
        lo = -1;
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

double hk_plot_px(const hk_plot_axes *ax, double x)
{
    return ax->left + (to_axis(&ax->x, x) - ax->x.min) / (ax->x.max - ax->x.min) * (ax->right - ax->left);
}

double hk_plot_py(const hk_plot_axes *ax, double y)
{
    return ax->bottom - (to_axis(&ax->y, y) - ax->y.min) / (ax->y.max - ax->y.min) * (ax->bottom - ax->top);
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
    snprintf(buf, len, "%s", t);
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

void hk_plot_frame(hk_image *im, const hk_plot_axes *ax, const char *title, const char *xlabel)
{
    double at[HK_PLOT_MAX_TICKS];
    char label[HK_PLOT_MAX_TICKS][HK_PLOT_LABEL];
    const int L = ax->left, R = ax->right, T = ax->top, B = ax->bottom;
    const hk_plot_scale *xs = &ax->x, *ys = &ax->y;
    /* y: grid, ticks, labels right-aligned left of the area */
    int n = hk_plot_ticks(ys, at, label, HK_PLOT_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        const double y = B - (at[i] - ys->min) / (ys->max - ys->min) * (B - T);
        hk_image_line(im, L, y, 1, R, y, 1, grid_grey, 1);
        hk_image_line(im, L - 4, y, -1, L, y, -1, frame_grey, 1);
        hk_image_text(im, L - 7 - hk_image_text_width(label[i], 1), (int)lround(y) - 3, label[i], black, 1);
    }
    if (ys->log)
        for (double d = ys->min; d < ys->max; d++)
            for (int m = 2; m <= 9; m++) {
                const double y = B - (d + log10(m) - ys->min) / (ys->max - ys->min) * (B - T);
                hk_image_line(im, L - 2, y, -1, L, y, -1, frame_grey, 1);
            }
    /* x: grid and ticks always, labels only under the bottom panel */
    n = hk_plot_ticks(xs, at, label, HK_PLOT_MAX_TICKS);
    for (int i = 0; i < n; i++) {
        const double x = L + (at[i] - xs->min) / (xs->max - xs->min) * (R - L);
        hk_image_line(im, x, T, 1, x, B, 1, grid_grey, 1);
        hk_image_line(im, x, B, -1, x, B + 4, -1, frame_grey, 1);
        if (xlabel) hk_image_text(im, (int)lround(x) - hk_image_text_width(label[i], 1) / 2, B + 7, label[i], black, 1);
    }
    if (xs->log)
        for (double d = xs->min; d < xs->max; d++)
            for (int m = 2; m <= 9; m++) {
                const double x = L + (d + log10(m) - xs->min) / (xs->max - xs->min) * (R - L);
                hk_image_line(im, x, B, -1, x, B + 2, -1, frame_grey, 1);
            }
    if (xlabel) hk_image_text(im, (L + R - hk_image_text_width(xlabel, 1)) / 2, B + 20, xlabel, black, 1);
    if (title) hk_image_text(im, L, T - 11, title, black, 1);
    /* the frame on top of everything drawn inside */
    hk_image_line(im, L, T, -1, R, T, -1, frame_grey, 1);
    hk_image_line(im, L, B, -1, R, B, -1, frame_grey, 1);
    hk_image_line(im, L, T, -1, L, B, -1, frame_grey, 1);
    hk_image_line(im, R, T, -1, R, B, -1, frame_grey, 1);
}

/* Liang-Barsky: clips the segment to the rectangle; 0 when nothing is left. */
static int clip(double *x0, double *y0, double *x1, double *y1, double L, double T, double R, double B)
{
    double t0 = 0, t1 = 1;
    const double dx = *x1 - *x0, dy = *y1 - *y0;
    const double p[4] = {-dx, dx, -dy, dy}, q[4] = {*x0 - L, R - *x0, *y0 - T, B - *y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return 0;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0) {
            if (r > t1) return 0;
            if (r > t0) t0 = r;
        } else {
            if (r < t0) return 0;
            if (r < t1) t1 = r;
        }
    }
    const double ax = *x0, ay = *y0;
    *x0 = ax + t0 * dx;
    *y0 = ay + t0 * dy;
    *x1 = ax + t1 * dx;
    *y1 = ay + t1 * dy;
    return 1;
}

void hk_plot_curve(hk_image *im, const hk_plot_axes *ax, const double *x, const double *y, int n, hk_rgb c, int markers)
{
    double px0 = NAN, py0 = NAN;
    for (int i = 0; i < n; i++) {
        const double px = hk_plot_px(ax, x[i]), py = hk_plot_py(ax, y[i]);
        if (isfinite(px) && isfinite(py)) {
            double a = px0, b = py0, cx = px, cy = py;
            if (isfinite(a) && isfinite(b) && clip(&a, &b, &cx, &cy, ax->left, ax->top, ax->right, ax->bottom))
                hk_image_line(im, a, b, 0, cx, cy, 0, c, 2);
            if (markers && px >= ax->left && px <= ax->right && py >= ax->top && py <= ax->bottom)
                for (int dy = -2; dy <= 2; dy++) hk_image_line(im, px - 2, py + dy, 0, px + 2, py + dy, 0, c, 1);
        }
        px0 = px;
        py0 = py;
    }
}

void hk_plot_vline(hk_image *im, const hk_plot_axes *ax, double x, hk_rgb c, int slot)
{
    const double px = hk_plot_px(ax, x);
    if (!isfinite(px) || px < ax->left || px > ax->right) return;
    for (int y = ax->top; y < ax->bottom; y += 10)
        hk_image_line(im, px, y, 0.5, px, fmin(y + 5, ax->bottom), 0.5, c, 1);
    const double ty = ax->top + 2 + 8 * slot;
    const double tx[3] = {px - 4, px + 4, px}, tyy[3] = {ty, ty, ty + 6}, tz[3] = {-0.5, -0.5, -0.5};
    hk_image_triangle(im, tx, tyy, tz, c);
}

void hk_plot_legend(hk_image *im, const hk_plot_axes *ax, int n, const char *const *names, const hk_rgb *colours)
{
    if (n <= 0) return;
    int wmax = 0;
    for (int i = 0; i < n; i++) {
        const int w = hk_image_text_width(names[i], 1);
        if (w > wmax) wmax = w;
    }
    const int bw = wmax + 30, bh = 12 * n + 6, x0 = ax->right - 6 - bw, y0 = ax->top + 6;
    for (int y = y0; y <= y0 + bh; y++)
        for (int x = x0; x <= x0 + bw; x++)
            hk_image_plot(im, x, y, -2, (y == y0 || y == y0 + bh || x == x0 || x == x0 + bw) ? frame_grey : white);
    for (int i = 0; i < n; i++) {
        const int y = y0 + 5 + 12 * i;
        hk_image_line(im, x0 + 5, y + 3, -3, x0 + 19, y + 3, -3, colours[i], 2);
        hk_image_text(im, x0 + 25, y, names[i], black, 1);
    }
}

/* ---- hooke plot ---------------------------------------------------------- */

#define MAX_SERIES 16
#define MAX_GENERIC 4

typedef struct panel {
    const char *key; /* short name in the summary line */
    char title[96];
    int n, col[MAX_SERIES];
} panel;

static int column(const hk_stats_table *t, const char *name)
{
    for (int c = 0; c < t->cols; c++)
        if (strcmp(t->names[c], name) == 0) return c;
    return -1;
}

static const char plot_usage[] = "usage: hooke plot STATS.csv [--out FILE.png] [--width W] [--height H]\n"
                                 "\n"
                                 "Draws the statistics CSV written by `hooke run --stats` as a PNG of stacked\n"
                                 "panels sharing the time axis: energy (kinetic, gravity, spring, total) [J],\n"
                                 "max stretch (r/L0), broken springs (when any broke), volume_* and\n"
                                 "pressure_* columns (when present), then each other numeric column in a\n"
                                 "panel of its own (at most 4; further ones are listed on stderr and left out).\n"
                                 "\n";
static const char plot_notes[] = "\n"
                                 "exit status: 0 written, 1 bad input (the message names file and line), 3 the\n"
                                 "PNG could not be written.\n";

/* The options of `hooke plot`: the parser and the help text read this table. */
enum { O_OUT, O_WIDTH, O_HEIGHT };
static const hk_option plot_options[] = {
    {O_OUT, "out", "FILE.png", "default: STATS with .csv replaced by .png", NULL},
    {O_WIDTH, "width", "W", "pixels, 320..8000 (default 900)", NULL},
    {O_HEIGHT, "height", "H", "pixels, 200..8000 (default 60 + 190 per panel)", NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command plot_command = {"plot", plot_options};

/* An integer flag in pixels into *out; 0, or 1 with the message printed. */
static int parse_px(const char *flag, const char *v, int lo, int hi, const char *expected, int *out)
{
    int64_t n;
    if (hk_arg_int(NULL, flag, v, lo, hi, expected, &n) != 0) return 1;
    *out = (int)n;
    return 0;
}

/* The command line into in, out, width and height: 0, 1 (message printed) or PLOT_HELP (help printed). */
enum { PLOT_HELP = -1 };
static int parse_plot(int argc, char **argv, const char **in, const char **out, int *width, int *height)
{
    hk_opt_parser p;
    hk_opt_begin(&p, &plot_command, argc - 1, argv + 1);
    int rc = 0;
    for (;;) {
        const char *v;
        const int id = hk_opt_next(&p, &v);
        if (id == HK_OPT_END) break;
        if (id == HK_OPT_ERROR) {
            rc = 1;
        } else if (id == HK_OPT_HELP) {
            fputs(plot_usage, stdout);
            hk_opt_print(stdout, &plot_command);
            fputs(plot_notes, stdout);
            rc = PLOT_HELP;
        } else if (id == HK_OPT_ARG && *in) {
            fprintf(stderr, "hooke: error: more than one stats file given ('%s' and '%s')\n", *in, v);
            rc = 1;
        } else if (id == HK_OPT_ARG) {
            *in = v;
        } else if (id == O_OUT) {
            if (!v || !*v) rc = hk_arg_error(NULL, p.flag, v, "a file name (.png)");
            *out = v;
        } else if (id == O_WIDTH) {
            rc = parse_px(p.flag, v, 320, 8000, "a width in pixels 320..8000", width);
        } else if (id == O_HEIGHT) {
            rc = parse_px(p.flag, v, 200, 8000, "a height in pixels 200..8000", height);
        }
        if (rc != 0) break;
    }
    hk_opt_end(&p);
    return rc;
}

int hk_cmd_plot(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    int width = 900, height = 0;
    const int prc = parse_plot(argc, argv, &in, &out, &width, &height);
    if (prc == PLOT_HELP) return 0;
    if (prc != 0) return prc;
    if (!in) {
        fprintf(stderr, "hooke: error: plot needs a stats CSV file (see hooke plot --help)\n");
        return 1;
    }
    hk_stats_table t;
    char err[1024];
    if (hk_stats_read(in, &t, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return 1;
    }

    /* panels: the known groups, then each other column */
    panel pan[5 + MAX_GENERIC];
    int np = 0;
    memset(pan, 0, sizeof pan);
    panel *energy = &pan[np++], *stretch = &pan[np++], *broken = &pan[np++], *volume = &pan[np++],
          *pressure = &pan[np++];
    energy->key = "energy";
    snprintf(energy->title, sizeof energy->title, "ENERGY (J)");
    stretch->key = "max_stretch";
    snprintf(stretch->title, sizeof stretch->title, "MAX STRETCH (R/L0)");
    broken->key = "broken";
    snprintf(broken->title, sizeof broken->title, "BROKEN SPRINGS");
    volume->key = "volume";
    snprintf(volume->title, sizeof volume->title, "VOLUME (CUBIC M)");
    pressure->key = "pressure";
    snprintf(pressure->title, sizeof pressure->title, "PRESSURE (PA)");
    static const char *const energies[] = {"kinetic", "gravity", "spring", "total"};
    for (int e = 0; e < 4; e++) {
        const int c = column(&t, energies[e]);
        if (c >= 0) energy->col[energy->n++] = c;
    }
    int rc = 0;
    for (int c = 2; c < t.cols; c++) {
        const char *name = t.names[c];
        panel *p = NULL;
        int known = 0;
        for (int e = 0; e < 4; e++) known |= strcmp(name, energies[e]) == 0;
        if (known) continue;
        if (strcmp(name, "max_stretch") == 0) {
            p = stretch;
        } else if (strcmp(name, "broken") == 0) {
            int any = 0;
            for (int r = 0; r < t.rows; r++) any |= t.v[c][r] != 0;
            if (!any) continue;
            p = broken;
        } else if (strncmp(name, "volume", 6) == 0) {
            p = volume;
        } else if (strncmp(name, "pressure", 8) == 0) {
            p = pressure;
        } else if (np < 5 + MAX_GENERIC) {
            p = &pan[np++];
            p->key = name;
            snprintf(p->title, sizeof p->title, "%s", name);
        }
        if (!p || p->n == MAX_SERIES) {
            fprintf(stderr, "hooke: note: %s: column %s left out of the plot (too many columns)\n", in, name);
            continue;
        }
        p->col[p->n++] = c;
    }
    /* drop empty groups, keeping the order */
    int kept = 0;
    for (int i = 0; i < np; i++)
        if (pan[i].n) pan[kept++] = pan[i];
    np = kept;
    if (np == 0) {
        fprintf(stderr, "hooke: error: %s:1: no columns to plot besides step and time\n", in);
        hk_stats_free(&t);
        return 1;
    }
    const int top0 = 44, gap = 26, bottom_margin = 42, left = 92, right = width - 16;
    if (!height) height = 60 + 190 * np;
    const int ph = (height - top0 - bottom_margin - (np - 1) * gap) / np;
    if (ph < 40) {
        fprintf(stderr, "hooke: error: --height %d is too small for %d panels (at least %d)\n", height, np,
                top0 + bottom_margin + (np - 1) * gap + 40 * np);
        hk_stats_free(&t);
        return 1;
    }
    hk_image im;
    if (hk_image_init(&im, width, height, white) != 0) {
        fprintf(stderr, "hooke: error: out of memory for a %dx%d picture\n", width, height);
        hk_stats_free(&t);
        return 1;
    }
    const double *time = t.v[1];
    double tlo = INFINITY, thi = -INFINITY;
    for (int r = 0; r < t.rows; r++)
        if (isfinite(time[r])) {
            tlo = fmin(tlo, time[r]);
            thi = fmax(thi, time[r]);
        }
    const char *base = strrchr(in, '/');
    char title[256];
    snprintf(title, sizeof title, "HOOKE RUN STATISTICS: %s", base ? base + 1 : in);
    hk_image_text(&im, left, 12, title, black, 2);
    for (int i = 0; i < np; i++) {
        const panel *p = &pan[i];
        double lo = INFINITY, hi = -INFINITY;
        for (int k = 0; k < p->n; k++)
            for (int r = 0; r < t.rows; r++) {
                const double v = t.v[p->col[k]][r];
                if (isfinite(v)) {
                    lo = fmin(lo, v);
                    hi = fmax(hi, v);
                }
            }
        hk_plot_axes ax;
        const int top = top0 + i * (ph + gap);
        hk_plot_axes_set(&ax, left, top, right, top + ph, tlo, thi, 0, lo, hi, 0);
        hk_plot_frame(&im, &ax, p->title, i == np - 1 ? "TIME (S)" : NULL);
        const char *names[MAX_SERIES];
        hk_rgb colours[MAX_SERIES];
        for (int k = 0; k < p->n; k++) {
            names[k] = t.names[p->col[k]];
            colours[k] = hk_plot_colour(k);
            hk_plot_curve(&im, &ax, time, t.v[p->col[k]], t.rows, colours[k], 0);
        }
        hk_plot_legend(&im, &ax, p->n, names, colours);
    }
    char *def = NULL;
    if (!out) {
        const size_t n = strlen(in);
        def = malloc(n + 5);
        if (!def) {
            fprintf(stderr, "hooke: error: out of memory\n");
            hk_image_free(&im);
            hk_stats_free(&t);
            return 1;
        }
        memcpy(def, in, n + 1);
        if (n > 4 && strcmp(def + n - 4, ".csv") == 0) def[n - 4] = '\0';
        strcat(def, ".png");
        out = def;
    }
    errno = 0;
    if (hk_image_write_png(&im, out) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, strerror(errno ? errno : EIO));
        rc = 3;
    } else {
        printf("hooke: plot: wrote %s (%dx%d, %d rows, t = %g..%g s; panels:", out, width, height, t.rows, tlo, thi);
        for (int i = 0; i < np; i++) printf("%s %s", i ? "," : "", pan[i].key);
        printf(")\n");
    }
    free(def);
    hk_image_free(&im);
    hk_stats_free(&t);
    return rc;
}
