/* jacobian_pass.h — the implicit solver's spring passes over lattice rows and coloured lists (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_JACOBIAN_PASS_H
#define HOOKE_JACOBIAN_PASS_H

/* Included by kernels_isa.h after simd.h, jacobian_lanes.h and list_pass.h.
 * Each pass evaluates the stiffness blocks S of jacobian_lanes.h from the
 * current positions (nothing is stored between products), on lattices over
 * unit-stride runs of source nodes, on lists over springs of one colour. */

/* A family's constants for S = sK K + sD D. */
typedef struct jac_consts {
    hk_w L0, k, c_rel, c_along, sK, sD;
} jac_consts;

static inline jac_consts jac_consts_of(const hk_family *f, hk_real sK, hk_real sD)
{
    jac_consts J;
    const hk_real c = f->c;
    J.L0 = w_set1(f->rest);
    J.k = w_set1(f->k);
    J.c_rel = w_set1(f->params.damping_model == HK_DAMP_RELATIVE ? c : 0);
    J.c_along = w_set1(f->params.damping_model == HK_DAMP_ALONG ? c : 0);
    J.sK = w_set1(sK);
    J.sD = w_set1(sD);
    return J;
}

/* S of the n (<= W) lattice springs from global sources a .. a + n - 1 to
 * a + off .. (local source index l for the broken bytes, which have a
 * vector's room past the end); lanes past n are dead. */
static inline __attribute__((always_inline)) hk_stiffness jac_lattice_lanes(const jac_consts *J, const hk_family *f,
                                                                            const hk_particles *p, int64_t a, int64_t l,
                                                                            int n, hk_behaviour beh)
{
    const int64_t b = a + f->offset;
    hk_wm live = wm_all();
    if (f->broken) live = wm_and(live, wm_unbroken(f->broken + l));
    /* d = (q_a - q_b) - D, as the force pass forms it (row_family.h) */
    hk_w dx = w_sub(w_sub(w_load_lanes(p->qx + a, n), w_load_lanes(p->qx + b, n)), w_set1(f->rest_vec[0]));
    hk_w dy = w_sub(w_sub(w_load_lanes(p->qy + a, n), w_load_lanes(p->qy + b, n)), w_set1(f->rest_vec[1]));
    hk_w dz = w_sub(w_sub(w_load_lanes(p->qz + a, n), w_load_lanes(p->qz + b, n)), w_set1(f->rest_vec[2]));
    return stiffness_lanes(dx, dy, dz, J->L0, J->k, J->c_rel, J->c_along, J->sK, J->sD, live, beh);
}

/* One spring behaviour as a compile-time constant: STMT runs with BEH
 * bound to the value of beh (a run-time behaviour inside the loops costs
 * the lattice product 1.7 times its time). */
#define JAC_BEHAVIOUR(beh, STMT)                                                                                       \
    do {                                                                                                               \
        switch (beh) {                                                                                                 \
        case HK_SPRING_TENSION_ONLY: {                                                                                 \
            const hk_behaviour BEH = HK_SPRING_TENSION_ONLY;                                                           \
            STMT;                                                                                                      \
        } break;                                                                                                       \
        case HK_SPRING_COMPRESSION_ONLY: {                                                                             \
            const hk_behaviour BEH = HK_SPRING_COMPRESSION_ONLY;                                                       \
            STMT;                                                                                                      \
        } break;                                                                                                       \
        default: { /* normal and breakable: the broken bytes decide */ const hk_behaviour BEH = HK_SPRING_NORMAL;      \
                   STMT;                                                                                               \
        } break;                                                                                                       \
        }                                                                                                              \
    } while (0)

/* t[c][l - tbase] = S_l (y_a - y_b) for the sources l in [local0, local0 +
 * n) of lattice family f (one row of its box). */
static inline __attribute__((always_inline)) void jac_lattice_row(const hk_family *f, const hk_particles *p, hk_real sK,
                                                                  hk_real sD, hk_real *const y[3], hk_real *const t[3],
                                                                  int64_t tbase, int64_t local0, int n,
                                                                  hk_behaviour beh)
{
    const jac_consts J = jac_consts_of(f, sK, sD);
    const hk_real *const yx = y[0], *const yy = y[1], *const yz = y[2];
    hk_real *const tx = t[0], *const ty = t[1], *const tz = t[2];
    const int64_t off = f->offset;
    for (int i = 0; i < n; i += HK_W) {
        const int m = n - i < HK_W ? n - i : HK_W;
        const int64_t l = local0 + i, a = f->base + l, b = a + off;
        hk_stiffness s = jac_lattice_lanes(&J, f, p, a, l, m, beh);
        hk_w ox, oy, oz;
        stiffness_apply(&s, w_sub(w_load_lanes(yx + a, m), w_load_lanes(yx + b, m)),
                        w_sub(w_load_lanes(yy + a, m), w_load_lanes(yy + b, m)),
                        w_sub(w_load_lanes(yz + a, m), w_load_lanes(yz + b, m)), &ox, &oy, &oz);
        w_store_lanes(tx + (l - tbase), ox, m);
        w_store_lanes(ty + (l - tbase), oy, m);
        w_store_lanes(tz + (l - tbase), oz, m);
    }
}

