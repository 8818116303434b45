/* part.h — a world shared out over the processes of a distributed run: who computes which rows and bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PART_H
#define HOOKE_PART_H

#include "team.h"
#include "world.h"

/*
 * A distributed run (MPI ranks, src/cli/mpi_*.c) has each process, a rank,
 * hold and compute a part of the world (distributed storage):
 *   - a lattice body that the engine sweeps on its whole team (a pure
 *     lattice: no list springs, no surface forces, more work than a solo
 *     body, engine.c) is split into slabs of rows, rank r taking the rows
 *     [rows[r], rows[r + 1]). Like a thread's block (sweep.h), a slab
 *     recomputes the maxdr rows before it, so every node's force is summed
 *     in the order of the one-process sweep; it reads the positions and
 *     velocities of maxdr rows on each side, which their owners send before
 *     every force pass (the halo exchange, hk_part_ops). A rank holds its
 *     slab and those halo rows only (hk_body lo, count: its window), built
 *     there from the body's recipe (world.h), never whole;
 *   - every other body (lists, meshes, surfaces, points, solo lattices) is
 *     held and computed whole by one rank: a run of solo bodies is cut into
 *     one contiguous range of bodies per rank, other units go whole to the
 *     least loaded rank; the other ranks hold none of it (count 0);
 *   - a body that takes part in contact between bodies (hk_world_set_contact,
 *     core/contact/pairs.h: a pair joins particles anywhere in the bodies)
 *     goes whole, with its unit, to rank 0, which alone finds, sums and
 *     sweeps the pairs.
 * The shares are balanced by work (particles + springs; a slab's rows by
 * their nodes and the springs whose source is in them). Which rank computes
 * a particle never changes its bits, so a distributed run ends in the
 * single-process state. Whatever reads the whole state reads it where it
 * lies: sums and scans relayed from rank to rank in the global order of the
 * particles (hk_part_relay), so they keep the one-process order, and other
 * figures reduced over the ranks.
 *
 * Every rank keeps every body's and family's description (its index, kind,
 * lattice, springs' count over the ranks); particles are numbered twice:
 * a storage index into this rank's arrays (hk_body first), and a global
 * index, their place in the whole world (hk_body gfirst).
 *
 * This file decides the shares and the messages; it calls no MPI. The
 * caller supplies the exchange as hk_part_ops.
 */

/* One message of a halo exchange: particles [first, first + count) of the
 * world (or entries of another array that rows index), sent to or received from rank `peer`. */
typedef struct hk_halo_msg {
    int peer, send;
    int64_t first, count;
    int64_t key; /* where the entries lie in the whole (the global index of particle arrays): the same for the
                    sender's message and the receiver's, whose `first` differ (each its own storage) */
} hk_halo_msg;

/* What a reduction does with each element (hk_part_ops.reduce). */
typedef enum hk_reduce_op {
    HK_REDUCE_MIN_I64, /* int64_t: the least over the ranks */
    HK_REDUCE_MAX_I64, /* int64_t: the largest */
    HK_REDUCE_SUM_I64, /* int64_t: the sum (exact in any order) */
    HK_REDUCE_MAX_F64, /* double: the largest (NaN: as C's fmax leaves it, never chosen over a number) */
    HK_REDUCE_MIN_F64, /* double: the least (NaN: as C's fmin leaves it) */
} hk_reduce_op;

/* The exchange, supplied by the distributed layer. halo_start and
 * halo_finish are called by one thread (the thread that initialised MPI),
 * around the part of a sweep that needs no remote row; any by every rank. */
typedef struct hk_part_ops {
    /* starts sending this rank's rows that others read, and receiving the
     * rows it reads, of split body `body` (its positions and velocities) */
    void (*halo_start)(void *ctx, const hk_world *w, int body);
    /* waits for every message hk_part_ops.halo_start started */
    void (*halo_finish)(void *ctx, const hk_world *w, int body);
    /* 1 if flag is non-zero on any rank, else 0 (every rank calls it) */
    int (*any)(void *ctx, int flag);
    /* sends and receives the nmsg messages msg of each of the n arrays a,
     * start to finish (a message's first and count index the arrays; every
     * rank calls it, with messages or not) */
    void (*exchange)(void *ctx, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n);
    /* v = the sum over the ranks of v, n reals, or n doubles in sum_doubles
     * (every rank calls it; hk_part_share says how it is used) */
    void (*sum_reals)(void *ctx, hk_real *v, int64_t n);
    void (*sum_doubles)(void *ctx, double *v, int64_t n);
    /* n elements of v combined over the ranks by op, the result on every rank (every rank calls it) */
    void (*reduce)(void *ctx, void *v, int n, hk_reduce_op op);
    /* rank root's `bytes` of buf on every rank (every rank calls it) */
    void (*bcast)(void *ctx, void *buf, size_t bytes, int root);
    /* a message of `bytes` to rank peer (buf may be reused once it returns), and the next message from rank peer
     * into buf (it waits for it); messages between two ranks arrive in the order they were sent */
    void (*send)(void *ctx, int peer, const void *buf, size_t bytes);
    void (*recv)(void *ctx, int peer, void *buf, size_t bytes);
} hk_part_ops;

