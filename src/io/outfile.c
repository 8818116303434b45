/* outfile.c — output files written whole: into NAME.tmp, then renamed over NAME, so no reader ever sees half a file. */
/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700 /* realpath */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int hk_out_kind(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) return 0; /* a new path (or one the open will say why it cannot be written) */
    if (S_ISREG(st.st_mode)) return 0;
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return 1;
    errno = S_ISDIR(st.st_mode)    ? EISDIR
            : S_ISBLK(st.st_mode)  ? HK_OUT_EBLOCK
            : S_ISSOCK(st.st_mode) ? HK_OUT_ESOCKET
                                   : HK_OUT_ENOTREG;
    return -1;
}

const char *hk_out_strerror(int e)
{
    switch (e) {
    case HK_OUT_ELINK:
        return "it is a symbolic link to nothing (outputs go to regular files, new paths, character "
               "devices and FIFOs)";
    case HK_OUT_EBLOCK:
        return "it is a block device (outputs go to regular files, new paths, character devices and FIFOs)";
    case HK_OUT_ESOCKET: return "it is a socket (outputs go to regular files, new paths, character devices and FIFOs)";
    case HK_OUT_ENOTREG:
        return "it is not a regular file (outputs go to regular files, new paths, character devices and FIFOs)";
    default: return strerror(e);
    }
}

/* The names of an output written whole (NAME, NAME.tmp) into o: path's, or, where path is a symbolic link to a regular
 * file, the file's (so the rename replaces the file and the link stays: /dev/stdout while standard output is a file
 * stays the link it is). 0, or -1 with errno set (a link to nothing: HK_OUT_ELINK). */
static int whole_names(hk_outfile *o, const char *path)
{
    struct stat st;
    char real[PATH_MAX];
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        if (!realpath(path, real)) {
            if (errno == ENOENT) errno = HK_OUT_ELINK;
            return -1;
        }
        path = real;
    }
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path ||
        (size_t)snprintf(o->tmp, sizeof o->tmp, "%s.tmp", path) >= sizeof o->tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* Names o (NAME, NAME.tmp) and opens it by the rule: the descriptor, or -1 with errno set. */
static int open_out(hk_outfile *o, const char *path, int rdwr)
{
    o->f = NULL;
    o->fd = -1;
    o->through = 0;
    if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    const int kind = hk_out_kind(path);
    if (kind < 0 || (kind == 0 && whole_names(o, path) != 0)) return -1;
    const int access_mode = rdwr ? O_RDWR : O_WRONLY;
    if (kind == 1) { /* no O_CREAT: were the node gone, no regular file is made in its place */
        const int fd = open(path, access_mode | O_NOCTTY | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))) {
            close(fd);
            errno = HK_OUT_ENOTREG; /* swapped for something else since it was looked at */
            return -1;
        }
        o->through = 1;
        return fd;
    }
    /* a leftover NAME.tmp (or anything placed there: a link to another file) is removed, never written through */
    if (unlink(o->tmp) != 0 && errno != ENOENT) return -1;
    return open(o->tmp, access_mode | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

FILE *hk_out_open(hk_outfile *o, const char *path, const char *mode)
{
    const int fd = open_out(o, path, 0);
    if (fd < 0) return NULL;
    o->f = fdopen(fd, mode);
    if (!o->f) {
        const int why = errno;
        close(fd);
        if (!o->through) unlink(o->tmp);
        errno = why;
    }
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
    if (rc == 0 && !o->through && rename(o->tmp, o->path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        if (!o->through) unlink(o->tmp);
        if (saved) errno = saved;
    }
    return rc;
}

FILE *hk_out_keep(hk_outfile *o)
{
    if (o->f && o->through) { /* the same FILE goes on */
        if (fflush(o->f) == 0 && !ferror(o->f)) return o->f;
        const int why = errno ? errno : EIO;
        fclose(o->f);
        o->f = NULL;
        errno = why;
        return NULL;
    }
    if (hk_out_close(o, 1) != 0) return NULL;
    return fopen(o->path, "a");
}

int hk_out_open_fd(hk_outfile *o, const char *path, int rdwr)
{
    o->fd = open_out(o, path, rdwr);
    return o->fd;
}

/* Makes a rename durable: fsync of the folder holding path (best effort). */
static void sync_folder_of(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    const int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

int hk_out_commit(hk_outfile *o, int durable)
{
    if (o->fd < 0) {
        errno = EBADF;
        return -1;
    }
    if (o->through) return 0;
    if ((durable && fsync(o->fd) != 0) || rename(o->tmp, o->path) != 0) {
        const int why = errno;
        unlink(o->tmp);
        errno = why;
        return -1;
    }
    o->through = 1; /* committed: NAME is the file now, nothing to remove */
    if (durable) sync_folder_of(o->path);
    return 0;
}

int hk_out_close_fd(hk_outfile *o, int ok)
{
    if (o->fd < 0) return 0;
    int rc = close(o->fd);
    const int why = errno;
    if (!ok && !o->through) unlink(o->tmp);
    o->fd = -1;
    if (rc != 0) errno = why;
    return rc;
}

int hk_out_write_whole(const char *path, const void *buf, size_t n, int durable)
{
    hk_outfile o;
    if (hk_out_open_fd(&o, path, 0) < 0) return -1;
    const unsigned char *p = buf;
    int rc = 0;
    while (n > 0 && rc == 0) {
        const ssize_t k = write(o.fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            if (k == 0) errno = EIO;
            rc = -1;
        } else {
            p += k, n -= (size_t)k;
        }
    }
    if (rc == 0) rc = hk_out_commit(&o, durable);
    const int why = errno;
    if (hk_out_close_fd(&o, rc == 0) != 0 && rc == 0) return -1;
    if (rc != 0) errno = why;
    return rc;
}

int hk_out_probe(const char *path)
{
    hk_outfile o;
    const int kind = hk_out_kind(path);
    if (kind != 0) return kind == 1 ? 0 : -1; /* written through: nothing is made beside it (a FIFO is not opened) */
    if (whole_names(&o, path) != 0) return -1;
    struct stat st;
    if (lstat(o.tmp, &st) == 0 && S_ISDIR(st.st_mode)) { /* a folder the write cannot remove */
        errno = EISDIR;
        return -1;
    }
    if (lstat(o.tmp, &st) == 0) {           /* a leftover: the write removes it and makes its own, in this folder */
        char *slash = strrchr(o.path, '/'); /* o.path is NAME: its folder */
        if (!slash)
            snprintf(o.path, sizeof o.path, ".");
        else
            slash[slash == o.path] = '\0';
        return access(o.path, W_OK | X_OK);
    }
    const int fd = open(o.tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    close(fd);
    unlink(o.tmp);
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
