/* test_restart.c — restart semantics: the run's end, this process's rate, continued stats, and checkpoints refused. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include <stdint.h>
#include <sys/stat.h>

#define SCENE(name) HOOKE_SCENES_DIR "/" name

static double num_field(const char *out, const char *key)
{
    const char *v = hk_test_field(out, key);
    if (!v) {
        print_error("no %s= in: %s\n", key, out);
        fail();
    }
    return strtod(v, NULL);
}

static hk_run run_ok(const char *args)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0) {
        print_error("hooke %s\nexit %d\nstdout: %s\nstderr: %s\n", args, r.status, r.out, r.err);
        fail();
    }
    return r;
}

/* The user guide's restart: a checkpoint at the run's end restarts to
 * nothing (exit 4, said plainly); an end before the checkpoint too; a later
 * end continues, bit-for-bit, and the summary separates this process's
 * steps from the run's and takes its rate from this process's steps only. */
static void test_run_end_and_rate(void **state)
{
    (void)state;
    char args[1024];
    const char *ck = hk_test_own_path("end.ck");
    snprintf(args, sizeof args, "run " SCENE("tearing_cloth.scene") " --checkpoint '%s' --checkpoint-every 500 --quiet",
             ck);
    hk_run whole = run_ok(args);
    assert_int_equal((int)num_field(whole.out, "steps"), 3000);
    assert_int_equal((int)num_field(whole.out, "steps_run"), 3000);

    snprintf(args, sizeof args, "run " SCENE("tearing_cloth.scene") " --restart '%s'", ck);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 4);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "tearing_cloth.scene: the checkpoint "));
    assert_non_null(strstr(r.err, " is at step 3000, which is the run's end (step 3000): nothing to run"));
    hk_run_free(&r);

    const char *part = hk_test_own_path("part.ck");
    snprintf(args, sizeof args,
             "run " SCENE("tearing_cloth.scene") " --steps 1000 --checkpoint '%s' --checkpoint-every 1000 --quiet",
             part);
    hk_run first = run_ok(args);
    hk_run_free(&first);
    snprintf(args, sizeof args, "run " SCENE("tearing_cloth.scene") " --restart '%s' --steps 500", part);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 4);
    assert_non_null(strstr(r.err, " is at step 1000, past the run's end (step 500): nothing to run"));
    hk_run_free(&r);

    snprintf(args, sizeof args, "run " SCENE("tearing_cloth.scene") " --restart '%s' --steps 3000 --quiet", part);
    r = run_ok(args);
    assert_int_equal((int)num_field(r.out, "steps"), 3000);
    assert_int_equal((int)num_field(r.out, "steps_run"), 2000);
    assert_int_equal((int)num_field(r.out, "restarted_at"), 1000);
    assert_memory_equal(hk_test_field(r.out, "state_hash"), hk_test_field(whole.out, "state_hash"), 18);
    /* the rate is this process's: updates of 2000 steps over its wall time less the outputs' (one force pass per
     * step, no substeps; broken springs are not updated, so at most springs x 2000) */
    const double rate = num_field(r.out, "spring_updates_per_s"),
                 wall = num_field(r.out, "wall_s") - num_field(r.out, "output_s");
    const double springs = num_field(r.out, "springs");
    assert_true(rate * wall <= springs * 2000 * 1.0001);
    assert_true(rate * wall >= springs * 2000 * 0.5);
    hk_run_free(&r);
    hk_run_free(&whole);
}

