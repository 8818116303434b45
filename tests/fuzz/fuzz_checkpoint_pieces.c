/* fuzz_checkpoint_pieces.c — libFuzzer harness: the reader of a checkpoint written over ranks (its index and pieces,
 * hk_checkpoint_read_pieces) restoring into one process's world of checkpoint.scene or checkpoint_pairs.scene. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <unistd.h>

#include "../hk_own_ops.h"
#include "checkpoint_pieces.h"
#include "ckpt_bytes.h"
#include "distribute.h"
#include "fuzz_worlds.h"
#include "world.h"

/*
 * An input is the files of a checkpoint joined by SEP: the index, then its pieces in rank order, written into a
 * folder of the harness as f.ck and f.ck.step<S>.rank<r> (S the index's step where it has one), and restored from
 * f.ck. Each input runs twice: as it is, and with each file's length, scene digest and checksum made right (and the
 * pieces' names the index's), so the checks behind them are reached. HOOKE_FUZZ_PIECES_SEEDS=DIR: the harness writes
 * its seeds into DIR (each scene's checkpoint over 2 and 3 ranks, each rank's share made in this process, before
 * and after 4 steps) and exits.
 */
static const char SEP[] = "\n--hooke-piece--\n";
enum {
    MAX_FILES = 8,
    INDEX_LENGTH_AT = 16,
    INDEX_DIGEST_AT = 24,
    INDEX_STEP_AT = 32,
    PIECE_LENGTH_AT = 24,
    PIECE_DIGEST_AT = 32
};

static fuzz_world worlds[2] = {{.path = HOOKE_FUZZ_SCENE}, {.path = HOOKE_FUZZ_PAIRS_SCENE}};
static char dir[64];

