/* test_outputs.c — frames (VTP decoded strictly, PVD, OBJ, PNG), blow-up reports, the progress bar's absence, the
 * stability profiler's answers. */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_png.h"

#include <math.h>
#include <stdint.h>
#include <sys/stat.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

static const char *own_path(const char *name)
{
    static char buf[16][256];
    static int slot;
    char *p = buf[slot++ % 16];
    snprintf(p, sizeof buf[0], "%s", hk_test_path(name));
    return p;
}

static char *read_all(const char *path, size_t *n)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        print_error("missing file %s\n", path);
        fail();
    }
    char *s = hk_test_slurp(path);
    assert_non_null(s);
    *n = (size_t)st.st_size;
    return s;
}

/* ---- a strict reader for the VTP subset hooke writes --------------------- */

/* Value of attribute `name` of the element starting at tag (up to its '>'), into out. */
static int attr(const char *tag, const char *name, char *out, size_t len)
{
    const char *end = strchr(tag, '>');
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", name);
    const char *p = strstr(tag, pat);
    if (!p || !end || p > end) return -1;
    p += strlen(pat);
    const char *q = strchr(p, '"');
    if (!q || q > end || (size_t)(q - p) >= len) return -1;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = '\0';
    return 0;
}

/* Checks that every '<' tag of the XML part is balanced (open/close/self-closing) and names match. */
static void check_xml_balanced(const char *xml, size_t len)
{
    char stack[32][32];
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (xml[i] != '<') continue;
        if (xml[i + 1] == '?') continue;
        const char *gt = memchr(xml + i, '>', len - i);
        assert_non_null(gt);
        int closing = xml[i + 1] == '/', self = gt[-1] == '/';
        const char *name = xml + i + 1 + closing;
        size_t n = strcspn(name, " />");
        assert_true(n > 0 && n < 32);
        if (closing) {
            assert_true(depth > 0);
            depth--;
            assert_int_equal(strncmp(stack[depth], name, n), 0);
            assert_int_equal(stack[depth][n], '\0');
        } else if (!self) {
            assert_true(depth < 32);
            memcpy(stack[depth], name, n);
            stack[depth][n] = '\0';
            depth++;
        }
        i = (size_t)(gt - xml);
    }
    assert_int_equal(depth, 0);
}

typedef struct vtp {
    long points, lines, polys;
    double *pos; /* 3 per point */
    double *stretch;
    int64_t *lconn;
} vtp;

/* Decodes the appended block at byte offset `off` (UInt64 byte count first). */
static const unsigned char *block(const char *data, size_t len, size_t app, const char *tag, uint64_t *bytes)
{
    char off[32];
    assert_int_equal(attr(tag, "offset", off, sizeof off), 0);
    size_t at = app + (size_t)strtoull(off, NULL, 10);
    assert_true(at + 8 <= len);
    memcpy(bytes, data + at, 8);
    assert_true(at + 8 + *bytes <= len);
    return (const unsigned char *)data + at + 8;
}

