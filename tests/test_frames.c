/* test_frames.c — frame files read back strictly: compressed .vtp frames equal to --state-out, body ids, the
 * .pvd, the Blender OBJ and PC2 point cache, the per-frame OBJ, and all of them continued after a restart. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"
#include "hk_test_vtk.h"

#include <math.h>
#include <stdint.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"
#define REAL_TYPE (sizeof(hk_real) == 8 ? "Float64" : "Float32")

static void run_ok(const char *args)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0 || r.err[0]) {
        print_error("hooke %s: exit %d\n%s", args, r.status, r.err);
        fail();
    }
    hk_run_free(&r);
}

/* ---- the state file: the exact bits of every particle's values ---------- */

typedef struct state {
    int n;
    double *v; /* 7 per particle: x y z [m] (double in every build), vx vy vz inv_mass (hk_real values) */
} state;

static hk_real parse_real(const char *s, char **end) { return sizeof(hk_real) == 8 ? strtod(s, end) : strtof(s, end); }

static state read_state(const char *path)
{
    char *text = hk_test_slurp(path);
    assert_non_null(text);
    state st = {0, NULL};
    const char *h = strstr(text, "particles=");
    assert_non_null(h);
    st.n = atoi(h + 10);
    st.v = malloc(7 * (size_t)st.n * sizeof *st.v + 1);
    assert_non_null(st.v);
    char *p = strchr(strchr(text, '\n') + 1, '\n') + 1;
    for (int i = 0; i < st.n; i++) {
        assert_int_equal(strtol(p, &p, 10), i);
        for (int k = 0; k < 7; k++) st.v[7 * i + k] = k < 3 ? strtod(p, &p) : (double)parse_real(p, &p);
        assert_int_equal(*p, '\n');
        p++;
    }
    free(text);
    return st;
}

/* The array's value i has exactly the bits of x (the build's floating type). */
static int same_bits(const hk_vtk_arr *a, int64_t i, hk_real x)
{
    assert_string_equal(a->type, REAL_TYPE);
    return memcmp(a->data + sizeof(hk_real) * (size_t)i, &x, sizeof x) == 0;
}

/* The same for a position: Float64 in every build. */
static int same_pos(const hk_vtk_arr *a, int64_t i, double x)
{
    assert_string_equal(a->type, "Float64");
    return memcmp(a->data + sizeof(double) * (size_t)i, &x, sizeof x) == 0;
}

/* ---- frames equal --state-out ------------------------------------------- */

/* Both blocks of a frame hold every particle, bit for bit as --state-out writes it; springs are lines with their
 * stretch, triangles carry the largest stretch of the springs at their corners (never NaN). */
