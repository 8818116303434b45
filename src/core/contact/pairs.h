/* pairs.h — contact between bodies and within one: surfaces, candidate pairs, their force, blocks and swept test. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIRS_H
#define HOOKE_PAIRS_H

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "geometry.h"
#include "world.h"

/*
 * A pair is a particle and a triangle of a body's surface (VT), or two
 * surface edges (EE), whose weights alpha combine the four particles into
 * one relative position: VT p - (w0 a + w1 b + w2 c), alpha = (1, -w0, -w1,
 * -w2); EE (a + s (b - a)) - (c + t (d - c)), alpha = (1 - s, s, -(1 - t),
 * -t). The pair's force F acts on particle i as alpha_i F: the sum is 0,
 * momentum is conserved. A particle meets a surface at its nearest
 * triangle only (as a collider's surface at its nearest point), with the
 * colliders' spring and damping; an edge pair touches only where the two
 * edges' nearest points lie inside both (where a particle is the nearest,
 * its triangle pairs act), with the spring alone: a particle over a fold is
 * near many triangles and edges, and their damping summed would be many
 * times what a step resolves. Every touching pair, of either kind, has
 * Coulomb's friction on its normal force, held by an anchor while it sticks
 * (pair_anchor.c), its spring and damper shared among the touching pairs of
 * the particles it moves.
 *
 * A particle's candidates are found again (hk_pairs_begin_step) when it
 * may leave the ball its last ones left it: its place when they were found
 * moved by the motion all the particles share since (hk_pairs_from_cand),
 * widened by the motion the step can give it (its ball: about the middle
 * of the path its velocity foretells, q0 + v dt / 2, of radius b = 0.75
 * |v| dt + 1.25 |g| dt^2, at least a thousandth of the thickness) and its
 * own skin
 * (pair_set.c, next_skin_of). The pairs of its triangles and edges are then
 * searched for alone (its own against every primitive, the others against
 * its triangles and edges), the other candidates kept; where more than a
 * quarter of the particles left their balls, every particle's. The search:
 * every primitive's box at those places, widened by its particles' reach and
 * the thickness, through a spatial hash of the boxes of tiles of PAIR_TILE
 * triangles or edges, then among the tiles that meet; each pair of tiles is
 * met from one cell only (the one holding the lower corner of the two
 * boxes' overlap) and a primitive's pairs are sorted, so the list is the
 * same whatever the table, and the same as a search of every particle from
 * the same places (pair_check.h, hk_pairs_validate_candidates).
 * The step's pairs are the candidates whose boxes can meet within the
 * thickness, each particle's widened by its step's bound and a smaller
 * room (next_room), kept while every particle's step stays within that
 * reach: a resting body chooses them again rarely. When they are chosen
 * again, only the particles whose step left their reach take it anew, and
 * only the candidates of those particles (and those found since) are
 * judged again: the others' judgements hold while their particles keep
 * within their reach. Where a particle moves
 * past its step's bound (a spring's pull the bound did not foresee), a
 * kept pair acts only if that step's bounds let it (hk_pairs_in_step,
 * judged from its own frame of places, qb: pair_set.c, starts), so which
 * pairs act never depends on when they were chosen or found: a run
 * restarted from a checkpoint, which chooses them anew, keeps its bits.
 * Topological neighbours are left out: within a lattice body (cloth,
 * jelly) particles within the reach of its springs' stencils of each
 * other, within another body particles a spring or a triangle joins. Each
 * pair keeps the side it started on. The particles of the pairs
 * (ascending) get the pairs' corners in pair order (a CSR), the one order
 * in which each particle sums its pairs' terms.
 */

/* The particle model (particle_pairs.c) has pairs of one kind, PP: two particles a < b as spheres, p = (a, b, b, b),
 * alpha = (1, -1, 0, 0), touching within the contact distance (twice the radius) of their centres; every touching
 * pair acts, with the triangle pairs' law and friction (viscous: no anchor), and no swept test. */
enum { HK_PAIR_VT = 0, HK_PAIR_EE = 1, HK_PAIR_PP = 2 };

typedef struct hk_pair {
    int32_t kind;
    int32_t p[4]; /* VT: the particle, then the triangle's corners; EE: one edge's ends, then the other's; PP: the
                   * two particles, the second thrice */
} hk_pair;

/* The corners of pair pa that carry a weight: the first two of a particle pair (its others repeat the second with
 * weight 0), all four of the others. */
static inline int hk_pair_corners(const hk_pair *pa) { return pa->kind == HK_PAIR_PP ? 2 : 4; }

/* The pairs' one order: by kind, then particle by particle (-1, 0 or 1; 0: the same pair). */
static inline int hk_pair_order(const hk_pair *a, const hk_pair *b)
{
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    for (int k = 0; k < 4; k++)
        if (a->p[k] != b->p[k]) return a->p[k] < b->p[k] ? -1 : 1;
    return 0;
}

