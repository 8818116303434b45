/* checkpoint.c — checkpoint files: the complete stepping state of a world, checksummed, written atomically. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "checkpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint_pieces.h"
#include "ckpt_bytes.h"
#include "colour.h"
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
 *           11 particle arrays (qx qy qz vx vy vz fx fy fz inv_mass mass), previous displacements
 *           (position Verlet), per body: anchor and origin, spheres, per family: coloured flag, broken count, broken
 *           mask, u32 surfaces, per surface: pump fraction, volume, pressure (f64 each), the energy guard's start
 *           energy, scale, gravity energy and largest gravity work (f64 each), u64 contact pairs in contact and i64
 *           crossings, then each pair's kind and four particles (i32 each), u32 anchored particles (0 or all),
 *           then the colliders' friction anchors: x, y, z and collider index (-1: none) of each, u64 anchored
 *           pairs, then each one's kind and four particles (i32 each) and its two weights (f64 each)
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

int hk_checkpoint_write(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                        char *err, size_t errlen)
{
    hk_state_read(w); /* a device's newer state (core/device) */
    if (w->part && w->part->ranks > 1) return hk_checkpoint_write_pieces(w, guard, scene_digest, path, err, errlen);
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
    hk_ckpt_put_i32(&b, w->substeps);
    hk_ckpt_put_f64(&b, w->h);
    hk_ckpt_put_f64(&b, w->time);
    hk_ckpt_put_i64(&b, w->steps);
    hk_ckpt_put_i64(&b, w->spring_updates);
    const int has_prev = w->history && w->px;
    hk_ckpt_put_i32(&b, has_prev);
    hk_ckpt_put_i32(&b, w->forces_valid);

    const hk_real *arrays[] = {p->qx, p->qy, p->qz, p->vx, p->vy, p->vz, p->fx, p->fy, p->fz, p->inv_mass, p->mass};
    const size_t bytes = (size_t)p->count * sizeof(hk_real);
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) hk_ckpt_put(&b, arrays[a], bytes);
    if (has_prev) {
        hk_ckpt_put(&b, w->px, bytes);
        hk_ckpt_put(&b, w->py, bytes);
        hk_ckpt_put(&b, w->pz, bytes);
    }
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
        snprintf(err, errlen, "%s: cannot write checkpoint: out of memory", path);
        return -1;
    }
    const uint64_t total = b.len;
    memcpy(b.p + 8 + 16, &total, sizeof total);
    const uint64_t sum = hk_ckpt_fnv1a(b.p, b.len - 8, HK_CKPT_FNV_BASIS);
    memcpy(b.p + b.len - 8, &sum, sizeof sum);

    const int rc = hk_out_write_whole(path, b.p, b.len, 1); /* whole, durable, by the rule of outfile.h */
    const int saved = errno;
    free(b.p);
    if (rc != 0) {
        snprintf(err, errlen, "%s: cannot write checkpoint: %s", path, hk_out_strerror(saved));
        return -1;
    }
    return 0;
}

/* The most anchored pairs, and pairs in contact, a checkpoint may hold per particle: a particle is in at most one
 * acting triangle pair of its own and its edges' pairs, and within the thickness (less than a spring's rest length) of
 * few triangles and edges; far more than a real state holds, a bound for the reader. */
enum { PAIR_ANCHORS_PER_PARTICLE = 64 };
/* A pair's record: its kind and four particles (i32 each); an anchored pair's then its two weights (f64 each). */
enum { PAIR_KEY_BYTES = 5 * 4, PAIR_ANCHOR_BYTES = PAIR_KEY_BYTES + 2 * 8 };

/* The largest checkpoint world w can have (every optional section present):
 * the bound of the reader, so a file of another size is refused before it
 * is read whole. */