static void test_frame_matches_state_out(void **state_)
{
    (void)state_;
    const char *dir = hk_test_own_path("frames"), *stf = hk_test_own_path("cloth.state");
    char args[1024], path[512];
    snprintf(args, sizeof args,
             "run " SCENE("cloth_corners.scene") " --steps 40 --every 20 --out '%s' --state-out '%s' --quiet", dir,
             stf);
    run_ok(args);
    const state st = read_state(stf);
    assert_int_equal(st.n, 1024);
    snprintf(path, sizeof path, "%s/frame_000040.vtp", dir);
    hk_vtp b = hk_vtp_read(path);
    /* cloth_corners: 32 x 32 nodes, each stored once; every spring a line, two triangles per cell */
    assert_int_equal(b.points, 1024);
    assert_int_equal(b.lines, 5826);
    assert_int_equal(b.polys, 2 * 31 * 31);
    {
        const int k = 0;
        assert_true(fabs(b.time - 40 * 2.5e-4) < 1e-15);
        const hk_vtk_arr *pts = hk_vtp_get(&b, "Points", "Points"), *vel = hk_vtp_get(&b, "PointData", "velocity"),
                         *im = hk_vtp_get(&b, "PointData", "inv_mass");
        assert_int_equal(pts->components, 3);
        assert_int_equal(vel->components, 3);
        for (int i = 0; i < st.n; i++) {
            for (int c = 0; c < 3; c++)
                if (!same_pos(pts, 3 * i + c, st.v[7 * i + c]) ||
                    !same_bits(vel, 3 * i + c, (hk_real)st.v[7 * i + 3 + c])) {
                    print_error("frame %d, particle %d, component %d: (%.9g, %.9g) in the frame, (%.9g, %.9g) in "
                                "the state\n",
                                k, i, c, hk_vtk_real(pts, 3 * i + c), hk_vtk_real(vel, 3 * i + c),
                                (double)st.v[7 * i + c], (double)st.v[7 * i + 3 + c]);
                    fail();
                }
            assert_true(same_bits(im, i, (hk_real)st.v[7 * i + 6]));
        }
    }
    /* springs, the first cells: connectivity in range, offsets 2, 4, ..., stretch near 1 */
    const hk_vtk_arr *conn = hk_vtp_get(&b, "Lines", "connectivity"), *off = hk_vtp_get(&b, "Lines", "offsets"),
                     *ls = hk_vtp_get(&b, "CellData", "stretch");
    assert_int_equal(ls->values, b.lines + b.polys);
    double *at = malloc(1024 * sizeof *at);
    assert_non_null(at);
    for (int i = 0; i < 1024; i++) at[i] = -INFINITY;
    for (int64_t l = 0; l < b.lines; l++) {
        assert_int_equal(hk_vtk_int(off, l), 2 * (l + 1));
        const double s = hk_vtk_real(ls, l);
        assert_true(s > 0.5 && s < 1.5);
        for (int e = 0; e < 2; e++) {
            const int64_t p = hk_vtk_int(conn, 2 * l + e);
            assert_true(p >= 0 && p < 1024);
            at[p] = s > at[p] ? s : at[p];
        }
    }
    /* triangles, the cells after the lines: offsets 3, 6, ...; stretch = the largest of the springs at the
     * corners */
    conn = hk_vtp_get(&b, "Polys", "connectivity");
    off = hk_vtp_get(&b, "Polys", "offsets");
    const hk_vtk_arr *ts = ls;
    assert_string_equal(ts->type, "Float64");
    for (int64_t t = 0; t < b.polys; t++) {
        assert_int_equal(hk_vtk_int(off, t), 3 * (t + 1));
        double want = -INFINITY;
        for (int c = 0; c < 3; c++) {
            const int64_t p = hk_vtk_int(conn, 3 * t + c);
            assert_true(p >= 0 && p < 1024);
            want = at[p] > want ? at[p] : want;
        }
        assert_false(isnan(hk_vtk_real(ts, b.lines + t)));
        assert_true(hk_vtk_real(ts, b.lines + t) == want);
    }
    free(at);
    hk_vtp_free(&b);
    free(st.v);
    /* the collection: well-formed, the three frames in time order, each a whole .vtp */
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    size_t n;
    char *pvd = hk_vtk_read_all(path, &n);
    hk_vtk_check_xml(pvd, n);
    assert_non_null(strstr(pvd, "<VTKFile type=\"Collection\" version=\"1.0\""));
    const char *at_entry = pvd;
    for (int step = 0; step <= 40; step += 20) {
        char name[64];
        snprintf(name, sizeof name, "file=\"frame_%06d.vtp\"", step);
        const char *e = strstr(at_entry, name);
        assert_non_null(e);
        at_entry = e;
        const char *ds = e;
        while (ds > pvd && strncmp(ds, "<DataSet ", 9) != 0) ds--;
        char val[64];
        assert_int_equal(hk_vtk_attr(ds, "timestep", val, sizeof val), 0);
        snprintf(path, sizeof path, "%s/frame_%06d.vtp", dir, step);
        hk_vtp v = hk_vtp_read(path);
        assert_true(strtod(val, NULL) == v.time);
        hk_vtp_free(&v);
    }
    free(pvd);
}

/* ---- body ids ------------------------------------------------------------ */

/* Bodies 0 cloth 4 x 3 (12 particles, 29 springs, 12 triangles), 1 rope of 5 (4 springs), 2 jelly 3 x 3 x 3 (27,
 * 158 springs, 48 triangles; one interior node), 3 points (2 particles, no springs). */
static const int first_of[5] = {0, 12, 17, 44, 46};

static const char *four_bodies(void)
{
    const char *sc = hk_test_own_path("four.scene");
    hk_test_write(sc,
                  "world\n gravity 0 -9.81 0\nend\n"
                  "body cloth\n nx 4\n ny 3\n spacing 0.1\n mass 0.01\n pins two_corners\n"
                  " springs structural k 100\n springs shear k 100\nend\n"
                  "body rope\n count 5\n mass 0.01\n spacing 0.1\n origin 0 1 0\n pin 0\n springs chain k 100\nend\n"
                  "body jelly\n nx 3\n ny 3\n nz 3\n spacing 0.1\n origin 1 1 1\n mass 0.01\n springs all k 100\nend\n"
                  "body points\n point 2 2 2 0.01\n point 2.5 2 2 0.01\nend\n"
                  "run\n dt 1e-3\n steps 10\nend\n");
    return sc;
}

