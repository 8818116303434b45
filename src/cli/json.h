/* json.h — the one JSON writer of the program: escaped strings, numbers, nesting, commas and indentation. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_JSON_H
#define HOOKE_JSON_H

#include <stdio.h>

enum { HK_JSON_MAX_DEPTH = 16 };

/* A JSON document being written to f. Containers opened with
 * hk_json_object / hk_json_array put one member per line, indented by two
 * spaces a level; those opened with the _line forms (and everything inside
 * them) stay on one line. Members take a key inside an object and NULL
 * inside an array or at the top. Misuse (a key in an array, closing more
 * than was opened, nesting past HK_JSON_MAX_DEPTH) sets `bad`, and
 * hk_json_end reports it. */
typedef struct hk_json {
    FILE *f;
    int depth;                     /* open containers */
    int count[HK_JSON_MAX_DEPTH];  /* members written so far in each */
    char close[HK_JSON_MAX_DEPTH]; /* '}' or ']' */
    int line_from;                 /* the first depth written on one line (HK_JSON_MAX_DEPTH: none) */
    int bad;
} hk_json;

/* Writes s as a JSON string, quotes included: '"' and '\' escaped with a
 * backslash, control characters (below 0x20) as \u00XX, valid UTF-8 as it
 * is, and each byte that is not part of a valid UTF-8 sequence (a stray
 * continuation byte, a truncated or overlong sequence, a surrogate, past
 * U+10FFFF) as \ufffd, the replacement character, so any bytes (a file
 * name is bytes) make valid JSON. NULL writes null. */
void hk_json_escape(FILE *f, const char *s);

void hk_json_begin(hk_json *j, FILE *f);
/* 0, or -1 when the document was misused or left open (a newline ends it). */
int hk_json_end(hk_json *j);

void hk_json_object(hk_json *j, const char *key);
void hk_json_object_line(hk_json *j, const char *key);
void hk_json_array(hk_json *j, const char *key);
void hk_json_array_line(hk_json *j, const char *key);
/* Closes the innermost object or array. */
void hk_json_close(hk_json *j);

/* A string (NULL: null). */
void hk_json_str(hk_json *j, const char *key, const char *value);
/* A number with `digits` significant digits (%.*g); NaN and infinities,
 * which JSON has no words for, as null. */
void hk_json_num(hk_json *j, const char *key, double value, int digits);
void hk_json_int(hk_json *j, const char *key, long long value);
void hk_json_bool(hk_json *j, const char *key, int value);
void hk_json_null(hk_json *j, const char *key);

#endif
