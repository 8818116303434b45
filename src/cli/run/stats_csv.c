/* stats_csv.c — the statistics CSV of `hooke run --stats`: how a run writes and continues it, how `hooke plot` reads
 * it. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "stats_csv.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>

#include "outfile.h"
#include "part.h"
#include "response.h"
#include "readfile.h"

/* ---- reading: the table hooke plot draws --------------------------------- */

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
        else if (!*trim(line)) /* blank lines (a trailing one, say) carry no row */
            continue;
        else if (!nl) /* every row ends in a newline: this one was cut short (its last number may be too) */
            t->cut_line = lineno;
        else
            rc = parse_row(line, name, lineno, t, err, errlen);
    }
    if (rc == 0 && !t->names) {
        snprintf(err, errlen, "%s:1: empty file; expected a hooke stats CSV (header step,time,...)", name);
        rc = -1;
    }
    if (rc == 0 && t->rows < 2) {
        char cut[64] = "";
        if (t->cut_line) snprintf(cut, sizeof cut, " (and line %d, a row cut short)", t->cut_line);
        snprintf(err, errlen, "%s:%d: %d data row%s%s; a plot needs at least 2", name, lineno, t->rows,
                 t->rows == 1 ? "" : "s", cut);
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

/* ---- writing: a run's rows ------------------------------------------------ */

/* Significant digits that read back to the same value in the build's
 * precision (float: 9, double: 17). */
#define DIGITS (sizeof(hk_real) == 8 ? 17 : 9)

/* Pressure bodies add volume_<body>,pressure_<body> columns (volume by the
 * Gauss divergence formula, pressure of the last force evaluation); the
 * implicit integrators add cg_iterations,cg_residual,newton_iterations,
 * newton_stopped (of the step the row is written after: CG iterations of
 * all its solves, the largest relative residual they ended with, its
 * linear solves, its substeps whose minimisation stopped at its iteration
 * bound); colliders add contacts,min_gap,crossings
 * (contact/response.h hk_contact_counts: particle-collider contacts, the
 * smallest distance of a particle in contact from its collider's surface
 * [m], nan without contacts, and the particles inside a collider); strain limits add strain_before,strain_after,
 * strain_min_before,strain_min_after,strain_projected,strain_sweeps,strain_unconverged (hooke.h hk_strain_stats of
 * the step the row is written after: the largest and smallest r / L0 of the limited springs before and after the
 * projection, its projections, most sweeps in a substep, substeps left past a limit) and tethers tethered (the
 * tethers' projections in that step); without limits the strain columns are nan and 0. */
static int has_solver(const hk_world *w) { return hk_integrator_info_of(hk_world_integrator(w).kind)->implicit; }

/* The header line of w's columns, with its newline, into out. */
static void header(const hk_world *w, char *out, size_t len)
{
    size_t at = (size_t)snprintf(out, len, "step,time,kinetic,gravity,spring,total,max_stretch,broken");
    for (int b = 0; b < hk_world_body_count(w) && at < len; b++)
        if (hk_world_body_has_pressure(w, b))
            at += (size_t)snprintf(out + at, len - at, ",volume_%d,pressure_%d", b, b);
    if (has_solver(w) && at < len)
        at += (size_t)snprintf(out + at, len - at, ",cg_iterations,cg_residual,newton_iterations,newton_stopped");
    if (hk_world_collider_count(w) && at < len)
        at += (size_t)snprintf(out + at, len - at, ",contacts,min_gap,crossings");
    if (hk_world_strain_limited(w) + hk_world_tethered(w) > 0 && at < len)
        at += (size_t)snprintf(out + at, len - at,
                               ",strain_before,strain_after,strain_min_before,strain_min_after,strain_projected,"
                               "strain_sweeps,strain_unconverged,tethered");
    if (at < len) snprintf(out + at, len - at, "\n");
}

/* v, a figure of body b computed by the rank that holds it, on every rank of a distributed world. */
static double from_holder(const hk_world *w, int b, double v)
{
    if (w->part) hk_part_bcast(w, &v, sizeof v, w->part->body[b].owner >= 0 ? w->part->body[b].owner : 0);
    return v;
}

static void write_row(FILE *f, const hk_world *w, const hk_stats *known)
{
    const hk_stats s = known ? *known : hk_world_stats(w);
    const int d = DIGITS;
    fprintf(f, "%lld,%.*g,%.*g,%.*g,%.*g,%.*g,%.*g,%lld", (long long)hk_world_step_count(w), d, hk_world_time(w), d,
            s.kinetic, d, s.gravity, d, s.spring, d, s.total, d, s.max_stretch, (long long)s.broken);
    for (int b = 0; b < hk_world_body_count(w); b++)
        if (hk_world_body_has_pressure(w, b))
            fprintf(f, ",%.*g,%.*g", d, from_holder(w, b, hk_world_body_volume(w, b, HK_VOLUME_GAUSS)), d,
                    from_holder(w, b, hk_world_body_pressure(w, b)));
    if (has_solver(w)) {
        const hk_solver_stats st = hk_world_solver_stats(w);
        const int current = st.step + 1 == hk_world_step_count(w); /* the row's step took a solve */
        fprintf(f, ",%d,%.3e,%d,%d", current ? st.cg_iterations : 0, current ? st.cg_residual : 0.0,
                current ? st.newton_iterations : 0, current ? st.newton_stopped : 0);
    }
    if (hk_world_collider_count(w)) { /* over a distributed world's ranks: each counts the particles it computes */
        const hk_contact_survey c = hk_contact_counts(w, NULL);
        int64_t n[2] = {c.contacts, c.inside};
        double gap = c.min_gap;
        hk_part_reduce(w, n, 2, HK_REDUCE_SUM_I64);
        hk_part_reduce(w, &gap, 1, HK_REDUCE_MIN_F64);
        fprintf(f, ",%lld,%.*g,%lld", (long long)n[0], d, gap, (long long)n[1]);
    }
    if (hk_world_strain_limited(w) + hk_world_tethered(w) > 0) {
        const hk_strain_stats st = hk_world_strain_stats(w);
        const int current = st.step >= 0 && st.step + 1 == hk_world_step_count(w); /* the row's step projected */
        const double no = NAN;
        fprintf(f, ",%.*g,%.*g,%.*g,%.*g,%lld,%d,%d,%lld", d, current ? st.before_max : no, d,
                current ? st.after_max : no, d, current ? st.before_min : no, d, current ? st.after_min : no,
                current ? (long long)st.projected : 0LL, current ? st.sweeps : 0, current ? st.unconverged : 0,
                current ? (long long)st.tethered : 0LL);
    }
    fprintf(f, "\n");
}

static int fail(char *err, size_t errlen, const char *path, const char *what)
{
    snprintf(err, errlen, "cannot write %s: %s", path, what);
    return -1;
}

/* The fields of the line at p (up to its newline or end): its commas, plus one. */
static int fields_of(const char *p, const char *end)
{
    int n = 1;
    for (; p < end && *p != '\n'; p++) n += *p == ',';
    return n;
}

/* A restart's file: the header and the rows before step `from` of what is
 * there, and its row at `from` when that step is on the grid (into
 * *kept_from: whether it had one), rewritten whole; 1 when there was
 * nothing to keep, 0, -1 (cannot read or write it) or -2 (it is not this
 * run's stats). The rows kept must be those the run wrote up to `from`: one
 * at each step 0, every, 2 every, ... below it, none missing, each with the
 * header's fields and the run's time at its step (the checkpoint's time
 * over its steps, per step: dt is fixed); anything else is another run's,
 * or an older copy, and refused, the file untouched. A last row cut short
 * (no newline at its end) past what is kept is dropped as the later rows
 * are, and s->warning says so; one that may hold a row to keep is lost
 * data, and the file is refused. */
static int keep_rows(hk_stats_csv *s, const char *path, const hk_world *w, int64_t from, int64_t every, int *kept_from,
                     char *err, size_t errlen)
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
    const int at_from = from % every == 0, columns = fields_of(head, head + hl);
    const double per_step = hk_world_time(w) / (double)from; /* the run's time at step k: k per_step */
    /* rows in step order: keep up to the first one past `from` (or at it, unless the run has a row there) */
    size_t keep = hl;
    int line = 1;
    long long last = -1;  /* the step of the last row kept */
    long long expect = 0; /* the step of the next row the run wrote: on the grid */
    while (keep < len) {
        line++;
        char *end;
        errno = 0;
        const long long step = strtoll(text + keep, &end, 10);
        const char *eol = memchr(text + keep, '\n', len - keep);
        const int readable = !errno && end != text + keep && *end == ',';
        if (!eol) { /* cut short: past `from` when its step says so, or when the row before it was at `from` */
            const int past = readable ? step > from || (step == from && !at_from) : last >= from;
            if (!past) {
                free(text);
                snprintf(err, errlen,
                         "%s:%d: error: the last row is cut short (no newline at its end) and may be of a step up to "
                         "the checkpoint's (%lld): its numbers are lost, the file cannot be continued whole; give "
                         "another --stats file",
                         path, line, (long long)from);
                return -2;
            }
            snprintf(s->warning, sizeof s->warning,
                     "%s:%d: the last row is cut short (no newline at its end: a write that did not finish); "
                     "dropped, with the rows after step %lld",
                     path, line, (long long)from);
            break;
        }
        if (!readable) {
            free(text);
            snprintf(err, errlen, "%s:%d: error: expected a stats row (step,time,...), ending in a newline", path,
                     line);
            return -2;
        }
        if (step > from || (step == from && !at_from)) break;
        const double time = strtod(end + 1, NULL), want = (double)step * per_step;
        const int fields = fields_of(text + keep, eol);
        if (step != expect || fields != columns || !(fabs(time - want) <= 1e-6 * fmax(fabs(want), per_step))) {
            char what[160];
            if (step != expect)
                snprintf(what, sizeof what, "a row of step %lld where this run's next row is of step %lld", step,
                         expect);
            else if (fields != columns)
                snprintf(what, sizeof what, "%d fields where the header has %d", fields, columns);
            else
                snprintf(what, sizeof what, "time %.9g at step %lld where this run's is %.9g", time, step, want);
            free(text);
            snprintf(err, errlen,
                     "%s:%d: error: %s (this run's rows up to the checkpoint's step %lld are at steps 0, %lld, "
                     "%lld, ...): the rows are another run's, not continued; give the stats file written with the "
                     "checkpoint (with the --every it had), or another --stats file",
                     path, line, what, (long long)from, (long long)every, 2 * (long long)every);
            return -2;
        }
        *kept_from = step == from;
        keep = (size_t)(eol - text) + 1;
        last = step;
        expect = step + every;
    }
    if (expect < from) { /* rows missing before the checkpoint's step: an older copy, or a run that ended early */
        free(text);
        char ended[64] = "there are no rows";
        if (last >= 0) snprintf(ended, sizeof ended, "the rows end at step %lld", last);
        snprintf(err, errlen,
                 "%s:%d: error: %s, before the checkpoint's step %lld: this run's rows of steps %lld to %lld (every "
                 "%lld) are not there (an older copy of the file?); not continued: give the stats file written with "
                 "the checkpoint, or another --stats file",
                 path, line + (keep == len), ended, (long long)from, expect,
                 at_from ? (long long)from - every : (long long)(from / every * every), (long long)every);
        return -2;
    }
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    int rc = f ? 0 : -1;
    if (f) {
        fwrite(text, 1, keep, f);
        rc = hk_out_close(&o, 1);
    }
    free(text);
    return rc == 0 ? 0 : fail(err, errlen, path, hk_out_strerror(errno));
}

