/* test_bench.c — `hooke bench`: topology, FOM per thread count, VALID, JSON fields, and INVALID on a broken kernel. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* sched_setaffinity */
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "hk_test_cli.h"

#include <fcntl.h>

#include "engine.h"
#include "fom.h"

/* ---- a strict JSON reader, enough to check the report's fields ---------- */

typedef struct json {
    const char *s;
    int bad;
} json;

static void ws(json *j)
{
    while (*j->s == ' ' || *j->s == '\n' || *j->s == '\t' || *j->s == '\r') j->s++;
}

static void skip_value(json *j);

/* Reads a string into buf (escapes kept verbatim; the report has none). */
static void read_string(json *j, char *buf, size_t len)
{
    size_t n = 0;
    if (*j->s != '"') {
        j->bad = 1;
        return;
    }
    j->s++;
    while (*j->s && *j->s != '"') {
        if (*j->s == '\\' && j->s[1]) j->s++;
        if (n + 1 < len) buf[n++] = *j->s;
        j->s++;
    }
    if (*j->s != '"')
        j->bad = 1;
    else
        j->s++;
    if (len) buf[n] = '\0';
}

static double read_number(json *j)
{
    char *end;
    double v = strtod(j->s, &end);
    if (end == j->s) j->bad = 1;
    j->s = end;
    return v;
}

static void skip_value(json *j)
{
    ws(j);
    char tmp[8];
    if (*j->s == '"') {
        read_string(j, tmp, sizeof tmp);
    } else if (*j->s == '{' || *j->s == '[') {
        char close = *j->s == '{' ? '}' : ']';
        j->s++;
        ws(j);
        if (*j->s == close) {
            j->s++;
            return;
        }
        for (;;) {
            if (close == '}') {
                ws(j);
                read_string(j, tmp, sizeof tmp);
                ws(j);
                if (*j->s != ':') {
                    j->bad = 1;
                    return;
                }
                j->s++;
            }
            skip_value(j);
            ws(j);
            if (*j->s == ',') {
                j->s++;
                continue;
            }
            if (*j->s == close) {
                j->s++;
                return;
            }
            j->bad = 1;
            return;
        }
    } else if (strncmp(j->s, "true", 4) == 0 || strncmp(j->s, "null", 4) == 0) {
        j->s += 4;
    } else if (strncmp(j->s, "false", 5) == 0) {
        j->s += 5;
    } else {
        read_number(j);
    }
}

/* In the object starting at s, the position of the value of key (NULL if absent). */
static const char *member(const char *s, const char *key)
{
    json j = {s, 0};
    ws(&j);
    if (*j.s != '{') return NULL;
    j.s++;
    for (;;) {
        char name[128];
        ws(&j);
        if (*j.s == '}') return NULL;
        read_string(&j, name, sizeof name);
        ws(&j);
        if (j.bad || *j.s != ':') return NULL;
        j.s++;
        ws(&j);
        if (strcmp(name, key) == 0) return j.s;
        skip_value(&j);
        ws(&j);
        if (j.bad) return NULL;
        if (*j.s == ',') j.s++;
    }
}

static int is_valid_json(const char *text)
{
    json j = {text, 0};
    skip_value(&j);
    ws(&j);
    return !j.bad && *j.s == '\0';
}

/* ---- tests --------------------------------------------------------------- */

static int line_count_starting(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, prefix, len) == 0) n++;
        p = strchr(p, '\n');
        if (p) p++;
    }
    return n;
}

/* The "done when": --sweep on the 1.57-million-spring cloth prints the
 * topology, one FOM row per thread count, VALID, and JSON with the fields. */
