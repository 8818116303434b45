/* outfile.c — output files written whole: into NAME.tmp, then renamed over NAME, so no reader ever sees half a file. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *hk_out_open(hk_outfile *o, const char *path, const char *mode)
{
    o->f = NULL;
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path ||
        (size_t)snprintf(o->tmp, sizeof o->tmp, "%s.tmp", path) >= sizeof o->tmp) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    o->f = fopen(o->tmp, mode);
    return o->f;
}

int hk_out_close(hk_outfile *o, int ok)
{
    if (!o->f) return -1;
    int rc = ok ? 0 : -1, saved = ok ? 0 : errno; /* a caller's error keeps its errno */
    if (rc == 0 && (fflush(o->f) != 0 || ferror(o->f))) {
        rc = -1;
        saved = errno ? errno : EIO;
    }
    if (fclose(o->f) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    o->f = NULL;
    if (rc == 0 && rename(o->tmp, o->path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        unlink(o->tmp);
        if (saved) errno = saved;
    }
    return rc;
}

int hk_out_probe(const char *path)
{
    hk_outfile o;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if ((size_t)snprintf(o.tmp, sizeof o.tmp, "%s.tmp", path) >= sizeof o.tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    const int existed = stat(o.tmp, &st) == 0;
    const int fd = open(o.tmp, O_WRONLY | O_CREAT, 0644); /* never truncates: a leftover keeps its bytes */
    if (fd < 0) return -1;
    close(fd);
    if (!existed) unlink(o.tmp);
    return 0;
}

int hk_make_folders(const char *dir)
{
    char path[4096];
    const size_t n = strlen(dir);
    if (n == 0 || n >= sizeof path) {
        errno = n ? ENAMETOOLONG : ENOENT;
        return -1;
    }
    memcpy(path, dir, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (path[i] != '/' && path[i] != '\0') continue;
        const char keep = path[i];
        path[i] = '\0';
        struct stat st;
        if (mkdir(path, 0755) != 0) {
            const int why = errno;
            if (stat(path, &st) != 0) {
                errno = why;
                return -1;
            }
            if (!S_ISDIR(st.st_mode)) {
                errno = ENOTDIR;
                return -1;
            }
        }
        path[i] = keep;
    }
    return 0;
}
