/* colour.c — greedy edge colouring (SIMD- and thread-safe slices of list springs) and RCM particle reordering. */
/* SPDX-License-Identifier: MIT */
#include "colour.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct colour_key {
    int colour;
    int far;       /* the ends lie more than one band apart */
    int lo;        /* lower endpoint */
    int64_t index; /* original position: ties keep their order */
} colour_key;

static int key_cmp(const void *pa, const void *pb)
{
    const colour_key *a = pa, *b = pb;
    if (a->colour != b->colour) return a->colour < b->colour ? -1 : 1;
    if (a->far != b->far) return a->far < b->far ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* Applies the permutation perm (new position -> old position) to an array of
 * n elements of size sz. */
static int permute(void *base, size_t sz, const colour_key *perm, int64_t n)
{
    if (!base) return 0;
    char *tmp = malloc((size_t)(n ? n : 1) * sz);
    if (!tmp) return -1;
    for (int64_t s = 0; s < n; s++) memcpy(tmp + (size_t)s * sz, (char *)base + (size_t)perm[s].index * sz, sz);
    memcpy(base, tmp, (size_t)n * sz);
    free(tmp);
    return 0;
}

/* Sorts the springs of f by their keys (colours assigned, top regular
 * colours and, with overflow, one more last) and builds its colour tables
 * over the bands of particles [first, first + n); frees keys. 0 or -1. */
static int colour_finish(hk_family *f, colour_key *keys, int top, int overflow, int first, int n)
{
    int count = top + overflow;
    for (int64_t s = 0; s < f->count; s++)
        if (keys[s].colour == HK_MAX_COLOURS) {
            keys[s].colour = top; /* overflow goes last, one part */
            keys[s].far = 0;
        }
    qsort(keys, (size_t)f->count, sizeof *keys, key_cmp);
    /* the bands of the range, from an even one: band parity is that of the
     * world's bands, so the sweep's order (lists.h) does not depend on it */
    const int band_first = first / HK_BAND / 2 * 2;
    const int bands = (n ? (first + n - 1) / HK_BAND : band_first) - band_first + 1;
    int64_t *start = calloc((size_t)count + 1, sizeof *start);
    int64_t *near_end = calloc((size_t)count + 1, sizeof *near_end);
    int64_t *band = calloc((size_t)(count + 1) * ((size_t)bands + 1), sizeof *band);
    if (!start || !near_end || !band || permute(f->a, sizeof *f->a, keys, f->count) ||
        permute(f->b, sizeof *f->b, keys, f->count) || permute(f->rest_list, sizeof *f->rest_list, keys, f->count) ||
        permute(f->rvec[0], sizeof *f->rvec[0], keys, f->count) ||
        permute(f->rvec[1], sizeof *f->rvec[1], keys, f->count) ||
        permute(f->rvec[2], sizeof *f->rvec[2], keys, f->count) ||
        permute(f->broken, sizeof *f->broken, keys, f->count)) {
        free(start);
        free(near_end);
        free(band);
        free(keys);
        return -1;
    }
    for (int64_t s = 0; s < f->count; s++) start[keys[s].colour + 1]++;
    for (int c = 0; c < count; c++) start[c + 1] += start[c];
    /* per colour: where its far part begins, and where each band's near
     * springs begin (the near part is sorted by lower endpoint) */
    for (int c = 0; c < count; c++) {
        int64_t s = start[c];
        int64_t *bs = band + (size_t)c * ((size_t)bands + 1);
        for (int b = 0; b <= bands; b++) {
            while (s < start[c + 1] && !keys[s].far && keys[s].lo / HK_BAND - band_first < b) s++;
            bs[b] = s;
        }
        while (s < start[c + 1] && !keys[s].far) s++;
        near_end[c] = s;
    }
    free(keys);
    f->colour_start = start;
    f->near_end = near_end;
    f->band_start = band;
    f->band_count = bands;
    f->band_first = band_first;
    f->colour_count = count;
    f->overflow = overflow;
    HK_VALIDATE(hk_colour_check, f, first, n);
    return 0;
}

/* The key of spring s of f (ends a, b) with colour c */
static colour_key key_of(int a, int b, int c, int64_t s)
{
    colour_key k;
    k.colour = c;
    k.lo = a < b ? a : b;
    k.far = (a < b ? b : a) / HK_BAND > k.lo / HK_BAND + 1;
    k.index = s;
    return k;
}

int hk_colour_family(hk_family *f, int first, int n)
{
    if (f->kind != HK_FAMILY_LIST || f->colour_start) return 0;
    enum { WORDS = HK_MAX_COLOURS / 64 };
    /* the colours taken at each particle of the range, as bits */
    uint64_t *used = calloc((size_t)(n ? n : 1) * WORDS, sizeof *used);
    colour_key *keys = malloc((size_t)(f->count ? f->count : 1) * sizeof *keys);
    if (!used || !keys) {
        free(used);
        free(keys);
        return -1;
    }
    int top = 0; /* colours used, overflow excluded */
    int overflow = 0;
    for (int64_t s = 0; s < f->count; s++) {
        const int a = f->a[s], b = f->b[s], la = a - first, lb = b - first;
        int colour = HK_MAX_COLOURS;
        for (int wd = 0; wd < WORDS; wd++) {
            uint64_t taken = used[(size_t)la * WORDS + wd] | used[(size_t)lb * WORDS + wd];
            if (~taken) {
                colour = wd * 64 + __builtin_ctzll(~taken);
                break;
            }
        }
        if (colour < HK_MAX_COLOURS) {
            used[(size_t)la * WORDS + colour / 64] |= 1ull << (colour % 64);
            used[(size_t)lb * WORDS + colour / 64] |= 1ull << (colour % 64);
            if (colour + 1 > top) top = colour + 1;
        } else {
            overflow = 1;
        }
        keys[s] = key_of(a, b, colour, s);
    }
    free(used);
    return colour_finish(f, keys, top, overflow, first, n);
}

int hk_colour_merge(hk_family *out, const hk_family *const *members, int m, int first, int n)
{
    int64_t total = 0;
    int top = 0, overflow = 0, rest = members[0]->rest_list != NULL;
    for (int q = 0; q < m; q++) {
        const hk_family *f = members[q];
        if (!f->colour_start || f->rvec[0] || f->broken || (f->rest_list != NULL) != rest) return -1;
        total += f->count;
        const int regular = f->colour_count - f->overflow;
        if (regular > top) top = regular;
        overflow |= f->overflow;
    }
    *out = *members[0];
    out->count = total;
    out->a = malloc((size_t)(total ? total : 1) * sizeof *out->a);
    out->b = malloc((size_t)(total ? total : 1) * sizeof *out->b);
    out->rest_list = rest ? hk_alloc_reals((size_t)total, NULL) : NULL;
    out->colour_start = out->near_end = out->band_start = NULL;
    colour_key *keys = malloc((size_t)(total ? total : 1) * sizeof *keys);
    if (!out->a || !out->b || (rest && !out->rest_list) || !keys) {
        free(keys);
        hk_family_free(out);
        return -1;
    }
    /* each member's springs, colour by colour, keep their colour (their
     * overflow goes to the merged one): a particle meets its springs in the
     * order its own family gives them */
    int64_t i = 0;
    for (int q = 0; q < m; q++) {
        const hk_family *f = members[q];
        const int regular = f->colour_count - f->overflow;
        for (int c = 0; c < f->colour_count; c++)
            for (int64_t s = f->colour_start[c]; s < f->colour_start[c + 1]; s++, i++) {
                out->a[i] = f->a[s];
                out->b[i] = f->b[s];
                if (rest) out->rest_list[i] = f->rest_list[s];
                keys[i] = key_of(f->a[s], f->b[s], c < regular ? c : HK_MAX_COLOURS, i);
            }
    }
    if (colour_finish(out, keys, top, overflow, first, n) != 0) {
        hk_family_free(out);
        return -1;
    }
    return 0;
}

/* Writes the failed rule into why and returns -1. */
static int colour_wrong(char *why, size_t len, const char *fmt, long long a, long long b, long long c)
{
    if (why && len) snprintf(why, len, fmt, a, b, c);
    return -1;
}

int hk_colour_check(const hk_family *f, int first, int n, char *why, size_t len)
{
    if (f->kind != HK_FAMILY_LIST || !f->colour_start) return 0;
    const int count = f->colour_count, regular = count - f->overflow, B1 = f->band_count + 1;
    if (f->colour_start[0] != 0 || f->colour_start[count] != f->count)
        return colour_wrong(why, len, "the colours hold springs [%lld, %lld) of %lld", (long long)f->colour_start[0],
                            (long long)f->colour_start[count], (long long)f->count);
    int *stamp = malloc((size_t)(n ? n : 1) * sizeof *stamp);
    if (!stamp) return colour_wrong(why, len, "out of memory for the check (%lld particles)", n, 0, 0);
    for (int i = 0; i < n; i++) stamp[i] = -1;
    int bad = 0;
    long long at = 0, c_at = 0;
    for (int c = 0; c < count && !bad; c++) {
        const int64_t s0 = f->colour_start[c], s1 = f->colour_start[c + 1], near = f->near_end[c];
        const int64_t *bs = f->band_start + (size_t)c * B1;
        if (s0 > s1 || near < s0 || near > s1 || bs[0] != s0 || bs[f->band_count] != near) {
            bad = 1, c_at = c;
            break;
        }
        for (int b = 0; b < f->band_count && !bad; b++)
            for (int64_t s = bs[b]; s < bs[b + 1] && !bad; s++) { /* near springs of band b: lower end in it */
                const int lo = f->a[s] < f->b[s] ? f->a[s] : f->b[s];
                if (lo / HK_BAND - f->band_first != b) bad = 2, at = s, c_at = c;
            }
        for (int64_t s = s0; s < s1 && !bad; s++) {
            const int a = f->a[s], e = f->b[s], lo = a < e ? a : e, hi = a < e ? e : a;
            if (a < first || a >= first + n || e < first || e >= first + n) {
                bad = 3, at = s, c_at = c;
            } else if ((s < near) != (hi / HK_BAND <= lo / HK_BAND + 1) && c < regular) {
                bad = 4, at = s, c_at = c; /* near: within one band and the next */
            } else if (c < regular) {
                /* no particle twice in a colour: tasks and lanes add without conflicts */
                if (stamp[a - first] == c || stamp[e - first] == c) bad = 5, at = s, c_at = c;
                stamp[a - first] = stamp[e - first] = c;
            }
        }
    }
    free(stamp);
    static const char *const rule[] = {
        "",
        "colour %lld: its tables are out of order",
        "spring %lld of colour %lld: not in the band it is listed in",
        "spring %lld of colour %lld: an end outside the family's particles",
        "spring %lld of colour %lld: listed near but its ends are more than a band apart, or the other way",
        "spring %lld of colour %lld: shares a particle with another spring of its colour"};
    if (bad == 1) return colour_wrong(why, len, rule[1], c_at, 0, 0);
    if (bad) return colour_wrong(why, len, rule[bad], at, c_at, 0);
    return 0;
}

int hk_family_max_degree(const hk_family *f, int first, int count)
{
    if (f->kind != HK_FAMILY_LIST) return 0;
    int *deg = calloc((size_t)(count ? count : 1), sizeof *deg);
    if (!deg) return -1;
    int best = 0;
    for (int64_t s = 0; s < f->count; s++) {
        if (++deg[f->a[s] - first] > best) best = deg[f->a[s] - first];
        if (++deg[f->b[s] - first] > best) best = deg[f->b[s] - first];
    }
    free(deg);
    return best;
}

int hk_world_reorder_body(hk_world *w, int body, int *order)
{
    if (body < 0 || body >= w->body_count) return hk_fail(w, "reorder: no body %d", body);
    const hk_body *bd = &w->bodies[body];
    const int n = bd->count, first = bd->first;
    int keep = bd->lattice; /* a lattice body's order is its lattice's (its rest positions, its stencils) */
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].body == body && w->families[fi].kind != HK_FAMILY_LIST) keep = 1;
    if (keep) {
        if (order)
            for (int i = 0; i < n; i++) order[i] = i;
        return 0;
    }
    /* adjacency in CSR form over local indices */
    int64_t *deg = calloc((size_t)n + 1, sizeof *deg);
    int *perm = malloc((size_t)n * sizeof *perm), *inv = malloc((size_t)n * sizeof *inv);
    int64_t edges = 0;
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].body == body) edges += w->families[fi].count;
    int *adj = malloc((size_t)(2 * edges + 1) * sizeof *adj);
    int64_t *fill = malloc((size_t)(n ? n : 1) * sizeof *fill);
    hk_real *tmp = hk_alloc_reals((size_t)n, NULL);
    if (!deg || !perm || !inv || !adj || !fill || !tmp) {
        free(deg);
        free(perm);
        free(inv);
        free(adj);
        free(fill);
        hk_free_reals(tmp);
        return hk_fail_memory(w, "reorder: out of memory");
    }
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != body) continue;
        for (int64_t s = 0; s < f->count; s++) {
            deg[f->a[s] - first + 1]++;
            deg[f->b[s] - first + 1]++;
        }
    }
    for (int i = 0; i < n; i++) deg[i + 1] += deg[i];
    memcpy(fill, deg, (size_t)n * sizeof *fill);
    for (int fi = 0; fi < w->family_count; fi++) {
        const hk_family *f = &w->families[fi];
        if (f->body != body) continue;
        for (int64_t s = 0; s < f->count; s++) {
            int a = f->a[s] - first, b = f->b[s] - first;
            adj[fill[a]++] = b;
            adj[fill[b]++] = a;
        }
    }
    free(fill);
    /* Cuthill-McKee: breadth first, neighbours by increasing degree, each
     * component started from its lowest-degree unvisited particle. */
    for (int i = 0; i < n; i++) inv[i] = -1;
    /* seeds: particles by increasing degree (counting sort), taken in turn */
    int maxdeg = 0;
    for (int i = 0; i < n; i++)
        if (deg[i + 1] - deg[i] > maxdeg) maxdeg = (int)(deg[i + 1] - deg[i]);
    int *bucket = calloc((size_t)maxdeg + 2, sizeof *bucket), *seeds = malloc((size_t)(n ? n : 1) * sizeof *seeds);
    if (!bucket || !seeds) {
        free(bucket);
        free(seeds);
        free(deg);
        free(perm);
        free(inv);
        free(adj);
        hk_free_reals(tmp);
        return hk_fail_memory(w, "reorder: out of memory");
    }
    for (int i = 0; i < n; i++) bucket[deg[i + 1] - deg[i] + 1]++;
    for (int d = 0; d <= maxdeg; d++) bucket[d + 1] += bucket[d];
    for (int i = 0; i < n; i++) seeds[bucket[deg[i + 1] - deg[i]]++] = i;
    free(bucket);
    int head = 0, tail = 0, next_seed = 0;
    while (tail < n) {
        while (inv[seeds[next_seed]] >= 0) next_seed++;
        int seed = seeds[next_seed];
        inv[seed] = tail;
        perm[tail++] = seed;
        while (head < tail) {
            int u = perm[head++];
            int start = tail;
            for (int64_t e = deg[u]; e < deg[u + 1]; e++)
                if (inv[adj[e]] < 0) {
                    inv[adj[e]] = tail;
                    perm[tail++] = adj[e];
                }
            /* insertion sort of the new ones by degree (short lists) */
            for (int x = start + 1; x < tail; x++) {
                int v = perm[x], y = x;
                while (y > start && deg[perm[y - 1] + 1] - deg[perm[y - 1]] > deg[v + 1] - deg[v]) {
                    perm[y] = perm[y - 1];
                    y--;
                }
                perm[y] = v;
            }
        }
    }
    free(seeds);
    /* reverse it: perm[new] = old */
    for (int i = 0; i < n / 2; i++) {
        int t = perm[i];
        perm[i] = perm[n - 1 - i];
        perm[n - 1 - i] = t;
    }
    for (int i = 0; i < n; i++) inv[perm[i]] = i;
    hk_real *arrays[] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,       w->p.vy,  w->p.vz,
                         w->p.fx, w->p.fy, w->p.fz, w->p.inv_mass, w->p.mass}; /* r = 0 here */
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        for (int i = 0; i < n; i++) tmp[i] = arrays[a][first + perm[i]];
        memcpy(arrays[a] + first, tmp, (size_t)n * sizeof *tmp);
    }
    for (int fi = 0; fi < w->family_count; fi++) {
        hk_family *f = &w->families[fi];
        if (f->body != body) continue;
        for (int64_t s = 0; s < f->count; s++) {
            f->a[s] = first + inv[f->a[s] - first];
            f->b[s] = first + inv[f->b[s] - first];
        }
        free(f->colour_start);
        free(f->near_end);
        free(f->band_start);
        f->colour_start = f->near_end = f->band_start = NULL;
        f->colour_count = 0;
        f->overflow = 0;
    }
    w->coloured = 0;
    if (order) memcpy(order, perm, (size_t)n * sizeof *order);
    w->history = 0;
    w->forces_valid = 0;
    free(deg);
    free(perm);
    free(inv);
    free(adj);
    hk_free_reals(tmp);
    return 0;
}
