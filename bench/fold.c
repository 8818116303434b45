/* fold.c — what self collision costs a step: an n x n cloth folded in half on the floor, with and without it. */
/* SPDX-License-Identifier: MIT */
/*
 * Usage: hooke_fold [--n N] [--threads T] [--integrator semi_implicit_euler|implicit_euler] [--steps S]
 *                   [--warmup W] [--contact 0|1|2] [--kernels reference|scalar|avx2|avx512]
 *
 * The cloth of scenes/cloth_512.scene (n x n nodes 1 cm apart, node mass
 * 20 mg, springs 6000 N/m; 60000 N/m and the solver settings of
 * scenes/cloth_512_stiff.scene under implicit_euler), its structural and
 * shear springs (a bend family would open the sharp crease), no pins, lies
 * folded in half on a floor (a box collider): rows 0 .. n/2 - 1 flat 2 mm
 * over it, the rest turned back over them one contact thickness higher,
 * the crease's springs at their rest length. Contact: by the
 * triangle model (--contact 1): the thickness 2.5 mm (a quarter of the
 * spacing), stiffness 20 N/m (a node of the upper layer sits 10 um into
 * it), critically damped, friction 0.3; by the particle model (--contact
 * 2): spheres of radius 5 mm (half the spacing), the upper layer one
 * spacing over the lower, each node over one, the same law; --contact 0
 * leaves self collision out (the floor stays, the layers a thickness
 * apart).
 * After W steps (the first finds the surfaces and candidates) it times S
 * steps and prints one line: the mean wall time per step [ms] and the
 * process's CPU time per step [ms] (all its threads: on one thread the
 * figure a loaded machine moves least), the
 * contact pairs of the last step, the candidates found in the S steps
 * (the broad phase), the pairs pushed apart by the safety net, and what
 * contact's phases took per step [ms] (broad: the candidates; forces:
 * the distance queries and contact forces; safety: the swept tests), and
 * the state hash at the end (the same bits on any thread count).
 * --kernels runs the world on that kernel path (hk_world_set_kernels; the
 * process default without it).
 * The world is hk_bench_fold_world's (contact_cases.c), which the
 * hooke_bench case contact_fold also steps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "hooke/hooke.h"
#include "pairs.h"
#include "response.h"
#include "world.h"

static double clock_s(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }

int main(int argc, char **argv)
{
    int n = 512, threads = 1, steps = 100, warmup = 5, contact = 1;
    const char *integrator = "semi_implicit_euler", *kernels = NULL;
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--n"))
            n = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--threads"))
            threads = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--integrator"))
            integrator = argv[a + 1];
        else if (!strcmp(argv[a], "--steps"))
            steps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--warmup"))
            warmup = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--contact"))
            contact = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--kernels"))
            kernels = argv[a + 1];
        else {
            fprintf(stderr, "hooke_fold: unknown option %s\n", argv[a]);
            return 1;
        }
    }
    const int implicit = !strcmp(integrator, "implicit_euler");
    if (!implicit && strcmp(integrator, "semi_implicit_euler")) {
        fprintf(stderr, "hooke_fold: --integrator: expected semi_implicit_euler or implicit_euler, got %s\n",
                integrator);
        return 1;
    }
    char err[1024];
    hk_world *w = hk_bench_fold_world(n, threads, implicit, contact, err, sizeof err);
    if (!w) {
        fprintf(stderr, "hooke_fold: %s\n", err);
        return 1;
    }
    if (kernels && hk_world_set_kernels(w, kernels) != HK_OK) {
        fprintf(stderr, "hooke_fold: --kernels: %s\n", hk_world_error(w));
        hk_world_destroy(w);
        return 1;
    }
    const hk_pairs *pr = hk_pairs_of(w);
    double t = 0, cpu = 0;
    int64_t builds = 0, caught = 0;
    hk_contact_profile prof = {0};
    for (int k = 0; k < warmup + steps; k++) {
        if (k == warmup) {
            prof = hk_contact_profile_of(w);
            t = now();
            cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID);
            builds = pr ? pr->builds : 0;
            caught = pr ? pr->caught : 0;
        }
        if (hk_world_step(w) != HK_OK) {
            fprintf(stderr, "hooke_fold: step %d: %s\n", k, hk_world_error(w));
            return 2;
        }
    }
    t = now() - t;
    cpu = clock_s(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    const hk_contact_profile p1 = hk_contact_profile_of(w);
    double vmax = 0;
    hk_particles_view pv = hk_world_particles(w);
    for (int i = 0; i < pv.count; i++)
        vmax =
            fmax(vmax, sqrt((double)pv.vx[i] * pv.vx[i] + (double)pv.vy[i] * pv.vy[i] + (double)pv.vz[i] * pv.vz[i]));
    const int64_t on = pr ? pr->non : 0; /* the touching pairs of the last evaluation */
    const hk_solver_stats st = hk_world_solver_stats(w);
    printf("n=%d integrator=%s threads=%d contact=%d steps=%d ms_per_step=%.3f cpu_ms_per_step=%.3f pairs=%lld "
           "touching=%lld candidates=%lld searches=%lld caught=%lld cg_iterations=%lld products=%lld vmax=%.3g "
           "broad_ms=%.3f forces_ms=%.3f safety_ms=%.3f state_hash=0x%016llx\n",
           n, integrator, threads, contact, steps, 1e3 * t / steps, 1e3 * cpu / steps, pr ? (long long)pr->npair : 0LL,
           (long long)on, pr ? (long long)pr->ncand : 0LL, pr ? (long long)(pr->builds - builds) : 0LL,
           pr ? (long long)(pr->caught - caught) : 0LL, (long long)st.cg_total, (long long)st.products, vmax,
           1e3 * (p1.broad - prof.broad) / steps, 1e3 * (p1.forces - prof.forces) / steps,
           1e3 * (p1.safety - prof.safety) / steps, (unsigned long long)hk_world_state_hash(w));
    hk_world_destroy(w);
    return 0;
}
