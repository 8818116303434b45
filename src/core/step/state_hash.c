/* state_hash.c — the state hash: FNV-1a over every position, then every velocity, in the particles' global order;
 * relayed rank to rank where the world is shared out. */
/* SPDX-License-Identifier: MIT */
#include "part.h"
#include "world.h"

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *bytes = data;
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= 1099511628211ull; /* FNV prime */
    }
    return h;
}

/* One pass of the hash over the particles [l0, l1) of body b: coordinate c of the positions (c < 3, as doubles:
 * hk_particle_position), or of the velocities (c - 3, as stored). */
typedef struct hash_pass {
    const hk_world *w;
    int c;
} hash_pass;

static void hash_piece(void *ctx, void *state, int b, int64_t l0, int64_t l1)
{
    const hash_pass *hp = ctx;
    const hk_world *w = hp->w;
    const hk_body *bd = &w->bodies[b];
    const int64_t base = hk_body_base(bd);
    uint64_t h = *(uint64_t *)state;
    if (hp->c < 3) {
        for (int64_t l = l0; l < l1; l++) {
            double x[3];
            hk_particle_position(w, bd, (int)(base + l), x);
            h = fnv1a(h, &x[hp->c], sizeof x[hp->c]);
        }
    } else {
        const hk_real *v = hp->c == 3 ? w->p.vx : hp->c == 4 ? w->p.vy : w->p.vz;
        h = fnv1a(h, v + base + l0, (size_t)(l1 - l0) * sizeof(hk_real));
    }
    *(uint64_t *)state = h;
}

uint64_t hk_world_state_hash(const hk_world *w)
{
    /* the positions x, then y, then z of every particle, as doubles, then the velocities as stored, each
     * coordinate over the particles in order (a distributed world's pieces relayed in that order: part.h) */
    hk_state_read(w);                    /* a device's newer state (core/device) */
    uint64_t h = 1469598103934665603ull; /* FNV-1a offset basis */
    for (int c = 0; c < 6; c++) {
        hash_pass hp = {w, c};
        hk_part_relay(w, 0, &h, sizeof h, hash_piece, &hp);
    }
    return h;
}
