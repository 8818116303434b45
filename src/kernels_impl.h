/* kernels_impl.h — the spring, force and integration kernels, written once over simd.h and compiled per ISA. */
#ifndef HOOKE_KERNELS_IMPL_H
#define HOOKE_KERNELS_IMPL_H

#include "kernels.h"
#include "simd.h"
#include "springs.h"

/* The arithmetic of every lane, in this order (it is the order of
 * hk_spring_force in springs.h, so a lane's F equals the reference's bits):
 *   d = x_a - x_b, r2 = (dx dx + dy dy) + dz dz, r = sqrt(r2), e = r - L0,
 *   u = d * (1 / r),
 *   along:    s = -(k e + c (dv . u)),  F = s u
 *   relative: s = (-k) e,               F = s u - c dv
 * Lanes with r = 0, a broken spring, or a slack one under its behaviour
 * give F = 0. */
static inline void spring_lanes(hk_w dx, hk_w dy, hk_w dz, hk_w dvx, hk_w dvy, hk_w dvz, hk_w L0, hk_w k, hk_w negk,
                                hk_w c, hk_wm live, hk_damping_model model, hk_behaviour behaviour, hk_w *fx, hk_w *fy,
                                hk_w *fz)
{
    const hk_w zero = w_set1(0);
    hk_w r2 = w_add(w_add(w_mul(dx, dx), w_mul(dy, dy)), w_mul(dz, dz));
    live = wm_and(live, w_neq(r2, zero));
    hk_w r = w_sqrt(r2);
    hk_w e = w_sub(r, L0);
    if (behaviour == HK_SPRING_TENSION_ONLY) live = wm_and(live, w_gt(e, zero));
    if (behaviour == HK_SPRING_COMPRESSION_ONLY) live = wm_and(live, w_lt(e, zero));
    hk_w inv_r = w_div(w_set1(1), r);
    hk_w ux = w_mul(dx, inv_r), uy = w_mul(dy, inv_r), uz = w_mul(dz, inv_r);
    if (model == HK_DAMP_ALONG) {
        hk_w dot = w_add(w_add(w_mul(dvx, ux), w_mul(dvy, uy)), w_mul(dvz, uz));
        hk_w s = w_sub(w_mul(negk, e), w_mul(c, dot)); /* == -(k e + c dot) exactly */
        *fx = w_keep(live, w_mul(s, ux));
        *fy = w_keep(live, w_mul(s, uy));
        *fz = w_keep(live, w_mul(s, uz));
    } else {
        hk_w s = w_mul(negk, e);
        *fx = w_keep(live, w_sub(w_mul(s, ux), w_mul(c, dvx)));
        *fy = w_keep(live, w_sub(w_mul(s, uy), w_mul(c, dvy)));
        *fz = w_keep(live, w_sub(w_mul(s, uz), w_mul(c, dvz)));
    }
    (void)k;
}

static inline hk_wm all_lanes(void) { return w_neq(w_set1(0), w_set1(1)); }

/* One family's springs from the source vector (xa..wa at i) to its targets. */
static inline __attribute__((always_inline)) void family_lanes(const hk_family *f, const hk_real *const src[6],
                                                               int64_t local0, int i, hk_w iota, const hk_w a[6],
                                                               hk_w *fx, hk_w *fy, hk_w *fz)
{
    hk_wm live;
    if (i >= f->i0 && i + HK_W <= f->i1) {
        live = all_lanes();
    } else {
        hk_w idx = w_add(w_set1((hk_real)i), iota);
        live = wm_and(w_ge(idx, w_set1((hk_real)f->i0)), w_lt(idx, w_set1((hk_real)f->i1)));
    }
    if (f->broken) live = wm_and(live, wm_unbroken(f->broken + local0 + i));
    const int64_t o = f->offset + i;
    hk_w dx = w_sub(a[0], w_loadu(src[0] + o)), dy = w_sub(a[1], w_loadu(src[1] + o));
    hk_w dz = w_sub(a[2], w_loadu(src[2] + o));
    hk_w dvx = w_sub(a[3], w_loadu(src[3] + o)), dvy = w_sub(a[4], w_loadu(src[4] + o));
    hk_w dvz = w_sub(a[5], w_loadu(src[5] + o));
    const hk_w L0 = w_set1(f->rest), k = w_set1(f->k), negk = w_set1(-f->k), c = w_set1(f->c);
    if (f->params.damping_model == HK_DAMP_ALONG)
        spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, negk, c, live, HK_DAMP_ALONG, f->params.behaviour, fx, fy, fz);
    else
        spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, negk, c, live, HK_DAMP_RELATIVE, f->params.behaviour, fx, fy,
                     fz);
}