static size_t max_bytes(const hk_world *w)
{
    size_t n = HEADER_BYTES + 8;                    /* header, checksum */
    n += 4 + 6 * 8 + 4 * 4 + 3 * 8 + 2 * 8 + 2 * 4; /* integrator, substeps, h, time, counts, flags */
    n += (size_t)w->p.count * sizeof(hk_real) * 18; /* 11 arrays, the previous positions, the friction anchors */
    n += (size_t)w->body_count * (4 + 9 * 8) + (size_t)w->sphere_count * 8 * 8;
    for (int i = 0; i < w->family_count; i++) {
        const hk_family *f = &w->families[i];
        const int64_t mask = f->kind == HK_FAMILY_LATTICE ? w->bodies[f->body].count : f->count;
        n += 4 + 8 + 8 + (size_t)mask;
    }
    n += 8 + (size_t)w->p.count * PAIR_ANCHORS_PER_PARTICLE * PAIR_ANCHOR_BYTES; /* the pairs' anchors */
    n += GUARD_VALUES * 8 + 16 + (size_t)w->p.count * PAIR_ANCHORS_PER_PARTICLE * PAIR_KEY_BYTES; /* pairs in contact */
    return n + 4 + (size_t)w->surface_count * 3 * 8 + 4 + 4096; /* surfaces, anchors; slack for small fields */
}

/* The first element of n reals at p (unaligned bytes) that is not finite,
 * or is negative where nonneg is set; -1 when all are sound. */
static int64_t bad_real(const unsigned char *p, int64_t n, int nonneg)
{
    for (int64_t i = 0; i < n; i++) {
        hk_real v;
        memcpy(&v, p + (size_t)i * sizeof v, sizeof v);
        if (!isfinite(v) || (nonneg && v < 0)) return i;
    }
    return -1;
}

/* The first of n doubles at p that is not finite; -1 when all are. */
static int64_t bad_f64(const unsigned char *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, p + (size_t)i * sizeof v, sizeof v);
        if (!isfinite(v)) return i;
    }
    return -1;
}

#define CK_FAIL(...)                                                                                                   \
    do {                                                                                                               \
        int off_ = snprintf(err, errlen, "%s: ", name);                                                                \
        if (off_ > 0 && (size_t)off_ < errlen) snprintf(err + off_, errlen - (size_t)off_, __VA_ARGS__);               \
        return -1;                                                                                                     \
    } while (0)

/* A pair record (kind, four particles) of a world of np particles: 1 when it names a kind and particles of it. */
static int pair_sound(const int32_t key[5], uint32_t np)
{
    int ok = key[0] == HK_PAIR_VT || key[0] == HK_PAIR_EE || key[0] == HK_PAIR_PP;
    for (int k = 1; k < 5; k++) ok &= key[k] >= 0 && key[k] < (int32_t)np;
    return ok;
}