static int body_of(int64_t particle)
{
    int b = 0;
    while (particle >= first_of[b + 1]) b++;
    return b;
}

/* Runs the four bodies for 10 steps, frames every 5 in every format but png, into DIR (and the state). */
static void run_four(const char *dir, const char *stf)
{
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --every 5 --out '%s' --format vtk,obj,blender --state-out '%s' --quiet",
             four_bodies(), dir, stf);
    run_ok(args);
}

static void test_body_ids(void **state_)
{
    (void)state_;
    const char *dir = hk_test_own_path("four"), *stf = hk_test_own_path("four.state");
    run_four(dir, stf);
    char path[512];
    snprintf(path, sizeof path, "%s/frame_000010.vtp", dir);
    hk_vtp v = hk_vtp_read(path);
    const int lines_per_body[4] = {29, 4, 158, 0}, tris_per_body[4] = {12, 0, 48, 0};
    assert_int_equal(v.points, 46);
    const hk_vtk_arr *pb = hk_vtp_get(&v, "PointData", "body_id"), *cb = hk_vtp_get(&v, "CellData", "body_id");
    assert_string_equal(pb->type, "Int32");
    assert_string_equal(cb->type, "Int32");
    assert_int_equal(cb->values, v.lines + v.polys);
    for (int i = 0; i < 46; i++) assert_int_equal(hk_vtk_int(pb, i), body_of(i));
    for (int k = 0; k < 2; k++) { /* the lines, then the triangles */
        const hk_vtk_arr *conn = hk_vtp_get(&v, k ? "Polys" : "Lines", "connectivity");
        int per_body[4] = {0, 0, 0, 0};
        const int corners = k ? 3 : 2;
        const int64_t cells = k ? v.polys : v.lines, first = k ? v.lines : 0;
        for (int64_t c = 0; c < cells; c++) {
            const int64_t body = hk_vtk_int(cb, first + c);
            assert_true(body >= 0 && body < 4);
            per_body[body]++;
            for (int e = 0; e < corners; e++) assert_int_equal(body_of(hk_vtk_int(conn, corners * c + e)), body);
        }
        for (int i = 0; i < 4; i++) assert_int_equal(per_body[i], k ? tris_per_body[i] : lines_per_body[i]);
    }
    hk_vtp_free(&v);
}

/* ---- the Blender files ---------------------------------------------------- */