HK_SPRING_LOOP static void HK_SUFFIX(jacobian_lattice)(const hk_family *f, const hk_particles *p, hk_real sK,
                                                       hk_real sD, hk_real *const y[3], hk_real *const t[3],
                                                       int64_t tbase, int64_t local0, int n)
{
    JAC_BEHAVIOUR(f->params.behaviour, jac_lattice_row(f, p, sK, sD, y, t, tbase, local0, n, BEH));
}

/* blk[e][l] = entry e of S_l for the sources l in [local0, local0 + n). */
static inline __attribute__((always_inline)) void jac_lattice_blocks_row(const hk_family *f, const hk_particles *p,
                                                                         hk_real sK, hk_real sD, hk_real *const blk[6],
                                                                         int64_t local0, int n, hk_behaviour beh)
{
    const jac_consts J = jac_consts_of(f, sK, sD);
    for (int i = 0; i < n; i += HK_W) {
        const int m = n - i < HK_W ? n - i : HK_W;
        const int64_t l = local0 + i;
        hk_stiffness s = jac_lattice_lanes(&J, f, p, f->base + l, l, m, beh);
        hk_w e[6];
        stiffness_block(&s, e);
        for (int c = 0; c < 6; c++) w_store_lanes(blk[c] + l, e[c], m);
    }
}

HK_SPRING_LOOP static void HK_SUFFIX(jacobian_lattice_blocks)(const hk_family *f, const hk_particles *p, hk_real sK,
                                                              hk_real sD, hk_real *const blk[6], int64_t local0, int n)
{
    JAC_BEHAVIOUR(f->params.behaviour, jac_lattice_blocks_row(f, p, sK, sD, blk, local0, n, BEH));
}

/* The first n lanes from local node l: the mass term, then each view's
 * source and target terms in view order (the order every ISA keeps). */
static inline __attribute__((always_inline)) void jac_gather_lanes(const hk_real *m, const hk_real *const y[3],
                                                                   hk_real *const out[3], const hk_jac_view *v,
                                                                   int nview, int64_t l, int n, int mass)
{
    hk_w acc[3];
    const hk_w ml = mass ? w_load_lanes(m + l, n) : w_set1(0);
    for (int c = 0; c < 3; c++) acc[c] = mass ? w_mul(ml, w_load_lanes(y[c] + l, n)) : ml;
    for (int q = 0; q < nview; q++)
        for (int c = 0; c < 3; c++) {
            acc[c] = w_add(acc[c], w_load_lanes(v[q].t[c] + l, n));
            acc[c] = w_sub(acc[c], w_load_lanes(v[q].t[c] + l - v[q].offset, n));
        }
    for (int c = 0; c < 3; c++) w_store_lanes(out[c] + l, acc[c], n);
}

static void HK_SUFFIX(jacobian_gather)(const hk_real *m, const hk_real *const y[3], hk_real *const out[3],
                                       const hk_jac_view *v, int nview, int64_t l0, int n, int mass)
{
    int i = 0;
    for (; i + HK_W <= n; i += HK_W) jac_gather_lanes(m, y, out, v, nview, l0 + i, HK_W, mass);
    if (i < n) jac_gather_lanes(m, y, out, v, nview, l0 + i, n - i, mass);
}

/* S of W list springs with ends a[l], b[l] (broken bytes, rest lengths and
 * rest vectors beside them, or NULL for none, the family's and 0). */
static inline __attribute__((always_inline)) hk_stiffness jac_list_lanes(const jac_consts *J, const hk_particles *p,
                                                                         const int32_t *a, const int32_t *b,
                                                                         const uint8_t *broken, const hk_real *rest,
                                                                         const hk_real *const rv[3], hk_behaviour beh)
{
    hk_wm live = wm_all();
    if (broken) live = wm_and(live, wm_unbroken(broken));
    hk_w dx = w_sub(w_gather(p->qx, a), w_gather(p->qx, b));
    hk_w dy = w_sub(w_gather(p->qy, a), w_gather(p->qy, b));
    hk_w dz = w_sub(w_gather(p->qz, a), w_gather(p->qz, b));
    if (rv) {
        dx = w_sub(dx, w_loadu(rv[0]));
        dy = w_sub(dy, w_loadu(rv[1]));
        dz = w_sub(dz, w_loadu(rv[2]));
    }
    const hk_w L0 = rest ? w_loadu(rest) : J->L0;
    return stiffness_lanes(dx, dy, dz, L0, J->k, J->c_rel, J->c_along, J->sK, J->sD, live, beh);
}

/* out[a] += S (y_a - y_b), out[b] -= S (y_a - y_b) for the first n of W
 * list springs, none sharing a particle. */
