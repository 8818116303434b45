/* ckpt_view.c — the checks of a checkpoint's or a piece's every value, one list for both readers, and its view. */
/* SPDX-License-Identifier: MIT */
#include "ckpt_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ckpt_bytes.h"
#include "integrators.h"
#include "pairs.h"
#include "world.h"

static const char classic_magic[8] = {'H', 'O', 'O', 'K', 'E', 'C', 'K', 'P'};
static const char piece_magic[8] = {'H', 'O', 'O', 'K', 'E', 'C', 'K', 'R'};
enum { HEADER_BYTES = 8 + 4 * 4 + 8 + 8 + 4 * 4 + 8 };

void hk_ckpt_view_range(const hk_ckpt_view *v, uint32_t k, int64_t *g, int64_t *n)
{
    if (v->classic) {
        *g = 0, *n = v->np;
        return;
    }
    uint32_t r[2];
    memcpy(r, v->ranges + 8 * (size_t)k, sizeof r);
    *g = r[0], *n = r[1];
}

void hk_ckpt_view_surface(const hk_ckpt_view *v, uint32_t i, int32_t *own, double s[3])
{
    const unsigned char *r = v->surf + (size_t)i * (v->classic ? 24 : 28);
    *own = 1;
    if (!v->classic) memcpy(own, r, 4), r += 4;
    memcpy(s, r, 3 * sizeof *s);
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

/* A pair record (kind, four particles) of a world of np particles: 1 when it names a kind and particles of it. */
static int pair_sound(const int32_t key[5], uint32_t np)
{
    int ok = key[0] == HK_PAIR_VT || key[0] == HK_PAIR_EE || key[0] == HK_PAIR_PP;
    for (int k = 1; k < 5; k++) ok &= key[k] >= 0 && key[k] < (int32_t)np;
    return ok;
}

/* The particles of v's ranges within body b (global [gfirst, gfirst + total)). */
static int64_t in_body(const hk_ckpt_view *v, const hk_body *b)
{
    int64_t n = 0;
    for (uint32_t k = 0; k < (v->classic ? 1 : v->ranges_n); k++) {
        int64_t g, c;
        hk_ckpt_view_range(v, k, &g, &c);
        const int64_t lo = g > b->gfirst ? g : b->gfirst,
                      hi = g + c < (int64_t)b->gfirst + b->total ? g + c : b->gfirst + b->total;
        if (hi > lo) n += hi - lo;
    }
    return n;
}

/* The header and the sections' places: 0, or -1 with the message in err. */
static int view(const hk_world *w, uint64_t digest, const unsigned char *data, size_t len, const char *name,
                hk_ckpt_view *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    v->data = data;
    v->len = len;
    if (len < 8 || (memcmp(data, classic_magic, 8) != 0 && memcmp(data, piece_magic, 8) != 0))
        HK_CKPT_FAIL("not a hooke checkpoint");
    v->classic = memcmp(data, classic_magic, 8) == 0;
    hk_ckpt_cursor c = {data, len, 8, 0};
    if (len < HEADER_BYTES + 8) HK_CKPT_FAIL("checkpoint is truncated (%zu bytes, less than its header)", len);
    const uint32_t version = hk_ckpt_get_u32(&c);
    const uint32_t want = v->classic ? HK_CHECKPOINT_VERSION : HK_CHECKPOINT_PIECE_VERSION;
    if (version != want)
        HK_CKPT_FAIL("checkpoint version %u is not supported (this hooke reads version %u)", version, want);
    if (hk_ckpt_get_u32(&c) != 0x01020304u) HK_CKPT_FAIL("checkpoint was written on a machine of the other byte order");
    const uint32_t real = hk_ckpt_get_u32(&c);
    if (real != sizeof(hk_real))
        HK_CKPT_FAIL("checkpoint holds %s state, this hooke is built for %s", real == 8 ? "double" : "float",
                     sizeof(hk_real) == 8 ? "double" : "float");
    hk_ckpt_get_u32(&c);
    const uint64_t total = hk_ckpt_get_u64(&c);
    if (total != len) {
        if (total > len) HK_CKPT_FAIL("checkpoint is truncated (%zu of %llu bytes)", len, (unsigned long long)total);
        HK_CKPT_FAIL("checkpoint is corrupted (%zu bytes, header says %llu)", len, (unsigned long long)total);
    }
    uint64_t sum;
    memcpy(&sum, data + len - 8, sizeof sum);
    if (hk_ckpt_fnv1a(data, len - 8, HK_CKPT_FNV_BASIS) != sum)
        HK_CKPT_FAIL("checkpoint is corrupted (checksum mismatch)");
    c.len = len - 8;
    const uint64_t written_for = hk_ckpt_get_u64(&c);
    v->np = hk_ckpt_get_u32(&c);
    const uint32_t nb = hk_ckpt_get_u32(&c), nf = hk_ckpt_get_u32(&c), ns = hk_ckpt_get_u32(&c);
    const uint64_t nsprings = hk_ckpt_get_u64(&c);
    if (v->np != (uint32_t)w->gcount || nb != (uint32_t)w->body_count || nf != (uint32_t)w->family_count ||
        ns != (uint32_t)w->sphere_count || nsprings != (uint64_t)hk_world_spring_count(w))
        HK_CKPT_FAIL(
            "checkpoint does not match the scene (%u particles, %llu springs; the scene has %d particles, %lld "
            "springs)",
            v->np, (unsigned long long)nsprings, w->gcount, (long long)hk_world_spring_count(w));
    if (written_for != digest)
        HK_CKPT_FAIL(
            "checkpoint was written for a different scene (the scene file or a file it loads has changed; scene "
            "digest differs)");
    v->count = v->np;
    v->ranks = 1;
    if (!v->classic) { /* the rank and rank count it was written by, its particles as ascending global ranges */
        v->rank = hk_ckpt_get_u32(&c);
        v->ranks = hk_ckpt_get_u32(&c);
        v->ranges_n = hk_ckpt_get_u32(&c);
        if (!c.bad && (v->ranks < 1 || v->ranks > HK_CKPT_MAX_RANKS || v->rank >= v->ranks || v->ranges_n > v->np))
            HK_CKPT_FAIL("checkpoint is corrupted (a piece of rank %u of %u, in %u ranges)", v->rank, v->ranks,
                         v->ranges_n);
        v->ranges = hk_ckpt_take(&c, 8 * (size_t)v->ranges_n);
        v->count = 0;
        int64_t end = 0;
        for (uint32_t k = 0; v->ranges && k < v->ranges_n; k++) {
            int64_t g, n;
            hk_ckpt_view_range(v, k, &g, &n);
            if (g < end || n < 1 || g + n > v->np)
                HK_CKPT_FAIL("checkpoint is corrupted (the piece's range %u, particles %lld to %lld: not ascending "
                             "within the scene's %u)",
                             k, (long long)g, (long long)(g + n), v->np);
            end = g + n;
            v->count += (uint64_t)n;
        }
    }
    v->def.kind = (hk_integrator_kind)hk_ckpt_get_i32(&c);
    double settings[6];
    hk_ckpt_get(&c, settings, sizeof settings);
    v->def.dt = settings[0], v->def.dt_max = settings[1], v->def.jelly_dt_a = settings[2];
    v->def.jelly_dt_v = settings[3], v->def.jelly_alpha = settings[4], v->def.cg_tolerance = settings[5];
    v->def.cg_max_iterations = hk_ckpt_get_i32(&c);
    v->def.newton_iterations = hk_ckpt_get_i32(&c);
    v->def.preconditioner = (hk_preconditioner)hk_ckpt_get_i32(&c);
    v->def.cg_stop = (hk_cg_stop)hk_ckpt_get_i32(&c);
    v->def.newton_tolerance = hk_ckpt_get_f64(&c);
    v->def.iterations = hk_ckpt_get_i32(&c);
    v->def.chebyshev_rho = hk_ckpt_get_f64(&c);
    v->substeps = hk_ckpt_get_i32(&c);
    v->h = hk_ckpt_get_f64(&c);
    v->time = hk_ckpt_get_f64(&c);
    v->steps = hk_ckpt_get_i64(&c);
    v->updates = hk_ckpt_get_i64(&c);
    v->has_prev = hk_ckpt_get_i32(&c);
    v->forces_valid = hk_ckpt_get_i32(&c);
    const size_t bytes = (size_t)v->count * sizeof(hk_real);
    /* the history's arrays: the integrator's count (checked below with the kind and the flag) */
    v->history_arrays = v->has_prev != 0 ? hk_integrator_history_arrays(v->def.kind) : 0;
    for (int a = 0; a < HK_CKPT_ARRAYS + v->history_arrays; a++) v->arrays[a] = hk_ckpt_take(&c, bytes);
    v->bodies = hk_ckpt_take(&c, (size_t)nb * HK_CKPT_BODY_BYTES);
    v->spheres = hk_ckpt_take(&c, (size_t)ns * 8 * 8);
    v->fam_at = c.at;
    for (uint32_t i = 0; i < nf && !c.bad; i++) {
        const hk_family *f = &w->families[i];
        const int lattice = f->kind == HK_FAMILY_LATTICE;
        hk_ckpt_get_i32(&c);
        const int64_t broken = hk_ckpt_get_i64(&c), n = hk_ckpt_get_i64(&c);
        /* a mask: a lattice's by the body's nodes (a piece's: those of its ranges), a list's by spring; a piece's
         * list: its broken springs by their ends. None where the family cannot break. */
        int64_t want_n = v->classic ? (lattice ? w->bodies[f->body].total : f->total) : in_body(v, &w->bodies[f->body]);
        if (!v->classic && !lattice) want_n = n >= 0 && n <= f->total ? n : -1;
        const int exact = !w->part && v->classic; /* one process: this world has the masks the writer had */
        const int sound = exact ? n == (f->broken ? want_n : 0) : n == 0 || n == want_n;
        if (!sound || broken < 0 || broken > f->total)
            HK_CKPT_FAIL("checkpoint does not match the scene (breakable springs of family %s)", f->name);
        hk_ckpt_take(&c, v->classic || lattice ? (size_t)n : (size_t)n * 8);
    }
    v->nsurf = hk_ckpt_get_u32(&c);
    if (!c.bad && v->nsurf != (uint32_t)w->surface_count)
        HK_CKPT_FAIL("checkpoint does not match the scene (%u surfaces, the scene has %d)", v->nsurf, w->surface_count);
    v->surf = hk_ckpt_take(&c, (size_t)v->nsurf * (v->classic ? 24 : 28));
    hk_ckpt_get(&c, v->start, sizeof v->start);
    v->ncontact = hk_ckpt_get_u64(&c);
    v->crossings = hk_ckpt_get_i64(&c);
    const int pairs_on = hk_world_contact(w).bodies || hk_world_contact(w).self;
    const uint64_t pair_bound = (uint64_t)v->np * HK_CKPT_PAIRS_PER_PARTICLE;
    if (!c.bad && (v->ncontact != 0 || v->crossings != 0) && !pairs_on)
        HK_CKPT_FAIL("checkpoint does not match the scene (%llu contact pairs in contact; the scene has no contact "
                     "section)",
                     (unsigned long long)v->ncontact);
    if (!c.bad && (v->ncontact > pair_bound || v->crossings < 0 || (uint64_t)v->crossings > pair_bound))
        HK_CKPT_FAIL(
            "checkpoint holds an impossible count of contact pairs (%llu in contact, %lld crossing; at most %llu)",
            (unsigned long long)v->ncontact, (long long)v->crossings, (unsigned long long)pair_bound);
    v->contacts = v->ncontact ? hk_ckpt_take(&c, (size_t)v->ncontact * HK_CKPT_PAIR_KEY) : NULL;
    v->nanchor = hk_ckpt_get_u32(&c);
    const int ncol = hk_world_collider_count(w);
    if (!c.bad && v->nanchor != 0 && (v->nanchor != v->count || ncol == 0))
        HK_CKPT_FAIL(
            "checkpoint does not match the scene (friction anchors of %u particles; the scene has %d particles and "
            "%d colliders)",
            v->nanchor, w->gcount, ncol);
    v->anchors = v->nanchor ? hk_ckpt_take(&c, 4 * bytes) : NULL;
    v->npa = hk_ckpt_get_u64(&c);
    if (!c.bad && v->npa != 0 && (!pairs_on || v->npa > pair_bound))
        HK_CKPT_FAIL("checkpoint does not match the scene (%llu anchored contact pairs; the scene has %s)",
                     (unsigned long long)v->npa, pairs_on ? "fewer particles" : "no contact section");
    v->pair_anchors = v->npa ? hk_ckpt_take(&c, (size_t)v->npa * HK_CKPT_PAIR_ANCHOR) : NULL;
    if (c.bad || c.at != c.len) HK_CKPT_FAIL("checkpoint is corrupted (sections do not add up)");
    return 0;
}

int hk_ckpt_view_check(const hk_world *w, uint64_t digest, const unsigned char *data, size_t len, const char *name,
                       hk_ckpt_view *v, char *err, size_t errlen)
{
    if (view(w, digest, data, len, name, v, err, errlen) != 0) return -1;
    const hk_integrator_def def = v->def;
    const hk_integrator_info *info = hk_integrator_info_of(def.kind);
    if (!info)
        HK_CKPT_FAIL("checkpoint is corrupted (integrator %d is not one of %s)", (int)def.kind, hk_integrator_names());
    if (v->has_prev && !info->keeps_history)
        HK_CKPT_FAIL("checkpoint is corrupted (a history, but %s keeps none)", info->name);

    /* every value, even under a good checksum: a state no run can have is refused, not continued */
    const double fields[] = {def.dt,          def.dt_max,       def.jelly_dt_a,       def.jelly_dt_v,
                             def.jelly_alpha, def.cg_tolerance, def.newton_tolerance, def.chebyshev_rho};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (!isfinite(fields[i]) || fields[i] < 0)
            HK_CKPT_FAIL("checkpoint holds an impossible integrator setting (%g)", fields[i]);
    if (!(def.dt > 0) || !(def.newton_tolerance < 1) || def.cg_max_iterations < 0 || def.newton_iterations < 0 ||
        def.iterations < 0 || def.iterations > HK_MAX_ITERATIONS || (def.iterations > 0 && !info->iterated) ||
        !(def.chebyshev_rho < 1) || (def.chebyshev_rho > 0 && !info->accelerated) || (int)def.preconditioner < 0 ||
        def.preconditioner >= HK_PRECONDITIONER_COUNT || (unsigned)def.cg_stop >= HK_CG_STOP_COUNT)
        HK_CKPT_FAIL("checkpoint holds an impossible integrator setting");
    if (v->steps < 0) HK_CKPT_FAIL("checkpoint holds an impossible step count (%lld)", (long long)v->steps);
    if (v->updates < 0)
        HK_CKPT_FAIL("checkpoint holds an impossible spring update count (%lld)", (long long)v->updates);
    if (!isfinite(v->time) || v->time < 0) HK_CKPT_FAIL("checkpoint holds an impossible time (%g s)", v->time);
    if (!isfinite(v->h) || !(v->h > 0) || v->substeps < 1)
        HK_CKPT_FAIL("checkpoint holds an impossible substep (%d substeps of %g s)", (int)v->substeps, v->h);
    if (v->has_prev != 0 && v->has_prev != 1)
        HK_CKPT_FAIL("checkpoint is corrupted (history flag %d)", (int)v->has_prev);
    static const char *const array_name[HK_CKPT_ARRAYS] = {"position x", "position y",   "position z", "velocity x",
                                                           "velocity y", "velocity z",   "force x",    "force y",
                                                           "force z",    "inverse mass", "mass"};
    const int64_t count = (int64_t)v->count;
    for (int a = 0; a < HK_CKPT_ARRAYS; a++) {
        const int64_t i = bad_real(v->arrays[a], count, a >= 9);
        if (i >= 0) HK_CKPT_FAIL("checkpoint holds an impossible %s of particle %lld", array_name[a], (long long)i);
    }
    for (int a = HK_CKPT_ARRAYS; a < HK_CKPT_ARRAYS + v->history_arrays; a++) {
        const int64_t i = bad_real(v->arrays[a], count, 0);
        if (i >= 0) HK_CKPT_FAIL("checkpoint holds an impossible history value of particle %lld", (long long)i);
    }
    for (int i = 0; i < w->body_count; i++) {
        const unsigned char *r = v->bodies + (size_t)i * HK_CKPT_BODY_BYTES;
        int32_t anchor;
        memcpy(&anchor, r, sizeof anchor);
        if (anchor != w->bodies[i].anchor || bad_f64(r + 4, 9) >= 0)
            HK_CKPT_FAIL("checkpoint does not match the scene (the anchor or origin of body %d)", i);
    }
    for (int i = 0; i < w->sphere_count; i++) {
        double s[8];
        memcpy(s, v->spheres + (size_t)i * sizeof s, sizeof s);
        if (bad_f64(v->spheres + (size_t)i * sizeof s, 8) >= 0 || !(s[3] > 0))
            HK_CKPT_FAIL("checkpoint holds an impossible sphere %d", i);
    }
    /* a surface: its own flag (a piece: whether its rank computed it) 0 or 1, its pump fraction in [0, 1], its volume
     * finite (an inverted body's is not positive), its pressure finite, not negative, and 0 where the volume is not
     * positive (P = pump nRT / V, none in an inverted body: surface.c) */
    for (uint32_t i = 0; i < v->nsurf; i++) {
        int32_t own;
        double s[3];
        hk_ckpt_view_surface(v, i, &own, s);
        if ((own != 0 && own != 1) || bad_f64((const unsigned char *)s, 3) >= 0 || s[0] < 0 || s[0] > 1 || s[2] < 0 ||
            (!(s[1] > 0) && s[2] != 0))
            HK_CKPT_FAIL(
                "checkpoint holds an impossible pressure state of surface %u (pump %g, volume %g, pressure %g)", i,
                s[0], s[1], s[2]);
    }
    const double *start = v->start;
    if (bad_f64((const unsigned char *)start, HK_CKPT_GUARD_VALUES) >= 0 || start[1] < 0 || start[3] < 0)
        HK_CKPT_FAIL("checkpoint holds an impossible energy guard (start %g J, scale %g J, gravity %g J, work %g J)",
                     start[0], start[1], start[2], start[3]);
    for (uint64_t i = 0; i < v->ncontact; i++) {
        int32_t key[5];
        memcpy(key, v->contacts + (size_t)i * HK_CKPT_PAIR_KEY, sizeof key);
        if (!pair_sound(key, v->np))
            HK_CKPT_FAIL("checkpoint holds an impossible contact pair in contact (%llu of %llu)", (unsigned long long)i,
                         (unsigned long long)v->ncontact);
    }
    const size_t bytes = (size_t)v->count * sizeof(hk_real);
    for (int a = 0; a < 3 && v->anchors; a++) {
        const int64_t i = bad_real(v->anchors + (size_t)a * bytes, count, 0);
        if (i >= 0) HK_CKPT_FAIL("checkpoint holds an impossible friction anchor of particle %lld", (long long)i);
    }
    const int ncol = hk_world_collider_count(w);
    for (uint32_t i = 0; i < v->nanchor; i++) {
        hk_real k;
        memcpy(&k, v->anchors + 3 * bytes + (size_t)i * sizeof k, sizeof k);
        if (!(k >= -1 && k < ncol && k == (hk_real)(int)k))
            HK_CKPT_FAIL("checkpoint holds an impossible friction anchor of particle %u (collider %g of %d)", i,
                         (double)k, ncol);
    }
    for (uint64_t i = 0; i < v->npa; i++) { /* a pair of particles of the scene, its weights in [0, 1] */
        const unsigned char *r = v->pair_anchors + (size_t)i * HK_CKPT_PAIR_ANCHOR;
        int32_t key[5];
        double wt[2];
        memcpy(key, r, sizeof key);
        memcpy(wt, r + sizeof key, sizeof wt);
        int ok = pair_sound(key, v->np);
        for (int k = 0; k < 2; k++) ok &= wt[k] >= 0 && wt[k] <= 1;
        if (!ok)
            HK_CKPT_FAIL("checkpoint holds an impossible anchored contact pair (%llu of %llu)", (unsigned long long)i,
                         (unsigned long long)v->npa);
    }
    /* each family: its coloured flag 0 or 1; a mask's marks as many as its broken count; a piece's list: each broken
     * spring's ends particles of the scene, as many as its broken count */
    hk_ckpt_cursor fc = {v->data, v->len - 8, v->fam_at, 0};
    for (int i = 0; i < w->family_count; i++) {
        const hk_family *f = &w->families[i];
        const int32_t coloured = hk_ckpt_get_i32(&fc);
        const int64_t broken = hk_ckpt_get_i64(&fc), n = hk_ckpt_get_i64(&fc);
        const int ends = !v->classic && f->kind == HK_FAMILY_LIST;
        const unsigned char *mask = hk_ckpt_take(&fc, ends ? (size_t)n * 8 : (size_t)n);
        int64_t set = 0;
        for (int64_t k = 0; k < n && !ends; k++) set += mask[k] != 0;
        for (int64_t k = 0; k < 2 * n && ends; k++) {
            int32_t g;
            memcpy(&g, mask + (size_t)k * 4, 4);
            set += k % 2 == 0;
            if (g < 0 || (uint32_t)g >= v->np)
                HK_CKPT_FAIL(
                    "checkpoint is corrupted (family %s: a broken spring's end %d is no particle of the scene)",
                    f->name, (int)g);
        }
        if ((coloured != 0 && coloured != 1) || (n && set != broken))
            HK_CKPT_FAIL("checkpoint is corrupted (family %s: %lld springs marked broken, %lld counted)", f->name,
                         (long long)set, (long long)broken);
    }
    return 0;
}
