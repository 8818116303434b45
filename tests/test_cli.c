/* test_cli.c — the hooke program's flags, messages, exit statuses, --stats and --state-out files. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include "scene.h"
#include "stats_csv.h"

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* Runs hooke ARGS and expects exit status `status`, stderr containing
 * `err_part` (NULL: anything) and, for failures, nothing on stdout. */
static void expect(const char *args, int status, const char *err_part)
{
    hk_run r = hk_test_hooke("", args);
    int ok = r.status == status && (!err_part || strstr(r.err, err_part) != NULL) &&
             (status == 0 || !r.out[0] || status == 2);
    if (!ok) {
        print_error("hooke %s\n  exit %d (expected %d)\n  stdout: %s\n  stderr: %s\n  expected stderr to contain: %s\n",
                    args, r.status, status, r.out, r.err, err_part ? err_part : "(anything)");
        hk_run_free(&r);
        fail();
    }
    hk_run_free(&r);
}

/* `hooke info --list WHAT` prints the program's tables, a row a line: here against the library's own tables. */
static void test_info_lists(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "info --list integrators");
    assert_int_equal(r.status, 0);
    const char *line = r.out;
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        char want[128];
        snprintf(want, sizeof want, "%s%s%s\n", in->name, in->alias ? " " : "", in->alias ? in->alias : "");
        assert_int_equal(strncmp(line, want, strlen(want)), 0);
        line += strlen(want);
    }
    assert_string_equal(line, "");
    hk_run_free(&r);
    r = hk_test_hooke("", "info --list formats");
    assert_int_equal(r.status, 0);
    for (int i = 0; hk_frame_format_name(i); i++) {
        char want[64];
        snprintf(want, sizeof want, "%s%s ", i ? "\n" : "", hk_frame_format_name(i));
        assert_true(i ? strstr(r.out, want) != NULL : strncmp(r.out, want + 0, strlen(want)) == 0);
    }
    hk_run_free(&r);
    /* every key a section of the scene parser knows, and the world fields' first and last */
    r = hk_test_hooke("", "info --list keys");
    assert_int_equal(r.status, 0);
    char keys[1024];
    hk_scene_key_names("world", keys, sizeof keys);
    for (char *k = strtok(keys, ", "); k; k = strtok(NULL, ", ")) {
        char want[64];
        snprintf(want, sizeof want, "world %s\n", k);
        assert_non_null(strstr(r.out, want));
    }
    assert_non_null(strstr(r.out, "\nbody rope count\n"));
    assert_non_null(strstr(r.out, "\nsprings k\n"));
    hk_run_free(&r);
    r = hk_test_hooke("", "info --list world-fields");
    assert_int_equal(r.status, 0);
    const char *head =
        "gravity: finite in x, y and z, within the build's precision\nair_drag: 0 or in [1e-12, 1e12] N*s/m\n";
    assert_int_equal(strncmp(r.out, head, strlen(head)), 0);
    assert_non_null(strstr(r.out, "\nthreads: in [0, 4096]\n"));
    assert_non_null(strstr(r.out, "\nkernels: "));
    hk_run_free(&r);
    expect("info --list colours", 1,
           "hooke: error: --list expects integrators, keys, bodies, formats, world-fields, got 'colours'\n");
}

