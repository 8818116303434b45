/* pc2.c — PC2 point cache files: created whole, then grown a sample at a time, the header count written last. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "pc2.h"

#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t float_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

/* n bytes at offset `at`, or (stream: a file written through, outfile.h) next in order. */
static int write_all(int fd, int stream, const void *buf, size_t n, off_t at)
{
    const unsigned char *p = buf;
    while (n > 0) {
        const ssize_t k = stream ? write(fd, p, n) : pwrite(fd, p, n, at);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = EIO;
            return -1;
        }
        p += k;
        n -= (size_t)k;
        at += k;
    }
    return 0;
}

static off_t sample_at(const hk_pc2 *c, int32_t sample)
{
    return (off_t)HK_PC2_HEADER + (off_t)sample * c->points * 12;
}

/* Writes sample `sample` (little-endian floats), in slices. */
static int write_sample(const hk_pc2 *c, int32_t sample, const float *xyz)
{
    enum { SLICE = 4096 }; /* floats per write */
    unsigned char buf[4 * SLICE];
    const int64_t n = 3 * (int64_t)c->points;
    for (int64_t i = 0; i < n; i += SLICE) {
        const int64_t k = n - i < SLICE ? n - i : SLICE;
        for (int64_t j = 0; j < k; j++) put_u32(buf + 4 * j, float_bits(xyz[i + j]));
        if (write_all(c->fd, c->stream, buf, (size_t)(4 * k), sample_at(c, sample) + (off_t)(4 * i)) != 0) return -1;
    }
    return 0;
}

static int write_count(const hk_pc2 *c)
{
    unsigned char b[4];
    put_u32(b, (uint32_t)c->samples);
    return c->stream ? 0 : write_all(c->fd, 0, b, 4, 28); /* a stream's header stays as first written */
}

int hk_pc2_create(hk_pc2 *c, const char *path, int32_t points, const float *xyz)
{
    c->fd = -1;
    hk_outfile o;
    const int fd = hk_out_open_fd(&o, path, 1);
    if (fd < 0) return -1;
    unsigned char h[HK_PC2_HEADER];
    memcpy(h, "POINTCACHE2", 12); /* with its NUL */
    put_u32(h + 12, 1);
    put_u32(h + 16, (uint32_t)points);
    put_u32(h + 20, float_bits(0.0f)); /* start frame */
    put_u32(h + 24, float_bits(1.0f)); /* sample rate: one sample per frame */
    put_u32(h + 28, 1);
    *c = (hk_pc2){fd, points, 1, o.through};
    if (write_all(fd, c->stream, h, sizeof h, 0) != 0 || write_sample(c, 0, xyz) != 0 || hk_out_commit(&o, 0) != 0) {
        const int e = errno;
        hk_out_close_fd(&o, 0);
        c->fd = -1;
        errno = e;
        return -1;
    }
    return 0; /* c keeps the descriptor */
}

int hk_pc2_open(hk_pc2 *c, const char *path, int32_t points, int32_t keep)
{
    c->stream = 0;
    if (hk_out_kind(path) != 0) { /* written through, or refused: nothing there to continue */
        c->fd = -1;
        errno = EINVAL;
        return -1;
    }
    c->fd = open(path, O_RDWR | O_CLOEXEC);
    if (c->fd < 0) return -1;
    unsigned char h[HK_PC2_HEADER];
    struct stat st;
    ssize_t got;
    do got = pread(c->fd, h, sizeof h, 0);
    while (got < 0 && errno == EINTR);
    c->points = points;
    c->samples = keep;
    if (got != (ssize_t)sizeof h || fstat(c->fd, &st) != 0 || memcmp(h, "POINTCACHE2", 12) != 0 ||
        get_u32(h + 12) != 1 || get_u32(h + 16) != (uint32_t)points || keep < 1 || get_u32(h + 28) < (uint32_t)keep ||
        get_u32(h + 28) > INT32_MAX || st.st_size < sample_at(c, keep)) {
        close(c->fd);
        c->fd = -1;
        errno = EINVAL;
        return -1;
    }
    /* the count first (the samples past it are then unread), then the cut */
    if (write_count(c) != 0 || ftruncate(c->fd, sample_at(c, keep)) != 0) {
        const int e = errno;
        close(c->fd);
        c->fd = -1;
        errno = e;
        return -1;
    }
    return 0;
}

int hk_pc2_append(hk_pc2 *c, const float *xyz)
{
    if (c->fd < 0 || c->samples == INT32_MAX) {
        errno = c->fd < 0 ? EBADF : EFBIG;
        return -1;
    }
    if (write_sample(c, c->samples, xyz) != 0) return -1;
    c->samples++;
    if (write_count(c) != 0) {
        c->samples--;
        return -1;
    }
    return 0;
}

void hk_pc2_close(hk_pc2 *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
}