/* A touching pair's last evaluation (hk_pairs.on says which pairs touch): its weights, the unit normal n and the
 * normal force fn on the alpha = 1 side (F = fn n [N]), its gap, its relative velocity sum alpha_i v_i and its mass
 * 1 / sum alpha_i^2 / m_i: its force, friction and blocks follow from these as the touching lists are made. */
typedef struct hk_pair_eval {
    double a[4];
    double n[3], fn; /* [1], [N] */
    double gap;      /* [m] */
    double vr[3], m; /* [m/s], [kg] */
} hk_pair_eval;

/* The touching pairs' evaluations as arrays, one entry per pair that acts at the place hk_pairs.on gives it:
 * hk_pair_eval's fields, each its own array (what the passes in lanes read and write), but for the gap, which only
 * chooses a run's nearest; cap entries each. */
typedef struct hk_pair_evals {
    double *a[4], *n[3], *fn, *vr[3], *m;
    int64_t cap;
} hk_pair_evals;

/* Entry i of e into *ev (its gap not kept: NAN), and *ev into entry i. */
static inline void hk_pair_evals_get(const hk_pair_evals *e, int64_t i, hk_pair_eval *ev)
{
    for (int c = 0; c < 4; c++) ev->a[c] = e->a[c][i];
    for (int c = 0; c < 3; c++) ev->n[c] = e->n[c][i], ev->vr[c] = e->vr[c][i];
    ev->fn = e->fn[i], ev->gap = NAN, ev->m = e->m[i];
}
static inline void hk_pair_evals_put(hk_pair_evals *e, int64_t i, const hk_pair_eval *ev)
{
    for (int c = 0; c < 4; c++) e->a[c][i] = ev->a[c];
    for (int c = 0; c < 3; c++) e->n[c][i] = ev->n[c], e->vr[c][i] = ev->vr[c];
    e->fn[i] = ev->fn, e->m[i] = ev->m;
}
/* Room for n entries (their values not kept); 0 or -1 (out of memory, e as it was). */
int hk_pair_evals_room(hk_pair_evals *e, int64_t n);
void hk_pair_evals_free(hk_pair_evals *e);

/* A touching pair, packed for the implicit solve's products: its particles, weights and the solve's block B = sK K
 * + sD D of its stiffness K [N/m] and damping D [N s/m] (hk_pair_blocks), set by the solve's diagonal pass
 * (hk_pairs_system) so that each product reads 6 values, not 12 (its force, and the products' B u, are in
 * hk_pairs.tf). */
typedef struct hk_pair_touch {
    int32_t p[4];
    double a[4];
    hk_real B[6];
} hk_pair_touch;

/* A touching pair's stiffness and damping blocks, upper triangles: K [N/m], D [N s/m]. */
typedef struct hk_pair_blocks {
    hk_real K[6], D[6];
} hk_pair_blocks;

/* A touching pair's anchor of static friction (pair_anchor.c): the pair, its candidate (-1: none since the
 * candidates were found again; -2: read from a checkpoint, not yet found among them) and its weights where it
 * began to stick (a triangle pair: w0 and w1 of the triangle's point w0 a + w1 b + (1 - w0 - w1) c; an edge pair:
 * s and t, its points a + s (b - a) and c + t (d - c)). */
typedef struct hk_pair_anchor {
    hk_pair key;
    int64_t cand, pair; /* pair: its index among the step's pairs when placed */
    double w[2];
} hk_pair_anchor;

/* Per tile of a search's query primitives (PAIR_TILE consecutive ones), the tiles of its target primitives that hold
 * a topological neighbour of one of them (pair_neighbours.c): entries start[q] .. start[q + 1) of tile q, ascending
 * target tiles, and per entry a mask whose bit PAIR_TILE l + m is set where the query's lane l and the target
 * tile's lane m are neighbours (a corner of one within a corner's stencil of the other). */
typedef struct hk_pair_tile_nb {
    int64_t *start;
    int32_t *tile;
    uint64_t *mask;
} hk_pair_tile_nb;

