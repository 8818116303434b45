/* scene_lex.h — the scene reader's lines, tokens, values and FILE:LINE:COL errors. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_LEX_H
#define HOOKE_SCENE_LEX_H

#include <stddef.h>
#include <stdint.h>

#include "hooke/hooke.h"

#if defined(__GNUC__)
#define SC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define SC_PRINTF(f, a)
#endif

typedef struct sc_token {
    const char *s; /* NUL-terminated inside the lexer's copy of the text */
    int col;
    size_t len;
} sc_token;

typedef struct sc_lexer {
    const char *file; /* for messages */
    char *err;
    size_t errlen;
    int failed;
    char *buf; /* mutable copy of the text */
    size_t len, pos;
    int line, last_len, eof_line, eof_col;
    sc_token *tok; /* the current line's tokens */
    int ntok, captok, eol_col;
} sc_lexer;

/* What a number must satisfy. */
typedef enum sc_check {
    CK_ANY = 0,  /* any finite number */
    CK_POS,      /* > 0 */
    CK_NONNEG,   /* >= 0 */
    CK_UNIT,     /* [0, 1] */
    CK_ALPHA,    /* (0, 1] */
    CK_GT1,      /* > 1 */
    CK_FRACTION, /* (0, 1) */
    CK_NONZERO,  /* vectors: not (0, 0, 0) */
    /* the library's bounds (hk_bound_of) */
    CK_MASS,          /* within HK_BOUND_MASS */
    CK_STIFFNESS,     /* 0 or within HK_BOUND_STIFFNESS */
    CK_STIFF_POS,     /* within HK_BOUND_STIFFNESS */
    CK_DAMPING,       /* 0 or within HK_BOUND_DAMPING */
    CK_STEP,          /* within HK_BOUND_DT */
    CK_STEP_OR_0,     /* 0 or within HK_BOUND_DT */
    CK_DAMPING_RATIO, /* within HK_BOUND_DAMPING_RATIO (0 included) */
} sc_check;

#define SC_SHOW_MAX 40
#define SC_SHOW_CAP (SC_SHOW_MAX * 4 + 8)

/* Writes an error "FILE:LINE:COL: error: ..." once (the first one wins); always returns -1. */
int sc_fail(sc_lexer *lx, int line, int col, const char *fmt, ...) SC_PRINTF(4, 5);
/* "out of memory" at the current line. */
int sc_oom(sc_lexer *lx);
/* Grows *arr (element size sz) to hold at least need elements; 0 or -1. */
int sc_grow(sc_lexer *lx, void **arr, int *cap, int need, size_t sz);
/* Copies s for a message: at most SC_SHOW_MAX bytes, control and non-ASCII bytes as \xNN, "..." when cut. */
const char *sc_show(const char *s, char out[SC_SHOW_CAP]);
/* Column of token ti, or just past the last token. */
int sc_col_of(const sc_lexer *lx, int ti);
/* Error at token ti (or at the end of the line): "expected WHAT, got 'TOKEN'". */
int sc_expected(sc_lexer *lx, int ti, const char *fmt, ...) SC_PRINTF(3, 4);
/* The same with the reason: "expected WHAT, got 'TOKEN' (WHY)". */
int sc_expected_why(sc_lexer *lx, int ti, const char *why, const char *fmt, ...) SC_PRINTF(4, 5);
/* Error unless token ti is past the end of the line. */
int sc_expect_eol(sc_lexer *lx, int ti, const char *after);
/* Splits the next line into tokens. Returns 0 at end of text, 1 otherwise, -1 on error. */
int sc_next_line(sc_lexer *lx);

/* Values at token ti for `key` (the grammar of numbers.h); 0, or -1 with the error written: "expected an
 * integer in [LO, HI] for 'KEY', got 'TOKEN' (REASON)", REASON "not a number", "not a whole number" or "out of
 * range"; numbers name the reason only when it is "out of range" (1e999). */
int sc_parse_num(sc_lexer *lx, int ti, const char *key, sc_check ck, double *out);
int sc_parse_int(sc_lexer *lx, int ti, const char *key, int64_t lo, int64_t hi, int64_t *out);
int sc_parse_vec(sc_lexer *lx, int ti, const char *key, sc_check ck, hk_vec3 *out);
/* A name of set[0..n) (NULL entries are not accepted); *out its index. */
int sc_parse_choice(sc_lexer *lx, int ti, const char *key, const char *const *set, int n, int *out);

/* Index of s in set[0..n), skipping NULL entries; -1 if absent. */
int sc_find_name(const char *const *set, int n, const char *s);
/* For a name that is none of set[0..n): the one it most likely misspells
 * (the fewest letters added, dropped, changed or swapped, at most a third
 * of its length, and at least 1), or NULL when none is that close. */
const char *sc_nearest_name(const char *const *set, int n, const char *s);
/* "a, b or c" of the non-NULL names of set[0..n). */
void sc_choice_list(const char *const *set, int n, char *out, size_t cap);

#endif
