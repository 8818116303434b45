/* fabric.h — a cloth's spring families and node masses from fabric figures, and the table of named fabrics. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FABRIC_H
#define HOOKE_FABRIC_H

#include <stddef.h>

#include "world.h"

/* The named fabrics: X(name, areal density [kg/m^2], stretch [N/m], shear [N/m], bend [N m]). The scene's `preset`
 * key, hk_fabric_preset and docs/fabric.md take their rows from here. The KES-F figures are converted as: stretch =
 * 500 gf/cm / EMT (the secant of the tensile test to its 500 gf/cm = 490.3 N/m), shear = G [gf/cm/deg] * 56.19
 * (N/m per radian), bend = B [gf cm^2/cm] * 9.807e-5 (N m). */
#define HK_FABRIC_PRESETS(X)                                                                                           \
    /* cotton shirting, plain weave: representative, not one measured sample: KES-F figures typical of the class       \
     * (EMT 4 %, G 0.9 gf/cm/deg, B 0.10 gf cm^2/cm; the method: S. Kawabata, The Standardization and Analysis of      \
     * Hand Evaluation, 2nd ed., Textile Machinery Society of Japan, 1980); 130 g/m^2 */                               \
    X(cotton, 0.130, 12260, 50.6, 9.81e-6)                                                                             \
    /* denim: sample A of Table 5 of "Regenerated Cellulose-Based Denim Fabric for Tropical Regions", Journal of       \
     * Textiles 2016, article 4614168 (EMT 5.515 %, G 2.180 gf/cm/deg, B 0.172 gf cm^2/cm); 12 oz/yd^2 denim,          \
     * 407 g/m^2 */                                                                                                    \
    X(denim, 0.407, 8890, 122.5, 1.687e-5)                                                                             \
    /* silk habotai: representative, not one measured sample: KES-F figures typical of the class (EMT 6 %,             \
     * G 0.35 gf/cm/deg, B 0.025 gf cm^2/cm); 8 momme, 34 g/m^2 */                                                     \
    X(silk, 0.034, 8170, 19.7, 2.45e-6)                                                                                \
    /* polyester plain weave: representative, not one measured sample: KES-F figures typical of the class (EMT 3 %,    \
     * G 0.6 gf/cm/deg, B 0.06 gf cm^2/cm); 100 g/m^2 */                                                               \
    X(polyester, 0.100, 16340, 33.7, 5.88e-6)

/* One row of the table. */
typedef struct hk_fabric_row {
    const char *name;
    hk_fabric fabric;
} hk_fabric_row;
extern const hk_fabric_row hk_fabric_rows[];
extern const int hk_fabric_row_count;

/* The fold the bend springs are matched at: a turn of this many radians at one node row (docs/fabric.md). */
#define HK_FABRIC_FOLD_ANGLE 1.5707963267948966

/* k [N/m] of the skip-one (bend) springs that store a fabric of bending rigidity `bend` [N m] at spacing s [m]:
 * the energy of the continuum, 1/2 bend theta^2 per node along the fold, at the fold angle above. */
double hk_fabric_bend_k(double bend, double spacing);

/* k [N/m] of the structural springs that give a strip's stretch stiffness `stretch` [N/m] beside shear springs of
 * k_shear and bend springs of k_bend [N/m] (0: the family is off); <= 0 where those two alone are stiffer. */
double hk_fabric_structural_k(double stretch, double k_shear, double k_bend);

/* The mass [kg] of node (i, j) of an nx x ny cloth of spacing s [m] and areal density rho [kg/m^2]: the area it
 * stands for, s^2 inside, half on an edge, a quarter at a corner. */
double hk_fabric_node_mass(double rho, double spacing, int i, int j, int nx, int ny);

/* A cloth definition with its fabric's figures in place: families on, their k set, the mass per node of the
 * interior (the builder gives the edges theirs). 0, or a negative hk_status with the reason in hk_world_error. */
int hk_fabric_apply(hk_world *w, hk_cloth_def *d);

#endif
