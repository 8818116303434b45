/* world.c — the world's storage: particles, bodies and families, their frames, and the read-out API. */
/* SPDX-License-Identifier: MIT */
#include "world.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#define HK_ALIGN 64
#define HK_PAD 16

/* Rounded up to the SIMD width, plus room for a lattice row kernel's loads
 * past the last particle (a full vector, reaching up to HK_ROW_MARGIN ahead). */
size_t hk_padded(size_t n) { return (n + HK_PAD - 1) / HK_PAD * HK_PAD + 2 * HK_ROW_MARGIN; }

int hk_world_team(const hk_world *w)
{
    if (w->def.task_hook.run) return w->def.threads; /* >= 1 with a hook (hk_world_set_task_hook) */
    if (w->session) return hk_team_session_size(w->session);
#ifdef HOOKE_USE_OPENMP
    return w->def.threads > 0 ? w->def.threads : hk_default_threads(hk_world_spring_count(w), omp_get_max_threads());
#else
    return 1;
#endif
}

int hk_world_threads_in_use(const hk_world *w) { return hk_world_team(w); }

int hk_team_size(const hk_world *w, int64_t items, int64_t min) { return items > min ? hk_world_team(w) : 1; }

void hk_team_run(const hk_world *w, int team, hk_team_fn fn, void *ctx)
{
    hk_team_launch(&w->def.task_hook, w->session, team, fn, ctx);
}

void hk_team_for(const hk_world *w, int team, int64_t n, hk_range_fn fn, void *ctx)
{
    hk_team_launch_for(&w->def.task_hook, w->session, team, n, fn, ctx);
}

void hk_world_hold_team(hk_world *w, void (*body)(void *), void *arg)
{
    if (w->def.task_hook.run || w->session)
        body(arg);
    else
        hk_team_hold(hk_world_team(w), w->def.full_team, &w->team_pace, &w->session, body, arg);
}

/* Arrays of this many entries or fewer are zeroed on the calling thread. */
#define HK_TOUCH_MIN (1 << 16)

/* The arrays of a zeroing: count arrays of S entries from r. */
typedef struct touch {
    hk_real *r;
    int64_t S;
    int count;
} touch;

/* Each task zeroes its share of every array, the share of the static split
 * of indices that the per-particle passes follow, so that each page is
 * first touched by the thread that works on it (the threads bound to their
 * cores first: topology.c). */
static void touch_task(const hk_team *tm, void *ctx)
{
    const touch *z = ctx;
    for (int k = 0; k < z->count; k++) {
        const int64_t a = z->S * tm->t / tm->T, e = z->S * (tm->t + 1) / tm->T;
        memset(z->r + (int64_t)k * z->S + a, 0, (size_t)(e - a) * sizeof *z->r);
    }
}

hk_real *hk_alloc_reals(size_t n, const hk_world *w)
{
    size_t count = hk_padded(n ? n : 1);
    size_t bytes = (count * sizeof(hk_real) + HK_ALIGN - 1) / HK_ALIGN * HK_ALIGN;
    hk_real *a = aligned_alloc(HK_ALIGN, bytes);
    if (!a) return NULL;
    touch z = {a, (int64_t)(bytes / sizeof(hk_real)), 1};
    if (w)
        hk_team_run(w, hk_team_size(w, z.S, HK_TOUCH_MIN), touch_task, &z);
    else
        touch_task(&hk_team_one, &z);
    return a;
}

void hk_free_reals(hk_real *a) { free(a); }

#define HK_PAGE 4096
#define HK_SKEW 320 /* 5 cache lines: 12 slots stay distinct modulo a page */

