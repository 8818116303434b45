/* scene_memory.c — a scene's memory, estimated from its sections before its world is built, against what the process
 * may take. */
/* SPDX-License-Identifier: MIT */
#include "scene_memory.h"

#include <math.h>
#include <stdio.h>

const char *sc_bytes_text(double bytes, char *out, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5) bytes /= 1024, u++;
    snprintf(out, cap, "%.3g %s", bytes, units[u]);
    return out;
}

/* Adds item it's counts to n (colliders set its contact); a lattice without listed springs (one that ranks share
 * out in slabs) by one rank's share when `ranks` processes share the world. */
static void add_item(hk_memory_need *n, const sc_item *it, int ranks)
{
    if (!it->kind->body) {
        n->contact |= it->kind->late; /* a collider */
        return;
    }
    int64_t count = it->count > 0 ? it->count : 0;
    if (ranks > 1 && it->lattice_families > 0 && it->list_springs == 0) count = (count + ranks - 1) / ranks;
    n->particles += count;
    n->row_particles += it->one_row ? count : 0;
    n->lattice_family_nodes += (int64_t)it->lattice_families * count;
    n->list_springs += it->list_springs;
}

/* The settings' part of a need: the integrator, the team, contact between bodies. */
static hk_memory_need settings_need(const sc_settings *set)
{
    hk_memory_need n = {0};
    n.integrator = set->integrator.kind;
    n.threads = set->world.threads;
    n.contact = set->contact.bodies || set->contact.self;
    return n;
}

hk_memory_need sc_memory_need(const sc_item *items, int nitems, int upto, const sc_settings *set)
{
    hk_memory_need n = settings_need(set);
    for (int i = 0; i < nitems; i++)
        if (!items[i].kind->body || upto < 0 || i < upto) add_item(&n, &items[i], 1);
    return n;
}

int sc_memory_check(const sc_item *items, int nitems, const sc_settings *set, int ranks, sc_lexer *lx)
{
    char what[128];
    const double avail = hk_memory_available(what, sizeof what);
    if (!isfinite(avail)) return 0;
    hk_memory_need so_far = settings_need(set); /* the colliders first (their contact state), then body by body */
    for (int i = 0; i < nitems; i++)
        if (!items[i].kind->body) add_item(&so_far, &items[i], ranks);
    for (int i = 0; i < nitems; i++) {
        if (!items[i].kind->body) continue;
        add_item(&so_far, &items[i], ranks);
        const double need = hk_memory_estimate(&so_far);
        if (!(need > avail)) continue;
        hk_memory_need mine = sc_memory_need(items + i, 1, 1, set);
        mine.contact = so_far.contact;
        char a[32], b[32], c[32], springs[64] = "";
        if (mine.list_springs) snprintf(springs, sizeof springs, ", %lld listed springs", (long long)mine.list_springs);
        return sc_fail(lx, items[i].line, 1,
                       "%s needs about %s of memory (%lld particles%s, %s); the scene up to it needs about %s, more "
                       "than the %s this process may still take (%s): make the scene smaller, or run it where more "
                       "memory is free",
                       items[i].kind->title, sc_bytes_text(hk_memory_estimate(&mine), a, sizeof a),
                       (long long)mine.particles, springs, hk_integrator_name(mine.integrator),
                       sc_bytes_text(need, b, sizeof b), sc_bytes_text(avail, c, sizeof c), what);
    }
    return 0;
}
