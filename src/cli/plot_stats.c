/* plot_stats.c — `hooke plot`: the statistics CSV of `hooke run --stats` as stacked panels against time. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "plot_stats.h"

#include "args.h"
#include "options.h"
#include "outfile.h"
#include "plot.h"
#include "stats_csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Panels in a picture, and columns in a panel: enough for every column hooke run writes (10 panels with the
 * implicit integrators and colliders) and for 16 pressure bodies; columns past them are named on stderr. */
#define MAX_PANELS 12
#define MAX_SERIES 16

/* What a column of a stats CSV is: the panel it is drawn in and that panel's title and unit. A row per column
 * hooke run writes (stats_csv.c); a prefix row covers volume_0, volume_1, ... Any other column gets a panel of
 * its own, titled by its name. */
typedef struct column_kind {
    const char *name;  /* the column's name, or its start (prefix) */
    int prefix;        /* 1: every column whose name starts with name */
    const char *panel; /* the panel's key (the "panels:" list names it): columns of one key share a panel */
    const char *title; /* what the panel shows */
    const char *unit;  /* in what ("count": a number of things) */
    int from_step_1;   /* a value only from step 1: the implicit solver's (the step-0 row took no solve, its 0 is
                        * no value) */
    int when_nonzero;  /* drawn by default only when some row is not 0 (--columns draws it anyway) */
} column_kind;

static const column_kind column_kinds[] = {
    {"kinetic", 0, "energy", "Energy", "J", 0, 0},
    {"gravity", 0, "energy", "Energy", "J", 0, 0},
    {"spring", 0, "energy", "Energy", "J", 0, 0},
    {"total", 0, "energy", "Energy", "J", 0, 0},
    {"max_stretch", 0, "max_stretch", "Max stretch", "r/L\u2080", 0, 0},
    {"broken", 0, "broken", "Broken springs", "count", 0, 1},
    {"volume", 1, "volume", "Volume", "m\u00b3", 0, 0},
    {"pressure", 1, "pressure", "Pressure", "Pa", 0, 0},
    {"cg_iterations", 0, "cg_iterations", "CG iterations per step", "count", 1, 0},
    {"cg_residual", 0, "cg_residual", "CG residual at the end of the step, cg_stop's measure", "1", 1, 0},
    {"newton_iterations", 0, "newton_iterations", "Linear solves per step", "count", 1, 0},
    {"newton_stopped", 0, "newton_stopped", "Substeps stopped at the Newton bound", "count", 1, 1},
    {"contacts", 0, "contacts", "Particles touching a collider", "count", 0, 0},
    {"min_gap", 0, "min_gap", "Smallest gap of a touching particle to its collider", "m", 0, 0},
    {"crossings", 0, "crossings", "Particles inside a collider", "count", 0, 0},
};
#define COLUMN_KINDS (int)(sizeof column_kinds / sizeof column_kinds[0])

static const column_kind *kind_of(const char *name)
{
    for (int i = 0; i < COLUMN_KINDS; i++) {
        const column_kind *k = &column_kinds[i];
        if (k->prefix ? strncmp(name, k->name, strlen(k->name)) == 0 : strcmp(name, k->name) == 0) return k;
    }
    return NULL;
}

int hk_plot_column_title(const char *name, char *out, size_t len)
{
    const column_kind *k = kind_of(name);
    snprintf(out, len, k ? "%s (%s)" : "%s", k ? k->title : name, k ? k->unit : "");
    return k ? 0 : -1;
}

typedef struct panel {
    const char *key; /* the "panels:" list's name */
    char title[160];
    int n, col[MAX_SERIES];
} panel;

static const char plot_usage[] =
    "usage: hooke plot STATS.csv [--out FILE.png|.svg|.pdf] [--columns LIST] [--width W] [--height H]\n"
    "\n"
    "Draws the statistics CSV written by `hooke run --stats` as a picture of stacked\n"
    "panels sharing the time axis, each titled with what it shows and its unit:\n"
    "energy (kinetic, gravity, spring, total) [J], max stretch (r/L0), broken\n"
    "springs (when any broke), volume_* [m^3] and pressure_* [Pa] (pressure bodies),\n"
    "cg_iterations and cg_residual (implicit integrators), contacts, min_gap [m] and\n"
    "crossings (colliders), then each other numeric column in a panel of its own:\n"
    "every column the file has, up to 12 panels (columns past them are named on\n"
    "stderr); --columns chooses which.\n"
    "\n";