/* Counts the data rows of a stats CSV and checks their steps rise strictly. */
static int stats_rows(const char *path, long long *last)
{
    char *text = hk_test_slurp(path);
    assert_non_null(text);
    int rows = 0;
    long long prev = -1;
    for (char *line = strchr(text, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        const long long step = strtoll(line + 1, NULL, 10);
        if (step <= prev) {
            print_error("%s: step %lld after %lld\n", path, step, prev);
            fail();
        }
        prev = step;
        rows++;
    }
    free(text);
    *last = prev;
    return rows;
}

/* The rope's stats every 10 steps: to step 200 uninterrupted into whole, and into split by a run that checkpoints at
 * step 100 into ck and goes on to write rows to 150 (the rows a restart from ck replaces). */
static void stats_runs(const char *whole, const char *split, const char *ck)
{
    char args[1024];
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 200 --every 10 --stats '%s' --quiet", whole);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 150 --every 10 --stats '%s' --checkpoint '%s' --checkpoint-every 100 "
                                        "--quiet",
             split, ck);
    r = run_ok(args);
    hk_run_free(&r);
}

/* A restart with --stats continues the file: the rows up to the checkpoint
 * stay, the rows the interrupted run wrote after it are replaced, and the
 * file equals the one an uninterrupted run writes. A file of another
 * scene's columns is refused, not overwritten. */
static void test_stats_continue(void **state)
{
    (void)state;
    char args[1024];
    const char *whole = hk_test_own_path("whole.csv"), *split = hk_test_own_path("split.csv"),
               *ck = hk_test_own_path("st.ck");
    stats_runs(whole, split, ck);
    hk_run r;
    long long last;
    assert_int_equal(stats_rows(split, &last), 16);
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 200 --every 10 --stats '%s' --restart '%s' --quiet", split, ck);
    r = run_ok(args);
    hk_run_free(&r);
    assert_int_equal(stats_rows(split, &last), 21);
    assert_int_equal((int)last, 200);
    char *a = hk_test_slurp(whole), *b = hk_test_slurp(split);
    assert_string_equal(a, b);
    free(a);
    free(b);
    /* the stats of another scene are not this run's */
    const char *other = hk_test_own_path("other.csv");
    hk_test_write(
        other, "step,time,kinetic,gravity,spring,total,max_stretch,broken,volume_0,pressure_0\n0,0,0,0,0,0,1,0,1,1\n");
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 200 --stats '%s' --restart '%s'", other, ck);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "other.csv:1: error: its columns are not this run's"));
    hk_run_free(&r);
    a = hk_test_slurp(other);
    assert_non_null(strstr(a, "volume_0"));
    free(a);
}

