/* friction.c — the colliders' friction: a particle's anchor, its spring and damper up to Coulomb's limit. */
/* SPDX-License-Identifier: MIT */
#include "friction.h"

#include <math.h>

#include "check.h"

/* Adds the block s (I - n n^T - t t^T) (t: a unit vector in the tangent plane, or NULL) to b. */
static void add_tangential(double b[6], double s, const double n[3], const double *t)
{
    const double I6[6] = {1, 0, 0, 1, 0, 1};
    for (int e = 0; e < 6; e++) b[e] += s * I6[e];
    g_add_outer(b, -s, n);
    if (t) g_add_outer(b, -s, t);
}

void hk_friction_anchored(const hk_friction_contact *fc, double kt, double ct, const double d[3], double f[3],
                          double K[6], double D[6])
{
    const double limit = fc->mu * fc->fn;
    double ft[3], t[3];
    for (int k = 0; k < 3; k++) ft[k] = -kt * d[k] - ct * fc->vt[k];
    const double size2 = g_dot(ft, ft), size = size2 > limit * limit ? sqrt(size2) : 0; /* 0: within the limit */
    const double s = size > limit ? limit / size : 1; /* sliding: the same direction at the limit */
    for (int k = 0; k < 3; k++) f[k] += s * ft[k], t[k] = s < 1 ? ft[k] / size : 0;
    HK_ASSERT(!(s * s * size2 > limit * limit * (1 + 1e-9))); /* within Coulomb's cone (a NaN state is a blow-up's) */
    if (!K) return;                                           /* the force alone */
    /* sliding, the force's size is fixed: its blocks only turn it, without its own direction */
    add_tangential(K, s * kt, fc->n, s < 1 ? t : NULL);
    add_tangential(D, s * ct, fc->n, s < 1 ? t : NULL);
}

void hk_friction_viscous(double mu, double fn, double m, double h, const double n[3], const double vt[3], double f[3],
                         double D[6])
{
    const double st = g_norm(vt), stick = m / h, limit = mu * fn;
    if (!(st > 0)) return;
    const double c = stick * st <= limit ? stick : limit / st; /* sticking (viscous), or sliding (Coulomb) */
    for (int k = 0; k < 3; k++) f[k] -= c * vt[k];
    HK_ASSERT(!(c * st > limit * (1 + 1e-9))); /* within Coulomb's cone */
    if (!D) return;                            /* the force alone */
    /* D += c (I - n n^T), sliding without the slip's own direction: c (I - n n^T - t t^T), t = vt / |vt| */
    add_tangential(D, c, n, NULL);
    if (stick * st > limit) g_add_outer(D, -c / (st * st), vt);
}

void hk_friction_add(hk_real *const anchor[4], int i, int c, const hk_pose *P, int first, int *held,
                     const hk_friction_contact *fc, double f[3], double K[6], double D[6])
{
    if (first && *held < 0) { /* the first collider with friction it touches holds its anchor */
        *held = c;
        if ((int)anchor[3][i] != c) /* a new contact: the anchor where the particle is */
            for (int k = 0; k < 3; k++) anchor[k][i] = (hk_real)fc->p[k];
        anchor[3][i] = (hk_real)c;
    }
    if ((int)anchor[3][i] != c) {
        hk_friction_viscous(fc->mu, fc->fn, fc->m, fc->h, fc->n, fc->vt, f, D);
        return;
    }
    double kt, ct, s;
    hk_friction_spring(fc->m, fc->h, &kt, &ct);
    double al[3] = {anchor[0][i], anchor[1][i], anchor[2][i]}, aw[3], dx[3], d[3];
    hk_pose_to_world(P, al, aw);
    g_sub(fc->x, aw, dx);
    const double dn = g_dot(dx, fc->n);
    for (int k = 0; k < 3; k++) d[k] = dx[k] - dn * fc->n[k];
    if (first && hk_friction_drag(kt, fc->mu * fc->fn, d, &s)) { /* sliding: the anchor dragged to within reach */
        for (int k = 0; k < 3; k++) aw[k] += (1 - s) * d[k], d[k] *= s;
        hk_pose_to_local(P, aw, al);
        for (int k = 0; k < 3; k++) anchor[k][i] = (hk_real)al[k];
    }
    hk_friction_anchored(fc, kt, ct, d, f, K, D);
}
