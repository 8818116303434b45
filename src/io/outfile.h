/* outfile.h — output files written whole: into NAME.tmp, then renamed over NAME, so no reader ever sees half a file. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OUTFILE_H
#define HOOKE_OUTFILE_H

#include <stdio.h>

/* One output being written. The temporary name is always NAME.tmp, so a
 * run killed in the middle of a write leaves at most that one file behind,
 * and the next write of NAME reuses (truncates) it. */
typedef struct hk_outfile {
    FILE *f;         /* the open NAME.tmp; NULL when closed */
    char path[4096]; /* NAME */
    char tmp[4104];  /* NAME.tmp */
} hk_outfile;

/* Opens NAME.tmp for writing (mode "w" or "wb"); the FILE, or NULL with
 * errno set (ENAMETOOLONG for a name too long). */
FILE *hk_out_open(hk_outfile *o, const char *path, const char *mode);
/* Flushes and closes NAME.tmp and renames it over NAME (ok = 1), or removes
 * it (ok = 0: the caller met an error). Returns 0, or -1 with errno set
 * (a write error of any earlier fprintf is caught here too); NAME is
 * then unchanged. */
int hk_out_close(hk_outfile *o, int ok);
/* 0 if NAME can be written where it is (NAME is not a folder and NAME.tmp
 * can be created there; a probe file made for the test is removed again),
 * else -1 with errno set: for checking a run's outputs before it starts. */
int hk_out_probe(const char *path);
/* Folder dir and every missing parent of it created (as mkdir -p). 0, or
 * -1 with errno set (ENOTDIR when a part of the path is a file). */
int hk_make_folders(const char *dir);

#endif