hk_real *hk_alloc_slab(int count, size_t n, int first, const hk_world *w, size_t *stride, size_t *offset)
{
    size_t bytes = hk_padded(n ? n : 1) * sizeof(hk_real);
    bytes = (bytes + HK_PAGE - 1) / HK_PAGE * HK_PAGE + HK_SKEW; /* each next array one skew further */
    const size_t lead = (size_t)first * HK_SKEW;
    const size_t total = (lead + (size_t)count * bytes + HK_PAGE - 1) / HK_PAGE * HK_PAGE;
    char *block = aligned_alloc(HK_PAGE, total);
    if (!block) return NULL;
    hk_real *r = (hk_real *)block;
    const int64_t S = (int64_t)(bytes / sizeof(hk_real)), lead_n = (int64_t)(lead / sizeof(hk_real));
    const int64_t entries = (int64_t)(total / sizeof(hk_real));
    for (int64_t i = 0; i < lead_n; i++) r[i] = 0;
    for (int64_t i = lead_n + (int64_t)count * S; i < entries; i++) r[i] = 0;
    touch z = {r + lead_n, S, count}; /* first touch: as hk_alloc_reals, array by array */
    hk_team_run(w, hk_team_size(w, entries, HK_TOUCH_MIN), touch_task, &z);
    *stride = (size_t)S;
    *offset = (size_t)lead_n;
    return r;
}

int hk_fail(hk_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->error, sizeof w->error, fmt, ap);
    va_end(ap);
    return w->fail_code = HK_ERR_INVALID;
}

int hk_fail_memory(hk_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->error, sizeof w->error, fmt, ap);
    va_end(ap);
    return w->fail_code = HK_ERR_MEMORY;
}

int hk_failed(const hk_world *w) { return w->fail_code < 0 ? w->fail_code : HK_ERR_INVALID; }

const char *hk_status_name(int status)
{
    static const char *const names[] = {"ok", "invalid", "memory", "io", "unsupported", "diverged"};
    return status <= 0 && status > -(int)(sizeof names / sizeof names[0]) ? names[-status] : "unknown";
}

const char *hk_world_error(const hk_world *w) { return w->error; }
int hk_world_threads(const hk_world *w) { return w->def.threads; }

int hk_world_set_threads(hk_world *w, int threads)
{
    if (threads < 0 || threads > HK_MAX_THREADS)
        return hk_fail(w, "threads must be in [0, %d] (got %d)", HK_MAX_THREADS, threads);
    if (threads == 0 && w->def.task_hook.run)
        return hk_fail(w, "threads must be in [1, %d] while a task hook is set (the tasks of a pass)", HK_MAX_THREADS);
    if (threads != w->def.threads) w->forces_valid = 0; /* the next evaluation makes the new team's state first */
    w->def.threads = threads;
    return 0;
}

int hk_world_set_task_hook(hk_world *w, const hk_task_hook *hook)
{
    if (hook && hook->run && w->def.threads < 1)
        return hk_fail(w, "a task hook needs the world's threads set first (1 to %d: the tasks of a pass)",
                       HK_MAX_THREADS);
    w->def.task_hook = hook && hook->run ? *hook : (hk_task_hook){NULL, NULL};
    return 0;
}

hk_spring_params hk_default_spring_params(void)
{
    hk_spring_params s = {0};
    s.k = 1000.0;
    s.damping = 0.0;
    s.damping_model = HK_DAMP_ALONG;
    s.behaviour = HK_SPRING_NORMAL;
    s.break_ratio = 2.0;
    s.rest_length = 0.0;
    return s;
}

hk_world_def hk_default_world_def(void)
{
    hk_world_def d = {0};
    d.gravity = (hk_vec3){0.0, -9.81, 0.0};
    d.ground.model = HK_GROUND_NONE;
    d.walls_loss = 0.0;
    d.wind_model = HK_WIND_NONE;
    d.wind_drag = 1.0;
    d.kernels = NULL; /* the widest path */
    d.list_parallel_min = HK_LIST_PARALLEL_MIN;
    return d;
}

int hk_world_body_families(const hk_world *w, int **start_out, int **fams_out)
{
    const int B = w->body_count, F = w->family_count;
    int *start = calloc((size_t)B + 2, sizeof *start), *fams = malloc((size_t)(F + 1) * sizeof *fams);
    if (!start || !fams) {
        free(start);
        free(fams);
        return -1;
    }
    for (int f = 0; f < F; f++) start[w->families[f].body + 2]++;
    for (int b = 0; b < B; b++) start[b + 2] += start[b + 1];
    for (int f = 0; f < F; f++) fams[start[w->families[f].body + 1]++] = f;
    *start_out = start;
    *fams_out = fams;
    return 0;
}

