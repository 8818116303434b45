/* pair_lanes.h — the triangle model's pairs evaluated in lanes: chunks of pairs as arrays, one pass per ISA. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_LANES_H
#define HOOKE_PAIR_LANES_H

#include <stdint.h>

#include "pairs.h"
#include "world.h"

/*
 * pair_force.c's evaluation of a pair (evaluate: its two sides' boxes, the
 * nearest points of its particle and triangle or of its two edges, the soft
 * contact law with the pair's mass) done for many pairs at once: a task
 * takes its pairs in chunks of PAIR_CHUNK consecutive ones, keeps those
 * whose lower bound lets them near (select), and evaluates them in lanes
 * (eval), one chunk of one kind of pair at a time, into the chunk's arrays
 * (structure of arrays); pair_force.c then takes the chunk's pairs in order
 * as it takes evaluate's results (the nearest of a particle's triangle pairs
 * acts). Each lane performs evaluate's operations in its order (lanes64.h:
 * no fused multiply-add, the same min and max), so a pair evaluated in lanes
 * has the bits evaluate gives it, on every path; a pair the lanes do not
 * take (a particle past its step's bound, an edge of no length, two sides
 * that meet, a state that is not finite, a pair within the thickness whose
 * law gives no push, and one pair_force.c finds through to the other side:
 * evaluate's sign, pair_eval.c) is marked, and evaluate takes it alone. The passes are written once (pair_lanes_isa.h)
 * and compiled per instruction set (pair_lanes_avx512.c, pair_lanes_avx2.c, pair_lanes_scalar.c); the world's kernel
 * path picks the table (pair_kernels.h), the reference path none (evaluate alone).
 */

#define PAIR_CHUNK 256   /* pairs a chunk spans */
#define PAIR_LANES_PAD 8 /* room past a chunk's entries: the widest lanes' tail */
#define PAIR_LANES_ROW 8 /* doubles per particle in pair_lane_in.xv */

/* What the lanes read. */
typedef struct pair_lane_in {
    const double *xv;  /* per particle of inv (PAIR_LANES_ROW each): its place now [m], velocity now [m/s] and
                        * inverse mass [1/kg]: (x, y, z, -, vx, vy, vz, 1 / m) (the fourth: pair_friction_in's) */
    const int32_t *at; /* per corner of the chunk's pairs, from its first (4 each): the particle's place in inv */
    double th;         /* the thickness [m] */
    double k;          /* the stiffness [N/m] */
    double z2;         /* twice the damping ratio, 2 zeta [1] (hk_soft_make's first product) */
    int set;           /* this evaluation sets the pairs' bounds (lb) */
} pair_lane_in;

/* Pair statuses in a chunk. */
enum { PAIR_LANE_NONE = 0, PAIR_LANE_ACTS = 1, PAIR_LANE_ALONE = 2 };

/* One chunk: its pairs (their offsets from the chunk's first pair, ascending) and, per pair, what the lanes found:
 * its status, and where it acts its evaluation (hk_pair_eval's fields), where bounds are set its bound (lb). The
 * lanes write whole vectors: an array's entries past the chunk's pairs hold nothing. */
