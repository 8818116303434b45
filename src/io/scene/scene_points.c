/* scene_points.c — the scene's `body points`: its point and spring lines, its named spring families, their rules. */
/* SPDX-License-Identifier: MIT */
#include "scene_points.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_keys.h"

/* A body points lists its particles (`point` lines) and its springs (`spring` lines). Its springs are in the family
 * `main` unless a spring line names another; a family other than main is declared by its `springs NAME ...` line
 * (anywhere in the body, before or after the springs naming it) and built as a family of its own, after main, in
 * the order the families were first named. A spring may give its own rest length. */

const sc_key sc_points_keys[SC_POINTS_KEYS] = {OWN("point", T_POINT, OPT), OWN("spring", T_SPRING, OPT), PINS};
const sc_family sc_points_families[1] = {FAMILY(sc_points_scene, "main", springs)};

void sc_points_init(void *def) { ((sc_points_scene *)def)->springs = hk_default_spring_params(); }

/* The rule on a family's name, for the messages that refuse one. */
#define NAME_RULE                                                                                                      \
    "main, or a name of letters, digits and '_' that starts with a letter, at most %d bytes, not 'rest_length'"
#define REST_KEY "rest_length" /* a spring line's key of its own rest length */

/* 1 if name may name a family of a body points (besides main): NAME_RULE. */
static int name_ok(const char *name)
{
    const size_t n = strlen(name);
    if (n < 1 || n > HK_FAMILY_NAME_MAX || strcmp(name, REST_KEY) == 0) return 0;
    if (!((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'))) return 0;
    for (size_t i = 1; i < n; i++) {
        const char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return 1;
}

/* The index of the family `name` among s->named, appended if new (the name checked by the caller); -1 out of
 * memory, with the error written. */
static int named_index(sc_section *s, const char *name)
{
    for (int i = 0; i < s->nnamed; i++)
        if (strcmp(s->named[i].name, name) == 0) return i;
    if (sc_grow(s->lx, (void **)&s->named, &s->capnamed, s->nnamed + 1, sizeof *s->named)) return -1;
    sc_named *n = &s->named[s->nnamed];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s", name);
    n->params = hk_default_spring_params();
    return s->nnamed++;
}

hk_spring_params *sc_points_declare(sc_section *s)
{
    sc_lexer *lx = s->lx;
    if (!name_ok(lx->tok[1].s)) {
        sc_expected(lx, 1, "a spring family of %s (" NAME_RULE ")", s->kind->title, HK_FAMILY_NAME_MAX);
        return NULL;
    }
    const int i = named_index(s, lx->tok[1].s);
    if (i < 0) return NULL;
    sc_named *n = &s->named[i];
    if (n->decl.line) {
        sc_fail(lx, lx->line, lx->tok[1].col, "springs family '%s' repeated in %s (first at line %d)", n->name,
                s->kind->title, n->decl.line);
        return NULL;
    }
    n->decl = (sc_given){lx->line, lx->tok[0].col, lx->tok[1].col};
    return &n->params;
}

int sc_points_point(sc_section *s, const sc_key *kd)
{
    sc_lexer *lx = s->lx;
    hk_vec3 x, vel = {0, 0, 0};
    double m;
    if (sc_parse_vec(lx, 1, kd->name, CK_ANY, &x)) return -1;
    if (lx->ntok <= 4) return sc_expected(lx, 4, "a mass for '%s' (x y z mass [vx vy vz])", kd->name);
    if (sc_parse_num(lx, 4, kd->name, CK_MASS, &m)) return -1;
    if (lx->ntok > 5) {
        if (sc_parse_vec(lx, 5, kd->name, CK_ANY, &vel)) return -1;
        if (sc_expect_eol(lx, 8, kd->name)) return -1;
    }
    if (s->npoints >= SC_MAX_BODY_PARTICLES) return sc_fail(lx, lx->line, 1, "too many points in %s", s->kind->title);
    int cap = s->cappoints;
    if (sc_grow(lx, (void **)&s->pos, &cap, s->npoints + 1, sizeof *s->pos)) return -1;
    cap = s->cappoints;
    if (sc_grow(lx, (void **)&s->vel, &cap, s->npoints + 1, sizeof *s->vel)) return -1;
    if (sc_grow(lx, (void **)&s->mass, &s->cappoints, s->npoints + 1, sizeof *s->mass)) return -1;
    s->pos[s->npoints] = x;
    s->vel[s->npoints] = vel;
    s->mass[s->npoints] = m;
    s->npoints++;
    return 0;
}

/* `rest_length L` at token ti: L > 0 and at most the longest spring the build holds; 0 or -1. */
static int parse_rest(sc_lexer *lx, int ti, double *out)
{
    if (sc_parse_num(lx, ti + 1, REST_KEY, CK_POS, out)) return -1;
    if (*out > HK_SPRING_MAX_LENGTH)
        return sc_expected_why(lx, ti + 1, "the forces square a spring's length: beyond this build's precision",
                               "a length in (0, %g] m for '%s'", HK_SPRING_MAX_LENGTH, REST_KEY);
    return sc_expect_eol(lx, ti + 2, REST_KEY);
}

int sc_points_spring(sc_section *s, const sc_key *kd)
{
    sc_lexer *lx = s->lx;
    int64_t a = 0, b = 0;
    if (sc_parse_int(lx, 1, kd->name, 0, INT_MAX, &a) || sc_parse_int(lx, 2, kd->name, 0, INT_MAX, &b)) return -1;
    if (a == b) return sc_expected(lx, 2, "two different particles for '%s'", kd->name);
    int fam = -1, ti = 3;
    double rest = 0;
    if (ti < lx->ntok && strcmp(lx->tok[ti].s, REST_KEY) != 0) { /* the family */
        const char *name = lx->tok[ti].s;
        if (strcmp(name, sc_points_families[0].name) != 0) {
            if (!name_ok(name))
                return sc_expected(lx, ti, "a spring family (" NAME_RULE ") or '%s' for '%s'", HK_FAMILY_NAME_MAX,
                                   REST_KEY, kd->name);
            if ((fam = named_index(s, name)) < 0) return -1;
            if (!s->named[fam].use.line) s->named[fam].use = (sc_given){lx->line, lx->tok[ti].col, lx->tok[ti].col};
        }
        ti++;
        if (ti < lx->ntok && strcmp(lx->tok[ti].s, REST_KEY) != 0)
            return sc_expected(lx, ti, "'%s' or end of line after the family of '%s'", REST_KEY, kd->name);
    }
    if (ti < lx->ntok && parse_rest(lx, ti, &rest)) return -1;
    int cap = s->capsprings;
    if (sc_grow(lx, (void **)&s->sa, &cap, s->nsprings + 1, sizeof *s->sa)) return -1;
    cap = s->capsprings;
    if (sc_grow(lx, (void **)&s->sb, &cap, s->nsprings + 1, sizeof *s->sb)) return -1;
    cap = s->capsprings;
    if (sc_grow(lx, (void **)&s->sfam, &cap, s->nsprings + 1, sizeof *s->sfam)) return -1;
    if (sc_grow(lx, (void **)&s->srest, &s->capsprings, s->nsprings + 1, sizeof *s->srest)) return -1;
    s->sa[s->nsprings] = (sc_located){(int)a, lx->line, lx->tok[1].col};
    s->sb[s->nsprings] = (sc_located){(int)b, lx->line, lx->tok[2].col};
    s->sfam[s->nsprings] = fam;
    s->srest[s->nsprings] = rest;
    s->nsprings++;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* The rules at `end`                                                        */

/* The library's rule on zero-length springs, before the build, so that the error points at the spring line. */
static int check_spring_lengths(sc_section *s)
{
    if (s->nsprings == 0) return 0;
    int *ab = malloc(2 * (size_t)s->nsprings * sizeof *ab);
    if (!ab) return sc_oom(s->lx);
    for (int i = 0; i < s->nsprings; i++) ab[i] = s->sa[i].v, ab[s->nsprings + i] = s->sb[i].v;
    char why[320];
    const int64_t bad =
        hk_find_zero_length_spring(s->npoints, s->pos, s->nsprings, ab, ab + s->nsprings, why, sizeof why);
    free(ab);
    if (bad == -2) return sc_oom(s->lx);
    if (bad < 0) return 0;
    return sc_fail(s->lx, s->sa[bad].line, s->sa[bad].col, "spring %s", why);
}

/* A spring's two particles, the lower first, and its place in the file. */
typedef struct pair_key {
    int lo, hi, at;
} pair_key;

static int pair_cmp(const void *x, const void *y)
{
    const pair_key *p = x, *q = y;
    if (p->lo != q->lo) return p->lo < q->lo ? -1 : 1;
    if (p->hi != q->hi) return p->hi < q->hi ? -1 : 1;
    return (p->at > q->at) - (p->at < q->at);
}

/* One spring per pair of particles, whatever its order and family: the first spring (in file order) that repeats
 * an earlier one's pair is refused, naming the earlier one's line. */
static int check_pairs(sc_section *s)
{
    if (s->nsprings < 2) return 0;
    pair_key *k = malloc((size_t)s->nsprings * sizeof *k);
    if (!k) return sc_oom(s->lx);
    for (int i = 0; i < s->nsprings; i++) {
        const int a = s->sa[i].v, b = s->sb[i].v;
        k[i] = (pair_key){a < b ? a : b, a < b ? b : a, i};
    }
    qsort(k, (size_t)s->nsprings, sizeof *k, pair_cmp);
    int first = -1, second = INT_MAX;
    for (int i = 1, start = 0; i < s->nsprings; i++) {
        if (k[i].lo != k[i - 1].lo || k[i].hi != k[i - 1].hi) {
            start = i;
        } else if (k[i].at < second) {
            second = k[i].at;
            first = k[start].at;
        }
    }
    free(k);
    if (first < 0) return 0;
    const sc_located *a = &s->sa[second];
    return sc_fail(s->lx, a->line, a->col,
                   "spring joins particles %d and %d, as the spring at line %d does (expected one spring per pair of "
                   "particles)",
                   a->v, s->sb[second].v, s->sa[first].line);
}

/* Every family named on a spring line has a springs line, and every family a springs line declares a spring. */
static int check_families(sc_section *s)
{
    for (int i = 0; i < s->nnamed; i++) {
        const sc_named *n = &s->named[i];
        if (n->decl.line) continue;
        const char **names = malloc((size_t)(1 + s->nnamed) * sizeof *names);
        if (!names) return sc_oom(s->lx);
        int k = 0;
        names[k++] = sc_points_families[0].name;
        for (int j = 0; j < s->nnamed; j++)
            if (s->named[j].decl.line) names[k++] = s->named[j].name;
        char list[1024], shown[SC_SHOW_CAP];
        sc_choice_list(names, k, list, sizeof list);
        free(names);
        return sc_fail(s->lx, n->use.line, n->use.col,
                       "expected a spring family of %s, main or one a 'springs' line declares (%s), got '%s'",
                       s->kind->title, list, sc_show(n->name, shown));
    }
    int main_used = 0;
    for (int i = 0; i < s->nsprings; i++) main_used |= s->sfam[i] < 0;
    if (SC_FAMILY(s, sc_points_scene, springs) && !main_used)
        return SC_FAIL_FAMILY(s, sc_points_scene, springs, "has no 'spring' line to apply to");
    for (int i = 0; i < s->nnamed; i++)
        if (!s->named[i].use.line)
            return sc_fail(s->lx, s->named[i].decl.line, s->named[i].decl.col,
                           "springs family '%s' has no 'spring' line to apply to", s->named[i].name);
    return 0;
}

int sc_points_finish(sc_section *s, void *def, int64_t *count)
{
    (void)def;
    if (s->npoints == 0) return sc_fail(s->lx, s->lx->line, s->end_col, "%s has no 'point' line", s->kind->title);
    *count = s->npoints;
    s->list_springs = s->nsprings;
    for (int i = 0; i < s->nsprings; i++) {
        const sc_located *e[2] = {&s->sa[i], &s->sb[i]};
        for (int k = 0; k < 2; k++)
            if (e[k]->v >= *count)
                return sc_fail(s->lx, e[k]->line, e[k]->col,
                               "expected a particle index in [0, %lld] for 'spring', got '%d'", (long long)(*count - 1),
                               e[k]->v);
    }
    if (check_families(s) || check_pairs(s)) return -1;
    return check_spring_lengths(s);
}

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

int sc_points_add(hk_world *w, const sc_item *it, sc_lexer *lx)
{
    const sc_points_scene *d = it->def;
    int body = hk_world_add_points(w, it->npoints, it->pos, it->vel, it->mass);
    if (body < 0 || it->nsprings == 0) return body;
    int *ab = malloc(2 * (size_t)it->nsprings * sizeof *ab);
    double *rest = malloc((size_t)it->nsprings * sizeof *rest);
    if (!ab || !rest) {
        free(ab);
        free(rest);
        sc_oom(lx);
        return SC_ADD_REPORTED;
    }
    /* main, then the named families in order: each its springs in file order */
    for (int f = -1; f < it->nnamed && body >= 0; f++) {
        int n = 0, own_rest = 0;
        for (int i = 0; i < it->nsprings; i++)
            if (it->sfam[i] == f) {
                ab[n] = it->sa[i];
                ab[it->nsprings + n] = it->sb[i];
                rest[n] = it->srest[i];
                own_rest |= rest[n++] > 0;
            }
        const char *name = f < 0 ? sc_points_families[0].name : it->named[f].name;
        const hk_spring_params *p = f < 0 ? &d->springs : &it->named[f].params;
        if (n && hk_world_add_spring_family(w, body, name, n, ab, ab + it->nsprings, own_rest ? rest : NULL, p) < 0)
            body = -1;
    }
    free(ab);
    free(rest);
    return body;
}