static void spill(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    FUZZ_REQUIRE(f != NULL, "cannot write %s", path);
    FUZZ_REQUIRE(fwrite(p, 1, n, f) == n, "cannot write %s", path);
    fclose(f);
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    FUZZ_REQUIRE(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t *p = malloc(*n + 1);
    FUZZ_REQUIRE(p && fread(p, 1, *n, f) == *n, "cannot read %s", path);
    fclose(f);
    return p;
}

/* A seed: fw's checkpoint over R ranks (after `steps` steps of the whole world) as one input, into seeds/NAME. */
static void write_seed(fuzz_world *fw, int R, int steps, const char *seeds)
{
    char ck[128], err[2048], out[4200];
    snprintf(ck, sizeof ck, "%s/seed.ck", dir);
    for (int r = R - 1; r >= 0; r--) { /* rank 0 last: its piece, then the index */
        hk_scene sc;
        FUZZ_REQUIRE(hk_scene_parse(fw->text, fw->path, &sc, err, sizeof err) == 0, "%s", err);
        for (int s = 0; s < steps; s++) hk_world_step(sc.world);
        FUZZ_REQUIRE(hk_world_distribute(sc.world, r, R, &hk_own_ops, NULL) == 0, "%s", hk_world_error(sc.world));
        hk_energy_guard g;
        hk_energy_guard_init(&g, sc.world);
        FUZZ_REQUIRE(hk_checkpoint_write(sc.world, &g, fw->digest, ck, err, sizeof err) == 0, "%s", err);
        hk_scene_free(&sc);
    }
    size_t n;
    uint8_t *index = slurp(ck, &n);
    snprintf(out, sizeof out, "%s/%s_%dranks_%dsteps", seeds, fw == &worlds[0] ? "ck" : "pairs", R, steps);
    FILE *f = fopen(out, "wb");
    FUZZ_REQUIRE(f != NULL, "cannot write %s", out);
    fwrite(index, 1, n, f);
    free(index);
    for (int r = 0; r < R; r++) {
        char piece[256];
        snprintf(piece, sizeof piece, "%s.step%d.rank%d", ck, steps, r);
        uint8_t *p = slurp(piece, &n);
        fwrite(SEP, 1, sizeof SEP - 1, f);
        fwrite(p, 1, n, f);
        free(p);
        unlink(piece);
    }
    fclose(f);
    unlink(ck);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    snprintf(dir, sizeof dir, "/tmp/fuzz_pieces_XXXXXX");
    FUZZ_REQUIRE(mkdtemp(dir) != NULL, "no temporary folder");
    fuzz_worlds_load(worlds, 2);
    const char *seeds = getenv("HOOKE_FUZZ_PIECES_SEEDS");
    if (seeds) {
        for (int i = 0; i < 2; i++)
            for (int R = 2; R <= 3; R++)
                for (int steps = 0; steps <= 4; steps += 4) write_seed(&worlds[i], R, steps, seeds);
        rmdir(dir);
        exit(0);
    }
    return 0;
}

/* The input's files: their starts and lengths (at most MAX_FILES). */
static int split(const uint8_t *data, size_t size, const uint8_t **at, size_t *len)
{
    int n = 0;
    const uint8_t *p = data, *end = data + size;
    while (n < MAX_FILES) {
        const uint8_t *q = NULL;
        for (const uint8_t *s = p; s + (sizeof SEP - 1) <= end; s++)
            if (memcmp(s, SEP, sizeof SEP - 1) == 0) {
                q = s;
                break;
            }
        at[n] = p, len[n] = (size_t)((q ? q : end) - p), n++;
        if (!q) break;
        p = q + sizeof SEP - 1;
    }
    return n;
}

/* The files written (the index's step names the pieces) and restored into fw's world: a refused checkpoint must leave
 * the world as it was, with a message that names a file of the checkpoint; an accepted one must step. */
static void restore(fuzz_world *fw, uint8_t **file, const size_t *len, int n)
{
    char ck[128], err[4096];
    snprintf(ck, sizeof ck, "%s/f.ck", dir);
    int64_t step = 0;
    if (len[0] >= INDEX_STEP_AT + 8) memcpy(&step, file[0] + INDEX_STEP_AT, 8);
    if (step < 0 || step > 1000000) step = 0;
    spill(ck, file[0], len[0]);
    for (int k = 1; k < n; k++) {
        char piece[256];
        snprintf(piece, sizeof piece, "%s.step%lld.rank%d", ck, (long long)step, k - 1);
        spill(piece, file[k], len[k]);
    }
    hk_world *w = fw->sc.world;
    const uint64_t hash = hk_world_state_hash(w);
    const int64_t steps = hk_world_step_count(w);
    const double time = hk_world_time(w);
    const int substeps = hk_world_substeps(w);
    hk_energy_guard guard;
    hk_energy_guard_init(&guard, w);
    if (hk_checkpoint_read_pieces(w, &guard, fw->digest, ck, err, sizeof err) == 0) {
        FUZZ_REQUIRE(hk_world_step_count(w) >= 0, "a negative step count restored");
        fuzz_step(w, fw->sc.stretch_limit);
        hk_scene_free(&fw->sc);
        fuzz_world_build(fw);
    } else {
        FUZZ_REQUIRE(strncmp(err, dir, strlen(dir)) == 0 && strchr(err, ':'), "the message names no file: '%s'", err);
        FUZZ_REQUIRE(hk_world_state_hash(w) == hash && hk_world_step_count(w) == steps && hk_world_time(w) == time &&
                         hk_world_substeps(w) == substeps,
                     "a refused checkpoint changed the world (%s)", err);
    }
    unlink(ck);
    for (int k = 1; k < n; k++) {
        char piece[256];
        snprintf(piece, sizeof piece, "%s.step%lld.rank%d", ck, (long long)step, k - 1);
        unlink(piece);
    }
}

/* File k made whole: its length, digest and checksum right; the index's rank count and names those of its n - 1
 * pieces at its step. */
static uint8_t *mend(const fuzz_world *fw, const uint8_t *p, size_t len, int k, int n, size_t *out)
{
    uint8_t *b = malloc(len + 4096);
    if (!b) abort();
    memcpy(b, p, len);
    *out = len;
    if (k == 0 && len >= 48) { /* the index: the header kept, the names made */
        int64_t step;
        memcpy(&step, b + INDEX_STEP_AT, 8);
        if (step < 0 || step > 1000000) step = 0;
        memcpy(b + INDEX_STEP_AT, &step, 8);
        const uint32_t ranks = (uint32_t)(n - 1);
        memcpy(b + 40, &ranks, 4);
        size_t at = 44;
        for (int r = 0; r < n - 1; r++) {
            char name[128];
            const uint32_t m = (uint32_t)snprintf(name, sizeof name, "f.ck.step%lld.rank%d", (long long)step, r);
            memcpy(b + at, &m, 4), at += 4;
            memcpy(b + at, name, m), at += m;
        }
        *out = len = at + 8;
        const uint64_t total = len;
        memcpy(b + INDEX_LENGTH_AT, &total, 8);
        memcpy(b + INDEX_DIGEST_AT, &fw->digest, 8);
    } else if (k > 0 && len >= 72) {
        const uint64_t total = len;
        memcpy(b + PIECE_LENGTH_AT, &total, 8);
        memcpy(b + PIECE_DIGEST_AT, &fw->digest, 8);
    } else {
        return b;
    }
    const uint64_t sum = hk_ckpt_fnv1a(b, len - 8, HK_CKPT_FNV_BASIS);
    memcpy(b + len - 8, &sum, 8);
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *at[MAX_FILES];
    size_t len[MAX_FILES];
    const int n = split(data, size, at, len);
    uint64_t named = 0;
    if (len[0] >= INDEX_DIGEST_AT + 8) memcpy(&named, at[0] + INDEX_DIGEST_AT, 8);
    fuzz_world *fw = named == worlds[1].digest ? &worlds[1] : &worlds[0];
    uint8_t *file[MAX_FILES];
    size_t flen[MAX_FILES];
    for (int k = 0; k < n; k++) file[k] = (uint8_t *)at[k], flen[k] = len[k];
    restore(fw, file, flen, n); /* as it is */
    if (n < 2) return 0;
    for (int k = 0; k < n; k++) file[k] = mend(fw, at[k], len[k], k, n, &flen[k]);
    restore(fw, file, flen, n); /* made whole: the checks behind the checksums */
    for (int k = 0; k < n; k++) free(file[k]);
    return 0;
}