/* The path still names the file the rows go to: a folder removed, or the file removed or replaced, during the
 * run would leave every later row written into a file no one can open. 0, or -1 with the message. */
static int still_there(const hk_stats_csv *s, char *err, size_t errlen)
{
    struct stat now;
    const int gone = stat(s->path, &now) != 0;
    if (!gone && now.st_dev == s->dev && now.st_ino == s->ino) return 0;
    snprintf(err, errlen, "cannot write %s: %s during the run, after %lld rows: they are lost with it", s->path,
             gone ? "the file (or its folder) was removed" : "the file was replaced by another", (long long)s->rows);
    return -1;
}

/* Writes text (len bytes) at the end of the file whole: one write, then more only where the system took part of
 * it. A write that cannot finish (a full disk, a file size limit) takes what it wrote back off, so the file ends
 * with its last whole row. 0, or -1 with the message. */
static int append_whole(hk_stats_csv *s, const char *text, size_t len, char *err, size_t errlen)
{
    size_t done = 0;
    while (done < len) {
        const ssize_t n = write(s->fd, text + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const int why = n < 0 ? errno : EIO;
        const int cut = done > 0 && ftruncate(s->fd, s->end) != 0; /* the part of the row that went out */
        char last[64] = "";
        if (s->rows) snprintf(last, sizeof last, " (the last of step %lld)", (long long)s->last_step);
        snprintf(err, errlen, "cannot write %s: %s after %lld rows%s%s", s->path, strerror(why), (long long)s->rows,
                 last,
                 cut ? "; the part of the next one written could not be taken off"
                     : ": the file ends with its last whole row");
        return -1;
    }
    s->end += (off_t)len;
    return 0;
}

int hk_stats_csv_open(hk_stats_csv *s, const char *path, const hk_world *w, int64_t from, int64_t every, char *err,
                      size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->fd = -1;
    s->path = path;
    int kept_from = 0;
    const int kind = hk_out_kind(path); /* the rule of outfile.h: a FIFO or device is written through, rows and all */
    if (kind < 0) return fail(err, errlen, path, hk_out_strerror(errno));
    const int fresh = from == 0 || kind == 1 ? 1 : keep_rows(s, path, w, from, every, &kept_from, err, errlen);
    if (fresh < 0) return fresh;
    s->fd = open(path, O_WRONLY | O_NOCTTY | (kind == 1 ? 0 : O_CREAT | (fresh ? O_TRUNC : O_APPEND)), 0644);
    struct stat st;
    if (s->fd < 0 || fstat(s->fd, &st) != 0) {
        const int why = errno;
        if (s->fd >= 0) close(s->fd);
        s->fd = -1;
        return fail(err, errlen, path, hk_out_strerror(why));
    }
    s->dev = st.st_dev;
    s->ino = st.st_ino;
    s->end = st.st_size;
    if (fresh) {
        char head[4096];
        header(w, head, sizeof head);
        if (append_whole(s, head, strlen(head), err, errlen) != 0) return s->failed = 1, -1;
    }
    const int due = (from == 0 || from % every == 0) && !kept_from;
    if (due && w->part && w->part->ranks > 1) { /* its figures are reductions: every rank makes it (run.c) */
        s->first_due = 1;
        return 0;
    }
    return due ? hk_stats_csv_row(s, w, NULL, err, errlen) : 0;
}

int hk_stats_csv_row(hk_stats_csv *s, const hk_world *w, const hk_stats *known, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len); /* the row whole in memory first: one write */
    if (!f) return fail(err, errlen, s->path, strerror(errno));
    write_row(f, w, known); /* on every rank of a distributed world: its figures are reductions over them */
    const int bad = fclose(f) != 0 || !text;
    if (s->fd < 0) { /* a rank that writes no file (rank 0 writes it) */
        free(text);
        return 0;
    }
    int rc = bad ? fail(err, errlen, s->path, "out of memory for a row") : append_whole(s, text, len, err, errlen);
    free(text);
    if (rc == 0) rc = still_there(s, err, errlen);
    if (rc == 0) s->rows++, s->last_step = hk_world_step_count(w);
    s->failed |= rc != 0;
    return rc;
}

int hk_stats_csv_close(hk_stats_csv *s, char *err, size_t errlen)
{
    if (s->fd < 0 || !s->path) return 0;
    int rc = err && !s->failed ? still_there(s, err, errlen) : 0; /* a failed row said it already */
    if (close(s->fd) != 0 && rc == 0 && err) rc = fail(err, errlen, s->path, strerror(errno));
    s->fd = -1;
    return rc;
}
