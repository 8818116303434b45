/* hk_test_osc.h — the implicit tests' oscillator: one mass on a spring to a pinned anchor, and its error over a period.
 */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_OSC_H
#define HK_TEST_OSC_H

#include "hk_test.h"

/* One free mass on a spring to a pinned anchor at x = -L0, moving along the
 * spring, where the spring is linear: x'' = -w^2 x - (c / m) x' about x = 0
 * (damping c along the spring), released at x = 1 at rest. */
#define OSC_M 1.0
#define OSC_W (2.0 * M_PI)
#define OSC_K (OSC_W * OSC_W * OSC_M)
#define OSC_L0 2.0

static inline hk_world *hk_test_damped_oscillator(hk_integrator_kind kind, double h, double c)
{
    hk_world *w = hk_test_empty_world();
    hk_spring_pair_def d = hk_default_spring_pair_def();
    d.a = (hk_vec3){-OSC_L0, 0, 0};
    d.b = (hk_vec3){1, 0, 0};
    d.mass_a = d.mass_b = OSC_M;
    d.pin_a = 1;
    d.springs.k = OSC_K;
    d.springs.damping = c;
    d.springs.rest_length = OSC_L0;
    assert_true(hk_world_add_spring_pair(w, &d) >= 0);
    hk_test_integrator(w, kind, h);
    return w;
}

/* The same without damping: x'' = -w^2 x. */
static inline hk_world *hk_test_oscillator(hk_integrator_kind kind, double h)
{
    return hk_test_damped_oscillator(kind, h, 0);
}

/* Largest |x_n - cos(w t_n)| over one period. */
static inline double hk_test_osc_max_error(hk_integrator_kind kind, double h)
{
    hk_world *w = hk_test_oscillator(kind, h);
    const long n = lround(1.0 / h);
    double err = 0;
    for (long s = 1; s <= n; s++) {
        hk_world_step(w);
        const double e = fabs((double)hk_world_position(w, 1).x - cos(OSC_W * s * h));
        if (e > err) err = e;
    }
    hk_world_destroy(w);
    return err;
}

#endif