typedef struct hk_pairs {
    hk_contact_def def;
    double th; /* the contact distance: the triangle model's thickness, the particle model's twice the radius [m] */
    /* the surfaces, built for these bodies, families and broken springs */
    int built_bodies, built_families;
    int64_t built_broken;
    int surfaces_changed; /* since the last candidates */
    int32_t *tri, *tri_body, *edge, *edge_body;
    int64_t ntri, nedge;
    int *reach;                   /* per body: its lattice stencils' reach, or -1 (a listed body: adj) */
    int32_t *adj_start, *adj;     /* per particle (all of them): the particles a spring or triangle joins it to */
    int32_t *node;                /* per particle of a lattice body: its node (i, j, k) */
    hk_pair_tile_nb vt_nb, ee_nb; /* per tile of the particles, of the edges: the tiles of triangles, of edges, with
                                   * a neighbour (the search's own lanes left out without a test) */
    /* the candidates (found when the particles left their boxes), and the step's pairs among them */
    hk_pair *cand;
    int64_t ncand, capcand;
    double *cd;     /* per candidate: the distance of its two sides at qc [m] */
    hk_pair *cand2; /* the candidates as they are merged with a search's (scratch) ... */
    double *cd2;    /* ... and their distances [m] */
    int64_t cap_cand2, cap_cd2;
    hk_pair *fa;    /* a search's candidates' room, kept from one search to the next (scratch) ... */
    double *fd;     /* ... and their distances' [m] */
    int64_t fcap;   /* the room of both */
    uint8_t *sel;   /* per candidate: 1 where it is one of the pairs, 0 where not, 2 where not yet judged (found
                     * since); a judgement holds while its particles keep within their reach of qs (bs) */
    double *sg;     /* per candidate judged one of the pairs: its two sides' distance at qs [m] */
    uint8_t *sel2;  /* the judgements ... */
    double *sg2;    /* ... and distances as the candidates are merged with a search's (scratch) */
    int64_t *sel_n; /* per task of the selection: how many of its share of the candidates it keeps (scratch) */
    double *sel_d;  /* per task of the selection: the smallest distance among its pairs at qs (scratch) [m] */
    hk_pair *pair;
    double d0_min;    /* at most the smallest distance among the step's pairs at qa [m] (INFINITY: none) */
    hk_pair_evals ev; /* per pair that acts, in the place on gives it: its evaluation */
    int64_t npair, cappair;
    int32_t *inv;                /* the pairs' particles, ascending */
    int32_t *place;              /* per particle (all): its place in inv, or -1 */
    int32_t *at;                 /* per pair corner (4 pair + corner): its particle's place in inv */
    int64_t *on, non;            /* the non pairs that touch at the last force evaluation: each share's, ascending,
                                  * from its first pair (below) */
    hk_pair_touch *touch;        /* theirs, packed: what the implicit solve's products read */
    hk_pair_blocks *kd;          /* theirs: the blocks of each */
    hk_real b_sK, b_sD;          /* the sK and sD of touch's B [s^2], [s] ... */
    int b_set;                   /* ... where B is set for the last evaluation's touching pairs */
    int32_t *on_start, *on_slot; /* per particle of inv: its corners in those pairs (4 place in on + corner) */
    double *slot_a;              /* per slot of on_slot: that corner's weight alpha */
    double *tf; /* per touching pair (3 each): its force F [N]; in the implicit solve's products, its B u */
    /* the lists above made by the team (pair_force.c): per share (a task of the evaluation, `shares` of them), its
     * first pair, how many of its pairs touch and the place of the first in touch, then per task of the lists the
     * slots of its particles; per share and particle of inv, that particle's corners among the share's touching
     * pairs, then the next slot they take */
    int64_t *share;
    int32_t *hist;
    int shares;
    int ninv;
    double *x0;    /* per particle of inv: its place at the substep's start [m] */
    double *xs;    /* per particle of inv: its place at the last force evaluation [m] */
    uint8_t *past; /* per particle of inv: 1 where xs is past its step's bound (hk_pairs_past) */
    double *u;     /* per particle of inv: the safety net's velocity of the substep [m/s] */
    double *q0;    /* per particle (all): its place at the step's start [m] (3 each) */
    double *qm;    /* per particle (all): the centre of its step's ball, q0 + v dt / 2 (the middle of the path its
                    * velocity at the start foretells; q0 where it does not move) [m] (3 each) */
    double *b;     /* per particle (all): the motion bound of the step, from qm: every place of the step lies
                    * within b of qm [m] */
    /* the frame of the rule for a pair of a particle past its bound (hk_pairs_in_step, and when the step is swept
     * again, hk_pairs_end_step): the places of every particle at a step when one of them left its ball (qb, rb and
     * the common shift; pair_set.c, starts). A mark, not a search: the candidates have their own (below). */
    double *qb; /* per particle (all): its place then [m] (3 each) */
    double *rb; /* per particle (all): how far it may move from qb + shift (a distance) [m] */
    double *mv; /* per particle (all): how far from qb + shift it may come in the step, |qm - qb - shift| + b [m] */
    double shift[3]; /* the step's common motion since, the mean of qm - qb (0 then) [m] */
    /* the candidates' frame (pair_set.c, refresh): each particle's place when its candidates were last found, less
     * the common shift then, and how far it may be from that place moved by the common shift now while they hold;
     * a particle that leaves it has its candidates (those of its triangles and edges) found again, alone */
    double *qc;     /* per particle (all): that place [m] (3 each) */
    double *rc;     /* per particle (all): how far it may be from qc + sc [m] */
    double *mc;     /* per particle (all): how far from qc + sc it may come in the step, |qm - qc - sc| + b [m] */
    double *skc;    /* per particle (all): the skin its candidates leave it beyond its step's bound [m] */
    int64_t *fc;    /* per particle (all): the step they were found in (the world's step count before it) */
    uint8_t *dirty; /* per particle (all): 1 where its candidates are found again now (the search's scratch) */
    double sc[3];   /* the common shift of the places since qc: the mean of qm - qc [m] */
    int cand_all;   /* at the next step every particle's candidates are found again (none yet, or surfaces changed) */
    int64_t searches, searched; /* since the world was made: the searches, and the particles they searched for */
    int nq;                     /* the particles these arrays hold */
    double t0, dt;
    /* the pairs kept apart while far (pair_force.c): per pair a lower bound of its two sides' distance at the places
     * xr of the evaluation that set them (lb_set: for these pairs), per particle of inv how far it has moved from
     * xr (mj), per task of an evaluation the largest motion of its particles since, their largest coordinate, its
     * particles past their bounds and the pairs it evaluated (far, HK_FAR_N each), and how many pairs the last
     * evaluation that kept the bounds evaluated (taken; -1 after one that set them) */
    double *lb, *xr, *mj, *far; /* [m] */
    int lb_set;
    int64_t taken;
    /* the pairs evaluated in lanes (pair_lanes.h): per particle of inv its place, inverse mass and velocity at the
     * last force evaluation (pair_lane_in.xv; 64-byte aligned), and per task of an evaluation its chunk */
    double *xv;
    float *lbf; /* per pair: lb rounded down to a float, what the lanes' select reads (lbf_set: for these bounds) */
    int lbf_set;
    struct pair_chunk *chunk;
    double *acc;  /* per particle of inv (3 each): its touching pairs' forces summed in pair order, without the lists
                   * (one share, no solve: pair_force.c, sum_in_order) [N] */
    int unlisted; /* the last evaluation summed its pairs without making on_start, on_slot and slot_a (there is no
                   * solve to read them) */
    const struct hk_pair_lanes *lanes; /* the passes the forces run where lanes_set (tests: hk_pair_lanes_use), */
    int lanes_set;                     /* else the world's kernel path's (hk_pair_lanes_of) */
    int64_t builds;                    /* the frame qb set, since the world was made (0: at the next step) */
    int64_t found;                     /* the step it was set in (the world's step count before it) */
    double skin; /* the room rb leaves each particle beyond its step's bound then [m] (pair_set.c, next_skin) */
    /* the step's pairs, chosen among the candidates with room beyond the step's bounds, and kept while every
     * particle's step stays within it (pair_set.c, select_step) */
    double *qs;     /* per particle (all): its ball's centre (qm) in the step its pairs were last judged [m] (3 each) */
    double *bs;     /* per particle (all): the reach they were judged with, that step's bound b and the room [m] */
    double *ms;     /* per particle (all): how far from qc + sc it may come while they hold, |qs - qc - sc| + bs [m] */
    uint8_t *moved; /* per particle (all): 1 where the last choice set its qs and bs anew (its step left them) */
    uint8_t *atc;   /* per particle (all): 1 where its qs was its candidates' qc bit for bit at the last choice */
    double *qa;     /* per particle (all): its place at the start of the step they were last chosen in [m] (3 each) */
    double *dq;     /* per particle (all): how far qa is from qs, |qa - qs| [m] */
    double room;    /* the room they leave each particle beyond its step's bound [m] (pair_set.c, next_room) */
    int64_t chosen; /* the step they were chosen in (the world's step count before it) */
    int pairs_hold; /* they were chosen among these candidates, and every particle's step stays within their reach */
    /* static friction (pair_anchor.c): per pair its candidate; per candidate and per pair the place of its anchor
     * in anch, where the entry there is its candidate's (else none: places go stale as anchors are let go); the
     * anchors the touching pairs held at the last substep's first force evaluation, and those the next one
     * places (per touching pair, in the lists' order) */
    int64_t *pcand;
    int32_t *anc, *pan;
    hk_pair_anchor *anch, *anch_next;
    int64_t nanch;
    int first; /* the next force evaluation is its substep's first: it places, drags and lets go of anchors */
    /* the anchors held were placed, every touching pair's in pair order, by the friction in lanes (walk; at the
     * selected-th choice of the pairs after the builds-th search: hk_pairs_anchors_commit), so that the friction
     * finds a pair's by walking them beside the touching pairs, without pan and pcand, and pan is set only where
     * it is read (pan_stale: not since those anchors; hk_pairs_anchors_pan); walk_next: the next commit's anchors
     * were placed so */
    int walk, walk_next, pan_stale;
    int64_t walk_selected, walk_builds;
    int anc_fresh; /* anc was made for these candidates (by hk_pairs_anchors_remap), not yet brought up to date */
    /* the room of the arrays above (items) */
    /* the safety net's scratch (pair_impact.c) */
    double *hit, *u_start, *zone;
    double *path; /* per particle of inv (6 each): the box of its path over the substep, lo x, y, z, hi x, y, z [m] */
    double *pm;   /* per particle of inv: the farthest its path over the substep comes from xr [m] */
    char *held;
    int *parent;
    int64_t cap_sel_n, cap_sel_d;
    int64_t cap_cd, cap_place, cap_at, cap_on_slot, cap_on, cap_touch, cap_kd, cap_inv, cap_on_start, cap_xs, cap_x0,
        cap_u, cap_slot_a, cap_tf, cap_sel, cap_sg, cap_sel2, cap_sg2, cap_share, cap_hist, cap_past;
    int64_t cap_lb, cap_xr, cap_mj, cap_far, cap_xv, cap_chunk, cap_acc, cap_lbf;
    int64_t cap_hit, cap_u_start, cap_zone, cap_held, cap_parent, cap_path, cap_pm;
    int64_t cap_pcand, cap_anc, cap_pan, cap_anch, cap_anch_next;
    int64_t caught, frozen, outran; /* since the world was made: pairs pushed apart, particles held back, steps whose
                                       motion outran the broad phase */
    int64_t left;                   /* pairs still meeting after the safety net, last step (0) */

    /* the times the step's pairs were chosen (select_step), since the world was made, and the particle model's
     * lists of them, made again when they are chosen again (particle_force.c) */
    int64_t selected;
    struct hk_particle_lists *pl;
} hk_pairs;