static void test_help_and_version(void **state)
{
    (void)state;
    /* hooke's own help: the commands, one line or two each, the exit statuses and the environment; a command's
     * options are its own help's (not the whole run help, 87 lines, as it was) */
    static const char *const help_flags[3] = {"--help", "-h", "help"};
    for (int f = 0; f < 3; f++) {
        hk_run r = hk_test_hooke("", help_flags[f]);
        assert_int_equal(r.status, 0);
        static const char *const words[] = {"usage: hooke run SCENE [options]",
                                            "hooke COMMAND --help",
                                            "  run ",
                                            "  bench ",
                                            "  stability ",
                                            "  plot ",
                                            "  info ",
                                            "exit status: 0 success, 1 bad input",
                                            "2 the simulation blew up",
                                            "3 an output file",
                                            "HOOKE_KERNELS"};
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) assert_non_null(strstr(r.out, words[w]));
        assert_null(strstr(r.out, "--state-out")); /* run's options are run's help */
        int lines = 0;
        for (const char *p = r.out; *p; p++) lines += *p == '\n';
        assert_true(lines <= 40);
        assert_string_equal(r.err, "");
        hk_run_free(&r);
    }
    /* run's help: every integrator the library knows, by the name the flag takes, the exit statuses and every
     * run flag */
    hk_run h = hk_test_hooke("", "run --help");
    assert_int_equal(h.status, 0);
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const char *name = hk_integrator_name((hk_integrator_kind)k);
        if (!strstr(h.out, name)) {
            print_error("run --help does not mention integrator '%s'\n%s", name, h.out);
            fail();
        }
    }
    static const char *const words[] = {"exit status: 0 success, 1 bad input",
                                        "2 the simulation",
                                        "3 an output file",
                                        "--steps",
                                        "--time",
                                        "--dt",
                                        "--integrator",
                                        "--threads",
                                        "--stats",
                                        "--every",
                                        "--state-out",
                                        "--quiet",
                                        "HOOKE_KERNELS"};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) assert_non_null(strstr(h.out, words[w]));
    hk_run_free(&h);
    hk_run r = hk_test_hooke("", "--version");
    assert_int_equal(r.status, 0);
    assert_int_equal(strncmp(r.out, "hooke " HOOKE_VERSION " (", strlen("hooke " HOOKE_VERSION " (")), 0);
    assert_non_null(strstr(r.out, sizeof(hk_real) == 8 ? "double" : "float"));
#ifdef HOOKE_MPI
    assert_non_null(strstr(r.out, ", MPI)")); /* a build with MPI says so */
#else
    assert_non_null(strstr(r.out, ", no MPI)"));
#endif
    hk_run_free(&r);
    /* no command: usage on stderr, status 1 */
    r = hk_test_hooke("", "");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "usage: hooke run SCENE"));
    hk_run_free(&r);
    expect("frobnicate", 1, "hooke: error: unknown command 'frobnicate' (see hooke --help)\n");
}

static void test_bad_flags(void **state)
{
    (void)state;
    expect("run", 1, "hooke: error: run needs a scene file (see hooke --help)\n");
    expect("run --quiet", 1, "hooke: error: run needs a scene file (see hooke --help)\n");
    expect("run " SCENE("oscillator.scene") " --bogus", 1,
           "hooke: error: unknown option '--bogus' for run (see hooke run --help)\n");
    expect("run " SCENE("oscillator.scene") " -x", 1,
           "hooke: error: unknown option '-x' for run (see hooke run --help)\n");
    expect("run " SCENE("oscillator.scene") " --steps 0", 1,
           "hooke: error: --steps expects a whole number >= 1, got '0' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --steps -1", 1,
           "hooke: error: --steps expects a whole number >= 1, got '-1' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --steps abc", 1,
           "hooke: error: --steps expects a whole number >= 1, got 'abc' (not a number)\n");
    expect("run " SCENE("oscillator.scene") " --steps 10x", 1,
           "hooke: error: --steps expects a whole number >= 1, got '10x' (not a number)\n");
    expect("run " SCENE("oscillator.scene") " --steps 99999999999999999999", 1,
           "hooke: error: --steps expects a whole number >= 1, got '99999999999999999999' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --steps", 1,
           "hooke: error: --steps expects a whole number >= 1, got 'nothing'\n");
    expect("run " SCENE("oscillator.scene") " --dt 0", 1,
           "hooke: error: --dt expects a step length in seconds > 0, got '0'\n");
    expect("run " SCENE("oscillator.scene") " --dt -1e-3", 1,
           "hooke: error: --dt expects a step length in seconds > 0, got '-1e-3'\n");
    expect("run " SCENE("oscillator.scene") " --dt nan", 1,
           "hooke: error: --dt expects a step length in seconds > 0, got 'nan' (not a number)\n");
    expect("run " SCENE("oscillator.scene") " --dt inf", 1,
           "hooke: error: --dt expects a step length in seconds > 0, got 'inf' (not a number)\n");
    expect("run " SCENE("oscillator.scene") " --dt 1ms", 1,
           "hooke: error: --dt expects a step length in seconds > 0, got '1ms' (not a number)\n");
    expect("run " SCENE("oscillator.scene") " --time 0", 1,
           "hooke: error: --time expects a number of seconds > 0, got '0'\n");
    char want[1024]; /* the names from the integrator table, as the flag's parser takes them */
    snprintf(want, sizeof want, "hooke: error: --integrator expects one of %s, got 'leapfrog'\n",
             hk_integrator_names());
    assert_non_null(strstr(want, "one of euler, semi_implicit_euler, "));
    expect("run " SCENE("oscillator.scene") " --integrator leapfrog", 1, want);
    expect("run " SCENE("oscillator.scene") " --threads 0", 1,
           "hooke: error: --threads expects a thread count 1..4096, got '0' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --threads 5000", 1,
           "hooke: error: --threads expects a thread count 1..4096, got '5000' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --every 0", 1,
           "hooke: error: --every expects a whole number >= 1, got '0' (out of range)\n");
    expect("run " SCENE("oscillator.scene") " --stats", 1,
           "hooke: error: --stats expects a file name, got 'nothing'\n");
    expect("run " SCENE("oscillator.scene") " --steps 5 --time 1", 1,
           "hooke: error: give --steps or --time, not both\n");
    expect("run " SCENE("oscillator.scene") " " SCENE("rope.scene"), 1, "hooke: error: more than one scene given ('");
    expect("info --bogus", 1, "hooke: error: unknown option '--bogus' for info (see hooke info --help)\n");
    expect("info --threads 0", 1, "hooke: error: --threads expects a thread count 1..4096, got '0' (out of range)\n");
}