static vtp read_vtp(const char *path)
{
    size_t len;
    char *d = read_all(path, &len);
    const char *app_tag = strstr(d, "<AppendedData encoding=\"raw\">");
    assert_non_null(app_tag);
    const char *us = strchr(app_tag, '_');
    assert_non_null(us);
    size_t app = (size_t)(us + 1 - d);
    /* the XML around the binary block */
    const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
    assert_true(len > strlen(tail));
    assert_memory_equal(d + len - strlen(tail), tail, strlen(tail));
    size_t xml_len = (size_t)(us - d);
    char *xml = malloc(xml_len + 64);
    assert_non_null(xml);
    memcpy(xml, d, xml_len);
    strcpy(xml + xml_len, "</AppendedData></VTKFile>");
    check_xml_balanced(xml, strlen(xml));
    free(xml);
    assert_non_null(
        strstr(d, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">"));

    vtp v = {0};
    const char *piece = strstr(d, "<Piece ");
    assert_non_null(piece);
    char val[64];
    assert_int_equal(attr(piece, "NumberOfPoints", val, sizeof val), 0);
    v.points = atol(val);
    assert_int_equal(attr(piece, "NumberOfLines", val, sizeof val), 0);
    v.lines = atol(val);
    assert_int_equal(attr(piece, "NumberOfPolys", val, sizeof val), 0);
    v.polys = atol(val);

    const char *pts = strstr(strstr(d, "<Points>"), "<DataArray");
    char type[16], comps[8];
    assert_int_equal(attr(pts, "type", type, sizeof type), 0);
    assert_int_equal(attr(pts, "NumberOfComponents", comps, sizeof comps), 0);
    assert_string_equal(comps, "3");
    const size_t sz = strcmp(type, "Float64") == 0 ? 8 : 4;
    assert_true(strcmp(type, "Float64") == 0 || strcmp(type, "Float32") == 0);
    uint64_t bytes;
    const unsigned char *b = block(d, len, app, pts, &bytes);
    assert_int_equal(bytes, (uint64_t)v.points * 3 * sz);
    v.pos = malloc((size_t)v.points * 3 * sizeof(double) + 8);
    assert_non_null(v.pos);
    for (long i = 0; i < 3 * v.points; i++) {
        if (sz == 8) {
            memcpy(&v.pos[i], b + 8 * i, 8);
        } else {
            float f;
            memcpy(&f, b + 4 * i, 4);
            v.pos[i] = f;
        }
    }
    /* lines: connectivity and offsets */
    const char *lines = strstr(d, "<Lines>");
    assert_non_null(lines);
    const char *conn = strstr(lines, "Name=\"connectivity\"");
    b = block(d, len, app, conn, &bytes);
    assert_int_equal(bytes, (uint64_t)v.lines * 2 * 8);
    v.lconn = malloc((size_t)bytes + 8);
    assert_non_null(v.lconn);
    memcpy(v.lconn, b, (size_t)bytes);
    for (long i = 0; i < 2 * v.lines; i++) assert_true(v.lconn[i] >= 0 && v.lconn[i] < v.points);
    const char *offs = strstr(lines, "Name=\"offsets\"");
    b = block(d, len, app, offs, &bytes);
    assert_int_equal(bytes, (uint64_t)v.lines * 8);
    for (long i = 0; i < v.lines; i++) {
        int64_t o;
        memcpy(&o, b + 8 * i, 8);
        assert_int_equal(o, 2 * (i + 1));
    }
    const char *polys = strstr(d, "<Polys>");
    b = block(d, len, app, strstr(polys, "Name=\"connectivity\""), &bytes);
    assert_int_equal(bytes, (uint64_t)v.polys * 3 * 8);
    /* cell data: one stretch per line and triangle */
    const char *st = strstr(d, "Name=\"stretch\"");
    assert_non_null(st);
    b = block(d, len, app, st, &bytes);
    assert_int_equal(bytes, (uint64_t)(v.lines + v.polys) * 8);
    v.stretch = malloc((size_t)bytes + 8);
    assert_non_null(v.stretch);
    memcpy(v.stretch, b, (size_t)bytes);
    /* point data: velocity and force, 3 components per point in the build's precision */
    for (int k = 0; k < 2; k++) {
        const char *pd = strstr(d, k ? "Name=\"force\"" : "Name=\"velocity\"");
        assert_non_null(pd);
        block(d, len, app, pd, &bytes);
        assert_int_equal(bytes, (uint64_t)v.points * 3 * sizeof(hk_real));
    }
    free(d);
    return v;
}

static void vtp_free(vtp *v)
{
    free(v->pos);
    free(v->stretch);
    free(v->lconn);
}

