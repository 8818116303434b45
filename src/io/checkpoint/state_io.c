/* state_io.c — the final particle state as text (docs/state-format.md). */
/* SPDX-License-Identifier: MIT */
#include "state_io.h"

#include "outfile.h"
#include "part.h"
#include "world.h"

#include <errno.h>
#include <string.h>

#ifdef HOOKE_DOUBLE
#define HK_DIGITS 17
#define HK_REAL_NAME "double"
#else
#define HK_DIGITS 9
#define HK_REAL_NAME "float"
#endif

/* A particle's line: its place (3 doubles: a world position), then its velocity and inverse mass as stored. */
typedef struct state_line {
    double x[3];
    hk_real v[3], inv_mass;
} state_line;

typedef struct state_pass {
    const hk_world *w;
    FILE *f; /* rank 0's */
} state_pass;

static size_t piece_size(void *ctx, int b, int64_t l0, int64_t l1)
{
    (void)ctx;
    (void)b;
    return (size_t)(l1 - l0) * sizeof(state_line);
}

static void pack_lines(void *ctx, int b, int64_t l0, int64_t l1, void *buf)
{
    const state_pass *sp = ctx;
    const hk_world *w = sp->w;
    const hk_body *bd = &w->bodies[b];
    state_line *out = buf;
    for (int64_t l = l0; l < l1; l++, out++) {
        const int i = (int)(hk_body_base(bd) + l);
        hk_particle_position(w, bd, i, out->x); /* a double: 17 digits in every build */
        out->v[0] = w->p.vx[i], out->v[1] = w->p.vy[i], out->v[2] = w->p.vz[i];
        out->inv_mass = w->p.inv_mass[i];
    }
}

static void put_lines(void *ctx, int b, int64_t l0, int64_t l1, void *buf)
{
    const state_pass *sp = ctx;
    const state_line *in = buf;
    const int64_t g0 = sp->w->bodies[b].gfirst;
    for (int64_t l = l0; l < l1; l++, in++)
        fprintf(sp->f, "%lld %.17g %.17g %.17g %.*g %.*g %.*g %.*g\n", (long long)(g0 + l), in->x[0], in->x[1],
                in->x[2], HK_DIGITS, (double)in->v[0], HK_DIGITS, (double)in->v[1], HK_DIGITS, (double)in->v[2],
                HK_DIGITS, (double)in->inv_mass);
}

int hk_state_text(const hk_world *w, FILE *f)
{
    /* over MPI ranks every rank calls it: each rank's part comes to rank 0 in turn (part.h hk_part_funnel), rank 0
     * writes; in one process every particle in order */
    const int rank0 = !w->part || w->part->rank == 0;
    if (rank0) {
        fprintf(f, "# hooke state v2 particles=%d time=%.17g steps=%lld real=%s\n", w->gcount, hk_world_time(w),
                (long long)hk_world_step_count(w), HK_REAL_NAME);
        fprintf(f, "# index x y z vx vy vz inv_mass\n");
    }
    state_pass sp = {w, f};
    const int failed = hk_part_funnel(w, 0, piece_size, pack_lines, put_lines, &sp) != 0;
    if (failed) errno = ENOMEM;
    return failed || (rank0 && ferror(f)) ? -1 : 0;
}

int hk_state_write_file(const hk_world *w, const char *path)
{
    const int rank0 = !w->part || w->part->rank == 0;
    hk_outfile o;
    FILE *f = rank0 ? hk_out_open(&o, path, "w") : NULL;
    const int unopened = rank0 && !f, saved = errno;
    if (hk_part_any(w, unopened)) { /* every rank's verdict on rank 0's file */
        errno = saved;
        return -1;
    }
    const int rc = hk_state_text(w, f); /* another rank's part, sent to rank 0 */
    return rank0 ? hk_out_close(&o, rc == 0) : rc;
}
