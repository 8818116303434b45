/* info_lists.h — `hooke info --list WHAT`: the program's tables as lines, for a user and for the docs' check. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_INFO_LISTS_H
#define HOOKE_INFO_LISTS_H

#include <stdio.h>

/* What --list takes: "integrators, keys, bodies, formats, world-fields". */
extern const char hk_info_lists[];
/* Prints the table `what` one row a line:
 *   integrators   NAME [ALIAS]                       (the integrator table, in its order)
 *   keys          SECTION KEY                        (every key of the scene format: SECTION is world, run,
 *                                                     ground, walls, sphere, springs or "body KIND")
 *   bodies        KIND [FAMILY...]                   (the body kinds and the spring families a springs line names)
 *   formats       NAME EXTENSION DESCRIPTION         (the frame formats; EXTENSION - for a format of one set
 *                                                     of files per run)
 *   world-fields  FIELD: RULE                        (hk_world_def's fields hk_world_create checks, and what
 *                                                     each accepts)
 * 0, or -1 if `what` is none of these. */
int hk_info_list(FILE *out, const char *what);

#endif
