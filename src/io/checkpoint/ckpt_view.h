/* ckpt_view.h — a checkpoint's or a checkpoint piece's sections as places in its bytes, and the one list of checks
 * of its every value that both readers make (checkpoint.c, checkpoint_pieces.c; docs/checkpoint-format.md). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CKPT_VIEW_H
#define HOOKE_CKPT_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "hooke/hooke.h"

/* The particle arrays (qx qy qz vx vy vz fx fy fz inv_mass mass), then the integrator's history; the energy
 * guard's values (diagnosis.h: e0, scale, g0, moved); a body's record (anchor, its position, velocity, origin); a
 * pair's record (kind, four particles), an anchored pair's (then two weights). */
enum {
    HK_CKPT_ARRAYS = 11,
    HK_CKPT_GUARD_VALUES = 4,
    HK_CKPT_BODY_BYTES = 4 + 9 * 8,
    HK_CKPT_PAIR_KEY = 5 * 4,
    HK_CKPT_PAIR_ANCHOR = HK_CKPT_PAIR_KEY + 2 * 8,
};
/* The most anchored pairs, and pairs in contact, a checkpoint may hold per particle: a particle is in at most one
 * acting triangle pair of its own and its edges' pairs, and within the thickness (less than a spring's rest length)
 * of few triangles and edges; far more than a real state holds, a bound for the readers. */
enum { HK_CKPT_PAIRS_PER_PARTICLE = 64 };
/* The most ranks an index or a piece may name. */
#define HK_CKPT_MAX_RANKS (1u << 20)

/* What a checkpoint holds, as places in its bytes: a one-process checkpoint ("HOOKECKP", classic: one piece of
 * every particle) or a piece of one written over ranks ("HOOKECKR"). */
typedef struct hk_ckpt_view {
    int classic;
    uint32_t np, rank, ranks, ranges_n;
    const unsigned char *ranges; /* classic: none (one range [0, np)) */
    uint64_t count;              /* particles in the piece */
    hk_integrator_def def;
    int32_t substeps, has_prev, forces_valid;
    int history_arrays; /* the history's arrays that follow the particle arrays (0, 3 or 6: integrators.h) */
    double h, time, start[HK_CKPT_GUARD_VALUES];
    int64_t steps, updates, crossings;
    const unsigned char *arrays[HK_CKPT_ARRAYS + 6], *bodies, *spheres, *surf, *contacts, *anchors, *pair_anchors;
    size_t fam_at, len; /* len: the file's bytes, the checksum's included */
    uint32_t nsurf, nanchor;
    uint64_t ncontact, npa;
    const unsigned char *data;
} hk_ckpt_view;

/* Checks the len bytes of a checkpoint or a piece of one for w, the world it restores (built from the scene of
 * digest `digest`, and every value in them as a run can have it (docs/checkpoint-format.md, "What a reader
 * checks"), and views its sections in *v. 0, or -1 with "NAME: checkpoint ..." in err. */
int hk_ckpt_view_check(const hk_world *w, uint64_t digest, const unsigned char *data, size_t len, const char *name,
                       hk_ckpt_view *v, char *err, size_t errlen);

/* Range k of v: global particles [*g, *g + *n). */
void hk_ckpt_view_range(const hk_ckpt_view *v, uint32_t k, int64_t *g, int64_t *n);
/* Surface i of v: *own (a piece: whether its rank computed it; 1 in a one-process checkpoint) and s = pump fraction,
 * volume [m^3], pressure [Pa]. */
void hk_ckpt_view_surface(const hk_ckpt_view *v, uint32_t i, int32_t *own, double s[3]);

#endif
