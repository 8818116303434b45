/* particle_pass.h — the per-particle kernels: a lattice row's finish, external forces, explicit updates (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PARTICLE_PASS_H
#define HOOKE_PARTICLE_PASS_H

/* Included by kernels_isa.h, after simd.h, external.h and update.h. Every
 * loop runs over whole vectors and ends with the first n lanes of one more
 * (w_load_lanes, w_store_lanes): the same formula on every particle. */

/* One vector of a finished lattice row: f = external + the summed spring
 * forces acc, stored in f (hooke.h promises the force of the last
 * evaluation), then the update. */
static inline __attribute__((always_inline)) void
finish_lanes(const hk_step_ctx *ctx, const hk_real *mass, const hk_real *inv_mass, const hk_real *const r[3],
             hk_real *x, hk_real *y, hk_real *z, hk_real *vx, hk_real *vy, hk_real *vz, hk_real *fx, hk_real *fy,
             hk_real *fz, const hk_real *ax, const hk_real *ay, const hk_real *az, int n)
{
    hk_w ex, ey, ez, px, py, pz;
    const hk_real *const q[3] = {x, y, z};
    external_position(&ctx->ext, r, q, n, &px, &py, &pz);
    external_lanes(&ctx->ext, w_load_lanes(mass, n), px, py, pz, w_load_lanes(vx, n), w_load_lanes(vy, n),
                   w_load_lanes(vz, n), &ex, &ey, &ez);
    const hk_w tx = w_add(ex, w_load(ax)), ty = w_add(ey, w_load(ay)), tz = w_add(ez, w_load(az));
    w_store_lanes(fx, tx, n);
    w_store_lanes(fy, ty, n);
    w_store_lanes(fz, tz, n);
    if (ctx->upd.kind != HK_UPDATE_NONE)
        update_lanes(&ctx->upd, w_load_lanes(inv_mass, n), tx, ty, tz, x, y, z, vx, vy, vz, n);
}

static void HK_SUFFIX(finish_row)(const hk_step_ctx *ctx, hk_particles *p, int64_t g0, int n, hk_real *const acc[3])
{
    hk_real *const ax = acc[0], *const ay = acc[1], *const az = acc[2];
    /* the arrays as locals: the stores below cannot change them, so they
     * stay in registers instead of being read from p on every vector */
    const hk_real *const mass = p->mass + g0, *const inv_mass = p->inv_mass + g0;
    const hk_real *const rx = p->rx + g0, *const ry = p->ry + g0, *const rz = p->rz + g0;
    hk_real *const x = p->qx + g0, *const y = p->qy + g0, *const z = p->qz + g0;
    hk_real *const vx = p->vx + g0, *const vy = p->vy + g0, *const vz = p->vz + g0;
    hk_real *const fx = p->fx + g0, *const fy = p->fy + g0, *const fz = p->fz + g0;
    const hk_w zero = w_set1(0);
    int i = 0;
    for (; i + HK_W <= n; i += HK_W) {
        const hk_real *const r[3] = {rx + i, ry + i, rz + i};
        finish_lanes(ctx, mass + i, inv_mass + i, r, x + i, y + i, z + i, vx + i, vy + i, vz + i, fx + i, fy + i,
                     fz + i, ax + i, ay + i, az + i, HK_W);
    }
    if (i < n) { /* the row's last partial vector */
        const hk_real *const r[3] = {rx + i, ry + i, rz + i};
        finish_lanes(ctx, mass + i, inv_mass + i, r, x + i, y + i, z + i, vx + i, vy + i, vz + i, fx + i, fy + i,
                     fz + i, ax + i, ay + i, az + i, n - i);
    }
    /* the margins the lattice kernels write: one vector before the row and
     * one past the padded row (kernels.h) */
    const int pad = (n + HK_ROW_VEC - 1) / HK_ROW_VEC * HK_ROW_VEC;
    for (int c = 0; c < 3; c++) {
        for (i = -HK_ROW_VEC; i < 0; i += HK_W) w_store(acc[c] + i, zero);
        for (i = pad; i < pad + HK_ROW_VEC; i += HK_W) w_store(acc[c] + i, zero);
    }
}

static inline __attribute__((always_inline)) void external_store(const hk_external *ext, hk_particles *p, int64_t g,
                                                                 int n)
{
    hk_w fx, fy, fz, x, y, z;
    const hk_real *const r[3] = {p->rx + g, p->ry + g, p->rz + g}, *const q[3] = {p->qx + g, p->qy + g, p->qz + g};
    external_position(ext, r, q, n, &x, &y, &z);
    external_lanes(ext, w_load_lanes(p->mass + g, n), x, y, z, w_load_lanes(p->vx + g, n), w_load_lanes(p->vy + g, n),
                   w_load_lanes(p->vz + g, n), &fx, &fy, &fz);
    w_store_lanes(p->fx + g, fx, n);
    w_store_lanes(p->fy + g, fy, n);
    w_store_lanes(p->fz + g, fz, n);
}

static void HK_SUFFIX(external_forces)(const hk_external *ext, hk_particles *p, int64_t g0, int n)
{
    int64_t g = g0;
    for (; g + HK_W <= g0 + n; g += HK_W) external_store(ext, p, g, HK_W);
    if (g < g0 + n) external_store(ext, p, g, (int)(g0 + n - g));
}

static inline __attribute__((always_inline)) void update_particles(const hk_update *u, hk_particles *p, int64_t g,
                                                                   int n)
{
    update_lanes(u, w_load_lanes(p->inv_mass + g, n), w_load_lanes(p->fx + g, n), w_load_lanes(p->fy + g, n),
                 w_load_lanes(p->fz + g, n), p->qx + g, p->qy + g, p->qz + g, p->vx + g, p->vy + g, p->vz + g, n);
}

static void HK_SUFFIX(integrate)(const hk_update *u, hk_particles *p, int64_t g0, int n)
{
    int64_t g = g0;
    for (; g + HK_W <= g0 + n; g += HK_W) update_particles(u, p, g, HK_W);
    if (g < g0 + n) update_particles(u, p, g, (int)(g0 + n - g));
}

#endif
