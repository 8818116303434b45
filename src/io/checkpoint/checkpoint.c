/* checkpoint.c — checkpoint files: the complete stepping state of a world, checksummed, written atomically. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hooke/hooke.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint_pieces.h"
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
 * Layout (native byte order; docs/checkpoint-format.md):
 *   header  "HOOKECKP" | u32 version | u32 0x01020304 (byte order) | u32 sizeof(hk_real) | u32 0
 *           | u64 file length | u64 scene digest | u32 particles, bodies, families, spheres | u64 springs
 *   payload integrator def, substeps, h, time, steps, spring updates, history and forces_valid flags,
 *           11 particle arrays (qx qy qz vx vy vz fx fy fz inv_mass mass), with the flag the integrator's
 *           history (integrators.h: 3 or 6 arrays), per body: anchor and origin, spheres, per family: coloured
 *           flag, broken count, broken mask, u32 surfaces, per surface: pump fraction, volume, pressure (f64
 *           each), the energy guard's start energy, scale, gravity energy and largest gravity work (f64 each),
 *           u64 contact pairs in contact and i64 crossings, then each pair's kind and four particles (i32 each),
 *           u32 anchored particles (0 or all), then the colliders' friction anchors: x, y, z and collider index
 *           (-1: none) of each, u64 anchored pairs, then each one's kind and four particles (i32 each) and its
 *           two weights (f64 each)
 * trailer u64 FNV-1a of every byte before it
 */

static const char magic[8] = {'H', 'O', 'O', 'K', 'E', 'C', 'K', 'P'};
/* The energy guard's values (diagnosis.h): e0, scale, g0, moved. */
enum { GUARD_VALUES = 4 };
enum { HEADER_BYTES = 8 + 4 * 4 + 8 + 8 + 4 * 4 + 8 };

/* Continues the FNV-1a hash h over the bytes of the file at path; 0, or -1 with errno set. */
static int digest_add(const char *path, uint64_t *h)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) *h = hk_ckpt_fnv1a(buf, got, *h);
    const int bad = ferror(f);
    fclose(f);
    if (bad) errno = EIO;
    return bad ? -1 : 0;
}

int hk_checkpoint_digest(const char *scene_path, const char *const *files, int nfiles, uint64_t *digest, char *err,
                         size_t errlen)
{
    uint64_t h = HK_CKPT_FNV_BASIS;
    for (int i = -1; i < nfiles; i++) {
        const char *path = i < 0 ? scene_path : files[i];
        if (digest_add(path, &h) != 0) {
            snprintf(err, errlen, "%s: cannot read it for the checkpoint's digest: %s", path, strerror(errno));
            return -1;
        }
    }
    *digest = h;
    return 0;
}

int hk_checkpoint_digest_text(const char *text, size_t len, const char *const *files, int nfiles, uint64_t *digest,
                              char *err, size_t errlen)
{
    uint64_t h = hk_ckpt_fnv1a((const unsigned char *)text, len, HK_CKPT_FNV_BASIS);
    for (int i = 0; i < nfiles; i++)
        if (digest_add(files[i], &h) != 0) {
            snprintf(err, errlen, "%s: cannot read it for the checkpoint's digest: %s", files[i], strerror(errno));
            return -1;
        }
    *digest = h;
    return 0;
}

/* Bytes of a family's broken mask: by local source node (lattice) or by spring (list). */
static int64_t mask_len(const hk_world *w, const hk_family *f)
{
    if (!f->broken) return 0;
    return f->kind == HK_FAMILY_LATTICE ? w->bodies[f->body].count : f->count;
}