const struct hk_world_facts *hk_world_facts(hk_world *w)
{
    struct hk_world_facts *f = &w->facts;
    if (f->bodies == w->body_count && f->families == w->family_count) return f;
    f->springs = 0;
    f->breakable = f->lists = f->anchors = f->limited = 0;
    w->strain_ready = 0; /* new bodies or families: their pins checked against the strain limits again */
    for (int q = 0; q < w->family_count; q++) {
        const hk_spring_params *sp = &w->families[q].params;
        f->limited += sp->strain_limit > 0 || sp->compress_limit > 0;
        f->springs += w->families[q].total;
        f->breakable += w->families[q].broken != NULL;
        f->lists += w->families[q].kind == HK_FAMILY_LIST;
    }
    for (int b = 0; b < w->body_count; b++) f->anchors += w->bodies[b].anchor != 0;
    f->bodies = w->body_count;
    f->families = w->family_count;
    return f;
}

static void free_particles(hk_particles *p)
{
    free(p->slab);
    *p = (hk_particles){0};
}

void hk_family_free(hk_family *f)
{
    free(f->broken_mem);
    free(f->a);
    free(f->b);
    hk_free_reals(f->rest_list);
    hk_free_reals(f->rvec[0]);
    free(f->colour_start);
    free(f->near_end);
    free(f->band_start);
}

void hk_world_free_storage(hk_world *w)
{
    free_particles(&w->p);
    for (int f = 0; f < w->family_count; f++) hk_family_free(&w->families[f]);
    for (int b = 0; b < w->body_count; b++)
        if (w->bodies[b].recipe) free(w->bodies[b].recipe->op), free(w->bodies[b].recipe);
    free(w->families);
    free(w->bodies);
    free(w->spheres);
    free(w->surfaces);
    free(w->history_slab);
    free(w->scratch);
}

/* Frees the integrator's history and scratch (sized by the capacity: made again when next asked for). */
static void drop_history(hk_world *w)
{
    free(w->history_slab);
    free(w->scratch);
    w->history_slab = w->px = w->py = w->pz = w->dqx = w->dqy = w->dqz = w->scratch = NULL;
    w->history_arrays = 0;
    w->history = 0;
}

/* Grows every particle array to hold at least n particles. */
static int reserve_particles(hk_world *w, int n)
{
    hk_particles *p = &w->p;
    if (n <= p->capacity) return 0;
    int cap = p->capacity ? p->capacity : 64;
    while (cap < n) cap = cap > (1 << 29) ? n : cap * 2;
    size_t stride, offset;
    hk_real *slab = hk_alloc_slab(HK_PARTICLE_ARRAYS, (size_t)cap, 0, w, &stride, &offset);
    if (!slab) return hk_fail_memory(w, "out of memory for %d particles", cap);
    hk_real **arrays[HK_PARTICLE_ARRAYS] = {&p->qx, &p->qy, &p->qz,       &p->vx,   &p->vy, &p->vz, &p->fx,
                                            &p->fy, &p->fz, &p->inv_mass, &p->mass, &p->rx, &p->ry, &p->rz};
    for (size_t i = 0; i < HK_PARTICLE_ARRAYS; i++) {
        hk_real *a = slab + offset + i * stride;
        if (*arrays[i]) memcpy(a, *arrays[i], (size_t)p->count * sizeof *a);
        *arrays[i] = a;
    }
    free(p->slab); /* the old arrays lived in it */
    p->slab = slab;
    p->capacity = cap;
    /* integrator scratch is sized by capacity: drop it, it is rebuilt lazily */
    drop_history(w);
    return 0;
}