static void test_sweep_on_million_spring_cloth(void **state)
{
    (void)state;
    const char *js = hk_test_path("bench.json");
    char args[512];
    snprintf(args, sizeof args, "bench --builtin cloth --sweep --repeat 2 --warmup 1 --steps 2 --json '%s'", js);
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive", args);
    assert_int_equal(r.status, 0);
    /* topology before the numbers */
    assert_non_null(strstr(r.out, "# machine:"));
    assert_non_null(strstr(r.out, "# simd:"));
    assert_non_null(strstr(r.out, "# openmp:"));
    assert_non_null(strstr(r.out, "1567746 springs"));
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_non_null(strstr(r.out, "\nFOM "));
    assert_true(strstr(r.out, "VALID") < strstr(r.out, "\nFOM "));

    char *text = hk_test_slurp(js);
    assert_non_null(text);
    assert_true(is_valid_json(text));
    const char *v = member(text, "verification");
    assert_non_null(v);
    assert_memory_equal(v, "\"VALID\"", 7);
    v = member(text, "scaling");
    assert_non_null(v);
    assert_memory_equal(v, "\"strong\"", 8);
    const char *fom = member(text, "fom_spring_updates_per_s");
    assert_non_null(fom);
    assert_true(strtod(fom, NULL) > 0);
    const char *res = member(text, "results");
    assert_non_null(res);
    assert_int_equal(*res, '[');
    /* one result per thread count of the sweep, each with its fields */
    /* table rows are right-aligned thread counts; each has its memory per rank and its run delay under it */
    const int memory = line_count_starting(r.out, "         memory per rank: ");
    const int delay = line_count_starting(r.out, "         run delay: the threads waited ");
    const int rows = line_count_starting(r.out, "      ") - memory - delay;
    assert_int_equal(memory, rows);
    assert_int_equal(delay, rows);
    const char *p = res + 1;
    int n = 0;
    char first_hash[32] = "";
    while (1) {
        json j = {p, 0};
        ws(&j);
        if (*j.s != '{') break;
        const char *obj = j.s;
        const char *t = member(obj, "threads");
        assert_non_null(t);
        assert_int_equal((int)strtol(t, NULL, 10), n + 1);
        const char *f = member(obj, "fom_spring_updates_per_s");
        assert_non_null(f);
        assert_true(strtod(f, NULL) > 0);
        const char *ns = member(obj, "ns_per_spring_update");
        assert_non_null(ns);
        assert_true(strtod(ns, NULL) > 0);
        const char *tmin = member(obj, "time_per_step_min_s"), *tmed = member(obj, "time_per_step_median_s"),
                   *tmax = member(obj, "time_per_step_max_s");
        assert_non_null(tmin);
        assert_non_null(tmed);
        assert_non_null(tmax);
        assert_true(strtod(tmin, NULL) <= strtod(tmed, NULL) && strtod(tmed, NULL) <= strtod(tmax, NULL));
        assert_non_null(member(obj, "efficiency"));
        const char *h = member(obj, "state_hash");
        assert_non_null(h);
        json hj = {h, 0};
        char hash[32];
        read_string(&hj, hash, sizeof hash);
        if (n == 0) snprintf(first_hash, sizeof first_hash, "%s", hash);
        assert_string_equal(hash, first_hash); /* bit-identical for every thread count */
        const char *ok = member(obj, "hash_ok");
        assert_non_null(ok);
        assert_memory_equal(ok, "true", 4);
        /* the run delay (schedstat, which Linux keeps): a time and a share of the threads' time */
        const char *wait = member(obj, "run_delay_per_step_s"), *share = member(obj, "run_delay_share");
        assert_non_null(wait);
        assert_non_null(share);
        assert_true(strtod(wait, NULL) >= 0 && strtod(share, NULL) >= 0);
        assert_true(strtod(wait, NULL) <= strtod(tmax, NULL) * (n + 1) * 1.01); /* at most the threads' time */
        n++;
        skip_value(&j);
        ws(&j);
        if (*j.s != ',') break;
        p = j.s + 1;
    }
    assert_true(n >= 1);
    assert_int_equal(n, rows);
    free(text);
    hk_run_free(&r);
}

