/* scene.c — reads scene text section by section (the tables in scene_kinds.c) and builds the world it describes. */
/* SPDX-License-Identifier: MIT */
#include "scene.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "scene_collider.h"
#include "scene_kinds.h"
#include "scene_lex.h"
#include "scene_memory.h"
#include "scene_points.h"
#include "scene_fabric.h"
#include "world.h"

/* How it works: one pass reads the text line by line (scene_lex.c). A
 * section's keys write straight into its descriptor through their offsets
 * (scene_kinds.c); at each `end` the section's rules are checked and a body
 * or sphere becomes an item, the settings sections having written into the
 * world and run settings. Only when the whole file is read is the world
 * created and every item added in file order, so `world`, `ground`, `walls`
 * and `run` may appear anywhere. Errors are reported as FILE:LINE:COL
 * (1-based; COL counts bytes, a tab is one). */

typedef struct parser {
    sc_lexer lx;
    sc_section sec;                  /* the open section (sec.kind == NULL: none) */
    int seen_line[SC_SECTION_COUNT]; /* line of each settings section, 0 = absent */
    sc_settings set;
    sc_item *items;
    int nitems, capitems, nbodies;
    int ranks;      /* the processes the world will be shared out over: lattices deferred past 1 (hk_scene_load_for) */
    hk_world *into; /* hk_scene_add: the world the items go into (no settings section but contact), else NULL */
    int empty_ok;   /* hk_scene_parse_settings: a scene of no body is a world to build bodies into later */
} parser;

/* ------------------------------------------------------------------------ */
/* Names for messages                                                        */

/* The words that open a section: the settings sections, the items opened by their own word, "body". */
static int section_words(const char **out)
{
    int n = 0;
    for (int k = 0; k < SC_SECTION_COUNT; k++) out[n++] = sc_sections[k].word;
    for (int k = 0; k < sc_item_count; k++)
        if (!sc_items[k].body) out[n++] = sc_items[k].word;
    out[n++] = "body";
    return n;
}

/* The body kinds, with their rows. */
static int body_words(const char **out, const sc_kind **rows)
{
    int n = 0;
    for (int k = 0; k < sc_item_count; k++)
        if (sc_items[k].body) {
            rows[n] = &sc_items[k];
            out[n++] = sc_items[k].word;
        }
    return n;
}

static int family_names(const sc_kind *d, const char **out)
{
    for (int f = 0; f < d->nfamilies; f++) out[f] = d->families[f].name;
    return d->nfamilies;
}

/* "count, mass, ..., springs" */
static void key_list(const sc_kind *d, char *out, size_t cap)
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

void hk_scene_section_names(char *out, size_t cap)
{
    const char *words[SC_SECTION_COUNT + SC_MAX_ITEMS + 1];
    sc_choice_list(words, section_words(words), out, cap);
}

void hk_scene_body_names(char *out, size_t cap)
{
    const char *words[SC_MAX_ITEMS];
    const sc_kind *rows[SC_MAX_ITEMS];
    sc_choice_list(words, body_words(words, rows), out, cap);
}

void hk_scene_key_names(const char *title, char *out, size_t cap)
{
    out[0] = '\0';
    for (int k = 0; k < SC_SECTION_COUNT; k++)
        if (strcmp(sc_sections[k].title, title) == 0) key_list(&sc_sections[k], out, cap);
    for (int k = 0; k < sc_item_count; k++)
        if (strcmp(sc_items[k].title, title) == 0) key_list(&sc_items[k], out, cap);
    if (strcmp(sc_springs_line.title, title) == 0) key_list(&sc_springs_line, out, cap);
}

/* "unknown key 'NAME' in TITLE: did you mean 'KEY'? (expected one of: ...)", the question only when NAME is
 * close to one of d's keys (a typo). */
static int unknown_key(sc_lexer *lx, int col, const char *name, const sc_kind *d)
{
    const char *names[SC_MAX_KEYS + 1];
    int n = 0;
    for (int k = 0; k < d->nkeys && n < SC_MAX_KEYS; k++) names[n++] = d->keys[k].name;
    if (d->families) names[n++] = "springs";
    const char *near = sc_nearest_name(names, n, name);
    char list[512], tmp[SC_SHOW_CAP], hint[96] = "";
    key_list(d, list, sizeof list);
    if (near) snprintf(hint, sizeof hint, ": did you mean '%s'?", near);
    return sc_fail(lx, lx->line, col, "unknown key '%s' in %s%s (expected one of: %s)", sc_show(name, tmp), d->title,
                   hint, list);
}