int hk_particles_make(hk_world *w, int count, hk_particles *p)
{
    memset(p, 0, sizeof *p);
    const int cap = count > 0 ? (count + 63) / 64 * 64 : 64; /* a multiple of 64, as the doubling from 64 makes */
    size_t stride, offset;
    hk_real *slab = hk_alloc_slab(HK_PARTICLE_ARRAYS, (size_t)cap, 0, w, &stride, &offset);
    if (!slab) return hk_fail_memory(w, "out of memory for %d particles", cap);
    hk_real **arrays[HK_PARTICLE_ARRAYS] = {&p->qx, &p->qy, &p->qz,       &p->vx,   &p->vy, &p->vz, &p->fx,
                                            &p->fy, &p->fz, &p->inv_mass, &p->mass, &p->rx, &p->ry, &p->rz};
    for (size_t i = 0; i < HK_PARTICLE_ARRAYS; i++) *arrays[i] = slab + offset + i * stride;
    p->slab = slab;
    p->capacity = cap;
    p->count = count;
    return 0;
}

void hk_world_take_particles(hk_world *w, const hk_particles *p)
{
    free(w->p.slab);
    w->p = *p;
    drop_history(w); /* sized by the capacity: made again when asked for */
    w->forces_valid = 0;
}

int hk_world_alloc_history(hk_world *w, int arrays)
{
    HK_ASSERT(arrays == 3 || arrays == 6);
    size_t stride, offset;
    free(w->history_slab);
    w->px = w->py = w->pz = w->dqx = w->dqy = w->dqz = NULL;
    w->history_arrays = 0;
    w->history = 0;
    /* the slots after the particle arrays: staggered from them too */
    w->history_slab = hk_alloc_slab((size_t)arrays, (size_t)(w->p.capacity ? w->p.capacity : 1), HK_PARTICLE_ARRAYS, w,
                                    &stride, &offset);
    if (!w->history_slab) return -1;
    hk_real **a[6] = {&w->px, &w->py, &w->pz, &w->dqx, &w->dqy, &w->dqz};
    for (int k = 0; k < arrays; k++) *a[k] = w->history_slab + offset + (size_t)k * stride;
    w->history_arrays = arrays;
    return 0;
}

int hk_world_grow_particles(hk_world *w, int count)
{
    if (count <= 0) return hk_fail(w, "a body needs at least one particle");
    if ((int64_t)w->p.count + count > (1 << 30)) return hk_fail(w, "too many particles (limit 2^30)");
    hk_state_write(w); /* the arrays move and grow: the device's state first */
    if (reserve_particles(w, w->p.count + count) != 0) return hk_failed(w);
    int first = w->p.count;
    w->p.count += count;
    w->gcount += count;
    w->forces_valid = 0;
    w->history = 0;
    return first;
}

void hk_world_drop_particles(hk_world *w, int first)
{
    w->gcount -= w->p.count - first;
    w->p.count = first;
}

int hk_world_new_body(hk_world *w, const char *kind, int first, int count, int nx, int ny, int nz)
{
    if (w->body_count == w->body_cap) {
        int cap = w->body_cap ? 2 * w->body_cap : 8;
        hk_body *b = realloc(w->bodies, (size_t)cap * sizeof *b);
        if (!b) return hk_fail_memory(w, "out of memory for bodies");
        w->bodies = b;
        w->body_cap = cap;
    }
    hk_body *b = &w->bodies[w->body_count];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->first = first;
    b->count = count;
    b->gfirst = w->gcount - (w->p.count - first); /* its particles are the last grown */
    b->total = count;
    b->nx = nx;
    b->ny = ny;
    b->nz = nz;
    b->surface = -1;
    return w->body_count++;
}

void hk_world_defer_lattices(hk_world *w, int defer) { w->defer = defer != 0; }

int hk_world_new_deferred_body(hk_world *w, const char *kind, int total, int nx, int ny, int nz, double m)
{
    if (total <= 0) return hk_fail(w, "a body needs at least one particle");
    if ((int64_t)w->gcount + total > (1 << 30)) return hk_fail(w, "too many particles (limit 2^30)");
    hk_lattice_recipe *r = calloc(1, sizeof *r);
    if (!r) return hk_fail_memory(w, "out of memory for bodies");
    const int b = hk_world_new_body(w, kind, w->p.count, 0, nx, ny, nz);
    if (b < 0) {
        free(r);
        return b;
    }
    hk_body *bd = &w->bodies[b];
    bd->gfirst = w->gcount;
    bd->total = total;
    bd->recipe = r;
    r->mass = m;
    w->gcount += total;
    w->forces_valid = 0;
    w->history = 0;
    return b;
}