static void HK_SUFFIX(lattice_row)(const hk_particles *p, int64_t row0, int64_t local0, int nx_pad,
                                   const hk_row_family *fams, int nfam, hk_real *const acc_src[3], hk_real *buf,
                                   int bstride)
{
    const int M = HK_ROW_MARGIN;
    const hk_real *const src[6] = {p->x + row0, p->y + row0, p->z + row0, p->vx + row0, p->vy + row0, p->vz + row0};
    hk_real lane[HK_W] __attribute__((aligned(64)));
    for (int l = 0; l < HK_W; l++) lane[l] = (hk_real)l;
    const hk_w iota = w_loadu(lane), zero = w_set1(0);
    for (int i = 0; i < nx_pad; i += HK_W) {
        const hk_w a[6] = {w_loadu(src[0] + i), w_loadu(src[1] + i), w_loadu(src[2] + i),
                           w_loadu(src[3] + i), w_loadu(src[4] + i), w_loadu(src[5] + i)};
        hk_w tx = zero, ty = zero, tz = zero;
        hk_real *same = buf;
        for (int q = 0; q < nfam; q++) {
            const hk_family *f = fams[q].f;
            hk_w fx, fy, fz;
            family_lanes(f, src, local0, i, iota, a, &fx, &fy, &fz);
            tx = w_add(tx, fx);
            ty = w_add(ty, fy);
            tz = w_add(tz, fz);
            if (fams[q].dr == 0) { /* same row: subtracted after the row, from buf */
                w_store(same + M + i, fx);
                w_store(same + bstride + M + i, fy);
                w_store(same + 2 * bstride + M + i, fz);
                same += 3 * bstride;
            } else { /* a row ahead: no later load of this row overlaps the store */
                hk_real *dx = fams[q].dst[0] + i + f->di, *dy = fams[q].dst[1] + i + f->di,
                        *dz = fams[q].dst[2] + i + f->di;
                w_storeu(dx, w_sub(w_loadu(dx), fx));
                w_storeu(dy, w_sub(w_loadu(dy), fy));
                w_storeu(dz, w_sub(w_loadu(dz), fz));
            }
        }
        w_store(acc_src[0] + i, w_add(w_load(acc_src[0] + i), tx));
        w_store(acc_src[1] + i, w_add(w_load(acc_src[1] + i), ty));
        w_store(acc_src[2] + i, w_add(w_load(acc_src[2] + i), tz));
    }
    hk_real *same = buf;
    for (int q = 0; q < nfam; q++) {
        if (fams[q].dr != 0) continue;
        const int di = fams[q].f->di;
        for (int c = 0; c < 3; c++) {
            const hk_real *b = same + c * bstride + M - di;
            hk_real *acc = acc_src[c];
            /* entries of buf outside [0, nx_pad) are kept zero by the caller */
            for (int i = 0; i < nx_pad; i += HK_W) w_store(acc + i, w_sub(w_load(acc + i), w_loadu(b + i)));
        }
        same += 3 * bstride;
    }
}

/* List springs of one colour: gather both ends, compute, and add back. No
 * particle occurs twice in [s0, s1), so the lanes' scatters never collide. */
