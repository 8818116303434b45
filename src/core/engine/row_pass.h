/* row_pass.h — the lattice row kernel: plan a row class's passes once, then run every family of a row (one ISA). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_ROW_PASS_H
#define HOOKE_ROW_PASS_H

/* Included by kernels_isa.h after row_family.h (and row_group.h where the
 * ISA has lane shifts).
 *
 * The contract between the sweep (sweep.c) and this kernel, per row class
 * (the rows whose sources have the same families):
 *   1. the sweep fills f, dr and fresh of each hk_row_family, in the sweep's
 *      family order, and calls plan_row once;
 *   2. plan_row chooses each family's pass: the first family of a blocked
 *      group gets pass = 1 + its group and the span its pass covers; a
 *      family with a lane shift that fits a vector but in no group runs the
 *      blocked pass alone; any other runs family_row. It clears fresh where
 *      the chosen pass does not write the whole target row [0, nx_pad)
 *      without reading it, so the sweep zeroes that row first;
 *   3. for every row of the class the sweep sets dst and calls lattice_row,
 *      which runs exactly the passes plan_row chose.
 * lattice_row must dispatch as plan_row planned (shift_fits, the groups):
 * both are here, side by side. */

/* One (damping model, behaviour) pair as compile-time constants: STMT runs
 * with MODEL and BEH bound to the pair that equals (model, beh). */
#define HK_DISPATCH(model, beh, STMT)                                                                                  \
    do {                                                                                                               \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_NORMAL, STMT)                                             \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_NORMAL, STMT)                                                \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_TENSION_ONLY, STMT)                                       \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_TENSION_ONLY, STMT)                                          \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_COMPRESSION_ONLY, STMT)                                   \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_COMPRESSION_ONLY, STMT)                                      \
        HK_DISPATCH1(model, beh, HK_DAMP_RELATIVE, HK_SPRING_BREAKABLE, STMT)                                          \
        HK_DISPATCH1(model, beh, HK_DAMP_ALONG, HK_SPRING_BREAKABLE, STMT) {}                                          \
    } while (0)
#define HK_DISPATCH1(model, beh, M, B, STMT)                                                                           \
    if ((model) == (M) && (beh) == (B)) {                                                                              \
        const hk_damping_model MODEL = (M);                                                                            \
        const hk_behaviour BEH = (B);                                                                                  \
        STMT;                                                                                                          \
    } else

HK_SPRING_LOOP static void HK_SUFFIX(lattice_row)(const hk_particles *p, int64_t row0, int64_t local0, int nx_pad,
                                                  const hk_row_family *fams, int nfam, hk_real *const acc_src[3],
                                                  hk_real *buf, int bstride)
{
    const int M = HK_ROW_MARGIN;
    const hk_real *const src[6] = {p->qx + row0, p->qy + row0, p->qz + row0, p->vx + row0, p->vy + row0, p->vz + row0};
    hk_real *const row_buf[3] = {buf + M, buf + bstride + M, buf + 2 * bstride + M};
#ifdef HK_HAS_SHIFT
    /* rows long enough for group_row's copy without row-end tests */
    const int long_row = nx_pad >= (HK_FULL_MIN + 2) * HK_ROW_VEC;
#endif
    (void)nx_pad;
    for (int q = 0; q < nfam;) {
        const hk_family *f = fams[q].f;
        const hk_damping_model model = f->params.damping_model;
        const hk_behaviour beh = f->params.behaviour;
#ifdef HK_HAS_SHIFT
        if (fams[q].pass) { /* a listed group: normal springs, either damping model */
#define HK_RUN1(G, M, SPLIT) group_row(fams + q, (G), src, local0, acc_src, bstride, M, HK_SPRING_NORMAL, SPLIT)
#define HK_RUN_GROUP(i)                                                                                                \
    case (i) + 1:                                                                                                      \
        if (model == HK_DAMP_RELATIVE && long_row)                                                                     \
            HK_RUN1(&hk_groups[i], HK_DAMP_RELATIVE, 1);                                                               \
        else if (model == HK_DAMP_RELATIVE)                                                                            \
            HK_RUN1(&hk_groups[i], HK_DAMP_RELATIVE, 0);                                                               \
        else if (long_row)                                                                                             \
            HK_RUN1(&hk_groups[i], HK_DAMP_ALONG, 1);                                                                  \
        else                                                                                                           \
            HK_RUN1(&hk_groups[i], HK_DAMP_ALONG, 0);                                                                  \
        break;
            switch (fams[q].pass) {
                HK_GROUP_INDICES(HK_RUN_GROUP)
            default: break;
            }
#undef HK_RUN_GROUP
#undef HK_RUN1
            q += hk_groups[fams[q].pass - 1].n;
            continue;
        }
        if (shift_fits(f)) { /* alone: the same pass with one family */
#define HK_ALONE(K)                                                                                                    \
    HK_DISPATCH(model, beh, group_row(fams + q, &hk_alone[K], src, local0, acc_src, bstride, MODEL, BEH, 0))
            switch (row_kind(&fams[q])) {
            case HK_K_SAME: HK_ALONE(HK_K_SAME); break;
            case HK_K_DOWN: HK_ALONE(HK_K_DOWN); break;
            case HK_K_DOWN_RIGHT: HK_ALONE(HK_K_DOWN_RIGHT); break;
            default: HK_ALONE(HK_K_DOWN_LEFT); break;
            }
#undef HK_ALONE
            q++;
            continue;
        }
#endif
        if (fams[q].dr == 0)
            HK_DISPATCH(model, beh, family_row(f, src, local0, acc_src, row_buf, 1, MODEL, BEH));
        else {
            hk_real *const dst[3] = {fams[q].dst, fams[q].dst + bstride, fams[q].dst + 2 * bstride};
            HK_DISPATCH(model, beh, family_row(f, src, local0, acc_src, dst, 0, MODEL, BEH));
        }
        q++;
    }
}
#undef HK_DISPATCH
#undef HK_DISPATCH1

static void HK_SUFFIX(plan_row)(hk_row_family *fams, int nfam, int nx_pad)
{
    for (int q = 0; q < nfam; q++) fams[q].pass = 0;
#ifdef HK_HAS_SHIFT
    for (int q = 0; q < nfam;) {
        const int pass = group_at(fams + q, nfam - q);
        if (!pass && !shift_fits(fams[q].f)) { /* family_row: reads its targets */
            fams[q].fresh = 0;
            q++;
            continue;
        }
        const hk_group *g = pass ? &hk_groups[pass - 1] : &hk_alone[row_kind(&fams[q])];
        fams[q].pass = pass;
        fams[q].span = group_span(fams + q, g);
        /* group_row writes the target row of a run from its first family on
         * every vector of its span */
        const int lo = fams[q].span.lo, hi = fams[q].span.hi;
        for (int r = 0; r < g->n; r++)
            if (g->kind[r] == HK_K_SAME || !run_first(g, r) || lo > 0 || (hi + HK_W - 1) / HK_W * HK_W < nx_pad)
                fams[q + r].fresh = 0;
        q += g->n;
    }
#else
    (void)nx_pad;
    for (int q = 0; q < nfam; q++) fams[q].fresh = 0;
#endif
}

#endif