/* Writes the first len bytes of text to path. */
static void write_cut(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A run stopped while it wrote a stats row (a full disk, a kill) leaves that row cut short, without its newline.
 * A restart drops it with a warning naming the file and line when it lies past the checkpoint (its step says so,
 * or the row before it is the checkpoint's), and the file ends up as an uninterrupted run's; a cut row that may be
 * of a step up to the checkpoint's lost rows the continued file needs, and the file is refused. */
static void test_stats_cut_row(void **state)
{
    (void)state;
    char args[1024];
    const char *whole = hk_test_own_path("cut_whole.csv"), *split = hk_test_own_path("cut.csv"),
               *ck = hk_test_own_path("cut.ck");
    stats_runs(whole, split, ck);
    hk_run r;
    char *run = hk_test_slurp(split), *want = hk_test_slurp(whole);
    assert_non_null(run);
    /* the header (line 1), the rows of steps 0, 10, ... (lines 2, 3, ...), and a row cut short */
    const char *row150 = strstr(run, "\n150,");
    assert_non_null(row150);
    const size_t rows_to_140 = (size_t)(row150 - run) + 1;
    static const struct {
        const char *cut; /* what is left of the last row */
        size_t keep;     /* the whole rows before it: to step 140 (0), to 100 (1), to 90 (2) */
        int status;
        const char *msg; /* on stderr after the file's name; NULL: no message (the rows past 100 are replaced) */
    } cases[] = {
        {"150,2.5", 0, 0, NULL}, /* past the checkpoint, with the rows of 110..140 */
        {"15", 0, 0, NULL},
        {"110,1.8", 1, 0, ":13: the last row is cut short (no newline at its end"}, /* its step is past 100 */
        {"11", 1, 0, ":13: the last row is cut short (no newline at its end"},      /* after the checkpoint's own row */
        {"100,1.6", 2, 1,
         ":12: error: the last row is cut short (no newline at its end) and may be of a step up to "
         "the checkpoint's (100)"},
        {"10", 2, 1, ":12: error: the last row is cut short"}, /* after step 90: the row of 100 may be lost */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t keep = rows_to_140;
        if (cases[i].keep) {
            const char *at = strstr(run, cases[i].keep == 1 ? "\n110," : "\n100,");
            assert_non_null(at);
            keep = (size_t)(at - run) + 1;
        }
        char *text = malloc(keep + 16);
        assert_non_null(text);
        memcpy(text, run, keep);
        memcpy(text + keep, cases[i].cut, strlen(cases[i].cut) + 1);
        write_cut(split, text, strlen(text));
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 200 --every 10 --stats '%s' --restart '%s'",
                 split, ck);
        r = hk_test_hooke("", args);
        char msg[512];
        snprintf(msg, sizeof msg, "%s%s", split, cases[i].msg ? cases[i].msg : "");
        if (r.status != cases[i].status || (cases[i].msg ? !strstr(r.err, msg) : strstr(r.err, "cut") != NULL)) {
            print_error("cut '%s': exit %d, stderr: %s\nexpected exit %d and '%s'\n", cases[i].cut, r.status, r.err,
                        cases[i].status, msg);
            fail();
        }
        char *got = hk_test_slurp(split);
        if (cases[i].status == 0) {
            if (cases[i].msg) assert_non_null(strstr(r.err, "hooke: warning: "));
            assert_string_equal(got, want); /* the rows to step 100 kept, the rest as an uninterrupted run's */
        } else {
            assert_string_equal(got, text); /* refused: left as it was */
        }
        free(got);
        free(text);
        hk_run_free(&r);
    }
    free(run);
    free(want);
}

/* A restarted run's outputs are the uninterrupted run's, byte for byte, with every frame format and the stats, on a
 * scene whose cloth folds onto itself (contact pairs touch from step 60): from a checkpoint on the --every grid (step
 * 70; the interrupted run went on to 75, and the frame at 70 lists the contacts of that state), and from one off it
 * (a run that ended at step 75 with --checkpoint-on-exit, writing a frame, a pvd entry, a PC2 sample and rows there
 * that the uninterrupted run has not). */
static void test_outputs_equal_uninterrupted(void **state)
{
    (void)state;
    char args[1024];
    const char *common = "--every 10 --format vtk,obj,png,blender --quiet";
    const char *whole = hk_test_own_path("fold_whole"), *whole_csv = hk_test_own_path("fold_whole.csv");
    snprintf(args, sizeof args, "run " SCENE("cloth_fold.scene") " --steps 80 --out '%s' --stats '%s' %s", whole,
             whole_csv, common);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    const struct {
        const char *name, *first; /* the interrupted run's options */
    } cases[] = {
        {"fold_on", "--steps 75 --checkpoint-every 70"},
        {"fold_off", "--steps 75 --checkpoint-on-exit"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char dir[256], csv[300], ck[300];
        snprintf(dir, sizeof dir, "%s", hk_test_own_path(cases[i].name));
        snprintf(csv, sizeof csv, "%s.csv", dir);
        snprintf(ck, sizeof ck, "%s.ck", dir);
        snprintf(args, sizeof args, "run " SCENE("cloth_fold.scene") " %s --checkpoint '%s' --out '%s' --stats '%s' %s",
                 cases[i].first, ck, dir, csv, common);
        r = run_ok(args);
        hk_run_free(&r);
        snprintf(args, sizeof args,
                 "run " SCENE("cloth_fold.scene") " --steps 80 --restart '%s' --out '%s' --stats '%s' %s", ck, dir, csv,
                 common);
        r = run_ok(args);
        hk_run_free(&r);
        print_message("%s: %d files\n", cases[i].name, hk_test_same_folder(whole, dir));
        if (!hk_test_same_bytes(whole_csv, csv)) {
            print_error("%s differs from %s\n", csv, whole_csv);
            fail();
        }
    }
}

/* FNV-1a over n bytes (the checkpoint trailer). */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Byte offsets in a checkpoint (docs/checkpoint-format.md). */
enum {
    CK_DT = 64 + 4,
    CK_NEWTON = CK_DT + 6 * 8 + 4,                 /* newton_iterations, after cg_max_iterations */
    CK_H = 64 + 4 + 6 * 8 + 4 * 4 + 8 + 4 + 8 + 4, /* after four integrator ints, newton_tolerance, iterations,
                                                      chebyshev_rho and the substep count */
    CK_TIME = CK_H + 8,
    CK_STEPS = CK_TIME + 8,
    CK_ARRAYS = CK_STEPS + 8 + 8 + 4 + 4,
};

/* A copy of checkpoint `src` with `value` (n bytes) at offset `at` and the checksum repaired. */
static void patched(const char *src, const char *dst, size_t at, const void *value, size_t n)
{
    FILE *f = fopen(src, "rb");
    assert_non_null(f);
    unsigned char buf[1 << 16];
    const size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(len >= at + n + 8 && len < sizeof buf); /* the checksum after it */
    memcpy(buf + at, value, n);
    const uint64_t sum = fnv1a(buf, len - 8);
    memcpy(buf + len - 8, &sum, 8);
    f = fopen(dst, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
}

static void expect_refused(const char *ck, const char *message)
{
    char args[1024];
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --restart '%s' --steps 100000", ck);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || !strstr(r.err, message)) {
        print_error("exit %d, stderr: %s\nexpected: %s\n", r.status, r.err, message);
        fail();
    }
    hk_run_free(&r);
}

/* Runs `scene` 20 steps with a checkpoint into ck at step 20; the checkpoint's size in bytes. */
static size_t checkpoint_at_20(const char *scene, const char *ck)
{
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --steps 20 --checkpoint '%s' --checkpoint-every 20 --quiet", scene, ck);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    struct stat st;
    assert_int_equal(stat(ck, &st), 0);
    return (size_t)st.st_size;
}

/* good patched at `at` with n bytes of value, into bad; `hooke ARGS` (a restart from bad) is refused with exit 1
 * and `message` in its stderr. */
static void expect_patched_refused(const char *good, const char *bad, const char *args, size_t at, const void *value,
                                   size_t n, const char *message)
{
    patched(good, bad, at, value, n);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || !strstr(r.err, message)) {
        print_error("exit %d, stderr: %s\nexpected: %s\n", r.status, r.err, message);
        fail();
    }
    hk_run_free(&r);
}

/* A checkpoint whose checksum is right but whose values no run can have is
 * refused, not continued: negative steps, a zero or non-finite substep or
 * dt, a NaN time, a negative mass, a non-finite position, more Newton
 * iterations than a scene may ask for. */
static void test_impossible_values(void **state)
{
    (void)state;
    char args[1024];
    const char *good = hk_test_own_path("osc.ck"), *bad = hk_test_own_path("osc_bad.ck");
    snprintf(args, sizeof args,
             "run " SCENE("oscillator.scene") " --steps 50 --checkpoint '%s' --checkpoint-every 50 --quiet", good);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    const int64_t neg = -5;
    patched(good, bad, CK_STEPS, &neg, 8);
    expect_refused(bad, "checkpoint holds an impossible step count (-5)");
    const double zero = 0, nan_ = NAN, inf = INFINITY;
    patched(good, bad, CK_H, &zero, 8);
    expect_refused(bad, "checkpoint holds an impossible substep (1 substeps of 0 s)");
    patched(good, bad, CK_DT, &inf, 8);
    expect_refused(bad, "checkpoint holds an impossible integrator setting (inf)");
    patched(good, bad, CK_TIME, &nan_, 8);
    expect_refused(bad, "checkpoint holds an impossible time (nan s)");
    const hk_real negative = -1, rnan = NAN, R = sizeof(hk_real);
    patched(good, bad, CK_ARRAYS + 10 * 2 * R + R, &negative, R); /* the mass of particle 1 (of 2) */
    expect_refused(bad, "checkpoint holds an impossible mass of particle 1");
    patched(good, bad, CK_ARRAYS + R, &rnan, R); /* x of particle 1 */
    expect_refused(bad, "checkpoint holds an impossible position x of particle 1");
    /* found by tests/fuzz (fuzz_checkpoint): 7.6 million Newton iterations a substep froze the restarted run */
    const int32_t newton = 7631470;
    patched(good, bad, CK_NEWTON, &newton, 4);
    expect_refused(bad, "checkpoint holds an invalid integrator setting (newton_iterations must be 1 to 100, or 0 for "
                        "the default (got 7631470))");
    const double other_h = 0.5e-3;
    patched(good, bad, CK_H, &other_h, 8);
    expect_refused(bad, "checkpoint is corrupted (1 substeps of 0.0005 s, where its integrator makes 1 of 0.001 s)");
    /* the good one still restarts */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --restart '%s' --steps 60 --quiet", good);
    r = run_ok(args);
    hk_run_free(&r);
}

/* The colliders' friction anchors (the checkpoint's last section, docs/checkpoint-format.md): a place that is not
 * finite, or a collider index that is no collider's, is refused; the good file restarts. */
static void test_impossible_anchors(void **state)
{
    (void)state;
    const char *scene = hk_test_own_path("anchors.scene"), *good = hk_test_own_path("anchors.ck"),
               *bad = hk_test_own_path("anchors_bad.ck");
    hk_test_write(scene, "world\n  gravity 0 -9.81 0\nend\n"
                         "body rope\n  count 2\n  mass 0.01\n  spacing 0.05\n  origin 0 0.1099 0\n  direction 1 0 0\n"
                         "  springs chain k 100\nend\n"
                         "collider\n  shape box\n  size 1 0.2 1\n  thickness 0.01\n  stiffness 1000\n"
                         "  damping_ratio 1\n  friction 0.5\nend\n"
                         "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  steps 40\nend\n");
    char args[1024];
    /* the anchors, then the count of anchored contact pairs (0: no contact section), then the checksum */
    const size_t R = sizeof(hk_real), len = checkpoint_at_20(scene, good), index0 = len - 16 - 2 * R,
                 x0 = len - 16 - 8 * R;
    snprintf(args, sizeof args, "run '%s' --restart '%s' --quiet", scene, bad);
    const hk_real half = 0.5, two = 2, rnan = NAN;
    const struct {
        size_t at;
        const hk_real *value;
        const char *message;
    } cases[] = {
        {index0, &half, "checkpoint holds an impossible friction anchor of particle 0 (collider 0.5 of 1)"},
        {index0, &two, "checkpoint holds an impossible friction anchor of particle 0 (collider 2 of 1)"},
        {x0, &rnan, "checkpoint holds an impossible friction anchor of particle 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_patched_refused(good, bad, args, cases[i].at, cases[i].value, R, cases[i].message);
    /* the good one still restarts */
    snprintf(args, sizeof args, "run '%s' --restart '%s' --quiet", scene, good);
    hk_run r = run_ok(args);
    hk_run_free(&r);
}

/* The anchors of contact pairs that stick (a 2 x 2 cloth resting on a pinned 3 x 3 one with friction), each
 * value patched: refused with its message; anchored pairs in a scene without a contact section too. */
static void test_impossible_pair_anchors(void **state)
{
    (void)state;
    const char *scene = hk_test_own_path("pairs.scene"), *bare = hk_test_own_path("pairs_bare.scene"),
               *good = hk_test_own_path("pairs.ck"), *bad = hk_test_own_path("pairs_bad.ck");
    const char *bodies = "world\n  gravity 0 -9.81 0\nend\n"
                         "body cloth\n  nx 3\n  ny 3\n  spacing 0.1\n  origin 0 0 0\n  u 1 0 0\n  v 0 0 1\n"
                         "  mass 1\n  pin 0 1 2 3 4 5 6 7 8\n  springs structural k 1000\nend\n"
                         "body cloth\n  nx 2\n  ny 2\n  spacing 0.05\n  origin 0.07 0.004 0.07\n  u 1 0 0\n  v 0 0 1\n"
                         "  mass 0.01\n  springs structural k 300\nend\n"
                         "run\n  integrator implicit_euler\n  dt 0.00416666666666667\n  steps 40\nend\n";
    char text[2048];
    snprintf(text, sizeof text,
             "%scontact\n  thickness 0.005\n  stiffness 200\n  damping_ratio 1\n  friction 0.5\n"
             "  self 0\nend\n",
             bodies);
    hk_test_write(scene, text);
    hk_test_write(bare, bodies);
    char args[1024];
    const size_t len = checkpoint_at_20(scene, good), entry = 5 * 4 + 2 * 8;
    FILE *f = fopen(good, "rb");
    assert_non_null(f);
    unsigned char *buf = malloc(len);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, len, f), len);
    fclose(f);
    uint64_t n = 0, count = 0; /* the anchored pairs: the count before them says how many */
    for (n = 1; n < 64 && 8 + (n * entry + 8) < len; n++) {
        memcpy(&count, buf + len - 8 - n * entry - 8, 8);
        if (count == n) break;
    }
    free(buf);
    print_message("%llu anchored contact pairs in the checkpoint\n", (unsigned long long)n);
    assert_true(count == n && n >= 1);
    const size_t first = len - 8 - n * entry;
    const int32_t kind = 7, far = 1000000;
    const double over = 1.5, dnan = NAN;
    const struct {
        size_t at, size;
        const void *value;
        const char *message;
    } cases[] = {
        {first, 4, &kind, "checkpoint holds an impossible anchored contact pair (0 of"},
        {first + 8, 4, &far, "checkpoint holds an impossible anchored contact pair (0 of"},
        {first + 20, 8, &over, "checkpoint holds an impossible anchored contact pair (0 of"},
        {first + 28, 8, &dnan, "checkpoint holds an impossible anchored contact pair (0 of"},
    };
    snprintf(args, sizeof args, "run '%s' --restart '%s' --quiet", scene, bad);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_patched_refused(good, bad, args, cases[i].at, cases[i].value, cases[i].size, cases[i].message);
    /* the same bodies without the contact section: another scene (its digest), so only a checkpoint of that
     * scene with anchored pairs patched in reaches the check */
    const size_t bare_len = checkpoint_at_20(bare, good);
    const uint64_t one = 1;
    snprintf(args, sizeof args, "run '%s' --restart '%s' --quiet", bare, bad);
    expect_patched_refused(good, bad, args, bare_len - 16, &one, 8,
                           "checkpoint does not match the scene (1 anchored contact pairs; the scene has no contact "
                           "section)");
}

static void copy_file(const char *from, const char *to)
{
    char *text = hk_test_slurp(from);
    assert_non_null(text);
    hk_test_write(to, text);
    free(text);
}

/* The scene digest covers the mesh files the scene loads: a restart after
 * the mesh changed is refused (it would continue a state that no longer
 * matches its mesh), and one with the mesh as it was is accepted. */
static void test_mesh_changed(void **state)
{
    (void)state;
    char args[1024];
    const char *scene = hk_test_own_path("torus_asc.scene"), *mesh = hk_test_own_path("torus.asc");
    const char *ck = hk_test_own_path("torus.ck");
    copy_file(SCENE("torus_asc.scene"), scene);
    copy_file(SCENE("torus.asc"), mesh);
    snprintf(args, sizeof args, "run '%s' --steps 20 --checkpoint '%s' --checkpoint-every 20 --quiet", scene, ck);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run '%s' --restart '%s' --steps 30 --quiet", scene, ck);
    r = run_ok(args);
    hk_run_free(&r);
    /* move vertex 0 by 1 micrometre: still a valid closed mesh */
    char *text = hk_test_slurp(mesh);
    char *v = strstr(text, "X:0.420000000");
    assert_non_null(v);
    memcpy(v, "X:0.420001000", 13);
    hk_test_write(mesh, text);
    free(text);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "checkpoint was written for a different scene (the scene file or a file it loads "
                                  "has changed; scene digest differs)"));
    hk_run_free(&r);
}

