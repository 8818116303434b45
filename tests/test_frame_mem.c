/* test_frame_mem.c — frame_mem.h: buffers kept between frames, reused only where they fit, and frames that do not
 * change when their buffers were another world's. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <dirent.h>
#include <pthread.h>
#include <unistd.h>

#include "frame_mem.h"
#include "scene.h"

#define MB ((size_t)1 << 20)

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

/* With no series of frames open, nothing is kept; with one, a freed buffer serves the next request it holds and
 * that is at least half its size; zeroing is the calloc's; the last release gives everything back. */
static void test_fit(void **state)
{
    (void)state;
    hk_frame_mem_trim();
    void *lone = hk_frame_alloc(2 * MB);
    assert_non_null(lone);
    hk_frame_free(lone);
    assert_int_equal(hk_frame_mem_kept(NULL), 0); /* no series open: freed at once */
    hk_frame_mem_hold();
    hk_frame_mem_hold();
    unsigned char *p = hk_frame_alloc(2 * MB);
    assert_non_null(p);
    memset(p, 0xab, 2 * MB);
    hk_frame_free(p);
    assert_int_equal(hk_frame_mem_kept(NULL), 1);
    unsigned char *q = hk_frame_alloc(3 * MB / 2); /* fits: 2 MB holds it, and is under twice 1.5 MB */
    assert_ptr_equal(q, p);
    assert_int_equal(hk_frame_mem_kept(NULL), 0);
    hk_frame_free(q);
    unsigned char *big = hk_frame_alloc(5 * MB); /* 2 MB is too small: a new buffer */
    assert_non_null(big);
    assert_ptr_not_equal(big, p);
    hk_frame_free(big);
    unsigned char *r = hk_frame_alloc(MB + 1); /* both fit by size; 5 MB is over twice: the 2 MB one */
    assert_ptr_equal(r, p);
    unsigned char *z = hk_frame_calloc(1, 2 * MB); /* 5 MB is over twice 2 MB, 2 MB is taken: new, zeroed */
    assert_non_null(z);
    assert_ptr_not_equal(z, big);
    assert_true(all_zero(z, 2 * MB));
    hk_frame_free(r);                              /* p's bytes, 0xab */
    unsigned char *c = hk_frame_calloc(3, MB / 2); /* p again, zeroed over its dirt */
    assert_ptr_equal(c, p);
    assert_true(all_zero(c, 3 * MB / 2));
    hk_frame_free(c);
    hk_frame_free(z);
    unsigned char *small = hk_frame_alloc(1000); /* below HK_FRAME_MEM_MIN: malloc's, not kept */
    assert_non_null(small);
    const int before = hk_frame_mem_kept(NULL);
    hk_frame_free(small);
    assert_int_equal(hk_frame_mem_kept(NULL), before);
    assert_null(hk_frame_calloc(SIZE_MAX / 2, 4)); /* n x size overflows */
    hk_frame_mem_release();
    assert_true(hk_frame_mem_kept(NULL) > 0); /* one series still open */
    hk_frame_mem_release();
    assert_int_equal(hk_frame_mem_kept(NULL), 0);
}

/* No more than HK_FRAME_MEM_SLOTS are kept: the largest. */
static void test_slots(void **state)
{
    (void)state;
    hk_frame_mem_hold();
    enum { N = HK_FRAME_MEM_SLOTS + 5 };
    void *p[N];
    for (int i = 0; i < N; i++) assert_non_null(p[i] = hk_frame_alloc(MB + (size_t)i * 4096));
    for (int i = N - 1; i >= 0; i--) hk_frame_free(p[i]); /* the largest first: each later one is smaller */
    size_t bytes = 0, want = 0;
    assert_int_equal(hk_frame_mem_kept(&bytes), HK_FRAME_MEM_SLOTS);
    for (int i = N - HK_FRAME_MEM_SLOTS; i < N; i++) want += MB + (size_t)i * 4096;
    assert_int_equal(bytes, want);
    hk_frame_mem_release();
    assert_int_equal(hk_frame_mem_kept(NULL), 0);
}