static void test_bad_scene_files(void **state)
{
    (void)state;
    char args[512], want[512];
    /* missing file: FILE: error: cannot open scene: REASON */
    const char *missing = hk_test_path("no-such.scene");
    snprintf(args, sizeof args, "run '%s'", missing);
    snprintf(want, sizeof want, "%s: error: cannot open scene: ", missing);
    expect(args, 1, want);
    /* malformed: FILE:LINE:COL: error: expected ..., got '...' */
    const char *bad = hk_test_path("bad.scene");
    hk_test_write(bad, "# a rope with a typo\nbody rope\n count 3\n mass abc\n spacing 0.1\nend\n");
    snprintf(args, sizeof args, "run '%s' --steps 3", bad);
    snprintf(want, sizeof want, "%s:4:7: error: expected a number for 'mass', got 'abc'\n", bad);
    expect(args, 1, want);
    /* a scene without a run length, and no --steps / --time */
    const char *nolen = hk_test_path("nolength.scene");
    hk_test_write(nolen, "body rope\n count 3\n mass 0.1\n spacing 0.1\nend\n");
    snprintf(args, sizeof args, "run '%s'", nolen);
    snprintf(want, sizeof want,
             "hooke: error: %s: no run length: give --steps or --time, or 'steps' or 'time' in the run section\n",
             nolen);
    expect(args, 1, want);
    /* ... which --steps supplies */
    snprintf(args, sizeof args, "run '%s' --steps 4 --quiet", nolen);
    expect(args, 0, NULL);
    /* a directory is not a scene */
    snprintf(args, sizeof args, "run '%s'", hk_test_tmpdir());
    expect(args, 1, "error: cannot ");
}

/* Splits the summary line's numeric field. */
static double field_num(const char *out, const char *key)
{
    const char *v = hk_test_field(out, key);
    if (!v) {
        print_error("summary has no %s=: %s\n", key, out);
        fail();
    }
    return strtod(v, NULL);
}

/* The default thread count of `hooke run`: the mask's cores, at most one per 15000 springs begun (79 springs:
 * 1 thread, said on stderr); --threads and OMP_NUM_THREADS choose any count. */
