/* ckpt_bytes.h — a checkpoint's bytes: the growing buffer a file is written into, the bounds-checked cursor it is
 * read with, and its checksum (checkpoint.c, checkpoint_pieces.c). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CKPT_BYTES_H
#define HOOKE_CKPT_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The version of the checkpoint format (docs/checkpoint-format.md) a file of this build is written in. */
#define HK_CHECKPOINT_VERSION 12
/* The version of the pieces and index of a checkpoint written over MPI ranks (docs/checkpoint-format.md). */
#define HK_CHECKPOINT_PIECE_VERSION 3

/* Fails the reader at hand: "NAME: " then the message into err (errlen bytes), and returns -1 from the function; name,
 * err and errlen are the reader's. */
#define HK_CKPT_FAIL(...)                                                                                              \
    do {                                                                                                               \
        int off_ = snprintf(err, errlen, "%s: ", name);                                                                \
        if (off_ > 0 && (size_t)off_ < errlen) snprintf(err + off_, errlen - (size_t)off_, __VA_ARGS__);               \
        return -1;                                                                                                     \
    } while (0)

/* FNV-1a of n bytes, continuing h (FNV_BASIS to start). */
static inline uint64_t hk_ckpt_fnv1a(const unsigned char *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}
#define HK_CKPT_FNV_BASIS 1469598103934665603ull

/* ---- writing: a growing byte buffer (oom set once an allocation failed: the rest is dropped) ---- */

typedef struct hk_ckpt_buf {
    unsigned char *p;
    size_t len, cap;
    int oom;
} hk_ckpt_buf;

static inline void hk_ckpt_put(hk_ckpt_buf *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, data, n);
    b->len += n;
}
static inline void hk_ckpt_put_u32(hk_ckpt_buf *b, uint32_t v) { hk_ckpt_put(b, &v, sizeof v); }
static inline void hk_ckpt_put_i32(hk_ckpt_buf *b, int32_t v) { hk_ckpt_put(b, &v, sizeof v); }
static inline void hk_ckpt_put_u64(hk_ckpt_buf *b, uint64_t v) { hk_ckpt_put(b, &v, sizeof v); }
static inline void hk_ckpt_put_i64(hk_ckpt_buf *b, int64_t v) { hk_ckpt_put(b, &v, sizeof v); }
static inline void hk_ckpt_put_f64(hk_ckpt_buf *b, double v) { hk_ckpt_put(b, &v, sizeof v); }

/* ---- reading: a bounds-checked cursor (bad set once a read passed the end: the rest reads as zeros) ---- */

typedef struct hk_ckpt_cursor {
    const unsigned char *p;
    size_t len, at;
    int bad;
} hk_ckpt_cursor;

static inline const void *hk_ckpt_take(hk_ckpt_cursor *c, size_t n)
{
    if (c->bad || n > c->len - c->at) {
        c->bad = 1;
        return NULL;
    }
    const void *q = c->p + c->at;
    c->at += n;
    return q;
}
/* The next n bytes into v, or zeros past the end (take marks the cursor bad). */
static inline void hk_ckpt_get(hk_ckpt_cursor *c, void *v, size_t n)
{
    const void *q = hk_ckpt_take(c, n);
    if (q)
        memcpy(v, q, n);
    else
        memset(v, 0, n);
}
static inline uint32_t hk_ckpt_get_u32(hk_ckpt_cursor *c)
{
    uint32_t v;
    hk_ckpt_get(c, &v, sizeof v);
    return v;
}
static inline int32_t hk_ckpt_get_i32(hk_ckpt_cursor *c) { return (int32_t)hk_ckpt_get_u32(c); }
static inline uint64_t hk_ckpt_get_u64(hk_ckpt_cursor *c)
{
    uint64_t v;
    hk_ckpt_get(c, &v, sizeof v);
    return v;
}
static inline int64_t hk_ckpt_get_i64(hk_ckpt_cursor *c) { return (int64_t)hk_ckpt_get_u64(c); }
static inline double hk_ckpt_get_f64(hk_ckpt_cursor *c)
{
    double v;
    hk_ckpt_get(c, &v, sizeof v);
    return v;
}

#endif
