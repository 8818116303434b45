/* env.h — the environment variables the program reads (the library reads none): tuning for its worlds. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ENV_H
#define HOOKE_ENV_H

#include <stddef.h>

#include "hooke/hooke.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The definition every world of the program starts from (a scene's world
 * section then sets its keys): hk_default_world_def() with the tuning the
 * environment asks for,
 *   HOOKE_KERNELS            a kernel path this CPU and build run -> kernels
 *   HOOKE_LIST_PARALLEL_MIN  a whole number of springs >= 0 -> list_parallel_min
 *   HOOKE_FULL_TEAM          0 or 1 -> full_team
 * unset or empty: the default. 0, or -1 with "NAME=VALUE: expected ..." in
 * err: a value the program cannot use is an error, never a silent default. */
int hk_env_world_def(hk_world_def *out, char *err, size_t errlen);
/* The kernel path the program's worlds take: HOOKE_KERNELS when it names
 * one, else the library's default (the widest this CPU and build run). */
const char *hk_env_kernels(void);

#ifdef __cplusplus
}
#endif
#endif