static const char plot_notes[] = "\n"
                                 "exit status: 0 written, 1 bad input (the message names file and line), 3 the\n"
                                 "picture could not be written.\n";

/* The options of `hooke plot`: the parser and the help text read this table. */
enum { O_OUT, O_COLUMNS, O_WIDTH, O_HEIGHT };
static const hk_option plot_options[] = {
    {O_OUT, "out", "FILE",
     "FILE.png (a picture), FILE.svg or FILE.pdf (vector, for papers), chosen by the extension; default: STATS with "
     ".csv replaced by .png",
     NULL},
    {O_COLUMNS, "columns", "LIST",
     "the columns to draw, comma-separated names of the file's header (kinetic,total,crossings), in\n"
     "this order; those of one panel (the energies, volume_*, pressure_*) share it (default: every column)",
     NULL},
    {O_WIDTH, "width", "W", "pixels (points in SVG and PDF), 320..8000 (default 900)", NULL},
    {O_HEIGHT, "height", "H", "pixels, 200..8000 (default 60 + 190 per panel)", NULL},
    {0, NULL, NULL, NULL, NULL},
};
static const hk_command plot_command = {"plot", plot_options};

/* The command line's values. */
typedef struct plot_opts {
    const char *in, *out, *columns;
    int width, height;
} plot_opts;

/* An integer flag in pixels into *out; 0, or 1 with the message printed. */
static int parse_px(const char *flag, const char *v, int lo, int hi, const char *expected, int *out)
{
    int64_t n;
    if (hk_arg_int(NULL, flag, v, lo, hi, expected, &n) != 0) return 1;
    *out = (int)n;
    return 0;
}

/* The command line into o: 0, 1 (message printed) or PLOT_HELP (help printed). */
enum { PLOT_HELP = -1 };
static int parse_plot(int argc, char **argv, plot_opts *o)
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
        } else if (id == HK_OPT_ARG && o->in) {
            fprintf(stderr, "hooke: error: more than one stats file given ('%s' and '%s')\n", o->in, v);
            rc = 1;
        } else if (id == HK_OPT_ARG) {
            o->in = v;
        } else if (id == O_OUT) {
            if (!v || !*v) rc = hk_arg_error(NULL, p.flag, v, "a file name ending in .png, .svg or .pdf");
            o->out = v;
        } else if (id == O_COLUMNS) {
            if (!v || !*v) rc = hk_arg_error(NULL, p.flag, v, "a comma-separated list of column names");
            o->columns = v;
        } else if (id == O_WIDTH) {
            rc = parse_px(p.flag, v, 320, 8000, "a width in pixels 320..8000", &o->width);
        } else if (id == O_HEIGHT) {
            rc = parse_px(p.flag, v, 200, 8000, "a height in pixels 200..8000", &o->height);
        }
        if (rc != 0) break;
    }
    hk_opt_end(&p);
    return rc;
}

static int column(const hk_stats_table *t, const char *name, size_t len)
{
    for (int c = 0; c < t->cols; c++)
        if (strlen(t->names[c]) == len && strncmp(t->names[c], name, len) == 0) return c;
    return -1;
}

/* The file's columns that can be drawn, ", "-separated, for messages. */
static void column_list(const hk_stats_table *t, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int c = 2; c < t->cols && at < len; c++)
        at += (size_t)snprintf(out + at, len - at, "%s%s", c > 2 ? ", " : "", t->names[c]);
}

/* The columns to draw, by index, into cols (at most t->cols): those --columns names, in its order, or by default
 * every column but step and time in the file's order, less those drawn only when not all 0 that are. Returns
 * their count, or -1 with the message printed (a name the file does not have, named twice, step or time). */
static int chosen_columns(const hk_stats_table *t, const char *file, const char *list, int *cols)
{
    int n = 0;
    if (!list) {
        for (int c = 2; c < t->cols; c++) {
            const column_kind *k = kind_of(t->names[c]);
            int any = 1;
            if (k && k->when_nonzero) {
                any = 0;
                for (int r = 0; r < t->rows; r++) any |= t->v[c][r] != 0;
            }
            if (any) cols[n++] = c;
        }
        return n;
    }
    char names[4096];
    for (const char *s = list;;) {
        const size_t len = strcspn(s, ",");
        const int c = column(t, s, len);
        const char *why = NULL;
        if (len == 0) {
            why = "an empty name";
        } else if (c < 0) {
            why = "no such column in the file";
        } else if (c < 2) {
            why = "step and time are each row's step and the time axis, not panels";
        } else {
            for (int i = 0; i < n; i++)
                if (cols[i] == c) why = "named twice";
        }
        if (why) {
            column_list(t, names, sizeof names);
            fprintf(stderr, "hooke: error: --columns: '%.*s': %s; %s has the columns %s\n", (int)(len < 64 ? len : 64),
                    s, why, file, names);
            return -1;
        }
        cols[n++] = c;
        if (!s[len]) break;
        s += len + 1;
    }
    return n;
}