/* A share's entries in hk_pairs.share: its first pair, how many of its pairs touch, the place of its first in the
 * touching lists; HK_SHARE_N of them a share. */
enum { HK_SHARE_K0, HK_SHARE_ON, HK_SHARE_Q, HK_SHARE_N };

/* *p (a pointer's address) with room for `need` items of `size` bytes, its room *cap (items) grown by half again
 * as needed; 0 or -1 (out of memory, *p as it was). */
static inline int hk_pairs_room(void *p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap) return 0;
    const int64_t want = need + need / 2 + 16;
    void *q = realloc(*(void **)p, (size_t)want * size);
    if (!q) return -1;
    *(void **)p = q;
    *cap = want;
    return 0;
}

/* How many pairs (or particles) a loop over them needs to run on the world's team: 4096, or the world's
 * list_parallel_min when smaller (hk_world_def; tests set 0 by HOOKE_LIST_PARALLEL_MIN: every loop on the team).
 * Each iteration of such a loop writes one pair's or one particle's values only, so the bits are the same either
 * way. */
static inline int64_t hk_pairs_parallel_min(const hk_world *w)
{
    return w->def.list_parallel_min < 4096 ? w->def.list_parallel_min : 4096;
}
/* Tasks for such a loop over n of them: the world's team from hk_pairs_parallel_min, else 1 (world.h). */
static inline int hk_pairs_team(const hk_world *w, int64_t n)
{
    return n >= hk_pairs_parallel_min(w) ? hk_world_team(w) : 1;
}

