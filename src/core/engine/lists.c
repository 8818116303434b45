/* lists.c — the listed (coloured) springs of a body, banded and split over the team (see lists.h). */
/* SPDX-License-Identifier: MIT */
#include "lists.h"

#include <stdint.h>
#include <stdlib.h>

#include "colour.h"
#include "team.h"

int hk_lists_serial(const hk_world *w, const hk_family *const *fams, int nfams)
{
    int64_t n = 0;
    for (int q = 0; q < nfams; q++) n += fams[q]->count;
    return n < w->def.list_parallel_min;
}

/* Thread t's share [*c0, *c1) of the springs [s0, s1) of one colour, in whole
 * groups of `group` springs (a SIMD step), so no step straddles two threads. */
static void colour_share(int64_t s0, int64_t s1, int group, int t, int T, int64_t *c0, int64_t *c1)
{
    const int64_t groups = (s1 - s0 + group - 1) / group;
    *c0 = s0 + groups * t / T * group;
    *c1 = s0 + groups * (t + 1) / T * group;
    if (*c1 > s1) *c1 = s1;
}

/* Springs [s0, s1) of list family f: over the packed records when there are
 * some, otherwise gathered by `gather` from the particle arrays. */
static void list_springs_run(const hk_kernels *k, const hk_kernels *gather, hk_world *w, const hk_family *f,
                             const hk_packed *pk, int64_t s0, int64_t s1)
{
    if (pk)
        k->list_range_packed(f, pk->rec, pk->f, s0, s1);
    else
        gather->list_range(f, &w->p, s0, s1);
}

/* The near springs of band b of list family f, colour by colour. */
static void list_band(hk_world *w, const hk_kernels *k, const hk_family *f, const hk_packed *pk, int regular, int b)
{
    const int B1 = f->band_count + 1;
    for (int c = 0; c < regular; c++) {
        const int64_t s0 = f->band_start[(size_t)c * B1 + b], s1 = f->band_start[(size_t)c * B1 + b + 1];
        if (s0 < s1) list_springs_run(k, k, w, f, pk, s0, s1);
    }
}

/* Packs the particles of [first, end) in [lo, hi) (particle indices). */
static void pack_span(hk_world *w, const hk_kernels *k, const hk_packed *pk, int64_t first, int64_t end,
                      const hk_external *ext, int64_t lo, int64_t hi)
{
    if (lo < first) lo = first;
    if (hi > end) hi = end;
    if (lo < hi) k->list_pack(ext, &w->p, pk->rec, pk->f, lo, (int)(hi - lo));
}

/* The list families of particles [first, first + count) on task tm->t of
 * tm->T, with the barriers of lists.h (none for one task). */
static void lists_span(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_packed *pk, int first, int count,
                       const hk_family *const *fams, int nfams, const hk_external *ext)
{
    const int t = tm->t, T = tm->T, packed = pk != NULL;
    const int64_t end = (int64_t)first + count;
    int first_list = 1;
    for (int q = 0; q < nfams; q++) {
        const hk_family *f = fams[q];
        const int regular = f->overflow ? f->colour_count - 1 : f->colour_count;
        const int NB = f->band_count, m = (NB + 1) / 2; /* m even bands */
        const int j0 = (int)((int64_t)m * t / T), j1 = (int)((int64_t)m * (t + 1) / T);
        const int pack_here = packed && first_list;
        for (int j = j0; j < j1; j++) {
            if (pack_here)
                pack_span(w, k, pk, first, end, ext, ((int64_t)f->band_first + 2 * j) * HK_BAND,
                          ((int64_t)f->band_first + 2 * j + 2) * HK_BAND);
            list_band(w, k, f, pk, regular, 2 * j);
            if (j > j0) list_band(w, k, f, pk, regular, 2 * j - 1);
        }
        if (pack_here && t == T - 1) /* particles past the bands (none while the colouring is current) */
            pack_span(w, k, pk, first, end, ext, ((int64_t)f->band_first + 2 * m) * HK_BAND, INT64_MAX);
        hk_team_barrier(tm);
        if (j0 < j1 && 2 * j1 - 1 < NB) list_band(w, k, f, pk, regular, 2 * j1 - 1);
        hk_team_barrier(tm);
        /* far springs colour by colour, each colour split over the threads */
        for (int c = 0; c < regular; c++) {
            int64_t c0 = f->near_end[c], c1 = f->colour_start[c + 1];
            if (c0 >= c1) continue; /* the same on every thread: no barrier skipped by one alone */
            colour_share(c0, c1, packed ? 8 : k->width, t, T, &c0, &c1);
            if (c0 < c1) list_springs_run(k, k, w, f, pk, c0, c1);
            hk_team_barrier(tm);
        }
        /* the overflow colour on one thread (particles repeat in it): the
         * packed kernel adds lane by lane in order, the gather kernel would
         * not, so the scalar one takes its place */
        if (f->overflow && t == 0)
            list_springs_run(k, &hk_kernels_scalar, w, f, pk, f->colour_start[regular], f->colour_start[regular + 1]);
        if (f->overflow) hk_team_barrier(tm);
        first_list = 0;
    }
    if (packed && !first_list) {
        int g0, n;
        hk_team_range(tm, first, count, &g0, &n);
        k->list_unpack(&w->p, pk->f, g0, n);
    }
}

void hk_lists_run(const hk_team *tm, hk_world *w, const hk_kernels *k, const hk_packed *pk, int first, int count,
                  const hk_family *const *fams, int nfams, int serial, const hk_external *ext)
{
    if (!serial)
        lists_span(tm, w, k, pk, first, count, fams, nfams, ext);
    else if (tm->t == 0) /* one task alone, without the barriers */
        lists_span(&hk_team_one, w, k, pk, first, count, fams, nfams, ext);
    if (pk || serial) hk_team_barrier(tm);
}

void hk_lists_solo(hk_world *w, const hk_kernels *k, const hk_packed *pk, int first, int count,
                   const hk_family *const *fams, int nfams, const hk_external *ext)
{
    lists_span(&hk_team_one, w, k, pk, first, count, fams, nfams, ext);
}