static uint32_t u32_at(const unsigned char *p)
{
    return (uint32_t)p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static float f32_at(const unsigned char *p)
{
    const uint32_t u = u32_at(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A PC2 reader: the header checked, the samples returned (3 floats per point per sample). */
static float *read_pc2(const char *path, int points, int *samples)
{
    size_t n;
    unsigned char *d = (unsigned char *)hk_vtk_read_all(path, &n);
    assert_true(n >= 32);
    assert_memory_equal(d, "POINTCACHE2\0", 12);
    assert_int_equal(u32_at(d + 12), 1);
    assert_int_equal(u32_at(d + 16), (uint32_t)points);
    assert_true(f32_at(d + 20) == 0.0f); /* start frame */
    assert_true(f32_at(d + 24) == 1.0f); /* sample rate */
    *samples = (int)u32_at(d + 28);
    assert_true(*samples >= 1);
    assert_int_equal(n, 32 + (size_t)*samples * (size_t)points * 12);
    float *s = malloc((size_t)*samples * (size_t)points * 12);
    assert_non_null(s);
    for (size_t i = 0; i < (size_t)*samples * (size_t)points * 3; i++) s[i] = f32_at(d + 32 + 4 * i);
    free(d);
    return s;
}

/* Every sample of the cache is its frame's positions (those of the .vtp of the step its index row names), the
 * header counts the frames written, and the last sample is --state-out's. */
static void test_pc2_point_cache(void **state_)
{
    (void)state_;
    const char *dir = hk_test_own_path("four_pc2"), *stf = hk_test_own_path("four_pc2.state");
    run_four(dir, stf);
    char path[512];
    snprintf(path, sizeof path, "%s/frames.pc2", dir);
    int samples;
    float *s = read_pc2(path, 46, &samples);
    assert_int_equal(samples, 3); /* steps 0, 5, 10 */
    snprintf(path, sizeof path, "%s/frames_pc2.csv", dir);
    char *csv = hk_test_slurp(path);
    assert_non_null(csv);
    assert_int_equal(strncmp(csv, "sample,step,time\n", 17), 0);
    const char *row = csv + 17;
    for (int k = 0; k < samples; k++) {
        int sample, step;
        double t;
        assert_int_equal(sscanf(row, "%d,%d,%lf", &sample, &step, &t), 3);
        assert_int_equal(sample, k);
        assert_int_equal(step, 5 * k);
        row = strchr(row, '\n') + 1;
        snprintf(path, sizeof path, "%s/frame_%06d.vtp", dir, step);
        hk_vtp v = hk_vtp_read(path);
        assert_true(v.time == t);
        const hk_vtk_arr *pts = hk_vtp_get(&v, "Points", "Points");
        for (int i = 0; i < 3 * 46; i++) assert_true(s[(size_t)k * 46 * 3 + (size_t)i] == (float)hk_vtk_real(pts, i));
        hk_vtp_free(&v);
    }
    assert_int_equal(*row, '\0');
    const state st = read_state(stf);
    for (int i = 0; i < 46; i++)
        for (int c = 0; c < 3; c++) assert_true(s[2 * 46 * 3 + 3 * i + c] == (float)st.v[7 * i + c]);
    free(st.v);
    free(csv);
    free(s);
}

/* Counts the lines of text that start with `word` and a space. */
static int count_lines(const char *text, const char *word)
{
    int n = 0;
    const size_t k = strlen(word);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, word, k) == 0 && p[k] == ' ';
    return n;
}

/* frames.obj: one object, the 46 vertices of the first frame, one vt per cloth node, cloth faces referencing their
 * nodes' vt, other faces without, every vertex used by a face or an edge (Blender's importer keeps only those),
 * each edge once with two vertices. */
static void test_blender_obj(void **state_)
{
    (void)state_;
    const char *dir = hk_test_own_path("four_obj"), *stf = hk_test_own_path("four_obj.state");
    run_four(dir, stf);
    char path[512];
    snprintf(path, sizeof path, "%s/frames.obj", dir);
    char *obj = hk_test_slurp(path);
    assert_non_null(obj);
    assert_int_equal(count_lines(obj, "o"), 1);
    assert_non_null(strstr(obj, "\no hooke\n"));
    assert_int_equal(count_lines(obj, "v"), 46);
    assert_int_equal(count_lines(obj, "vt"), 12);
    assert_int_equal(count_lines(obj, "f"), 12 + 48);
    int used[47] = {0}, vt = 0, edges = 0;
    static char seen[47][47];
    memset(seen, 0, sizeof seen);
    for (const char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "vt ", 3) == 0) { /* node (i, j) of the 4 x 3 cloth */
            double u, v;
            assert_int_equal(sscanf(p + 3, "%lf %lf", &u, &v), 2);
            assert_true(fabs(u - (vt % 4) / 3.0) < 1e-9 && fabs(v - (vt / 4) / 2.0) < 1e-9); /* 9 digits */
            vt++;
        } else if (strncmp(p, "f ", 2) == 0) {
            int a[3], t[3];
            if (sscanf(p + 2, "%d/%d %d/%d %d/%d", a, t, a + 1, t + 1, a + 2, t + 2) == 6) {
                for (int c = 0; c < 3; c++) {
                    assert_true(a[c] >= 1 && a[c] <= 12); /* cloth: vt k is node k */
                    assert_int_equal(t[c], a[c]);
                }
            } else {
                assert_int_equal(sscanf(p + 2, "%d %d %d", a, a + 1, a + 2), 3);
                assert_null(memchr(p, '/', strcspn(p, "\n")));
                for (int c = 0; c < 3; c++) assert_true(a[c] >= 18 && a[c] <= 44); /* the jelly */
            }
            for (int c = 0; c < 3; c++) used[a[c]] = 1;
        } else if (strncmp(p, "l ", 2) == 0) {
            int a, b, end = 0;
            assert_int_equal(sscanf(p + 2, "%d %d%n", &a, &b, &end), 2);
            assert_true(p[2 + end] == '\n'); /* two vertices per edge */
            assert_true(a >= 1 && a <= 46 && b >= 1 && b <= 46 && a != b);
            const int lo = a < b ? a : b, hi = a < b ? b : a;
            assert_int_equal(seen[lo][hi], 0);
            seen[lo][hi] = 1;
            used[a] = used[b] = 1;
            edges++;
        }
    }
    for (int i = 1; i <= 46; i++)
        if (!used[i]) fail_msg("vertex %d is used by no face or edge", i);
    /* the rope's 4 springs, the jelly's interior node by one of its springs, the two free points */
    assert_int_equal(edges, 4 + 1 + 2);
    free(obj);
    /* the per-frame OBJ: an object per body, the cloth with UVs, the rope's springs as edges */
    snprintf(path, sizeof path, "%s/frame_000010.obj", dir);
    obj = hk_test_slurp(path);
    assert_non_null(obj);
    assert_int_equal(count_lines(obj, "v"), 46);
    assert_int_equal(count_lines(obj, "vt"), 12);
    assert_int_equal(count_lines(obj, "f"), 12 + 48);
    assert_int_equal(count_lines(obj, "l"), 4);
    assert_non_null(strstr(obj, "\no body0_cloth\nf 1/1 2/2 5/5\n"));
    assert_non_null(strstr(obj, "\no body1_rope\nl 13 14\n"));
    assert_non_null(strstr(obj, "\no body2_jelly\nf "));
    assert_non_null(strstr(obj, "\no body3_points\n"));
    free(obj);
    /* a shipped rope of 80 particles: 79 edges */
    snprintf(path, sizeof path, "run " SCENE("rope.scene") " --steps 2 --every 2 --out '%s' --format obj --quiet", dir);
    run_ok(path);
    snprintf(path, sizeof path, "%s/frame_000002.obj", dir);
    obj = hk_test_slurp(path);
    assert_non_null(obj);
    assert_int_equal(count_lines(obj, "l"), 79);
    free(obj);
}