/* The world's pair state, made on first use (hk_world_set_contact); NULL without pair contact, and on every rank
 * but 0 of a distributed run: rank 0 computes every body that takes part whole (core/step/distribute.c), and
 * alone finds, sums and sweeps the pairs; the other ranks' particles meet none. */
hk_pairs *hk_pairs_of(const hk_world *w);
/* Whether body b takes part in contact d: every body when bodies collide (its particles against the others'
 * surfaces), a body with a surface when only self collision is on (hk_world_contact(w): none without pairs). */
int hk_pairs_takes_part(const hk_contact_def *d, const hk_world *w, int b);
void hk_pairs_free(hk_pairs *pr);
/* The particle model's forces (particle_force.c), for hk_pairs_forces: the same forces, blocks and touching lists,
 * bit for bit, from passes over its pairs' and particles' arrays. */
void hk_particle_forces(hk_world *w, hk_pairs *pr, double h, hk_real *const f[3]);
void hk_particle_lists_free(struct hk_particle_lists *pl);
/* +1 or -1: the side particle pair pa started the step on (from the places at its start, q0): along z, turned to
 * where its first particle was (+z where the two were one); the normal of a pair whose centres meet exactly. */
float hk_particle_side(const hk_pairs *pr, const hk_pair *pa);
/* The largest particle radius of the particle model the world's bodies allow: rest (the smallest spring rest
 * length, hk_smallest_rest_length) times the smallest stencil reach of a body (a lattice's largest stencil step, 1
 * for another body) [m]. */
double hk_particle_radius_limit(const hk_world *w, double rest);

