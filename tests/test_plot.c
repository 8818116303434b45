/* test_plot.c — `hooke plot`: a stats CSV as a PNG, SVG or PDF of stacked panels, what its labels say, extra columns,
 * and every kind of bad input. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_png.h"
#include "hk_test_text.h"

#include <math.h>
#include <stdint.h>

#include "plot.h"
#include "plot_stats.h"
#include "stats_csv.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* The layout of src/cli/plot.c: panels start 44 px down, 26 px apart, 42 px left under the last. */
static void panel_band(int height, int panels, int i, int *y0, int *y1)
{
    const int ph = (height - 44 - 42 - (panels - 1) * 26) / panels;
    *y0 = 44 + i * (ph + 26);
    *y1 = *y0 + ph;
}

/* Pixels of palette colour k (src/cli/plot.c hk_plot_colour) inside panel i. */
static int series_pixels(const hk_png *p, int panels, int i, int k)
{
    static const int pal[3][3] = {{31, 119, 180}, {214, 39, 40}, {44, 160, 44}};
    int y0, y1;
    panel_band(p->h, panels, i, &y0, &y1);
    return hk_test_png_count(p, y0, y1, pal[k][0], pal[k][1], pal[k][2]);
}

static void test_plot_run_stats(void **state)
{
    (void)state;
    char args[1024];
    const char *csv = hk_test_path("rope.csv");
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 200 --every 5 --stats '%s' --quiet", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    /* default name: .csv replaced by .png; default size 900 x (60 + 190 per panel) */
    snprintf(args, sizeof args, "plot '%s'", csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "rope.png (900x440, 41 rows, t = 0.."));
    assert_non_null(strstr(r.out, "panels: energy, max_stretch)"));
    hk_run_free(&r);
    hk_png p = hk_test_png_read(hk_test_path("rope.png"));
    assert_int_equal(p.w, 900);
    assert_int_equal(p.h, 440);
    assert_true(hk_test_png_ink(&p) > 5000);
    /* kinetic (colour 0) and gravity (1) in the energy panel, max_stretch (0) in the second */
    assert_true(series_pixels(&p, 2, 0, 0) > 300);
    assert_true(series_pixels(&p, 2, 0, 1) > 300);
    assert_true(series_pixels(&p, 2, 1, 0) > 300);
    free(p.rgb);
    /* --out and a size of one's own */
    const char *png = hk_test_path("rope_small.png");
    snprintf(args, sizeof args, "plot '%s' --out '%s' --width 400 --height 300", csv, png);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    p = hk_test_png_read(png);
    assert_int_equal(p.w, 400);
    assert_int_equal(p.h, 300);
    free(p.rgb);
}

/* A stats CSV with the columns another branch may add (volume_*, pressure_*) and unknown ones. */
static void write_extended_csv(const char *path, int generic)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "step,time,kinetic,gravity,spring,total,max_stretch,broken,volume_0,pressure_0,volume_1,pressure_1");
    for (int g = 0; g < generic; g++) fprintf(f, ",extra_%d", g);
    fprintf(f, "\r\n");
    for (int i = 0; i <= 100; i++) {
        const double t = 0.01 * i;
        fprintf(f, "%d,%g,%g,%g,%g,%g,%g,%d,%g,%g,%g,%g", i, t, sin(t) * sin(t), -t, cos(t) * cos(t), 1 - t,
                1 + 0.1 * t, i / 10, 1 + 0.01 * sin(6 * t), 1e5 * (1 - 0.01 * sin(6 * t)), 2 - t, 2e5 + t);
        for (int g = 0; g < generic; g++) fprintf(f, ",%g", g + sin(t + g));
        fprintf(f, "\r\n");
    }
    fprintf(f, "\r\n"); /* a trailing blank line carries no row */
    assert_int_equal(fclose(f), 0);
}

static void test_plot_extra_columns(void **state)
{
    (void)state;
    const char *csv = hk_test_path("ext.csv"), *png = hk_test_path("ext.png");
    write_extended_csv(csv, 1);
    char args[1024];
    snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "(900x1200, 101 rows, t = 0..1 s; panels: energy, max_stretch, broken, volume, "
                                  "pressure, extra_0)"));
    hk_run_free(&r);
    hk_png p = hk_test_png_read(png);
    assert_int_equal(p.h, 1200);
    for (int i = 0; i < 6; i++) {
        if (series_pixels(&p, 6, i, 0) < 200) {
            print_error("panel %d: first series has only %d pixels\n", i, series_pixels(&p, 6, i, 0));
            fail();
        }
    }
    /* two bodies: volume_1 and pressure_1 are the second series of their panels */
    assert_true(series_pixels(&p, 6, 3, 1) > 200);
    assert_true(series_pixels(&p, 6, 4, 1) > 200);
    free(p.rgb);
    /* more columns than 12 panels: the rest are named on stderr, with the flag that chooses */
    write_extended_csv(csv, 9);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "panels: energy, max_stretch, broken, volume, pressure, extra_0, extra_1, extra_2, "
                                  "extra_3, extra_4, extra_5, extra_6)"));
    char want[1024];
    snprintf(want, sizeof want,
             "hooke: note: %s: 2 columns left out of the plot (at most 12 panels of 16 columns each): extra_7, "
             "extra_8; --columns LIST chooses which are drawn\n",
             csv);
    assert_string_equal(r.err, want);
    hk_run_free(&r);
    /* a stats CSV with only step and time has nothing to draw */
    hk_test_write(csv, "step,time\n0,0\n1,0.1\n");
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "ext.csv:1: no columns to plot besides step and time"));
    hk_run_free(&r);
}

