/* checkpoint_pieces.c — the checkpoint of a world shared out over MPI ranks (a piece per rank and an index), and the
 * restart of a checkpoint on any number of ranks. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint_pieces.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ckpt_bytes.h"
#include "ckpt_view.h"
#include "colour.h"
#include "integrators.h"
#include "outfile.h"
#include "pairs.h"
#include "part.h"
#include "readfile.h"
#include "response.h"
#include "world.h"

/*
 * A piece (docs/checkpoint-format.md) is a one-process checkpoint's layout over the particles of one rank, with
 * the rank, the rank count and the particles' global ranges after the header; its lattices' broken masks cover the
 * source nodes of those ranges, its listed families' broken springs are given by their ends (global indices), each
 * surface says whether its rank computed it, and every particle index is global. The index names the pieces.
 */
static const char piece_magic[8] = {'H', 'O', 'O', 'K', 'E', 'C', 'K', 'R'};
static const char index_magic[8] = {'H', 'O', 'O', 'K', 'E', 'C', 'K', 'I'};

/* ---- files: whole, through NAME.tmp (outfile.h) ---- */

static int write_whole(const char *path, const unsigned char *p, size_t n) { return hk_out_write_whole(path, p, n, 1); }

/* The folder of path (for the pieces' names, which the index gives relative to it). */
static void folder_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    snprintf(dir, cap, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
}

/* ---- writing ---- */

/* The particle (global index) of storage index i of w. */
static int32_t global_of(const hk_world *w, int i) { return (int32_t)hk_global_index(&w->bodies[hk_body_of(w, i)], i); }

