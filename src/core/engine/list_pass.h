/* list_pass.h — listed springs of one colour, gathered from and scattered to the particle arrays (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_LIST_PASS_H
#define HOOKE_LIST_PASS_H

/* Included by kernels_isa.h after simd.h and spring_lanes.h. */

/* A family's constants, read once per range: the scatters store floats,
 * which could alias the family's own. */
typedef struct list_consts {
    hk_w k, c, L0;
    hk_damping_model model;
    hk_behaviour beh;
} list_consts;

static inline list_consts list_consts_of(const hk_family *f)
{
    list_consts K;
    K.k = w_set1(f->k);
    K.c = w_set1(f->c);
    K.L0 = w_set1(f->rest);
    K.model = f->params.damping_model;
    K.beh = f->params.behaviour;
    return K;
}

/* W springs with ends a[l], b[l] (broken bytes, rest lengths and rest
 * vectors D beside them, or NULL for none, the family's and 0): gather both
 * ends, compute, and add F to a[l] and subtract it from b[l] for the first
 * n lanes. No particle occurs twice among the lanes, so the scatters never
 * collide. */
static inline __attribute__((always_inline)) void list_lanes(const list_consts *K, hk_particles *p, const int32_t *a,
                                                             const int32_t *b, const uint8_t *broken,
                                                             const hk_real *rest, const hk_real *const rv[3], int n)
{
    const hk_w k = K->k, c = K->c;
    hk_wm live = wm_all();
    if (broken) live = wm_and(live, wm_unbroken(broken));
    hk_w dx = w_sub(w_gather(p->qx, a), w_gather(p->qx, b));
    hk_w dy = w_sub(w_gather(p->qy, a), w_gather(p->qy, b));
    hk_w dz = w_sub(w_gather(p->qz, a), w_gather(p->qz, b));
    if (rv) { /* a list in a lattice body: d = (q_a - q_b) - D */
        dx = w_sub(dx, w_loadu(rv[0]));
        dy = w_sub(dy, w_loadu(rv[1]));
        dz = w_sub(dz, w_loadu(rv[2]));
    }
    hk_w dvx = w_sub(w_gather(p->vx, a), w_gather(p->vx, b));
    hk_w dvy = w_sub(w_gather(p->vy, a), w_gather(p->vy, b));
    hk_w dvz = w_sub(w_gather(p->vz, a), w_gather(p->vz, b));
    const hk_w L0 = rest ? w_loadu(rest) : K->L0;
    hk_w fx, fy, fz;
    if (K->model == HK_DAMP_ALONG)
        spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, c, live, HK_DAMP_ALONG, K->beh, &fx, &fy, &fz);
    else
        spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, c, live, HK_DAMP_RELATIVE, K->beh, &fx, &fy, &fz);
    w_scattern(p->fx, a, w_add(w_gather(p->fx, a), fx), n);
    w_scattern(p->fy, a, w_add(w_gather(p->fy, a), fy), n);
    w_scattern(p->fz, a, w_add(w_gather(p->fz, a), fz), n);
    w_scattern(p->fx, b, w_sub(w_gather(p->fx, b), fx), n);
    w_scattern(p->fy, b, w_sub(w_gather(p->fy, b), fy), n);
    w_scattern(p->fz, b, w_sub(w_gather(p->fz, b), fz), n);
}

/* The last m < W springs from s of list family f as one vector: their ends,
 * broken bytes and rest lengths copied, the lanes past m padded with the
 * first spring's ends (valid to read, never written back). */
typedef struct list_tail {
    int32_t a[HK_W], b[HK_W];
    uint8_t broken[HK_W];
    hk_real rest[HK_W];
    hk_real rvec[3][HK_W];
    const hk_real *rv[3]; /* rvec's rows, when the family has rest vectors */
} list_tail;

static inline void list_tail_fill(const hk_family *f, int64_t s, int m, list_tail *t)
{
    for (int l = 0; l < HK_W; l++) {
        const int64_t q = l < m ? s + l : s;
        t->a[l] = f->a[q];
        t->b[l] = f->b[q];
        t->broken[l] = f->broken ? f->broken[q] : 0;
        t->rest[l] = f->rest_list ? f->rest_list[q] : f->rest;
        for (int c = 0; c < 3; c++) t->rvec[c][l] = f->rvec[0] ? f->rvec[c][q] : 0;
    }
    for (int c = 0; c < 3; c++) t->rv[c] = t->rvec[c];
}

/* The rest vectors of springs s.. of f, or NULL (rv: room for them) */
static inline const hk_real *const *list_rvec(const hk_family *f, int64_t s, const hk_real *rv[3])
{
    if (!f->rvec[0]) return NULL;
    for (int c = 0; c < 3; c++) rv[c] = f->rvec[c] + s;
    return rv;
}

/* List springs [s0, s1) of one colour (no particle twice). */
HK_SPRING_LOOP static void HK_SUFFIX(list_range)(const hk_family *f, hk_particles *p, int64_t s0, int64_t s1)
{
    const list_consts K = list_consts_of(f);
    int64_t s = s0;
    for (; s + HK_W <= s1; s += HK_W) {
        const hk_real *rv[3];
        list_lanes(&K, p, f->a + s, f->b + s, f->broken ? f->broken + s : NULL, f->rest_list ? f->rest_list + s : NULL,
                   list_rvec(f, s, rv), HK_W);
    }
    if (s < s1) {
        list_tail t;
        list_tail_fill(f, s, (int)(s1 - s), &t);
        list_lanes(&K, p, t.a, t.b, f->broken ? t.broken : NULL, f->rest_list ? t.rest : NULL, f->rvec[0] ? t.rv : NULL,
                   (int)(s1 - s));
    }
}

#endif
