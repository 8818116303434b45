/* hk_test_scenes.h — the shipped scenes (every .scene file in scenes/), sorted by name, for tests that cover them all.
 */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_SCENES_H
#define HK_TEST_SCENES_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The names of the .scene files in HOOKE_SCENES_DIR into names (at most max; a
 * name of 64 characters or more fails the test), sorted; returns the count. */
static inline int hk_test_scene_files(char names[][64], int max)
{
    DIR *d = opendir(HOOKE_SCENES_DIR);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".scene") != 0) continue;
        assert_true(len < 64);
        assert_true(n < max);
        memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char t[64];
            memcpy(t, names[j], 64);
            memcpy(names[j], names[j - 1], 64);
            memcpy(names[j - 1], t, 64);
        }
    return n;
}

#endif