/* A deliberately broken kernel: after every engine pass thread 1 nudges one
 * velocity of its share of the particles (so never on 1 thread) by 1e-6
 * m/s. The hashes then differ from the 1-thread run's, so the verdict is
 * INVALID and the exit status 2. */
static void nudge_on_thread_1(hk_world *w, int t, int T)
{
    const int count = hk_world_particles(w).count;
    const int first = (int)((int64_t)count * t / T), last = (int)((int64_t)count * (t + 1) / T);
    if (t == 1 && first < last) hk_test_mut(hk_world_particles(w).vx)[first] += (hk_real)1e-6;
}

/* `hooke bench ARGS` in this process (so the engine's test hook applies),
 * stdout into a file of the temporary directory; its exit status. */
static int bench_in_process(const char *args, char **out)
{
    char line[512], *argv[32];
    snprintf(line, sizeof line, "hooke bench %s", args);
    int argc = 0;
    for (char *tok = strtok(line, " "); tok && argc < 31; tok = strtok(NULL, " ")) argv[argc++] = tok;
    argv[argc] = NULL;
    const char *path = hk_test_path("bench_in_process.txt");
    fflush(stdout);
    const int saved = dup(1);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(saved >= 0 && fd >= 0);
    assert_true(dup2(fd, 1) >= 0);
    close(fd);
    const int rc = hk_cmd_bench(argc, argv);
    fflush(stdout);
    assert_true(dup2(saved, 1) >= 0);
    close(saved);
    *out = hk_test_slurp(path);
    assert_non_null(*out);
    return rc;
}

static void test_broken_kernel_is_invalid(void **state)
{
    (void)state;
#ifndef HOOKE_USE_OPENMP
    skip(); /* one thread only: there is no thread 1 to break */
#endif
    const char *args = "--builtin cloth --threads 1,2 --repeat 1 --warmup 1 --steps 2";
    char *out;
    hk_bench_after_pass = nudge_on_thread_1;
    int rc = bench_in_process(args, &out);
    hk_bench_after_pass = NULL;
    if (strstr(out, "kernel path in use: reference")) { /* HOOKE_SIMD=OFF: the serial reference has no engine */
        free(out);
        skip();
    }
    assert_int_equal(rc, 2);
    assert_non_null(strstr(out, "\nINVALID\n"));
    assert_non_null(strstr(out, "verify threads=2: state_hash DIFFERS FROM the 1-thread hash"));
    assert_non_null(strstr(out, "verify threads=1: state_hash equals"));
    free(out);
    /* the same run without the fault is VALID */
    rc = bench_in_process(args, &out);
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out, "\nVALID\n"));
    free(out);
}

/* Weak scaling grows the problem with the thread count and still verifies
 * each size against its own 1-thread run. */
static void test_weak_scaling(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive",
                             "bench --builtin jelly --weak --threads 1,2 --repeat 1 --warmup 1 --steps 1");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "weak scaling"));
    assert_non_null(strstr(r.out, "  262144 ")); /* 64^3 particles on 1 thread */
    assert_non_null(strstr(r.out, "  524288 ")); /* two 64^3 blocks on 2 */
    assert_non_null(strstr(r.out, "\nVALID\n"));
    hk_run_free(&r);
}

/* Each thread of a weak-scaling run sees the 1-thread problem (its own
 * panel), so the run is VALID at any thread count, oversubscribed too (the
 * cloth grown into one long sheet was not: 82 m of float coordinates grew
 * its energy past the bound at 16 threads). Panel energies add up: each of
 * n panels ends with the 1-thread energy. */
