/* hk_test_cli.h — runs the hooke program (HOOKE_BIN) from a test, capturing exit status, stdout and stderr. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_CLI_H
#define HK_TEST_CLI_H

/* needs _POSIX_C_SOURCE >= 200809L before the first include (mkdtemp) */
#include "hk_test.h"

#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef HOOKE_BIN
#error "HOOKE_BIN (path of the hooke program) must be defined by the build"
#endif

typedef struct hk_run {
    int status; /* exit status, or -1 if the program did not exit normally */
    char *out;  /* stdout (NUL-terminated) */
    char *err;  /* stderr */
} hk_run;

/* A private temporary directory for the test's files (created once). */
static char hk_tmpdir[64];

static inline const char *hk_test_tmpdir(void)
{
    if (!hk_tmpdir[0]) {
        snprintf(hk_tmpdir, sizeof hk_tmpdir, "/tmp/hooke-test-XXXXXX");
        if (!mkdtemp(hk_tmpdir)) {
            print_error("mkdtemp failed\n");
            fail();
        }
    }
    return hk_tmpdir;
}

/* Path of a file NAME in the temporary directory (static buffer per slot). */
static inline const char *hk_test_path(const char *name)
{
    static char buf[8][256];
    static int slot;
    char *p = buf[slot++ % 8];
    if (snprintf(p, 256, "%s/%s", hk_test_tmpdir(), name) >= 256) { /* never a cut path */
        print_error("test path too long: %s/%s\n", hk_test_tmpdir(), name);
        fail();
    }
    return p;
}

/* The same path in buffers of its own that stay valid over 32 calls (hk_test_path's are reused by every run). */
static inline const char *hk_test_own_path(const char *name)
{
    static char buf[32][256];
    static int slot;
    char *p = buf[slot++ % 32];
    snprintf(p, sizeof buf[0], "%s", hk_test_path(name));
    return p;
}

/* Whole file as a NUL-terminated string (NULL if it cannot be read). */
static inline char *hk_test_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t got;
    while ((got = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            cap *= 2;
            s = realloc(s, cap);
            assert_non_null(s);
        }
    }
    s[len] = '\0';
    fclose(f);
    return s;
}

static inline void hk_test_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_true(fputs(text, f) >= 0);
    assert_int_equal(fclose(f), 0);
}

/* Runs `env hooke ARGS` through the shell (ARGS and ENV already quoted as
 * needed; ENV may be ""), stdout and stderr into files of the temporary
 * directory. */
static inline hk_run hk_test_hooke(const char *env, const char *args)
{
    const char *out = hk_test_path("stdout.txt"), *err = hk_test_path("stderr.txt");
    size_t len = strlen(env) + strlen(args) + strlen(HOOKE_BIN) + strlen(out) + strlen(err) + 64;
    char *cmd = malloc(len);
    assert_non_null(cmd);
    snprintf(cmd, len, "%s '%s' %s >'%s' 2>'%s'", env, HOOKE_BIN, args, out, err);
    fflush(NULL);
    int rc = system(cmd);
    hk_run r;
    r.status = (rc != -1 && WIFEXITED(rc)) ? WEXITSTATUS(rc) : -1;
    r.out = hk_test_slurp(out);
    r.err = hk_test_slurp(err);
    assert_non_null(r.out);
    assert_non_null(r.err);
    free(cmd);
    return r;
}

static inline void hk_run_free(hk_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

/* Runs `hooke ARGS`, failing the test unless it exits 0 with nothing on stderr. */
static inline void hk_test_hooke_ok(const char *args)
{
    hk_run r = hk_test_hooke("", args);
    if (r.status != 0 || r.err[0]) {
        print_error("hooke %s: exit %d\n%s", args, r.status, r.err);
        fail();
    }
    hk_run_free(&r);
}

/* Removes the temporary directory and everything the test put in it. */
static inline void hk_test_cleanup(void)
{
    if (!hk_tmpdir[0]) return;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", hk_tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", hk_tmpdir);
    hk_tmpdir[0] = '\0';
}

/* The value after "key=" in the summary line; NULL if absent. */
static inline const char *hk_test_field(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *p = strstr(text, pat);
    return p ? p + strlen(pat) : NULL;
}

/* Whether the files at a and b have the same bytes (both must exist). */
static inline int hk_test_same_bytes(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        const int ca = fgetc(fa), cb = fgetc(fb);
        same = ca == cb;
        if (ca == EOF) break;
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    return same;
}

/* Folder b holds exactly the files of folder a, byte for byte; returns how many. */
static inline int hk_test_same_folder(const char *a, const char *b)
{
    int files = 0;
    for (int pass = 0; pass < 2; pass++) {
        DIR *d = opendir(pass ? b : a);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            if (e->d_name[0] == '.') continue;
            char pa[8192], pb[8192];
            snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
            snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
            if (!hk_test_same_bytes(pa, pb)) {
                print_error("%s and %s differ (or one is missing)\n", pa, pb);
                fail();
            }
            files += !pass;
        }
        closedir(d);
    }
    return files;
}

#endif