static void HK_SUFFIX(list_range)(const hk_family *f, hk_particles *p, int64_t s0, int64_t s1)
{
    const hk_w k = w_set1(f->k), negk = w_set1(-f->k), c = w_set1(f->c), L0fam = w_set1(f->rest);
    const hk_damping_model model = f->params.damping_model;
    const hk_behaviour beh = f->params.behaviour;
    int64_t s = s0;
    for (; s + HK_W <= s1; s += HK_W) {
        const int32_t *a = f->a + s, *b = f->b + s;
        hk_wm live = all_lanes();
        if (f->broken) live = wm_and(live, wm_unbroken(f->broken + s));
        hk_w dx = w_sub(w_gather(p->x, a), w_gather(p->x, b));
        hk_w dy = w_sub(w_gather(p->y, a), w_gather(p->y, b));
        hk_w dz = w_sub(w_gather(p->z, a), w_gather(p->z, b));
        hk_w dvx = w_sub(w_gather(p->vx, a), w_gather(p->vx, b));
        hk_w dvy = w_sub(w_gather(p->vy, a), w_gather(p->vy, b));
        hk_w dvz = w_sub(w_gather(p->vz, a), w_gather(p->vz, b));
        hk_w L0 = f->rest_list ? w_loadu(f->rest_list + s) : L0fam;
        hk_w fx, fy, fz;
        if (model == HK_DAMP_ALONG)
            spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, negk, c, live, HK_DAMP_ALONG, beh, &fx, &fy, &fz);
        else
            spring_lanes(dx, dy, dz, dvx, dvy, dvz, L0, k, negk, c, live, HK_DAMP_RELATIVE, beh, &fx, &fy, &fz);
        w_scatter(p->fx, a, w_add(w_gather(p->fx, a), fx));
        w_scatter(p->fy, a, w_add(w_gather(p->fy, a), fy));
        w_scatter(p->fz, a, w_add(w_gather(p->fz, a), fz));
        w_scatter(p->fx, b, w_sub(w_gather(p->fx, b), fx));
        w_scatter(p->fy, b, w_sub(w_gather(p->fy, b), fy));
        w_scatter(p->fz, b, w_sub(w_gather(p->fz, b), fz));
    }
    for (; s < s1; s++) { /* tail: one lane at a time, same arithmetic */
        if (f->broken && f->broken[s]) continue;
        int32_t a = f->a[s], b = f->b[s];
        hk_real L0 = f->rest_list ? f->rest_list[s] : f->rest;
        hk_real fo[3];
        if (!hk_spring_force(f, L0, p->x[a] - p->x[b], p->y[a] - p->y[b], p->z[a] - p->z[b], p->vx[a] - p->vx[b],
                             p->vy[a] - p->vy[b], p->vz[a] - p->vz[b], fo))
            continue;
        p->fx[a] += fo[0];
        p->fy[a] += fo[1];
        p->fz[a] += fo[2];
        p->fx[b] -= fo[0];
        p->fy[b] -= fo[1];
        p->fz[b] -= fo[2];
    }
}

/* External force on one particle: m g - c_air v, plus the ground model. The
 * order of operations is that of forces.c (the reference). */
static inline void external_one(const hk_step_ctx *ctx, hk_real m, hk_real x, hk_real y, hk_real z, hk_real vx,
                                hk_real vy, hk_real vz, hk_real *fx, hk_real *fy, hk_real *fz)
{
    (void)x;
    (void)z;
    hk_real gx = m * ctx->g[0] - ctx->air_drag * vx;
    hk_real gy = m * ctx->g[1] - ctx->air_drag * vy;
    hk_real gz = m * ctx->g[2] - ctx->air_drag * vz;
    if (ctx->ground == HK_GROUND_REPULSION && y < ctx->ground_h) {
        gx -= ctx->ground_fric * vx;
        gz -= ctx->ground_fric * vz;
        if (vy < 0) gy -= ctx->ground_abs * vy;
        gy += ctx->ground_krep * (ctx->ground_h - y);
    } else if (ctx->ground == HK_GROUND_SPRING && y < ctx->ground_h) {
        gy -= ctx->ground_k * (y - ctx->ground_h);
    }
    *fx = gx;
    *fy = gy;
    *fz = gz;
}

static void HK_SUFFIX(external_forces)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n)
{
    for (int64_t i = g0; i < g0 + n; i++)
        external_one(ctx, p->mass[i], p->x[i], p->y[i], p->z[i], p->vx[i], p->vy[i], p->vz[i], &p->fx[i], &p->fy[i],
                     &p->fz[i]);
}