/* ------------------------------------------------------------------------ */
/* Key lines                                                                 */

/* Parses the value of key kd at token ti into its field of def. Returns the token after it, or -1. */
static int parse_value(sc_lexer *lx, const sc_key *kd, int ti, void *def)
{
    char *field = (char *)def + kd->off;
    switch (kd->type) {
    case T_NUM: {
        double v;
        if (sc_parse_num(lx, ti, kd->name, kd->ck, &v)) return -1;
        memcpy(field, &v, sizeof v);
        return ti + 1;
    }
    case T_INT:
    case T_INT64: {
        int64_t v;
        if (sc_parse_int(lx, ti, kd->name, kd->lo, kd->hi, &v)) return -1;
        const int narrow = (int)v; /* T_INT ranges lie within int */
        if (kd->type == T_INT)
            memcpy(field, &narrow, sizeof narrow);
        else
            memcpy(field, &v, sizeof v);
        return ti + 1;
    }
    case T_VEC: {
        hk_vec3 v;
        if (sc_parse_vec(lx, ti, kd->name, kd->ck, &v)) return -1;
        memcpy(field, &v, sizeof v);
        return ti + 3;
    }
    case T_CHOICE: {
        int c;
        if (sc_parse_choice(lx, ti, kd->name, kd->choices, kd->nchoices, &c)) return -1;
        const int v = kd->values ? kd->values[c] : c;
        memcpy(field, &v, sizeof v);
        return ti + 1;
    }
    case T_INTEGRATOR: {
        int v;
        if (ti >= lx->ntok || (v = hk_integrator_from_name(lx->tok[ti].s)) < 0)
            return sc_expected(lx, ti, "an integrator name (%s) for '%s'", hk_integrator_names(), kd->name);
        memcpy(field, &v, sizeof v);
        return ti + 1;
    }
    default: return ti; /* the section's own keys are parsed by parse_key_line */
    }
}

static int parse_springs_line(parser *p)
{
    sc_lexer *lx = &p->lx;
    sc_section *s = &p->sec;
    const sc_kind *d = s->kind, *sl = &sc_springs_line;
    const char *names[SC_MAX_FAMILIES];
    const int nf = family_names(d, names);
    char list[256];
    sc_choice_list(names, nf, list, sizeof list);
    if (lx->ntok < 2) return sc_expected(lx, 1, "a spring family of %s (%s) after 'springs'", d->title, list);
    const int f = sc_find_name(names, nf, lx->tok[1].s);
    const char *name = lx->tok[1].s; /* the family's, for the messages below */
    hk_spring_params *into;          /* where its parameters go */
    if (f >= 0) {
        sc_given *fam = &s->fams[f];
        if (fam->line)
            return sc_fail(lx, lx->line, lx->tok[1].col, "springs family '%s' repeated in %s (first at line %d)",
                           names[f], d->title, fam->line);
        fam->line = lx->line;
        fam->col = lx->tok[0].col;
        into = (hk_spring_params *)((char *)s->def + d->families[f].off);
    } else if (d->declare) { /* a family the body names itself */
        if (!(into = d->declare(s))) return -1;
    } else {
        return sc_expected(lx, 1, "a spring family of %s (%s)", d->title, list);
    }

    hk_spring_params sp = hk_default_spring_params();
    int seen_col[SC_MAX_KEYS] = {0};
    int ti = 2;
    while (ti < lx->ntok) {
        int k = 0;
        while (k < sl->nkeys && strcmp(sl->keys[k].name, lx->tok[ti].s) != 0) k++;
        if (k == sl->nkeys) return unknown_key(lx, lx->tok[ti].col, lx->tok[ti].s, sl);
        if (seen_col[k])
            return sc_fail(lx, lx->line, lx->tok[ti].col, "key '%s' repeated in %s (first at column %d)",
                           sl->keys[k].name, sl->title, seen_col[k]);
        seen_col[k] = lx->tok[ti].col;
        if ((ti = parse_value(lx, &sl->keys[k], ti + 1, &sp)) < 0) return -1;
    }
    for (int k = 0; k < sl->nkeys; k++)
        if (sl->keys[k].required && !seen_col[k])
            return sc_fail(lx, lx->line, lx->eol_col, "springs family '%s' is missing required key '%s'", name,
                           sl->keys[k].name);
    const int br = sc_key_index(sl, offsetof(hk_spring_params, break_ratio), "break_ratio");
    if (sp.behaviour == HK_SPRING_BREAKABLE && !seen_col[br])
        return sc_fail(lx, lx->line, lx->eol_col,
                       "springs family '%s' with behaviour breakable is missing required key '%s'", name,
                       sl->keys[br].name);
    if (sp.behaviour != HK_SPRING_BREAKABLE && seen_col[br])
        return sc_fail(lx, lx->line, seen_col[br], "key '%s' needs 'behaviour breakable'", sl->keys[br].name);
    const int lim[2] = {sc_key_index(sl, offsetof(hk_spring_params, strain_limit), "strain_limit"),
                        sc_key_index(sl, offsetof(hk_spring_params, compress_limit), "compress_limit")};
    for (int k = 0; k < 2 && !s->limit.line; k++)
        if (seen_col[lim[k]]) s->limit = (sc_given){lx->line, seen_col[lim[k]], seen_col[lim[k]]};
    memcpy(into, &sp, sizeof sp);
    return 0;
}