/* Runs `hooke plot FILE` on text and expects exit 1 with msg on stderr (and no PNG). */
static void expect_bad(const char *text, const char *msg)
{
    const char *csv = hk_test_path("bad.csv"), *png = hk_test_path("bad.png");
    remove(png);
    hk_test_write(csv, text);
    char args[512];
    snprintf(args, sizeof args, "plot '%s'", csv);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || !strstr(r.err, msg)) {
        print_error("status %d, stderr: %s\nexpected: %s\n", r.status, r.err, msg);
        fail();
    }
    assert_string_equal(r.out, "");
    FILE *f = fopen(png, "rb");
    assert_null(f);
    hk_run_free(&r);
}

static void test_plot_bad_input(void **state)
{
    (void)state;
    const char *hdr = "step,time,kinetic,gravity,spring,total,max_stretch,broken\n";
    char text[1024];
    expect_bad("", "bad.csv:1: empty file; expected a hooke stats CSV");
    expect_bad("integrator,row,dt\nrk4,limit,0.1\n",
               "bad.csv:1: not a hooke stats CSV: the header must start with "
               "step,time (as written by hooke run --stats), got 'integrator,row,dt'");
    expect_bad("\x89PNG\r\n\x1a\n", "bad.csv:1: not a hooke stats CSV");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2,3,6,1\n", hdr);
    expect_bad(text, "bad.csv:3: ragged row: 7 fields, the header has 8");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2,3,6,1,0,9\n", hdr);
    expect_bad(text, "bad.csv:3: ragged row: 9 fields, the header has 8");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,abc,2,3,6,1,0\n", hdr);
    expect_bad(text, "bad.csv:3: column 3 (kinetic): 'abc' is not a number");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,,3,6,1,0\n", hdr);
    expect_bad(text, "bad.csv:3: column 4 (gravity): '' is not a number");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2,3,6,1.5x,0\n", hdr);
    expect_bad(text, "bad.csv:3: column 7 (max_stretch): '1.5x' is not a number");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,1e999,1,2,3,6,1,0\n", hdr);
    expect_bad(text, "bad.csv:3: column 2 (time): '1e999' is not a number");
    expect_bad(hdr, "bad.csv:1: 0 data rows; a plot needs at least 2");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n", hdr);
    expect_bad(text, "bad.csv:2: 1 data row; a plot needs at least 2");
    expect_bad("step,time,,total\n0,0,1,1\n1,1,1,1\n", "bad.csv:1: column 3 has no name");
    /* missing file, flags */
    hk_run r = hk_test_hooke("", "plot /nonexistent/stats.csv");
    assert_int_equal(r.status, 1);
    assert_non_null(
        strstr(r.err, "hooke: error: /nonexistent/stats.csv: cannot open stats CSV: No such file or directory"));
    hk_run_free(&r);
    r = hk_test_hooke("", "plot");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: plot needs a stats CSV file"));
    hk_run_free(&r);
    r = hk_test_hooke("", "plot x.csv --width 10");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --width expects a width in pixels 320..8000, got '10'"));
    hk_run_free(&r);
    r = hk_test_hooke("", "plot x.csv --height 200x");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --height expects a height in pixels 200..8000, got '200x'"));
    hk_run_free(&r);
    r = hk_test_hooke("", "plot x.csv --colour red");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: unknown option '--colour' for plot"));
    hk_run_free(&r);
    /* too small for the panels: 6 panels need 44 + 42 + 5 * 26 + 6 * 40 = 456 px */
    const char *csv = hk_test_path("ext6.csv");
    write_extended_csv(csv, 1);
    char args[512];
    snprintf(args, sizeof args, "plot '%s' --height 300", csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --height 300 is too small for 6 panels (at least 456)"));
    hk_run_free(&r);
    /* an output that cannot be written: exit 3 */
    snprintf(args, sizeof args, "plot '%s' --out /nonexistent/dir/x.png", csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write /nonexistent/dir/x.png"));
    hk_run_free(&r);
    r = hk_test_hooke("", "plot --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(
        r.out, "usage: hooke plot STATS.csv [--out FILE.png|.svg|.pdf] [--columns LIST] [--width W] [--height H]"));
    hk_run_free(&r);
    r = hk_test_hooke("", "--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "hooke plot STATS.csv"));
    hk_run_free(&r);
}

/* hooke plot on such data: exit 0, the PNG written, every curve drawn (no panel is blank). */
static void test_plot_extreme_csv(void **state)
{
    (void)state;
    static const struct {
        const char *name, *text, *summary;
        int panels, second; /* panels, and whether panel 0's second series (colour 1) is drawn too */
    } cases[] = {
        {"huge",
         "step,time,kinetic,total\n0,0,1e308,-1e308\n1,1,-1.7976931348623157e308,1.7976931348623157e308\n"
         "2,2,0,1\n",
         "(900x250, 3 rows, t = 0..2 s; panels: energy)", 1, 1},
        /* a column whose values are all equal, in a panel of its own: 5, 1e308, 0, -1e-300 */
        {"equal", "step,time,kinetic,max_stretch,zero,tiny\n0,0,5,1e308,0,-1e-300\n1,1,5,1e308,0,-1e-300\n",
         "(900x820, 2 rows, t = 0..1 s; panels: energy, max_stretch, zero, tiny)", 4, 0},
        {"tiny", "step,time,kinetic,total\n0,0,1e-300,1.2e-300\n1,1,2e-300,1.9e-300\n2,2,1.5e-300,1.7e-300\n",
         "(900x250, 3 rows, t = 0..2 s; panels: energy)", 1, 1},
        {"subnormal", "step,time,kinetic\n0,0,4.9e-324\n1,1,2.5e-323\n2,2,1e-323\n",
         "(900x250, 3 rows, t = 0..2 s; panels: energy)", 1, 0},
        {"wide_time", "step,time,kinetic\n0,-1.7976931348623157e308,1\n1,0,-1e-300\n2,1.7976931348623157e308,2\n",
         "(900x250, 3 rows, t = -1.79769e+308..1.79769e+308 s; panels: energy)", 1, 0},
        /* nan and inf leave gaps: kinetic rows 0 and 2-3 are lines, total only rows 1-3 around a gap */
        {"gaps", "step,time,kinetic,total\n0,0,1,nan\n1,1,inf,1e308\n2,2,2,-inf\n3,3,3,-1e308\n4,nan,1,1\n",
         "(900x250, 5 rows, t = 0..3 s; panels: energy)", 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[64], args[512];
        snprintf(name, sizeof name, "%s.csv", cases[i].name);
        const char *csv = hk_test_path(name);
        hk_test_write(csv, cases[i].text);
        snprintf(name, sizeof name, "%s.png", cases[i].name);
        const char *png = hk_test_path(name);
        remove(png);
        snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, png);
        hk_run r = hk_test_hooke("", args);
        if (r.status != 0 || strcmp(r.err, "") != 0 || !strstr(r.out, cases[i].summary)) {
            print_error("%s: status %d, stdout %s, stderr %s\n", cases[i].name, r.status, r.out, r.err);
            fail();
        }
        hk_run_free(&r);
        hk_png p = hk_test_png_read(png);
        for (int k = 0; k < cases[i].panels; k++)
            if (series_pixels(&p, cases[i].panels, k, 0) < 100) {
                print_error("%s: panel %d: its curve has %d pixels\n", cases[i].name, k,
                            series_pixels(&p, cases[i].panels, k, 0));
                fail();
            }
        if (cases[i].second && series_pixels(&p, cases[i].panels, 0, 1) < 100) {
            print_error("%s: the second curve has %d pixels\n", cases[i].name, series_pixels(&p, 1, 0, 1));
            fail();
        }
        free(p.rgb);
    }
}

/* Parses text (len bytes) with hk_stats_parse and expects -1, msg exactly, and an empty table. */
static void expect_parse_error(const char *text, size_t len, const char *msg)
{
    char *buf = malloc(len + 1), err[512] = "";
    assert_non_null(buf);
    memcpy(buf, text, len);
    buf[len] = '\0';
    hk_stats_table t;
    assert_int_equal(hk_stats_parse(buf, len, "mem.csv", &t, err, sizeof err), -1);
    assert_string_equal(err, msg);
    assert_int_equal(t.cols, 0);
    assert_int_equal(t.rows, 0);
    assert_null(t.names);
    assert_null(t.v);
    free(buf);
}

/* The reader on its own (src/cli/run/stats_csv.h, the entry point of a fuzz harness): the table it fills, nan and inf
 * kept as values, and the FILE:LINE messages hooke plot prints after "hooke: error: ". */
static void test_stats_reader(void **state)
{
    (void)state;
    char text[] = "step , time,kinetic,total\r\n0,0,1,2\n\n1,0.5,nan,-inf\n2,1,1e-320,inf\n";
    hk_stats_table t;
    char err[512] = "";
    assert_int_equal(hk_stats_parse(text, strlen(text), "mem.csv", &t, err, sizeof err), 0);
    assert_string_equal(err, "");
    assert_int_equal(t.cols, 4);
    assert_int_equal(t.rows, 3);
    assert_string_equal(t.names[0], "step");
    assert_string_equal(t.names[1], "time");
    assert_string_equal(t.names[3], "total");
    assert_true(t.v[1][1] == 0.5 && t.v[3][0] == 2);
    assert_true(isnan(t.v[2][1]));
    assert_true(isinf(t.v[3][1]) && t.v[3][1] < 0);
    assert_true(t.v[2][2] == 1e-320 && isinf(t.v[3][2]) && t.v[3][2] > 0);
    hk_stats_free(&t);
    assert_int_equal(t.cols, 0);
    assert_null(t.names);
    hk_stats_free(&t); /* an empty table frees to nothing */
    /* the same rules as hooke plot's messages (test_plot_bad_input), without the "hooke: error: " prefix */
    const char *nul = "step,time\n0,0\n1\0,1\n";
    expect_parse_error(nul, 19, "mem.csv:3: not a hooke stats CSV (it contains a NUL byte)");
    expect_parse_error("step,time\n0,0\n1,1e999\n", 22, "mem.csv:3: column 2 (time): '1e999' is not a number");
    expect_parse_error("", 0, "mem.csv:1: empty file; expected a hooke stats CSV (header step,time,...)");
    expect_parse_error("time,step\n", 10,
                       "mem.csv:1: not a hooke stats CSV: the header must start with step,time (as written by hooke "
                       "run --stats), got 'time,step'");
    char wide[4096] = "step,time";
    for (int c = 2; c < 257; c++) snprintf(wide + strlen(wide), sizeof wide - strlen(wide), ",c%d", c);
    strcat(wide, "\n");
    expect_parse_error(wide, strlen(wide), "mem.csv:1: 257 columns; at most 256 are supported");
    /* from a file: the bounded reader, then the same parse */
    const char *csv = hk_test_path("reader.csv");
    hk_test_write(csv, "step,time,kinetic\n0,0,1\n1,0.1,nan\n");
    assert_int_equal(hk_stats_read(csv, &t, err, sizeof err), 0);
    assert_int_equal(t.cols, 3);
    assert_int_equal(t.rows, 2);
    assert_true(isnan(t.v[2][1]));
    hk_stats_free(&t);
    hk_test_write(csv, "step,time,kinetic\n0,0,1\n");
    assert_int_equal(hk_stats_read(csv, &t, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want, "%s:2: 1 data row; a plot needs at least 2", csv);
    assert_string_equal(err, want);
    assert_null(t.names);
    assert_int_equal(hk_stats_read("/nonexistent/stats.csv", &t, err, sizeof err), -1);
    assert_string_equal(err, "/nonexistent/stats.csv: cannot open stats CSV: No such file or directory");
    assert_int_equal(hk_stats_read(hk_test_tmpdir(), &t, err, sizeof err), -1);
    assert_non_null(strstr(err, ": cannot read stats CSV: it is a folder"));
}

/* What `hooke plot` draws, as text (the canvas's text hook, in this process): mixed-case titles with units, the
 * columns in legends, tick labels without "e" notation, 700 s printed as 700. */
static void test_plot_text(void **state)
{
    (void)state;
    const char *csv = hk_test_path("text.csv"), *png = hk_test_path("text.png");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fprintf(f, "step,time,kinetic,gravity,spring,total,max_stretch,broken,volume_0,pressure_0,huge\n");
    for (int i = 0; i <= 70; i++)
        fprintf(f, "%d,%d,%g,%g,%g,%g,%g,%d,%g,%g,%g\n", i, 10 * i, 1e-3 * i, -0.5 * i, 2.0, 1.5, 1 + 1e-3 * i, i / 7,
                0.25 + 1e-4 * i, 1e5 + 100.0 * i, 1e10 + 2e10 * i / 70.0);
    assert_int_equal(fclose(f), 0);
    char *argv[] = {"hooke", "plot", (char *)csv, "--out", (char *)png, NULL};
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_cmd_plot(5, argv);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    hk_texts_expect(t, HK_TEXT_TITLE, "hooke run statistics: text.csv");
    static const char *const titles[] = {"Energy (J)",       "Max stretch (r/L\u2080)", "Broken springs (count)",
                                         "Volume (m\u00b3)", "Pressure (Pa)",           "huge",
                                         "Time (s)"};
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) hk_texts_expect(t, HK_TEXT_AXIS_TITLE, titles[i]);
    static const char *const legend[] = {"kinetic", "gravity",  "spring",     "total", "max_stretch",
                                         "broken",  "volume_0", "pressure_0", "huge"};
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) hk_texts_expect(t, HK_TEXT_LEGEND, legend[i]);
    /* the time axis 0..700 s: 0, 100, ..., 700 */
    hk_texts_expect(t, HK_TEXT_TICK, "0");
    hk_texts_expect(t, HK_TEXT_TICK, "700");
    /* 1e10..3e10 Pa: powers of ten */
    hk_texts_expect(t, HK_TEXT_TICK, "1\u00d710\u00b9\u2070");
    hk_texts_expect(t, HK_TEXT_TICK, "3\u00d710\u00b9\u2070");
    int ticks = 0;
    for (int i = 0; i < t->n; i++) {
        const char *s = t->text[i];
        if (t->role[i] == HK_TEXT_TICK) {
            char ascii[HK_PLOT_TEXT];
            hk_tick_text_ascii(s, ascii, sizeof ascii);
            if (strpbrk(s, "eE+") || !*ascii) {
                print_error("tick label '%s'\n", s);
                fail();
            }
            ticks++;
        } else if ((t->role[i] == HK_TEXT_TITLE || t->role[i] == HK_TEXT_AXIS_TITLE) && !hk_text_has_lower(s)) {
            print_error("title '%s' has no lower-case letter\n", s);
            fail();
        }
    }
    assert_true(ticks >= 6 * 5 + 8); /* 6 panels of at least 5 y ticks, and the time axis */
    free(t);
}

/* Pixels of the legend box's border (light grey 200,200,200) in the quadrant (right, bottom) of panel i. */
static int legend_pixels(const hk_png *p, int panels, int i, int right, int bottom)
{
    int y0, y1;
    panel_band(p->h, panels, i, &y0, &y1);
    const int ym = (y0 + y1) / 2, xm = p->w / 2, ya = bottom ? ym : y0, yb = bottom ? y1 : ym;
    int n = 0;
    for (int y = ya; y < yb; y++)
        for (int x = right ? xm : 0; x < (right ? p->w : xm); x++) {
            const unsigned char *q = p->rgb + ((size_t)y * (size_t)p->w + (size_t)x) * 3;
            n += q[0] == 200 && q[1] == 200 && q[2] == 200;
        }
    return n;
}

/* A legend goes where it covers no data: the energy panel's curves (on an axis of 0 to 1.2 J) fill its top
 * (gravity, spring, total and kinetic before its drop, 0.95 to 1.05) and its bottom right (kinetic at 0.1 after
 * its drop) and leave its bottom left empty, so the legend is there; in the stretch panel the curve rises to the
 * top right, and the legend leaves that corner. The implicit solver's panels have their titles
 * and units and no point at step 0 (a row that took no solve). */
static void test_plot_legend_place(void **state)
{
    (void)state;
    const char *csv = hk_test_path("legend.csv"), *png = hk_test_path("legend.png");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fprintf(f, "step,time,kinetic,gravity,spring,total,max_stretch,broken,cg_iterations,cg_residual\n");
    for (int i = 0; i <= 100; i++)
        fprintf(f, "%d,%g,%g,1,1.05,0.95,%g,0,%d,%g\n", i, 0.01 * i, i < 50 ? 0.95 : 0.1, 1 + 1e-4 * i * i, i ? 7 : 0,
                i ? 1e-3 : 0.0);
    assert_int_equal(fclose(f), 0);
    char *argv[] = {"hooke", "plot", (char *)csv, "--out", (char *)png, NULL};
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_cmd_plot(5, argv);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "CG iterations per step (count)");
    hk_texts_expect(t, HK_TEXT_AXIS_TITLE, "CG residual at the end of the step, cg_stop's measure (1)");
    /* cg_iterations is 7 from step 1: a flat line, so its axis is a narrow band around 7 with no tick at 0 */
    hk_texts_expect(t, HK_TEXT_TICK, "7");
    free(t);
    hk_png p = hk_test_png_read(png);
    const int panels = 4; /* energy, stretch, cg_iterations, cg_residual */
    int q[2][2];
    for (int r = 0; r < 2; r++)
        for (int b = 0; b < 2; b++) q[r][b] = legend_pixels(&p, panels, 0, r, b);
    print_message("energy panel, legend border pixels: top left %d, top right %d, bottom left %d, bottom right %d\n",
                  q[0][0], q[1][0], q[0][1], q[1][1]);
    assert_true(q[0][1] > 50 && q[0][0] + q[1][0] + q[1][1] < q[0][1] / 4);
    const int stretch_top_right = legend_pixels(&p, panels, 1, 1, 0);
    const int stretch_elsewhere =
        legend_pixels(&p, panels, 1, 0, 0) + legend_pixels(&p, panels, 1, 0, 1) + legend_pixels(&p, panels, 1, 1, 1);
    print_message("stretch panel: %d in the top right, %d elsewhere\n", stretch_top_right, stretch_elsewhere);
    assert_true(stretch_elsewhere > 50 && stretch_top_right < stretch_elsewhere / 4);
    free(p.rgb);
}

