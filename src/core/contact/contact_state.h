/* contact_state.h — the contact subsystem's state: colliders, per-particle arrays, candidates and their records. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CONTACT_STATE_H
#define HOOKE_CONTACT_STATE_H

#include "collider.h"

/* The state that the subsystem's entry (response.c) keeps and the colliders' physics (collider_contact.c) and the
 * implicit solve's blocks (contact_system.c) work on; its phases are told in response.h. */

/* A candidate's stiffness K = df/dx and damping D = df/dv blocks of its
 * last evaluation, negated (symmetric, positive semi-definite; entries xx,
 * xy, xz, yy, yz, zz), 0 when it touches nothing; and R = df/dt, the rate
 * at which its force changes at a fixed place and velocity because the
 * colliders move (0 where none of those it touches moves): each moving
 * collider's own blocks times the velocity u of its point at the particle
 * and the change a of that velocity there, R = sum K_c u + D_c a. */
typedef struct hk_contact_rec {
    hk_real K[6], D[6];
    hk_real R[3]; /* [N/s] */
} hk_contact_rec;

/* What contact has cost since the world was made, by phase [s of wall
 * time]: finding the step's candidates (the colliders' and the pairs'
 * broad phase, and at the step's end the search and sweep again for
 * particles that outran it), the force evaluations (each candidate's
 * distance queries, the narrow phase, and its contact force), and the
 * safety net after each substep (the swept tests, impulses and held
 * particles). The implicit solve's products and preconditioner add the
 * contact blocks inside their own passes, which are not in these. */
typedef struct hk_contact_profile {
    double broad, forces, safety; /* [s] */
    int64_t steps;                /* steps with contact [1] */
} hk_contact_profile;

struct hk_contact {
    hk_collider *col;
    int ncol, capcol;
    double thickest;      /* the largest thickness of a collider [m] */
    int checked_families; /* the family count at the last thickness check; -1: never checked */
    /* per particle (capacity cap): the contact force [N], and the broad phase's q0 [m] and slack [m] */
    int cap;
    hk_real *slab, *f[3], *q0[3], *slack;
    /* per particle: its friction anchor (hk_contact_anchors), x, y, z in the frame of collider anchor[3] [m], and
     * that index, -1 when it holds none (kept as a real, so that a gather and a checkpoint take it with the others) */
    hk_real *anchor[4];
    int any_force;          /* f holds a non-zero entry (a candidate touched) */
    int in_system;          /* a contact's blocks enter the implicit system (a collider or a pair touches) */
    int pairs_touch;        /* a pair touches */
    struct hk_pairs *pairs; /* contact between bodies and within one (pairs.h), NULL: none */
    /* the step's candidates, ascending; per candidate its place at the substep's start (3 doubles [m]) and record */
    int *cand, ncand, capcand;
    double *x0;
    hk_contact_rec *rec;
    int *active, nactive;    /* the candidates that touched at the last evaluation (indices into cand) */
    double *gap;             /* per candidate: its smallest distance from a collider at the substep's start [m] */
    int gap_fresh;           /* 1: gap holds this substep's (its first force evaluation was at the substep's start) */
    double drift;            /* how far any collider's surface near a candidate moves in one substep, at most [m] */
    double t0, dt;           /* the step's start [s] and length [s] */
    double t_sub;            /* the substep's start [s] */
    double t_eval;           /* the colliders' time at the next force evaluation [s] (hk_contact_at) */
    hk_contact_profile prof; /* what the phases cost so far */
    int64_t caught;          /* particles put back on their side by the safety net, since the world was made */
    int64_t rechecked;       /* particles whose motion outran their slack */
};

/* The contacts of the state as it is now (response.h, hk_contact_counts). */
typedef struct hk_contact_survey {
    int64_t contacts;
    double min_gap;
    int64_t inside;
} hk_contact_survey;

/* The scaled block s_K K + s_D D of a record (the one formula of the
 * implicit product, the preconditioner's diagonal and the multigrid). */
static inline void hk_contact_block(const hk_contact_rec *r, hk_real sK, hk_real sD, hk_real out[6])
{
    for (int e = 0; e < 6; e++) out[e] = sK * r->K[e] + sD * r->D[e];
}

#endif
