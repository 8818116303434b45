/* render.c — software rendering of a frame: orthographic projection, depth-tested shaded triangles and stretch-coloured
 * springs. */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "frames.h"

#include "raster.h"
#include "world.h"

static void normalise(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0)
        for (int c = 0; c < 3; c++) v[c] /= n;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void hk_render_camera_fit(const hk_world *w, hk_render_camera *cam)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int i = 0; i < w->p.count; i++) {
        const hk_vec3 v = hk_world_position(w, i);
        const double x[3] = {v.x, v.y, v.z};
        if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) continue;
        for (int c = 0; c < 3; c++) {
            lo[c] = fmin(lo[c], x[c]);
            hi[c] = fmax(hi[c], x[c]);
        }
    }
    if (!(lo[0] <= hi[0])) lo[0] = lo[1] = lo[2] = hi[0] = hi[1] = hi[2] = 0;
    double dir[3] = {-0.45, -0.35, -1.0}, world_up[3] = {0, 1, 0};
    normalise(dir);
    cross(dir, world_up, cam->right);
    normalise(cam->right);
    cross(cam->right, dir, cam->up);
    for (int c = 0; c < 3; c++) {
        cam->dir[c] = dir[c];
        cam->centre[c] = 0.5 * (lo[c] + hi[c]);
    }
    /* half extent: the largest projected distance of a box corner (4:3 picture) */
    double half = 0;
    for (int k = 0; k < 8; k++) {
        const double q[3] = {(k & 1 ? hi[0] : lo[0]) - cam->centre[0], (k & 2 ? hi[1] : lo[1]) - cam->centre[1],
                             (k & 4 ? hi[2] : lo[2]) - cam->centre[2]};
        double u = fabs(q[0] * cam->right[0] + q[1] * cam->right[1] + q[2] * cam->right[2]) * 0.75;
        double v = fabs(q[0] * cam->up[0] + q[1] * cam->up[1] + q[2] * cam->up[2]);
        half = fmax(half, fmax(u, v));
    }
    cam->half_extent = half > 0 ? 1.15 * half : 1.0;
}

/* Blue (compressed) - grey (rest length) - red (stretched 20 % or more). */
static hk_rgb stretch_colour(double s)
{
    double t = (s - 1.0) / 0.2;
    if (!isfinite(t)) t = 1;
    if (t > 1) t = 1;
    if (t < -1) t = -1;
    const double grey = 90;
    if (t >= 0)
        return (hk_rgb){(uint8_t)(grey + t * (230 - grey)), (uint8_t)(grey * (1 - t) + 30 * t),
                        (uint8_t)(grey * (1 - t) + 30 * t)};
    t = -t;
    return (hk_rgb){(uint8_t)(grey * (1 - t) + 30 * t), (uint8_t)(grey * (1 - t) + 80 * t),
                    (uint8_t)(grey + t * (230 - grey))};
}

static const hk_rgb palette[] = {{70, 130, 200}, {220, 150, 60}, {90, 170, 100}, {180, 90, 160}, {200, 200, 80}};

int hk_render_png(const char *path, const hk_world *w, const hk_geometry *m, const hk_render_camera *cam, int width,
                  int height)
{
    hk_image im;
    if (hk_image_init(&im, width, height, (hk_rgb){245, 245, 240}) != 0) {
        errno = ENOMEM;
        return -1;
    }
    const double scale = 0.5 * height / cam->half_extent;
#define PROJECT(i, sx, sy, sz)                                                                                         \
    do {                                                                                                               \
        const double q_[3] = {m->pos[3 * (i)] - cam->centre[0], m->pos[3 * (i) + 1] - cam->centre[1],                  \
                              m->pos[3 * (i) + 2] - cam->centre[2]};                                                   \
        sx = 0.5 * width + scale * (q_[0] * cam->right[0] + q_[1] * cam->right[1] + q_[2] * cam->right[2]);            \
        sy = 0.5 * height - scale * (q_[0] * cam->up[0] + q_[1] * cam->up[1] + q_[2] * cam->up[2]);                    \
        sz = q_[0] * cam->dir[0] + q_[1] * cam->dir[1] + q_[2] * cam->dir[2];                                          \
    } while (0)
    double light[3] = {0.3, 0.8, 0.5};
    normalise(light);
    for (int64_t t = 0; t < m->tris; t++) {
        double x[3], y[3], z[3], pos[3][3];
        for (int k = 0; k < 3; k++) {
            const int i = m->tri[3 * t + k];
            PROJECT(i, x[k], y[k], z[k]);
            pos[k][0] = m->pos[3 * i], pos[k][1] = m->pos[3 * i + 1], pos[k][2] = m->pos[3 * i + 2];
        }
        double e1[3], e2[3], n[3];
        for (int c = 0; c < 3; c++) e1[c] = pos[1][c] - pos[0][c], e2[c] = pos[2][c] - pos[0][c];
        cross(e1, e2, n);
        normalise(n);
        const double shade = 0.35 + 0.65 * fabs(n[0] * light[0] + n[1] * light[1] + n[2] * light[2]);
        const hk_rgb base = palette[m->tri_body[t] % 5];
        hk_image_triangle(&im, x, y, z,
                          (hk_rgb){(uint8_t)(base.r * shade), (uint8_t)(base.g * shade), (uint8_t)(base.b * shade)});
    }
    /* springs of bodies without a surface, drawn a little in front so they read as lines */
    const double bias = 1e-3 * cam->half_extent;
    for (int64_t l = 0; l < m->lines; l++) {
        if (hk_geometry_body_has_surface(w, m->line_body[l])) continue;
        double x0, y0, z0, x1, y1, z1;
        PROJECT(m->line[2 * l], x0, y0, z0);
        PROJECT(m->line[2 * l + 1], x1, y1, z1);
        hk_image_line(&im, x0, y0, z0 - bias, x1, y1, z1 - bias, stretch_colour(m->stretch[l]), 2);
    }
    /* particles of bodies without a surface */
    for (int b = 0; b < w->body_count; b++) {
        if (hk_geometry_body_has_surface(w, b)) continue;
        const hk_body *body = &w->bodies[b];
        for (int i = body->first; i < body->first + body->count; i++) {
            double sx, sy, sz;
            PROJECT(i, sx, sy, sz);
            if (!isfinite(sx) || !isfinite(sy)) continue;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    if (dx * dx + dy * dy <= 5)
                        hk_image_plot(&im, (int)lround(sx) + dx, (int)lround(sy) + dy, (float)(sz - 2 * bias),
                                      (hk_rgb){40, 40, 40});
        }
    }
#undef PROJECT
    char label[96];
    snprintf(label, sizeof label, "T = %.4g S  STEP %lld", hk_world_time(w), (long long)hk_world_step_count(w));
    hk_image_text(&im, 8, 8, label, (hk_rgb){40, 40, 40}, 2);
    int rc = hk_image_write_png(&im, path);
    hk_image_free(&im);
    return rc;
}

/* The camera frames the first picture of a run and then stays, so motion shows. */
static int write_png(hk_frame_series *s, const char *path, const hk_world *w, const hk_geometry *g)
{
    if (!s->state) {
        if (!(s->state = malloc(sizeof(hk_render_camera)))) return -1;
        s->free_state = free;
        hk_render_camera_fit(w, s->state);
    }
    return hk_render_png(path, w, g, s->state, 640, 480);
}

const hk_frame_format hk_frame_format_png = {"png", "png", "rendered pictures, 640 x 480", write_png};