/* Curves that hug the top and the bottom of the energy panel (kinetic and spring about 2 J, gravity about -21 J,
 * total -17 to -19 J: jelly26's statistics from t = 2.2 s) leave every corner covered and the middle empty: the
 * legend goes into the middle, and no curve crosses its box (the 3 pixels around its border are the panel's white
 * or its light grid; in the top right corner, its place before, the kinetic and spring curves ran under it). */
static void test_plot_legend_between(void **state)
{
    (void)state;
    const char *csv = hk_test_path("between.csv"), *png = hk_test_path("between.png");
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fprintf(f, "step,time,kinetic,gravity,spring,total,max_stretch,broken\n");
    for (int i = 0; i <= 80; i++) {
        const double t = 2.2 + 0.01 * i;
        fprintf(f, "%d,%.2f,%g,%g,%g,%g,%g,0\n", 4400 + 20 * i, t, 2 + 0.5 * sin(40 * t), -21 + 0.5 * sin(9 * t),
                1.8 + 0.5 * cos(40 * t), -17 - 2.5 * (t - 2.2), 1.1 + 0.03 * sin(60 * t));
    }
    assert_int_equal(fclose(f), 0);
    char *argv[] = {"hooke", "plot", (char *)csv, "--out", (char *)png, NULL};
    assert_int_equal(hk_cmd_plot(5, argv), 0);
    hk_png p = hk_test_png_read(png);
    int y0, y1, bx0 = p.w, by0 = p.h, bx1 = -1, by1 = -1;
    panel_band(p.h, 2, 0, &y0, &y1);
    for (int y = y0; y < y1; y++)
        for (int x = 0; x < p.w; x++) {
            const unsigned char *q = p.rgb + ((size_t)y * (size_t)p.w + (size_t)x) * 3;
            if (q[0] == 200 && q[1] == 200 && q[2] == 200) { /* the legend box's border */
                bx0 = x < bx0 ? x : bx0;
                bx1 = x > bx1 ? x : bx1;
                by0 = y < by0 ? y : by0;
                by1 = y > by1 ? y : by1;
            }
        }
    assert_true(bx1 - bx0 > 40 && by1 - by0 > 40); /* found: four entries */
    int crossed = 0;
    for (int y = by0 - 3; y <= by1 + 3; y++)
        for (int x = bx0 - 3; x <= bx1 + 3; x++) {
            if (x >= bx0 && x <= bx1 && y >= by0 && y <= by1) continue;
            const unsigned char *q = p.rgb + ((size_t)y * (size_t)p.w + (size_t)x) * 3;
            crossed += q[0] < 200 || q[1] < 200 || q[2] < 200;
        }
    print_message("energy panel: legend at x %d..%d, y %d..%d; %d curve pixels around it\n", bx0, bx1, by0, by1,
                  crossed);
    assert_int_equal(crossed, 0);
    free(p.rgb);
}