static void test_vtp_matches_state_out(void **state)
{
    (void)state;
    const char *dir = own_path("frames"), *st = own_path("cloth.state");
    char args[1024];
    snprintf(
        args, sizeof args,
        "run " SCENE(
            "cloth_corners.scene") " --steps 40 --every 20 --out '%s' --format vtk,obj,png --state-out '%s' --quiet",
        dir, st);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    hk_run_free(&r);
    char path[512];
    snprintf(path, sizeof path, "%s/frame_000040.vtp", dir);
    vtp v = read_vtp(path);
    /* cloth_corners: 32 x 32 nodes, two triangles per cell, every spring a line */
    assert_int_equal(v.points, 1024);
    assert_int_equal(v.polys, 2 * 31 * 31);
    assert_int_equal(v.lines, 5826);
    for (long l = 0; l < v.lines; l++) assert_true(v.stretch[l] > 0.5 && v.stretch[l] < 1.5);
    for (long t = 0; t < v.polys; t++) assert_true(isnan(v.stretch[v.lines + t]));
    /* positions equal --state-out (which prints them with round-trip digits) */
    char *text = hk_test_slurp(st);
    assert_non_null(text);
    const char *line = strchr(strchr(text, '\n') + 1, '\n') + 1;
    for (long i = 0; i < v.points; i++) {
        long idx;
        double x, y, z;
        assert_int_equal(sscanf(line, "%ld %lf %lf %lf", &idx, &x, &y, &z), 4);
        assert_int_equal(idx, i);
        /* the state file's 17 digits round-trip the double positions exactly */
        if (v.pos[3 * i] != x || v.pos[3 * i + 1] != y || v.pos[3 * i + 2] != z) {
            print_error("point %ld: vtp (%.9g %.9g %.9g), state (%.9g %.9g %.9g)\n", i, v.pos[3 * i], v.pos[3 * i + 1],
                        v.pos[3 * i + 2], x, y, z);
            fail();
        }
        line = strchr(line, '\n') + 1;
    }
    free(text);
    vtp_free(&v);
    /* the collection lists the three frames in time order */
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *pvd = hk_test_slurp(path);
    assert_non_null(pvd);
    const char *a = strstr(pvd, "file=\"frame_000000.vtp\""), *b = strstr(pvd, "file=\"frame_000020.vtp\""),
               *c = strstr(pvd, "file=\"frame_000040.vtp\"");
    assert_true(a && b && c && a < b && b < c);
    assert_non_null(strstr(pvd, "<VTKFile type=\"Collection\""));
    free(pvd);
    /* OBJ: 1024 vertices and the same triangles as faces */
    snprintf(path, sizeof path, "%s/frame_000040.obj", dir);
    char *obj = hk_test_slurp(path);
    assert_non_null(obj);
    int verts = 0, faces = 0;
    for (const char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        verts += p[0] == 'v' && p[1] == ' ';
        faces += p[0] == 'f' && p[1] == ' ';
    }
    assert_int_equal(verts, 1024);
    assert_int_equal(faces, 2 * 31 * 31);
    assert_non_null(strstr(obj, "o body0_cloth\n"));
    free(obj);
    /* a rope writes lines in OBJ */
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 2 --every 2 --out '%s' --format obj --quiet", dir);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000002.obj", dir);
    obj = hk_test_slurp(path);
    assert_non_null(obj);
    int lines = 0;
    for (const char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) lines += p[0] == 'l' && p[1] == ' ';
    assert_int_equal(lines, 79);
    free(obj);
}

/* Decodes a PNG: width, height, RGB, and at least min_ink pixels differ from the top-left one. */
static void png_check(const char *path, int w, int h, int min_ink)
{
    hk_png p = hk_test_png_read(path);
    assert_int_equal(p.w, w);
    assert_int_equal(p.h, h);
    const int ink = hk_test_png_ink(&p);
    free(p.rgb);
    if (ink < min_ink) {
        print_error("%s: only %d pixels differ from the background\n", path, ink);
        fail();
    }
}

static void test_png_frame(void **state)
{
    (void)state;
    const char *dir = own_path("pngs");
    char args[512], path[512];
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 10 --every 10 --out '%s' --format png --quiet", dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frame_000010.png", dir);
    png_check(path, 640, 480, 20000);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --out x --format vtk,gif");
    assert_int_equal(r.status, 1);
    assert_non_null(
        strstr(r.err, "hooke: error: --format expects a comma-separated list of vtk, obj, png, got 'vtk,gif'"));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --format vtk");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --format needs --out DIR"));
    hk_run_free(&r);
}

static void test_blowup_report(void **state)
{
    (void)state;
    const char *dir = own_path("blowup");
    char args[512], path[512];
    /* omega = 10 rad/s, dt = 0.25 s: omega*dt = 2.5 > 2 */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --dt 0.25 --steps 200 --every 2 --out '%s' --quiet",
             dir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.out, " status=BLOWUP"));
    assert_non_null(strstr(r.err, "simulation blew up at step "));
    /* its energy passes 100 times its start (amplitude 10 times) long before the stretch limit (90 times) */
    assert_non_null(strstr(r.err, "energy runaway: the total energy grew to "));
    assert_non_null(strstr(r.err, "times its starting scale of 0.5 J (the limit is 100); nothing in the scene feeds "
                                  "it energy"));
    assert_non_null(strstr(r.err, "hooke: hint: omega*dt = 2.5 (omega_max = 10 rad/s from k and m, substep 0.25 s); "
                                  "semi_implicit_euler is stable only below omega*dt = 2"));
    const char *last = strstr(r.err, "hooke: last good frame: ");
    assert_non_null(last);
    long step;
    assert_int_equal(sscanf(strstr(last, "(step ") + 6, "%ld", &step), 1);
    snprintf(path, sizeof path, "%s/frame_%06ld.vtp", dir, step);
    vtp v = read_vtp(path);
    for (long i = 0; i < 3 * v.points; i++) assert_true(fabs(v.pos[i]) < 11);
    vtp_free(&v);
    hk_run_free(&r);
    /* a tighter limit from the command line, below the scene's initial stretch (1.1 m on 1 m): refused as input */
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --steps 10 --stretch-limit 1.05 --quiet");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "oscillator.scene:12: error: body 0 starts past the stretch limit: spring 0 of "
                                  "family main has r/L0 = 1.1, more than 1.05"));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --stretch-limit 1");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --stretch-limit expects a ratio > 1, got '1'"));
    hk_run_free(&r);
}

