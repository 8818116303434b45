/* check.c — what a failed run-time check does (check.h): the report, then abort. */
/* SPDX-License-Identifier: MIT */
#include "check.h"

#ifdef HOOKE_CHECKS
#include <stdio.h>
#include <stdlib.h>

void hk_check_failed(const char *file, int line, const char *what, const char *why)
{
    fprintf(stderr, "hooke: internal check failed at %s:%d: %s%s%s\n", file, line, what, why ? ": " : "",
            why ? why : "");
    fflush(stderr);
    abort();
}
#else
typedef int hk_check_unused; /* ISO C: a translation unit holds a declaration */
#endif