int hk_checkpoint_bytes(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, unsigned char **out,
                        size_t *len, const char *name, char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    if (w->part && w->part->ranks > 1) {
        snprintf(err, errlen, "%s: a world shared out over ranks is saved as pieces, not in memory", name);
        return -1;
    }
    hk_state_read(w); /* a device's newer state (core/device) */
    const hk_particles *p = &w->p;
    hk_ckpt_buf b = {0};
    hk_ckpt_put(&b, magic, sizeof magic);
    hk_ckpt_put_u32(&b, HK_CHECKPOINT_VERSION);
    hk_ckpt_put_u32(&b, 0x01020304u);
    hk_ckpt_put_u32(&b, (uint32_t)sizeof(hk_real));
    hk_ckpt_put_u32(&b, 0);
    hk_ckpt_put_u64(&b, 0); /* file length, patched below */
    hk_ckpt_put_u64(&b, scene_digest);
    hk_ckpt_put_u32(&b, (uint32_t)p->count);
    hk_ckpt_put_u32(&b, (uint32_t)w->body_count);
    hk_ckpt_put_u32(&b, (uint32_t)w->family_count);
    hk_ckpt_put_u32(&b, (uint32_t)w->sphere_count);
    hk_ckpt_put_u64(&b, (uint64_t)hk_world_spring_count(w));

    hk_ckpt_put_i32(&b, (int32_t)w->integrator.kind);
    hk_ckpt_put_f64(&b, w->integrator.dt);
    hk_ckpt_put_f64(&b, w->integrator.dt_max);
    hk_ckpt_put_f64(&b, w->integrator.jelly_dt_a);
    hk_ckpt_put_f64(&b, w->integrator.jelly_dt_v);
    hk_ckpt_put_f64(&b, w->integrator.jelly_alpha);
    hk_ckpt_put_f64(&b, w->integrator.cg_tolerance);
    hk_ckpt_put_i32(&b, w->integrator.cg_max_iterations);
    hk_ckpt_put_i32(&b, w->integrator.newton_iterations);
    hk_ckpt_put_i32(&b, (int32_t)w->integrator.preconditioner);
    hk_ckpt_put_i32(&b, (int32_t)w->integrator.cg_stop);
    hk_ckpt_put_f64(&b, w->integrator.newton_tolerance);
    hk_ckpt_put_i32(&b, w->integrator.iterations);
    hk_ckpt_put_f64(&b, w->integrator.chebyshev_rho);
    hk_ckpt_put_i32(&b, w->substeps);
    hk_ckpt_put_f64(&b, w->h);
    hk_ckpt_put_f64(&b, w->time);
    hk_ckpt_put_i64(&b, w->steps);
    hk_ckpt_put_i64(&b, w->spring_updates);
    hk_real *hist[6];
    const int kept = hk_world_history(w, hist), has_prev = w->history && kept > 0 && w->history_arrays >= kept;
    hk_ckpt_put_i32(&b, has_prev);
    hk_ckpt_put_i32(&b, w->forces_valid);

    const hk_real *arrays[] = {p->qx, p->qy, p->qz, p->vx, p->vy, p->vz, p->fx, p->fy, p->fz, p->inv_mass, p->mass};
    const size_t bytes = (size_t)p->count * sizeof(hk_real);
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) hk_ckpt_put(&b, arrays[a], bytes);
    for (int a = 0; a < kept && has_prev; a++) hk_ckpt_put(&b, hist[a], bytes);
    for (int i = 0; i < w->body_count; i++) {
        const hk_body *body = &w->bodies[i];
        hk_ckpt_put_i32(&b, body->anchor);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(&b, body->anchor_pos[c]);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(&b, body->anchor_vel[c]);
        for (int c = 0; c < 3; c++) hk_ckpt_put_f64(&b, body->origin[c]);
    }
    for (int i = 0; i < w->sphere_count; i++) {
        const hk_sphere_def *s = &w->spheres[i];
        const double v[8] = {s->center.x,   s->center.y,   s->center.z,   s->radius,
                             s->velocity.x, s->velocity.y, s->velocity.z, s->loss};
        hk_ckpt_put(&b, v, sizeof v);
    }
    for (int i = 0; i < w->family_count; i++) {
        const hk_family *f = &w->families[i];
        hk_ckpt_put_i32(&b, f->colour_start != NULL);
        hk_ckpt_put_i64(&b, f->broken_count);
        const int64_t n = mask_len(w, f);
        hk_ckpt_put_i64(&b, n);
        if (n) hk_ckpt_put(&b, f->broken, (size_t)n);
    }
    hk_ckpt_put_u32(&b, (uint32_t)w->surface_count); /* pressure pumping state of each surface */
    for (int i = 0; i < w->surface_count; i++) {
        hk_ckpt_put_f64(&b, w->surfaces[i].pump);
        hk_ckpt_put_f64(&b, w->surfaces[i].volume);
        hk_ckpt_put_f64(&b, w->surfaces[i].pressure);
    }
    const double start[GUARD_VALUES] = {guard->e0, guard->scale, guard->g0, guard->moved}; /* the energy guard */
    hk_ckpt_put(&b, start, sizeof start);
    const hk_pairs *pr = hk_pairs_of(w); /* the pairs in contact now: the survey of this state (pairs.h) */
    const int64_t ncontact = hk_pairs_contacts(w, pr, NULL);
    hk_pair *contact = malloc((size_t)ncontact * sizeof *contact + 1);
    if (!contact) b.oom = 1;
    if (contact) hk_pairs_contacts(w, pr, contact);
    hk_ckpt_put_u64(&b, (uint64_t)ncontact);
    hk_ckpt_put_i64(&b, hk_pairs_left(pr));
    for (int64_t i = 0; i < ncontact && contact; i++) {
        hk_ckpt_put_i32(&b, contact[i].kind);
        for (int c = 0; c < 4; c++) hk_ckpt_put_i32(&b, contact[i].p[c]);
    }
    free(contact);
    hk_real *anchor[4]; /* the colliders' static friction (response.h) */
    const int anchored = hk_contact_anchors(w, anchor);
    hk_ckpt_put_u32(&b, anchored ? (uint32_t)p->count : 0);
    for (int a = 0; a < 4 && anchored; a++) hk_ckpt_put(&b, anchor[a], bytes);
    const int64_t npa = hk_pairs_anchors_held(hk_pairs_of(w)); /* the pairs' static friction (pairs.h) */
    int32_t *keys = npa ? malloc((size_t)npa * 5 * sizeof *keys) : NULL;
    double *weights = npa ? malloc((size_t)npa * 2 * sizeof *weights) : NULL;
    if (npa && (!keys || !weights)) b.oom = 1;
    if (keys && weights) hk_pairs_anchors_get(hk_pairs_of(w), keys, weights);
    hk_ckpt_put_u64(&b, (uint64_t)npa);
    for (int64_t i = 0; i < npa && keys && weights; i++) {
        for (int c = 0; c < 5; c++) hk_ckpt_put_i32(&b, keys[5 * i + c]);
        hk_ckpt_put_f64(&b, weights[2 * i]), hk_ckpt_put_f64(&b, weights[2 * i + 1]);
    }
    free(keys), free(weights);
    hk_ckpt_put_u64(&b, 0); /* checksum, patched below */
    if (b.oom) {
        free(b.p);
        snprintf(err, errlen, "%s: cannot write checkpoint: out of memory", name);
        return -1;
    }
    const uint64_t total = b.len;
    memcpy(b.p + 8 + 16, &total, sizeof total);
    const uint64_t sum = hk_ckpt_fnv1a(b.p, b.len - 8, HK_CKPT_FNV_BASIS);
    memcpy(b.p + b.len - 8, &sum, sizeof sum);
    *out = b.p;
    *len = b.len;
    return 0;
}