/* This rank's piece into b. */
static void put_piece(const hk_world *w, const hk_energy_guard *guard, uint64_t digest, hk_ckpt_buf *b)
{
    const hk_particles *p = &w->p;
    const struct hk_part *pt = w->part;
    int one[2];
    const int *span, spans = hk_world_spans(w, one, &span);
    hk_ckpt_put(b, piece_magic, sizeof piece_magic);
    hk_ckpt_put_u32(b, HK_CHECKPOINT_PIECE_VERSION);
    hk_ckpt_put_u32(b, 0x01020304u);
    hk_ckpt_put_u32(b, (uint32_t)sizeof(hk_real));
    hk_ckpt_put_u32(b, 0);
    hk_ckpt_put_u64(b, 0); /* file length, patched by the caller */
    hk_ckpt_put_u64(b, digest);
    hk_ckpt_put_u32(b, (uint32_t)w->gcount);
    hk_ckpt_put_u32(b, (uint32_t)w->body_count);
    hk_ckpt_put_u32(b, (uint32_t)w->family_count);
    hk_ckpt_put_u32(b, (uint32_t)w->sphere_count);
    hk_ckpt_put_u64(b, (uint64_t)hk_world_spring_count(w));
    hk_ckpt_put_u32(b, (uint32_t)pt->rank);
    hk_ckpt_put_u32(b, (uint32_t)pt->ranks);
    hk_ckpt_put_u32(b, (uint32_t)pt->nspan[pt->rank]); /* its particles, as global ranges (their storage in order) */
    for (int s = 0; s < pt->nspan[pt->rank]; s++) {
        hk_ckpt_put_u32(b, (uint32_t)pt->span[pt->rank][2 * s]);
        hk_ckpt_put_u32(b, (uint32_t)(pt->span[pt->rank][2 * s + 1] - pt->span[pt->rank][2 * s]));
    }
    hk_ckpt_put_i32(b, (int32_t)w->integrator.kind);
    const double settings[6] = {w->integrator.dt,         w->integrator.dt_max,      w->integrator.jelly_dt_a,
                                w->integrator.jelly_dt_v, w->integrator.jelly_alpha, w->integrator.cg_tolerance};
    hk_ckpt_put(b, settings, sizeof settings);
    hk_ckpt_put_i32(b, w->integrator.cg_max_iterations);
    hk_ckpt_put_i32(b, w->integrator.newton_iterations);
    hk_ckpt_put_i32(b, (int32_t)w->integrator.preconditioner);
    hk_ckpt_put_i32(b, (int32_t)w->integrator.cg_stop);
    hk_ckpt_put_f64(b, w->integrator.newton_tolerance);
    hk_ckpt_put_i32(b, w->integrator.iterations);
    hk_ckpt_put_f64(b, w->integrator.chebyshev_rho);
    hk_ckpt_put_i32(b, w->substeps);
    hk_ckpt_put_f64(b, w->h);
    hk_ckpt_put_f64(b, w->time);
    hk_ckpt_put_i64(b, w->steps);
    hk_ckpt_put_i64(b, w->spring_updates);
    hk_real *hist[6];
    const int kept = hk_world_history(w, hist), has_prev = w->history && kept > 0 && w->history_arrays >= kept;
    hk_ckpt_put_i32(b, has_prev);
    hk_ckpt_put_i32(b, w->forces_valid);
    const hk_real *arrays[HK_CKPT_ARRAYS + 6] = {p->qx,   p->qy,   p->qz,   p->vx,       p->vy,   p->vz,
                                                 p->fx,   p->fy,   p->fz,   p->inv_mass, p->mass, hist[0],
                                                 hist[1], hist[2], hist[3], hist[4],     hist[5]};
    for (int a = 0; a < HK_CKPT_ARRAYS + kept * has_prev; a++)
        for (int s = 0; s < spans; s++)
            hk_ckpt_put(b, arrays[a] + span[2 * s], (size_t)(span[2 * s + 1] - span[2 * s]) * sizeof(hk_real));
    for (int i = 0; i < w->body_count; i++) {
        const hk_body *body = &w->bodies[i];
        hk_ckpt_put_i32(b, body->anchor);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(b, body->anchor_pos[c]);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(b, body->anchor_vel[c]);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(b, body->origin[c]);
    }
    for (int i = 0; i < w->sphere_count; i++) {
        const hk_sphere_def *s = &w->spheres[i];
        const double v[8] = {s->center.x,   s->center.y,   s->center.z,   s->radius,
                             s->velocity.x, s->velocity.y, s->velocity.z, s->loss};
        hk_ckpt_put(b, v, sizeof v);
    }
    for (int i = 0; i < w->family_count; i++) {
        const hk_family *f = &w->families[i];
        int64_t l0, l1;
        const int mine = hk_part_owned(w, f->body, &l0, &l1);
        hk_ckpt_put_i32(b, f->colour_start != NULL);
        hk_ckpt_put_i64(b, mine ? f->broken_count : 0);
        if (f->kind == HK_FAMILY_LATTICE) { /* the flags of its source nodes this rank computes */
            const int64_t n = f->broken && mine ? l1 - l0 : 0;
            hk_ckpt_put_i64(b, n);
            if (n) hk_ckpt_put(b, f->broken + l0, (size_t)n);
            continue;
        }
        int64_t n = 0; /* a list's broken springs by their ends */
        for (int64_t s = 0; f->broken && mine && s < f->count; s++) n += f->broken[s] != 0;
        hk_ckpt_put_i64(b, n);
        for (int64_t s = 0; f->broken && mine && s < f->count; s++)
            if (f->broken[s]) hk_ckpt_put_i32(b, global_of(w, f->a[s])), hk_ckpt_put_i32(b, global_of(w, f->b[s]));
    }
    hk_ckpt_put_u32(b, (uint32_t)w->surface_count);
    for (int i = 0; i < w->surface_count; i++) {
        int64_t l0, l1;
        hk_ckpt_put_i32(b, hk_part_owned(w, w->surfaces[i].body, &l0, &l1));
        hk_ckpt_put_f64(b, w->surfaces[i].pump);
        hk_ckpt_put_f64(b, w->surfaces[i].volume);
        hk_ckpt_put_f64(b, w->surfaces[i].pressure);
    }
    const double start[HK_CKPT_GUARD_VALUES] = {guard->e0, guard->scale, guard->g0, guard->moved};
    hk_ckpt_put(b, start, sizeof start);
    const hk_pairs *pr = hk_pairs_of(w); /* rank 0's: it holds the bodies that take part whole */
    const int64_t ncontact = pr ? hk_pairs_contacts(w, pr, NULL) : 0;
    hk_pair *contact = malloc((size_t)ncontact * sizeof *contact + 1);
    if (!contact) b->oom = 1;
    if (contact && pr) hk_pairs_contacts(w, pr, contact);
    hk_ckpt_put_u64(b, (uint64_t)ncontact);
    hk_ckpt_put_i64(b, hk_pairs_left(pr));
    for (int64_t i = 0; i < ncontact && contact; i++) {
        hk_ckpt_put_i32(b, contact[i].kind);
        for (int c = 0; c < 4; c++) hk_ckpt_put_i32(b, global_of(w, contact[i].p[c]));
    }
    free(contact);
    hk_real *anchor[4];
    const int anchored = hk_contact_anchors(w, anchor);
    int64_t own = 0;
    for (int s = 0; s < spans; s++) own += span[2 * s + 1] - span[2 * s];
    hk_ckpt_put_u32(b, anchored ? (uint32_t)own : 0);
    for (int a = 0; a < 4 && anchored; a++)
        for (int s = 0; s < spans; s++)
            hk_ckpt_put(b, anchor[a] + span[2 * s], (size_t)(span[2 * s + 1] - span[2 * s]) * sizeof(hk_real));
    const int64_t npa = hk_pairs_anchors_held(pr);
    int32_t *keys = npa ? malloc((size_t)npa * 5 * sizeof *keys) : NULL;
    double *weights = npa ? malloc((size_t)npa * 2 * sizeof *weights) : NULL;
    if (npa && (!keys || !weights)) b->oom = 1;
    if (keys && weights) hk_pairs_anchors_get(pr, keys, weights);
    hk_ckpt_put_u64(b, (uint64_t)npa);
    for (int64_t i = 0; i < npa && keys && weights; i++) {
        hk_ckpt_put_i32(b, keys[5 * i]);
        for (int c = 1; c < 5; c++) hk_ckpt_put_i32(b, global_of(w, keys[5 * i + c]));
        hk_ckpt_put_f64(b, weights[2 * i]), hk_ckpt_put_f64(b, weights[2 * i + 1]);
    }
    free(keys), free(weights);
    hk_ckpt_put_u64(b, 0); /* checksum, patched by the caller */
}

