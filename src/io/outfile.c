/* outfile.c — output files written whole: into NAME.tmp, then renamed over NAME, so no reader ever sees half a file. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "outfile.h"

#include <errno.h>
#include <string.h>
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