int hk_checkpoint_write(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                        char *err, size_t errlen)
{
    if (w->part && w->part->ranks > 1) return hk_checkpoint_write_pieces(w, guard, scene_digest, path, err, errlen);
    unsigned char *bytes;
    size_t len;
    if (hk_checkpoint_bytes(w, guard, scene_digest, &bytes, &len, path, err, errlen) != 0) return -1;
    const int rc = hk_out_write_whole(path, bytes, len, 1); /* whole, durable, by the rule of outfile.h */
    const int saved = errno;
    free(bytes);
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot write checkpoint: %s", path, hk_out_strerror(saved));
        return -1;
    }
    return 0;
}

/* The largest checkpoint world w can have (every optional section present):
 * the bound of the reader, so a file of another size is refused before it
 * is read whole. */
static size_t max_bytes(const hk_world *w)
{
    size_t n = HEADER_BYTES + 8;                    /* header, checksum */
    n += 4 + 6 * 8 + 4 * 4 + 3 * 8 + 2 * 8 + 2 * 4; /* integrator, substeps, h, time, counts, flags */
    n += (size_t)w->p.count * sizeof(hk_real) * 21; /* 11 arrays, the history (6 at most), the friction anchors */
    n += (size_t)w->body_count * HK_CKPT_BODY_BYTES + (size_t)w->sphere_count * 8 * 8;
    for (int i = 0; i < w->family_count; i++) {
        const hk_family *f = &w->families[i];
        const int64_t mask = f->kind == HK_FAMILY_LATTICE ? w->bodies[f->body].count : f->count;
        n += 4 + 8 + 8 + (size_t)mask;
    }
    n += 8 + (size_t)w->p.count * HK_CKPT_PAIRS_PER_PARTICLE * HK_CKPT_PAIR_ANCHOR; /* the pairs' anchors */
    /* the energy guard, the pairs in contact */
    n += GUARD_VALUES * 8 + 16 + (size_t)w->p.count * HK_CKPT_PAIRS_PER_PARTICLE * HK_CKPT_PAIR_KEY;
    return n + 4 + (size_t)w->surface_count * 3 * 8 + 4 + 4096; /* surfaces, anchors; slack for small fields */
}