int hk_recipe_add(hk_world *w, int b, int op)
{
    hk_lattice_recipe *r = w->bodies[b].recipe;
    if (r->nop == r->cap) {
        const int cap = r->cap ? 2 * r->cap : 16;
        int *o = realloc(r->op, (size_t)cap * sizeof *o);
        if (!o) return hk_fail_memory(w, "out of memory for the pins of body %d", b);
        r->op = o;
        r->cap = cap;
    }
    r->op[r->nop++] = op;
    return 0;
}

hk_family *hk_world_new_family(hk_world *w, int body, const char *name, const hk_spring_params *params)
{
    if (w->family_count == w->family_cap) {
        int cap = w->family_cap ? 2 * w->family_cap : 16;
        hk_family *f = realloc(w->families, (size_t)cap * sizeof *f);
        if (!f) {
            hk_fail_memory(w, "out of memory for spring families");
            return NULL;
        }
        w->families = f;
        w->family_cap = cap;
    }
    hk_family *f = &w->families[w->family_count++];
    memset(f, 0, sizeof *f);
    w->coloured = 0;
    f->body = body;
    snprintf(f->name, sizeof f->name, "%s", name);
    f->params = *params;
    f->k = (hk_real)params->k;
    f->c = (hk_real)params->damping;
    f->break_ratio = (hk_real)params->break_ratio;
    f->rest = (hk_real)params->rest_length;
    return f;
}

void hk_points_origin(int count, const hk_vec3 *pos, double o[3])
{
    double lo[3] = {pos[0].x, pos[0].y, pos[0].z}, hi[3] = {lo[0], lo[1], lo[2]};
    for (int i = 1; i < count; i++) {
        const double x[3] = {pos[i].x, pos[i].y, pos[i].z};
        for (int c = 0; c < 3; c++) {
            if (x[c] < lo[c]) lo[c] = x[c];
            if (x[c] > hi[c]) hi[c] = x[c];
        }
    }
    /* the middle, rounded to a multiple of g, the power of two that spans
     * the box: the points stay within about g of the origin, and a body near
     * the world's origin gets origin 0 (the points held exactly as given,
     * to the build's precision) */
    double extent = 0;
    for (int c = 0; c < 3; c++) extent = fmax(extent, hi[c] - lo[c]);
    const double g = ldexp(1.0, extent > 0x1p-30 ? ilogb(extent) + 1 : -30);
    for (int c = 0; c < 3; c++) o[c] = g * nearbyint((0.5 * lo[c] + 0.5 * hi[c]) / g);
}

void hk_springs_visit(const hk_family *f, hk_spring_visitor visit, void *ctx)
{
    hk_springs_visit_sources(f, f->lo, f->hi, visit, ctx);
}

void hk_springs_visit_sources(const hk_family *f, int64_t s0, int64_t s1, hk_spring_visitor visit, void *ctx)
{
    if (f->kind == HK_FAMILY_LATTICE) {
        /* the springs whose two ends are held here (a window of the body's nodes: hk_world_distribute) */
        const int64_t lo = s0 > f->lo ? s0 : f->lo, hi = f->hi, end = s1 < hi ? s1 : hi;
        for (int k = f->k0; k < f->k1; k++)
            for (int j = f->j0; j < f->j1; j++) {
                int64_t row = (int64_t)f->nx * (j + (int64_t)f->ny * k);
                if (row + f->i1 <= lo || row + f->i0 >= end) continue;
                for (int i = f->i0; i < f->i1; i++) {
                    int64_t local = row + i;
                    if (local < lo || local >= end || local + f->offset >= hi) continue;
                    if (f->broken && f->broken[local]) continue;
                    visit(f, local, f->base + local, f->base + local + f->offset, f->rest, ctx);
                }
            }
    } else {
        for (int64_t s = 0; s < f->count; s++) {
            if (f->broken && f->broken[s]) continue;
            visit(f, s, f->a[s], f->b[s], f->rest_list ? f->rest_list[s] : f->rest, ctx);
        }
    }
}

