/* obj_out.c — writes one frame as a Wavefront OBJ file. */
#include "obj_out.h"

#include "frames.h"
#include "outfile.h"

#include <stdio.h>

#include "world.h"

int hk_obj_write_frame(const char *path, const hk_world *w, const hk_geometry *m)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    const hk_particles *p = &w->p;
    fprintf(f, "# hooke %s frame: step %lld, t = %.9g s, %d particles\n", HOOKE_VERSION,
            (long long)hk_world_step_count(w), hk_world_time(w), p->count);
    for (int i = 0; i < p->count; i++)
        fprintf(f, "v %.9g %.9g %.9g\n", m->pos[3 * i], m->pos[3 * i + 1], m->pos[3 * i + 2]);
    for (int b = 0; b < w->body_count; b++) {
        fprintf(f, "o body%d_%s\n", b, w->bodies[b].kind);
        if (hk_geometry_body_has_surface(w, b)) {
            for (int64_t t = 0; t < m->tris; t++)
                if (m->tri_body[t] == b)
                    fprintf(f, "f %d %d %d\n", m->tri[3 * t] + 1, m->tri[3 * t + 1] + 1, m->tri[3 * t + 2] + 1);
        } else {
            for (int64_t l = 0; l < m->lines; l++)
                if (m->line_body[l] == b) fprintf(f, "l %d %d\n", m->line[2 * l] + 1, m->line[2 * l + 1] + 1);
        }
    }
    return hk_out_close(&o, 1);
}

static int write_obj(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    (void)s;
    return hk_obj_write_frame(path, w, g);
}

const hk_frame_format hk_frame_format_obj = {"obj", "obj", "Wavefront OBJ frames (Blender)", write_obj};