/* One particle's update from its total force; inverse mass 0 leaves it be. */
static inline void integrate_one(const hk_step_ctx *ctx, hk_real im, hk_real fx, hk_real fy, hk_real fz,
                                 hk_real *restrict x, hk_real *restrict y, hk_real *restrict z, hk_real *restrict vx,
                                 hk_real *restrict vy, hk_real *restrict vz)
{
    if (im == 0) return;
    const hk_real h = ctx->h;
    switch (ctx->finish) {
    case HK_FINISH_EULER:
        *x += *vx * h;
        *y += *vy * h;
        *z += *vz * h;
        *vx += fx * im * h;
        *vy += fy * im * h;
        *vz += fz * im * h;
        break;
    case HK_FINISH_SEMI_IMPLICIT:
        *vx += fx * im * h;
        *vy += fy * im * h;
        *vz += fz * im * h;
        *x += *vx * h;
        *y += *vy * h;
        *z += *vz * h;
        break;
    case HK_FINISH_JELLY:
        *vx += ctx->dt_a * fx * im;
        *vy += ctx->dt_a * fy * im;
        *vz += ctx->dt_a * fz * im;
        *x += ctx->dt_v * *vx;
        *y += ctx->dt_v * *vy;
        *z += ctx->dt_v * *vz;
        *vx *= ctx->alpha;
        *vy *= ctx->alpha;
        *vz *= ctx->alpha;
        break;
    default: break;
    }
}

/* external_one over W lanes, same operations in the same order. */
static inline void external_lanes(const hk_step_ctx *ctx, hk_w m, hk_w y, hk_w vx, hk_w vy, hk_w vz, hk_w *fx,
                                  hk_w *fy, hk_w *fz)
{
    const hk_w c = w_set1(ctx->air_drag);
    hk_w gx = w_sub(w_mul(m, w_set1(ctx->g[0])), w_mul(c, vx));
    hk_w gy = w_sub(w_mul(m, w_set1(ctx->g[1])), w_mul(c, vy));
    hk_w gz = w_sub(w_mul(m, w_set1(ctx->g[2])), w_mul(c, vz));
    if (ctx->ground != HK_GROUND_NONE) {
        const hk_w h = w_set1(ctx->ground_h), zero = w_set1(0);
        const hk_wm below = w_lt(y, h);
        if (ctx->ground == HK_GROUND_REPULSION) {
            const hk_w cf = w_set1(ctx->ground_fric);
            gx = w_select(below, gx, w_sub(gx, w_mul(cf, vx)));
            gz = w_select(below, gz, w_sub(gz, w_mul(cf, vz)));
            gy = w_select(wm_and(below, w_lt(vy, zero)), gy, w_sub(gy, w_mul(w_set1(ctx->ground_abs), vy)));
            gy = w_select(below, gy, w_add(gy, w_mul(w_set1(ctx->ground_krep), w_sub(h, y))));
        } else {
            gy = w_select(below, gy, w_sub(gy, w_mul(w_set1(ctx->ground_k), w_sub(y, h))));
        }
    }
    *fx = gx;
    *fy = gy;
    *fz = gz;
}

