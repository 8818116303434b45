/* hk_test_parse.h — scene text that must fail with a given message, or parse; the messages' lists from the tables. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_PARSE_H
#define HK_TEST_PARSE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "scene.h"

/* The shipped scene `name` (a file of HOOKE_SCENES_DIR), loaded; fails the test if it does not load. */
static inline hk_scene hk_test_load_scene(const char *name)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, name);
    hk_scene sc;
    if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
        print_error("%s\n", err);
        fail();
    }
    return sc;
}

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

/* printf into one of a few buffers that last a while: expected messages built from the tables. */
static inline const char *text_of(const char *fmt, ...)
{
    static char buf[8][2048];
    static int next;
    char *out = buf[next++ % 8];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, sizeof buf[0], fmt, ap);
    va_end(ap);
    return out;
}

/* The lists the messages give, from the tables (scene.h), so a new key, body kind or integrator is listed
 * where it belongs without the tests naming it. */
static inline const char *keys_of(const char *title)
{
    char list[1024];
    hk_scene_key_names(title, list, sizeof list);
    assert_true(list[0] != '\0');
    return text_of("%s", list);
}
static inline const char *body_kinds(void)
{
    char list[512];
    hk_scene_body_names(list, sizeof list);
    return text_of("%s", list);
}
static inline const char *section_words(void)
{
    char list[512];
    hk_scene_section_names(list, sizeof list);
    return text_of("%s", list);
}

#endif
