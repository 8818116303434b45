/* test_interrupt.c — runs stopped by SIGINT, SIGTERM and SIGKILL leave whole outputs; endless inputs are refused. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_cli.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

/* Sanitized builds (of this test and of the program beside it) reserve
 * terabytes of address space: no memory cap can be set there. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* A cloth of 100 x 100 nodes run for a million steps: long enough to be
 * stopped from outside at any moment. */
static const char *long_scene(void)
{
    const char *sc = hk_test_path("long.scene");
    hk_test_write(sc, "world\n gravity 0 -9.81 0\nend\n"
                      "body cloth\n nx 100\n ny 100\n spacing 0.01\n mass 1e-4\n pins two_corners\n"
                      " springs structural k 100 damping 0.01\n springs shear k 50\n springs bend k 20\nend\n"
                      "run\n integrator semi_implicit_euler\n dt 2e-4\n steps 1000000\nend\n");
    return sc;
}

/* Starts `hooke ARGS...` (NULL-terminated) with stdout and stderr into the
 * test's files, under a memory cap and a wall-clock alarm when asked. */
static pid_t start(char *const argv[], rlim_t memory_cap, unsigned alarm_s)
{
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int out = open(hk_test_path("child.out"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(hk_test_path("child.err"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0) _exit(99);
        dup2(out, 1);
        dup2(err, 2);
        if (memory_cap) {
            struct rlimit lim = {memory_cap, memory_cap};
            setrlimit(RLIMIT_AS, &lim);
        }
        if (alarm_s) alarm(alarm_s); /* SIGALRM ends it: the test sees a signal, not an exit */
        execv(HOOKE_BIN, argv);
        _exit(98);
    }
    return pid;
}

static int finish(pid_t pid)
{
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Lines in a file (0 if it does not exist). */
static int lines_in(const char *path)
{
    char *text = hk_test_slurp(path);
    int n = 0;
    for (char *c = text; c && *c; c++) n += *c == '\n';
    free(text);
    return n;
}

/* frames.pvd is whole: the header, one complete DataSet line per frame
 * whose file exists, the closing tags at its very end; returns the frames. */
static int check_pvd(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/frames.pvd", dir);
    char *text = hk_test_slurp(path);
    assert_non_null(text);
    assert_true(strncmp(text, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\"", 48) == 0);
    const char *end = "  </Collection>\n</VTKFile>\n";
    assert_true(strlen(text) > strlen(end) && strcmp(text + strlen(text) - strlen(end), end) == 0);
    int frames = 0;
    for (char *d = strstr(text, "<DataSet "); d; d = strstr(d + 1, "<DataSet ")) {
        double t;
        char file[64];
        if (sscanf(d, "<DataSet timestep=\"%lf\" group=\"\" part=\"0\" file=\"%63[^\"]\"/>", &t, file) != 2) {
            print_error("frames.pvd has an incomplete entry: %.80s\n", d);
            fail();
        }
        snprintf(path, sizeof path, "%s/%s", dir, file);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        fclose(f);
        frames++;
    }
    free(text);
    return frames;
}

/* The point cache DIR/frames.pc2 is a valid PC2 file of `points` points
 * whose header counts exactly the samples it holds; returns them. */
static int check_pc2(const char *dir, int points)
{
    char path[512];
    snprintf(path, sizeof path, "%s/frames.pc2", dir);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned char h[32];
    assert_int_equal(fread(h, 1, 32, f), 32);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    const long size = ftell(f);
    fclose(f);
    assert_memory_equal(h, "POINTCACHE2\0", 12);
    const uint32_t version = h[12] | h[13] << 8 | (uint32_t)h[14] << 16 | (uint32_t)h[15] << 24,
                   n = h[16] | h[17] << 8 | (uint32_t)h[18] << 16 | (uint32_t)h[19] << 24,
                   samples = h[28] | h[29] << 8 | (uint32_t)h[30] << 16 | (uint32_t)h[31] << 24;
    assert_int_equal(version, 1);
    assert_int_equal(n, points);
    assert_int_equal(size, 32 + (long)samples * points * 12);
    return (int)samples;
}

/* SIGINT and SIGTERM in the middle of a run with --stats, --out and
 * --checkpoint-on-exit: the step in hand finishes, the stats rows are all
 * there and parse, frames.pvd is whole, the point cache's header counts
 * every frame, the checkpoint restarts, the summary says interrupted=1,
 * and the exit status is 128 + the signal. */
static void test_sigint_sigterm(void **state)
{
    (void)state;
    const int sigs[2] = {SIGINT, SIGTERM};
    for (int k = 0; k < 2; k++) {
        char out[256], stats[256], ck[256], scene[256]; /* own copies: hk_test_path reuses its buffers */
        snprintf(scene, sizeof scene, "%s", long_scene());
        snprintf(out, sizeof out, "%s", hk_test_path(k ? "frames_term" : "frames_int"));
        snprintf(stats, sizeof stats, "%s", hk_test_path(k ? "term.csv" : "int.csv"));
        snprintf(ck, sizeof ck, "%s", hk_test_path(k ? "term.ck" : "int.ck"));
        char *argv[] = {"hooke",
                        "run",
                        scene,
                        "--every",
                        "5",
                        "--stats",
                        stats,
                        "--out",
                        out,
                        "--format",
                        "vtk,blender",
                        "--checkpoint",
                        ck,
                        "--checkpoint-on-exit",
                        NULL};
        const pid_t pid = start(argv, 0, 600);
        /* wait until the run is well under way: a few stats rows */
        for (int i = 0; i < 6000 && lines_in(stats) < 4; i++) sleep_ms(10);
        assert_true(lines_in(stats) >= 4);
        kill(pid, sigs[k]);
        const int status = finish(pid);
        char *so = hk_test_slurp(hk_test_path("child.out")), *se = hk_test_slurp(hk_test_path("child.err"));
        if (status != 128 + sigs[k] || !strstr(so, " interrupted=1")) {
            print_error("signal %d: exit %d\nstdout: %s\nstderr: %s\n", sigs[k], status, so, se);
            fail();
        }
        assert_non_null(strstr(se, k ? "hooke: stopped (SIGTERM) at step " : "hooke: interrupted (SIGINT) at step "));
        const long long steps = strtoll(hk_test_field(so, "steps"), NULL, 10);
        /* every row parses, the last is the step the run stopped at */
        char *text = hk_test_slurp(stats);
        const char *last = strrchr(text, '\n');
        while (last > text && last[-1] != '\n') last--;
        long long row_step = -1;
        double t, e[5];
        assert_int_equal(sscanf(last, "%lld,%lf,%lf,%lf,%lf,%lf,%lf", &row_step, &t, e, e + 1, e + 2, e + 3, e + 4), 7);
        assert_int_equal(row_step, steps);
        free(text);
        const int frames = check_pvd(out);
        assert_true(frames >= 2);
        assert_int_equal(check_pc2(out, 100 * 100), frames);
        /* the checkpoint written on exit continues from the step it stopped at */
        char args[1024];
        snprintf(args, sizeof args, "run '%s' --restart '%s' --steps %lld --quiet", scene, ck, steps + 3);
        hk_run r = hk_test_hooke("", args);
        assert_int_equal(r.status, 0);
        assert_int_equal(strtoll(hk_test_field(r.out, "steps_run"), NULL, 10), 3);
        hk_run_free(&r);
        free(so);
        free(se);
    }
}

/* Files in dir whose name starts with prefix. */
static int count_files(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

/* SIGKILL at twenty moments of a run that writes a checkpoint every step:
 * the checkpoint on disk always restarts (the write is a rename of a
 * finished file), and at most its one temporary file is ever left, which
 * the next write reuses. */
static void test_sigkill_checkpoints(void **state)
{
    (void)state;
    char ck[256], scene[256]; /* own copies: hk_test_path reuses its buffers */
    snprintf(ck, sizeof ck, "%s", hk_test_path("kill.ck"));
    snprintf(scene, sizeof scene, "%s", long_scene());
    char *argv[] = {"hooke", "run", scene, "--checkpoint", ck, "--checkpoint-every", "1", "--quiet", NULL};
    unsigned seed = 12345;
    for (int i = 0; i < 20; i++) {
        const pid_t pid = start(argv, 0, 600);
        seed = seed * 1103515245u + 12345u;
        sleep_ms(150 + (long)(seed >> 16) % 400);
        kill(pid, SIGKILL);
        assert_int_equal(finish(pid), -SIGKILL);
        assert_true(count_files(hk_test_tmpdir(), "kill.ck") <= 2); /* kill.ck and kill.ck.tmp */
        FILE *f = fopen(ck, "rb");
        if (!f) continue; /* killed before its first checkpoint */
        fclose(f);
        char args[1024];
        snprintf(args, sizeof args, "run '%s' --restart '%s' --steps 1", scene, ck);
        hk_run r = hk_test_hooke("", args);
        if (r.status != 4) { /* read whole and checked; at or past step 1: nothing to run */
            print_error("kill %d: the checkpoint does not restart: exit %d, %s\n", i, r.status, r.err);
            fail();
        }
        hk_run_free(&r);
    }
    FILE *f = fopen(ck, "rb");
    assert_non_null(f); /* some kill came after the first checkpoint */
    fclose(f);
}

/* SIGKILL at twenty moments of a run that writes a frame every step into the
 * same folder: frames.pvd is always whole (the header, complete entries of
 * frames that exist, the closing tags), and of the frames' temporary files
 * only the one being written may be left: the next run removes it. */
static void test_sigkill_frames(void **state)
{
    (void)state;
    char out[256], scene[256];
    snprintf(out, sizeof out, "%s", hk_test_path("killed_frames"));
    snprintf(scene, sizeof scene, "%s", hk_test_path("rope_long.scene"));
    hk_test_write(scene, "world\n gravity 0 -9.81 0\nend\nbody rope\n count 40\n mass 0.01\n spacing 0.02\n pin 0\n"
                         " springs chain k 100 damping 0.01\nend\nrun\n dt 1e-3\n steps 1000000\nend\n");
    char *argv[] = {"hooke", "run", scene, "--out", out, "--every", "1", "--quiet", NULL};
    unsigned seed = 4321;
    int whole = 0;
    for (int i = 0; i < 20; i++) {
        const pid_t pid = start(argv, 0, 600);
        seed = seed * 1103515245u + 12345u;
        sleep_ms(200 + (long)(seed >> 16) % 300);
        kill(pid, SIGKILL);
        assert_int_equal(finish(pid), -SIGKILL);
        char pvd[300];
        snprintf(pvd, sizeof pvd, "%s/frames.pvd", out);
        FILE *f = fopen(pvd, "rb");
        if (!f) continue; /* killed before its first frame */
        fclose(f);
        assert_true(check_pvd(out) >= 1);
        whole++;
        assert_true(count_files(out, "frames.pvd") <= 2); /* frames.pvd and frames.pvd.tmp */
        DIR *d = opendir(out);
        assert_non_null(d);
        int tmp = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            const size_t n = strlen(e->d_name);
            tmp += n > 4 && strcmp(e->d_name + n - 4, ".tmp") == 0 && strncmp(e->d_name, "frames.pvd", 10) != 0;
        }
        closedir(d);
        assert_true(tmp <= 1); /* the frame being written when it was killed */
    }
    assert_true(whole > 0);
}

/* A command that must be refused: its arguments and a line its stderr holds. */
typedef struct {
    char *argv[8];
    const char *message;
} refusal;

/* Runs each command under the memory cap `cap` (0: none) and a 30 s alarm;
 * each must exit 1 with its message. */
static void expect_refusals(const refusal *cases, size_t n, rlim_t cap)
{
    for (size_t i = 0; i < n; i++) {
        const int status = finish(start(cases[i].argv, cap, 30));
        char *se = hk_test_slurp(hk_test_path("child.err"));
        if (status != 1 || !strstr(se, cases[i].message)) {
            print_error("%s %s: exit %d, stderr: %s\nexpected: %s\n", cases[i].argv[1], cases[i].argv[2], status, se,
                        cases[i].message);
            fail();
        }
        free(se);
    }
}

/* Endless and non-regular inputs are refused at once with a message, under
 * a memory cap that a reader of all of /dev/zero would hit: a checkpoint,
 * a scene, a stats CSV to plot; a folder as a checkpoint too. */
static void test_endless_inputs(void **state)
{
    (void)state;
#if SANITIZED
    const rlim_t cap = 0; /* a sanitizer reserves more address space than any cap: the alarm stays */
#else
    const rlim_t cap = (rlim_t)2 << 30;
#endif
    const refusal cases[] = {
        {{"hooke", "run", HOOKE_SCENES_DIR "/rope.scene", "--restart", "/dev/zero", NULL},
         "hooke: error: /dev/zero: cannot read checkpoint: it is not a regular file (a device, FIFO or socket)"},
        {{"hooke", "run", "/dev/zero", NULL},
         "/dev/zero: error: cannot read scene: it is not a regular file (a device, FIFO or socket)"},
        {{"hooke", "plot", "/dev/zero", NULL},
         "hooke: error: /dev/zero: cannot read stats CSV: it is not a regular file (a device, FIFO or socket)"},
        {{"hooke", "run", HOOKE_SCENES_DIR "/rope.scene", "--restart", "/tmp", NULL},
         "hooke: error: /tmp: cannot read checkpoint: it is a folder"},
    };
    expect_refusals(cases, sizeof cases / sizeof cases[0], cap);
}

/* A sparse file of `bytes` bytes (no disk used) at the test's path `name`; returns its path. */
static const char *sparse_file(const char *name, off_t bytes)
{
    const char *path = hk_test_path(name);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, bytes), 0);
    close(fd);
    return path;
}

/* Every reader refuses an input over its size limit before reading it (a
 * memory cap below the size, an alarm), and a mesh that is a FIFO: the
 * scene, checkpoint, mesh and stats CSV readers, each with its limit
 * (docs/user-guide.md, "Input limits"). */
static void test_size_limits(void **state)
{
    (void)state;
#if SANITIZED
    const rlim_t cap = 0;
#else
    const rlim_t cap = (rlim_t)512 << 20;
#endif
    char scene[256], ck[256], csv[256], mesh_scene[256], fifo_scene[256];
    snprintf(scene, sizeof scene, "%s", sparse_file("big.scene", (off_t)300 << 20));
    snprintf(ck, sizeof ck, "%s", sparse_file("big.ck", (off_t)10 << 20));
    snprintf(csv, sizeof csv, "%s", sparse_file("big.csv", (off_t)1100 << 20));
    sparse_file("big.obj", (off_t)1100 << 20);
    snprintf(mesh_scene, sizeof mesh_scene, "%s", hk_test_path("big_mesh.scene"));
    hk_test_write(mesh_scene, "body mesh\n file big.obj\n mass 0.01\n springs edges k 100\nend\n");
    const char *fifo = hk_test_path("fifo.obj");
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    snprintf(fifo_scene, sizeof fifo_scene, "%s", hk_test_path("fifo_mesh.scene"));
    hk_test_write(fifo_scene, "body mesh\n file fifo.obj\n mass 0.01\n springs edges k 100\nend\n");
    const refusal cases[] = {
        {{"hooke", "run", scene, NULL},
         "big.scene: error: cannot read scene: it is 314572800 bytes, more than the limit of 268435456 for a scene"},
        {{"hooke", "run", HOOKE_SCENES_DIR "/rope.scene", "--restart", ck, NULL},
         "big.ck: cannot read checkpoint: it is 10485760 bytes, more than the limit of "},
        {{"hooke", "plot", csv, NULL},
         "big.csv: cannot read stats CSV: it is 1153433600 bytes, more than the limit of 1073741824 for a stats CSV"},
        {{"hooke", "run", mesh_scene, NULL}, "big_mesh.scene:2:7: error: cannot load mesh: "},
        {{"hooke", "run", mesh_scene, NULL},
         "big.obj: cannot read mesh: it is 1153433600 bytes, more than the limit of 1073741824 for a mesh"},
        {{"hooke", "run", fifo_scene, NULL},
         "fifo.obj: cannot read mesh: it is not a regular file (a device, FIFO or socket)"},
    };
    expect_refusals(cases, sizeof cases / sizeof cases[0], cap);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigint_sigterm), cmocka_unit_test(test_sigkill_checkpoints),
        cmocka_unit_test(test_sigkill_frames), cmocka_unit_test(test_endless_inputs),
        cmocka_unit_test(test_size_limits),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
