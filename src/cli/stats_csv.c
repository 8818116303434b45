/* stats_csv.c — the statistics CSV of `hooke run --stats`: its columns, its rows, and how a restart continues it. */
#define _POSIX_C_SOURCE 200809L
#include "stats_csv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "outfile.h"
#include "readfile.h"

/* Significant digits that read back to the same value in the build's
 * precision (float: 9, double: 17). */
#define DIGITS (sizeof(hk_real) == 8 ? 17 : 9)

/* Pressure bodies add volume_<body>,pressure_<body> columns (volume by the
 * Gauss divergence formula, pressure of the last force evaluation); the
 * implicit integrators add cg_iterations,cg_residual (of the step the row
 * is written after: CG iterations of all its solves, the largest relative
 * residual they ended with). */
static int has_solver(const hk_world *w) { return hk_integrator_info_of(hk_world_integrator(w).kind)->implicit; }

/* The header line of w's columns, with its newline, into out. */
static void header(const hk_world *w, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "step,time,kinetic,gravity,spring,total,max_stretch,broken");
    for (int b = 0; b < hk_world_body_count(w) && at < len; b++)
        if (hk_world_body_has_pressure(w, b))
            at += (size_t)snprintf(out + at, len - at, ",volume_%d,pressure_%d", b, b);
    if (has_solver(w) && at < len) at += (size_t)snprintf(out + at, len - at, ",cg_iterations,cg_residual");
    if (at < len) snprintf(out + at, len - at, "\n");
}

static void write_row(FILE *f, const hk_world *w)
{
    const hk_stats s = hk_world_stats(w);
    const int d = DIGITS;
    fprintf(f, "%lld,%.*g,%.*g,%.*g,%.*g,%.*g,%.*g,%lld", (long long)hk_world_step_count(w), d, hk_world_time(w), d,
            s.kinetic, d, s.gravity, d, s.spring, d, s.total, d, s.max_stretch, (long long)s.broken);
    for (int b = 0; b < hk_world_body_count(w); b++)
        if (hk_world_body_has_pressure(w, b))
            fprintf(f, ",%.*g,%.*g", d, hk_world_body_volume(w, b, HK_VOLUME_GAUSS), d, hk_world_body_pressure(w, b));
    if (has_solver(w)) {
        const hk_solver_stats st = hk_world_solver_stats(w);
        const int current = st.step + 1 == hk_world_step_count(w); /* the row's step took a solve */
        fprintf(f, ",%d,%.3e", current ? st.cg_iterations : 0, current ? st.cg_residual : 0.0);
    }
    fprintf(f, "\n");
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "cannot write %s: %s", path, what);
    return -1;
}

/* A restart's file: the header and the rows up to step `from` of what is
 * there, rewritten whole; 1 when there was nothing to keep, 0, -1 (cannot
 * read or write it) or -2 (it is not this run's stats). */
static int keep_rows(const char *path, const hk_world *w, int64_t from, char *err, size_t errlen)
{
    char *text, why[512];
    size_t len;
    if (hk_read_file(path, HK_LIMIT_STATS, "stats CSV", &text, &len, why, sizeof why) != 0) {
        if (errno == ENOENT) return 1;
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    char head[4096];
    header(w, head, sizeof head);
    if (len == 0) {
        free(text);
        return 1;
    }
    const size_t hl = strlen(head);
    if (len < hl || memcmp(text, head, hl) != 0) {
        free(text);
        snprintf(err, errlen,
                 "%s:1: error: its columns are not this run's (expected the header '%.*s'): not continued; give "
                 "another --stats file",
                 path, (int)(hl - 1), head);
        return -2;
    }
    /* rows in step order: keep up to the first one past `from` */
    size_t keep = hl;
    int line = 1;
    while (keep < len) {
        line++;
        char *end;
        errno = 0;
        const long long step = strtoll(text + keep, &end, 10);
        const char *eol = memchr(text + keep, '\n', len - keep);
        if (errno || end == text + keep || *end != ',' || !eol) {
            free(text);
            snprintf(err, errlen, "%s:%d: error: expected a stats row (step,time,...), ending in a newline", path,
                     line);
            return -2;
        }
        if (step > from) break;
        keep = (size_t)(eol - text) + 1;
    }
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    int rc = f ? 0 : -1;
    if (f) {
        fwrite(text, 1, keep, f);
        rc = hk_out_close(&o, 1);
    }
    free(text);
    return rc == 0 ? 0 : fail(err, errlen, path, strerror(errno));
}

int hk_stats_csv_open(hk_stats_csv *s, const char *path, const hk_world *w, int64_t from, char *err, size_t errlen)
{
    s->f = NULL;
    s->path = path;
    const int fresh = from == 0 ? 1 : keep_rows(path, w, from, err, errlen);
    if (fresh < 0) return fresh;
    s->f = fopen(path, fresh ? "w" : "a");
    if (!s->f) return fail(err, errlen, path, strerror(errno));
    if (fresh) {
        char head[4096];
        header(w, head, sizeof head);
        fputs(head, s->f);
        return hk_stats_csv_row(s, w, err, errlen);
    }
    return 0;
}

int hk_stats_csv_row(hk_stats_csv *s, const hk_world *w, char *err, size_t errlen)
{
    errno = 0;
    write_row(s->f, w);
    if (fflush(s->f) != 0 || ferror(s->f)) return fail(err, errlen, s->path, strerror(errno ? errno : EIO));
    return 0;
}

int hk_stats_csv_close(hk_stats_csv *s, char *err, size_t errlen)
{
    if (!s->f) return 0;
    const int rc = fclose(s->f);
    s->f = NULL;
    return rc == 0 ? 0 : fail(err, errlen, s->path, strerror(errno));
}