/* A run of an implicit integrator among colliders (scenes/jelly_pile.scene) writes 13 columns; every one is
 * drawn (crossings, the column that says nothing passed through, was left out as "too many columns"), each panel
 * titled with what it shows and its unit, and every column hooke run writes has such a title. */
static void test_plot_contact_columns(void **state)
{
    (void)state;
    char args[1024], csv[256], png[256];
    snprintf(csv, sizeof csv, "%s", hk_test_path("pile.csv"));
    snprintf(png, sizeof png, "%s", hk_test_path("pile.png"));
    snprintf(args, sizeof args, "run " SCENE("jelly_pile.scene") " --steps 12 --every 2 --stats '%s' --quiet", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    hk_stats_table st;
    char err[512];
    assert_int_equal(hk_stats_read(csv, &st, err, sizeof err), 0);
    assert_int_equal(st.cols, 15);
    assert_string_equal(st.names[14], "crossings");
    for (int c = 2; c < st.cols; c++) {
        char title[160];
        if (hk_plot_column_title(st.names[c], title, sizeof title) != 0 || !strstr(title, " (") ||
            title[strlen(title) - 1] != ')') {
            print_error("column %s: no title with a unit ('%s')\n", st.names[c], title);
            fail();
        }
    }
    hk_stats_free(&st);
    char *argv[] = {"hooke", "plot", csv, "--out", png, NULL};
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    const int rc = hk_cmd_plot(5, argv);
    hk_texts_stop();
    assert_int_equal(rc, 0);
    static const char *const titles[] = {
        "Energy (J)",
        "Max stretch (r/L\u2080)",
        "CG iterations per step (count)",
        "CG residual at the end of the step, cg_stop's measure (1)",
        "Linear solves per step (count)",
        "Particles touching a collider (count)",
        "Smallest gap of a touching particle to its collider (m)",
        "Particles inside a collider (count)",
    };
    for (size_t i = 0; i < sizeof titles / sizeof titles[0]; i++) hk_texts_expect(t, HK_TEXT_AXIS_TITLE, titles[i]);
    static const char *const legend[] = {"contacts", "min_gap", "crossings"};
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) hk_texts_expect(t, HK_TEXT_LEGEND, legend[i]);
    free(t);
    snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, png);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "(900x1580, 7 rows, t = 0..0.05 s; panels: energy, max_stretch, cg_iterations, "
                                  "cg_residual, newton_iterations, contacts, min_gap, crossings)"));
    hk_run_free(&r);
    hk_png p = hk_test_png_read(png);
    assert_int_equal(p.h, 1580);
    /* crossings (0 throughout) is a line in its panel, the last */
    assert_true(series_pixels(&p, 8, 7, 0) > 300);
    free(p.rgb);
}

