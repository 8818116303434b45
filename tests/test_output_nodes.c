/* test_output_nodes.c — outputs at a path that is not a regular file: a device or FIFO written through, a folder or
 * socket refused, a link placed at NAME.tmp never followed. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* makedev */
#include "hk_test_cli.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>

#define SCENE(name) "'" HOOKE_SCENES_DIR "/" name "'"

/* A character device like /dev/null (1, 3) at the test's path name, made with mknod (root: containers, CI); the
 * test is skipped where it cannot be made. */
static const char *null_node(const char *name)
{
    const char *path = hk_test_own_path(name);
    unlink(path);
    if (mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0) {
        print_message("mknod %s: %s: skipped (needs root)\n", path, strerror(errno));
        skip();
    }
    return path;
}

static void assert_char_device(const char *path)
{
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    if (!S_ISCHR(st.st_mode)) {
        print_error("%s: no longer a character device (mode %o)\n", path, (unsigned)st.st_mode);
        fail();
    }
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_not_equal(access(tmp, F_OK), 0); /* nothing left beside it */
}

static hk_run run_expect(const char *args, int status)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != status) {
        print_error("hooke %s\nexit %d (expected %d)\nstderr: %s\n", args, r.status, status, r.err);
        fail();
    }
    return r;
}

/* --state-out, --checkpoint and --stats at a character device: written through, the node stays. */
static void test_run_outputs_to_device(void **state)
{
    (void)state;
    char args[1024];
    const char *dev = null_node("null");
    const char *flags[] = {"--state-out '%s'", "--checkpoint '%s' --checkpoint-on-exit", "--stats '%s'"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        char flag[512];
        snprintf(flag, sizeof flag, flags[i], dev);
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet %s", flag);
        hk_run r = run_expect(args, 0);
        assert_char_device(dev);
        hk_run_free(&r);
    }
}

/* Every frame format's files at character devices: each written through, each node still a device. */
static void test_frames_to_devices(void **state)
{
    (void)state;
    char args[1024];
    const char *dir = hk_test_own_path("frames");
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *names[] = {"frame_000000.vtp", "frame_000004.vtp", "frames.pvd", "frame_000000.obj", "frame_000000.png",
                           "frames_png.csv",   "frames.obj",       "frames.pc2", "frames_pc2.csv"};
    char path[sizeof names / sizeof names[0]][300];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path[i], sizeof path[i], "frames/%s", names[i]);
        snprintf(path[i], sizeof path[i], "%s", null_node(path[i]));
    }
    snprintf(args, sizeof args,
             "run " SCENE("rope.scene") " --steps 8 --every 4 --out '%s' --format vtk,obj,png,blender --quiet", dir);
    hk_run r = run_expect(args, 0);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) assert_char_device(path[i]);
    hk_run_free(&r);
    snprintf(path[0], sizeof path[0], "%s/frame_000008.vtp", dir); /* the files that were not nodes are written */
    assert_int_equal(access(path[0], F_OK), 0);
}

/* A FIFO is written through: a reader gets the state file's text, and the FIFO stays a FIFO. */
static void test_state_out_to_fifo(void **state)
{
    (void)state;
    const char *fifo = hk_test_own_path("pipe"), *got = hk_test_own_path("got.txt");
    assert_int_equal(mkfifo(fifo, 0644), 0);
    char env[600], args[512];
    /* the reader: bounded in time, so a run that never opens the FIFO does not leave it waiting */
    snprintf(env, sizeof env, "timeout 20 cat '%s' > '%s' &", fifo, got);
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet --state-out '%s'", fifo);
    hk_run r = hk_test_hooke(env, args);
    assert_int_equal(r.status, 0);
    hk_run_free(&r);
    struct stat st;
    assert_int_equal(lstat(fifo, &st), 0);
    assert_true(S_ISFIFO(st.st_mode));
    char *text = NULL;
    for (int i = 0; i < 100; i++) { /* the reader ends at the writer's close */
        free(text);
        text = hk_test_slurp(got);
        if (text && strstr(text, "# index x y z")) break;
        usleep(50000);
    }
    assert_non_null(text);
    assert_non_null(strstr(text, "# index x y z vx vy vz inv_mass\n"));
    free(text);
}

