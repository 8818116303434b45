/* version.c — what this library is: its version, and the precision symbol hooke.h refers to. */
/* SPDX-License-Identifier: MIT */
#include "hooke/hooke.h"

const char *hk_version(void) { return HOOKE_VERSION; }

/* The precision symbol hooke.h refers to: only the one of this build's precision exists (a file of its own, which
 * calls nothing, so that the files of the bottom layer, which all refer to it, form no loop with the one holding it).
 */
#ifdef HOOKE_DOUBLE
const int hk_library_is_double = 1;
#else
const int hk_library_is_float = 1;
#endif