static int parse_pins(parser *p, const sc_key *kd)
{
    sc_lexer *lx = &p->lx;
    sc_section *s = &p->sec;
    if (lx->ntok < 2) return sc_expected(lx, 1, "a particle index for '%s'", kd->name);
    for (int ti = 1; ti < lx->ntok; ti++) {
        int64_t idx;
        if (sc_parse_int(lx, ti, kd->name, 0, INT_MAX, &idx)) return -1;
        if (sc_grow(lx, (void **)&s->pins, &s->cappins, s->npins + 1, sizeof *s->pins)) return -1;
        s->pins[s->npins++] = (sc_located){(int)idx, lx->line, lx->tok[ti].col};
    }
    return 0;
}

static int parse_file(parser *p, const sc_key *kd)
{
    sc_lexer *lx = &p->lx;
    sc_section *s = &p->sec;
    if (lx->ntok < 2) return sc_expected(lx, 1, "a file name for '%s'", kd->name);
    free(s->file);
    s->file = malloc(lx->tok[1].len + 1);
    if (!s->file) return sc_oom(lx);
    memcpy(s->file, lx->tok[1].s, lx->tok[1].len + 1);
    return 0;
}

static int parse_key_line(parser *p)
{
    sc_lexer *lx = &p->lx;
    sc_section *s = &p->sec;
    const sc_kind *d = s->kind;
    const char *name = lx->tok[0].s;
    if (d->families && strcmp(name, "springs") == 0) return parse_springs_line(p);
    int k = 0;
    while (k < d->nkeys && strcmp(d->keys[k].name, name) != 0) k++;
    if (k == d->nkeys) {
        const char *words[SC_SECTION_COUNT + SC_MAX_ITEMS + 1];
        if (sc_find_name(words, section_words(words), name) >= 0)
            return sc_expected(lx, 0, "'end' to close %s opened at line %d", d->title, s->line);
        return unknown_key(lx, lx->tok[0].col, name, d);
    }
    const sc_key *kd = &d->keys[k];
    sc_given *v = &s->vals[k];
    if (kd->type == T_POINT) return sc_points_point(s, kd);
    if (kd->type == T_SPRING) return sc_points_spring(s, kd);
    if (v->line)
        return sc_fail(lx, lx->line, lx->tok[0].col, "key '%s' repeated in %s (first at line %d)", kd->name, d->title,
                       v->line);
    v->line = lx->line;
    v->col = lx->tok[0].col;
    v->vcol = sc_col_of(lx, 1);
    int next;
    if (kd->type == T_PINS) {
        if (parse_pins(p, kd)) return -1;
        next = lx->ntok;
    } else if (kd->type == T_SCHEDULE) {
        if (sc_schedule_parse(lx, &p->set, kd)) return -1;
        p->set.schedule_at = *v;
        next = lx->ntok;
    } else if (kd->type == T_FILE) {
        if (parse_file(p, kd)) return -1;
        next = 2;
    } else if ((next = parse_value(lx, kd, 1, kd->tether ? (void *)&s->tether : s->def)) < 0) {
        return -1;
    }
    if (kd->tether && kd->type == T_CHOICE) s->tether_at = *v;
    return sc_expect_eol(lx, next, kd->name);
}