/* The step's candidates (above); 0 or -1 (failure recorded). */
int hk_pairs_begin_step(hk_world *w, hk_pairs *pr);
/* Before a substep: the pairs' particles' places. */
void hk_pairs_substep_begin(hk_world *w, hk_pairs *pr);
/* At a force evaluation: each candidate's force and blocks, and each
 * particle's sum added to f (per particle, global index) in double. */
void hk_pairs_forces(hk_world *w, hk_pairs *pr, double h, hk_real *const f[3]);
/* After a substep of length h: the swept test and its impulses; the
 * particles moved. */
int hk_pairs_substep_end(hk_world *w, hk_pairs *pr, double h, hk_real *const prev[3]);
/* At the step's end: when a particle moved further than its box allowed,
 * new candidates over the whole step's motion; when one moved further than
 * the step's bound b (a spring's pull the bound did not foresee), the
 * step's pairs again with every bound at least its motion; and then 1: the
 * caller sweeps the step again (hk_pairs_substep_end over dt, from the
 * step's start, which x0 now holds); else 0. */
int hk_pairs_end_step(hk_world *w, hk_pairs *pr);

/* Static friction between bodies (pair_anchor.c). Touching pair k (the q-th of the touching lists; ev its evaluation)'s
 * friction at the evaluation now, added to its force f (its normal force on entry) and blocks K and D: Coulomb's, at
 * most the friction coefficient times its normal force, held by a spring to the anchor it placed when it began to stick
 * (a substep's first evaluation places, drags and lets go of anchors; a pair that begins to touch later in the substep
 * meets the viscous form). K and D NULL: the force alone (no solve reads the blocks). */
void hk_pairs_friction(const hk_world *w, hk_pairs *pr, int64_t k, const hk_pair_eval *ev, int64_t q, double h,
                       double f[3], double K[6], double D[6]);
/* After a force evaluation: a substep's first makes the anchors its touching pairs placed the ones held (on
 * `team` tasks: hk_pairs_team of the touching pairs). */
void hk_pairs_anchors_commit(const hk_world *w, hk_pairs *pr, int team);
/* Whether the friction finds the held anchors by walking them (hk_pairs.walk, for the pairs now). */
static inline int hk_pairs_anchors_walk(const hk_pairs *pr)
{
    return pr->walk && pr->walk_selected == pr->selected && pr->walk_builds == pr->builds;
}
/* pan set for the anchors held, where a commit left it stale (hk_pairs.pan_stale), before it is read. */
void hk_pairs_anchors_pan(const hk_world *w, hk_pairs *pr);
/* Room for the anchors of n touching pairs; 0 or -1. */
int hk_pairs_anchors_room(hk_pairs *pr, int64_t n);
/* After the candidates were found: each held anchor's candidate (the same pair), or -1; 0 or -1 (out of memory). */
int hk_pairs_anchors_remap(hk_pairs *pr);
/* As the step's pairs are chosen from the candidates: before, the candidates' anchors brought up to date from
 * the last pairs' (hk_pairs_anchors_keep); then each new pair's from its candidate's (hk_pairs_anchors_find:
 * the pairs in pcand, npair of them); 0 or -1 (out of memory). Both on `team` tasks (hk_pairs_team of the pairs,
 * the last ones' and the new ones'). */
void hk_pairs_anchors_keep(const hk_world *w, hk_pairs *pr, int team);
int hk_pairs_anchors_find(const hk_world *w, hk_pairs *pr, int team);
/* The anchors held now (a checkpoint's; pr: hk_pairs_of, NULL holds none): how many, and each one's pair (5
 * each: kind, then its four particles) and weights (2 each), in the order they are held. */
int64_t hk_pairs_anchors_held(const hk_pairs *pr);
void hk_pairs_anchors_get(const hk_pairs *pr, int32_t *keys, double *weights);
/* A checkpoint's anchors, held again from the next step (its candidates find their pairs); 0 or -1 (out of
 * memory). With pr NULL (a rank that computes no pairs, as rank 0 holds them) nothing to hold: 0. */
int hk_pairs_anchors_restore(hk_pairs *pr, int64_t n, const int32_t *keys, const double *weights);

/* The implicit solve (every task of tm's team, team.h): out[i] += alpha_i B
 * sum_j alpha_j y_j over the touching pairs (B = sK K + sD D), or (out
 * NULL) blk[e][i] += alpha_i^2 B[e], or with `bound` the bound of
 * hk_pairs_diag; the team's barriers inside. */
void hk_pairs_system(const hk_team *tm, hk_pairs *pr, hk_real sK, hk_real sD, int bound, hk_real *const y[3],
                     hk_real *const out[3], hk_real *const blk[6]);
