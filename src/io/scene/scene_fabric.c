/* scene_fabric.c — a scene's fabric settings on its world: a body's tethers and limits, the gravity schedule. */
/* SPDX-License-Identifier: MIT */
#include "scene_fabric.h"

#include <stdio.h>
#include <stdlib.h>

#include "strain_limit.h"
#include "world.h"

int sc_schedule_parse(sc_lexer *lx, sc_settings *set, const sc_key *kd)
{
    const int n = lx->ntok - 1;
    if (n < 4 || n % 4 != 0)
        return sc_expected(lx, n < 4 ? lx->ntok : 1 + n / 4 * 4,
                           "keyframes of four numbers (a time [s] and a gravity vector [m/s^2]) for '%s'", kd->name);
    double *v = malloc((size_t)n * sizeof *v);
    if (!v) return sc_oom(lx);
    for (int k = 0; k < n; k++) {
        if (sc_parse_num(lx, 1 + k, kd->name, k % 4 == 0 ? CK_NONNEG : CK_ANY, &v[k])) {
            free(v);
            return -1;
        }
        if (k % 4 == 0 && k > 0 && v[k] < v[k - 4]) {
            const double before = v[k - 4];
            free(v);
            return sc_expected(lx, 1 + k, "a time of at least %g s (the keyframe before it) for '%s'", before,
                               kd->name);
        }
    }
    free(set->schedule);
    set->schedule = v;
    set->nschedule = n / 4;
    return 0;
}

int sc_schedule_apply(hk_world *w, const sc_settings *set, sc_lexer *lx)
{
    if (set->nschedule == 0) return 0;
    double *t = malloc((size_t)set->nschedule * sizeof *t);
    hk_vec3 *g = malloc((size_t)set->nschedule * sizeof *g);
    for (int k = 0; t && g && k < set->nschedule; k++) {
        const double *e = set->schedule + 4 * k;
        t[k] = e[0];
        g[k] = (hk_vec3){e[1], e[2], e[3]};
    }
    const int rc = t && g ? hk_world_set_gravity_schedule(w, set->nschedule, t, g) : HK_ERR_MEMORY;
    free(t);
    free(g);
    if (rc == HK_OK) return 0;
    return sc_fail(lx, set->schedule_at.line, set->schedule_at.col, "gravity_schedule: %s",
                   rc == HK_ERR_MEMORY ? "out of memory" : hk_world_error(w));
}

int sc_fabric_apply(hk_world *w, const sc_item *it, int body, sc_lexer *lx)
{
    const char *title = it->kind->title;
    if (it->tether_at.line && it->tether.kind != HK_TETHERS_NONE &&
        hk_world_set_tethers(w, body, (hk_tether_kind)it->tether.kind, it->tether.stretch) != HK_OK)
        return sc_fail(lx, it->tether_at.line, it->tether_at.col, "%s: %s", title, hk_world_error(w));
    if (it->limit.line && w->defer) /* a run over ranks builds its rows later: refused now, at the limit */
        return sc_fail(lx, it->limit.line, it->limit.col, "%s: %s", title, HK_STRAIN_NOT_OVER_RANKS);
    for (int fi = 0; it->limit.line && fi < w->family_count; fi++) { /* limits the pins break at rest */
        char why[400];
        if (w->families[fi].body == body && hk_strain_pins_check(w, fi, why, sizeof why) != 0)
            return sc_fail(lx, it->limit.line, it->limit.col, "%s: %s", title, why);
    }
    return 0;
}
