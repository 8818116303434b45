/* scene_lex.c — the scene reader's lines, tokens, values and FILE:LINE:COL errors. */
/* SPDX-License-Identifier: MIT */
#include "scene_lex.h"

#include "numbers.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int clamp_int(size_t v) { return v > (size_t)INT_MAX ? INT_MAX : (int)v; }

int sc_fail(sc_lexer *lx, int line, int col, const char *fmt, ...)
{
    if (lx->failed) return -1;
    lx->failed = 1;
    if (!lx->err || lx->errlen == 0) return -1;
    int n = snprintf(lx->err, lx->errlen, "%s:%d:%d: error: ", lx->file, line, col);
    if (n >= 0 && (size_t)n < lx->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    for (char *c = lx->err; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' '; /* one line, whatever the builder said */
    return -1;
}

int sc_oom(sc_lexer *lx) { return sc_fail(lx, lx->line, 1, "out of memory"); }

int sc_grow(sc_lexer *lx, void **arr, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    if (need > INT_MAX / 2) return sc_oom(lx);
    int ncap = *cap ? *cap : 8;
    while (ncap < need) ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * sz);
    if (!n) return sc_oom(lx);
    *arr = n;
    *cap = ncap;
    return 0;
}

const char *sc_show(const char *s, char out[SC_SHOW_CAP])
{
    size_t o = 0, i = 0;
    for (; s[i] && i < SC_SHOW_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f)
            o += (size_t)snprintf(out + o, SC_SHOW_CAP - o, "\\x%02X", c);
        else
            out[o++] = (char)c;
    }
    if (s[i]) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

/* "'token'" or "end of line", for "got ..." */
static const char *got(const sc_lexer *lx, int ti, char out[SC_SHOW_CAP + 2])
{
    if (ti >= lx->ntok) return "end of line";
    char tmp[SC_SHOW_CAP];
    snprintf(out, SC_SHOW_CAP + 2, "'%s'", sc_show(lx->tok[ti].s, tmp));
    return out;
}

int sc_col_of(const sc_lexer *lx, int ti) { return ti < lx->ntok ? lx->tok[ti].col : lx->eol_col; }

/* "expected WHAT, got 'TOKEN'", with " (WHY)" when why is not NULL */
static int vexpected(sc_lexer *lx, int ti, const char *why, const char *fmt, va_list ap)
{
    char what[512], g[SC_SHOW_CAP + 2];
    vsnprintf(what, sizeof what, fmt, ap);
    return sc_fail(lx, lx->line, sc_col_of(lx, ti), "expected %s, got %s%s%s%s", what, got(lx, ti, g), why ? " (" : "",
                   why ? why : "", why ? ")" : "");
}

int sc_expected(sc_lexer *lx, int ti, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vexpected(lx, ti, NULL, fmt, ap);
    va_end(ap);
    return rc;
}

int sc_expected_why(sc_lexer *lx, int ti, const char *why, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vexpected(lx, ti, why, fmt, ap);
    va_end(ap);
    return rc;
}

int sc_expect_eol(sc_lexer *lx, int ti, const char *after)
{
    if (ti >= lx->ntok) return 0;
    return sc_expected(lx, ti, "end of line after '%s'", after);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

int sc_next_line(sc_lexer *lx)
{
    if (lx->pos > lx->len) {
        lx->eof_line = lx->line;
        lx->eof_col = lx->last_len + 1;
        return 0;
    }
    size_t start = lx->pos;
    char *nl = memchr(lx->buf + start, '\n', lx->len - start);
    size_t end = nl ? (size_t)(nl - lx->buf) : lx->len;
    if (lx->line < INT_MAX) lx->line++;
    lx->last_len = clamp_int(end - start);
    lx->ntok = 0;
    size_t i = start;
    while (i < end && lx->buf[i] != '#') {
        if (is_blank(lx->buf[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < end && !is_blank(lx->buf[i]) && lx->buf[i] != '#') i++;
        if (sc_grow(lx, (void **)&lx->tok, &lx->captok, lx->ntok + 1, sizeof *lx->tok)) return -1;
        lx->tok[lx->ntok++] = (sc_token){lx->buf + b, clamp_int(b - start + 1), i - b};
    }
    /* terminate the tokens in place (the byte after each is a blank, '#', '\n' or the final NUL) */
    for (int t = 0; t < lx->ntok; t++) lx->buf[(size_t)(lx->tok[t].s - lx->buf) + lx->tok[t].len] = '\0';
    lx->eol_col = lx->ntok ? clamp_int((size_t)lx->tok[lx->ntok - 1].col + lx->tok[lx->ntok - 1].len) : 1;
    lx->pos = end + 1;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

/* The library bound a check stands for (*zero_ok: 0 is accepted too), or -1. */
static int check_bound(sc_check ck, int *zero_ok)
{
    *zero_ok = ck == CK_STIFFNESS || ck == CK_DAMPING || ck == CK_STEP_OR_0;
    switch (ck) {
    case CK_MASS: return HK_BOUND_MASS;
    case CK_STIFFNESS:
    case CK_STIFF_POS: return HK_BOUND_STIFFNESS;
    case CK_DAMPING: return HK_BOUND_DAMPING;
    case CK_STEP:
    case CK_STEP_OR_0: return HK_BOUND_DT;
    case CK_DAMPING_RATIO: return HK_BOUND_DAMPING_RATIO;
    default: return -1;
    }
}

/* "a positive number", "a mass in [1e-12, 1e12] kg", ... */
static const char *check_text(sc_check ck, char *out, size_t cap)
{
    int zero_ok, b = check_bound(ck, &zero_ok);
    if (b >= 0) {
        char range[96];
        hk_bound_text((hk_bound_kind)b, 0, range, sizeof range);
        snprintf(out, cap, "%sa %s %s", zero_ok ? "0 or " : "", hk_bound_of((hk_bound_kind)b)->quantity, range);
        return out;
    }
    switch (ck) {
    case CK_POS: return "a positive number";
    case CK_NONNEG: return "a number >= 0";
    case CK_UNIT: return "a number in [0, 1]";
    case CK_ALPHA: return "a number in (0, 1]";
    case CK_GT1: return "a number > 1";
    case CK_FRACTION: return "a number in (0, 1)";
    default: return "a number";
    }
}

static int check_ok(sc_check ck, double v)
{
    int zero_ok, b = check_bound(ck, &zero_ok);
    if (b >= 0) return hk_bound_ok((hk_bound_kind)b, zero_ok, v);
    switch (ck) {
    case CK_POS: return v > 0;
    case CK_NONNEG: return v >= 0;
    case CK_UNIT: return v >= 0 && v <= 1;
    case CK_ALPHA: return v > 0 && v <= 1;
    case CK_GT1: return v > 1;
    case CK_FRACTION: return v > 0 && v < 1;
    default: return 1;
    }
}

/* Why v fails check ck, when that is more than its sign: the bound's reason. */
static const char *check_why(sc_check ck, double v)
{
    int zero_ok, b = check_bound(ck, &zero_ok);
    return b >= 0 && v > 0 ? hk_bound_of((hk_bound_kind)b)->reason : NULL;
}

/* Token ti, a number, is larger in size than the build's precision holds (hk_real_holds). */
static int beyond_precision(sc_lexer *lx, int ti, const char *key)
{
    return sc_expected_why(lx, ti, hk_num_reason(HK_NUM_BEYOND_PRECISION), "a number of size at most %g for '%s'",
                           HK_REAL_LARGEST, key);
}

int sc_parse_num(sc_lexer *lx, int ti, const char *key, sc_check ck, double *out)
{
    const hk_num_status st = ti < lx->ntok ? hk_num_real(lx->tok[ti].s, out) : HK_NUM_NOT_A_NUMBER;
    if (st == HK_NUM_NOT_A_NUMBER) return sc_expected(lx, ti, "a number for '%s'", key);
    char text[160];
    if (st != HK_NUM_OK)
        return sc_expected_why(lx, ti, hk_num_reason(st), "%s for '%s'", check_text(ck, text, sizeof text), key);
    int zero_ok;
    const int b = check_bound(ck, &zero_ok);
    if (b >= 0 && *out >= hk_bound_of((hk_bound_kind)b)->min && *out <= hk_bound_of((hk_bound_kind)b)->max &&
        !hk_real_holds(*out)) /* within the table's bound (a time step has no upper one), past what the build holds */
        return beyond_precision(lx, ti, key);
    if (!check_ok(ck, *out))
        return sc_expected_why(lx, ti, check_why(ck, *out), "%s for '%s'", check_text(ck, text, sizeof text), key);
    if (!hk_real_holds(*out)) return beyond_precision(lx, ti, key); /* after a bound's own message: it says more */
    return 0;
}

int sc_parse_int(sc_lexer *lx, int ti, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    char what[96];
    if (lo == 0 && hi == 1)
        snprintf(what, sizeof what, "0 or 1");
    else if (hi == INT64_MAX)
        snprintf(what, sizeof what, "an integer >= %lld", (long long)lo);
    else
        snprintf(what, sizeof what, "an integer in [%lld, %lld]", (long long)lo, (long long)hi);
    if (ti >= lx->ntok) return sc_expected(lx, ti, "%s for '%s'", what, key);
    const hk_num_status st = hk_num_int(lx->tok[ti].s, lo, hi, out);
    if (st == HK_NUM_OK) return 0;
    return sc_expected_why(lx, ti, hk_num_reason(st), "%s for '%s'", what, key);
}

int sc_parse_vec(sc_lexer *lx, int ti, const char *key, sc_check ck, hk_vec3 *out)
{
    double c[3];
    for (int k = 0; k < 3; k++) {
        if (ti + k >= lx->ntok) return sc_expected(lx, ti + k, "3 numbers (x y z) for '%s'", key);
        const hk_num_status st = hk_num_real(lx->tok[ti + k].s, &c[k]);
        if (st == HK_NUM_NOT_A_NUMBER) return sc_expected(lx, ti + k, "a number for '%s'", key);
        if (st != HK_NUM_OK) return sc_expected_why(lx, ti + k, hk_num_reason(st), "a number for '%s'", key);
        if (!hk_real_holds(c[k])) return beyond_precision(lx, ti + k, key);
    }
    if (ck == CK_NONZERO && c[0] == 0 && c[1] == 0 && c[2] == 0) {
        char a[SC_SHOW_CAP], b[SC_SHOW_CAP], d[SC_SHOW_CAP];
        return sc_fail(lx, lx->line, lx->tok[ti].col, "expected a nonzero vector for '%s', got '%s %s %s'", key,
                       sc_show(lx->tok[ti].s, a), sc_show(lx->tok[ti + 1].s, b), sc_show(lx->tok[ti + 2].s, d));
    }
    *out = (hk_vec3){c[0], c[1], c[2]};
    return 0;
}

void sc_choice_list(const char *const *set, int n, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    int named = 0;
    for (int i = 0; i < n; i++) named += set[i] != NULL;
    for (int i = 0, j = 0; i < n && o < cap; i++) {
        if (!set[i]) continue;
        const char *sep = j == 0 ? "" : j == named - 1 ? " or " : ", ";
        int w = snprintf(out + o, cap - o, "%s%s", sep, set[i]);
        if (w < 0) break;
        o += (size_t)w;
        j++;
    }
}

int sc_find_name(const char *const *set, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (set[i] && strcmp(set[i], s) == 0) return i;
    return -1;
}

/* Letters added, dropped, changed or two neighbours swapped to turn a into b (optimal string alignment), or
 * `cap` + 1 when that is more than cap or a name is too long to compare. */
static int edits(const char *a, const char *b, int cap)
{
    enum { LONGEST = 64 };
    const int n = (int)strlen(a), m = (int)strlen(b);
    if (n > LONGEST || m > LONGEST || abs(n - m) > cap) return cap + 1;
    int d[LONGEST + 1][LONGEST + 1];
    for (int i = 0; i <= n; i++) d[i][0] = i;
    for (int j = 0; j <= m; j++) d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *sc_nearest_name(const char *const *set, int n, const char *s)
{
    const int len = (int)strlen(s), cap = len / 3 > 1 ? len / 3 : 1;
    const char *best = NULL;
    int fewest = cap + 1;
    for (int i = 0; i < n; i++) {
        if (!set[i]) continue;
        const int e = edits(s, set[i], cap);
        if (e < fewest) {
            fewest = e;
            best = set[i];
        }
    }
    return best;
}

int sc_parse_choice(sc_lexer *lx, int ti, const char *key, const char *const *set, int n, int *out)
{
    if (ti < lx->ntok && (*out = sc_find_name(set, n, lx->tok[ti].s)) >= 0) return 0;
    char list[256];
    sc_choice_list(set, n, list, sizeof list);
    return sc_expected(lx, ti, "%s for '%s'", list, key);
}