/* Threads that take and give back buffers never hold the same one: each checks its pattern before giving it back. */
static void *churn(void *arg)
{
    const unsigned char mark = (unsigned char)(uintptr_t)arg;
    uint32_t seed = mark * 2654435761u;
    for (int k = 0; k < 400; k++) {
        seed = seed * 1664525u + 1013904223u;
        const size_t n = MB + (seed >> 8) % (2 * MB);
        unsigned char *p = hk_frame_alloc(n);
        if (!p) return (void *)1;
        memset(p, mark, n);
        for (size_t i = 0; i < n; i += 4093)
            if (p[i] != mark) return (void *)1;
        if (p[n - 1] != mark) return (void *)1;
        hk_frame_free(p);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    hk_frame_mem_hold();
    pthread_t t[4];
    for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1)), 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        assert_int_equal(pthread_join(t[i], &bad), 0);
        assert_null(bad);
    }
    assert_true(hk_frame_mem_kept(NULL) <= HK_FRAME_MEM_SLOTS);
    hk_frame_mem_release();
}

/* Whole file into a buffer, its length into *n (NULL if it cannot be read). */
static unsigned char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *s = NULL;
    size_t cap = 0, len = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            s = realloc(s, cap);
            assert_non_null(s);
        }
        got = fread(s + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *n = len;
    return s;
}

/* Directory a's files and b's: the same names, the same bytes; both removed. */
static void same_files(const char *a, const char *b)
{
    DIR *d = opendir(a);
    assert_non_null(d);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char pa[512], pb[512];
        snprintf(pa, sizeof pa, "%s/%s", a, e->d_name);
        snprintf(pb, sizeof pb, "%s/%s", b, e->d_name);
        size_t na = 0, nb = 0;
        unsigned char *x = read_all(pa, &na), *y = read_all(pb, &nb);
        if (!x || !y || na != nb || memcmp(x, y, na) != 0) {
            print_error("%s and %s differ\n", pa, pb);
            fail();
        }
        free(x);
        free(y);
        unlink(pa);
        unlink(pb);
        files++;
    }
    closedir(d);
    assert_true(files >= 2); /* a frame and its series at least */
    rmdir(a);
    rmdir(b);
}

/* Frames of worlds of two sizes written in turn, each into buffers the others used (their series open at once),
 * have the bytes of frames written with nothing kept. */
static void test_frames_alike(void **state)
{
    (void)state;
    const char *names[] = {"cloth_512", "cloth_box", "jelly_big"};
    enum { W = 3 };
    hk_scene sc[W];
    char err[1024];
    for (int i = 0; i < W; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.scene", HOOKE_SCENES_DIR, names[i]);
        if (hk_scene_load(path, &sc[i], err, sizeof err) != 0) {
            print_error("%s\n", err);
            fail();
        }
        for (int k = 0; k < 3; k++) assert_int_equal(hk_world_step(sc[i].world), HK_OK); /* v and f not zero */
    }
    hk_frame_mem_trim();
    char tmp[] = "/tmp/hooke-frame-mem-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    hk_frame_writer *fw[W];
    char kept[W][256], fresh[W][256];
    for (int i = 0; i < W; i++) {
        snprintf(kept[i], sizeof kept[i], "%s/kept_%s", tmp, names[i]);
        snprintf(fresh[i], sizeof fresh[i], "%s/fresh_%s", tmp, names[i]);
        assert_non_null(fw[i] = hk_frame_writer_open(kept[i], "vtk", err, sizeof err));
    }
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < W; i++) {
            assert_int_equal(hk_frame_writer_write(fw[i], sc[i].world, err, sizeof err), HK_OK);
            if (round == 0) assert_true(hk_frame_mem_kept(NULL) > 0); /* the next world's frame finds buffers */
        }
    hk_frame_writer_close(fw[0]);
    assert_true(hk_frame_mem_kept(NULL) > 0); /* the other series are open: kept */
    for (int i = 1; i < W; i++) hk_frame_writer_close(fw[i]);
    assert_int_equal(hk_frame_mem_kept(NULL), 0); /* the last series' close gives them back */
    for (int i = 0; i < W; i++) {
        hk_frame_writer *f = hk_frame_writer_open(fresh[i], "vtk", err, sizeof err);
        assert_non_null(f);
        for (int round = 0; round < 2; round++) {
            hk_frame_mem_trim(); /* nothing kept: as the first frame of a process */
            assert_int_equal(hk_frame_writer_write(f, sc[i].world, err, sizeof err), HK_OK);
        }
        hk_frame_writer_close(f);
        same_files(kept[i], fresh[i]);
        hk_scene_free(&sc[i]);
    }
    rmdir(tmp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_slots),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_frames_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
