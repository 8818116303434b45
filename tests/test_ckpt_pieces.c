/* test_ckpt_pieces.c — a checkpoint's index and pieces as written over ranks (a share of each rank made in one
 * process), and what the writer and the restart do with files that were changed. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <unistd.h>

#include "checkpoint_pieces.h"
#include "distribute.h"
#include "hk_own_ops.h"
#include "hk_test_ckpt.h"
#include "world.h"

/* A cloth, a pressure ball, a sphere and a box collider: two bodies for two ranks, a surface, friction anchors. */
static const char scene[] = "world\n  gravity 0 -9.81 0\nend\n"
                            "sphere\n  center 0 -1 0\n  radius 0.1\n  loss 0.2\nend\n"
                            "body cloth\n  nx 12\n  ny 12\n  spacing 0.02\n  origin 0 0.5 0\n  u 1 0 0\n  v 0 0 1\n"
                            "  mass 1e-3\n  springs structural k 50 damping 0.01\nend\n"
                            "body icosphere\n  radius 0.1\n  level 1\n  center 1 0.5 0\n  mass 0.005\n  nrt 300\n"
                            "  pump_rate 0.01\n  springs edges k 400 damping 0.5\nend\n"
                            "collider\n  shape box\n  size 0.3 0.1 0.3\n  offset 0 0 0\n  thickness 0.01\n"
                            "  stiffness 20\n  friction 0.4\nend\n"
                            "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  steps 10\nend\n";
enum { DIGEST = 42 };

static char dir[256];