/* --columns chooses the columns, in its order, those of one panel sharing it; a name the file lacks is refused
 * with the file's columns listed (exit 1); a column drawn by default only when not all 0 is drawn when named. */
static void test_plot_columns(void **state)
{
    (void)state;
    char csv[256], png[256], args[1024], want[1024];
    snprintf(csv, sizeof csv, "%s", hk_test_path("cols.csv"));
    snprintf(png, sizeof png, "%s", hk_test_path("cols.png"));
    hk_test_write(csv, "step,time,kinetic,gravity,spring,total,max_stretch,broken,contacts,min_gap,crossings\n"
                       "0,0,0,1,0,1,1,0,0,nan,0\n1,0.1,0.5,0.5,0.1,1.1,1.01,0,3,0.002,0\n"
                       "2,0.2,0.9,0.1,0.1,1.1,1.02,0,5,0.001,0\n");
    /* by default: broken (all 0) is left out, every other column drawn */
    snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, png);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "panels: energy, max_stretch, contacts, min_gap, crossings)"));
    hk_run_free(&r);
    /* chosen: in the order named, the energies in one panel */
    char *argv[] = {"hooke", "plot", csv, "--out", png, "--columns", "crossings,total,broken,kinetic", NULL};
    hk_texts *t = malloc(sizeof *t);
    assert_non_null(t);
    hk_texts_start(t);
    assert_int_equal(hk_cmd_plot(7, argv), 0);
    hk_texts_stop();
    int order[3] = {hk_texts_find(t, HK_TEXT_AXIS_TITLE, "Particles inside a collider (count)"),
                    hk_texts_find(t, HK_TEXT_AXIS_TITLE, "Energy (J)"),
                    hk_texts_find(t, HK_TEXT_AXIS_TITLE, "Broken springs (count)")};
    assert_true(order[0] >= 0 && order[0] < order[1] && order[1] < order[2]);
    assert_true(hk_texts_find(t, HK_TEXT_LEGEND, "total") < hk_texts_find(t, HK_TEXT_LEGEND, "kinetic"));
    assert_int_equal(hk_texts_find(t, HK_TEXT_LEGEND, "gravity"), -1);
    assert_int_equal(hk_texts_find(t, HK_TEXT_AXIS_TITLE, "Max stretch (r/L\u2080)"), -1);
    free(t);
    snprintf(args, sizeof args, "plot '%s' --out '%s' --columns crossings,total,broken,kinetic", csv, png);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "(900x630, 3 rows, t = 0..0.2 s; panels: crossings, energy, broken)"));
    hk_run_free(&r);
    /* refused, each with the file's columns: a name it lacks, step or time, a name twice, an empty one */
    static const struct {
        const char *list, *what;
    } bad[] = {
        {"total,nope", "'nope': no such column in the file"},
        {"Total", "'Total': no such column in the file"},
        {"time", "'time': step and time are each row's step and the time axis, not panels"},
        {"kinetic,kinetic", "'kinetic': named twice"},
        {"kinetic,,total", "'': an empty name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        remove(png);
        snprintf(args, sizeof args, "plot '%s' --out '%s' --columns '%s'", csv, png, bad[i].list);
        r = hk_test_hooke("", args);
        snprintf(want, sizeof want,
                 "hooke: error: --columns: %s; %s has the columns kinetic, gravity, spring, total, max_stretch, "
                 "broken, contacts, min_gap, crossings\n",
                 bad[i].what, csv);
        if (r.status != 1 || strcmp(r.err, want) != 0) {
            print_error("--columns %s: exit %d, stderr: %s\nexpected: %s\n", bad[i].list, r.status, r.err, want);
            fail();
        }
        assert_string_equal(r.out, "");
        assert_null(fopen(png, "rb"));
        hk_run_free(&r);
    }
    r = hk_test_hooke("", "plot x.csv --columns=");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --columns expects a comma-separated list of column names, got ''"));
    hk_run_free(&r);
}