int hk_body_of(const hk_world *w, int i)
{
    int lo = 0, hi = w->body_count - 1;
    while (lo <= hi) { /* bodies own contiguous ranges in order */
        const int m = lo + (hi - lo) / 2;
        const hk_body *b = &w->bodies[m];
        if (i < b->first)
            hi = m - 1;
        else if (i >= b->first + b->count)
            lo = m + 1;
        else
            return m;
    }
    return -1;
}

void hk_body_rest(const hk_body *b, int64_t local, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    if (!b->lattice) return;
    const int64_t n[3] = {local % b->nx, local / b->nx % b->ny, local / ((int64_t)b->nx * b->ny)};
    for (int c = 0; c < 3; c++) out[c] = n[0] * b->axis[0][c] + n[1] * b->axis[1][c] + n[2] * b->axis[2][c];
}

/* q_i = pos - origin - r_i, in double */
static void displacement(const hk_particles *p, const hk_body *b, int i, const double pos[3], double q[3])
{
    q[0] = hk_frame_disp(pos[0], b->origin[0], p->rx[i]);
    q[1] = hk_frame_disp(pos[1], b->origin[1], p->ry[i]);
    q[2] = hk_frame_disp(pos[2], b->origin[2], p->rz[i]);
}

void hk_particle_place(hk_world *w, const hk_body *b, int i, const double pos[3])
{
    hk_particles *p = &w->p;
    double q[3];
    displacement(p, b, i, pos, q);
    p->qx[i] = (hk_real)q[0];
    p->qy[i] = (hk_real)q[1];
    p->qz[i] = (hk_real)q[2];
}

int hk_particle_fits(const hk_world *w, const hk_body *b, int i, const double pos[3])
{
    double q[3];
    displacement(&w->p, b, i, pos, q);
    return hk_real_holds(q[0]) && hk_real_holds(q[1]) && hk_real_holds(q[2]);
}

hk_vec3 hk_world_position(const hk_world *w, int i)
{
    hk_state_read(w);
    const int b = i >= 0 && i < w->p.count ? hk_body_of(w, i) : -1;
    if (b < 0) return (hk_vec3){NAN, NAN, NAN};
    double x[3];
    hk_particle_position(w, &w->bodies[b], i, x);
    return (hk_vec3){x[0], x[1], x[2]};
}

/* Whether x [m] may become particle i's position: 0, or the failure (the world's error says why, after `call`). */
static int position_refused(hk_world *w, int i, const double x[3], const char *call)
{
    if (i < 0 || i >= w->p.count) return hk_fail(w, "%s: no particle %d", call, i);
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2]))
        return hk_fail(w, "%s: position of particle %d is not finite", call, i);
    if (!hk_particle_fits(w, &w->bodies[hk_body_of(w, i)], i, x))
        return hk_fail(w, "%s: position (%g, %g, %g) m of particle %d is beyond this build's precision", call, x[0],
                       x[1], x[2], i);
    return 0;
}

/* Whether v [m/s] may become particle i's velocity: 0, or the failure (the world's error says why, after `call`). */
static int velocity_refused(hk_world *w, int i, const double v[3], const char *call)
{
    if (i < 0 || i >= w->p.count) return hk_fail(w, "%s: no particle %d", call, i);
    if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        return hk_fail(w, "%s: velocity of particle %d is not finite", call, i);
    if (!hk_real_holds(v[0]) || !hk_real_holds(v[1]) || !hk_real_holds(v[2]))
        return hk_fail(w, "%s: velocity (%g, %g, %g) m/s of particle %d is beyond this build's precision", call, v[0],
                       v[1], v[2], i);
    return 0;
}

/* Writes particles [first, first + count) from xyz (positions or velocities), values already checked. */
static int write_many(hk_world *w, int first, int count, const double *xyz, int velocity)
{
    hk_state_write(w);
    for (int i = 0; i < count; i++) {
        const double *x = xyz + 3 * (size_t)i;
        const int g = first + i;
        if (velocity) {
            w->p.vx[g] = (hk_real)x[0];
            w->p.vy[g] = (hk_real)x[1];
            w->p.vz[g] = (hk_real)x[2];
        } else {
            hk_particle_place(w, &w->bodies[hk_body_of(w, g)], g, x);
        }
    }
    w->forces_valid = 0;
    w->history = 0;
    return 0;
}

