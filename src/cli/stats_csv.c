/* stats_csv.c — the reader of the statistics CSV that `hooke run --stats` writes and `hooke plot` draws. */
#define _POSIX_C_SOURCE 200809L
#include "stats_csv.h"

#include "readfile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 256

void hk_stats_free(hk_stats_table *t)
{
    for (int c = 0; c < t->cols; c++) {
        free(t->names ? t->names[c] : NULL);
        free(t->v ? t->v[c] : NULL);
    }
    free(t->names);
    free(t->v);
    memset(t, 0, sizeof *t);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = '\0';
    return s;
}

/* Splits line at commas in place; returns the number of fields (at most max are stored). */
static int split(char *line, char **field, int max)
{
    int n = 0;
    for (char *s = line;; n++) {
        char *comma = strchr(s, ',');
        if (comma) *comma = '\0';
        if (n < max) field[n] = trim(s);
        if (!comma) return n + 1;
        s = comma + 1;
    }
}

/* The header line: names step,time,...; 0 or -1 with err set. */
static int parse_header(char *line, const char *name, int lineno, hk_stats_table *t, char *err, size_t errlen)
{
    char *field[MAX_COLUMNS], shown[64];
    snprintf(shown, sizeof shown, "%s", trim(line));
    const int n = split(line, field, MAX_COLUMNS);
    if (n < 2 || strcmp(field[0], "step") != 0 || strcmp(field[1], "time") != 0) {
        snprintf(err, errlen,
                 "%s:%d: not a hooke stats CSV: the header must start with step,time "
                 "(as written by hooke run --stats), got '%s'",
                 name, lineno, shown);
        return -1;
    }
    if (n > MAX_COLUMNS) {
        snprintf(err, errlen, "%s:%d: %d columns; at most %d are supported", name, lineno, n, MAX_COLUMNS);
        return -1;
    }
    t->names = calloc((size_t)n, sizeof *t->names);
    t->v = calloc((size_t)n, sizeof *t->v);
    if (!t->names || !t->v) {
        snprintf(err, errlen, "%s:%d: out of memory", name, lineno);
        return -1;
    }
    t->cols = n;
    for (int c = 0; c < n; c++) {
        if (!*field[c]) {
            snprintf(err, errlen, "%s:%d: column %d has no name", name, lineno, c + 1);
            return -1;
        }
        if (!(t->names[c] = strdup(field[c]))) {
            snprintf(err, errlen, "%s:%d: out of memory", name, lineno);
            return -1;
        }
    }
    return 0;
}

/* One data line (not blank); 0 or -1 with err set. */
static int parse_row(char *line, const char *name, int lineno, hk_stats_table *t, char *err, size_t errlen)
{
    char *field[MAX_COLUMNS];
    const int n = split(line, field, MAX_COLUMNS);
    if (n != t->cols) {
        snprintf(err, errlen, "%s:%d: ragged row: %d fields, the header has %d", name, lineno, n, t->cols);
        return -1;
    }
    if (t->rows == t->cap) {
        if (t->cap > INT_MAX / 2) {
            snprintf(err, errlen, "%s:%d: more than %d rows", name, lineno, t->cap);
            return -1;
        }
        const int cap = t->cap ? 2 * t->cap : 256;
        for (int c = 0; c < t->cols; c++) {
            double *v = realloc(t->v[c], (size_t)cap * sizeof *v);
            if (!v) {
                snprintf(err, errlen, "%s:%d: out of memory", name, lineno);
                return -1;
            }
            t->v[c] = v;
        }
        t->cap = cap;
    }
    for (int c = 0; c < n; c++) {
        char *end;
        errno = 0;
        const double v = strtod(field[c], &end);
        /* nan and inf spelled out are kept; a finite-looking number past the double range is not */
        if (!*field[c] || *end || (errno == ERANGE && fabs(v) > 1)) {
            snprintf(err, errlen, "%s:%d: column %d (%s): '%.40s' is not a number", name, lineno, c + 1, t->names[c],
                     field[c]);
            return -1;
        }
        t->v[c][t->rows] = v;
    }
    t->rows++;
    return 0;
}

int hk_stats_parse(char *text, size_t len, const char *name, hk_stats_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    const size_t nul = strlen(text);
    if (nul != len) {
        int line = 1;
        for (size_t i = 0; i < nul; i++) line += text[i] == '\n';
        snprintf(err, errlen, "%s:%d: not a hooke stats CSV (it contains a NUL byte)", name, line);
        return -1;
    }
    int lineno = 0, rc = 0;
    char *s = text;
    while (*s && rc == 0) {
        char *line = s, *nl = strchr(s, '\n');
        if (nl) {
            *nl = '\0';
            s = nl + 1;
        } else {
            s += strlen(s);
        }
        lineno++;
        if (!t->names)
            rc = parse_header(line, name, lineno, t, err, errlen);
        else if (*trim(line)) /* blank lines (a trailing one, say) carry no row */
            rc = parse_row(line, name, lineno, t, err, errlen);
    }
    if (rc == 0 && !t->names) {
        snprintf(err, errlen, "%s:1: empty file; expected a hooke stats CSV (header step,time,...)", name);
        rc = -1;
    }
    if (rc == 0 && t->rows < 2) {
        snprintf(err, errlen, "%s:%d: %d data row%s; a plot needs at least 2", name, lineno, t->rows,
                 t->rows == 1 ? "" : "s");
        rc = -1;
    }
    if (rc) hk_stats_free(t);
    return rc;
}

int hk_stats_read(const char *path, hk_stats_table *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t len;
    char *text, why[512];
    if (hk_read_file(path, HK_LIMIT_STATS, "stats CSV", &text, &len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    const int rc = hk_stats_parse(text, len, path, t, err, errlen);
    free(text);
    return rc;
}
