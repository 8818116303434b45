/* limit_pass.h — the strain limits' pass: its limits, its tasks' slots and what its sweeps keep, for its looks. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LIMIT_PASS_H
#define HOOKE_LIMIT_PASS_H

#include <stdint.h>

#include "constraints.h"
#include "kernels.h"
#include "moves.h"
#include "spring_vec.h"
#include "team.h"

/* Shared by strain_limit.c (the projection, its sweeps and chains) and limit_look.c (its looks). */

/* A family's limits as lengths in the kernels' precision: a spring is past them where r > top or r < bottom, and
 * is projected to aim_top or aim_bottom. */
typedef struct limits {
    hk_real top, bottom, aim_top, aim_bottom;
    hk_real hold_top, hold_bottom; /* a spring at least this long, or this short, is held at its aim with the rest */
} limits;

/* What one task found in one sweep (its slot, a cache line of its own). */
typedef struct limit_part {
    double max, min; /* r / L0 */
    int64_t moved;   /* springs projected */
    int64_t over;    /* springs found past a limit (moved, or held by both ends) */
    char pad[32];
} limit_part;

/* What the sweeps read, and what they leave (task 0 writes the figures). */
typedef struct limit_pass {
    hk_particles *p;
    const hk_family *fams;
    const hk_constraints *c;
    const hk_kernels *k;   /* the world's path; NULL: the reference path */
    const double *hi, *lo; /* per family: the limit ratios, hi 0 where the family has no limit */
    int families;
    const int *lat; /* the lattice families with a limit, in order (a body's together) */
    int lat_count;
    const limits *fam_limits;   /* per family: its limits for the family's rest length L0 (lattice, list default) */
    hk_moves mv;                /* what a move changes (moves.h) */
    int sweeps_max, T;          /* T: the team asked for; the team that runs may be smaller (team.h) */
    limit_part *part;           /* [2][T]: the sweeps' slots, by the sweep's parity */
    struct chain_node *scratch; /* [T][longest + 1]: each task's chain (chain_one) */
    uint8_t *dirty;             /* [most]: the chains a sweep's look found past a limit */
    /* What a sweep need not measure again (seen): a row of lattice family lat[m] is measured again where a node of its
     * springs moved since family m's look before (moved), or where it was past a limit then (the figures stay, to be
     * read). The look of family m in sweep n is number 2 ((n + 1) lat_count + m), in the first look (n = -1) too
     * where it kept each row's figures (kept; else the first sweep measures every row), a projection after it the
     * number after; a list spring's projection marks every row. */
    struct {
        int64_t *moved;        /* per body row (j + ny k), from rows[m] for family lat[m]'s body: the last mover */
        int64_t *rows;         /* [lat_count]: where family lat[m]'s body's rows start in moved */
        hk_real *most, *least; /* per source row of family lat[m]'s box, from box[m] on: the figures of its last look */
        uint8_t *past;         /* the same rows: past a limit at their last look */
        int64_t *box;          /* [lat_count]: where family lat[m]'s source rows start in most, least, past */
        int64_t lists;         /* the last list projection's number (0: none) */
        int kept;              /* the first look kept each row's figures */
    } seen;
    int longest;  /* the longest chain of a lattice family, in springs */
    int64_t most; /* the most chains of a lattice family */
    limit_part first, last;
    int64_t projected;
    int sweeps;
} limit_pass;

/* One spring (its family f, slot, global ends a, b, rest length L0): measured into pt, projected when past a limit
 * (project: 1; else measured only). */
static inline __attribute__((always_inline)) void limit_one(const limit_pass *s, const hk_family *f, int64_t slot,
                                                            int64_t a, int64_t b, hk_real L0, const limits *l,
                                                            int project, limit_part *pt)
{
    if (f->broken && f->broken[slot]) return;
    hk_particles *p = s->p;
    hk_real d[3];
    hk_spring_delta(f, p, slot, a, b, d);
    const hk_real r = hk_spring_length(d[0], d[1], d[2]);
    const double ratio = (double)r / (double)L0;
    pt->max = ratio > pt->max ? ratio : pt->max;
    pt->min = ratio < pt->min ? ratio : pt->min;
    if (!(r > l->top) && !(r < l->bottom)) return;
    pt->over++;
    const hk_real wa = p->inv_mass[a], wb = p->inv_mass[b], W = wa + wb;
    if (!project || W == 0 || r == 0) return;
    const hk_real g = (r - (r > l->top ? l->aim_top : l->aim_bottom)) / (r * W);
    const hk_real ma[3] = {wa * (g * d[0]), wa * (g * d[1]), wa * (g * d[2])};
    const hk_real mb[3] = {wb * (g * d[0]), wb * (g * d[1]), wb * (g * d[2])};
    hk_move(&s->mv, a, ma, -1);
    hk_move(&s->mv, b, mb, 1);
    pt->moved++;
}

/* The number of family lat[m]'s look in sweep `sweep` (-1: the first look) in the sweeps' memory (limit_pass seen);
 * a projection after it takes the number after. */
static inline int64_t hk_limit_look_number(const limit_pass *s, int sweep, int m)
{
    return 2 * ((int64_t)(sweep + 1) * s->lat_count + m);
}

/* Task tm's share [*a, *b) of n items. */
static inline void hk_limit_task_share(const hk_team *tm, int64_t n, int64_t *a, int64_t *b)
{
    *a = n * tm->t / tm->T;
    *b = n * (tm->t + 1) / tm->T;
}

/* The first look at every lattice body with a limited family: each family's largest and smallest r / L0 into pt,
 * and pt->over counting those past a limit; where the pass keeps them (seen.kept), each row's figures too. */
void hk_limit_bodies_look(const hk_team *tm, const limit_pass *s, limit_part *pt);
/* Sweep `sweep`'s look at lattice family s->lat[m], the task's share of its rows (limit_look.c). */
void hk_limit_family_look(const limit_pass *s, const hk_team *tm, int m, int sweep, limit_part *pt, uint8_t *dirty);
/* The sweeps' memory of what they measured (limit_pass seen); 0, or -1 out of memory (none kept). */
int hk_limit_seen_new(limit_pass *s);

#endif