static void test_default_threads(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("env -u OMP_NUM_THREADS", "info");
    assert_int_equal(r.status, 0);
    const char *m = strstr(r.out, "mask: the process may run on PU(s) ");
    assert_non_null(m);
    const char *paren = strstr(m, " (");
    assert_non_null(paren);
    const int cores = atoi(paren + 2);
    assert_true(cores >= 1);
    hk_run_free(&r);
    r = hk_test_hooke("env -u OMP_NUM_THREADS", "run " SCENE("rope.scene") " --steps 10");
    assert_int_equal(r.status, 0);
    assert_true(field_num(r.out, "threads") == 1);
    assert_non_null(strstr(r.err, ", 1 thread (by default one per 15000 springs; --threads N to choose)\n"));
    hk_run_free(&r);
    r = hk_test_hooke("", "run " SCENE("rope.scene") " --steps 10 --threads 2");
    assert_int_equal(r.status, 0);
    assert_true(field_num(r.out, "threads") == 2);
    assert_null(strstr(r.err, "by default"));
    hk_run_free(&r);
    r = hk_test_hooke("OMP_NUM_THREADS=3", "run " SCENE("rope.scene") " --steps 10 --quiet");
    assert_int_equal(r.status, 0);
    assert_true(field_num(r.out, "threads") == 3);
    hk_run_free(&r);
    /* 23 938 springs: 2 threads begun, where the mask has the cores */
    r = hk_test_hooke("env -u OMP_NUM_THREADS", "run " SCENE("cloth_stiff.scene") " --steps 1");
    assert_int_equal(r.status, 0);
    assert_true(field_num(r.out, "threads") == (cores < 2 ? cores : 2));
    assert_true(field_num(r.out, "springs") == 23938);
    hk_run_free(&r);
}

static void test_summary_and_overrides(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --steps 10 --threads 1");
    assert_int_equal(r.status, 0);
    /* one summary line on stdout with the documented fields */
    assert_int_equal(strncmp(r.out, "hooke: scene=", 13), 0);
    assert_non_null(strchr(r.out, '\n'));
    assert_string_equal(strchr(r.out, '\n'), "\n");
    static const char *const keys[] = {"integrator", "threads",  "particles", "springs",  "steps",
                                       "substeps",   "sim_time", "wall_s",    "output_s", "spring_updates_per_s",
                                       "state_hash"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) assert_non_null(hk_test_field(r.out, keys[k]));
    assert_true(field_num(r.out, "particles") == 2);
    assert_true(field_num(r.out, "springs") == 1);
    assert_true(field_num(r.out, "steps") == 10);
    assert_near(field_num(r.out, "sim_time"), 10 * 1e-3, 1e-9);
    assert_null(strstr(r.out, "status=BLOWUP"));
    /* without --quiet, a one-line description on stderr */
    assert_non_null(
        strstr(r.err, ": 2 particles, 1 spring, semi_implicit_euler, dt 0.001 s x 1 substep, steps 0 to 10, 1 thread"));
    hk_run_free(&r);

    /* --dt, --integrator and --time override the scene */
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --time 0.05 --dt 2e-3 --integrator rk4 --quiet");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, " integrator=rk4 "));
    assert_true(field_num(r.out, "steps") == 25); /* ceil(0.05 / 2e-3) */
    assert_near(field_num(r.out, "sim_time"), 0.05, 1e-9);
    hk_run_free(&r);
    /* aliases are accepted too */
    r = hk_test_hooke("", "run " SCENE("oscillator.scene") " --steps 3 --integrator symplectic_euler --quiet");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " integrator=semi_implicit_euler "));
    hk_run_free(&r);
    /* the rope's dt_max: 9 substeps per step */
    r = hk_test_hooke("", "run " SCENE("rope.scene") " --steps 2 --quiet");
    assert_int_equal(r.status, 0);
    assert_true(field_num(r.out, "substeps") == 9);
    hk_run_free(&r);
}

