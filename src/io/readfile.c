/* readfile.c — the one reader of whole input files: regular files only, bounded in size, with a clear message. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAIL(VERB, ...)                                                                                                \
    do {                                                                                                               \
        if (err && errlen) {                                                                                           \
            int at_ = snprintf(err, errlen, "cannot %s %s: ", VERB, what);                                             \
            if (at_ > 0 && (size_t)at_ < errlen) snprintf(err + at_, errlen - (size_t)at_, __VA_ARGS__);               \
        }                                                                                                              \
        if (fd >= 0) close(fd);                                                                                        \
        free(buf);                                                                                                     \
        return -1;                                                                                                     \
    } while (0)

int hk_read_file(const char *path, size_t limit, const char *what, char **data, size_t *len, char *err, size_t errlen)
{
    int fd = -1;
    char *buf = NULL;
    *data = NULL;
    *len = 0;
    if (!path) FAIL("open", "no file name");
    /* O_NONBLOCK: opening a FIFO with no writer must not hang; regular files ignore it */
    fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) FAIL("open", "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) FAIL("read", "%s", strerror(errno));
    if (S_ISDIR(st.st_mode)) FAIL("read", "it is a folder");
    if (!S_ISREG(st.st_mode)) FAIL("read", "it is not a regular file (a device, FIFO or socket)");
    if ((uintmax_t)st.st_size > (uintmax_t)limit)
        FAIL("read", "it is %jd bytes, more than the limit of %zu for a %s", (intmax_t)st.st_size, limit, what);
    /* read to the end, at most limit + 1 bytes: a file that grows while it is read is caught too */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    if (cap < 4096) cap = 4096;
    buf = malloc(cap + 1);
    if (!buf) FAIL("read", "out of memory");
    for (;;) {
        if (n == cap) {
            if (cap > limit)
                FAIL("read", "it grew past the limit of %zu bytes for a %s while it was read", limit, what);
            size_t ncap = cap * 2 > limit + 1 ? limit + 1 : cap * 2;
            char *g = realloc(buf, ncap + 1);
            if (!g) FAIL("read", "out of memory");
            buf = g;
            cap = ncap;
        }
        ssize_t k = read(fd, buf + n, cap - n);
        if (k < 0) {
            if (errno == EINTR) continue;
            FAIL("read", "%s", strerror(errno));
        }
        if (k == 0) break;
        n += (size_t)k;
        if (n > limit) FAIL("read", "it grew past the limit of %zu bytes for a %s while it was read", limit, what);
    }
    close(fd);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;
}

int hk_text_bom(const char *text, size_t len, const char **name)
{
    static const struct {
        const char *bytes;
        size_t n;
        const char *name;
        int utf8; /* skipped; the others refused */
    } marks[] = {
        /* UTF-32 before UTF-16: FF FE 00 00 begins with UTF-16 little-endian's mark */
        {"\xFF\xFE\x00\x00", 4, "UTF-32 little-endian", 0},
        {"\x00\x00\xFE\xFF", 4, "UTF-32 big-endian", 0},
        {"\xFF\xFE", 2, "UTF-16 little-endian", 0},
        {"\xFE\xFF", 2, "UTF-16 big-endian", 0},
        {"\xEF\xBB\xBF", 3, "UTF-8", 1},
    };
    *name = NULL;
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
        if (len >= marks[k].n && memcmp(text, marks[k].bytes, marks[k].n) == 0) {
            *name = marks[k].name;
            return marks[k].utf8 ? (int)marks[k].n : -1;
        }
    return 0;
}
