/* vertices.h — each particle's springs, and a colouring of the particles in which no two neighbours share a colour. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VERTICES_H
#define HOOKE_VERTICES_H

#include "world.h"

/* Colours a particle can tell apart among its neighbours; a particle that finds none free goes to a last colour,
 * stepped on one task. */
#define HK_VERTEX_COLOURS 256

/* Every particle held here with its springs (in the order of hk_each_spring: constraints.h), and the particles in
 * colours: a particle takes the lowest colour none of its lower-numbered neighbours took, so no two particles of a
 * regular colour share a spring, and a colour's particles can be stepped in any order and on any number of threads
 * with the same bits. Built once per layout of the world (hk_vertex_graph_of). */
typedef struct hk_vertex_graph {
    int bodies, families, particles, coloured; /* what it was built for */
    int64_t springs;                           /* [1] */
    int *start;        /* particles + 1 offsets: particle i's springs are [start[i], start[i+1]) */
    int *other;        /* per entry: the spring's other end (global) */
    int *fam;          /* its family's index in w->families */
    int64_t *slot;     /* its slot in the family (spring_vec.h hk_spring_delta) */
    uint8_t *is_b;     /* 1: the particle is the spring's end b (its vector x_a - x_b points to it) */
    int colours;       /* [1] */
    int serial;        /* 1: the last colour is the serial one */
    int *colour_start; /* colours + 1 offsets into order */
    int *order;        /* every particle, colour by colour, ascending within a colour */
} hk_vertex_graph;

/* w's graph, built (or built again after bodies, families, particles or the list families' colouring changed) on
 * the calling thread; NULL on a failure (hk_fail_memory). */
hk_vertex_graph *hk_vertex_graph_of(hk_world *w);
/* Frees w's graph (the world's end, or its storage cut over ranks). */
void hk_vertex_graph_release(hk_world *w);
/* Whether the graph obeys its colouring (tests): no two particles of a regular colour joined by a spring, every
 * particle once, every spring at both its ends. 0, or -1 with the broken rule in why. */
int hk_vertex_graph_check(const hk_world *w, const hk_vertex_graph *g, char *why, size_t len);

#endif