/* The panels of the chosen columns: a panel per key (column_kinds) or per other column, in the order the columns
 * come; returns their count. Columns past MAX_PANELS panels or MAX_SERIES in a panel are listed in left (", "
 * separated), *nleft of them. */
static int make_panels(hk_stats_table *t, const int *cols, int n, panel *pan, char *left, size_t left_len, int *nleft)
{
    int np = 0;
    size_t at = 0;
    *nleft = 0;
    left[0] = '\0';
    for (int i = 0; i < n; i++) {
        const int c = cols[i];
        const column_kind *k = kind_of(t->names[c]);
        const char *key = k ? k->panel : t->names[c];
        panel *p = NULL;
        for (int j = 0; j < np && !p; j++)
            if (strcmp(pan[j].key, key) == 0) p = &pan[j];
        if (!p && np < MAX_PANELS) {
            p = &pan[np++];
            memset(p, 0, sizeof *p);
            p->key = key;
            hk_plot_column_title(t->names[c], p->title, sizeof p->title);
        }
        if (!p || p->n == MAX_SERIES) {
            if (at < left_len)
                at += (size_t)snprintf(left + at, left_len - at, "%s%s", *nleft ? ", " : "", t->names[c]);
            ++*nleft;
            continue;
        }
        p->col[p->n++] = c;
        if (k && k->from_step_1) /* step 0 took no solve: its 0 is no value */
            for (int r = 0; r < t->rows; r++)
                if (t->v[0][r] == 0) t->v[c][r] = NAN;
    }
    return np;
}

/* The default picture's name: STATS with .csv replaced by .png (malloc'd; NULL when out of memory). */
static char *default_out(const char *in)
{
    const size_t n = strlen(in);
    char *def = malloc(n + 5);
    if (!def) return NULL;
    memcpy(def, in, n + 1);
    if (n > 4 && strcmp(def + n - 4, ".csv") == 0) def[n - 4] = '\0';
    strcat(def, ".png");
    return def;
}

/* Draws the panels into out (width x height); 0, or 3 with the message printed. */
static int draw(const hk_stats_table *t, const char *in, const char *out, int width, int height, const panel *pan,
                int np, int ph, double tlo, double thi)
{
    static const hk_rgb ink = {25, 25, 25}, white = {255, 255, 255};
    const int top0 = 44, gap = 26;
    double lo[MAX_PANELS], hi[MAX_PANELS];
    for (int i = 0; i < np; i++) {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
        for (int k = 0; k < pan[i].n; k++)
            for (int r = 0; r < t->rows; r++) {
                const double v = t->v[pan[i].col[k]][r];
                if (isfinite(v)) {
                    lo[i] = fmin(lo[i], v);
                    hi[i] = fmax(hi[i], v);
                }
            }
    }
    hk_canvas cv;
    errno = 0;
    if (hk_canvas_open(&cv, out, (hk_canvas_kind)hk_canvas_kind_of(out), width, height, white) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, hk_out_strerror(errno ? errno : EIO));
        return 3;
    }
    /* the y tick labels of every panel fit left of the areas, which share the time axis */
    double label_w = 0;
    for (int i = 0; i < np; i++) label_w = fmax(label_w, hk_plot_ylabel_width(&cv, lo[i], hi[i], 0));
    const int left = (int)fmax(60, ceil(label_w) + 14), right = width - 16;
    const char *base = strrchr(in, '/');
    char title[256];
    snprintf(title, sizeof title, "hooke run statistics: %s", base ? base + 1 : in);
    hk_canvas_text(&cv, left, 6, 0, 0, HK_TEXT_TITLE, ink, title);
    const double *time = t->v[1];
    for (int i = 0; i < np; i++) {
        const panel *p = &pan[i];
        hk_plot_axes ax;
        const int top = top0 + i * (ph + gap);
        hk_plot_axes_set(&ax, left, top, right, top + ph, tlo, thi, 0, lo[i], hi[i], 0);
        hk_plot_frame(&cv, &ax, p->title, i == np - 1 ? "Time (s)" : NULL);
        const char *names[MAX_SERIES];
        hk_rgb colours[MAX_SERIES];
        hk_plot_series data[MAX_SERIES];
        for (int k = 0; k < p->n; k++) {
            names[k] = t->names[p->col[k]];
            colours[k] = hk_plot_colour(k);
            data[k] = (hk_plot_series){time, t->v[p->col[k]], t->rows};
            hk_plot_curve(&cv, &ax, time, t->v[p->col[k]], t->rows, colours[k], 0);
        }
        hk_plot_legend(&cv, &ax, p->n, names, colours, data, p->n);
    }
    errno = 0;
    if (hk_canvas_close(&cv, 1) != 0) {
        fprintf(stderr, "hooke: error: cannot write %s: %s\n", out, hk_out_strerror(errno ? errno : EIO));
        return 3;
    }
    return 0;
}