/* A run stopped while it wrote a row (a full disk) leaves the last row cut short, without its newline: it is left
 * out with a warning naming the file and line, and the rows before it are drawn; a ragged row that ends in its
 * newline is refused as before, last or not. */
static void test_plot_cut_row(void **state)
{
    (void)state;
    const char *hdr = "step,time,kinetic,gravity,spring,total,max_stretch,broken\n";
    char csv[256], args[1024], text[1024], want[1024];
    snprintf(csv, sizeof csv, "%s", hk_test_path("cut.csv"));
    static const char *const cuts[] = {"3,0.3,1,2", "3,0.3,1,2,3,6,1,0", "3,0.3,1,2,3,6,1.00", "3"};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2,3,6,1,0\n2,0.2,1,2,3,6,1,0\n%s", hdr, cuts[i]);
        hk_test_write(csv, text);
        snprintf(args, sizeof args, "plot '%s'", csv);
        hk_run r = hk_test_hooke("", args);
        snprintf(want, sizeof want,
                 "hooke: warning: %s:5: the last row is cut short (no newline at its end: a write that did not "
                 "finish, a full disk?): left out, the 3 rows before it are drawn\n",
                 csv);
        if (r.status != 0 || strcmp(r.err, want) != 0 || !strstr(r.out, "(900x440, 3 rows, t = 0..0.2 s;")) {
            print_error("cut '%s': exit %d\nstdout: %s\nstderr: %s\nexpected: %s\n", cuts[i], r.status, r.out, r.err,
                        want);
            fail();
        }
        hk_run_free(&r);
    }
    /* the reader: the row left out, its line kept; with fewer than 2 rows left, the message names it too */
    hk_stats_table t;
    char err[512];
    char in[] = "step,time,kinetic\n0,0,1\n1,0.1,2\n2,0.2,3,4";
    assert_int_equal(hk_stats_parse(in, strlen(in), "mem.csv", &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 2);
    assert_int_equal(t.cut_line, 4);
    hk_stats_free(&t);
    expect_parse_error("step,time\n0,0\n1,0.", 18,
                       "mem.csv:3: 1 data row (and line 3, a row cut short); a plot "
                       "needs at least 2");
    /* a ragged row in the middle, or last but whole (its newline written), is still refused */
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2\n2,0.2,1,2,3,6,1,0\n3,0.3,1", hdr);
    expect_bad(text, "bad.csv:3: ragged row: 4 fields, the header has 8");
    snprintf(text, sizeof text, "%s0,0,1,2,3,6,1,0\n1,0.1,1,2,3,6,1,0\n2,0.2,1,2\n", hdr);
    expect_bad(text, "bad.csv:4: ragged row: 4 fields, the header has 8");
}

