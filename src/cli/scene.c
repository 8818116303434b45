/* scene.c — parses the line-based scene format (docs/scene-format.md) and builds the world it describes. */
#include "scene.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How it works: one pass reads the text line by line into section states; at
 * each `end` the section is checked and turned into a descriptor (an "item"
 * for bodies and spheres, or the world/run settings). Only when the whole
 * file is read is the world created and every item added in file order, so
 * `world`, `ground`, `walls` and `run` may appear anywhere. Errors are
 * reported as FILE:LINE:COL (1-based; COL counts bytes, a tab is one). */

/* ------------------------------------------------------------------------ */
/* Keys and sections                                                         */

typedef enum key_type {
    T_NUM,        /* one number */
    T_INT,        /* one integer in [lo, hi] */
    T_VEC,        /* three numbers */
    T_CHOICE,     /* one name from choices */
    T_PINS,       /* one or more particle indices */
    T_INTEGRATOR, /* an integrator name */
    T_POINT,      /* points body: x y z mass [vx vy vz], repeatable */
    T_SPRING,     /* points body: A B, repeatable */
    T_FILE,       /* one file name, relative to the scene file's directory */
} key_type;

typedef enum check {
    CK_ANY = 0, /* any finite number */
    CK_POS,     /* > 0 */
    CK_NONNEG,  /* >= 0 */
    CK_UNIT,    /* [0, 1] */
    CK_ALPHA,   /* (0, 1] */
    CK_GT1,     /* > 1 */
    CK_NONZERO, /* vectors: not (0, 0, 0) */
} check;

typedef struct keydef {
    const char *name;
    key_type type;
    check ck;
    int required;
    int64_t lo, hi;             /* T_INT */
    const char *const *choices; /* T_CHOICE: NULL-terminated */
} keydef;

typedef enum sec_kind {
    S_WORLD,
    S_RUN,
    S_GROUND,
    S_WALLS,
    S_SPHERE,
    S_ROPE,
    S_CLOTH,
    S_JELLY,
    S_QUAD,
    S_SPRING,
    S_PENDULUM,
    S_POINTS,
    S_MESH,
    S_ICOSPHERE,
    S_RING,
    S_KIND_COUNT
} sec_kind;

typedef struct secdef {
    sec_kind kind;
    const char *word;  /* word that opens it: "world", "body" (the body kind follows, see body_kinds) */
    const char *title; /* for messages: "world", "body rope" */
    const keydef *keys;
    int nkeys;
    const char *const *families; /* spring families for `springs` lines, NULL-terminated; NULL: none */
} secdef;

#define MAX_KEYS 16
#define MAX_FAMILIES 8
#define MAX_BODY_PARTICLES (1 << 28) /* per body; the builders set the real limits */

static const char *const ground_models[] = {"repulsion", "spring", NULL};
static const char *const rope_topologies[] = {"chain", "skip_one", "all_to_all", NULL};
static const char *const cloth_pin_modes[] = {"none", "edge", "two_corners", "four_edges", NULL};
static const char *const jelly_neighbours[] = {"26", "52", NULL};
static const char *const damping_models[] = {"along", "relative", NULL};
static const char *const behaviours[] = {"normal", "tension_only", "compression_only", "breakable", NULL};
static const char *const wind_models[] = {"none", "vertex", "triangle", NULL};

#define NUM(n, c, r)                                                                                                   \
    {                                                                                                                  \
        n, T_NUM, c, r, 0, 0, NULL                                                                                     \
    }
#define VEC(n, c, r)                                                                                                   \
    {                                                                                                                  \
        n, T_VEC, c, r, 0, 0, NULL                                                                                     \
    }
#define INT(n, lo, hi, r)                                                                                              \
    {                                                                                                                  \
        n, T_INT, CK_ANY, r, lo, hi, NULL                                                                              \
    }
#define CHOICE(n, set)                                                                                                 \
    {                                                                                                                  \
        n, T_CHOICE, CK_ANY, 0, 0, 0, set                                                                              \
    }
#define PINS                                                                                                           \
    {                                                                                                                  \
        "pin", T_PINS, CK_ANY, 0, 0, 0, NULL                                                                           \
    }

static const keydef world_keys[] = {
    VEC("gravity", CK_ANY, 0), NUM("air_drag", CK_NONNEG, 0),     INT("threads", 0, 4096, 0),
    VEC("wind", CK_ANY, 0),    CHOICE("wind_model", wind_models), NUM("wind_drag", CK_NONNEG, 0),
};
static const keydef run_keys[] = {
    {"integrator", T_INTEGRATOR, CK_ANY, 0, 0, 0, NULL},
    NUM("dt", CK_POS, 1),
    NUM("dt_max", CK_NONNEG, 0),
    INT("steps", 1, INT64_MAX, 0),
    NUM("time", CK_POS, 0),
    INT("every", 1, INT64_MAX, 0),
    NUM("stretch_limit", CK_GT1, 0),
    NUM("jelly_dt_a", CK_NONNEG, 0),
    NUM("jelly_dt_v", CK_NONNEG, 0),
    NUM("jelly_alpha", CK_ALPHA, 0),
};
static const keydef ground_keys[] = {
    CHOICE("model", ground_models), NUM("height", CK_ANY, 0),        NUM("repulsion", CK_NONNEG, 0),
    NUM("friction", CK_NONNEG, 0),  NUM("absorption", CK_NONNEG, 0), NUM("stiffness", CK_NONNEG, 0),
};
static const keydef walls_keys[] = {
    VEC("min", CK_ANY, 1),
    VEC("max", CK_ANY, 1),
    NUM("loss", CK_UNIT, 0),
};
static const keydef sphere_keys[] = {
    VEC("center", CK_ANY, 1),
    NUM("radius", CK_POS, 1),
    VEC("velocity", CK_ANY, 0),
    NUM("loss", CK_UNIT, 0),
};
static const keydef rope_keys[] = {
    INT("count", 2, MAX_BODY_PARTICLES, 1),
    NUM("mass", CK_POS, 1),
    NUM("spacing", CK_POS, 1),
    VEC("origin", CK_ANY, 0),
    VEC("direction", CK_NONZERO, 0),
    CHOICE("topology", rope_topologies),
    INT("anchor", 0, 1, 0),
    VEC("anchor_velocity", CK_ANY, 0),
    PINS,
};
static const keydef cloth_keys[] = {
    INT("nx", 2, MAX_BODY_PARTICLES, 1),
    INT("ny", 2, MAX_BODY_PARTICLES, 1),
    NUM("spacing", CK_POS, 1),
    VEC("origin", CK_ANY, 0),
    VEC("u", CK_NONZERO, 0),
    VEC("v", CK_NONZERO, 0),
    NUM("mass", CK_POS, 1),
    NUM("radius", CK_POS, 0),
    CHOICE("pins", cloth_pin_modes),
    PINS,
};
static const keydef jelly_keys[] = {
    INT("nx", 2, MAX_BODY_PARTICLES, 1),
    INT("ny", 2, MAX_BODY_PARTICLES, 1),
    INT("nz", 2, MAX_BODY_PARTICLES, 1),
    NUM("spacing", CK_POS, 1),
    VEC("origin", CK_ANY, 0),
    NUM("mass", CK_POS, 1),
    CHOICE("neighbours", jelly_neighbours),
    PINS,
};
static const keydef quad_keys[] = {
    NUM("size", CK_POS, 1),
    VEC("origin", CK_ANY, 0),
    VEC("u", CK_NONZERO, 0),
    VEC("v", CK_NONZERO, 0),
    NUM("mass", CK_POS, 1),
    INT("diagonals", 0, 1, 0),
    PINS,
};
static const keydef spring_keys[] = {
    VEC("a", CK_ANY, 1),      VEC("b", CK_ANY, 1),      VEC("velocity_b", CK_ANY, 0),
    NUM("mass_a", CK_POS, 0), NUM("mass_b", CK_POS, 1), INT("pin_a", 0, 1, 0),
};
static const keydef pendulum_keys[] = {
    VEC("pivot", CK_ANY, 0), NUM("length", CK_POS, 1), NUM("angle", CK_ANY, 0),
    NUM("mass", CK_POS, 1),  NUM("k", CK_POS, 1),      NUM("damping", CK_NONNEG, 0),
};
static const keydef points_keys[] = {
    {"point", T_POINT, CK_ANY, 0, 0, 0, NULL},
    {"spring", T_SPRING, CK_ANY, 0, 0, 0, NULL},
    PINS,
};
static const keydef mesh_keys[] = {
    {"file", T_FILE, CK_ANY, 1, 0, 0, NULL},
    VEC("offset", CK_ANY, 0),
    NUM("mass", CK_POS, 1),
    VEC("velocity", CK_ANY, 0),
    INT("extra_rings", 0, 8, 0),
    NUM("nrt", CK_NONNEG, 0),
    NUM("pump_rate", CK_ALPHA, 0),
    PINS,
};
static const keydef icosphere_keys[] = {
    NUM("radius", CK_POS, 1), INT("level", 0, 7, 1),         VEC("center", CK_ANY, 0),
    NUM("mass", CK_POS, 1),   VEC("velocity", CK_ANY, 0),    INT("extra_rings", 0, 8, 0),
    NUM("nrt", CK_NONNEG, 0), NUM("pump_rate", CK_ALPHA, 0), PINS,
};
static const keydef ring_keys[] = {
    INT("count", 3, 1 << 24, 1),
    NUM("radius", CK_POS, 1),
    VEC("center", CK_ANY, 0),
    NUM("mass", CK_POS, 1),
    NUM("nrt", CK_NONNEG, 0),
    NUM("pump_rate", CK_ALPHA, 0),
    PINS,
};
/* keys of a `springs FAMILY ...` line */
static const keydef springs_keys[] = {
    NUM("k", CK_NONNEG, 1),          NUM("damping", CK_NONNEG, 0),  CHOICE("damping_model", damping_models),
    CHOICE("behaviour", behaviours), NUM("break_ratio", CK_GT1, 0), NUM("rest_length", CK_NONNEG, 0),
};