static void test_weak_scaling_panels(void **state)
{
    (void)state;
    const char *js = hk_test_path("weak.json");
    char args[512];
    snprintf(args, sizeof args,
             "bench --builtin cloth --weak --threads 1,2,4,8,16 --size 64 --repeat 1 --warmup 1 --steps 3 "
             "--json '%s'",
             js);
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive", args);
    if (r.status != 0) print_error("%s\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nVALID\n"));
    for (int n = 1; n <= 16; n *= 2) {
        char want[64];
        snprintf(want, sizeof want, "  %d ", 4096 * n); /* n panels of 64 x 64 */
        assert_non_null(strstr(r.out, want));
    }
    hk_run_free(&r);
    char *j = hk_test_slurp(js);
    assert_non_null(j);
    double e[5];
    const char *p = j;
    for (int i = 0; i < 5; i++) {
        p = strstr(p, "\"energy_end_J\": ");
        assert_non_null(p);
        p += strlen("\"energy_end_J\": ");
        e[i] = strtod(p, NULL);
    }
    for (int i = 1; i < 5; i++) assert_near(e[i], (1 << i) * e[0], 1e-9 * fabs((1 << i) * e[0]) + 1e-12);
    free(j);
}

static void test_bad_flags(void **state)
{
    (void)state;
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"bench --threads 0", "hooke: error: bench: --threads expects a comma-separated list of thread counts 1..4096"},
        {"bench --threads 1,x", "hooke: error: bench: --threads expects"},
        {"bench --repeat 0", "hooke: error: bench: --repeat expects a repetition count 1..1000, got '0'"},
        {"bench --builtin sphere", "hooke: error: bench: --builtin expects cloth or jelly, got 'sphere'"},
        {"bench --gbench-json", "hooke: error: bench: --gbench-json expects a file name"},
        {"bench --frobnicate", "hooke: error: unknown option '--frobnicate' for bench (see hooke bench --help)"},
        {"bench " HOOKE_SCENES_DIR "/rope.scene --weak", "--weak needs a --builtin problem"},
        {"bench " HOOKE_SCENES_DIR "/rope.scene --builtin cloth", "give a scene or --builtin, not both"},
        {"bench /nonexistent/x.scene --threads 1", "cannot open scene: No such file or directory"},
        {"bench --ranks 1,0", "hooke: error: bench: --ranks expects a comma-separated list of rank counts 1..4096"},
        /* one process (no MPI launcher, or no MPI in the build): one rank */
        {"bench --ranks 1,2", "hooke: error: bench: --ranks: 2 ranks asked for, but this"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        hk_run r = hk_test_hooke("", cases[i].args);
        if (r.status != 1 || !strstr(r.err, cases[i].message))
            print_error("%s: exit %d, stderr: %s\n", cases[i].args, r.status, r.err);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.err, cases[i].message));
        hk_run_free(&r);
    }
    hk_run r = hk_test_hooke("", "bench --help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "usage: hooke bench"));
    hk_run_free(&r);
}

/* --json has the machine the text prints and the date; --gbench-json one entry per repetition and their
 * median; both written by --NAME=VALUE options. */
