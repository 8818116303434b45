/* outfile.h — output files written whole: into NAME.tmp, then renamed over NAME, so no reader ever sees half a file. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OUTFILE_H
#define HOOKE_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* The one rule for every output path (docs/user-guide.md, "Run a scene"):
 *  - a new path or a regular file is written whole: into NAME.tmp, renamed
 *    over NAME once every byte is out (NAME.tmp is removed first and made
 *    anew, never followed: a link placed there is not written through);
 *    where NAME is a symbolic link to a regular file, the file it names is
 *    written whole so (FILE.tmp beside it), and the link stays; a link to
 *    nothing is refused (HK_OUT_ELINK);
 *  - an existing character device or FIFO (/dev/null, /dev/stdout on a
 *    terminal or a pipe, a named pipe) is written through: opened and
 *    written as it is, no temporary, no rename, so the node stays;
 *  - anything else there (a folder, a block device, a socket) is refused:
 *    errno EISDIR, HK_OUT_EBLOCK, HK_OUT_ESOCKET or HK_OUT_ENOTREG, which
 *    hk_out_strerror words. */
enum { HK_OUT_EBLOCK = 20001, HK_OUT_ESOCKET, HK_OUT_ENOTREG, HK_OUT_ELINK };

/* What path is as an output: 0 (a new path or a regular file: written
 * whole), 1 (a character device or FIFO: written through), or -1 with errno
 * set (refused, as above). Links are followed. */
int hk_out_kind(const char *path);
/* strerror(e), with hooke's own refusals (HK_OUT_E*) in words. */
const char *hk_out_strerror(int e);

/* One output being written. The temporary name is always NAME.tmp, so a
 * run killed in the middle of a write leaves at most that one file behind,
 * and the next write of NAME replaces it. */
typedef struct hk_outfile {
    FILE *f;         /* the open output (hk_out_open); NULL when closed */
    int fd;          /* the open output (hk_out_open_fd); -1 when closed */
    int through;     /* 1: NAME itself is written (a character device or FIFO): no NAME.tmp, no rename */
    char path[4096]; /* NAME */
    char tmp[4104];  /* NAME.tmp */
} hk_outfile;

/* Opens the output NAME (mode "w" or "wb"): NAME.tmp, or NAME written
 * through. The FILE, or NULL with errno set (ENAMETOOLONG for a name too
 * long, or a refusal of the rule above). */
FILE *hk_out_open(hk_outfile *o, const char *path, const char *mode);
/* Flushes and closes the output and renames NAME.tmp over NAME (ok = 1), or
 * removes it (ok = 0: the caller met an error). Returns 0, or -1 with errno
 * set (a write error of any earlier fprintf is caught here too); NAME is
 * then unchanged. */
int hk_out_close(hk_outfile *o, int ok);
/* hk_out_close(o, 1), then NAME opened for appending (a row at a time): the
 * FILE, or NULL with errno set. Written through, the same FILE goes on (a
 * FIFO is never closed and opened again). */
FILE *hk_out_keep(hk_outfile *o);

/* The same at the level of a file descriptor, for outputs written at
 * offsets or as one buffer: hk_out_open_fd opens the output (read-write
 * when rdwr) and returns its descriptor, or -1 with errno set. Written
 * through, the bytes must be written in order (a FIFO cannot seek).
 * hk_out_commit renames NAME.tmp over NAME, after an fsync of the file and
 * then of its folder when durable, keeping the descriptor open; on failure
 * NAME.tmp is removed and -1 returned with errno set. hk_out_close_fd
 * closes it (removing NAME.tmp when ok = 0 and it was not committed). */
int hk_out_open_fd(hk_outfile *o, const char *path, int rdwr);
int hk_out_commit(hk_outfile *o, int durable);
int hk_out_close_fd(hk_outfile *o, int ok);
/* n bytes at p as the whole file NAME (open, write, commit, close). 0, or -1
 * with errno set, NAME then unchanged. */
int hk_out_write_whole(const char *path, const void *p, size_t n, int durable);

/* 0 if NAME can be written where it is (by the rule above; for a file
 * written whole, NAME.tmp can be created there: a probe file made for the
 * test is removed again), else -1 with errno set: for checking a run's
 * outputs before it starts. */
int hk_out_probe(const char *path);
/* Folder dir and every missing parent of it created (as mkdir -p). 0, or
 * -1 with errno set (ENOTDIR when a part of the path is a file). */
int hk_make_folders(const char *dir);

#endif