static inline __attribute__((always_inline)) void jac_list_apply(const jac_consts *J, const hk_particles *p,
                                                                 hk_real *const y[3], hk_real *const out[3],
                                                                 const int32_t *a, const int32_t *b,
                                                                 const uint8_t *broken, const hk_real *rest,
                                                                 const hk_real *const rv[3], int n, hk_behaviour beh)
{
    hk_stiffness s = jac_list_lanes(J, p, a, b, broken, rest, rv, beh);
    hk_w t[3];
    stiffness_apply(&s, w_sub(w_gather(y[0], a), w_gather(y[0], b)), w_sub(w_gather(y[1], a), w_gather(y[1], b)),
                    w_sub(w_gather(y[2], a), w_gather(y[2], b)), &t[0], &t[1], &t[2]);
    for (int c = 0; c < 3; c++) {
        w_scattern(out[c], a, w_add(w_gather(out[c], a), t[c]), n);
        w_scattern(out[c], b, w_sub(w_gather(out[c], b), t[c]), n);
    }
}

/* The same for list springs [s0, s1) of family f, all of one colour. */
static inline __attribute__((always_inline)) void jac_list_range(const hk_family *f, const hk_particles *p, hk_real sK,
                                                                 hk_real sD, hk_real *const y[3], hk_real *const out[3],
                                                                 int64_t s0, int64_t s1, hk_behaviour beh)
{
    const jac_consts J = jac_consts_of(f, sK, sD);
    int64_t s = s0;
    for (; s + HK_W <= s1; s += HK_W) {
        const hk_real *rv[3];
        jac_list_apply(&J, p, y, out, f->a + s, f->b + s, f->broken ? f->broken + s : NULL,
                       f->rest_list ? f->rest_list + s : NULL, list_rvec(f, s, rv), HK_W, beh);
    }
    if (s < s1) {
        list_tail t;
        list_tail_fill(f, s, (int)(s1 - s), &t);
        jac_list_apply(&J, p, y, out, t.a, t.b, f->broken ? t.broken : NULL, f->rest_list ? t.rest : NULL,
                       f->rvec[0] ? t.rv : NULL, (int)(s1 - s), beh);
    }
}

HK_SPRING_LOOP static void HK_SUFFIX(jacobian_list)(const hk_family *f, const hk_particles *p, hk_real sK, hk_real sD,
                                                    hk_real *const y[3], hk_real *const out[3], int64_t s0, int64_t s1)
{
    JAC_BEHAVIOUR(f->params.behaviour, jac_list_range(f, p, sK, sD, y, out, s0, s1, BEH));
}

static inline __attribute__((always_inline)) void
jac_list_block(const jac_consts *J, const hk_particles *p, hk_real *const blk[6], const int32_t *a, const int32_t *b,
               const uint8_t *broken, const hk_real *rest, const hk_real *const rv[3], int n, hk_behaviour beh)
{
    hk_stiffness s = jac_list_lanes(J, p, a, b, broken, rest, rv, beh);
    hk_w e[6];
    stiffness_block(&s, e);
    for (int c = 0; c < 6; c++) {
        w_scattern(blk[c], a, w_add(w_gather(blk[c], a), e[c]), n);
        w_scattern(blk[c], b, w_add(w_gather(blk[c], b), e[c]), n);
    }
}

/* blk[e][a] += entry e of S and blk[e][b] += the same, for list springs
 * [s0, s1) of family f, all of one colour (blk indexed by particle). */
static inline __attribute__((always_inline)) void jac_list_blocks_range(const hk_family *f, const hk_particles *p,
                                                                        hk_real sK, hk_real sD, hk_real *const blk[6],
                                                                        int64_t s0, int64_t s1, hk_behaviour beh)
{
    const jac_consts J = jac_consts_of(f, sK, sD);
    int64_t s = s0;
    for (; s + HK_W <= s1; s += HK_W) {
        const hk_real *rv[3];
        jac_list_block(&J, p, blk, f->a + s, f->b + s, f->broken ? f->broken + s : NULL,
                       f->rest_list ? f->rest_list + s : NULL, list_rvec(f, s, rv), HK_W, beh);
    }
    if (s < s1) {
        list_tail t;
        list_tail_fill(f, s, (int)(s1 - s), &t);
        jac_list_block(&J, p, blk, t.a, t.b, f->broken ? t.broken : NULL, f->rest_list ? t.rest : NULL,
                       f->rvec[0] ? t.rv : NULL, (int)(s1 - s), beh);
    }
}

HK_SPRING_LOOP static void HK_SUFFIX(jacobian_list_blocks)(const hk_family *f, const hk_particles *p, hk_real sK,
                                                           hk_real sD, hk_real *const blk[6], int64_t s0, int64_t s1)
{
    JAC_BEHAVIOUR(f->params.behaviour, jac_list_blocks_range(f, p, sK, sD, blk, s0, s1, BEH));
}

#endif
