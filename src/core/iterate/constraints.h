/* constraints.h — a world's springs as one list of distance constraints in colours, which the iterated solvers sweep.
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CONSTRAINTS_H
#define HOOKE_CONSTRAINTS_H

#include "world.h"

/* Colours a particle can tell apart (one bit each); springs that find none free go to a last, serial colour. */
#define HK_CONSTRAINT_COLOURS 64

/* Why an integrator that sweeps the constraints (its name the argument) is refused over ranks. */
#define HK_SWEEPS_NOT_OVER_RANKS                                                                                       \
    "%s does not run over MPI ranks (a sweep carries each spring's correction on to the next within the sweep, "       \
    "across a rank's boundary too): run it in one process"

/* The springs of one lattice family whose source nodes have an even (parity 0) or odd (1) coordinate along `axis`
 * (0: i, 1: j, 2: k), counted in the family's steps along it (j or k where the offset has a step there, else i): a
 * spring's two ends differ by one step along that axis, so no particle occurs twice in one such colour. Along j or k a
 * colour is whole rows of the family's box, every source i in [i0, i1); along i it is every row, the sources pick[]. */
typedef struct hk_lattice_colour {
    int fam, axis, parity;
    int rows;          /* rows of the box holding sources of this colour */
    int64_t *row_node; /* each row's body-local node (0, j, k) */
    int picks;         /* along i: the sources of each row, i = pick[0 .. picks); 0 along j and k */
    int *pick;
} hk_lattice_colour;

/* The chains of one lattice family: a chain starts at a source node whose node one offset back is not a source, and
 * goes on by the offset, each spring's target the next one's source, while the node is a source. Every source is in
 * one chain and no particle in two chains of one family, so a family's chains can be projected each at once, in any
 * order and on any number of threads, with the same bits (fabric/strain_limit.c). */
typedef struct hk_lattice_chains {
    int64_t count;  /* chains */
    int64_t *start; /* each chain's first source node, body-local */
    int *len;       /* its springs */
    int longest;    /* the most springs of any chain */
} hk_lattice_chains;

/* The chain of ch, family f's chains, that holds the spring from source node (i, j, k): its index in ch (the one
 * whose first source is the node as many offsets back as stay in the family's box; the chains are in the order of
 * their first sources). */
int64_t hk_lattice_chain_of(const hk_family *f, const hk_lattice_chains *ch, int i, int j, int k);

/* Every spring of every family held here as colours swept in order: first each lattice family's two colours
 * (hk_lattice_colour, family by family, parity 0 first), then the list families' springs in one list, in the order of
 * the families and of each family's slots, sorted, stably, by colour: a spring takes the lowest colour in which
 * neither of its ends has a spring yet. No particle occurs twice in a regular colour, so a colour's springs can be
 * projected in any order and on any number of threads with the same bits; the list springs that found no free colour
 * make the last colour, projected in order on one thread. Built once per layout of the world (hk_constraints_of). */
typedef struct hk_constraints {
    int bodies, families, particles, coloured; /* what it was built for */
    int64_t count;                             /* springs [1] */
    int lattice_colours;                       /* 2 per lattice family */
    hk_lattice_colour *lc;
    hk_lattice_chains *chains; /* per family (none for a list family) */
    int colours;               /* list colours in use [1] */
    int serial;                /* 1: the last list colour is the serial one */
    int64_t *colour_start;     /* colours + 1 offsets: colour c is [colour_start[c], colour_start[c+1]) */
    /* a colour's springs come family by family: its runs [colour_run[c], colour_run[c+1]), run r the springs
     * [run_start[r], run_start[r+1]) of family run_fam[r] */
    int runs;
    int *colour_run, *run_fam;
    int64_t *run_start;
    int *a, *b;    /* each list spring's global ends */
    int64_t *slot; /* its slot in the family (hk_spring_delta: the list's index) */
    /* u: the force each spring has applied over its substep's sweeps, times h^2 [kg m] (xpbd.c), allocated at the
     * first substep of more than one sweep (hk_constraints_u): a lattice spring's at u_base[family] + its local source
     * node, list spring i's at u_list + i */
    hk_real *u[3];
    int64_t *u_base, u_list, u_count;
    hk_real *coef; /* per family: k h^2, c h along the spring, c h of the relative velocity [kg] (xpbd.c) */
} hk_constraints;

/* Colours of fewer springs than this run on one task of a team (the others wait at the colour's end). */
#define HK_COLOUR_SPLIT_MIN 2048

/* Task tm's share [*a, *b) of the n items (rows, or springs) of a colour of `springs` springs: all on task 0 for a
 * small colour, the serial one, or a lone task. */
static inline void hk_colour_share(const hk_team *tm, int64_t n, int64_t springs, int serial, int64_t *a, int64_t *b)
{
    if (serial || springs < HK_COLOUR_SPLIT_MIN || tm->T == 1) {
        *a = 0;
        *b = tm->t == 0 ? n : 0;
    } else {
        *a = n * tm->t / tm->T;
        *b = n * (tm->t + 1) / tm->T;
    }
}

/* Calls fn(ctx, family, slot, a, b) for every spring of w held here in one order: family by family, a lattice's by
 * source node (k, j, i), a list's by slot (as the reference path visits them); a, b its global ends. */
typedef void (*hk_spring_fn)(void *ctx, int fam, int64_t slot, int a, int b);
void hk_each_spring(const hk_world *w, hk_spring_fn fn, void *ctx);

/* w's constraints, built (or built again, after bodies, families, particles or the list families' colouring
 * changed) on the calling thread; NULL on a failure (hk_fail_memory: the world's error says why). */
hk_constraints *hk_constraints_of(hk_world *w);
/* c's u arrays, allocated on the first call; 0, or -1 (hk_fail_memory: the world's error says why). */
int hk_constraints_u(hk_world *w, hk_constraints *c);
/* Frees w's constraints (the world's end, or its storage cut over ranks). */
void hk_constraints_release(hk_world *w);
/* Whether the constraints obey their colouring (tests; check.h HK_VALIDATE): no particle twice in a regular colour,
 * every spring once (lattice colours and list colours alike). 0, or -1 with the broken rule in why. */
int hk_constraints_check(const hk_world *w, const hk_constraints *c, char *why, size_t len);

#endif