/* ------------------------------------------------------------------------ */
/* Closing a section                                                         */

static int check_pins(parser *p, int64_t count)
{
    sc_section *s = &p->sec;
    for (int i = 0; i < s->npins; i++)
        if (s->pins[i].v >= count) {
            return sc_fail(&p->lx, s->pins[i].line, s->pins[i].col,
                           "expected a particle index in [0, %lld] for 'pin' of %s, got '%d'", (long long)(count - 1),
                           s->kind->title, s->pins[i].v);
        }
    return 0;
}

/* Appends a zeroed item (a body or a sphere) closed at the current line. */
static sc_item *new_item(parser *p, int end_col)
{
    if (sc_grow(&p->lx, (void **)&p->items, &p->capitems, p->nitems + 1, sizeof *p->items)) return NULL;
    sc_item *it = &p->items[p->nitems++];
    memset(it, 0, sizeof *it);
    it->kind = p->sec.kind;
    it->line = p->sec.line;
    it->end_line = p->lx.line;
    it->end_col = end_col;
    if (it->kind->body) p->nbodies++;
    return it;
}

/* The item's file, relative to the scene file's directory, and where it was given. */
static int take_file(parser *p, sc_item *it)
{
    sc_section *s = &p->sec;
    for (int k = 0; k < s->kind->nkeys; k++)
        if (s->kind->keys[k].type == T_FILE && s->vals[k].line) {
            it->file_line = s->vals[k].line;
            it->file_col = s->vals[k].vcol;
        }
    const char *slash = strrchr(p->lx.file, '/');
    size_t dir = s->file[0] == '/' || !slash ? 0 : (size_t)(slash - p->lx.file) + 1;
    it->file = malloc(dir + strlen(s->file) + 1);
    if (!it->file) return sc_oom(&p->lx);
    memcpy(it->file, p->lx.file, dir);
    strcpy(it->file + dir, s->file);
    return 0;
}

/* The item takes over the section's descriptor and lists. */
static int take_lists(parser *p, sc_item *it)
{
    sc_section *s = &p->sec;
    it->def = s->owned;
    s->owned = NULL;
    it->pins = s->pins;
    it->npins = s->npins;
    s->pins = NULL;
    s->npins = s->cappins = 0;
    it->pos = s->pos;
    it->vel = s->vel;
    it->mass = s->mass;
    it->npoints = s->npoints;
    s->pos = s->vel = NULL;
    s->mass = NULL;
    s->npoints = s->cappoints = 0;
    if (s->nsprings) {
        it->sa = malloc((size_t)s->nsprings * sizeof *it->sa);
        it->sb = malloc((size_t)s->nsprings * sizeof *it->sb);
        if (!it->sa || !it->sb) return sc_oom(&p->lx);
        for (int i = 0; i < s->nsprings; i++) {
            it->sa[i] = s->sa[i].v;
            it->sb[i] = s->sb[i].v;
        }
        it->nsprings = s->nsprings;
    }
    it->sfam = s->sfam;
    it->srest = s->srest;
    it->named = s->named;
    it->nnamed = s->nnamed;
    s->sfam = NULL;
    s->srest = NULL;
    s->named = NULL;
    s->nnamed = s->capnamed = 0;
    return 0;
}

static int finish_item(parser *p, int end_col)
{
    sc_section *s = &p->sec;
    int64_t count = 0;
    if (s->kind->finish && s->kind->finish(s, s->def, &count)) return -1;
    if (count != SC_COUNT_UNKNOWN) {
        if (count > SC_MAX_BODY_PARTICLES)
            return sc_fail(&p->lx, p->lx.line, end_col, "%s has %lld particles, more than the limit %d", s->kind->title,
                           (long long)count, SC_MAX_BODY_PARTICLES);
        if (check_pins(p, count)) return -1;
    }
    sc_item *it = new_item(p, end_col);
    if (!it) return -1;
    it->count = count;
    it->lattice_families = s->lattice_families;
    it->one_row = s->one_row;
    it->list_springs = s->list_springs;
    it->limit = s->limit;
    it->tether = s->tether;
    it->tether_at = s->tether_at;
    if (!s->tether_at.line && s->tether.stretch != 0) { /* tether_stretch alone */
        for (int k = 0; k < s->kind->nkeys; k++)
            if (s->kind->keys[k].tether && s->kind->keys[k].type == T_NUM)
                return sc_fail(&p->lx, s->vals[k].line, s->vals[k].col, "key 'tether_stretch' needs 'tethers'");
    }
    if (s->file && take_file(p, it)) return -1;
    return take_lists(p, it);
}