static const char *in_dir(const char *name)
{
    static char buf[8][512];
    static int slot;
    char *p = buf[slot++ % 8];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static hk_world *load(void)
{
    char err[512];
    hk_world *w = hk_world_parse_scene(scene, "pieces.scene", NULL, err, sizeof err);
    if (!w) {
        print_error("%s\n", err);
        fail();
    }
    return w;
}

/* The checkpoint at path written as rank `rank` of `ranks`; its status and message. */
static int write_as(int rank, int ranks, const char *path, char *err, size_t errlen)
{
    hk_world *w = load();
    assert_int_equal(hk_world_distribute(w, rank, ranks, &hk_own_ops, NULL), 0);
    hk_energy_guard g;
    hk_energy_guard_init(&g, w);
    const int rc = hk_checkpoint_write(w, &g, DIGEST, path, err, errlen);
    hk_world_destroy(w);
    return rc;
}

/* The checkpoint at path over 2 ranks: rank 1's piece, then rank 0's and the index. */
static void write_two(const char *path)
{
    char err[1024];
    for (int r = 1; r >= 0; r--)
        if (write_as(r, 2, path, err, sizeof err) != 0) {
            print_error("%s\n", err);
            fail();
        }
}

/* A restart of one process from path: its status, the message in err. */
static int restart(const char *path, char *err, size_t errlen)
{
    hk_world *w = load();
    hk_energy_guard g;
    hk_energy_guard_init(&g, w);
    const int rc = hk_checkpoint_read(w, &g, DIGEST, path, err, errlen);
    hk_world_destroy(w);
    return rc;
}

/* Item 2: an index at the checkpoint's path that names another file (checksum right or wrong): the writer leaves
 * that file; the pieces of an earlier step its index named are removed. */
static void writer_removes_only_its_pieces(void **state)
{
    (void)state;
    const char *ck = in_dir("f.ck"), *victim = in_dir("victim.txt");
    for (int good = 0; good < 2; good++) {
        hk_test_write_bytes(victim, "keep me\n", 8);
        const char *names[] = {"victim.txt", "victim.txt"};
        hk_test_ckpt_index(ck, DIGEST, 2, 0, names, 2, good);
        write_two(ck);
        if (!hk_test_exists(victim)) {
            print_error("the writer removed %s, named by an index (checksum %s)\n", victim, good ? "right" : "wrong");
            fail();
        }
    }
    /* pieces of step 7 named by a sound index go once the index names step 0's */
    hk_test_write_bytes(in_dir("f.ck.step7.rank0"), "old\n", 4);
    hk_test_write_bytes(in_dir("f.ck.step7.rank1"), "old\n", 4);
    const char *old[] = {"f.ck.step7.rank0", "f.ck.step7.rank1"};
    hk_test_ckpt_index(ck, DIGEST, 2, 7, old, 2, 1);
    write_two(ck);
    assert_false(hk_test_exists(in_dir("f.ck.step7.rank0")));
    assert_false(hk_test_exists(in_dir("f.ck.step7.rank1")));
    assert_true(hk_test_exists(in_dir("f.ck.step0.rank0")) && hk_test_exists(in_dir("f.ck.step0.rank1")));
    char err[1024];
    assert_int_equal(restart(ck, err, sizeof err), 0);
}

/* Item 3: an index of 2^32 - 1 ranks (its checksum right) is not read into a buffer sized by that count. */
static void writer_bounds_the_rank_count(void **state)
{
    (void)state;
    const char *ck = in_dir("g.ck");
    const char *names[64];
    for (int k = 0; k < 64; k++) names[k] = "g.ck.step0.rank0";
    hk_test_ckpt_index(ck, DIGEST, UINT32_MAX, 0, names, 64, 1);
    write_two(ck);
    char err[1024];
    assert_int_equal(restart(ck, err, sizeof err), 0);
}

/* Item 4: rank 1's piece copied over rank 0's (each sound on its own) is refused: particles of rank 1 twice, none of
 * rank 0, a piece under another rank's name. */
static void pieces_cover_every_particle(void **state)
{
    (void)state;
    const char *ck = in_dir("h.ck");
    write_two(ck);
    size_t len;
    unsigned char *b = hk_test_read_bytes(in_dir("h.ck.step0.rank1"), &len);
    hk_test_write_bytes(in_dir("h.ck.step0.rank0"), b, len);
    free(b);
    char err[1024];
    const int rc = restart(ck, err, sizeof err);
    if (rc == 0 || !strstr(err, "h.ck.step0.rank0")) {
        print_error("restart from a piece of rank 1 in rank 0's place: status %d, '%s'\n", rc, rc ? err : "");
        fail();
    }
    /* a piece that says it was written by one of 3 ranks */
    write_two(ck);
    b = hk_test_read_bytes(in_dir("h.ck.step0.rank1"), &len);
    const uint32_t three = 3;
    memcpy(b + 68, &three, 4);
    hk_test_ckpt_seal(b, len, 24);
    hk_test_write_bytes(in_dir("h.ck.step0.rank1"), b, len);
    free(b);
    assert_int_not_equal(restart(ck, err, sizeof err), 0);
    assert_non_null(strstr(err, "h.ck.step0.rank1"));
}

/* Where the values of a piece are (docs/checkpoint-format.md, "Over MPI ranks"), for a scene without broken springs
 * or contact pairs. */
typedef struct places {
    size_t updates, bodies, spheres, surf, guard, anchors, count;
} places;

static places places_of(const unsigned char *b)
{
    places p = {0};
    uint32_t nb, nf, ns, nr, has_prev;
    memcpy(&nb, b + 44, 4), memcpy(&nf, b + 48, 4), memcpy(&ns, b + 52, 4), memcpy(&nr, b + 72, 4);
    size_t at = 76;
    for (uint32_t k = 0; k < nr; k++, at += 8) {
        uint32_t n;
        memcpy(&n, b + at + 4, 4);
        p.count += n;
    }
    at += 4 + 6 * 8 + 4 * 4 + 8 + 4 + 8 + 4 + 3 * 8; /* integrator (chebyshev_rho last), substeps, h, time, steps */
    p.updates = at;
    at += 8;
    memcpy(&has_prev, b + at, 4);
    at += 8 + (11 + 3 * (has_prev != 0)) * p.count * sizeof(hk_real);
    p.bodies = at;
    p.spheres = at += nb * (4 + 9 * 8);
    at += ns * 8 * 8;
    for (uint32_t i = 0; i < nf; i++) {
        int64_t n;
        memcpy(&n, b + at + 12, 8);
        assert_int_equal(n, 0);
        at += 20;
    }
    p.surf = at + 4;
    at += 4 + 28 * (size_t)((const uint32_t *)(const void *)(b + at))[0];
    p.guard = at;
    at += 4 * 8;
    uint64_t nc;
    memcpy(&nc, b + at, 8);
    assert_int_equal(nc, 0);
    at += 16;
    p.anchors = at + 4;
    return p;
}

/* Item 5: a piece whose checksum is right but which holds a value no run has is refused, as a one-process checkpoint
 * is. */
static void piece_values_checked(void **state)
{
    (void)state;
    const char *ck = in_dir("v.ck");
    write_two(ck);
    const char *piece = in_dir("v.ck.step0.rank1");
    size_t len;
    unsigned char *good = hk_test_read_bytes(piece, &len);
    const places p = places_of(good);
    uint32_t nsurf;
    memcpy(&nsurf, good + p.surf - 4, 4);
    assert_true(nsurf >= 1);
    const double nan = NAN, inf = INFINITY, minus1 = -1, two = 2, big = 1e6, minus7 = -7;
    const int32_t flag = 12345;
    const int64_t minus1i = -1;
    const size_t real = sizeof(hk_real), anchor_k = p.anchors + 3 * p.count * real;
    const struct {
        const char *what;
        size_t at;
        const void *value;
        size_t n;
        size_t at2; /* where a second value (8 bytes) goes, or 0 */
        const void *value2;
    } cases[] = {
        {"energy guard NaN", p.guard, &nan, 8, 0, NULL},
        {"energy guard scale -1", p.guard + 8, &minus1, 8, 0, NULL},
        {"body anchor flag 12345", p.bodies, &flag, 4, 0, NULL},
        {"sphere radius NaN", p.spheres + 3 * 8, &nan, 8, 0, NULL},
        {"sphere centre inf", p.spheres, &inf, 8, 0, NULL},
        {"surface pressure NaN", p.surf + 4 + 16, &nan, 8, 0, NULL},
        {"surface volume -1 under a pressure of 2 Pa", p.surf + 4 + 8, &minus1, 8, p.surf + 4 + 16, &two},
        {"friction anchor collider 1e6", anchor_k, &big, 8, 0, NULL},
        {"friction anchor collider -7", anchor_k, &minus7, 8, 0, NULL},
        {"friction anchor collider NaN", anchor_k, &nan, 8, 0, NULL},
        {"friction anchor position inf", p.anchors, &inf, 8, 0, NULL},
        {"spring updates -1", p.updates, &minus1i, 8, 0, NULL},
    };
    uint32_t nanchor;
    memcpy(&nanchor, good + p.anchors - 4, 4);
    assert_int_equal(nanchor, p.count);
    int failed = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char *b = malloc(len);
        assert_non_null(b);
        memcpy(b, good, len);
        memcpy(b + cases[i].at, cases[i].value, cases[i].n);
        if (cases[i].at2) memcpy(b + cases[i].at2, cases[i].value2, 8);
        hk_test_ckpt_seal(b, len, 24);
        hk_test_write_bytes(piece, b, len);
        free(b);
        char err[1024];
        if (restart(ck, err, sizeof err) == 0) {
            print_error("a piece with %s was restored\n", cases[i].what);
            failed = 1;
        } else if (!strstr(err, "v.ck.step0.rank1")) {
            print_error("%s: the message does not name the piece: %s\n", cases[i].what, err);
            failed = 1;
        }
    }
    hk_test_write_bytes(piece, good, len);
    free(good);
    char err[1024];
    assert_int_equal(restart(ck, err, sizeof err), 0);
    assert_false(failed);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/hk_ckpt_pieces_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--only") == 0) cmocka_set_test_filter(argv[2]); /* one test: --only NAME */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writer_removes_only_its_pieces),
        cmocka_unit_test(writer_bounds_the_rank_count),
        cmocka_unit_test(pieces_cover_every_particle),
        cmocka_unit_test(piece_values_checked),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