/* Restarts rope from ck (step 500) to step 1000, rows every 50, into the stats file csv, which holds rows that are
 * not this run's: refused (status 1) with the message `said`, csv byte for byte as it was. */
static void expect_stats_refused(const char *csv, const char *ck, const char *said)
{
    char args[1024];
    char *before = hk_test_slurp(csv);
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 1000 --every 50 --stats '%s' --restart '%s' --quiet", csv, ck);
    hk_run r = hk_test_hooke("", args);
    if (r.status != 1 || !strstr(r.err, said)) {
        print_error("hooke %s\nexit %d (expected 1)\nexpected '%s' in stderr: %s\n", args, r.status, said, r.err);
        fail();
    }
    hk_run_free(&r);
    char *after = hk_test_slurp(csv);
    assert_string_equal(after, before);
    free(before);
    free(after);
}

/* A restart continues only the stats of the run it restarts: an older copy of them (rows to step 200, the
 * checkpoint at 500) and another scene's stats with the same columns (its time column another dt's) are refused,
 * untouched, not continued into a file that mixes them. */
static void test_stats_not_this_runs(void **state)
{
    (void)state;
    char args[1024];
    const char *old = hk_test_own_path("old.csv"), *cur = hk_test_own_path("cur.csv"),
               *osc = hk_test_own_path("osc.csv");
    const char *ck = hk_test_own_path("at500.ck");
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 200 --every 50 --stats '%s' --quiet", old);
    hk_run r = run_ok(args);
    hk_run_free(&r);
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 600 --every 50 --stats '%s' --checkpoint '%s' "
                                        "--checkpoint-every 500 --quiet",
             cur, ck);
    r = run_ok(args);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 600 --every 50 --stats '%s' --quiet", osc);
    r = run_ok(args);
    hk_run_free(&r);
    expect_stats_refused(old, ck,
                         "old.csv:7: error: the rows end at step 200, before the checkpoint's step 500: this run's "
                         "rows of steps 250 to 450 (every 50) are not there");
    expect_stats_refused(osc, ck, "osc.csv:3: error: time 0.05 at step 50 where this run's is 0.833333333");
    /* rows on another grid: --every 100 where the file's rows are every 50 */
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 1000 --every 100 --stats '%s' --restart '%s' --quiet", cur, ck);
    char *before = hk_test_slurp(cur);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "cur.csv:3: error: a row of step 50 where this run's next row is of step 100"));
    hk_run_free(&r);
    char *after = hk_test_slurp(cur);
    assert_string_equal(after, before);
    free(before);
    free(after);
    /* the file written with the checkpoint continues */
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 1000 --every 50 --stats '%s' --restart '%s' --quiet", cur, ck);
    r = run_ok(args);
    hk_run_free(&r);
    long long last;
    assert_int_equal(stats_rows(cur, &last), 21);
    assert_int_equal((int)last, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_end_and_rate),    cmocka_unit_test(test_stats_continue),
        cmocka_unit_test(test_stats_cut_row),       cmocka_unit_test(test_impossible_values),
        cmocka_unit_test(test_impossible_anchors),  cmocka_unit_test(test_impossible_pair_anchors),
        cmocka_unit_test(test_mesh_changed),        cmocka_unit_test(test_outputs_equal_uninterrupted),
        cmocka_unit_test(test_stats_not_this_runs),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