/* integrate_one over W lanes; lanes with inverse mass 0 keep their state. */
static inline void integrate_lanes(const hk_step_ctx *ctx, hk_w im, hk_w fx, hk_w fy, hk_w fz, hk_real *x, hk_real *y,
                                   hk_real *z, hk_real *vx, hk_real *vy, hk_real *vz)
{
    const hk_wm free = w_neq(im, w_set1(0));
    const hk_w h = w_set1(ctx->h);
    hk_w px = w_loadu(x), py = w_loadu(y), pz = w_loadu(z);
    hk_w ux = w_loadu(vx), uy = w_loadu(vy), uz = w_loadu(vz);
    hk_w nx, ny, nz, nux, nuy, nuz;
    if (ctx->finish == HK_FINISH_EULER) {
        nx = w_add(px, w_mul(ux, h));
        ny = w_add(py, w_mul(uy, h));
        nz = w_add(pz, w_mul(uz, h));
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
    } else if (ctx->finish == HK_FINISH_SEMI_IMPLICIT) {
        nux = w_add(ux, w_mul(w_mul(fx, im), h));
        nuy = w_add(uy, w_mul(w_mul(fy, im), h));
        nuz = w_add(uz, w_mul(w_mul(fz, im), h));
        nx = w_add(px, w_mul(nux, h));
        ny = w_add(py, w_mul(nuy, h));
        nz = w_add(pz, w_mul(nuz, h));
    } else {
        const hk_w dta = w_set1(ctx->dt_a), dtv = w_set1(ctx->dt_v), alpha = w_set1(ctx->alpha);
        nux = w_add(ux, w_mul(w_mul(dta, fx), im));
        nuy = w_add(uy, w_mul(w_mul(dta, fy), im));
        nuz = w_add(uz, w_mul(w_mul(dta, fz), im));
        nx = w_add(px, w_mul(dtv, nux));
        ny = w_add(py, w_mul(dtv, nuy));
        nz = w_add(pz, w_mul(dtv, nuz));
        nux = w_mul(nux, alpha);
        nuy = w_mul(nuy, alpha);
        nuz = w_mul(nuz, alpha);
    }
    w_storeu(x, w_select(free, px, nx));
    w_storeu(y, w_select(free, py, ny));
    w_storeu(z, w_select(free, pz, nz));
    w_storeu(vx, w_select(free, ux, nux));
    w_storeu(vy, w_select(free, uy, nuy));
    w_storeu(vz, w_select(free, uz, nuz));
}

static void HK_SUFFIX(finish_row)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n, hk_real *const acc[3])
{
    const hk_real *ax = acc[0], *ay = acc[1], *az = acc[2];
    if (ctx->finish == HK_FINISH_ADD_FORCE) {
        hk_real *fx = p->fx + g0, *fy = p->fy + g0, *fz = p->fz + g0;
        for (int i = 0; i < n; i++) {
            fx[i] += ax[i];
            fy[i] += ay[i];
            fz[i] += az[i];
        }
        return;
    }
    int i = 0;
    /* the total force is kept in f as well: hooke.h promises the force of the
     * last evaluation */
    for (; i + HK_W <= n; i += HK_W) {
        const int64_t g = g0 + i;
        hk_w ex, ey, ez;
        external_lanes(ctx, w_loadu(p->mass + g), w_loadu(p->y + g), w_loadu(p->vx + g), w_loadu(p->vy + g),
                       w_loadu(p->vz + g), &ex, &ey, &ez);
        const hk_w fx = w_add(ex, w_loadu(ax + i)), fy = w_add(ey, w_loadu(ay + i)), fz = w_add(ez, w_loadu(az + i));
        w_storeu(p->fx + g, fx);
        w_storeu(p->fy + g, fy);
        w_storeu(p->fz + g, fz);
        integrate_lanes(ctx, w_loadu(p->inv_mass + g), fx, fy, fz, p->x + g, p->y + g, p->z + g, p->vx + g, p->vy + g,
                        p->vz + g);
    }
    for (; i < n; i++) { /* the row's last partial vector, one particle at a time */
        const int64_t g = g0 + i;
        hk_real ex, ey, ez;
        external_one(ctx, p->mass[g], p->x[g], p->y[g], p->z[g], p->vx[g], p->vy[g], p->vz[g], &ex, &ey, &ez);
        p->fx[g] = ex + ax[i];
        p->fy[g] = ey + ay[i];
        p->fz[g] = ez + az[i];
        integrate_one(ctx, p->inv_mass[g], p->fx[g], p->fy[g], p->fz[g], &p->x[g], &p->y[g], &p->z[g], &p->vx[g],
                      &p->vy[g], &p->vz[g]);
    }
}

static void HK_SUFFIX(integrate)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n)
{
    for (int64_t g = g0; g < g0 + n; g++)
        integrate_one(ctx, p->inv_mass[g], p->fx[g], p->fy[g], p->fz[g], &p->x[g], &p->y[g], &p->z[g], &p->vx[g],
                      &p->vy[g], &p->vz[g]);
}

const hk_kernels HK_SUFFIX(hk_kernels) = {
    HK_ISA_NAME,          HK_W, HK_SUFFIX(lattice_row), HK_SUFFIX(list_range), HK_SUFFIX(finish_row),
    HK_SUFFIX(external_forces), HK_SUFFIX(integrate),
};

#endif