static void clear_section(sc_section *s)
{
    free(s->owned);
    free(s->pins);
    free(s->pos);
    free(s->vel);
    free(s->mass);
    free(s->sa);
    free(s->sb);
    free(s->sfam);
    free(s->srest);
    free(s->named);
    free(s->file);
    memset(s, 0, sizeof *s);
}

static int is_settings(const sc_kind *d)
{
    for (int k = 0; k < SC_SECTION_COUNT; k++)
        if (d == &sc_sections[k]) return 1;
    return 0;
}

static int close_section(parser *p, int end_col)
{
    sc_section *s = &p->sec;
    const sc_kind *d = s->kind;
    s->end_col = end_col;
    for (int k = 0; k < d->nkeys; k++)
        if (d->keys[k].required && !s->vals[k].line)
            return sc_fail(&p->lx, p->lx.line, end_col, "%s is missing required key '%s'", d->title, d->keys[k].name);
    int rc;
    if (is_settings(d)) {
        int64_t none = 0;
        rc = d->finish ? d->finish(s, s->def, &none) : 0;
    } else {
        rc = finish_item(p, end_col);
    }
    clear_section(s);
    return rc;
}

/* The row that the line's first words open, or NULL with the error written. */
static const sc_kind *find_section(parser *p, int *next)
{
    sc_lexer *lx = &p->lx;
    const char *w = lx->tok[0].s;
    const char *words[SC_SECTION_COUNT + SC_MAX_ITEMS + 1];
    const int nwords = section_words(words);
    char list[256];
    if (sc_find_name(words, nwords, w) < 0) {
        sc_choice_list(words, nwords, list, sizeof list);
        sc_expected(lx, 0, "a section (%s)", list);
        return NULL;
    }
    *next = 1;
    if (strcmp(w, "body") == 0) {
        const sc_kind *rows[SC_MAX_ITEMS];
        const int nb = body_words(words, rows);
        int b = lx->ntok > 1 ? sc_find_name(words, nb, lx->tok[1].s) : -1;
        if (b < 0) {
            sc_choice_list(words, nb, list, sizeof list);
            sc_expected(lx, 1, "a body kind (%s)", list);
            return NULL;
        }
        *next = 2;
        return rows[b];
    }
    for (int k = 0; k < SC_SECTION_COUNT; k++)
        if (strcmp(sc_sections[k].word, w) == 0) return &sc_sections[k];
    for (int k = 0; k < sc_item_count; k++)
        if (!sc_items[k].body && strcmp(sc_items[k].word, w) == 0) return &sc_items[k];
    abort(); /* section_words lists only these */
}