/* Counts lines of a text. */
static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void test_stats_csv(void **state)
{
    (void)state;
    const char *csv = hk_test_path("osc.csv");
    char args[512];
    /* --every 7 over 100 steps: the initial state (step 0), steps 7, 14, ...,
     * 98, and the last step 100 */
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 100 --every 7 --stats '%s' --quiet", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    char *text = hk_test_slurp(csv);
    assert_non_null(text);
    const char *header = "step,time,kinetic,gravity,spring,total,max_stretch,broken\n";
    assert_int_equal(strncmp(text, header, strlen(header)), 0);
    assert_int_equal(count_lines(text), 1 + 1 + 100 / 7 + 1);
    const char *line = text + strlen(header);
    long expect_step = 0;
    int rows = 0;
    while (*line) {
        long step;
        double t, ke, pe_g, pe_s, total, stretch;
        long broken;
        int got =
            sscanf(line, "%ld,%lf,%lf,%lf,%lf,%lf,%lf,%ld", &step, &t, &ke, &pe_g, &pe_s, &total, &stretch, &broken);
        assert_int_equal(got, 8);
        assert_int_equal(step, expect_step);
        assert_near(t, step * 1e-3, 1e-9);
        /* the columns are consistent: total = kinetic + gravity + spring (9
         * significant digits printed) */
        assert_near(total, ke + pe_g + pe_s, 1e-8 * (fabs(ke) + fabs(pe_g) + fabs(pe_s)) + 1e-12);
        /* oscillator.scene: 1 kg on k = 100 N/m, 0.1 m out, no gravity: E =
         * 1/2 k A^2 = 0.5 J; semi-implicit Euler's energy oscillates by about
         * omega dt / 2 = 0.5 % of it (omega dt = 0.01), so 1 % is a safe band */
        assert_near(total, 0.5, 0.005);
        assert_true(pe_g == 0 && broken == 0);
        assert_near(stretch, 1.0, 0.1 * 1.01); /* r = x in [1 - A, 1 + A], A = 0.1 (+1 % energy band), L0 = 1 */
        rows++;
        expect_step = expect_step + 7 > 100 ? 100 : expect_step + 7;
        line = strchr(line, '\n') + 1;
    }
    assert_int_equal(rows, 1 + 100 / 7 + 1);
    free(text);

    /* the scene's own `every` (jelly26.scene: every 20) when --every is not given */
    snprintf(args, sizeof args, "run " SCENE("jelly26.scene") " --steps 50 --stats '%s' --quiet", csv);
    r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    text = hk_test_slurp(csv);
    assert_non_null(text);
    assert_int_equal(count_lines(text), 1 + 4); /* steps 0, 20, 40, 50 */
    assert_non_null(strstr(text, "\n20,"));
    assert_non_null(strstr(text, "\n40,"));
    assert_non_null(strstr(text, "\n50,"));
    free(text);
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* FNV-1a as hk_world_state_hash: the positions x, y, z as doubles, then the
 * velocities as hk_real */
static uint64_t fnv_state(double *const pos[3], hk_real *const vel[3], int n)
{
    uint64_t h = 1469598103934665603ull;
    for (int a = 0; a < 3; a++) h = fnv(h, pos[a], (size_t)n * sizeof(double));
    for (int a = 0; a < 3; a++) h = fnv(h, vel[a], (size_t)n * sizeof(hk_real));
    return h;
}

static void check_state_file(const char *scene, int steps, int particles)
{
    const char *st = hk_test_path("final.state");
    char args[512];
    snprintf(args, sizeof args, "run '%s/%s' --steps %d --state-out '%s' --quiet", HOOKE_SCENES_DIR, scene, steps, st);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    const char *hv = hk_test_field(r.out, "state_hash");
    assert_non_null(hv);
    const uint64_t summary_hash = strtoull(hv, NULL, 16);
    const double sim_time = field_num(r.out, "sim_time");
    hk_run_free(&r);

    char *text = hk_test_slurp(st);
    assert_non_null(text);
    char want[256];
    snprintf(want, sizeof want, "# hooke state v2 particles=%d time=", particles);
    assert_int_equal(strncmp(text, want, strlen(want)), 0);
    char *p = text + strlen(want);
    char *end;
    const double t = strtod(p, &end);
    assert_near(t, sim_time, 1e-5 * sim_time); /* the summary prints sim_time with 6 digits */
    snprintf(want, sizeof want, " steps=%d real=%s\n# index x y z vx vy vz inv_mass\n", steps,
             sizeof(hk_real) == 8 ? "double" : "float");
    assert_int_equal(strncmp(end, want, strlen(want)), 0);
    p = end + strlen(want);
    /* positions: doubles with 17 digits; the rest in the build's precision */
    double *pos[3];
    hk_real *arr[7];
    for (int a = 0; a < 7; a++) {
        arr[a] = malloc((size_t)particles * sizeof(hk_real));
        assert_non_null(arr[a]);
        if (a < 3) {
            pos[a] = malloc((size_t)particles * sizeof(double));
            assert_non_null(pos[a]);
        }
    }
    for (int i = 0; i < particles; i++) {
        long idx = strtol(p, &end, 10);
        assert_true(end != p);
        assert_int_equal(idx, i);
        p = end;
        for (int a = 0; a < 7; a++) {
#ifdef HOOKE_DOUBLE
            arr[a][i] = strtod(p, &end);
#else
            arr[a][i] = strtof(p, &end);
#endif
            if (a < 3) pos[a][i] = strtod(p, &end);
            assert_true(end != p);
            p = end;
        }
        assert_true(*p == '\n');
        p++;
    }
    assert_true(*p == '\0'); /* exactly N particle lines */
    /* the printed digits restore the exact bits: the hash matches */
    const uint64_t h = fnv_state(pos, arr + 3, particles);
    if (h != summary_hash) {
        print_error("%s: state file hashes to 0x%016llx, summary says 0x%016llx\n", scene, (unsigned long long)h,
                    (unsigned long long)summary_hash);
        fail();
    }
    print_message("%s: %d particles, state file re-hashes to the summary's 0x%016llx\n", scene, particles,
                  (unsigned long long)h);
    if (strcmp(scene, "rope.scene") == 0) { /* the anchor is driven: inverse mass 0; the rest 1 / 0.05 kg */
        assert_true(arr[6][0] == 0);
        for (int i = 1; i < particles; i++) assert_near(arr[6][i], 20.0, 1e-4);
    }
    for (int a = 0; a < 7; a++) free(arr[a]);
    for (int a = 0; a < 3; a++) free(pos[a]);
    free(text);
}

/* The stats digits read back to the build's precision: every value of a
 * row equals the world's own (float build: to 9 significant digits;
 * double build: exactly, 17 digits), volumes and pressures included. */
static void test_stats_digits(void **state)
{
    (void)state;
    const char *csv = hk_test_path("digits.csv");
    char args[512];
    snprintf(args, sizeof args, "run " SCENE("pressure_ball.scene") " --steps 12 --every 1 --stats '%s' --quiet", csv);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    hk_stats_table t;
    char err[512];
    assert_int_equal(hk_stats_read(csv, &t, err, sizeof err), 0);
    assert_int_equal(t.rows, 13);
    assert_int_equal(t.cols, 10);
    hk_scene sc;
    assert_int_equal(hk_scene_load(HOOKE_SCENES_DIR "/pressure_ball.scene", &sc, err, sizeof err), 0);
    assert_int_equal(hk_world_optimise(sc.world, 0), 0);
    for (int row = 0; row < t.rows; row++) {
        if (row > 0) hk_world_step(sc.world);
        const hk_stats s = hk_world_stats(sc.world);
        const double want[10] = {(double)row,
                                 hk_world_time(sc.world),
                                 s.kinetic,
                                 s.gravity,
                                 s.spring,
                                 s.total,
                                 s.max_stretch,
                                 (double)s.broken,
                                 hk_world_body_volume(sc.world, 0, HK_VOLUME_GAUSS),
                                 hk_world_body_pressure(sc.world, 0)};
        for (int c = 0; c < 10; c++) {
            const double got = t.v[c][row], tol = sizeof(hk_real) == 8 ? 0 : 1e-8 * fabs(want[c]);
            if (!(fabs(got - want[c]) <= tol)) {
                print_error("row %d, column %s: %.17g printed, the world has %.17g\n", row, t.names[c], got, want[c]);
                fail();
            }
        }
    }
    hk_scene_free(&sc);
    hk_stats_free(&t);
}

static void test_state_out(void **state)
{
    (void)state;
    check_state_file("rope.scene", 10, 80);
    check_state_file("jelly26.scene", 30, 512);
    check_state_file("net.scene", 25, 48);
}

static void test_blowup_exit_2(void **state)
{
    (void)state;
    /* the oscillator with dt = 1 s: omega dt = 10, far past the stability
     * limit 2 of semi-implicit Euler; the amplitude grows about 100-fold per
     * step: its energy (nothing feeds it) passes 100 times its start at the
     * first step, before the stretch limit */
    const char *sc = hk_test_path("blowup.scene");
    hk_test_write(sc, "world\n gravity 0 0 0\nend\n"
                      "body spring\n a 0 0 0\n b 1.1 0 0\n mass_b 1\n springs main k 100 rest_length 1\nend\n"
                      "run\n dt 1\n steps 100\nend\n");
    const char *st = hk_test_path("blowup.state");
    remove(st);
    char args[512], want[512];
    snprintf(args, sizeof args, "run '%s' --state-out '%s'", sc, st);
    hk_run r = hk_test_hooke("", args);
    snprintf(want, sizeof want, "hooke: error: %s: simulation blew up at step ", sc);
    if (r.status != 2 || !strstr(r.err, want) || !strstr(r.err, "energy runaway: the total energy grew to ") ||
        !strstr(r.out, "status=BLOWUP")) {
        print_error("exit %d\nstdout: %s\nstderr: %s\n", r.status, r.out, r.err);
        fail();
    }
    assert_true(field_num(r.out, "steps") < 100); /* stopped early */
    hk_run_free(&r);
    FILE *f = fopen(st, "r"); /* no state written from a blown-up run */
    assert_null(f);
    /* the same through --dt on the shipped scene */
    expect("run " SCENE("oscillator.scene") " --dt 1 --quiet", 2, "blew up");
}

static void test_unwritable_output_exit_3(void **state)
{
    (void)state;
    char args[512], want[512];
    const char *nodir = hk_test_path("no-such-dir/out.csv");
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 3 --quiet --stats '%s'", nodir);
    snprintf(want, sizeof want, "hooke: error: cannot write %s: ", nodir);
    expect(args, 3, want);
    snprintf(args, sizeof args, "run " SCENE("oscillator.scene") " --steps 3 --quiet --state-out '%s'", nodir);
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 3);
    assert_non_null(strstr(r.err, want));
    hk_run_free(&r);
}