int hk_particles_refused(hk_world *w, int first, int count, const char *call)
{
    if (first < 0 || count < 0 || first > w->p.count - count)
        return hk_fail(w, "%s: particles [%d, %d) outside the %d particles", call, first, first + count, w->p.count);
    return 0;
}

/* Particles [first, first + count) set from xyz, every value checked before any is written. */
static int set_many(hk_world *w, int first, int count, const double *xyz, int velocity)
{
    const int refused = hk_particles_refused(w, first, count, velocity ? "set_velocities" : "set_positions");
    if (refused) return refused;
    for (int i = 0; i < count; i++) {
        const int rc = velocity ? velocity_refused(w, first + i, xyz + 3 * (size_t)i, "set_velocities")
                                : position_refused(w, first + i, xyz + 3 * (size_t)i, "set_positions");
        if (rc) return rc;
    }
    return write_many(w, first, count, xyz, velocity);
}

int hk_world_set_position(hk_world *w, int i, hk_vec3 x)
{
    const double pos[3] = {x.x, x.y, x.z};
    const int rc = position_refused(w, i, pos, "set_position");
    return rc ? rc : write_many(w, i, 1, pos, 0);
}

int hk_world_set_velocity(hk_world *w, int i, hk_vec3 v)
{
    const double vel[3] = {v.x, v.y, v.z};
    const int rc = velocity_refused(w, i, vel, "set_velocity");
    return rc ? rc : write_many(w, i, 1, vel, 1);
}

int hk_world_set_positions(hk_world *w, int first, int count, const double *xyz)
{
    return set_many(w, first, count, xyz, 0);
}

int hk_world_set_velocities(hk_world *w, int first, int count, const double *xyz)
{
    return set_many(w, first, count, xyz, 1);
}

int hk_world_positions(const hk_world *w, int first, int count, double *xyz)
{
    hk_state_read(w);
    if (first < 0 || count < 0 || first > w->p.count - count) return -1;
    int b = count ? hk_body_of(w, first) : -1;
    for (int i = first; i < first + count; i++) {
        while (i >= w->bodies[b].first + w->bodies[b].count) b++;
        hk_particle_position(w, &w->bodies[b], i, xyz + 3 * (size_t)(i - first));
    }
    return 0;
}

int hk_world_add_sphere(hk_world *w, const hk_sphere_def *def)
{
    if (!(def->radius > 0.0) || !isfinite(def->radius))
        return hk_fail(w, "sphere radius must be > 0 (got %g)", def->radius);
    const double v[6] = {def->center.x,   def->center.y,   def->center.z,
                         def->velocity.x, def->velocity.y, def->velocity.z};
    for (int k = 0; k < 6; k++)
        if (!isfinite(v[k]))
            return hk_fail(w, "sphere %s.%c must be finite (got %g)", k < 3 ? "center" : "velocity", "xyz"[k % 3],
                           v[k]);
    if (!(def->loss >= 0.0 && def->loss <= 1.0)) return hk_fail(w, "sphere loss must be in [0, 1] (got %g)", def->loss);
    if (w->sphere_count == w->sphere_cap) {
        int cap = w->sphere_cap ? 2 * w->sphere_cap : 4;
        hk_sphere_def *s = realloc(w->spheres, (size_t)cap * sizeof *s);
        if (!s) return hk_fail_memory(w, "out of memory for spheres");
        w->spheres = s;
        w->sphere_cap = cap;
    }
    w->spheres[w->sphere_count] = *def;
    return w->sphere_count++;
}