static void test_json_files(void **state)
{
    (void)state;
    const char *js = hk_test_path("eq.json"), *gb = hk_test_path("eq_gbench.json");
    char args[1024];
    snprintf(args, sizeof args,
             "bench --builtin=jelly --size=6 --threads=1,2 --repeat=2 --steps=3 --warmup=1 --strong --json='%s' "
             "--gbench-json='%s'",
             js, gb);
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive", args);
    if (r.status != 0) print_error("%s\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "hooke bench: jelly 6x6x6, 26 neighbours, 216 particles"));
    assert_non_null(strstr(r.out, "2 x 3 steps"));
    hk_run_free(&r);
    char *text = hk_test_slurp(js);
    assert_non_null(text);
    assert_true(is_valid_json(text));
    const char *v = member(text, "steps_per_repeat");
    assert_non_null(v);
    assert_int_equal(strtol(v, NULL, 10), 3);
    v = member(text, "builtin");
    assert_non_null(v);
    assert_memory_equal(v, "\"jelly\"", 7);
    /* the machine facts the text prints, and the date in ISO 8601 UTC */
    json dj = {member(text, "date"), 0};
    assert_non_null(dj.s);
    char date[64];
    read_string(&dj, date, sizeof date);
    int y, mo, d, h, mi, sec;
    char z;
    assert_int_equal(sscanf(date, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &sec, &z), 7);
    assert_int_equal(strlen(date), 20);
    assert_int_equal(z, 'Z');
    const char *machine = member(text, "machine");
    assert_non_null(machine);
    for (const char *key =
             "cpu\0packages\0cores\0pus\0numa_nodes\0caches\0cpu_isa\0kernels\0mask\0mask_cores\0openmp\0";
         *key; key += strlen(key) + 1)
        if (!member(machine, key)) fail_msg("machine has no %s", key);
    v = member(machine, "mask_cores");
    assert_true(strtol(v, NULL, 10) >= 1);
#ifdef HOOKE_USE_OPENMP
    const char *omp = member(machine, "openmp");
    assert_int_equal(*omp, '{');
    assert_non_null(member(omp, "env"));
    assert_non_null(member(omp, "placement"));
    assert_non_null(member(omp, "binding"));
#endif
    const char *build = member(text, "build");
    assert_non_null(build);
    assert_non_null(member(build, "compiler"));
    assert_non_null(member(build, "c_flags"));
    free(text);
    text = hk_test_slurp(gb);
    assert_non_null(text);
    assert_true(is_valid_json(text));
    /* per thread count two repetitions and their median */
    int entries = 0;
    for (const char *p = strstr(text, "\"run_type\""); p; p = strstr(p + 1, "\"run_type\"")) entries++;
    assert_int_equal(entries, 2 * 3);
    assert_non_null(strstr(text, "\"name\": \"jelly/n:6/strong/threads:2_median\""));
    free(text);
}

/* A core shared with a busy loop at the same priority: hooke bench on 1 thread, pinned to the loop's core, is kept off
 * it about half the time (the scheduler shares a core evenly between two runnable threads of one priority), and
 * says so: its run delay is a large share of its time and the note names the row. The verdict is VALID all the
 * same. */
static void test_busy_core_reported(void **state)
{
    (void)state;
    cpu_set_t mine, one;
    assert_int_equal(sched_getaffinity(0, sizeof mine, &mine), 0);
    int cpu = 0;
    while (!CPU_ISSET(cpu, &mine)) cpu++;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0); /* the loop and hooke inherit it */
    const pid_t loop = fork();
    assert_true(loop >= 0);
    if (loop == 0)
        for (volatile unsigned long spin = 0;; spin++) {
        }
    const char *js = hk_test_path("busy.json");
    char args[1024];
    snprintf(args, sizeof args, "bench --builtin cloth --size 64 --threads 1 --repeat 3 --warmup 1 --json '%s'", js);
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive", args);
    kill(loop, SIGKILL);
    waitpid(loop, NULL, 0);
    assert_int_equal(sched_setaffinity(0, sizeof mine, &mine), 0);
    if (r.status != 0) print_error("%s\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "note: at threads=1 the threads waited "));
    char *text = hk_test_slurp(js);
    assert_non_null(text);
    const char *res = member(text, "results");
    assert_non_null(res);
    const char *share = member(res + 1, "run_delay_share");
    assert_non_null(share);
    print_message("1 thread beside a busy loop on cpu %d: waited %.1f%% of its time\n", cpu, 100 * strtod(share, NULL));
    assert_true(strtod(share, NULL) > 0.2);
    free(text);
    hk_run_free(&r);
}

/* Without an MPI launcher --ranks 1 is the one process: the rows and the summary as without it. */
static void test_ranks_one_process(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive",
                             "bench --builtin cloth --size 16 --ranks 1 --threads 1,2 --repeat 1 --warmup 1 --steps 2");
    if (r.status != 0) print_error("%s\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nthreads  particles  springs")); /* no ranks column: not over MPI ranks */
    assert_non_null(strstr(r.out, "verify threads=1: state_hash equals the 1-thread hash"));
    assert_non_null(strstr(r.out, "verify threads=2: state_hash equals the 1-thread hash"));
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_null(hk_test_field(r.out, "ranks"));
    hk_run_free(&r);
}

