/* hk_test_parse.h — scene text that must fail with a given message, or parse: the scene tests' two checks. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_PARSE_H
#define HK_TEST_PARSE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scene.h"

/* Parses text as "x.scene" and checks that it fails with a message containing
 * `want`, on one line, and leaves no world behind. */
static inline void check_error(const char *text, const char *want)
{
    hk_scene sc;
    char err[2048];
    memset(&sc, 0xAB, sizeof sc);
    int rc = hk_scene_parse(text, "x.scene", &sc, err, sizeof err);
    if (rc == 0 || !strstr(err, want)) {
        print_error("scene text:\n%s\n---\nrc %d, message:  %s\nexpected to contain: %s\n", text, rc, err, want);
        hk_scene_free(&sc);
        fail();
    }
    assert_null(sc.world);
    assert_null(strchr(err, '\n'));
    assert_int_equal(strncmp(err, "x.scene:", 8), 0);
}

static inline hk_scene parse_ok(const char *text)
{
    hk_scene sc;
    char err[2048];
    int rc = hk_scene_parse(text, "ok.scene", &sc, err, sizeof err);
    if (rc != 0) {
        print_error("scene text:\n%s\n---\nunexpected error: %s\n", text, err);
        fail();
    }
    assert_non_null(sc.world);
    assert_string_equal(err, "");
    return sc;
}

#endif
