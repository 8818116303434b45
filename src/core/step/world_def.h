/* world_def.h — what a world's definition accepts: the table of hk_world_def's fields (world_def.c). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_WORLD_DEF_H
#define HOOKE_WORLD_DEF_H

#include "bounds.h"

/* The rows of hk_world_def_check, one per field (a vector is one row),
 * *count of them; `kernels` is checked against the kernel paths, the
 * walls' corners against each other and a task_hook against threads,
 * besides. */
const hk_field *hk_world_def_fields(int *count);

#endif