/* A kernel path hooke does not know is an error naming the ones it does, before anything runs. */
static void test_unknown_kernel_path(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("HOOKE_KERNELS=avx1024", "bench --builtin cloth --size 8 --threads 1 --repeat 1");
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "hooke: error: HOOKE_KERNELS=avx1024: expected reference, scalar, avx2 or avx512"));
    hk_run_free(&r);
}

/* The table's times keep four significant digits below 1 ms (a 16 x 16 cloth's step takes microseconds: it
 * printed 0.005, one digit). */
static void test_small_times_keep_digits(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "bench --builtin cloth --size 16 --threads 1 --repeat 2 --warmup 1 --steps 4");
    assert_int_equal(r.status, 0);
    const char *row = strstr(r.out, "\n      1        256");
    assert_non_null(row);
    int threads, particles;
    long long springs;
    char t[3][32];
    assert_int_equal(sscanf(row, "%d %d %lld %31s %31s %31s", &threads, &particles, &springs, t[0], t[1], t[2]), 6);
    for (int k = 0; k < 3; k++) {
        const double ms = strtod(t[k], NULL);
        assert_true(ms > 0);
        if (ms >= 1) continue;
        const char *d = t[k];
        while (*d == '0' || *d == '.') d++;
        if (strlen(d) < 4) {
            print_error("min/median/max %s %s %s: '%s' keeps %zu digits\n", t[0], t[1], t[2], t[k], strlen(d));
            fail();
        }
    }
    hk_run_free(&r);
}

/* A scene with colliders: under each row what the contact's phases took a step, in the text and in --json (each
 * a finite time, the forces' above 0: the cloth starts on its box, so every evaluation queries it); the jelly of
 * test_json_files, without colliders, has none. */
static void test_contact_phases(void **state)
{
    (void)state;
    const char *js = hk_test_path("box.json");
    char args[1024];
    snprintf(args, sizeof args, "bench '%s/cloth_box.scene' --threads 1 --repeat 2 --steps 3 --warmup 1 --json '%s'",
             HOOKE_SCENES_DIR, js);
    hk_run r = hk_test_hooke("OMP_WAIT_POLICY=passive", args);
    if (r.status != 0) print_error("%s\n%s\n", r.out, r.err);
    assert_int_equal(r.status, 0);
    assert_int_equal(line_count_starting(r.out, "         contact: broad "), 1);
    hk_run_free(&r);
    char *text = hk_test_slurp(js);
    assert_non_null(text);
    assert_true(is_valid_json(text));
    static const char *const keys[] = {"contact_broad_per_step_s", "contact_forces_per_step_s",
                                       "contact_safety_per_step_s"};
    for (int k = 0; k < 3; k++) {
        char quoted[64];
        snprintf(quoted, sizeof quoted, "\"%s\":", keys[k]);
        const char *v = strstr(text, quoted);
        assert_non_null(v);
        const double t = strtod(v + strlen(quoted), NULL);
        assert_true(isfinite(t) && t >= 0);
        if (k == 1) assert_true(t > 0);
    }
    free(text);
    r = hk_test_hooke("OMP_WAIT_POLICY=passive", "bench --builtin=jelly --size=6 --threads=1 --repeat=1 --steps=2");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "contact:"));
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep_on_million_spring_cloth),
        cmocka_unit_test(test_broken_kernel_is_invalid),
        cmocka_unit_test(test_weak_scaling),
        cmocka_unit_test(test_weak_scaling_panels),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_small_times_keep_digits),
        cmocka_unit_test(test_json_files),
        cmocka_unit_test(test_contact_phases),
        cmocka_unit_test(test_unknown_kernel_path),
        cmocka_unit_test(test_ranks_one_process),
        cmocka_unit_test(test_busy_core_reported),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