/* Patches the length (at byte `at`) and the checksum of the file in b; -1 when b ran out of memory. */
static int seal(hk_ckpt_buf *b, size_t at)
{
    if (b->oom) return -1;
    const uint64_t total = b->len;
    memcpy(b->p + at, &total, sizeof total);
    const uint64_t sum = hk_ckpt_fnv1a(b->p, b->len - 8, HK_CKPT_FNV_BASIS);
    memcpy(b->p + b->len - 8, &sum, sizeof sum);
    return 0;
}

/* An index (docs/checkpoint-format.md): the scene digest, the step and the rank count it was written at, and its
 * pieces' names (relative to its folder), ranks of them. */
typedef struct ckpt_index {
    uint64_t digest;
    int64_t step;
    uint32_t ranks;
    char **names;
} ckpt_index;

static void index_free(ckpt_index *ix)
{
    for (uint32_t r = 0; ix->names && r < ix->ranks; r++) free(ix->names[r]);
    free(ix->names);
    ix->names = NULL;
}

/* The one reader of an index, for the writer (the pieces it may remove) and the restart: the file at path read and
 * checked (magic, version, byte order, length, checksum, a rank count in [1, 2^20], names exactly
 * <path's base name>.step<S>.rank<r> for r = 0 .. ranks - 1 in order, S its step) before anything is done with
 * what it says. 0 with *ix filled (index_free it), or -1 with "PATH: ..." in err and nothing in *ix. */
