/* json.c — the one JSON writer of the program: escaped strings, numbers, nesting, commas and indentation. */
/* SPDX-License-Identifier: MIT */
#include "json.h"

#include <math.h>

/* The length of the valid UTF-8 sequence at s (2..4), or 0 when s[0] does not start one. */
static int utf8_length(const unsigned char *s)
{
    const unsigned char c = s[0];
    int n;
    unsigned char lo = 0x80, hi = 0xbf; /* the allowed range of the second byte */
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0) lo = 0xa0; /* no overlong forms */
        if (c == 0xed) hi = 0x9f; /* no surrogates U+D800..U+DFFF */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0) lo = 0x90; /* no overlong forms */
        if (c == 0xf4) hi = 0x8f; /* nothing past U+10FFFF */
    } else {
        return 0; /* ASCII is handled by the caller; 0x80..0xc1 and 0xf5..0xff start nothing */
    }
    if (s[1] < lo || s[1] > hi) return 0;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf) return 0;
    return n;
}

void hk_json_escape(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p++, f);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p++);
        } else if (*p < 0x80) {
            fputc(*p++, f);
        } else {
            const int n = utf8_length(p);
            if (n) {
                fwrite(p, 1, (size_t)n, f);
                p += n;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
    fputc('"', f);
}

void hk_json_begin(hk_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->count[0] = 0;
    j->line_from = HK_JSON_MAX_DEPTH;
    j->bad = 0;
}

int hk_json_end(hk_json *j)
{
    fputc('\n', j->f);
    return j->bad || j->depth != 0 ? -1 : 0;
}

/* Before a member: the comma and the line break of the container it goes in, and its key. */
static void member(hk_json *j, const char *key)
{
    const int in_object = j->depth > 0 && j->close[j->depth - 1] == '}';
    if ((key != NULL) != in_object || (j->depth == 0 && j->count[0] > 0)) j->bad = 1;
    if (j->depth > 0) {
        if (j->count[j->depth - 1]++ > 0) fputc(',', j->f);
        if (j->depth - 1 < j->line_from) {
            fputc('\n', j->f);
            for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
        } else if (j->count[j->depth - 1] > 1) {
            fputc(' ', j->f);
        }
    } else {
        j->count[0]++;
    }
    if (key) {
        hk_json_escape(j->f, key);
        fputs(": ", j->f);
    }
}

static void open_container(hk_json *j, const char *key, char open, char close, int one_line)
{
    member(j, key);
    if (j->depth + 1 >= HK_JSON_MAX_DEPTH) {
        j->bad = 1;
        return;
    }
    fputc(open, j->f);
    j->close[j->depth] = close;
    j->count[j->depth] = 0;
    if (one_line && j->depth < j->line_from) j->line_from = j->depth;
    j->depth++;
}

void hk_json_object(hk_json *j, const char *key) { open_container(j, key, '{', '}', 0); }
void hk_json_object_line(hk_json *j, const char *key) { open_container(j, key, '{', '}', 1); }
void hk_json_array(hk_json *j, const char *key) { open_container(j, key, '[', ']', 0); }
void hk_json_array_line(hk_json *j, const char *key) { open_container(j, key, '[', ']', 1); }

void hk_json_close(hk_json *j)
{
    if (j->depth == 0) {
        j->bad = 1;
        return;
    }
    j->depth--;
    if (j->depth < j->line_from && j->count[j->depth] > 0) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
    }
    if (j->line_from == j->depth) j->line_from = HK_JSON_MAX_DEPTH;
    fputc(j->close[j->depth], j->f);
}

void hk_json_str(hk_json *j, const char *key, const char *value)
{
    member(j, key);
    hk_json_escape(j->f, value);
}

void hk_json_num(hk_json *j, const char *key, double value, int digits)
{
    member(j, key);
    if (isfinite(value))
        fprintf(j->f, "%.*g", digits, value);
    else
        fputs("null", j->f);
}

void hk_json_int(hk_json *j, const char *key, long long value)
{
    member(j, key);
    fprintf(j->f, "%lld", value);
}

void hk_json_bool(hk_json *j, const char *key, int value)
{
    member(j, key);
    fputs(value ? "true" : "false", j->f);
}

void hk_json_null(hk_json *j, const char *key)
{
    member(j, key);
    fputs("null", j->f);
}
