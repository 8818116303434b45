/* test_json.c — the JSON writer (json.c): string escaping byte by byte, UTF-8 checking, layout, null for non-numbers.
 */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

/* What hk_json_escape writes for s (malloc'd). */
static char *escaped(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    hk_json_escape(f, s);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void expect_escaped(const char *s, const char *want)
{
    char *got = escaped(s);
    if (strcmp(got, want) != 0) print_error("escaping '%s': got %s, want %s\n", s, got, want);
    assert_string_equal(got, want);
    free(got);
}

static void test_quotes_backslashes_controls(void **state)
{
    (void)state;
    expect_escaped("", "\"\"");
    expect_escaped("plain/text", "\"plain/text\"");
    expect_escaped("we\"ird\\dir", "\"we\\\"ird\\\\dir\"");
    expect_escaped("\\\\\"\"", "\"\\\\\\\\\\\"\\\"\"");
    /* every control character as \u00XX, the short forms (\n, \t) too: one rule */
    expect_escaped("a\nb\tc\rd", "\"a\\u000ab\\u0009c\\u000dd\"");
    expect_escaped("\x01\x1f", "\"\\u0001\\u001f\"");
    expect_escaped("\x7f", "\"\x7f\""); /* DEL is not a control character to JSON */
    expect_escaped(NULL, "null");
}

static void test_valid_utf8_passes_through(void **state)
{
    (void)state;
    expect_escaped("dir-\xc3\xa9", "\"dir-\xc3\xa9\"");                 /* é, 2 bytes */
    expect_escaped("\xe2\x82\xac", "\"\xe2\x82\xac\"");                 /* €, 3 bytes */
    expect_escaped("\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"");         /* U+1F600, 4 bytes */
    expect_escaped("\xed\x9f\xbf", "\"\xed\x9f\xbf\"");                 /* U+D7FF, just below the surrogates */
    expect_escaped("\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"");         /* U+10FFFF, the last code point */
    expect_escaped("\xe0\xa0\x80\xc2\x80", "\"\xe0\xa0\x80\xc2\x80\""); /* the shortest 3- and 2-byte forms */
}

/* Each byte that is not part of a valid sequence becomes one U+FFFD. */
static void test_invalid_utf8_replaced(void **state)
{
    (void)state;
#define R "\\ufffd"
    expect_escaped("a\xff"
                   "b",
                   "\"a" R "b\"");                         /* never a UTF-8 byte */
    expect_escaped("\x80", "\"" R "\"");                   /* a stray continuation byte */
    expect_escaped("\xc0\xaf", "\"" R R "\"");             /* overlong '/' */
    expect_escaped("\xe0\x80\xaf", "\"" R R R "\"");       /* overlong, 3 bytes */
    expect_escaped("\xf0\x80\x80\xaf", "\"" R R R R "\""); /* overlong, 4 bytes */
    expect_escaped("\xed\xa0\x80", "\"" R R R "\"");       /* a surrogate, U+D800 */
    expect_escaped("\xf4\x90\x80\x80", "\"" R R R R "\""); /* past U+10FFFF */
    expect_escaped("\xe2\x82", "\"" R R "\"");             /* truncated at the end */
    expect_escaped("\xe2\x82x", "\"" R R "x\"");           /* truncated before ASCII */
    expect_escaped("\xc3\"", "\"" R "\\\"\"");             /* truncated before a quote, which is still escaped */
    expect_escaped("\xc3\xa9\xa9", "\"\xc3\xa9" R "\"");   /* one continuation too many */
#undef R
}

/* The document a function writes (malloc'd); *rc what hk_json_end returned. */
static char *document(void (*write)(hk_json *), int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    hk_json j;
    hk_json_begin(&j, f);
    write(&j);
    *rc = hk_json_end(&j);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void nested(hk_json *j)
{
    hk_json_object(j, NULL);
    hk_json_str(j, "name", "a\"b");
    hk_json_num(j, "x", 0.25, 9);
    hk_json_num(j, "nan", NAN, 9);
    hk_json_num(j, "inf", -INFINITY, 9);
    hk_json_int(j, "n", -12345678901LL);
    hk_json_bool(j, "ok", 1);
    hk_json_null(j, "none");
    hk_json_object(j, "empty");
    hk_json_close(j);
    hk_json_array(j, "rows");
    hk_json_object_line(j, NULL);
    hk_json_int(j, "i", 1);
    hk_json_array_line(j, "v");
    hk_json_num(j, NULL, 1.5, 9);
    hk_json_bool(j, NULL, 0);
    hk_json_close(j);
    hk_json_close(j);
    hk_json_object_line(j, NULL);
    hk_json_close(j);
    hk_json_close(j);
    hk_json_close(j);
}

static void test_layout(void **state)
{
    (void)state;
    int rc;
    char *got = document(nested, &rc);
    assert_int_equal(rc, 0);
    assert_string_equal(got, "{\n"
                             "  \"name\": \"a\\\"b\",\n"
                             "  \"x\": 0.25,\n"
                             "  \"nan\": null,\n"
                             "  \"inf\": null,\n"
                             "  \"n\": -12345678901,\n"
                             "  \"ok\": true,\n"
                             "  \"none\": null,\n"
                             "  \"empty\": {},\n"
                             "  \"rows\": [\n"
                             "    {\"i\": 1, \"v\": [1.5, false]},\n"
                             "    {}\n"
                             "  ]\n"
                             "}\n");
    free(got);
}

static void key_in_array(hk_json *j)
{
    hk_json_array(j, NULL);
    hk_json_int(j, "k", 1);
    hk_json_close(j);
}
static void no_key_in_object(hk_json *j)
{
    hk_json_object(j, NULL);
    hk_json_int(j, NULL, 1);
    hk_json_close(j);
}
static void left_open(hk_json *j) { hk_json_object(j, NULL); }
static void closed_twice(hk_json *j)
{
    hk_json_array(j, NULL);
    hk_json_close(j);
    hk_json_close(j);
}
static void two_documents(hk_json *j)
{
    hk_json_int(j, NULL, 1);
    hk_json_int(j, NULL, 2);
}

static void test_misuse_reported(void **state)
{
    (void)state;
    void (*const cases[])(hk_json *) = {key_in_array, no_key_in_object, left_open, closed_twice, two_documents};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int rc;
        free(document(cases[i], &rc));
        assert_int_equal(rc, -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quotes_backslashes_controls),
        cmocka_unit_test(test_valid_utf8_passes_through),
        cmocka_unit_test(test_invalid_utf8_replaced),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_misuse_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
