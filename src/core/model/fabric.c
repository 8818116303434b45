/* fabric.c — a cloth's spring families and node masses from fabric figures (docs/fabric.md has the derivation). */
/* SPDX-License-Identifier: MIT */
#include "fabric.h"

#include <math.h>
#include <string.h>

#define FABRIC_ROW(name, rho, stretch, shear, bend) {#name, {rho, stretch, shear, bend}},
const hk_fabric_row hk_fabric_rows[] = {HK_FABRIC_PRESETS(FABRIC_ROW)};
const int hk_fabric_row_count = (int)(sizeof hk_fabric_rows / sizeof hk_fabric_rows[0]);

int hk_fabric_preset(const char *name, hk_fabric *out)
{
    for (int r = 0; name && r < hk_fabric_row_count; r++)
        if (strcmp(hk_fabric_rows[r].name, name) == 0) {
            *out = hk_fabric_rows[r].fabric;
            return HK_OK;
        }
    return HK_ERR_INVALID;
}

/* A skip-one spring across a node row that turns by theta shortens from 2s to the chord 2s cos(theta/2); at the fold
 * angle its energy 1/2 k (2s (1 - cos(theta/2)))^2 equals the continuum's 1/2 bend theta^2 per node (curvature
 * theta/s over the strip s x s the node stands for). */
double hk_fabric_bend_k(double bend, double spacing)
{
    const double theta = HK_FABRIC_FOLD_ANGLE, short_by = 2 * spacing * (1 - cos(theta / 2));
    return bend * theta * theta / (short_by * short_by);
}

/* Per unit area the lattice stores C11 = k_s + k_d + 4 k_b (stretch along an axis), C12 = k_d, C66 = k_d; a strip with
 * free sides has stretch = C11 - C12^2 / C11, so C11 = (stretch + sqrt(stretch^2 + 4 k_d^2)) / 2. */
double hk_fabric_structural_k(double stretch, double k_shear, double k_bend)
{
    const double c11 = (stretch + sqrt(stretch * stretch + 4 * k_shear * k_shear)) / 2;
    return c11 - k_shear - 4 * k_bend;
}

double hk_fabric_node_mass(double rho, double spacing, int i, int j, int nx, int ny)
{
    const double wi = (i == 0 || i == nx - 1) ? 0.5 : 1, wj = (j == 0 || j == ny - 1) ? 0.5 : 1;
    return rho * spacing * spacing * wi * wj;
}

int hk_fabric_apply(hk_world *w, hk_cloth_def *d)
{
    const hk_fabric *f = &d->fabric;
    const struct {
        const char *name, *unit;
        double v;
    } figure[] = {{"areal_density", "kg/m^2", f->areal_density},
                  {"stretch", "N/m", f->stretch},
                  {"shear", "N/m", f->shear},
                  {"bend", "N m", f->bend}};
    for (size_t k = 0; k < sizeof figure / sizeof figure[0]; k++)
        if (!(figure[k].v >= 0) || !isfinite(figure[k].v))
            return hk_fail(w, "cloth: fabric %s must be > 0 %s, or 0 (not given) (got %g)", figure[k].name,
                           figure[k].unit, figure[k].v);
    if (f->shear > 0) {
        d->shear = 1;
        d->shear_springs.k = f->shear;
    }
    if (f->bend > 0) {
        d->bend = 1;
        d->bend_springs.k = hk_fabric_bend_k(f->bend, d->spacing);
    }
    if (f->stretch > 0) {
        const double kd = d->shear ? d->shear_springs.k : 0, kb = d->bend ? d->bend_springs.k : 0;
        const double ks = hk_fabric_structural_k(f->stretch, kd, kb);
        if (!(ks > 0)) {
            const double c11 = kd + 4 * kb, alone = c11 > 0 ? c11 - kd * kd / c11 : 0;
            return hk_fail(w,
                           "cloth: fabric stretch %g N/m is below the %g N/m a strip gets from its shear springs "
                           "(k %g N/m) and bend springs (k %g N/m, 4 k in the plane) alone at spacing %g m: give a "
                           "coarser spacing, a smaller bend or a larger stretch",
                           f->stretch, alone, kd, kb, d->spacing);
        }
        d->structural = 1;
        d->structural_springs.k = ks;
    }
    if (f->areal_density > 0) d->mass = f->areal_density * d->spacing * d->spacing;
    return 0;
}