/* Starts with magic (len bytes). */
static void expect_magic(const char *path, const char *magic, size_t len)
{
    char *text = hk_test_slurp(path);
    if (!text || memcmp(text, magic, len) != 0) {
        print_error("%s does not start with the expected magic\n", path);
        fail();
    }
    free(text);
}

/* The file kind follows the extension of --out (any case): PNG, SVG, PDF; any other is refused before anything is
 * written. */
static void test_plot_vector(void **state)
{
    (void)state;
    char csv[256], out[256];
    snprintf(csv, sizeof csv, "%s", hk_test_path("vec.csv")); /* hk_test_path's buffers are reused */
    write_extended_csv(csv, 0);
    static const struct {
        const char *name, *magic;
        size_t len;
    } kinds[] = {
        {"vec.svg", "<?xml", 5},
        {"vec.SVG", "<?xml", 5},
        {"vec.pdf", "%PDF-", 5},
        {"vec.Pdf", "%PDF-", 5},
        {"vec.png", "\x89PNG\r\n\x1a\n", 8},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        snprintf(out, sizeof out, "%s", hk_test_path(kinds[i].name));
        char args[1024];
        snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, out);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.err, "");
        hk_run_free(&r);
        expect_magic(out, kinds[i].magic, kinds[i].len);
        if (kinds[i].magic[0] == '<') {
            char *svg = hk_test_slurp(out);
            assert_non_null(strstr(svg, "<svg"));
            assert_non_null(strstr(svg, "width=\"900pt\" height=\"1010pt\""));
            free(svg);
        }
    }
    char jpg[256], args[1024];
    snprintf(jpg, sizeof jpg, "%s", hk_test_path("vec.jpg"));
    snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, jpg);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    char want[512];
    snprintf(want, sizeof want, "hooke: error: --out expects a file name ending in .png, .svg or .pdf, got '%s'\n",
             jpg);
    assert_string_equal(r.err, want);
    assert_null(hk_test_slurp(jpg));
    hk_run_free(&r);
    snprintf(args, sizeof args, "plot '%s' --out /nonexistent/dir/x.svg", csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, "hooke: error: cannot write /nonexistent/dir/x.svg: No such file or directory"));
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_run_stats),      cmocka_unit_test(test_plot_extra_columns),
        cmocka_unit_test(test_plot_bad_input),      cmocka_unit_test(test_stats_reader),
        cmocka_unit_test(test_plot_extreme_csv),    cmocka_unit_test(test_plot_text),
        cmocka_unit_test(test_plot_legend_place),   cmocka_unit_test(test_plot_vector),
        cmocka_unit_test(test_plot_legend_between), cmocka_unit_test(test_plot_contact_columns),
        cmocka_unit_test(test_plot_columns),        cmocka_unit_test(test_plot_cut_row),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_canvas_release_fonts(); /* the program's end: cairo's and fontconfig's caches released (leak check) */
    hk_test_cleanup();
    return rc;
}