/* A link placed at NAME.tmp is removed, never written through: the file it names keeps its bytes. */
static void test_tmp_link_not_followed(void **state)
{
    (void)state;
    const char *victim = hk_test_own_path("victim.txt");
    const char *outs[] = {"--state-out '%s'", "--checkpoint '%s' --checkpoint-on-exit"};
    const char *names[] = {"x.state", "x.ck"};
    for (int i = 0; i < 2; i++) {
        hk_test_write(victim, "precious\n");
        const char *out = hk_test_own_path(names[i]);
        char tmp[300], flag[400], args[1024];
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        assert_int_equal(symlink(victim, tmp), 0);
        snprintf(flag, sizeof flag, outs[i], out);
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet %s", flag);
        hk_run r = run_expect(args, 0);
        hk_run_free(&r);
        char *text = hk_test_slurp(victim);
        assert_string_equal(text, "precious\n");
        free(text);
        struct stat st;
        assert_int_equal(lstat(out, &st), 0);
        assert_true(S_ISREG(st.st_mode)); /* the output itself, not the link renamed into place */
        assert_int_not_equal(lstat(tmp, &st), 0);
    }
}

/* A folder or a socket at an output's path is refused, the message naming the path and what is there. */
/* An output path that is a symbolic link to a regular file (as /dev/stdout is while standard output is a file): the
 * file is written whole and the link stays a link; a link to nothing is refused by name, nothing made. */
static void test_output_link_kept(void **state)
{
    (void)state;
    const char *target = hk_test_own_path("target.state"), *link = hk_test_own_path("out.link"),
               *dangling = hk_test_own_path("dangling.link");
    hk_test_write(target, "old\n");
    unlink(link);
    assert_int_equal(symlink(target, link), 0);
    char args[1024];
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet --state-out '%s'", link);
    hk_run r = run_expect(args, 0);
    hk_run_free(&r);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    if (!S_ISLNK(st.st_mode)) {
        print_error("%s: no longer a symbolic link (mode %o)\n", link, (unsigned)st.st_mode);
        fail();
    }
    char *text = hk_test_slurp(target);
    assert_non_null(text);
    assert_true(strcmp(text, "old\n") != 0); /* the state went to the file the link names */
    free(text);
    unlink(dangling);
    assert_int_equal(symlink(hk_test_own_path("no_such_folder/x"), dangling), 0);
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet --state-out '%s'", dangling);
    r = run_expect(args, 3);
    if (!strstr(r.err, "it is a symbolic link to nothing")) {
        print_error("expected the dangling link refused by name, got: %s\n", r.err);
        fail();
    }
    hk_run_free(&r);
    assert_int_equal(lstat(dangling, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
}

static void test_refused(void **state)
{
    (void)state;
    const char *folder = hk_test_own_path("a_folder");
    assert_int_equal(mkdir(folder, 0755), 0);
    const char *sock = hk_test_own_path("a_socket");
    const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sock);
    assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof addr), 0);
    const struct {
        const char *flag, *path, *said;
    } cases[] = {
        {"--stats", folder, "Is a directory"},
        {"--state-out", folder, "Is a directory"},
        {"--stats", sock, "it is a socket"},
        {"--state-out", sock, "it is a socket"},
        {"--checkpoint-on-exit --checkpoint", sock, "it is a socket"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024], want[512];
        snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 4 --quiet %s '%s'", cases[i].flag,
                 cases[i].path);
        hk_run r = run_expect(args, 3);
        snprintf(want, sizeof want, "cannot write %s: %s", cases[i].path, cases[i].said);
        if (!strstr(r.err, want)) {
            print_error("hooke %s\nexpected '%s' in: %s\n", args, want, r.err);
            fail();
        }
        hk_run_free(&r);
    }
    struct stat st;
    assert_int_equal(lstat(sock, &st), 0);
    assert_true(S_ISSOCK(st.st_mode));
    close(fd);
}

/* hooke stability --out and hooke plot --out at a character device: written through. */
static void test_tools_to_device(void **state)
{
    (void)state;
    char args[1024];
    const char *table = null_node("tools_null.csv"), *dev = null_node("tools_null.png"),
               *csv = hk_test_own_path("plot.csv");
    snprintf(args, sizeof args,
             "stability " SCENE("oscillator.scene") " --integrators semi_implicit_euler --points 2 --time 0.05 --quiet "
                                                    "--out '%s'",
             table);
    hk_run r = run_expect(args, 0);
    assert_char_device(table);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run " SCENE("rope.scene") " --steps 8 --every 4 --quiet --stats '%s'", csv);
    r = run_expect(args, 0);
    hk_run_free(&r);
    snprintf(args, sizeof args, "plot '%s' --out '%s'", csv, dev);
    r = run_expect(args, 0);
    assert_char_device(dev);
    hk_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_outputs_to_device), cmocka_unit_test(test_frames_to_devices),
        cmocka_unit_test(test_state_out_to_fifo),     cmocka_unit_test(test_tmp_link_not_followed),
        cmocka_unit_test(test_output_link_kept),      cmocka_unit_test(test_refused),
        cmocka_unit_test(test_tools_to_device),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