int hk_cmd_plot(int argc, char **argv)
{
    plot_opts o = {NULL, NULL, NULL, 900, 0};
    const int prc = parse_plot(argc, argv, &o);
    if (prc == PLOT_HELP) return 0;
    if (prc != 0) return prc;
    if (!o.in) {
        fprintf(stderr, "hooke: error: plot needs a stats CSV file (see hooke plot --help)\n");
        return 1;
    }
    if (o.out && hk_plot_kind("--out", o.out) < 0) return 1;
    hk_stats_table t;
    char err[1024];
    if (hk_stats_read(o.in, &t, err, sizeof err) != 0) {
        fprintf(stderr, "hooke: error: %s\n", err);
        return 1;
    }
    if (t.cut_line)
        fprintf(stderr,
                "hooke: warning: %s:%d: the last row is cut short (no newline at its end: a write that did not "
                "finish, a full disk?): left out, the %d rows before it are drawn\n",
                o.in, t.cut_line, t.rows);
    int *cols = malloc((size_t)t.cols * sizeof *cols), nleft = 0, np = 0, rc = 0;
    panel pan[MAX_PANELS];
    char left[1024];
    const int n = cols ? chosen_columns(&t, o.in, o.columns, cols) : -1;
    if (!cols) fprintf(stderr, "hooke: error: out of memory\n");
    if (n >= 0) np = make_panels(&t, cols, n, pan, left, sizeof left, &nleft);
    free(cols);
    if (n < 0) rc = 1;
    if (rc == 0 && nleft && o.columns) {
        fprintf(stderr,
                "hooke: error: --columns: %d of the columns named do not fit (at most %d panels of %d columns "
                "each): %s\n",
                nleft, MAX_PANELS, MAX_SERIES, left);
        rc = 1;
    } else if (rc == 0 && nleft) {
        fprintf(stderr,
                "hooke: note: %s: %d column%s left out of the plot (at most %d panels of %d columns each): %s; "
                "--columns LIST chooses which are drawn\n",
                o.in, nleft, nleft == 1 ? "" : "s", MAX_PANELS, MAX_SERIES, left);
    }
    if (rc == 0 && np == 0) {
        fprintf(stderr, "hooke: error: %s:1: no columns to plot besides step and time\n", o.in);
        rc = 1;
    }
    const int top0 = 44, gap = 26, bottom_margin = 42;
    int height = o.height ? o.height : 60 + 190 * np, ph = 0;
    if (rc == 0) {
        ph = (height - top0 - bottom_margin - (np - 1) * gap) / np;
        if (ph < 40) {
            fprintf(stderr, "hooke: error: --height %d is too small for %d panels (at least %d)\n", height, np,
                    top0 + bottom_margin + (np - 1) * gap + 40 * np);
            rc = 1;
        }
    }
    char *def = NULL;
    if (rc == 0 && !o.out && !(o.out = def = default_out(o.in))) {
        fprintf(stderr, "hooke: error: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        double tlo = INFINITY, thi = -INFINITY;
        for (int r = 0; r < t.rows; r++)
            if (isfinite(t.v[1][r])) {
                tlo = fmin(tlo, t.v[1][r]);
                thi = fmax(thi, t.v[1][r]);
            }
        rc = draw(&t, o.in, o.out, o.width, height, pan, np, ph, tlo, thi);
        if (rc == 0) {
            printf("hooke: plot: wrote %s (%dx%d, %d rows, t = %g..%g s; panels:", o.out, o.width, height, t.rows, tlo,
                   thi);
            for (int i = 0; i < np; i++) printf("%s %s", i ? "," : "", pan[i].key);
            printf(")\n");
        }
    }
    free(def);
    hk_stats_free(&t);
    return rc;
}