static void test_no_progress_without_terminal(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "run " SCENE("rope.scene") " --steps 30");
    assert_int_equal(r.status, 0);
    assert_null(strchr(r.err, '\r'));
    assert_null(strstr(r.err, "ETA"));
    assert_null(strstr(r.out, "ETA"));
    hk_run_free(&r);
}

/* A run stopped after a checkpoint and restarted into the same folder: frames.pvd lists every frame of the whole
 * run once, in order, exactly as an uninterrupted run's does (the times come from the earlier frames' TimeValue). */
static void test_pvd_after_restart(void **state)
{
    (void)state;
    const char *whole = own_path("pvd_whole"), *split = own_path("pvd_split"), *ck = own_path("pvd.ck");
    char args[1024], path[512];
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 50 --every 10 --out '%s' --quiet", whole);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    /* the first run gets past its last checkpoint (step 20) to step 30 before it stops */
    snprintf(
        args, sizeof args,
        "run " SCENE("rope.scene") " --steps 30 --every 10 --out '%s' --checkpoint '%s' --checkpoint-every 20 --quiet",
        split, ck);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 50 --every 10 --out '%s' --restart '%s' --quiet",
             split, ck);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    snprintf(path, sizeof path, "%s/frames.pvd", whole);
    char *a = hk_test_slurp(path);
    snprintf(path, sizeof path, "%s/frames.pvd", split);
    char *b = hk_test_slurp(path);
    assert_non_null(a);
    assert_non_null(b);
    const char *at = b;
    for (int step = 0; step <= 50; step += 10) {
        char name[64];
        snprintf(name, sizeof name, "file=\"frame_%06d.vtp\"", step);
        const char *p = strstr(at, name);
        if (!p) {
            print_error("frames.pvd after the restart lacks %s (or lists it out of order):\n%s\n", name, b);
            fail();
        }
        assert_null(strstr(p + 1, name)); /* once */
        at = p;
    }
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* omega*dt at the stability limit of `name` in the profiler's table. */
static double limit_of(const char *table, const char *name)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n%s ", name);
    const char *p = strstr(table, pat);
    assert_non_null(p);
    double dt, wdt;
    assert_int_equal(sscanf(p + strlen(pat), "%lf %lf", &dt, &wdt), 2);
    return wdt;
}

static void test_stability_oscillator(void **state)
{
    (void)state;
    const char *csv = own_path("stability.csv");
    char args[512];
    snprintf(args, sizeof args, "stability " SCENE("oscillator.scene") " --time 2 --out '%s'", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "omega_max = 10 rad/s"));
    const double sie = limit_of(r.out, "semi_implicit_euler"), verlet = limit_of(r.out, "verlet"),
                 vv = limit_of(r.out, "velocity_verlet"), rk4 = limit_of(r.out, "rk4");
    assert_true(fabs(sie / 2 - 1) < 0.02);
    assert_true(fabs(verlet / 2 - 1) < 0.02);
    assert_true(fabs(vv / 2 - 1) < 0.02);
    assert_true(fabs(rk4 / 2.828427 - 1) < 0.02);
    hk_run_free(&r);
    /* explicit Euler gains energy at every dt of the sweep */
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    int rows = 0;
    for (const char *p = strstr(text, "\neuler,sweep,"); p; p = strstr(p + 1, "\neuler,sweep,")) {
        double dt, wdt, drift;
        int stable;
        assert_int_equal(sscanf(p + 13, "%lf,%lf,%d,%lf", &dt, &wdt, &stable, &drift), 4);
        assert_true(!stable || drift > 0);
        rows++;
    }
    assert_int_equal(rows, 6);
    free(text);
    r = hk_test_hooke("", "stability " SCENE("oscillator.scene") " --integrators rk4,bogus");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "hooke: error: --integrators: unknown integrator 'bogus'"));
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vtp_matches_state_out), cmocka_unit_test(test_png_frame),
        cmocka_unit_test(test_blowup_report),         cmocka_unit_test(test_no_progress_without_terminal),
        cmocka_unit_test(test_stability_oscillator),  cmocka_unit_test(test_pvd_after_restart),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
