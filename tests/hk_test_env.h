/* hk_test_env.h — the definition the program's worlds start from (cli/env.h), for tests run with CTest's tuning. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_ENV_H
#define HK_TEST_ENV_H

#include "env.h"
#include "hk_test.h"

/* hk_default_world_def() with the environment's tuning (HOOKE_LIST_PARALLEL_MIN=0 in tests/CMakeLists.txt
 * puts small list bodies on the whole team), as `hooke run` takes it; a value it refuses fails the test. */
static inline hk_world_def hk_test_env_def(void)
{
    hk_world_def d;
    char err[256];
    if (hk_env_world_def(&d, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    return d;
}

#endif