static void test_info(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "info --threads 1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "hooke " HOOKE_VERSION));
    assert_non_null(strstr(r.out, "kernel path in use: "));
    /* no line ends in a blank, nor has two blanks running (a padded CPU name is tidied) */
    for (const char *p = r.out; *p; p++) {
        assert_false(*p == ' ' && (p[1] == '\n' || p[1] == '\0'));
        if (strncmp(p, "cpu: ", 5) == 0) {
            const size_t n = strcspn(p, "\n");
            for (size_t i = 5; i + 1 < n; i++) assert_false(p[i] == ' ' && p[i + 1] == ' ');
        }
    }
    hk_run_free(&r);
}

static int teardown(void **state)
{
    (void)state;
    hk_test_cleanup();
    return 0;
}

/* An environment variable hooke cannot use is an input error, never a silent
 * default; a good one is taken. */
static void test_bad_environment(void **state)
{
    (void)state;
    static const struct {
        const char *env, *message;
    } cases[] = {
        {"HOOKE_KERNELS=avx9", "hooke: error: HOOKE_KERNELS=avx9: expected reference, scalar, avx2 or avx512"},
        {"HOOKE_KERNELS=AVX512", "hooke: error: HOOKE_KERNELS=AVX512: expected"},
        {"HOOKE_LIST_PARALLEL_MIN=lots", "hooke: error: HOOKE_LIST_PARALLEL_MIN=lots: expected a whole number"},
        {"HOOKE_LIST_PARALLEL_MIN=-1", "hooke: error: HOOKE_LIST_PARALLEL_MIN=-1: expected a whole number"},
        {"HOOKE_FULL_TEAM=yes", "hooke: error: HOOKE_FULL_TEAM=yes: expected 0 or 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hk_run r = hk_test_hooke(cases[i].env, "run " SCENE("oscillator.scene") " --steps 2 --quiet");
        if (r.status != 1 || !strstr(r.err, cases[i].message) || r.out[0]) {
            print_error("%s: exit %d, stderr %s\n", cases[i].env, r.status, r.err);
            fail();
        }
        hk_run_free(&r);
    }
    hk_run r = hk_test_hooke("HOOKE_KERNELS=reference HOOKE_LIST_PARALLEL_MIN=0", "info");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "kernel path in use: reference"));
    hk_run_free(&r);
}

