/* hk_own_ops.h — a rank's exchange that reaches no other rank: one rank's share of a world made in one process, for
 * what needs only its own particles (a checkpoint's piece: the writer asks only hk_part_any). */
/* SPDX-License-Identifier: MIT */
#ifndef HK_OWN_OPS_H
#define HK_OWN_OPS_H

#include "part.h"

static void hk_own_halo(void *ctx, const hk_world *w, int body) { (void)ctx, (void)w, (void)body; }
static int hk_own_any(void *ctx, int flag) { return (void)ctx, flag != 0; }
static void hk_own_exchange(void *ctx, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n)
{
    (void)ctx, (void)msg, (void)nmsg, (void)a, (void)n;
}
static void hk_own_sum_reals(void *ctx, hk_real *v, int64_t n) { (void)ctx, (void)v, (void)n; }
static void hk_own_sum_doubles(void *ctx, double *v, int64_t n) { (void)ctx, (void)v, (void)n; }
static void hk_own_reduce(void *ctx, void *v, int n, hk_reduce_op op) { (void)ctx, (void)v, (void)n, (void)op; }
static void hk_own_bcast(void *ctx, void *buf, size_t bytes, int root)
{
    (void)ctx, (void)buf, (void)bytes, (void)root;
}
static void hk_own_send(void *ctx, int peer, const void *buf, size_t bytes)
{
    (void)ctx, (void)peer, (void)buf, (void)bytes;
}
static void hk_own_recv(void *ctx, int peer, void *buf, size_t bytes) { (void)ctx, (void)peer, (void)buf, (void)bytes; }
static const hk_part_ops hk_own_ops = {hk_own_halo,      hk_own_halo,        hk_own_any,    hk_own_exchange,
                                       hk_own_sum_reals, hk_own_sum_doubles, hk_own_reduce, hk_own_bcast,
                                       hk_own_send,      hk_own_recv};

#endif
