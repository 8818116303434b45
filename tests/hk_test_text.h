/* hk_test_text.h — records the text the pictures draw (canvas.h's text hook), and reads printed tick labels back. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_TEXT_H
#define HK_TEST_TEXT_H

#include "hk_test.h"

#include "canvas.h"

#define HK_TEST_TEXTS 4096

/* Every text drawn while recording: its role and its UTF-8 bytes. */
typedef struct hk_texts {
    int n;
    hk_text_role role[HK_TEST_TEXTS];
    char text[HK_TEST_TEXTS][160];
} hk_texts;

static inline void hk_texts_hook(void *ctx, hk_text_role role, const char *text)
{
    hk_texts *t = ctx;
    if (t->n == HK_TEST_TEXTS) {
        print_error("more than %d texts drawn\n", HK_TEST_TEXTS);
        fail();
    }
    t->role[t->n] = role;
    snprintf(t->text[t->n], sizeof t->text[0], "%s", text);
    t->n++;
}

/* Starts recording into t (emptied); hk_texts_stop ends it. */
static inline void hk_texts_start(hk_texts *t)
{
    t->n = 0;
    hk_canvas_set_text_hook(hk_texts_hook, t);
}

static inline void hk_texts_stop(void) { hk_canvas_set_text_hook(NULL, NULL); }

/* The index of the first text of role equal to s, or -1. */
static inline int hk_texts_find(const hk_texts *t, hk_text_role role, const char *s)
{
    for (int i = 0; i < t->n; i++)
        if (t->role[i] == role && strcmp(t->text[i], s) == 0) return i;
    return -1;
}

/* Fails unless a text of role equal to s was drawn. */
static inline void hk_texts_expect(const hk_texts *t, hk_text_role role, const char *s)
{
    if (hk_texts_find(t, role, s) < 0) {
        print_error("no text '%s' of role %d among the %d drawn:\n", s, (int)role, t->n);
        for (int i = 0; i < t->n; i++) print_error("  %d '%s'\n", (int)t->role[i], t->text[i]);
        fail();
    }
}

/* 1 if s has a lower-case ASCII letter. */
static inline int hk_text_has_lower(const char *s)
{
    for (; *s; s++)
        if (*s >= 'a' && *s <= 'z') return 1;
    return 0;
}

/* A printed tick label (plot_axis.h hk_plot_tick_text) read back as "-1.5e-300" ASCII into out: the minus sign
 * U+2212 as '-', "×10" and superscript digits as "e" and digits, a bare "10" and superscripts as "1e...". Fails on
 * any other byte: a label is made of digits, '.', the minus sign and a power of ten only. */
static inline void hk_tick_text_ascii(const char *text, char *out, size_t cap)
{
    static const char *const sup[11] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074", "\u2075",
                                        "\u2076", "\u2077", "\u2078", "\u2079", "\u207b"};
    size_t n = 0;
    const char *p = text;
    int power = 0;
    while (*p && n + 3 < cap) {
        if (strncmp(p, "\u2212", strlen("\u2212")) == 0) {
            out[n++] = '-';
            p += strlen("\u2212");
        } else if (strncmp(p, "\u00d710", strlen("\u00d710")) == 0) {
            out[n++] = 'e';
            p += strlen("\u00d710");
            power = 1;
        } else if (p == text && strncmp(p, "10", 2) == 0 && (p[2] & 0x80)) { /* a bare power: 10³ */
            out[n++] = '1';
            out[n++] = 'e';
            p += 2;
            power = 1;
        } else if (power) {
            int k = 0;
            while (k < 11 && strncmp(p, sup[k], strlen(sup[k])) != 0) k++;
            if (k == 11) {
                print_error("tick text '%s': unexpected bytes in its exponent\n", text);
                fail();
            }
            out[n++] = k == 10 ? '-' : (char)('0' + k);
            p += strlen(sup[k]);
        } else if ((*p >= '0' && *p <= '9') || *p == '.') {
            out[n++] = *p++;
        } else {
            print_error("tick text '%s': unexpected byte 0x%02x\n", text, (unsigned char)*p);
            fail();
        }
    }
    out[n] = '\0';
}

#endif