int hk_checkpoint_parse(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const unsigned char *data,
                        size_t len, const char *name, char *err, size_t errlen)
{
    if (len < sizeof magic || memcmp(data, magic, sizeof magic) != 0) HK_CKPT_FAIL("not a hooke checkpoint");
    hk_ckpt_view v; /* every value checked (ckpt_view.c), the sections' places */
    if (hk_ckpt_view_check(w, scene_digest, data, len, name, &v, err, errlen) != 0) return -1;
    const hk_integrator_def def = v.def;
    const int32_t substeps = v.substeps, has_prev = v.has_prev, forces_valid = v.forces_valid;
    const double h = v.h, time = v.time, *start = v.start;
    const int64_t steps = v.steps, updates = v.updates, crossings = v.crossings;
    const uint32_t np = v.np, nb = (uint32_t)w->body_count, nf = (uint32_t)w->family_count,
                   ns = (uint32_t)w->sphere_count, nsurf = v.nsurf, nanchor = v.nanchor;
    const uint64_t ncontact = v.ncontact, npa = v.npa;
    const size_t bytes = (size_t)np * sizeof(hk_real), fam_at = v.fam_at;
    const unsigned char *const *arrays = v.arrays, *const *prev = v.arrays + HK_CKPT_ARRAYS;
    const unsigned char *bodies = v.bodies, *spheres = v.spheres, *contacts = v.contacts, *anchors = v.anchors,
                        *pair_anchors = v.pair_anchors;
    const hk_ckpt_cursor c = {data, len - 8, 0, 0};

    /* everything checked: restore (only allocation failures remain, before any state is copied) */
    hk_integrator_def saved_def = w->integrator;
    if (hk_world_set_integrator(w, &def) != 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", hk_world_error(w));
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("checkpoint holds an invalid integrator setting (%s)", why);
    }
    if (w->substeps != substeps || w->h != h) {
        const int made = w->substeps;
        const double made_h = w->h;
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("checkpoint is corrupted (%d substeps of %g s, where its integrator makes %d of %g s)",
                     (int)substeps, h, made, made_h);
    }
    hk_real *hist[6];
    if (has_prev && hk_world_make_history(w) != 0) {
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("out of memory while restoring");
    }
    if (nanchor && hk_contact_keep_anchors(w) != 0) {
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("out of memory while restoring");
    }
    hk_pair *in_contact = malloc((size_t)ncontact * sizeof *in_contact + 1);
    for (uint64_t i = 0; in_contact && i < ncontact; i++) {
        int32_t key[5];
        memcpy(key, contacts + (size_t)i * HK_CKPT_PAIR_KEY, sizeof key);
        in_contact[i].kind = key[0];
        for (int k = 0; k < 4; k++) in_contact[i].p[k] = key[1 + k];
    }
    const int held =
        in_contact ? hk_pairs_contacts_restore(hk_pairs_of(w), (int64_t)ncontact, in_contact, crossings) : -1;
    free(in_contact);
    if (held != 0) {
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("out of memory while restoring");
    }
    hk_ckpt_cursor fc = {data, c.len, fam_at, 0};
    for (uint32_t i = 0; i < nf; i++) {
        hk_family *f = &w->families[i];
        const int coloured = hk_ckpt_get_i32(&fc);
        hk_ckpt_get_i64(&fc);
        hk_ckpt_take(&fc, (size_t)hk_ckpt_get_i64(&fc));
        if (coloured && f->kind == HK_FAMILY_LIST &&
            hk_colour_family(f, w->bodies[f->body].first, w->bodies[f->body].count) != 0) {
            hk_world_set_integrator(w, &saved_def);
            HK_CKPT_FAIL("out of memory while restoring");
        }
    }
    hk_real *dst[11] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,       w->p.vy,  w->p.vz,
                        w->p.fx, w->p.fy, w->p.fz, w->p.inv_mass, w->p.mass};
    for (int a = 0; a < 11; a++) memcpy(dst[a], arrays[a], bytes);
    const int kept = has_prev ? hk_world_history(w, hist) : 0;
    for (int a = 0; a < kept; a++) memcpy(hist[a], prev[a], bytes);
    for (uint32_t i = 0; i < nb; i++) {
        hk_ckpt_cursor bc = {bodies + (size_t)i * HK_CKPT_BODY_BYTES, 4 + 9 * 8, 0, 0};
        hk_body *body = &w->bodies[i];
        body->anchor = hk_ckpt_get_i32(&bc);
        for (int k = 0; k < 3; k++) body->anchor_pos[k] = hk_ckpt_get_f64(&bc);
        for (int k = 0; k < 3; k++) body->anchor_vel[k] = hk_ckpt_get_f64(&bc);
        for (int k = 0; k < 3; k++) body->origin[k] = hk_ckpt_get_f64(&bc);
    }
    for (uint32_t i = 0; i < ns; i++) {
        double v[8];
        memcpy(v, spheres + (size_t)i * sizeof v, sizeof v);
        hk_sphere_def *s = &w->spheres[i];
        s->center = (hk_vec3){v[0], v[1], v[2]};
        s->radius = v[3];
        s->velocity = (hk_vec3){v[4], v[5], v[6]};
        s->loss = v[7];
    }
    fc.at = fam_at;
    for (uint32_t i = 0; i < nf; i++) {
        hk_family *f = &w->families[i];
        hk_ckpt_get_i32(&fc);
        f->broken_count = hk_ckpt_get_i64(&fc);
        const int64_t n = hk_ckpt_get_i64(&fc);
        const void *mask = hk_ckpt_take(&fc, (size_t)n);
        if (n) memcpy(f->broken, mask, (size_t)n);
    }
    for (uint32_t i = 0; i < nsurf; i++) {
        int32_t own;
        double s[3];
        hk_ckpt_view_surface(&v, i, &own, s);
        w->surfaces[i].pump = s[0];
        w->surfaces[i].volume = s[1];
        w->surfaces[i].pressure = s[2];
    }
    hk_real *anchor[4];
    if (hk_contact_anchors(w, anchor)) { /* the run's anchors, or none held (a world that had not stepped) */
        for (int a = 0; a < 4 && anchors; a++) memcpy(anchor[a], anchors + (size_t)a * bytes, bytes);
        for (uint32_t i = 0; i < np && !anchors; i++) anchor[3][i] = -1;
    }
    int32_t *pair_keys = malloc((size_t)npa * 5 * sizeof *pair_keys + 1);
    double *pair_weights = malloc((size_t)npa * 2 * sizeof *pair_weights + 1);
    for (uint64_t i = 0; pair_keys && pair_weights && i < npa; i++) {
        const unsigned char *r = pair_anchors + (size_t)i * HK_CKPT_PAIR_ANCHOR;
        memcpy(pair_keys + 5 * i, r, HK_CKPT_PAIR_KEY);
        memcpy(pair_weights + 2 * i, r + HK_CKPT_PAIR_KEY, 2 * 8);
    }
    const int restored = pair_keys && pair_weights
                             ? hk_pairs_anchors_restore(hk_pairs_of(w), (int64_t)npa, pair_keys, pair_weights)
                             : -1;
    free(pair_keys), free(pair_weights);
    if (restored != 0) {
        hk_world_set_integrator(w, &saved_def);
        HK_CKPT_FAIL("out of memory while restoring");
    }
    w->h = h;
    w->time = time;
    w->steps = steps;
    w->spring_updates = updates;
    w->history = has_prev;
    w->forces_valid = forces_valid;
    guard->e0 = start[0], guard->scale = start[1], guard->g0 = start[2], guard->moved = start[3];
    return 0;
}

int hk_checkpoint_read(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const char *path, char *err,
                       size_t errlen)
{
    /* pieces written over ranks (read by one process or any number of ranks), or any checkpoint over ranks */
    if ((w->part && w->part->ranks > 1) || hk_checkpoint_is_index(path))
        return hk_checkpoint_read_pieces(w, guard, scene_digest, path, err, errlen);
    size_t len = 0;
    char *text, why[512];
    hk_state_write(w); /* the device takes the checkpoint's state before its next step (core/device) */
    if (hk_read_file(path, max_bytes(w), "checkpoint", &text, &len, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    const int rc = hk_checkpoint_parse(w, guard, scene_digest, (const unsigned char *)text, len, path, err, errlen);
    free(text);
    return rc;
}
