/* scene_section.c — an open section's keys and springs families, looked up by their offset in its descriptor (for the kinds' hooks). */
/* SPDX-License-Identifier: MIT */
#include "scene_section.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sc_key_index(const sc_kind *k, size_t off, const char *field)
{
    for (int i = 0; i < k->nkeys; i++)
        if (k->keys[i].off == off) return i;
    fprintf(stderr, "hooke: scene: %s has no key for the field '%s'\n", k->title, field);
    abort();
}

const sc_key *sc_key_at(const sc_section *s, size_t off, const char *field)
{
    return &s->kind->keys[sc_key_index(s->kind, off, field)];
}

const sc_given *sc_given_at(const sc_section *s, size_t off, const char *field)
{
    const sc_given *g = &s->vals[sc_key_index(s->kind, off, field)];
    return g->line ? g : NULL;
}

static int family_index(const sc_kind *k, size_t off, const char *field)
{
    for (int f = 0; f < k->nfamilies; f++)
        if (k->families[f].off == off) return f;
    fprintf(stderr, "hooke: scene: %s has no springs family for the field '%s'\n", k->title, field);
    abort();
}

const sc_given *sc_family_at(const sc_section *s, size_t off, const char *field)
{
    const sc_given *g = &s->fams[family_index(s->kind, off, field)];
    return g->line ? g : NULL;
}

int sc_fail_key(sc_section *s, size_t off, const char *field, const char *fmt)
{
    const sc_given *g = sc_given_at(s, off, field);
    return sc_fail(s->lx, g ? g->line : s->lx->line, g ? g->col : 1, fmt, sc_key_at(s, off, field)->name);
}

int sc_fail_family(sc_section *s, size_t off, const char *field, const char *why)
{
    const int f = family_index(s->kind, off, field);
    return sc_fail(s->lx, s->fams[f].line, s->fams[f].col, "springs family '%s' %s", s->kind->families[f].name, why);
}

int sc_load_mesh(const sc_item *it, sc_lexer *lx, hk_mesh *m)
{
    char merr[512];
    if (hk_mesh_load(it->file, m, merr, sizeof merr) == 0) return 0;
    /* the mesh's own "PATH[:LINE]: error: why" (PATH as tried, from the scene's folder), the word error once */
    char *e = strstr(merr, ": error: ");
    if (e) memmove(e + 2, e + 9, strlen(e + 9) + 1);
    return sc_fail(lx, it->file_line, it->file_col, "cannot load mesh: %s", merr);
}