typedef struct hk_part_body {
    int owner;        /* the rank that holds and computes the whole body; -1: split into slabs */
    int nodes;        /* split one-row body (a rope): rows and halo count nodes, not rows */
    int *rows;        /* split: ranks + 1 bounds, rank r's rows [rows[r], rows[r + 1]) */
    int halo;         /* split: rows read on each side of a slab (the body's maxdr) */
    hk_halo_msg *msg; /* split: this rank's messages of one exchange */
    int nmsg;
} hk_part_body;

/* A unit of the engine's pass as the shares were cut from it (engine.h hk_unit_view): the engine keeps these
 * units once the bodies another rank holds have no springs here. */
typedef struct hk_part_unit {
    int first, end;
    int kind; /* engine.c's unit kind */
} hk_part_unit;

struct hk_part {
    int rank, ranks;
    int body_count; /* the bodies it was made for */
    hk_part_body *body;
    /* rank r's particles as global indices: [span[r][2 s], span[r][2 s + 1]) for s < nspan[r], ascending */
    int **span;
    int *nspan;
    /* this rank's particles as storage indices, ascending: [mine[2 s], mine[2 s + 1]) for s < nmine */
    int *mine;
    int nmine;
    int64_t *work;      /* each rank's share of the work (particles + springs, slabs' halos not counted) */
    hk_part_unit *unit; /* the engine's units the shares were cut from */
    int unit_count;
    const hk_part_ops *ops;
    void *ctx;
};

void hk_part_free(struct hk_part *pt);
/* Whether pt is a share of w as the engine and the solver rely on it
 * (check.h HK_VALIDATE): every particle computed by exactly one rank, each
 * rank's spans ascending, every split body's slabs covering its rows in
 * order. 0, or -1 with the broken rule in why. */
int hk_part_check(const hk_world *w, const struct hk_part *pt, char *why, size_t len);

/* The particles this process computes, as [first, end) pairs of storage
 * indices in spans[2 s], spans[2 s + 1]: w's share, or every particle when
 * w is not distributed (one pair, written to one[]). Returns the number of
 * pairs. */
int hk_world_spans(const hk_world *w, int one[2], const int **spans);

/* Piece i of task tm's share of the particles this process computes: its
 * share [*g0, *g1) of the i-th span (hk_team_range); 0 past the last.
 * Loop: for (int i = 0; hk_team_piece(tm, w, i, &a, &e); i++). */
int hk_team_piece(const hk_team *tm, const hk_world *w, int i, int *g0, int *g1);
/* A per-particle pass: fn(ctx, g0, g1) over the pieces of every task of the
 * world's team (one task up to HK_PARALLEL_MIN particles; team.h), which
 * cover the particles this process computes once. Each particle's update
 * must be its own (no sums across particles): the bits do not depend on
 * the pieces. */
typedef void (*hk_span_fn)(void *ctx, int g0, int g1);
void hk_team_spans(const hk_world *w, hk_span_fn fn, void *ctx);

/* Split body b's rows that this rank owns, [*lo, *hi), and the rows its
 * slab reads on each side (*halo, unless NULL); 0 if b is not split into
 * slabs of rows (computed whole by one rank, split into nodes, or the
 * world is not distributed). */
int hk_part_rows(const hk_world *w, int b, int *lo, int *hi, int *halo);
/* The same for a one-row body split into ranges of nodes (a rope):
 * this rank's nodes [*lo, *hi) and the nodes read on each side. */
int hk_part_nodes(const hk_world *w, int b, int *lo, int *hi, int *halo);
/* Whether this rank computes body b (whole, or a slab of it); 1 when w is
 * not distributed. */
int hk_part_computes(const hk_world *w, int b);

/* Exchanges the halo rows of every split body, start to finish (outside a
 * parallel region): after it, every row a slab reads is current. */
void hk_part_exchange(const hk_world *w);
/* flag on any rank (every rank calls it); flag itself when w is not distributed. */
int hk_part_any(const hk_world *w, int flag);

/* The halo rows of every split body in the n particle arrays a (as
 * hk_part_exchange does the positions and velocities); nothing when w is
 * not distributed. */
void hk_part_exchange_arrays(const hk_world *w, hk_real *const *a, int n);
/* The same for an array of doubles indexed by storage (figures of a frame: the halo's as their owners have them). */
void hk_part_exchange_doubles(const hk_world *w, double *a);
/* The messages msg of the n arrays a, start to finish, on every rank
 * (hk_part_ops.exchange); nothing when w is not distributed. */