static const char *const rope_families[] = {"chain", "skip", NULL};
static const char *const cloth_families[] = {"structural", "shear", "bend", "radius", NULL};
static const char *const jelly_families[] = {"K1", "K2", "K3", "Kb1", "Kb2", "Kb3", "all", NULL};
static const char *const main_family[] = {"main", NULL};
static const char *const mesh_families[] = {"edges", "extra", NULL};
static const char *const ring_families[] = {"ring", NULL};

#define KEYS(a) a, (int)(sizeof a / sizeof a[0])
#define FITS(a) _Static_assert(sizeof a / sizeof a[0] <= MAX_KEYS, #a " has more than MAX_KEYS keys")
FITS(world_keys);
FITS(run_keys);
FITS(ground_keys);
FITS(walls_keys);
FITS(sphere_keys);
FITS(rope_keys);
FITS(cloth_keys);
FITS(jelly_keys);
FITS(quad_keys);
FITS(spring_keys);
FITS(pendulum_keys);
FITS(points_keys);
FITS(mesh_keys);
FITS(icosphere_keys);
FITS(ring_keys);
_Static_assert(sizeof jelly_families / sizeof jelly_families[0] - 1 <= MAX_FAMILIES, "too many families");
static const secdef secdefs[S_KIND_COUNT] = {
    {S_WORLD, "world", "world", KEYS(world_keys), NULL},
    {S_RUN, "run", "run", KEYS(run_keys), NULL},
    {S_GROUND, "ground", "ground", KEYS(ground_keys), NULL},
    {S_WALLS, "walls", "walls", KEYS(walls_keys), NULL},
    {S_SPHERE, "sphere", "sphere", KEYS(sphere_keys), NULL},
    {S_ROPE, "body", "body rope", KEYS(rope_keys), rope_families},
    {S_CLOTH, "body", "body cloth", KEYS(cloth_keys), cloth_families},
    {S_JELLY, "body", "body jelly", KEYS(jelly_keys), jelly_families},
    {S_QUAD, "body", "body quad", KEYS(quad_keys), main_family},
    {S_SPRING, "body", "body spring", KEYS(spring_keys), main_family},
    {S_PENDULUM, "body", "body pendulum", KEYS(pendulum_keys), NULL},
    {S_POINTS, "body", "body points", KEYS(points_keys), main_family},
    {S_MESH, "body", "body mesh", KEYS(mesh_keys), mesh_families},
    {S_ICOSPHERE, "body", "body icosphere", KEYS(icosphere_keys), mesh_families},
    {S_RING, "body", "body ring", KEYS(ring_keys), ring_families},
};

static const char *const section_words[] = {"world", "run", "ground", "walls", "sphere", "body", NULL};
/* in sec_kind order from S_ROPE */
static const char *const body_kinds[] = {"rope",   "cloth", "jelly",     "quad", "spring", "pendulum",
                                         "points", "mesh",  "icosphere", "ring", NULL};

/* ------------------------------------------------------------------------ */
/* Parser state                                                              */

typedef struct token {
    const char *s; /* NUL-terminated inside the parser's copy of the text */
    int col;
    size_t len;
} token;

typedef struct value {
    int line, col; /* where the key was given; line 0 = not given */
    int vcol;      /* column of its first value */
    double num;
    int64_t i;
    hk_vec3 vec;
    int choice;
} value;

typedef struct family {
    int line, col; /* line 0 = not given */
    hk_spring_params sp;
} family;

typedef struct located {
    int v, line, col;
} located;

typedef struct section {
    const secdef *def;
    int line; /* of the section word */
    value vals[MAX_KEYS];
    family fams[MAX_FAMILIES];
    located *pins;
    int npins, cappins;
    hk_vec3 *pos, *vel; /* points body */
    double *mass;
    int npoints, cappoints;
    located *sa, *sb;
    int nsprings, capsprings;
    char *file; /* body mesh: the file as written */
} section;

typedef union body_def {
    hk_sphere_def sphere;
    hk_rope_def rope;
    hk_cloth_def cloth;
    hk_jelly_def jelly;
    hk_quad_def quad;
    hk_spring_pair_def pair;
    hk_pendulum_def pendulum;
    hk_mesh_def mesh; /* mesh, icosphere (mesh pointer set when built) */
    hk_ring_def ring;
} body_def;

typedef struct item {
    sec_kind kind;
    int end_line, end_col;
    body_def d;
    located *pins;
    int npins;
    hk_vec3 *pos, *vel;
    double *mass;
    int npoints;
    int *sa, *sb;
    int nsprings;
    hk_spring_params sp;
    char *file;              /* body mesh: path resolved against the scene's directory */
    int file_line, file_col; /* where 'file' was given */
    double radius;           /* body icosphere */
    int level;
} item;