static int open_section(parser *p)
{
    sc_lexer *lx = &p->lx;
    int next = 1;
    const sc_kind *d = find_section(p, &next);
    if (!d) return -1;
    const int settings = is_settings(d);
    if (p->into && settings && d != &sc_sections[SC_CONTACT])
        return sc_fail(lx, lx->line, lx->tok[0].col,
                       "section '%s' sets up a new world; what is added to a world is its bodies, spheres, "
                       "colliders and contact",
                       d->word);
    int *seen = settings ? &p->seen_line[d - sc_sections] : NULL; /* d is a row of sc_sections */
    if (seen && *seen)
        return sc_fail(lx, lx->line, lx->tok[0].col, "section '%s' repeated (first at line %d)", d->word, *seen);
    if (sc_expect_eol(lx, next, d->title)) return -1;
    if (seen) *seen = lx->line;
    sc_section *s = &p->sec;
    memset(s, 0, sizeof *s);
    s->kind = d;
    s->lx = lx;
    s->line = lx->line;
    if (settings) {
        s->def = (char *)&p->set + d->base;
    } else {
        s->def = s->owned = calloc(1, d->size);
        if (!s->def) return sc_oom(lx);
    }
    if (d->init) d->init(s->def);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Building                                                                  */

/* Adds item it to w (and pins its particles): 0, or -1 with the error written. */
static int add_item(parser *p, hk_world *w, const sc_item *it, hk_scene *out)
{
    sc_lexer *lx = &p->lx;
    const char *title = it->kind->title;
    int body = it->kind->add(w, it, lx);
    if (it->kind->body && body >= 0 && body < p->nbodies && out->body_line) out->body_line[body] = it->line;
    if (body == HK_ERR_MEMORY) { /* what it was for, and how much the body needs */
        hk_memory_need n = sc_memory_need(it, 1, 1, &p->set);
        char b[32];
        sc_fail(lx, it->line, 1, "out of memory building %s: %lld particles need about %s (%s)", title,
                (long long)n.particles, sc_bytes_text(hk_memory_estimate(&n), b, sizeof b), hk_world_error(w));
    } else if (body < 0 && body != SC_ADD_REPORTED) {
        const char *e = hk_world_error(w);
        sc_fail(lx, it->end_line, it->end_col, "%s rejected: %s", title, e && *e ? e : "the builder failed");
    }
    for (int k = 0; body >= 0 && k < it->npins; k++)
        if (hk_world_pin(w, body, it->pins[k].v) < 0) {
            sc_fail(lx, it->pins[k].line, it->pins[k].col, "%s rejected 'pin': %s", title, hk_world_error(w));
            body = -1;
        }
    if (body >= 0 && sc_fabric_apply(w, it, body, lx) != 0) body = -1; /* tethers; limits against the pins */
    return body < 0 ? -1 : 0;
}

/* hk_scene_add: the items into p->into, in file order (the late kinds after the others), then the contact section's
 * settings where it has one. */
static int build_into(parser *p, hk_scene *out)
{
    hk_world *w = p->into;
    if (sc_memory_check(p->items, p->nitems, &p->set, p->ranks, &p->lx) != 0) return -1;
    for (int late = 0; late < 2; late++)
        for (int i = 0; i < p->nitems; i++)
            if (p->items[i].kind->late == late && add_item(p, w, &p->items[i], out) != 0) return -1;
    return p->seen_line[SC_CONTACT] ? sc_contact_build(w, &p->set, &p->lx) : 0;
}

static int build(parser *p, hk_scene *out)
{
    if (p->into) return build_into(p, out);
    sc_lexer *lx = &p->lx;
    char why[512];
    /* the world section's keys are checked as the library checks them (scene_kinds.c); what the file does not
     * set (the base's tuning) is not the file's fault: no line */
    if (hk_world_def_check(&p->set.world, why, sizeof why) != HK_OK) {
        if (lx->err && lx->errlen) snprintf(lx->err, lx->errlen, "%s: error: world: %s", lx->file, why);
        lx->failed = 1;
        return -1;
    }
    if (sc_memory_check(p->items, p->nitems, &p->set, p->ranks, lx) != 0) return -1; /* before a byte of the world */
    hk_world *w = hk_world_create(&p->set.world);
    if (!w) {
        int line = p->seen_line[SC_WORLD] ? p->seen_line[SC_WORLD] : 1;
        return sc_fail(lx, line, 1, "cannot create the world (out of memory)");
    }
    if (p->ranks > 1) hk_world_defer_lattices(w, 1); /* each rank builds its rows when the world is shared out */
    if (sc_schedule_apply(w, &p->set, lx) != 0) {    /* gravity in time */
        hk_world_destroy(w);
        return -1;
    }
    out->body_line = calloc((size_t)p->nbodies + 1, sizeof *out->body_line);
    out->files = calloc((size_t)p->nitems + 1, sizeof *out->files);
    if (!out->body_line || !out->files) {
        hk_world_destroy(w);
        return sc_oom(lx);
    }
    for (int i = 0; i < p->nitems; i++) { /* the files, in scene order */
        const sc_item *it = &p->items[i];
        if (!it->file) continue;
        const size_t n = strlen(it->file) + 1;
        char *copy = out->files[out->file_count++] = malloc(n);
        if (!copy) {
            hk_world_destroy(w);
            return sc_oom(lx);
        }
        memcpy(copy, it->file, n);
    }
    /* the items in file order, the late kinds (colliders) after all the others */
    for (int late = 0; late < 2; late++)
        for (int i = 0; i < p->nitems; i++)
            if (p->items[i].kind->late == late && add_item(p, w, &p->items[i], out) != 0) {
                hk_world_destroy(w);
                return -1;
            }
    if (sc_contact_build(w, &p->set, lx) != 0) {
        hk_world_destroy(w);
        return -1;
    }
    if (hk_world_set_integrator(w, &p->set.integrator) < 0) {
        int line = p->seen_line[SC_RUN] ? p->seen_line[SC_RUN] : 1;
        sc_fail(lx, line, 1, "run: %s", hk_world_error(w));
        hk_world_destroy(w);
        return -1;
    }
    out->world = w;
    out->integrator = p->set.integrator;
    out->steps = p->set.steps;
    out->time = p->set.time;
    out->every = p->set.every;
    out->stretch_limit = p->set.stretch_limit;
    return 0;
}

static void free_parser(parser *p)
{
    clear_section(&p->sec);
    for (int i = 0; i < p->nitems; i++) {
        sc_item *it = &p->items[i];
        free(it->def);
        free(it->pins);
        free(it->pos);
        free(it->vel);
        free(it->mass);
        free(it->sa);
        free(it->sb);
        free(it->sfam);
        free(it->srest);
        free(it->named);
        free(it->file);
    }
    free(p->items);
    free(p->set.schedule);
    free(p->lx.tok);
    free(p->lx.buf);
}

/* What a parse builds besides a whole scene (NULL: a whole scene, bodies required). */
typedef struct sc_target {
    hk_world *into; /* the items into this world (hk_scene_add) */
    int empty_ok;   /* a scene of no body (hk_scene_parse_settings) */
} sc_target;

static int parse_text(const char *text, size_t len, const char *filename, const hk_world_def *base, int ranks,
                      const sc_target *target, hk_scene *out, char *err, size_t errlen)
{
    parser p;
    memset(&p, 0, sizeof p);
    p.ranks = ranks;
    if (target) p.into = target->into, p.empty_ok = target->empty_ok;
    sc_lexer *lx = &p.lx;
    lx->file = filename ? filename : "<scene>";
    lx->err = err;
    lx->errlen = errlen;
    if (err && errlen) err[0] = '\0';
    if (!out) return sc_fail(lx, 1, 1, "no scene to fill");
    memset(out, 0, sizeof *out);
    if (!text) return sc_fail(lx, 1, 1, "no scene text");
    p.set = sc_default_settings();
    if (base) p.set.world = *base; /* the world section starts from it */

    const char *mark;
    const int bom = hk_text_bom(text, len, &mark);
    if (bom < 0) /* before anything is allocated */
        return sc_fail(lx, 1, 1, "expected UTF-8 or ASCII text, got a %s byte-order mark: save the file as UTF-8",
                       mark);
    lx->buf = malloc(len + 1);
    if (!lx->buf) return sc_oom(lx);
    memcpy(lx->buf, text, len);
    lx->buf[len] = '\0';
    lx->len = len;
    lx->pos = (size_t)bom; /* UTF-8's mark skipped: columns count from after it */

    int rc = 0, more = 0;
    while (rc == 0 && (more = sc_next_line(lx)) > 0) {
        if (lx->ntok == 0) continue;
        if (!p.sec.kind) {
            rc = open_section(&p);
        } else if (strcmp(lx->tok[0].s, "end") == 0) {
            rc = sc_expect_eol(lx, 1, "end");
            if (rc == 0) rc = close_section(&p, lx->tok[0].col);
        } else {
            rc = parse_key_line(&p);
        }
    }
    if (rc == 0 && more < 0) rc = -1;
    if (rc == 0 && p.sec.kind)
        rc = sc_fail(lx, lx->eof_line, lx->eof_col,
                     "unexpected end of file: section '%s' opened at line %d is not closed",
                     p.sec.kind->body ? "body" : p.sec.kind->word, p.sec.line);
    if (rc == 0 && p.nbodies == 0 && !p.into && !p.empty_ok)
        rc = sc_fail(lx, lx->eof_line, lx->eof_col, "no body in scene");
    if (rc == 0) rc = build(&p, out);
    if (rc != 0) hk_scene_free(out); /* what build made before it failed */
    free_parser(&p);
    return rc;
}

/* len bytes of text that may hold a NUL byte (a file's, a caller's counted string): refused at the NUL's line and
 * column, unless the text is marked UTF-16 or UTF-32 (parse_text says so); else parse_text. */
static int parse_counted(const char *text, size_t len, const char *name, const hk_world_def *base, int ranks,
                         const sc_target *target, hk_scene *out, char *err, size_t errlen)
{
    const char *mark, *nul = memchr(text, '\0', len);
    if (nul && hk_text_bom(text, len, &mark) >= 0) {
        int line = 1, col = 1;
        for (const char *c = text; c < nul; c++) {
            if (*c == '\n') {
                line++;
                col = 1;
            } else if (col < INT_MAX) {
                col++;
            }
        }
        if (out) memset(out, 0, sizeof *out);
        if (err && errlen)
            snprintf(err, errlen, "%s:%d:%d: error: expected text, got a NUL byte (is this a binary file?)", name, line,
                     col);
        return -1;
    }
    return parse_text(text, len, name, base, ranks, target, out, err, errlen);
}

int hk_scene_parse_counted(const char *text, size_t len, const char *filename, const hk_world_def *base, hk_scene *out,
                           char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    return parse_counted(text, len, filename ? filename : "<scene>", base, 1, NULL, out, err, errlen);
}

int hk_scene_parse_settings(const char *text, size_t len, const char *filename, const hk_world_def *base, hk_scene *out,
                            char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    const sc_target t = {NULL, 1};
    return parse_counted(text, len, filename ? filename : "<scene>", base, 1, &t, out, err, errlen);
}

int hk_scene_add(hk_world *w, const char *text, size_t len, const char *name, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (!w) {
        if (err && errlen) snprintf(err, errlen, "%s: error: no world to add to", name ? name : "<scene>");
        return -1;
    }
    const sc_target t = {w, 0};
    hk_scene sc; /* holds nothing: the items go into w */
    const int rc = parse_counted(text, len, name ? name : "<scene>", NULL, 1, &t, &sc, err, errlen);
    hk_scene_free(&sc);
    return rc;
}

int hk_scene_parse_on(const char *text, const char *filename, const hk_world_def *base, hk_scene *out, char *err,
                      size_t errlen)
{
    return parse_text(text, text ? strlen(text) : 0, filename, base, 1, NULL, out, err, errlen);
}

int hk_scene_parse_shared(const char *text, const char *filename, const hk_world_def *base, int ranks, hk_scene *out,
                          char *err, size_t errlen)
{
    return parse_text(text, text ? strlen(text) : 0, filename, base, ranks, NULL, out, err, errlen);
}

int hk_scene_parse(const char *text, const char *filename, hk_scene *out, char *err, size_t errlen)
{
    return hk_scene_parse_on(text, filename, NULL, out, err, errlen);
}

int hk_scene_load(const char *path, hk_scene *out, char *err, size_t errlen)
{
    return hk_scene_load_on(path, NULL, out, err, errlen);
}

int hk_scene_load_on(const char *path, const hk_world_def *base, hk_scene *out, char *err, size_t errlen)
{
    return hk_scene_load_for(path, base, 1, out, err, errlen);
}

int hk_scene_load_for(const char *path, const hk_world_def *base, int ranks, hk_scene *out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    if (out) memset(out, 0, sizeof *out);
    const char *name = path ? path : "<scene>";
    char *text, why[512];
    size_t len;
    if (hk_read_file(path, HK_LIMIT_SCENE, "scene", &text, &len, why, sizeof why) != 0) {
        if (err && errlen) snprintf(err, errlen, "%s: error: %s", name, why);
        return -1;
    }
    int rc = parse_counted(text, len, name, base, ranks, NULL, out, err, errlen);
    free(text);
    return rc;
}

void hk_scene_free(hk_scene *s)
{
    if (!s) return;
    hk_world_destroy(s->world);
    s->world = NULL;
    for (int i = 0; i < s->file_count; i++) free(s->files[i]);
    free(s->files);
    free(s->body_line);
    s->files = NULL;
    s->body_line = NULL;
    s->file_count = 0;
}

hk_world *hk_scene_take_world(hk_scene *s)
{
    hk_world *w = s->world;
    s->world = NULL;
    hk_scene_free(s);
    return w;
}

hk_run_settings hk_scene_run_settings(const hk_scene *s)
{
    hk_run_settings r;
    memset(&r, 0, sizeof r);
    r.integrator = s->integrator;
    r.steps = s->steps;
    r.time = s->time;
    r.every = s->every;
    r.stretch_limit = s->stretch_limit;
    return r;
}