void hk_part_exchange_messages(const hk_world *w, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n);
/* This rank's messages of a halo of h rows beside each rank's rows of a
 * row-major array of `stride` values per row: rank r holds the rows
 * [rows[r], rows[r + 1]) (ascending, contiguous); row 0 is at this rank's
 * index `first` (its storage) and at `key` in the whole (the same on every
 * rank). The messages are written to msg (room for 2 x ranks); returns
 * their number. */
int hk_part_plan_halo(const struct hk_part *pt, const int *rows, int h, int64_t first, int64_t key, int64_t stride,
                      hk_halo_msg *msg);
/* Shares values that exactly one rank computes: every rank holds -0 in
 * the entries it does not compute, and after the call every rank holds, in
 * every entry, the value of the rank that computed it. A sum over the ranks
 * does it bit for bit in any order, because x + (-0) = x for every x
 * (signed zeros and NaN included). Nothing when w is not distributed. */
void hk_part_share_reals(const hk_world *w, hk_real *v, int64_t n);
void hk_part_share_doubles(const hk_world *w, double *v, int64_t n);

/* Body-local particles [*l0, *l1) of body b that this rank computes (its slab, its range of a rope's nodes, or the
 * whole body); 0 when it computes none of it. In one process: the whole body. */
int hk_part_owned(const hk_world *w, int b, int64_t *l0, int64_t *l1);
/* The same for rank r (every rank knows every rank's share). */
int hk_part_owned_by(const hk_world *w, int r, int b, int64_t *l0, int64_t *l1);

/* Body-local particles [*l0, *l1) of body b that this rank holds: the particles it computes and, of a split body,
 * the halo rows on both sides that its passes read; 0 when it holds none of it. */
int hk_part_held(const hk_world *w, int b, int64_t *l0, int64_t *l1);

/* A relay: fn(ctx, state, b, l0, l1) over the pieces of the bodies this rank computes, the body-local particles
 * [l0, l1) of body b, in the global order of the particles (the bodies in order, a split body's slabs in rank
 * order), the state of `bytes` carried from each piece's rank to the next piece's. A sequential scan (a sum in
 * order, a hash) so gives the bits it gives in one process. At the end every rank holds the last piece's state.
 * Every rank calls it; in one process it is fn over every body. families: the pieces of each family's body
 * (family by family: b is then the family, f->body's share), instead of the bodies'. */
typedef void (*hk_relay_fn)(void *ctx, void *state, int b, int64_t l0, int64_t l1);
void hk_part_relay(const hk_world *w, int families, void *state, size_t bytes, hk_relay_fn fn, void *ctx);
/* A funnel: the pieces of the bodies this world's ranks compute (of each family's body: families), brought to rank
 * 0 one at a time in the global order of the particles (as hk_part_relay visits them): on the rank that computes
 * piece [l0, l1) of item k, pack(ctx, k, l0, l1, buf) fills size(ctx, k, l0, l1) bytes; on rank 0, put(ctx, k,
 * l0, l1, buf) takes them. Rank 0 holds one piece at a time; every message is at most one rank's share of a body.
 * Every rank calls it; in one process it is pack, then put, over every body. 0, or -1 out of memory (on any rank:
 * every rank's verdict; rank 0 has then taken what came). */
typedef size_t (*hk_funnel_size)(void *ctx, int k, int64_t l0, int64_t l1);
typedef void (*hk_funnel_fn)(void *ctx, int k, int64_t l0, int64_t l1, void *buf);
int hk_part_funnel(const hk_world *w, int families, hk_funnel_size size, hk_funnel_fn pack, hk_funnel_fn put,
                   void *ctx);
/* n elements of v combined over the ranks by op (every rank calls it); nothing when w is not distributed. */
void hk_part_reduce(const hk_world *w, void *v, int n, hk_reduce_op op);
/* Rank root's bytes of buf on every rank (every rank calls it); nothing when w is not distributed. */
void hk_part_bcast(const hk_world *w, void *buf, size_t bytes, int root);
/* The rank that computes global particle g (0 when w is not distributed). */
int hk_part_rank_of(const hk_world *w, int64_t g);

/* Rows of body b that a slab of an implicit run starts on a multiple of:
 * whole rows of the multigrid's second coarse level (an aggregate of
 * aggregates: 4 rows of a planar lattice, 4 planes of a solid one), enough
 * of them for one block of the solver's sums (HK_PART_BLOCK particles),
 * whose blocks start afresh at every unit, so that neither an
 * aggregate of the two levels a rank computes its part of nor a block
 * straddles two ranks. A body that is not a lattice of rows is one unit. */
int hk_part_unit_rows(const hk_body *b);
/* Particles a unit of rows holds at least: one block of the implicit
 * solver's sums (implicit/system.h sets its HK_SYS_BLOCK to this). */
#define HK_PART_BLOCK 2048

#endif