int hk_world_pin(hk_world *w, int body, int local_index)
{
    if (body < 0 || body >= w->body_count) return hk_fail(w, "pin: no body %d", body);
    const hk_body *b = &w->bodies[body];
    if (local_index < 0 || local_index >= b->total)
        return hk_fail(w, "pin: particle %d out of range 0..%d of body %d", local_index, b->total - 1, body);
    if (b->recipe) return hk_recipe_add(w, body, local_index);            /* pinned when its row is built */
    if (local_index < b->lo || local_index >= b->lo + b->count) return 0; /* held by another rank */
    int i = b->first + local_index - b->lo;
    hk_state_write(w);
    w->p.inv_mass[i] = 0;
    w->p.vx[i] = w->p.vy[i] = w->p.vz[i] = 0;
    w->forces_valid = 0;
    w->strain_ready = 0; /* the strain limits' pins checked again (fabric/strain_limit.h) */
    return 0;
}

int hk_world_unpin(hk_world *w, int body, int local_index)
{
    if (body < 0 || body >= w->body_count) return hk_fail(w, "unpin: no body %d", body);
    const hk_body *b = &w->bodies[body];
    if (local_index < 0 || local_index >= b->total)
        return hk_fail(w, "unpin: particle %d out of range 0..%d of body %d", local_index, b->total - 1, body);
    if (b->anchor && local_index == 0)
        return hk_fail(w, "unpin: particle 0 of body %d is its driven anchor, which moves as its anchor velocity says",
                       body);
    if (b->recipe) return hk_fail(w, "unpin: body %d is built row by row over ranks: pins are set when it is", body);
    if (local_index < b->lo || local_index >= b->lo + b->count) return 0; /* held by another rank */
    const int i = b->first + local_index - b->lo;
    if (w->p.inv_mass[i] != 0) return 0;
    hk_state_write(w);
    hk_particle_free(w, i);
    w->p.vx[i] = w->p.vy[i] = w->p.vz[i] = 0;
    w->forces_valid = 0;
    w->strain_ready = 0; /* the tethers made again from the pins left (fabric/tethers.h) */
    return 0;
}

void hk_particle_free(hk_world *w, int i)
{
    HK_ASSERT(w->p.mass[i] > 0);
    w->p.inv_mass[i] = (hk_real)(1.0 / (double)w->p.mass[i]);
}

hk_particles_view hk_world_particles(const hk_world *w)
{
    hk_state_read(w);
    const hk_particles *p = &w->p;
    return (hk_particles_view){.count = p->count,
                               .vx = p->vx,
                               .vy = p->vy,
                               .vz = p->vz,
                               .fx = p->fx,
                               .fy = p->fy,
                               .fz = p->fz,
                               .inv_mass = p->inv_mass,
                               .mass = p->mass,
                               .rx = p->rx,
                               .ry = p->ry,
                               .rz = p->rz,
                               .qx = p->qx,
                               .qy = p->qy,
                               .qz = p->qz};
}

int hk_world_body_count(const hk_world *w) { return w->body_count; }

hk_body_info hk_world_body(const hk_world *w, int body)
{
    hk_body_info info = {0};
    if (body < 0 || body >= w->body_count) return info;
    const hk_body *b = &w->bodies[body];
    info.first = b->first;
    info.count = b->count;
    info.nx = b->nx;
    info.ny = b->ny;
    info.nz = b->nz;
    info.kind = b->kind;
    for (int c = 0; c < 3; c++) info.origin[c] = b->origin[c];
    int64_t springs = 0;
    for (int f = 0; f < w->family_count; f++)
        if (w->families[f].body == body) springs += w->families[f].count;
    info.springs = (int)springs;
    return info;
}

int hk_world_family_count(const hk_world *w) { return w->family_count; }

hk_family_info hk_world_family(const hk_world *w, int family)
{
    hk_state_read(w); /* its broken count */
    hk_family_info info = {0};
    if (family < 0 || family >= w->family_count) return info;
    const hk_family *f = &w->families[family];
    info.body = f->body;
    info.name = f->name;
    info.springs = (int)f->count;
    info.broken = (int)f->broken_count;
    info.params = f->params;
    return info;
}

int64_t hk_world_spring_count(const hk_world *w)
{
    int64_t n = 0;
    for (int f = 0; f < w->family_count; f++) n += w->families[f].total;
    return n;
}

int64_t hk_world_step_count(const hk_world *w) { return w->steps; }
double hk_world_time(const hk_world *w) { return w->time; }
int64_t hk_world_spring_updates(const hk_world *w) { return w->spring_updates; }