typedef struct pair_chunk {
    int32_t off[PAIR_CHUNK + PAIR_LANES_PAD];
    int32_t st[PAIR_CHUNK + PAIR_LANES_PAD];
    int32_t hit[PAIR_CHUNK + PAIR_LANES_PAD];  /* the entries whose status is not PAIR_LANE_NONE, ascending */
    double gap[PAIR_CHUNK + PAIR_LANES_PAD];   /* [m] */
    double a[4][PAIR_CHUNK + PAIR_LANES_PAD];  /* the weights */
    double n[3][PAIR_CHUNK + PAIR_LANES_PAD];  /* the unit normal */
    double fn[PAIR_CHUNK + PAIR_LANES_PAD];    /* [N] */
    double vr[3][PAIR_CHUNK + PAIR_LANES_PAD]; /* [m/s] */
    double m[PAIR_CHUNK + PAIR_LANES_PAD];     /* [kg] */
    double lb[PAIR_CHUNK + PAIR_LANES_PAD];    /* [m] */
    double far[PAIR_CHUNK + PAIR_LANES_PAD];   /* per pair of the chunk: its bound to be left out (pair_far) [m] */
    /* the passes' own (pair_lanes_isa.h: the geometry, then the distances and normals, then the law, each pass over
     * the whole chunk so that one vector's divisions and roots overlap the next one's): the nearest points' offset
     * d [m], the squared box distance [m^2], the corners' rows, and per vector of lanes its masks */
    double d[3][PAIR_CHUNK + PAIR_LANES_PAD];
    double s2[PAIR_CHUNK + PAIR_LANES_PAD];
    const double *row[4][PAIR_CHUNK + PAIR_LANES_PAD];
    uint8_t box[PAIR_CHUNK + PAIR_LANES_PAD], inside[PAIR_CHUNK + PAIR_LANES_PAD], odd[PAIR_CHUNK + PAIR_LANES_PAD];
    uint8_t acts[PAIR_CHUNK + PAIR_LANES_PAD], alone[PAIR_CHUNK + PAIR_LANES_PAD];
} pair_chunk;

/* What the friction in lanes reads and writes (pair_anchor.c's hk_pairs_friction, its force alone): a range of a
 * share's touching pairs, all of one kind, that a first evaluation anchors or a later one finds anchored or not. */
typedef struct pair_friction_in {
    const double *xv;   /* per particle of inv: pair_lane_in.xv's rows, but for the fourth: its touching slots (the
                         * touching pairs' corners it is in) where its inverse mass is > 0, else 0 */
    const int32_t *at;  /* hk_pairs.at */
    const int32_t *inv; /* hk_pairs.inv */
    const int64_t *on;  /* the range's pairs */
    const double *a[4], *n[3], *fn, *vr[3], *m; /* their evaluations (hk_pairs.ev, from the range's first) */
    const int64_t *pcand;                       /* hk_pairs.pcand */
    const int32_t *pan;                         /* hk_pairs.pan */
    const hk_pair_anchor *anch;                 /* hk_pairs.anch, nanch of them */
    int64_t nanch;
    int walk; /* the anchors are every touching pair's of these pairs, in pair order (hk_pairs_anchors_walk): a
               * pair's is found by walking them, else by pan and pcand */
    hk_pair_anchor *anch_next; /* the range's anchors to come (first evaluation), from its first pair's */
    double *tf;   /* the range's forces [N], 3 each: the normal force and its friction; or, where acc is not NULL, */
    double *acc;  /* each corner's alpha times it added, pair by pair, to its particle's sum (3 each, per particle of
                   * inv): pair_force.c's sum_in_order of a share's pairs, in that order [N] */
    double mu, h; /* the friction coefficient [1] (> 0), the substep [s] */
    int first;    /* the substep's first evaluation: it places and drags the anchors */
} pair_friction_in;

/* One instruction set's passes. */
typedef struct hk_pair_lanes {
    const char *isa;
    int width; /* lanes of double */
    /* The offsets i in [0, n) (n <= PAIR_CHUNK) where not lb[i] > far[i] (a NaN kept), ascending, into off; how
     * many. */
    int (*select)(const float *lb, const double *far, int n, int32_t *off);
    /* Pairs off[0 .. n) of one kind (HK_PAIR_VT or HK_PAIR_EE), their statuses and evaluations into c, and the
     * entries that act or are left to evaluate into c->hit; returns how many those are. */
    int (*eval)(const pair_lane_in *in, pair_chunk *c, int n, int kind);
    /* A chunk's n entries that act (none left to evaluate), in order, to the touching pairs' evaluations from entry
     * e on, and their pairs (kb + off) to on[e ..]; how many. Nothing past them is written. */
    int (*emit)(const pair_chunk *c, int n, int64_t kb, hk_pair_evals *ev, int64_t e, int64_t *on);
    /* The range's n pairs of kind `kind`: their forces (tf), and where in->first their anchors (anch_next). */
    void (*friction)(const pair_friction_in *in, int n, int kind);
} hk_pair_lanes;

#endif