/* The diagonal block of particle inv[j] from its touching pairs, sum alpha^2 (sK K + sD D), into out; returns
 * the particle (the multigrid's first coarse level). With `bound`, sum |alpha| (sum_c |alpha_c|) (sK K + sD D): a
 * pair's term alpha alpha^T B is at most that diagonal (their difference is diagonally dominant), where the exact
 * diagonal is up to 4 times below it (alpha^T diag(alpha^2)^-1 alpha = the pair's corners): the multigrid's
 * block-Jacobi smoother, damped for a spring network's D^-1 A <= 2, and its coarse levels, which leave the pairs'
 * couplings out, stay convergent and positive definite only on the bound. */
int hk_pairs_diag(const hk_pairs *pr, int j, hk_real sK, hk_real sD, int bound, hk_real out[6]);
/* How many particles the pairs hold: the j of hk_pairs_diag run over [0, that) (0 for no pairs, pr NULL). */
static inline int hk_pairs_particles(const hk_pairs *pr) { return pr ? pr->ninv : 0; }
/* The largest of v over a pair's four corners, at[0 .. 4) their places among the pairs' particles (hk_pairs.at). */
static inline double hk_pair_corners_max(const double *v, const int32_t *at)
{
    return g_max(g_max(v[at[0]], v[at[1]]), g_max(v[at[2]], v[at[3]]));
}
/* The distance within which the particles a (na of them) and b (nb) can come to the thickness when each particle i
 * moves at most r[i]: every point of a triangle or edge moves at most as far as the farthest of its
 * corners; a margin of 1e-9 of it keeps a test against it on the safe side of rounding [m]. */
static inline double hk_pairs_reach(const hk_pairs *pr, const double *r, const int32_t *a, int na, const int32_t *b,
                                    int nb)
{
    double ra = 0, rbb = 0;
    for (int k = 0; k < na; k++) ra = g_max(ra, r[a[k]]);
    for (int k = 0; k < nb; k++) rbb = g_max(rbb, r[b[k]]);
    return (pr->th + ra + rbb) * (1 + 1e-9);
}
/* The squared distance of pair pa's two sides, with each particle i at x + 3 i [m^2]. */
static inline double hk_pairs_gap2_at(const double *x, const hk_pair *pa)
{
    const int32_t *c = pa->p;
    if (pa->kind == HK_PAIR_PP) return g_dist2(x + 3 * (int64_t)c[0], x + 3 * (int64_t)c[1]);
    if (pa->kind == HK_PAIR_EE) {
        double s, t;
        return g_closest_segments(x + 3 * (int64_t)c[0], x + 3 * (int64_t)c[1], x + 3 * (int64_t)c[2],
                                  x + 3 * (int64_t)c[3], &s, &t);
    }
    const double *v = x + 3 * (int64_t)c[0];
    double q[3], d[3];
    g_closest_on_triangle(v, x + 3 * (int64_t)c[1], x + 3 * (int64_t)c[2], x + 3 * (int64_t)c[3], q);
    g_sub(v, q, d);
    return g_dot(d, d);
}
/* Whether pair pa's two sides can come within the thickness while each particle i stays within reach[i] of its
 * place x + 3 i: not where their distance d at a frame (places from which each particle may come m[i] meanwhile,
 * less a shift common to all) is larger than the thickness and how far each side may come from there (m), nor
 * where their boxes at x, each particle's widened by its reach (a particle's by the thickness too, an edge's by half
 * of it), are apart. */
static inline int hk_pairs_meet_within(const hk_pairs *pr, const double *xs, const hk_pair *pa, double d,
                                       const double *m, const double *reach)
{
    const double th = pr->th;
    const int split = pa->kind == HK_PAIR_EE ? 2 : 1;
    if (d > hk_pairs_reach(pr, m, pa->p, split, pa->p + split, 4 - split)) return 0;
    const double pad[2] = {pa->kind == HK_PAIR_VT ? th : 0.5 * th, pa->kind == HK_PAIR_VT ? 0 : 0.5 * th};
    double lo[2][3], hi[2][3];
    for (int c = 0; c < 4; c++) {
        const int sd = c >= split, i = pa->p[c];
        const double *x = xs + 3 * (int64_t)i, r = reach[i] + pad[sd];
        for (int e = 0; e < 3; e++) {
            const double l = x[e] - r, h = x[e] + r;
            lo[sd][e] = c == 0 || c == split ? l : g_min(lo[sd][e], l);
            hi[sd][e] = c == 0 || c == split ? h : g_max(hi[sd][e], h);
        }
    }
    int apart = 0;
    for (int e = 0; e < 3; e++) apart |= lo[0][e] > hi[1][e] || lo[1][e] > hi[0][e];
    return !apart;
}
/* Whether pair k's two sides can come within the thickness in the step by its bounds alone (b, from the balls'
 * centres qm), judged from the frame qb (its distance there, mv): a kept pair reaches further, and where one of its
 * particles has moved past its bound (the step's end sees that and takes the step again) it acts only if this
 * holds, so that what acts never depends on when the pairs were chosen or the candidates found. */