/* The summary's rate is of the steps, not of the outputs: wall_s is the stepping loop, output_s the part of it
 * spent writing frames, stats rows and checkpoints, and spring_updates_per_s the spring updates over the rest
 * (before, over all of wall_s, outputs included, without saying so). */
static void test_summary_rate_without_outputs(void **state)
{
    (void)state;
    char args[1024];
    /* a frame and a stats row every other step, two checkpoints: the outputs take a good part of the loop */
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 100 --every 2 --out '%s' --stats '%s' --checkpoint '%s' "
                                        "--checkpoint-every 50 --quiet",
             hk_test_path("rate_frames"), hk_test_path("rate.csv"), hk_test_path("rate.ck"));
    hk_run r = hk_test_hooke("", args);
    assert_int_equal(r.status, 0);
    const double wall = field_num(r.out, "wall_s"), out = field_num(r.out, "output_s"),
                 rate = field_num(r.out, "spring_updates_per_s");
    /* the rope: 79 springs, 9 substeps of one force pass each, 100 steps */
    const double updates = 79.0 * 9 * 100;
    print_message("wall_s %g, output_s %g, spring_updates_per_s %g\n", wall, out, rate);
    assert_true(out > 0 && out < wall);
    /* rate x (wall_s - output_s) is the updates, to the printed digits: 5 of the rate, microseconds of the times */
    const double busy = wall - out;
    assert_true(fabs(rate * busy - updates) <= rate * 1.001e-6 + 5.001e-5 * updates);
    hk_run_free(&r);
    /* no outputs: none of the loop's time is theirs */
    r = hk_test_hooke("", "run " SCENE("rope.scene") " --quiet");
    assert_int_equal(r.status, 0);
    assert_memory_equal(hk_test_field(r.out, "output_s"), "0.000000 ", 9);
    hk_run_free(&r);
}