static int index_read(const char *path, ckpt_index *ix, char *err, size_t errlen)
{
    memset(ix, 0, sizeof *ix);
    char *text, why[512];
    size_t len;
    if (hk_read_file(path, 1 << 24, "checkpoint", &text, &len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    hk_ckpt_cursor c = {(const unsigned char *)text, len, 8, 0};
    const uint32_t version = hk_ckpt_get_u32(&c), order = hk_ckpt_get_u32(&c);
    const uint64_t total = hk_ckpt_get_u64(&c);
    ix->digest = hk_ckpt_get_u64(&c);
    ix->step = hk_ckpt_get_i64(&c);
    ix->ranks = hk_ckpt_get_u32(&c);
    uint64_t sum = 0;
    if (len >= 8) memcpy(&sum, text + len - 8, 8);
    int bad = len < 48 || memcmp(text, index_magic, 8) != 0 || version != HK_CHECKPOINT_PIECE_VERSION ||
              order != 0x01020304u || total != len ||
              hk_ckpt_fnv1a((const unsigned char *)text, len - 8, HK_CKPT_FNV_BASIS) != sum || ix->step < 0 ||
              ix->ranks < 1 || ix->ranks > HK_CKPT_MAX_RANKS;
    c.len = len >= 8 ? len - 8 : 0;
    ix->names = bad ? NULL : calloc(ix->ranks, sizeof *ix->names);
    bad |= !ix->names;
    for (uint32_t r = 0; !bad && r < ix->ranks; r++) {
        char want[4200];
        const int n = snprintf(want, sizeof want, "%s.step%lld.rank%u", base, (long long)ix->step, r);
        const uint32_t k = hk_ckpt_get_u32(&c);
        const char *s = hk_ckpt_take(&c, k);
        bad = !s || n < 0 || (size_t)n >= sizeof want || k != (uint32_t)n || memcmp(s, want, k) != 0 ||
              !(ix->names[r] = strdup(want));
    }
    bad |= c.bad || c.at != c.len;
    free(text);
    if (bad) {
        index_free(ix);
        snprintf(err, errlen,
                 "%s: checkpoint index is corrupted (version, length, checksum, rank count, or piece names other than "
                 "%s.step<S>.rank<r> for every rank in order)",
                 path, base);
        return -1;
    }
    return 0;
}

int hk_checkpoint_write_pieces(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                               char *err, size_t errlen)
{
    const struct hk_part *pt = w->part;
    char name[4200], dir[4200];
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(name, sizeof name, "%s.step%lld.rank%d", path, (long long)w->steps, pt->rank);
    folder_of(path, dir, sizeof dir);
    /* the colliders' friction anchors on every rank once one holds them (all let go where none was held), so that
     * every piece has them or none does */
    if (hk_world_collider_count(w) > 0 && hk_contact_keep_anchors((hk_world *)w) != 0) {
        snprintf(err, errlen, "%s: cannot write checkpoint: out of memory", name);
        hk_part_any(w, 1); /* the others' verdict on their pieces */
        return -1;
    }
    hk_ckpt_buf b = {0};
    put_piece(w, guard, scene_digest, &b);
    int failed = seal(&b, 24) != 0 ? (errno = ENOMEM, 1) : write_whole(name, b.p, b.len) != 0;
    const int saved = errno;
    free(b.p);
    if (hk_part_any(w, failed)) { /* every piece whole, or no index */
        snprintf(err, errlen, "%s: cannot write checkpoint: %s", failed ? name : path,
                 failed ? hk_out_strerror(saved) : "another rank could not write its piece");
        return -1;
    }
    if (pt->rank == 0) { /* the index, then the pieces it named before (none is named twice: a step each) */
        ckpt_index old;  /* the pieces a sound index names (none where it is not one) */
        char why[512];
        const int had = index_read(path, &old, why, sizeof why) == 0;
        const int nold = had && old.step != w->steps ? (int)old.ranks : 0;
        hk_ckpt_buf ix = {0};
        hk_ckpt_put(&ix, index_magic, sizeof index_magic);
        hk_ckpt_put_u32(&ix, HK_CHECKPOINT_PIECE_VERSION);
        hk_ckpt_put_u32(&ix, 0x01020304u);
        hk_ckpt_put_u64(&ix, 0);
        hk_ckpt_put_u64(&ix, scene_digest);
        hk_ckpt_put_i64(&ix, w->steps);
        hk_ckpt_put_u32(&ix, (uint32_t)pt->ranks);
        for (int r = 0; r < pt->ranks; r++) {
            char piece[4200];
            const int k = snprintf(piece, sizeof piece, "%s.step%lld.rank%d", base, (long long)w->steps, r);
            hk_ckpt_put_u32(&ix, (uint32_t)k);
            hk_ckpt_put(&ix, piece, (size_t)k);
        }
        hk_ckpt_put_u64(&ix, 0);
        failed = seal(&ix, 16) != 0 ? (errno = ENOMEM, 1) : write_whole(path, ix.p, ix.len) != 0;
        free(ix.p);
        if (failed) snprintf(err, errlen, "%s: cannot write checkpoint: %s", path, hk_out_strerror(errno));
        for (int k = 0; k < nold; k++) {
            char gone[8400];
            if (!failed && (size_t)snprintf(gone, sizeof gone, "%s/%s", dir, old.names[k]) < sizeof gone) unlink(gone);
        }
        if (had) index_free(&old);
    }
    if (hk_part_any(w, failed)) {
        if (!failed) snprintf(err, errlen, "%s: cannot write checkpoint: rank 0 could not write the index", path);
        return -1;
    }
    return 0;
}

/* ---- reading ---- */

/* The storage index of global particle g in w, or -1 where w does not hold it. */
static int64_t storage_of(const hk_world *w, int64_t g)
{
    int lo = 0, hi = w->body_count - 1;
    while (lo <= hi) { /* bodies in global order */
        const int m = lo + (hi - lo) / 2;
        const hk_body *b = &w->bodies[m];
        if (g < b->gfirst)
            hi = m - 1;
        else if (g >= (int64_t)b->gfirst + b->total)
            lo = m + 1;
        else {
            const int64_t l = g - b->gfirst;
            return l >= b->lo && l < (int64_t)b->lo + b->count ? hk_body_base(b) + l : -1;
        }
    }
    return -1;
}

/* What a piece restores of w: the particles it holds that w holds, their broken springs, the pressure of the
 * surfaces its rank computed, the pairs where w holds them (rank 0). */
static void apply_piece(hk_world *w, const hk_ckpt_view *v)
{
    hk_real *const dst[HK_CKPT_ARRAYS + 6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,       w->p.vy,   w->p.vz,
                                              w->p.fx, w->p.fy, w->p.fz, w->p.inv_mass, w->p.mass, w->px,
                                              w->py,   w->pz,   w->dqx,  w->dqy,        w->dqz};
    hk_real *anchor[4] = {NULL, NULL, NULL, NULL};
    if (v->nanchor) hk_contact_anchors(w, anchor);
    const size_t bytes = (size_t)v->count * sizeof(hk_real);
    int64_t at = 0; /* the piece's particles before this range */
    for (uint32_t k = 0; k < (v->classic ? 1 : v->ranges_n); k++) {
        int64_t g, n;
        hk_ckpt_view_range(v, k, &g, &n);
        for (int b = 0; b < w->body_count; b++) {
            const hk_body *bd = &w->bodies[b];
            const int64_t a0 = (int64_t)bd->gfirst + bd->lo, a1 = a0 + bd->count; /* held, as global indices */
            const int64_t lo = g > a0 ? g : a0, hi = g + n < a1 ? g + n : a1;
            if (lo >= hi) continue;
            const int64_t to = hk_body_base(bd) + (lo - bd->gfirst), from = at + (lo - g);
            for (int a = 0; a < HK_CKPT_ARRAYS + v->history_arrays; a++)
                memcpy(dst[a] + to, v->arrays[a] + (size_t)from * sizeof(hk_real), (size_t)(hi - lo) * sizeof(hk_real));
            for (int a = 0; a < 4 && anchor[0]; a++)
                memcpy(anchor[a] + to, v->anchors + (size_t)a * bytes + (size_t)from * sizeof(hk_real),
                       (size_t)(hi - lo) * sizeof(hk_real));
        }
        at += n;
    }
    hk_ckpt_cursor fc = {v->data, v->len - 8, v->fam_at, 0};
    for (int i = 0; i < w->family_count; i++) {
        hk_family *f = &w->families[i];
        const hk_body *bd = &w->bodies[f->body];
        hk_ckpt_get_i32(&fc);
        hk_ckpt_get_i64(&fc);
        const int64_t n = hk_ckpt_get_i64(&fc);
        if (f->kind == HK_FAMILY_LATTICE || v->classic) {
            const unsigned char *mask = hk_ckpt_take(&fc, (size_t)n);
            if (!f->broken || !mask || f->kind != HK_FAMILY_LATTICE) continue;
            if (v->classic) { /* every source node of the body */
                for (int64_t l = f->lo; l < f->hi && l < n; l++) f->broken[l] = mask[l];
                continue;
            }
            int64_t m = 0; /* the piece's ranges within the body, in order: their nodes' flags */
            for (uint32_t k = 0; k < v->ranges_n && n > 0; k++) {
                int64_t g, cnt;
                hk_ckpt_view_range(v, k, &g, &cnt);
                const int64_t l0 = g > bd->gfirst ? g - bd->gfirst : 0;
                const int64_t l1 = g + cnt - bd->gfirst < bd->total ? g + cnt - bd->gfirst : bd->total;
                for (int64_t l = l0; l < l1; l++, m++)
                    if (l >= f->lo && l < f->hi && m < n) f->broken[l] = mask[m];
            }
            continue;
        }
        for (int64_t k = 0; k < n; k++) { /* a list's broken springs by their ends */
            const int64_t a = storage_of(w, hk_ckpt_get_i32(&fc)), b = storage_of(w, hk_ckpt_get_i32(&fc));
            for (int64_t s = 0; f->broken && a >= 0 && b >= 0 && s < f->count; s++)
                if (f->a[s] == a && f->b[s] == b) f->broken[s] = 1;
        }
    }
    for (uint32_t i = 0; i < v->nsurf; i++) {
        int32_t own;
        double s[3];
        hk_ckpt_view_surface(v, i, &own, s);
        w->surfaces[i].pump = s[0];
        if (!own) continue;
        w->surfaces[i].volume = s[1];
        w->surfaces[i].pressure = s[2];
    }
}

/* What every rank holds alike, from piece v: each body's anchor and origin, each sphere. */
static void apply_shared(hk_world *w, const hk_ckpt_view *v)
{
    for (int i = 0; i < w->body_count; i++) {
        hk_ckpt_cursor bc = {v->bodies + (size_t)i * HK_CKPT_BODY_BYTES, HK_CKPT_BODY_BYTES, 0, 0};
        hk_body *body = &w->bodies[i];
        body->anchor = hk_ckpt_get_i32(&bc);
        for (int k = 0; k < 3; k++) body->anchor_pos[k] = hk_ckpt_get_f64(&bc);
        for (int k = 0; k < 3; k++) body->anchor_vel[k] = hk_ckpt_get_f64(&bc);
        for (int k = 0; k < 3; k++) body->origin[k] = hk_ckpt_get_f64(&bc);
    }
    for (int i = 0; i < w->sphere_count; i++) {
        double s[8];
        memcpy(s, v->spheres + (size_t)i * sizeof s, sizeof s);
        hk_sphere_def *sp = &w->spheres[i];
        sp->center = (hk_vec3){s[0], s[1], s[2]};
        sp->radius = s[3];
        sp->velocity = (hk_vec3){s[4], s[5], s[6]};
        sp->loss = s[7];
    }
}

/* The pairs of piece v (global particles) as w's (storage); 0, or -1 out of memory or where w holds none of them. */
static int restore_pairs(hk_world *w, const hk_ckpt_view *v)
{
    hk_pairs *pr = hk_pairs_of(w);
    if (!pr || (!v->ncontact && !v->crossings && !v->npa)) return 0;
    hk_pair *in = malloc((size_t)v->ncontact * sizeof *in + 1);
    int32_t *keys = malloc((size_t)v->npa * 5 * sizeof *keys + 1);
    double *weights = malloc((size_t)v->npa * 2 * sizeof *weights + 1);
    int rc = in && keys && weights ? 0 : -1;
    for (uint64_t i = 0; rc == 0 && i < v->ncontact; i++) {
        int32_t key[5];
        memcpy(key, v->contacts + (size_t)i * HK_CKPT_PAIR_KEY, sizeof key);
        in[i].kind = key[0];
        for (int k = 0; k < 4; k++) {
            const int64_t s = storage_of(w, key[1 + k]);
            rc |= s < 0;
            in[i].p[k] = (int32_t)s;
        }
    }
    for (uint64_t i = 0; rc == 0 && i < v->npa; i++) {
        const unsigned char *r = v->pair_anchors + (size_t)i * HK_CKPT_PAIR_ANCHOR;
        memcpy(keys + 5 * i, r, HK_CKPT_PAIR_KEY);
        for (int k = 1; k < 5; k++) {
            const int64_t s = storage_of(w, keys[5 * i + k]);
            rc |= s < 0;
            keys[5 * i + k] = (int32_t)s;
        }
        memcpy(weights + 2 * i, r + HK_CKPT_PAIR_KEY, 2 * 8);
    }
    if (rc == 0) rc = hk_pairs_contacts_restore(pr, (int64_t)v->ncontact, in, v->crossings);
    if (rc == 0) rc = hk_pairs_anchors_restore(pr, (int64_t)v->npa, keys, weights);
    free(in), free(keys), free(weights);
    return rc;
}

int hk_checkpoint_is_index(const char *path)
{
    char head[8];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    const int is = fread(head, 1, 8, f) == 8 && memcmp(head, index_magic, 8) == 0;
    fclose(f);
    return is;
}

/* The largest piece file a world of w's particles can have: a bound for the reader. */
static size_t piece_bound(const hk_world *w)
{
    size_t n = 4096 + (size_t)w->gcount * (sizeof(hk_real) * 18 + 8 + 64 * (HK_CKPT_PAIR_KEY + HK_CKPT_PAIR_ANCHOR));
    n += (size_t)w->body_count * HK_CKPT_BODY_BYTES + (size_t)w->sphere_count * 64 + (size_t)w->surface_count * 28;
    for (int i = 0; i < w->family_count; i++) n += 20 + (size_t)w->families[i].total * 8;
    return n;
}

/* The listed family of w whose broken springs a one-process checkpoint v holds (their order in its masks is that
 * process's own colouring: a world shared out cannot place them), or -1. */
static int list_broken(const hk_world *w, const hk_ckpt_view *v)
{
    hk_ckpt_cursor fc = {v->data, v->len - 8, v->fam_at, 0};
    for (int i = 0; i < w->family_count; i++) {
        hk_ckpt_get_i32(&fc);
        const int64_t broken = hk_ckpt_get_i64(&fc), n = hk_ckpt_get_i64(&fc);
        hk_ckpt_take(&fc, (size_t)n);
        if (broken && w->families[i].kind == HK_FAMILY_LIST) return i;
    }
    return -1;
}

/* Reads piece k of the checkpoint (its file name) into *text and views it; 0, or -1 with the message in err. */
static int read_piece(const hk_world *w, uint64_t digest, const char *file, char **text, hk_ckpt_view *v, char *err,
                      size_t errlen)
{
    size_t len = 0;
    char why[512];
    if (hk_read_file(file, piece_bound(w), "checkpoint", text, &len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", file, why);
        return -1;
    }
    if (hk_ckpt_view_check(w, digest, (const unsigned char *)*text, len, file, v, err, errlen) != 0) {
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

int hk_checkpoint_read_pieces(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const char *path, char *err,
                              size_t errlen)
{
    const char *name = path;
    char dir[4200];
    folder_of(path, dir, sizeof dir);
    /* the pieces: an index's, or a one-process checkpoint as one */
    char **names = NULL, *text = NULL;
    int n = 0, indexed = hk_checkpoint_is_index(path);
    int64_t step = 0;
    if (indexed) { /* the index read and checked (index_read), then its names in its folder */
        ckpt_index ix;
        if (index_read(path, &ix, err, errlen) != 0) return -1;
        if (ix.digest != scene_digest) {
            index_free(&ix);
            HK_CKPT_FAIL("checkpoint was written for a different scene (the scene file or a file it loads has changed; "
                         "scene digest differs)");
        }
        step = ix.step;
        names = calloc(ix.ranks, sizeof *names);
        for (uint32_t r = 0; names && r < ix.ranks && (names[r] = malloc(strlen(dir) + strlen(ix.names[r]) + 2));
             r++, n++)
            sprintf(names[r], "%s/%s", dir, ix.names[r]);
        const int whole = names && n == (int)ix.ranks;
        index_free(&ix);
        if (!whole) {
            for (int k = 0; k < n; k++) free(names[k]);
            free(names);
            HK_CKPT_FAIL("out of memory while restoring");
        }
    } else {
        names = malloc(sizeof *names);
        if (!names || !(names[0] = strdup(path))) {
            free(names);
            HK_CKPT_FAIL("out of memory while restoring");
        }
        n = 1;
    }
    /* every piece read and checked before w is touched (one piece in memory at a time) */
    hk_ckpt_view v, first;
    int rc = 0, anchored = 0;
    /* the pieces cover every particle once: piece k is rank k's of the index's rank count, of its step */
    uint8_t *held = calloc((size_t)w->gcount + 1, 1);
    if (!held) rc = -1, snprintf(err, errlen, "%s: out of memory while restoring", name);
    for (int k = 0; k < n && rc == 0; k++) {
        rc = read_piece(w, scene_digest, names[k], &text, &v, err, errlen);
        if (rc == 0 && k == 0) first = v;
        anchored |= rc == 0 && v.nanchor;
        if (rc == 0 && (v.steps != first.steps || v.time != first.time || v.has_prev != first.has_prev))
            rc = -1, snprintf(err, errlen, "%s: checkpoint is corrupted (its pieces are of different steps)", names[k]);
        const int list = rc == 0 && v.classic && w->part ? list_broken(w, &v) : -1;
        if (list >= 0) {
            snprintf(err, errlen,
                     "%s: the checkpoint of one process holds broken springs of the listed family %s (body %d): their "
                     "order is that process's own; restart it on one process",
                     names[k], w->families[list].name, w->families[list].body);
            rc = -1;
        }
        if (rc == 0 && indexed && (v.classic || v.rank != (uint32_t)k || v.ranks != (uint32_t)n || v.steps != step)) {
            snprintf(err, errlen,
                     "%s: checkpoint is corrupted (the index names it piece %d of %d ranks at step %lld; it is %s%u of "
                     "%u at step %lld)",
                     names[k], k, n, (long long)step, v.classic ? "a one-process checkpoint, not a piece, " : "piece ",
                     v.rank, v.ranks, (long long)v.steps);
            rc = -1;
        }
        for (uint32_t r = 0; rc == 0 && r < (v.classic ? 1 : v.ranges_n); r++) {
            int64_t g, cnt;
            hk_ckpt_view_range(&v, r, &g, &cnt);
            for (int64_t i = g; rc == 0 && i < g + cnt; i++)
                if (held[i]++) {
                    snprintf(err, errlen, "%s: checkpoint is corrupted (particle %lld is in another piece too)",
                             names[k], (long long)i);
                    rc = -1;
                }
        }
        free(text);
        text = NULL;
    }
    for (int64_t i = 0; rc == 0 && i < w->gcount; i++)
        if (!held[i]) {
            snprintf(err, errlen, "%s: checkpoint is corrupted (no piece holds particle %lld)", name, (long long)i);
            rc = -1;
        }
    free(held);
    if (rc == 0) { /* the integrator, as every piece has it */
        hk_integrator_def saved = w->integrator;
        if (hk_world_set_integrator(w, &first.def) != 0 || w->substeps != first.substeps || w->h != first.h) {
            hk_world_set_integrator(w, &saved);
            rc = -1, snprintf(err, errlen, "%s: checkpoint holds an invalid integrator setting", name);
        } else if ((first.has_prev && hk_world_make_history(w) != 0) || (anchored && hk_contact_keep_anchors(w) != 0)) {
            hk_world_set_integrator(w, &saved);
            rc = -1, snprintf(err, errlen, "%s: out of memory while restoring", name);
        }
    }
    hk_real *anchor[4];
    if (rc == 0 && !anchored && hk_contact_anchors(w, anchor)) /* a world that had not stepped: none held */
        for (int i = 0; i < w->p.count; i++) anchor[3][i] = -1;
    for (int fi = 0; rc == 0 && fi < w->family_count; fi++) { /* the broken springs come from the pieces */
        hk_family *f = &w->families[fi];
        if (f->broken)
            memset(f->broken + (f->kind == HK_FAMILY_LATTICE ? f->lo : 0), 0,
                   (size_t)(f->kind == HK_FAMILY_LATTICE ? f->hi - f->lo : f->count));
    }
    for (int k = 0; k < n && rc == 0; k++) { /* each piece again: what w holds of it */
        rc = read_piece(w, scene_digest, names[k], &text, &v, err, errlen);
        if (rc == 0) apply_piece(w, &v);
        if (rc == 0 && k == 0) apply_shared(w, &v);
        if (rc == 0 && restore_pairs(w, &v) != 0)
            rc = -1, snprintf(err, errlen, "%s: checkpoint's contact pairs cannot be restored (out of memory)", name);
        free(text);
        text = NULL;
    }
    for (int k = 0; k < n; k++) free(names[k]);
    free(names);
    if (rc != 0) return -1;
    for (int fi = 0; fi < w->family_count; fi++) { /* each rank counts the broken springs it computes */
        hk_family *f = &w->families[fi];
        int64_t l0, l1;
        f->broken_count = 0;
        if (!f->broken || !hk_part_owned(w, f->body, &l0, &l1)) continue;
        if (f->kind == HK_FAMILY_LATTICE)
            for (int64_t l = l0; l < l1; l++) f->broken_count += f->broken[l] != 0;
        else
            for (int64_t s = 0; s < f->count; s++) f->broken_count += f->broken[s] != 0;
    }
    w->h = first.h;
    w->time = first.time;
    w->steps = first.steps;
    w->spring_updates = first.updates;
    w->history = first.has_prev;
    w->forces_valid = first.forces_valid;
    guard->e0 = first.start[0], guard->scale = first.start[1], guard->g0 = first.start[2];
    guard->moved = first.start[3];
    return 0;
}