typedef struct parser {
    const char *file;
    char *err;
    size_t errlen;
    int failed;
    char *buf; /* mutable copy of the text */
    size_t len, pos;
    int line, last_len, eof_line, eof_col;
    token *tok;
    int ntok, captok, eol_col;

    section sec;             /* the open section (sec.def == NULL: none) */
    int seen_line[S_SPHERE]; /* world, run, ground, walls: line of the section, 0 = absent */
    hk_world_def wdef;
    hk_integrator_def integ;
    int64_t steps, every;
    double time, stretch_limit;
    item *items;
    int nitems, capitems, nbodies;
} parser;

static int clamp_int(size_t v) { return v > (size_t)INT_MAX ? INT_MAX : (int)v; }

/* Writes an error once (the first one wins); always returns -1. */
static int fail(parser *p, int line, int col, const char *fmt, ...)
{
    if (p->failed) return -1;
    p->failed = 1;
    if (!p->err || p->errlen == 0) return -1;
    int n = snprintf(p->err, p->errlen, "%s:%d:%d: error: ", p->file, line, col);
    if (n >= 0 && (size_t)n < p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    for (char *c = p->err; *c; c++)
        if (*c == '\n' || *c == '\r') *c = ' '; /* one line, whatever the builder said */
    return -1;
}

static int oom(parser *p) { return fail(p, p->line, 1, "out of memory"); }

/* Grows *arr (element size sz) to hold at least need elements. */
static int grow(parser *p, void **arr, int *cap, int need, size_t sz)
{
    if (need <= *cap) return 0;
    if (need > INT_MAX / 2) return oom(p);
    int ncap = *cap ? *cap : 8;
    while (ncap < need) ncap *= 2;
    void *n = realloc(*arr, (size_t)ncap * sz);
    if (!n) return oom(p);
    *arr = n;
    *cap = ncap;
    return 0;
}

#define SHOW_MAX 40
#define SHOW_CAP (SHOW_MAX * 4 + 8)

/* Copies s for a message: at most SHOW_MAX bytes, control and non-ASCII bytes
 * as \xNN, "..." when cut. */
static const char *show(const char *s, char out[SHOW_CAP])
{
    size_t o = 0, i = 0;
    for (; s[i] && i < SHOW_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f)
            o += (size_t)snprintf(out + o, SHOW_CAP - o, "\\x%02X", c);
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
static const char *got(const parser *p, int ti, char out[SHOW_CAP + 2])
{
    if (ti >= p->ntok) return "end of line";
    char tmp[SHOW_CAP];
    snprintf(out, SHOW_CAP + 2, "'%s'", show(p->tok[ti].s, tmp));
    return out;
}

static int col_of(const parser *p, int ti) { return ti < p->ntok ? p->tok[ti].col : p->eol_col; }

/* Error at token ti (or at the end of the line): "expected WHAT, got 'TOKEN'". */
static int expected(parser *p, int ti, const char *fmt, ...)
{
    char what[512], g[SHOW_CAP + 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return fail(p, p->line, col_of(p, ti), "expected %s, got %s", what, got(p, ti, g));
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Splits the next line into tokens. Returns 0 at end of text, 1 otherwise, -1 on error. */
static int next_line(parser *p)
{
    if (p->pos > p->len) {
        p->eof_line = p->line;
        p->eof_col = p->last_len + 1;
        return 0;
    }
    size_t start = p->pos;
    char *nl = memchr(p->buf + start, '\n', p->len - start);
    size_t end = nl ? (size_t)(nl - p->buf) : p->len;
    if (p->line < INT_MAX) p->line++;
    p->last_len = clamp_int(end - start);
    p->ntok = 0;
    size_t i = start;
    while (i < end && p->buf[i] != '#') {
        if (is_blank(p->buf[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < end && !is_blank(p->buf[i]) && p->buf[i] != '#') i++;
        if (grow(p, (void **)&p->tok, &p->captok, p->ntok + 1, sizeof *p->tok)) return -1;
        p->tok[p->ntok++] = (token){p->buf + b, clamp_int(b - start + 1), i - b};
    }
    /* terminate the tokens in place (the byte after each is a blank, '#', '\n' or the final NUL) */
    for (int t = 0; t < p->ntok; t++) p->buf[(size_t)(p->tok[t].s - p->buf) + p->tok[t].len] = '\0';
    p->eol_col = p->ntok ? clamp_int((size_t)p->tok[p->ntok - 1].col + p->tok[p->ntok - 1].len) : 1;
    p->pos = end + 1;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Values                                                                    */

static int to_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static int to_int64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end != s && *end == '\0' && errno == 0) {
        *out = v;
        return 0;
    }
    double d; /* also accept integral numbers written as 5e4 or 80.0 */
    if (to_double(s, &d) == 0 && d == floor(d) && fabs(d) < 9.2e18) {
        *out = (int64_t)d;
        return 0;
    }
    return -1;
}

static const char *check_text(check ck)
{
    switch (ck) {
    case CK_POS: return "a positive number";
    case CK_NONNEG: return "a number >= 0";
    case CK_UNIT: return "a number in [0, 1]";
    case CK_ALPHA: return "a number in (0, 1]";
    case CK_GT1: return "a number > 1";
    default: return "a number";
    }
}

static int check_ok(check ck, double v)
{
    switch (ck) {
    case CK_POS: return v > 0;
    case CK_NONNEG: return v >= 0;
    case CK_UNIT: return v >= 0 && v <= 1;
    case CK_ALPHA: return v > 0 && v <= 1;
    case CK_GT1: return v > 1;
    default: return 1;
    }
}

static int parse_num(parser *p, int ti, const char *key, check ck, double *out)
{
    if (ti >= p->ntok || to_double(p->tok[ti].s, out)) return expected(p, ti, "a number for '%s'", key);
    if (!check_ok(ck, *out)) return expected(p, ti, "%s for '%s'", check_text(ck), key);
    return 0;
}

static int parse_int(parser *p, int ti, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
    int bad = ti >= p->ntok || to_int64(p->tok[ti].s, out);
    if (!bad && *out >= lo && *out <= hi) return 0;
    if (lo == 0 && hi == 1) return expected(p, ti, "0 or 1 for '%s'", key);
    if (bad) return expected(p, ti, "an integer for '%s'", key);
    if (hi == INT64_MAX) return expected(p, ti, "an integer >= %lld for '%s'", (long long)lo, key);
    return expected(p, ti, "an integer in [%lld, %lld] for '%s'", (long long)lo, (long long)hi, key);
}

static int parse_vec(parser *p, int ti, const char *key, check ck, hk_vec3 *out)
{
    double c[3];
    for (int k = 0; k < 3; k++) {
        if (ti + k >= p->ntok) return expected(p, ti + k, "3 numbers (x y z) for '%s'", key);
        if (to_double(p->tok[ti + k].s, &c[k])) return expected(p, ti + k, "a number for '%s'", key);
    }
    if (ck == CK_NONZERO && c[0] == 0 && c[1] == 0 && c[2] == 0) {
        char a[SHOW_CAP], b[SHOW_CAP], d[SHOW_CAP];
        return fail(p, p->line, p->tok[ti].col, "expected a nonzero vector for '%s', got '%s %s %s'", key,
                    show(p->tok[ti].s, a), show(p->tok[ti + 1].s, b), show(p->tok[ti + 2].s, d));
    }
    *out = (hk_vec3){c[0], c[1], c[2]};
    return 0;
}

/* "a, b or c" */
static void choice_list(const char *const *set, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    int n = 0;
    while (set[n]) n++;
    for (int i = 0; i < n && o < cap; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(out + o, cap - o, "%s%s", sep, set[i]);
        if (w < 0) break;
        o += (size_t)w;
    }
}

static int find_name(const char *const *set, const char *s)
{
    for (int i = 0; set[i]; i++)
        if (strcmp(set[i], s) == 0) return i;
    return -1;
}

static int parse_choice(parser *p, int ti, const char *key, const char *const *set, int *out)
{
    if (ti < p->ntok && (*out = find_name(set, p->tok[ti].s)) >= 0) return 0;
    char list[256];
    choice_list(set, list, sizeof list);
    return expected(p, ti, "%s for '%s'", list, key);
}

static int expect_eol(parser *p, int ti, const char *after)
{
    if (ti >= p->ntok) return 0;
    return expected(p, ti, "end of line after '%s'", after);
}

/* "count, mass, ..." */
static void key_list(const secdef *d, char *out, size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (int k = 0; k <= d->nkeys && o < cap; k++) {
        const char *name = k < d->nkeys ? d->keys[k].name : d->families ? "springs" : NULL;
        if (!name) break;
        int w = snprintf(out + o, cap - o, "%s%s", k ? ", " : "", name);
        if (w < 0) break;
        o += (size_t)w;
    }
}

/* ------------------------------------------------------------------------ */
/* Key lines                                                                 */

static int parse_springs_line(parser *p)
{
    section *s = &p->sec;
    const secdef *d = s->def;
    char list[256];
    choice_list(d->families, list, sizeof list);
    if (p->ntok < 2) return expected(p, 1, "a spring family of %s (%s) after 'springs'", d->title, list);
    int f = find_name(d->families, p->tok[1].s);
    if (f < 0) return expected(p, 1, "a spring family of %s (%s)", d->title, list);
    family *fam = &s->fams[f];
    if (fam->line)
        return fail(p, p->line, p->tok[1].col, "springs family '%s' repeated in %s (first at line %d)", d->families[f],
                    d->title, fam->line);

    hk_spring_params sp = hk_default_spring_params();
    int seen_col[sizeof springs_keys / sizeof springs_keys[0]] = {0};
    int nk = (int)(sizeof springs_keys / sizeof springs_keys[0]);
    int ti = 2;
    while (ti < p->ntok) {
        int k = 0;
        while (k < nk && strcmp(springs_keys[k].name, p->tok[ti].s) != 0) k++;
        if (k == nk) {
            char tmp[SHOW_CAP];
            return fail(p, p->line, p->tok[ti].col,
                        "unknown key '%s' in springs line (expected one of: k, damping, damping_model, behaviour, "
                        "break_ratio, rest_length)",
                        show(p->tok[ti].s, tmp));
        }
        if (seen_col[k])
            return fail(p, p->line, p->tok[ti].col, "key '%s' repeated in springs line (first at column %d)",
                        springs_keys[k].name, seen_col[k]);
        seen_col[k] = p->tok[ti].col;
        const keydef *kd = &springs_keys[k];
        double v = 0;
        int c = 0;
        if (kd->type == T_NUM) {
            if (parse_num(p, ti + 1, kd->name, kd->ck, &v)) return -1;
        } else if (parse_choice(p, ti + 1, kd->name, kd->choices, &c)) {
            return -1;
        }
        switch (k) {
        case 0: sp.k = v; break;
        case 1: sp.damping = v; break;
        case 2: sp.damping_model = c ? HK_DAMP_RELATIVE : HK_DAMP_ALONG; break;
        case 3: sp.behaviour = (hk_behaviour)c; break;
        case 4: sp.break_ratio = v; break;
        default: sp.rest_length = v; break;
        }
        ti += 2;
    }
    if (!seen_col[0])
        return fail(p, p->line, p->eol_col, "springs family '%s' is missing required key 'k'", d->families[f]);
    if (sp.behaviour == HK_SPRING_BREAKABLE && !seen_col[4])
        return fail(p, p->line, p->eol_col,
                    "springs family '%s' with behaviour breakable is missing required key 'break_ratio'",
                    d->families[f]);
    if (sp.behaviour != HK_SPRING_BREAKABLE && seen_col[4])
        return fail(p, p->line, seen_col[4], "key 'break_ratio' needs 'behaviour breakable'");
    fam->line = p->line;
    fam->col = p->tok[0].col;
    fam->sp = sp;
    return 0;
}

static int parse_point(parser *p)
{
    section *s = &p->sec;
    hk_vec3 x, vel = {0, 0, 0};
    double m;
    if (parse_vec(p, 1, "point", CK_ANY, &x)) return -1;
    if (p->ntok <= 4) return expected(p, 4, "a mass for 'point' (x y z mass [vx vy vz])");
    if (parse_num(p, 4, "point", CK_POS, &m)) return -1;
    if (p->ntok > 5) {
        if (parse_vec(p, 5, "point", CK_ANY, &vel)) return -1;
        if (expect_eol(p, 8, "point")) return -1;
    }
    if (s->npoints >= MAX_BODY_PARTICLES) return fail(p, p->line, 1, "too many points in body points");
    int cap = s->cappoints;
    if (grow(p, (void **)&s->pos, &cap, s->npoints + 1, sizeof *s->pos)) return -1;
    cap = s->cappoints;
    if (grow(p, (void **)&s->vel, &cap, s->npoints + 1, sizeof *s->vel)) return -1;
    if (grow(p, (void **)&s->mass, &s->cappoints, s->npoints + 1, sizeof *s->mass)) return -1;
    s->pos[s->npoints] = x;
    s->vel[s->npoints] = vel;
    s->mass[s->npoints] = m;
    s->npoints++;
    return 0;
}

static int parse_spring(parser *p)
{
    section *s = &p->sec;
    int64_t a = 0, b = 0;
    if (parse_int(p, 1, "spring", 0, INT_MAX, &a) || parse_int(p, 2, "spring", 0, INT_MAX, &b)) return -1;
    if (a == b) return expected(p, 2, "two different particles for 'spring'");
    if (expect_eol(p, 3, "spring")) return -1;
    int cap = s->capsprings;
    if (grow(p, (void **)&s->sa, &cap, s->nsprings + 1, sizeof *s->sa)) return -1;
    if (grow(p, (void **)&s->sb, &s->capsprings, s->nsprings + 1, sizeof *s->sb)) return -1;
    s->sa[s->nsprings] = (located){(int)a, p->line, p->tok[1].col};
    s->sb[s->nsprings] = (located){(int)b, p->line, p->tok[2].col};
    s->nsprings++;
    return 0;
}

static int parse_key_line(parser *p)
{
    section *s = &p->sec;
    const secdef *d = s->def;
    const char *name = p->tok[0].s;
    if (d->families && strcmp(name, "springs") == 0) return parse_springs_line(p);
    int k = 0;
    while (k < d->nkeys && strcmp(d->keys[k].name, name) != 0) k++;
    if (k == d->nkeys) {
        if (find_name(section_words, name) >= 0)
            return expected(p, 0, "'end' to close %s opened at line %d", d->title, s->line);
        char list[512], tmp[SHOW_CAP];
        key_list(d, list, sizeof list);
        return fail(p, p->line, p->tok[0].col, "unknown key '%s' in %s (expected one of: %s)", show(name, tmp),
                    d->title, list);
    }
    const keydef *kd = &d->keys[k];
    value *v = &s->vals[k];
    if (kd->type == T_POINT) return parse_point(p);
    if (kd->type == T_SPRING) return parse_spring(p);
    if (v->line)
        return fail(p, p->line, p->tok[0].col, "key '%s' repeated in %s (first at line %d)", kd->name, d->title,
                    v->line);
    v->line = p->line;
    v->col = p->tok[0].col;
    v->vcol = col_of(p, 1);
    int next = 2;
    switch (kd->type) {
    case T_NUM:
        if (parse_num(p, 1, kd->name, kd->ck, &v->num)) return -1;
        break;
    case T_INT:
        if (parse_int(p, 1, kd->name, kd->lo, kd->hi, &v->i)) return -1;
        break;
    case T_VEC:
        if (parse_vec(p, 1, kd->name, kd->ck, &v->vec)) return -1;
        next = 4;
        break;
    case T_CHOICE:
        if (parse_choice(p, 1, kd->name, kd->choices, &v->choice)) return -1;
        break;
    case T_INTEGRATOR:
        if (p->ntok < 2 || (v->choice = hk_integrator_from_name(p->tok[1].s)) < 0)
            return expected(p, 1, "an integrator name (%s) for 'integrator'", hk_integrator_names());
        break;
    case T_FILE:
        if (p->ntok < 2) return expected(p, 1, "a file name for '%s'", kd->name);
        free(s->file);
        s->file = malloc(p->tok[1].len + 1);
        if (!s->file) return oom(p);
        memcpy(s->file, p->tok[1].s, p->tok[1].len + 1);
        break;
    case T_PINS:
        if (p->ntok < 2) return expected(p, 1, "a particle index for 'pin'");
        for (int ti = 1; ti < p->ntok; ti++) {
            int64_t idx;
            if (parse_int(p, ti, "pin", 0, INT_MAX, &idx)) return -1;
            if (grow(p, (void **)&s->pins, &s->cappins, s->npins + 1, sizeof *s->pins)) return -1;
            s->pins[s->npins++] = (located){(int)idx, p->line, p->tok[ti].col};
        }
        next = p->ntok;
        break;
    default: break;
    }
    return expect_eol(p, next, kd->name);
}

/* ------------------------------------------------------------------------ */
/* Closing a section                                                         */

static const value *given(const section *s, const char *name)
{
    for (int k = 0; k < s->def->nkeys; k++)
        if (strcmp(s->def->keys[k].name, name) == 0) return s->vals[k].line ? &s->vals[k] : NULL;
    return NULL;
}
static double num_or(const section *s, const char *name, double dflt)
{
    const value *v = given(s, name);
    return v ? v->num : dflt;
}
static int64_t int_or(const section *s, const char *name, int64_t dflt)
{
    const value *v = given(s, name);
    return v ? v->i : dflt;
}
static hk_vec3 vec_or(const section *s, const char *name, hk_vec3 dflt)
{
    const value *v = given(s, name);
    return v ? v->vec : dflt;
}
static int choice_or(const section *s, const char *name, int dflt)
{
    const value *v = given(s, name);
    return v ? v->choice : dflt;
}
static hk_spring_params family_or(const section *s, int f, hk_spring_params dflt)
{
    return s->fams[f].line ? s->fams[f].sp : dflt;
}

/* Error at the key `name` of the open section; fmt has one %s, the key. */
static int fail_at_key(parser *p, const char *name, const char *fmt)
{
    const value *v = given(&p->sec, name);
    return fail(p, v ? v->line : p->line, v ? v->col : 1, fmt, name);
}

static int check_pins(parser *p, int64_t count)
{
    section *s = &p->sec;
    for (int i = 0; i < s->npins; i++)
        if (s->pins[i].v >= count) {
            return fail(p, s->pins[i].line, s->pins[i].col,
                        "expected a particle index in [0, %lld] for 'pin' of %s, got '%d'", (long long)(count - 1),
                        s->def->title, s->pins[i].v);
        }
    return 0;
}

static int check_not_parallel(parser *p, hk_vec3 u, hk_vec3 v)
{
    hk_vec3 c = {u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
    double cn = sqrt(c.x * c.x + c.y * c.y + c.z * c.z);
    double un = sqrt(u.x * u.x + u.y * u.y + u.z * u.z), vn = sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (cn > 1e-9 * un * vn) return 0;
    const value *kv = given(&p->sec, "v");
    if (!kv) kv = given(&p->sec, "u");
    return fail(p, kv ? kv->line : p->line, kv ? kv->vcol : 1,
                "expected 'u' and 'v' not parallel in %s (they span the body's plane)", p->sec.def->title);
}

/* Appends a zeroed item (a body or a sphere) closed at the current line. */
static item *new_item(parser *p, int end_col)
{
    if (grow(p, (void **)&p->items, &p->capitems, p->nitems + 1, sizeof *p->items)) return NULL;
    item *it = &p->items[p->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = p->sec.def->kind;
    it->end_line = p->line;
    it->end_col = end_col;
    if (it->kind >= S_ROPE) p->nbodies++;
    return it;
}

static int finish_world(parser *p)
{
    section *s = &p->sec;
    p->wdef.gravity = vec_or(s, "gravity", p->wdef.gravity);
    p->wdef.air_drag = num_or(s, "air_drag", p->wdef.air_drag);
    p->wdef.threads = (int)int_or(s, "threads", p->wdef.threads);
    p->wdef.wind = vec_or(s, "wind", p->wdef.wind);
    p->wdef.wind_model = (hk_wind_model)choice_or(s, "wind_model", (int)p->wdef.wind_model);
    p->wdef.wind_drag = num_or(s, "wind_drag", p->wdef.wind_drag);
    if (p->wdef.wind_model == HK_WIND_NONE && (given(s, "wind") || given(s, "wind_drag")))
        return fail_at_key(p, given(s, "wind") ? "wind" : "wind_drag",
                           "key '%s' needs 'wind_model vertex' or 'wind_model triangle'");
    return 0;
}

static int finish_run(parser *p)
{
    section *s = &p->sec;
    hk_integrator_def d = hk_default_integrator_def();
    d.kind = (hk_integrator_kind)choice_or(s, "integrator", (int)d.kind);
    d.dt = num_or(s, "dt", d.dt);
    d.dt_max = num_or(s, "dt_max", d.dt_max);
    if (d.kind != HK_JELLY) {
        static const char *const jelly_only[] = {"jelly_dt_a", "jelly_dt_v", "jelly_alpha"};
        for (int i = 0; i < 3; i++)
            if (given(s, jelly_only[i])) {
                const value *v = given(s, jelly_only[i]);
                return fail(p, v->line, v->col, "key '%s' needs 'integrator %s'", jelly_only[i],
                            hk_integrator_name(HK_JELLY));
            }
    }
    d.jelly_dt_a = num_or(s, "jelly_dt_a", d.jelly_dt_a);
    d.jelly_dt_v = num_or(s, "jelly_dt_v", d.jelly_dt_v);
    d.jelly_alpha = num_or(s, "jelly_alpha", d.jelly_alpha);
    if (given(s, "steps") && given(s, "time"))
        return fail_at_key(p, "time", "key '%s' conflicts with 'steps' in run (give one run length)");
    p->integ = d;
    p->steps = int_or(s, "steps", p->steps);
    p->time = num_or(s, "time", p->time);
    p->every = int_or(s, "every", p->every);
    p->stretch_limit = num_or(s, "stretch_limit", p->stretch_limit);
    return 0;
}

static int finish_ground(parser *p)
{
    section *s = &p->sec;
    hk_ground *g = &p->wdef.ground;
    int model = choice_or(s, "model", 0);
    g->model = model == 0 ? HK_GROUND_REPULSION : HK_GROUND_SPRING;
    g->height = num_or(s, "height", g->height);
    g->repulsion = num_or(s, "repulsion", g->repulsion);
    g->friction = num_or(s, "friction", g->friction);
    g->absorption = num_or(s, "absorption", g->absorption);
    g->stiffness = num_or(s, "stiffness", g->stiffness);
    static const char *const rep_keys[] = {"repulsion", "friction", "absorption"};
    if (model == 0) {
        if (given(s, "stiffness")) return fail_at_key(p, "stiffness", "key '%s' needs 'model spring'");
        if (!given(s, "repulsion"))
            return fail(p, p->line, 1, "ground with model repulsion is missing required key 'repulsion'");
    } else {
        for (int i = 0; i < 3; i++)
            if (given(s, rep_keys[i])) return fail_at_key(p, rep_keys[i], "key '%s' needs 'model repulsion'");
        if (!given(s, "stiffness"))
            return fail(p, p->line, 1, "ground with model spring is missing required key 'stiffness'");
    }
    return 0;
}

static int finish_walls(parser *p)
{
    section *s = &p->sec;
    hk_vec3 lo = vec_or(s, "min", (hk_vec3){0, 0, 0}), hi = vec_or(s, "max", (hk_vec3){0, 0, 0});
    if (!(hi.x > lo.x && hi.y > lo.y && hi.z > lo.z)) {
        const value *v = given(s, "max");
        return fail(p, v->line, v->vcol,
                    "expected 'max' greater than 'min' in x, y and z, got max (%g %g %g) and min (%g %g %g)", hi.x,
                    hi.y, hi.z, lo.x, lo.y, lo.z);
    }
    p->wdef.has_walls = 1;
    p->wdef.walls_min = lo;
    p->wdef.walls_max = hi;
    p->wdef.walls_loss = num_or(s, "loss", p->wdef.walls_loss);
    return 0;
}

/* springs `family` given in a body where it has no effect */
static int fail_family(parser *p, int f, const char *why)
{
    const family *fam = &p->sec.fams[f];
    return fail(p, fam->line, fam->col, "springs family '%s' %s", p->sec.def->families[f], why);
}

static int finish_body(parser *p, int end_col)
{
    section *s = &p->sec;
    body_def tmp;
    memset(&tmp, 0, sizeof tmp);
    int64_t count = 0;

    switch (s->def->kind) {
    case S_SPHERE: {
        hk_sphere_def *d = &tmp.sphere;
        d->center = vec_or(s, "center", d->center);
        d->radius = num_or(s, "radius", d->radius);
        d->velocity = vec_or(s, "velocity", d->velocity);
        d->loss = num_or(s, "loss", d->loss);
        break;
    }
    case S_ROPE: {
        hk_rope_def *d = &tmp.rope;
        *d = hk_default_rope_def();
        d->count = (int)int_or(s, "count", d->count);
        d->mass = num_or(s, "mass", d->mass);
        d->spacing = num_or(s, "spacing", d->spacing);
        d->origin = vec_or(s, "origin", d->origin);
        d->direction = vec_or(s, "direction", d->direction);
        d->topology = (hk_rope_topology)choice_or(s, "topology", d->topology);
        d->anchor = (int)int_or(s, "anchor", d->anchor);
        d->anchor_velocity = vec_or(s, "anchor_velocity", d->anchor_velocity);
        if (given(s, "anchor_velocity") && !d->anchor)
            return fail_at_key(p, "anchor_velocity", "key '%s' needs 'anchor 1'");
        d->springs = family_or(s, 0, d->springs);
        if (s->fams[1].line && d->topology != HK_ROPE_SKIP_ONE) return fail_family(p, 1, "needs 'topology skip_one'");
        d->skip_springs = family_or(s, 1, d->springs);
        count = d->count;
        break;
    }
    case S_CLOTH: {
        hk_cloth_def *d = &tmp.cloth;
        *d = hk_default_cloth_def();
        d->nx = (int)int_or(s, "nx", d->nx);
        d->ny = (int)int_or(s, "ny", d->ny);
        d->spacing = num_or(s, "spacing", d->spacing);
        d->origin = vec_or(s, "origin", d->origin);
        d->u = vec_or(s, "u", d->u);
        d->v = vec_or(s, "v", d->v);
        d->mass = num_or(s, "mass", d->mass);
        d->pins = (hk_cloth_pins)choice_or(s, "pins", d->pins);
        d->structural = s->fams[0].line != 0;
        d->shear = s->fams[1].line != 0;
        d->bend = s->fams[2].line != 0;
        d->structural_springs = family_or(s, 0, d->structural_springs);
        d->shear_springs = family_or(s, 1, d->shear_springs);
        d->bend_springs = family_or(s, 2, d->bend_springs);
        d->radius_springs = family_or(s, 3, d->radius_springs);
        d->radius = num_or(s, "radius", d->radius);
        if (!d->structural && !d->shear && !d->bend && !s->fams[3].line)
            return fail(p, p->line, end_col,
                        "body cloth has no springs line (expected at least one of: structural, shear, bend, radius)");
        if (given(s, "radius") && !s->fams[3].line)
            return fail_at_key(p, "radius", "key '%s' needs a 'springs radius' line");
        if (s->fams[3].line && !given(s, "radius")) return fail_family(p, 3, "needs the key 'radius'");
        if (check_not_parallel(p, d->u, d->v)) return -1;
        count = (int64_t)d->nx * d->ny;
        break;
    }
    case S_JELLY: {
        hk_jelly_def *d = &tmp.jelly;
        *d = hk_default_jelly_def();
        d->nx = (int)int_or(s, "nx", d->nx);
        d->ny = (int)int_or(s, "ny", d->ny);
        d->nz = (int)int_or(s, "nz", d->nz);
        d->spacing = num_or(s, "spacing", d->spacing);
        d->origin = vec_or(s, "origin", d->origin);
        d->mass = num_or(s, "mass", d->mass);
        d->neighbours = choice_or(s, "neighbours", d->neighbours == 52) ? 52 : 26;
        const int all = 6; /* the family "all" */
        for (int c = 0; c < HK_JELLY_CLASSES; c++) {
            if (c >= HK_KB1 && d->neighbours == 26 && s->fams[c].line)
                return fail_family(p, c, "needs 'neighbours 52'");
            d->springs[c] = family_or(s, c, family_or(s, all, d->springs[c]));
        }
        count = (int64_t)d->nx * d->ny * d->nz;
        break;
    }
    case S_QUAD: {
        hk_quad_def *d = &tmp.quad;
        *d = hk_default_quad_def();
        d->size = num_or(s, "size", d->size);
        d->origin = vec_or(s, "origin", d->origin);
        d->u = vec_or(s, "u", d->u);
        d->v = vec_or(s, "v", d->v);
        d->mass = num_or(s, "mass", d->mass);
        d->diagonals = (int)int_or(s, "diagonals", d->diagonals);
        d->springs = family_or(s, 0, d->springs);
        if (check_not_parallel(p, d->u, d->v)) return -1;
        count = 4;
        break;
    }
    case S_SPRING: {
        hk_spring_pair_def *d = &tmp.pair;
        *d = hk_default_spring_pair_def();
        d->a = vec_or(s, "a", d->a);
        d->b = vec_or(s, "b", d->b);
        d->velocity_b = vec_or(s, "velocity_b", d->velocity_b);
        d->mass_b = num_or(s, "mass_b", d->mass_b);
        d->mass_a = num_or(s, "mass_a", d->mass_b);
        d->pin_a = (int)int_or(s, "pin_a", d->pin_a);
        d->springs = family_or(s, 0, d->springs);
        if (d->springs.rest_length == 0 && d->a.x == d->b.x && d->a.y == d->b.y && d->a.z == d->b.z)
            return fail_at_key(p, "b", "key '%s' equals 'a': give a different point or a 'rest_length'");
        count = 2;
        break;
    }
    case S_PENDULUM: {
        hk_pendulum_def *d = &tmp.pendulum;
        *d = hk_default_pendulum_def();
        d->pivot = vec_or(s, "pivot", d->pivot);
        d->length = num_or(s, "length", d->length);
        d->angle = num_or(s, "angle", d->angle);
        d->mass = num_or(s, "mass", d->mass);
        d->k = num_or(s, "k", d->k);
        d->damping = num_or(s, "damping", d->damping);
        count = 2;
        break;
    }
    case S_POINTS:
        if (s->npoints == 0) return fail(p, p->line, end_col, "body points has no 'point' line");
        if (s->fams[0].line && s->nsprings == 0) return fail_family(p, 0, "has no 'spring' line to apply to");
        count = s->npoints;
        for (int i = 0; i < s->nsprings; i++) {
            const located *e[2] = {&s->sa[i], &s->sb[i]};
            for (int k = 0; k < 2; k++)
                if (e[k]->v >= count)
                    return fail(p, e[k]->line, e[k]->col,
                                "expected a particle index in [0, %lld] for 'spring', got '%d'", (long long)(count - 1),
                                e[k]->v);
        }
        break;
    case S_MESH:
    case S_ICOSPHERE: {
        hk_mesh_def *d = &tmp.mesh;
        *d = hk_default_mesh_def();
        d->offset = vec_or(s, s->def->kind == S_MESH ? "offset" : "center", d->offset);
        d->mass = num_or(s, "mass", d->mass);
        d->velocity = vec_or(s, "velocity", d->velocity);
        d->extra_rings = (int)int_or(s, "extra_rings", d->extra_rings);
        if (d->extra_rings == 1)
            return fail_at_key(p, "extra_rings", "key '%s' must be 0 or in [2, 8] (1 is the edges)");
        d->pressure.nrt = num_or(s, "nrt", d->pressure.nrt);
        d->pressure.pump_rate = num_or(s, "pump_rate", d->pressure.pump_rate);
        d->springs = family_or(s, 0, d->springs);
        d->extra_springs = family_or(s, 1, d->springs);
        if (s->fams[1].line && d->extra_rings < 2) return fail_family(p, 1, "needs 'extra_rings' >= 2");
        if (given(s, "pump_rate") && !(d->pressure.nrt > 0))
            return fail_at_key(p, "pump_rate", "key '%s' needs 'nrt' > 0");
        if (s->def->kind == S_ICOSPHERE) {
            const int level = (int)int_or(s, "level", 0);
            count = 10 * ((int64_t)1 << (2 * level)) + 2;
        } else {
            count = MAX_BODY_PARTICLES; /* checked against the file when built */
        }
        break;
    }
    case S_RING: {
        hk_ring_def *d = &tmp.ring;
        *d = hk_default_ring_def();
        d->count = (int)int_or(s, "count", d->count);
        d->radius = num_or(s, "radius", d->radius);
        d->center = vec_or(s, "center", d->center);
        d->mass = num_or(s, "mass", d->mass);
        d->pressure.nrt = num_or(s, "nrt", d->pressure.nrt);
        d->pressure.pump_rate = num_or(s, "pump_rate", d->pressure.pump_rate);
        d->springs = family_or(s, 0, d->springs);
        if (given(s, "pump_rate") && !(d->pressure.nrt > 0))
            return fail_at_key(p, "pump_rate", "key '%s' needs 'nrt' > 0");
        count = d->count;
        break;
    }
    default: break;
    }
    if (count > MAX_BODY_PARTICLES)
        return fail(p, p->line, end_col, "%s has %lld particles, more than the limit %d", s->def->title,
                    (long long)count, MAX_BODY_PARTICLES);
    if (s->def->kind != S_MESH && check_pins(p, count)) return -1; /* mesh: checked when built */

    item *it = new_item(p, end_col);
    if (!it) return -1;
    it->d = tmp;
    if (it->kind == S_MESH) {
        const value *fv = given(s, "file");
        it->file_line = fv->line;
        it->file_col = fv->vcol;
        /* relative to the scene file's directory */
        const char *slash = strrchr(p->file, '/');
        size_t dir = s->file[0] == '/' || !slash ? 0 : (size_t)(slash - p->file) + 1;
        it->file = malloc(dir + strlen(s->file) + 1);
        if (!it->file) return oom(p);
        memcpy(it->file, p->file, dir);
        strcpy(it->file + dir, s->file);
    }
    if (it->kind == S_ICOSPHERE) {
        it->radius = num_or(s, "radius", 1);
        it->level = (int)int_or(s, "level", 0);
    }
    /* the item takes over the section's arrays */
    it->pins = s->pins;
    it->npins = s->npins;
    s->pins = NULL;
    s->npins = s->cappins = 0;
    if (it->kind == S_POINTS) {
        it->pos = s->pos;
        it->vel = s->vel;
        it->mass = s->mass;
        it->npoints = s->npoints;
        s->pos = s->vel = NULL;
        s->mass = NULL;
        s->npoints = s->cappoints = 0;
        it->sp = family_or(s, 0, hk_default_spring_params());
        if (s->nsprings) {
            it->sa = malloc((size_t)s->nsprings * sizeof *it->sa);
            it->sb = malloc((size_t)s->nsprings * sizeof *it->sb);
            if (!it->sa || !it->sb) return oom(p);
            for (int i = 0; i < s->nsprings; i++) {
                it->sa[i] = s->sa[i].v;
                it->sb[i] = s->sb[i].v;
            }
            it->nsprings = s->nsprings;
        }
    }
    return 0;
}

static void clear_section(section *s)
{
    free(s->pins);
    free(s->pos);
    free(s->vel);
    free(s->mass);
    free(s->sa);
    free(s->sb);
    free(s->file);
    memset(s, 0, sizeof *s);
}

static int close_section(parser *p, int end_col)
{
    section *s = &p->sec;
    const secdef *d = s->def;
    for (int k = 0; k < d->nkeys; k++)
        if (d->keys[k].required && !s->vals[k].line)
            return fail(p, p->line, end_col, "%s is missing required key '%s'", d->title, d->keys[k].name);
    int rc;
    switch (d->kind) {
    case S_WORLD: rc = finish_world(p); break;
    case S_RUN: rc = finish_run(p); break;
    case S_GROUND: rc = finish_ground(p); break;
    case S_WALLS: rc = finish_walls(p); break;
    default: rc = finish_body(p, end_col); break;
    }
    clear_section(s);
    return rc;
}

static int open_section(parser *p)
{
    const char *w = p->tok[0].s;
    int ws = find_name(section_words, w);
    if (ws < 0) {
        char list[256];
        choice_list(section_words, list, sizeof list);
        return expected(p, 0, "a section (%s)", list);
    }
    const secdef *d = NULL;
    int next = 1;
    if (strcmp(w, "body") == 0) {
        char list[256];
        choice_list(body_kinds, list, sizeof list);
        int b = p->ntok > 1 ? find_name(body_kinds, p->tok[1].s) : -1;
        if (b < 0) return expected(p, 1, "a body kind (%s)", list);
        d = &secdefs[S_ROPE + b];
        next = 2;
    } else {
        for (int k = 0; k < S_ROPE; k++)
            if (strcmp(secdefs[k].word, w) == 0) d = &secdefs[k];
        if (d->kind < S_SPHERE && p->seen_line[d->kind])
            return fail(p, p->line, p->tok[0].col, "section '%s' repeated (first at line %d)", w,
                        p->seen_line[d->kind]);
    }
    if (expect_eol(p, next, d->title)) return -1;
    if (d->kind < S_SPHERE) p->seen_line[d->kind] = p->line;
    memset(&p->sec, 0, sizeof p->sec);
    p->sec.def = d;
    p->sec.line = p->line;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

static int build(parser *p, hk_scene *out)
{
    hk_world *w = hk_world_create(&p->wdef);
    if (!w) {
        int line = p->seen_line[S_WORLD] ? p->seen_line[S_WORLD] : 1;
        return fail(p, line, 1, "cannot create the world (out of memory?)");
    }
    for (int i = 0; i < p->nitems; i++) {
        item *it = &p->items[i];
        int body = -1;
        switch (it->kind) {
        case S_SPHERE: body = hk_world_add_sphere(w, &it->d.sphere); break;
        case S_ROPE: body = hk_world_add_rope(w, &it->d.rope); break;
        case S_CLOTH: body = hk_world_add_cloth(w, &it->d.cloth); break;
        case S_JELLY: body = hk_world_add_jelly(w, &it->d.jelly); break;
        case S_QUAD: body = hk_world_add_quad(w, &it->d.quad); break;
        case S_SPRING: body = hk_world_add_spring_pair(w, &it->d.pair); break;
        case S_PENDULUM: body = hk_world_add_pendulum(w, &it->d.pendulum); break;
        case S_MESH: {
            hk_mesh m;
            char merr[512];
            if (hk_mesh_load(it->file, &m, merr, sizeof merr) != 0) {
                fail(p, it->file_line, it->file_col, "cannot load mesh: %s", merr);
                hk_world_destroy(w);
                return -1;
            }
            it->d.mesh.mesh = &m;
            body = hk_world_add_mesh(w, &it->d.mesh);
            it->d.mesh.mesh = NULL;
            hk_mesh_free(&m);
            break;
        }
        case S_ICOSPHERE: body = hk_world_add_icosphere(w, &it->d.mesh, it->radius, it->level); break;
        case S_RING: body = hk_world_add_ring(w, &it->d.ring); break;
        case S_POINTS:
            body = hk_world_add_points(w, it->npoints, it->pos, it->vel, it->mass);
            if (body >= 0 && it->nsprings && hk_world_add_springs(w, body, it->nsprings, it->sa, it->sb, &it->sp) < 0)
                body = -1;
            break;
        default: break;
        }
        const char *title = secdefs[it->kind].title;
        if (body < 0) {
            const char *e = hk_world_error(w);
            fail(p, it->end_line, it->end_col, "%s rejected: %s", title, e && *e ? e : "the builder failed");
            hk_world_destroy(w);
            return -1;
        }
        for (int k = 0; k < it->npins; k++)
            if (hk_world_pin(w, body, it->pins[k].v) < 0) {
                fail(p, it->pins[k].line, it->pins[k].col, "%s rejected 'pin': %s", title, hk_world_error(w));
                hk_world_destroy(w);
                return -1;
            }
    }
    if (hk_world_set_integrator(w, &p->integ) < 0) {
        int line = p->seen_line[S_RUN] ? p->seen_line[S_RUN] : 1;
        fail(p, line, 1, "run: %s", hk_world_error(w));
        hk_world_destroy(w);
        return -1;
    }
    out->world = w;
    out->integrator = p->integ;
    out->steps = p->steps;
    out->time = p->time;
    out->every = p->every;
    out->stretch_limit = p->stretch_limit;
    return 0;
}

static void free_parser(parser *p)
{
    clear_section(&p->sec);
    for (int i = 0; i < p->nitems; i++) {
        item *it = &p->items[i];
        free(it->pins);
        free(it->pos);
        free(it->vel);
        free(it->mass);
        free(it->sa);
        free(it->sb);
        free(it->file);
    }
    free(p->items);
    free(p->tok);
    free(p->buf);
}

static int parse_text(const char *text, size_t len, const char *filename, hk_scene *out, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.file = filename ? filename : "<scene>";
    p.err = err;
    p.errlen = errlen;
    if (err && errlen) err[0] = '\0';
    if (!out) return fail(&p, 1, 1, "no scene to fill");
    memset(out, 0, sizeof *out);
    if (!text) return fail(&p, 1, 1, "no scene text");
    p.integ = hk_default_integrator_def();
    p.every = 1;
    p.stretch_limit = 10;
    p.wdef = hk_default_world_def();

    p.buf = malloc(len + 1);
    if (!p.buf) return oom(&p);
    memcpy(p.buf, text, len);
    p.buf[len] = '\0';
    p.len = len;

    int rc = 0, more = 0;
    while (rc == 0 && (more = next_line(&p)) > 0) {
        if (p.ntok == 0) continue;
        if (!p.sec.def) {
            rc = open_section(&p);
        } else if (strcmp(p.tok[0].s, "end") == 0) {
            rc = expect_eol(&p, 1, "end");
            if (rc == 0) rc = close_section(&p, p.tok[0].col);
        } else {
            rc = parse_key_line(&p);
        }
    }
    if (rc == 0 && more < 0) rc = -1;
    if (rc == 0 && p.sec.def)
        rc = fail(&p, p.eof_line, p.eof_col, "unexpected end of file: section '%s' opened at line %d is not closed",
                  p.sec.def->word, p.sec.line);
    if (rc == 0 && p.nbodies == 0) rc = fail(&p, p.eof_line, p.eof_col, "no body in scene");
    if (rc == 0) rc = build(&p, out);
    free_parser(&p);
    return rc;
}

int hk_scene_parse(const char *text, const char *filename, hk_scene *out, char *err, size_t errlen)
{
    return parse_text(text, text ? strlen(text) : 0, filename, out, err, errlen);
}

int hk_scene_load(const char *path, hk_scene *out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (out) memset(out, 0, sizeof *out);
    const char *name = path ? path : "<scene>";
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        if (err && errlen)
            snprintf(err, errlen, "%s: error: cannot open: %s", name, path ? strerror(errno) : "no path");
        return -1;
    }
    size_t len = 0, cap = 0;
    char *text = NULL;
    for (;;) {
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *n = ncap > cap ? realloc(text, ncap) : NULL;
            if (!n) {
                free(text);
                fclose(f);
                if (err && errlen) snprintf(err, errlen, "%s: error: cannot read: out of memory", name);
                return -1;
            }
            text = n;
            cap = ncap;
        }
        size_t got_n = fread(text + len, 1, cap - len, f);
        len += got_n;
        if (got_n == 0) break;
    }
    int bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad) {
        free(text);
        if (err && errlen) snprintf(err, errlen, "%s: error: cannot read: %s", name, strerror(e));
        return -1;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        int line = 1, col = 1;
        for (const char *c = text; c < nul; c++) {
            if (*c == '\n') {
                line++;
                col = 1;
            } else if (col < INT_MAX) {
                col++;
            }
        }
        free(text);
        if (err && errlen)
            snprintf(err, errlen, "%s:%d:%d: error: expected text, got a NUL byte (is this a binary file?)", name, line,
                     col);
        return -1;
    }
    int rc = parse_text(text, len, name, out, err, errlen);
    free(text);
    return rc;
}

void hk_scene_free(hk_scene *s)
{
    if (!s) return;
    hk_world_destroy(s->world);
    s->world = NULL;
}