/* ---- restart ----------------------------------------------------------------- */

static char *slurp_in(const char *dir, const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return hk_vtk_read_all(path, n);
}

/* A run stopped after a checkpoint and restarted into the same folder: frames.pvd lists every frame of the whole
 * run once, in order, and it, the point cache, its index and the OBJ equal an uninterrupted run's byte for byte
 * (the times come from the earlier frames' TimeValue and the index). */
static void test_frames_after_restart(void **state)
{
    (void)state;
    const char *whole = hk_test_own_path("pvd_whole"), *split = hk_test_own_path("pvd_split"),
               *ck = hk_test_own_path("pvd.ck");
    char args[1024];
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 50 --every 10 --out '%s' --format vtk,blender --quiet", whole);
    run_ok(args);
    /* the first run gets past its last checkpoint (step 20) to step 30 before it stops */
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 30 --every 10 --out '%s' --format vtk,blender --checkpoint '%s' "
                                        "--checkpoint-every 20 --quiet",
             split, ck);
    run_ok(args);
    int samples;
    char path[512];
    snprintf(path, sizeof path, "%s/frames.pc2", split);
    free(read_pc2(path, 80, &samples));
    assert_int_equal(samples, 4);
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 50 --every 10 --out '%s' --format vtk,blender --restart '%s' --quiet",
             split, ck);
    run_ok(args);
    size_t na, nb;
    char *b = slurp_in(split, "frames.pvd", &nb);
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
    free(b);
    snprintf(path, sizeof path, "%s/frames.pc2", split);
    free(read_pc2(path, 80, &samples));
    assert_int_equal(samples, 6);
    static const char *const same[] = {"frames.pvd", "frames.pc2", "frames_pc2.csv", "frames.obj"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char *a = slurp_in(whole, same[i], &na);
        b = slurp_in(split, same[i], &nb);
        if (na != nb || memcmp(a, b, na) != 0) {
            print_error("%s after the restart differs from the uninterrupted run's\n", same[i]);
            fail();
        }
        free(a);
        free(b);
    }
}

/* A frame file that cannot be written stops the run with status 3 and a message naming that file. */
static void test_frame_write_errors(void **state)
{
    (void)state;
    const char *dir = hk_test_own_path("unwritable");
    char args[1024], path[512];
    assert_int_equal(mkdir(dir, 0755), 0);
    static const char *const blocked[] = {"frames.obj", "frame_000000.vtp", "frames_pc2.csv"};
    for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
        /* a folder where the file (or its NAME.tmp) would go */
        snprintf(path, sizeof path, "%s/%s%s", dir, blocked[i], i == 1 ? ".tmp" : "");
        assert_int_equal(mkdir(path, 0755), 0);
        if (i == 2) {
            snprintf(path, sizeof path, "%s/%s.tmp", dir, blocked[i]);
            assert_int_equal(mkdir(path, 0755), 0);
        }
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 2 --out '%s' --format vtk,blender --quiet",
                 dir);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 3);
        char want[600];
        snprintf(want, sizeof want, "hooke: error: cannot write %s/%s: ", dir, blocked[i]);
        if (!strstr(r.err, want)) {
            print_error("expected '%s' in:\n%s\n", want, r.err);
            fail();
        }
        hk_run_free(&r);
        snprintf(args, sizeof args, "rm -rf '%s'/*", dir);
        assert_int_equal(system(args), 0);
    }
}