static inline int hk_pairs_in_step(const hk_pairs *pr, int64_t k)
{
    const hk_pair *pa = &pr->pair[k];
    return hk_pairs_meet_within(pr, pr->qm, pa, sqrt(hk_pairs_gap2_at(pr->qb, pa)), pr->mv, pr->b);
}
/* How far particle i at x is from its place in the frame qb, moved by the common shift [m]. */
static inline double hk_pairs_from_found(const hk_pairs *pr, int i, const double x[3])
{
    const double *q = pr->qb + 3 * (int64_t)i;
    const double d[3] = {x[0] - q[0] - pr->shift[0], x[1] - q[1] - pr->shift[1], x[2] - q[2] - pr->shift[2]};
    return sqrt(g_dot(d, d));
}
/* How far particle i at x is from its place when its candidates were found, moved by the common shift [m]. The
 * pairs' distances do not change when every particle moves alike, so only what a particle moves beyond the others'
 * mean can bring a pair that is not a candidate within the thickness: a body that falls or flies as a whole keeps
 * its candidates. */
static inline double hk_pairs_from_cand(const hk_pairs *pr, int i, const double x[3])
{
    const double *q = pr->qc + 3 * (int64_t)i;
    const double d[3] = {x[0] - q[0] - pr->sc[0], x[1] - q[1] - pr->sc[1], x[2] - q[2] - pr->sc[2]};
    return sqrt(g_dot(d, d));
}
/* Whether sqrt(d2) > r, as that expression decides it, bit for bit: the root is taken only where d2 lies within a
 * few rounding steps of r^2 (each particle's test against its bound, at every step and force evaluation, is nearly
 * always far from it). Beyond them the square root, correctly rounded and monotonic, cannot cross r. */
static inline int hk_root_above(double d2, double r)
{
    const double r2 = r * r;
    if (r2 >= DBL_MIN) { /* not where r^2 lost bits below the normal numbers (or is not a number) */
        if (d2 < r2 * (1 - 0x1p-40)) return 0;
        if (d2 > r2 * (1 + 0x1p-40)) return 1;
    }
    return sqrt(d2) > r;
}
/* Whether sqrt(d2) + b <= c, as that expression decides it, bit for bit: true without the root where d2 lies a few
 * rounding steps below (c - b)^2, so that the sum's rounding cannot cross c. */
static inline int hk_root_plus_within(double d2, double b, double c)
{
    const double t = c - b, t2 = t * t;
    if (t > 0 && t2 >= DBL_MIN && d2 < t2 * (1 - 0x1p-40)) return 1;
    return sqrt(d2) + b <= c;
}
/* Whether particle i at x has moved past its step's bound (further than b from its ball's centre qm). */
static inline int hk_pairs_past(const hk_pairs *pr, int i, const double x[3])
{
    return hk_root_above(g_dist2(x, pr->qm + 3 * (int64_t)i), pr->b[i]);
}
/* Whether particle i at x has left its candidates' room: hk_pairs_from_found(pr, i, x) > rb[i]. */
static inline int hk_pairs_outran(const hk_pairs *pr, int i, const double x[3])
{
    const double *q = pr->qb + 3 * (int64_t)i;
    const double d[3] = {x[0] - q[0] - pr->shift[0], x[1] - q[1] - pr->shift[1], x[2] - q[2] - pr->shift[2]};
    return hk_root_above(g_dot(d, d), pr->rb[i]);
}
/* Whether a pair touches now. */
int hk_pairs_touching(const hk_pairs *pr);
/* The pairs still meeting after the last step's safety net, the statistics' crossings (0 for no pairs, pr NULL). */
static inline int64_t hk_pairs_left(const hk_pairs *pr) { return pr ? pr->left : 0; }

/* The contacts of the state now (the statistics, the frames): the pairs
 * of the last step's candidates within the thickness are added to
 * *touching and, per particle with a weight in them, to count (unless
 * NULL); *min_gap becomes at most the smallest gap of a particle to a
 * triangle among them [m]. */
void hk_pairs_survey(const hk_world *w, const hk_pairs *pr, int32_t *count, int64_t *touching, double *min_gap);
/* The pairs of the survey's list within the thickness now (into out, unless NULL), and how many: what a
 * checkpoint keeps so that the survey of its state, read again, is the same. */
int64_t hk_pairs_contacts(const hk_world *w, const hk_pairs *pr, hk_pair *out);
/* A checkpoint's pairs in contact (n of them) and its crossings (hk_pairs.left) as the survey's list, until the next
 * step finds its own; 0 or -1 (out of memory). With pr NULL (a rank that computes no pairs) nothing to hold: 0. */
int hk_pairs_contacts_restore(hk_pairs *pr, int64_t n, const hk_pair *pairs, int64_t left);

#endif