/* An implicit run's summary names the solve's work: cg_per_step, and jacobian_products_per_s, the products with
 * the system matrix in spring products per second (each CG iteration makes at least one, over every spring). */
static void test_implicit_summary(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "run " SCENE("cloth_corners.scene") " --integrator implicit_euler --steps 20 --quiet");
    assert_int_equal(r.status, 0);
    const double cg = field_num(r.out, "cg_iterations"), springs = field_num(r.out, "springs"),
                 wall = field_num(r.out, "wall_s"), rate = field_num(r.out, "jacobian_products_per_s");
    assert_true(cg >= 20 && field_num(r.out, "cg_per_step") >= 1);
    assert_true(wall > 0 && rate > 0);
    assert_true(rate >= 0.999 * cg * springs / wall); /* wall_s is printed to 6 decimals */
    hk_run_free(&r);
    /* an explicit run has none of these */
    r = hk_test_hooke("", "run " SCENE("cloth_corners.scene") " --steps 20 --quiet");
    assert_null(strstr(r.out, "jacobian_products_per_s"));
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_info_lists),
        cmocka_unit_test(test_implicit_summary),
        cmocka_unit_test(test_summary_rate_without_outputs),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_bad_scene_files),
        cmocka_unit_test(test_default_threads),
        cmocka_unit_test(test_summary_and_overrides),
        cmocka_unit_test(test_stats_csv),
        cmocka_unit_test(test_stats_digits),
        cmocka_unit_test(test_state_out),
        cmocka_unit_test(test_blowup_exit_2),
        cmocka_unit_test(test_unwritable_output_exit_3),
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_bad_environment),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
