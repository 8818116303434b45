/* hk_test_ckpt.h — a checkpoint's files as tests change them: read and written whole, sealed, an index crafted. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_CKPT_H
#define HK_TEST_CKPT_H

#include "hk_test.h"

#include <sys/stat.h>

#include "checkpoint_pieces.h"
#include "ckpt_bytes.h"

/* The bytes of the file at path (*len of them). */
static inline unsigned char *hk_test_read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) print_error("cannot read %s\n", path);
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static inline void hk_test_write_bytes(const char *path, const void *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static inline int hk_test_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The length (a u64 at byte `at`: 16 in an index, 24 in a checkpoint or a piece) and the checksum (its last 8 bytes)
 * of the file of len bytes in b made right (docs/checkpoint-format.md). */
static inline void hk_test_ckpt_seal(unsigned char *b, size_t len, size_t at)
{
    const uint64_t total = len;
    memcpy(b + at, &total, 8);
    const uint64_t sum = hk_ckpt_fnv1a(b, len - 8, HK_CKPT_FNV_BASIS);
    memcpy(b + len - 8, &sum, 8);
}

/* An index at path (docs/checkpoint-format.md, "Over MPI ranks") of scene digest `digest`, `ranks` ranks at step
 * `step`, naming the n names (any files, as a crafted index may); its checksum right or, where good_sum is 0, not. */
static inline void hk_test_ckpt_index(const char *path, uint64_t digest, uint32_t ranks, int64_t step,
                                      const char *const *names, int n, int good_sum)
{
    hk_ckpt_buf b = {0};
    hk_ckpt_put(&b, "HOOKECKI", 8);
    hk_ckpt_put_u32(&b, HK_CHECKPOINT_PIECE_VERSION);
    hk_ckpt_put_u32(&b, 0x01020304u);
    hk_ckpt_put_u64(&b, 0);
    hk_ckpt_put_u64(&b, digest);
    hk_ckpt_put_i64(&b, step);
    hk_ckpt_put_u32(&b, ranks);
    for (int k = 0; k < n; k++) {
        hk_ckpt_put_u32(&b, (uint32_t)strlen(names[k]));
        hk_ckpt_put(&b, names[k], strlen(names[k]));
    }
    hk_ckpt_put_u64(&b, 0);
    assert_false(b.oom);
    hk_test_ckpt_seal(b.p, b.len, 16);
    if (!good_sum) b.p[b.len - 1] ^= 1;
    hk_test_write_bytes(path, b.p, b.len);
    free(b.p);
}

#endif