/* Where springs can break, the Blender files follow the tear: frames.obj gives every first-frame triangle its own
 * three vertices ("#t a b c" names its particles), and in each PC2 sample a triangle the frame still has sits on
 * its particles (those of the frame's .vtp) while one that is gone has its three vertices at its centre. Torn
 * curtain, 3 simulated seconds: the last frame has lost triangles, and exactly those collapse. A restart from a
 * checkpoint continues the same split cache. */
static void test_blender_follows_a_tear(void **state_)
{
    (void)state_;
    const char *dir = hk_test_own_path("tear"), *ck = hk_test_own_path("tear.ckp");
    char args[1024], path[512];
    snprintf(args, sizeof args,
             "run " SCENE("tearing_cloth.scene") " --steps 2000 --every 1000 --out '%s' --format vtk,blender "
             "--checkpoint '%s' --checkpoint-every 2000 --quiet",
             dir, ck);
    run_ok(args);
    snprintf(args, sizeof args,
             "run " SCENE("tearing_cloth.scene") " --steps 3000 --every 1000 --out '%s' --format vtk,blender "
             "--restart '%s' --quiet",
             dir, ck);
    run_ok(args);
    snprintf(path, sizeof path, "%s/frames.obj", dir);
    char *obj = hk_test_slurp(path);
    assert_non_null(obj);
    const int tris = count_lines(obj, "#t");
    assert_int_equal(count_lines(obj, "f"), tris);
    assert_int_equal(count_lines(obj, "v"), 3 * tris); /* no edges: the curtain is all surface */
    int *tri = malloc((size_t)tris * 3 * sizeof *tri);
    assert_non_null(tri);
    int t = 0;
    for (const char *p = obj; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, "#t ", 3) == 0) {
            assert_int_equal(sscanf(p + 3, "%d %d %d", &tri[3 * t], &tri[3 * t + 1], &tri[3 * t + 2]), 3);
            t++;
        }
    free(obj);
    int samples;
    snprintf(path, sizeof path, "%s/frames.pc2", dir);
    float *s = read_pc2(path, 3 * tris, &samples);
    assert_int_equal(samples, 4); /* steps 0, 1000, 2000 (before the restart), 3000 */
    for (int k = 0; k < samples; k++) {
        snprintf(path, sizeof path, "%s/frame_%06d.vtp", dir, 1000 * k);
        hk_vtp v = hk_vtp_read(path);
        const hk_vtk_arr *pts = hk_vtp_get(&v, "Points", "Points");
        const float *at = s + (size_t)k * 9 * (size_t)tris;
        int collapsed = 0;
        for (int i = 0; i < tris; i++) {
            const float *c = at + 9 * i;
            const int gone = c[0] == c[3] && c[3] == c[6] && c[1] == c[4] && c[4] == c[7] && c[2] == c[5] && c[5] == c[8];
            collapsed += gone;
            if (gone) continue;
            for (int e = 0; e < 3; e++)
                for (int d = 0; d < 3; d++) assert_true(c[3 * e + d] == (float)hk_vtk_real(pts, 3 * tri[3 * i + e] + d));
        }
        if (collapsed != tris - v.polys) {
            print_error("frame %d: %d collapsed triangles, the .vtp has %lld of %d\n", 1000 * k, collapsed,
                        (long long)v.polys, tris);
            fail();
        }
        if (k == samples - 1) assert_true(collapsed > 0); /* the curtain has torn */
        if (k == 0) assert_int_equal(collapsed, 0);
        hk_vtp_free(&v);
    }
    free(s);
    free(tri);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_matches_state_out), cmocka_unit_test(test_body_ids),
        cmocka_unit_test(test_pc2_point_cache),         cmocka_unit_test(test_blender_obj),
        cmocka_unit_test(test_frames_after_restart),    cmocka_unit_test(test_frame_write_errors),
        cmocka_unit_test(test_blender_follows_a_tear),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