int hk_checkpoint_parse(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const unsigned char *data,
                        size_t len, const char *name, char *err, size_t errlen)
{
    hk_ckpt_cursor c = {data, len, 0, 0};
    if (len < sizeof magic || memcmp(data, magic, sizeof magic) != 0) CK_FAIL("not a hooke checkpoint");
    hk_ckpt_take(&c, sizeof magic);
    if (len < HEADER_BYTES + 8) CK_FAIL("checkpoint is truncated (%zu bytes, less than its header)", len);
    const uint32_t version = hk_ckpt_get_u32(&c);
    if (version != HK_CHECKPOINT_VERSION)
        CK_FAIL("checkpoint version %u is not supported (this hooke reads version %d)", version, HK_CHECKPOINT_VERSION);
    if (hk_ckpt_get_u32(&c) != 0x01020304u) CK_FAIL("checkpoint was written on a machine of the other byte order");
    const uint32_t real = hk_ckpt_get_u32(&c);
    if (real != sizeof(hk_real))
        CK_FAIL("checkpoint holds %s state, this hooke is built for %s", real == 8 ? "double" : "float",
                sizeof(hk_real) == 8 ? "double" : "float");
    hk_ckpt_get_u32(&c);
    const uint64_t total = hk_ckpt_get_u64(&c);
    if (total != len) {
        if (total > len) CK_FAIL("checkpoint is truncated (%zu of %llu bytes)", len, (unsigned long long)total);
        CK_FAIL("checkpoint is corrupted (%zu bytes, header says %llu)", len, (unsigned long long)total);
    }
    uint64_t sum;
    memcpy(&sum, data + len - 8, sizeof sum);
    if (hk_ckpt_fnv1a(data, len - 8, HK_CKPT_FNV_BASIS) != sum) CK_FAIL("checkpoint is corrupted (checksum mismatch)");
    c.len = len - 8;

    const uint64_t digest = hk_ckpt_get_u64(&c);
    const uint32_t np = hk_ckpt_get_u32(&c), nb = hk_ckpt_get_u32(&c), nf = hk_ckpt_get_u32(&c),
                   ns = hk_ckpt_get_u32(&c);
    const uint64_t nsprings = hk_ckpt_get_u64(&c);
    if (np != (uint32_t)w->p.count || nb != (uint32_t)w->body_count || nf != (uint32_t)w->family_count ||
        ns != (uint32_t)w->sphere_count || nsprings != (uint64_t)hk_world_spring_count(w))
        CK_FAIL("checkpoint does not match the scene (%u particles, %llu springs; the scene has %d particles, %lld "
                "springs)",
                np, (unsigned long long)nsprings, w->p.count, (long long)hk_world_spring_count(w));
    if (digest != scene_digest)
        CK_FAIL("checkpoint was written for a different scene (the scene file or a file it loads has changed; scene "
                "digest differs)");

    hk_integrator_def def = {0};
    def.kind = (hk_integrator_kind)hk_ckpt_get_i32(&c);
    def.dt = hk_ckpt_get_f64(&c);
    def.dt_max = hk_ckpt_get_f64(&c);
    def.jelly_dt_a = hk_ckpt_get_f64(&c);
    def.jelly_dt_v = hk_ckpt_get_f64(&c);
    def.jelly_alpha = hk_ckpt_get_f64(&c);
    def.cg_tolerance = hk_ckpt_get_f64(&c);
    def.cg_max_iterations = hk_ckpt_get_i32(&c);
    def.newton_iterations = hk_ckpt_get_i32(&c);
    def.preconditioner = (hk_preconditioner)hk_ckpt_get_i32(&c);
    def.cg_stop = (hk_cg_stop)hk_ckpt_get_i32(&c);
    const int32_t substeps = hk_ckpt_get_i32(&c);
    const double h = hk_ckpt_get_f64(&c), time = hk_ckpt_get_f64(&c);
    const int64_t steps = hk_ckpt_get_i64(&c), updates = hk_ckpt_get_i64(&c);
    const int32_t has_prev = hk_ckpt_get_i32(&c), forces_valid = hk_ckpt_get_i32(&c);
    const size_t bytes = (size_t)np * sizeof(hk_real);
    const unsigned char *arrays[11], *prev[3] = {NULL, NULL, NULL};
    for (int a = 0; a < 11; a++) arrays[a] = hk_ckpt_take(&c, bytes);
    if (has_prev)
        for (int a = 0; a < 3; a++) prev[a] = hk_ckpt_take(&c, bytes);
    const unsigned char *bodies = hk_ckpt_take(&c, (size_t)nb * (4 + 9 * 8));
    const unsigned char *spheres = hk_ckpt_take(&c, (size_t)ns * 8 * 8);
    size_t fam_at = c.at;
    for (uint32_t i = 0; i < nf && !c.bad; i++) {
        hk_ckpt_get_i32(&c);
        const int64_t broken = hk_ckpt_get_i64(&c), n = hk_ckpt_get_i64(&c);
        if (n != mask_len(w, &w->families[i]) || broken < 0 || broken > w->families[i].count)
            CK_FAIL("checkpoint does not match the scene (breakable springs of family %s)", w->families[i].name);
        hk_ckpt_take(&c, (size_t)n);
    }
    const uint32_t nsurf = hk_ckpt_get_u32(&c);
    if (!c.bad && nsurf != (uint32_t)w->surface_count)
        CK_FAIL("checkpoint does not match the scene (%u surfaces, the scene has %d)", nsurf, w->surface_count);
    const unsigned char *surf = hk_ckpt_take(&c, (size_t)nsurf * 3 * 8);
    double start[GUARD_VALUES];
    hk_ckpt_get(&c, start, sizeof start);
    const uint64_t ncontact = hk_ckpt_get_u64(&c);
    const int64_t crossings = hk_ckpt_get_i64(&c);
    const int pairs_on = hk_world_contact(w).bodies || hk_world_contact(w).self;
    const uint64_t pair_bound = (uint64_t)np * PAIR_ANCHORS_PER_PARTICLE;
    if (!c.bad && (ncontact != 0 || crossings != 0) && !pairs_on)
        CK_FAIL("checkpoint does not match the scene (%llu contact pairs in contact; the scene has no contact "
                "section)",
                (unsigned long long)ncontact);
    if (!c.bad && (ncontact > pair_bound || crossings < 0 || (uint64_t)crossings > pair_bound))
        CK_FAIL("checkpoint holds an impossible count of contact pairs (%llu in contact, %lld crossing; at most %llu)",
                (unsigned long long)ncontact, (long long)crossings, (unsigned long long)pair_bound);
    const unsigned char *contacts = ncontact ? hk_ckpt_take(&c, (size_t)ncontact * PAIR_KEY_BYTES) : NULL;
    const uint32_t nanchor = hk_ckpt_get_u32(&c);
    const int ncol = hk_world_collider_count(w);
    if (!c.bad && nanchor != 0 && (nanchor != np || ncol == 0))
        CK_FAIL("checkpoint does not match the scene (friction anchors of %u particles; the scene has %d particles and "
                "%d colliders)",
                nanchor, w->p.count, ncol);
    const unsigned char *anchors = nanchor ? hk_ckpt_take(&c, 4 * bytes) : NULL;
    const uint64_t npa = hk_ckpt_get_u64(&c);
    if (!c.bad && npa != 0 && (!pairs_on || npa > pair_bound))
        CK_FAIL("checkpoint does not match the scene (%llu anchored contact pairs; the scene has %s)",
                (unsigned long long)npa, pairs_on ? "fewer particles" : "no contact section");
    const unsigned char *pair_anchors = npa ? hk_ckpt_take(&c, (size_t)npa * PAIR_ANCHOR_BYTES) : NULL;
    if (c.bad || c.at != c.len) CK_FAIL("checkpoint is corrupted (sections do not add up)");
    const hk_integrator_info *info = hk_integrator_info_of(def.kind);
    if (!info)
        CK_FAIL("checkpoint is corrupted (integrator %d is not one of %s)", (int)def.kind, hk_integrator_names());
    if (has_prev && !info->keeps_history) CK_FAIL("checkpoint is corrupted (a history, but %s keeps none)", info->name);

    /* every value, even under a good checksum: a state no run can have is refused, not continued */
    const double fields[] = {def.dt, def.dt_max, def.jelly_dt_a, def.jelly_dt_v, def.jelly_alpha, def.cg_tolerance};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!isfinite(fields[i]) || fields[i] < 0)
            CK_FAIL("checkpoint holds an impossible integrator setting (%g)", fields[i]);
    if (!(def.dt > 0) || def.cg_max_iterations < 0 || def.newton_iterations < 0 || (int)def.preconditioner < 0 ||
        def.preconditioner >= HK_PRECONDITIONER_COUNT || (unsigned)def.cg_stop >= HK_CG_STOP_COUNT)
        CK_FAIL("checkpoint holds an impossible integrator setting");
    if (steps < 0) CK_FAIL("checkpoint holds an impossible step count (%lld)", (long long)steps);
    if (updates < 0) CK_FAIL("checkpoint holds an impossible spring update count (%lld)", (long long)updates);
    if (!isfinite(time) || time < 0) CK_FAIL("checkpoint holds an impossible time (%g s)", time);
    if (!isfinite(h) || !(h > 0) || substeps < 1)
        CK_FAIL("checkpoint holds an impossible substep (%d substeps of %g s)", (int)substeps, h);
    static const char *const array_name[11] = {"position x", "position y",   "position z", "velocity x",
                                               "velocity y", "velocity z",   "force x",    "force y",
                                               "force z",    "inverse mass", "mass"};
    for (int a = 0; a < 11; a++) {
        const int64_t i = bad_real(arrays[a], np, a >= 9);
        if (i >= 0) CK_FAIL("checkpoint holds an impossible %s of particle %lld", array_name[a], (long long)i);
    }
    for (int a = 0; a < 3 && has_prev; a++) {
        const int64_t i = bad_real(prev[a], np, 0);
        if (i >= 0) CK_FAIL("checkpoint holds an impossible previous position of particle %lld", (long long)i);
    }
    for (uint32_t i = 0; i < nb; i++) {
        const unsigned char *r = bodies + (size_t)i * (4 + 9 * 8);
        int32_t anchor;
        memcpy(&anchor, r, sizeof anchor);
        if (anchor != w->bodies[i].anchor || bad_f64(r + 4, 9) >= 0)
            CK_FAIL("checkpoint does not match the scene (the anchor or origin of body %u)", i);
    }
    for (uint32_t i = 0; i < ns; i++) {
        double v[8];
        memcpy(v, spheres + (size_t)i * sizeof v, sizeof v);
        if (bad_f64(spheres + (size_t)i * sizeof v, 8) >= 0 || !(v[3] > 0))
            CK_FAIL("checkpoint holds an impossible sphere %u", i);
    }
    for (uint32_t i = 0; i < nsurf; i++) {
        double v[3];
        memcpy(v, surf + (size_t)i * sizeof v, sizeof v);
        if (bad_f64(surf + (size_t)i * sizeof v, 3) >= 0 || v[0] < 0 || v[0] > 1)
            CK_FAIL("checkpoint holds an impossible pressure state of surface %u", i);
    }
    if (bad_f64((const unsigned char *)start, GUARD_VALUES) >= 0 || start[1] < 0 || start[3] < 0)
        CK_FAIL("checkpoint holds an impossible energy guard (start %g J, scale %g J, gravity %g J, work %g J)",
                start[0], start[1], start[2], start[3]);
    for (uint64_t i = 0; i < ncontact; i++) {
        int32_t key[5];
        memcpy(key, contacts + (size_t)i * PAIR_KEY_BYTES, sizeof key);
        if (!pair_sound(key, np))
            CK_FAIL("checkpoint holds an impossible contact pair in contact (%llu of %llu)", (unsigned long long)i,
                    (unsigned long long)ncontact);
    }
    for (int a = 0; a < 3 && anchors; a++) {
        const int64_t i = bad_real(anchors + (size_t)a * bytes, np, 0);
        if (i >= 0) CK_FAIL("checkpoint holds an impossible friction anchor of particle %lld", (long long)i);
    }
    for (uint32_t i = 0; i < nanchor; i++) {
        hk_real k;
        memcpy(&k, anchors + 3 * bytes + (size_t)i * sizeof k, sizeof k);
        if (!(k >= -1 && k < ncol && k == (hk_real)(int)k))
            CK_FAIL("checkpoint holds an impossible friction anchor of particle %u (collider %g of %d)", i, (double)k,
                    ncol);
    }
    for (uint64_t i = 0; i < npa; i++) { /* a pair of particles of the scene, its weights in [0, 1] */
        const unsigned char *r = pair_anchors + (size_t)i * PAIR_ANCHOR_BYTES;
        int32_t key[5];
        double wt[2];
        memcpy(key, r, sizeof key);
        memcpy(wt, r + sizeof key, sizeof wt);
        int ok = pair_sound(key, np);
        for (int k = 0; k < 2; k++) ok &= wt[k] >= 0 && wt[k] <= 1;
        if (!ok)
            CK_FAIL("checkpoint holds an impossible anchored contact pair (%llu of %llu)", (unsigned long long)i,
                    (unsigned long long)npa);
    }
    hk_ckpt_cursor vc = {data, c.len, fam_at, 0};
    for (uint32_t i = 0; i < nf; i++) {
        const int32_t coloured = hk_ckpt_get_i32(&vc);
        const int64_t broken = hk_ckpt_get_i64(&vc), n = hk_ckpt_get_i64(&vc);
        const unsigned char *mask = hk_ckpt_take(&vc, (size_t)n);
        int64_t set = 0;
        for (int64_t k = 0; k < n; k++) set += mask[k] != 0;
        if ((coloured != 0 && coloured != 1) || (n && set != broken))
            CK_FAIL("checkpoint is corrupted (family %s: %lld springs marked broken, %lld counted)",
                    w->families[i].name, (long long)set, (long long)broken);
    }

    /* everything checked: restore (only allocation failures remain, before any state is copied) */
    hk_integrator_def saved_def = w->integrator;
    if (hk_world_set_integrator(w, &def) != 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", hk_world_error(w));
        hk_world_set_integrator(w, &saved_def);
        CK_FAIL("checkpoint holds an invalid integrator setting (%s)", why);
    }
    if (w->substeps != substeps || w->h != h) {
        const int made = w->substeps;
        const double made_h = w->h;
        hk_world_set_integrator(w, &saved_def);
        CK_FAIL("checkpoint is corrupted (%d substeps of %g s, where its integrator makes %d of %g s)", (int)substeps,
                h, made, made_h);
    }
    if (has_prev && !w->px) {
        if (hk_world_alloc_history(w) != 0) {
            hk_world_set_integrator(w, &saved_def);
            CK_FAIL("out of memory while restoring");
        }
    }
    if (nanchor && hk_contact_keep_anchors(w) != 0) {
        hk_world_set_integrator(w, &saved_def);
        CK_FAIL("out of memory while restoring");
    }
    hk_pair *in_contact = malloc((size_t)ncontact * sizeof *in_contact + 1);
    for (uint64_t i = 0; in_contact && i < ncontact; i++) {
        int32_t key[5];
        memcpy(key, contacts + (size_t)i * PAIR_KEY_BYTES, sizeof key);
        in_contact[i].kind = key[0];
        for (int k = 0; k < 4; k++) in_contact[i].p[k] = key[1 + k];
    }
    const int held =
        in_contact ? hk_pairs_contacts_restore(hk_pairs_of(w), (int64_t)ncontact, in_contact, crossings) : -1;
    free(in_contact);
    if (held != 0) {
        hk_world_set_integrator(w, &saved_def);
        CK_FAIL("out of memory while restoring");
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
            CK_FAIL("out of memory while restoring");
        }
    }
    hk_real *dst[11] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx,       w->p.vy,  w->p.vz,
                        w->p.fx, w->p.fy, w->p.fz, w->p.inv_mass, w->p.mass};
    for (int a = 0; a < 11; a++) memcpy(dst[a], arrays[a], bytes);
    if (has_prev) {
        memcpy(w->px, prev[0], bytes);
        memcpy(w->py, prev[1], bytes);
        memcpy(w->pz, prev[2], bytes);
    }
    for (uint32_t i = 0; i < nb; i++) {
        hk_ckpt_cursor bc = {bodies + (size_t)i * (4 + 9 * 8), 4 + 9 * 8, 0, 0};
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
        double v[3];
        memcpy(v, surf + (size_t)i * sizeof v, sizeof v);
        w->surfaces[i].pump = v[0];
        w->surfaces[i].volume = v[1];
        w->surfaces[i].pressure = v[2];
    }
    hk_real *anchor[4];
    if (hk_contact_anchors(w, anchor)) { /* the run's anchors, or none held (a world that had not stepped) */
        for (int a = 0; a < 4 && anchors; a++) memcpy(anchor[a], anchors + (size_t)a * bytes, bytes);
        for (uint32_t i = 0; i < np && !anchors; i++) anchor[3][i] = -1;
    }
    int32_t *pair_keys = malloc((size_t)npa * 5 * sizeof *pair_keys + 1);
    double *pair_weights = malloc((size_t)npa * 2 * sizeof *pair_weights + 1);
    for (uint64_t i = 0; pair_keys && pair_weights && i < npa; i++) {
        const unsigned char *r = pair_anchors + (size_t)i * PAIR_ANCHOR_BYTES;
        memcpy(pair_keys + 5 * i, r, PAIR_KEY_BYTES);
        memcpy(pair_weights + 2 * i, r + PAIR_KEY_BYTES, 2 * 8);
    }
    const int restored = pair_keys && pair_weights
                             ? hk_pairs_anchors_restore(hk_pairs_of(w), (int64_t)npa, pair_keys, pair_weights)
                             : -1;
    free(pair_keys), free(pair_weights);
    if (restored != 0) {
        hk_world_set_integrator(w, &saved_def);
        CK_FAIL("out of memory while restoring");
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
