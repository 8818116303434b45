/* softbody.c — pressure soft bodies: closed meshes (loaded or icosphere) with edge and extra springs, the 2-D ring. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "builders.h"
#include "mesh.h"
#include "springs.h"
#include "surface.h"

hk_mesh_def hk_default_mesh_def(void)
{
    hk_mesh_def d = {0};
    d.mass = 0.01;
    d.springs = hk_default_spring_params();
    d.extra_springs = hk_default_spring_params();
    d.pressure.pump_rate = 0.01;
    return d;
}

hk_ring_def hk_default_ring_def(void)
{
    hk_ring_def d = {0};
    d.count = 17;
    d.radius = 1;
    d.mass = 1;
    d.springs = hk_default_spring_params();
    d.pressure.pump_rate = 0.01;
    return d;
}

static int cmp_pair(const void *pa, const void *pb)
{
    const int *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
    return (a[1] > b[1]) - (a[1] < b[1]);
}

/* The mesh's edges (lo < hi), sorted, each once; 2 ints per edge. */
static int *mesh_edges(const hk_mesh *m, int *count)
{
    size_t n = (size_t)m->face_count * 3;
    int *e = malloc(2 * n * sizeof *e);
    if (!e) return NULL;
    for (int f = 0; f < m->face_count; f++)
        for (int k = 0; k < 3; k++) {
            int a = m->faces[3 * f + k], b = m->faces[3 * f + (k + 1) % 3];
            e[2 * (3 * (size_t)f + k)] = a < b ? a : b;
            e[2 * (3 * (size_t)f + k) + 1] = a < b ? b : a;
        }
    qsort(e, n, 2 * sizeof *e, cmp_pair);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || e[2 * i] != e[2 * (u - 1)] || e[2 * i + 1] != e[2 * (u - 1) + 1]) {
            e[2 * u] = e[2 * i];
            e[2 * u + 1] = e[2 * i + 1];
            u++;
        }
    *count = (int)u;
    return e;
}

/* Pairs (i < j) at graph distance 2..rings over the edges: breadth first
 * from each vertex. Returns a malloc'ed array of 2 * *count ints. */
static int *ring_pairs(int nv, const int *edges, int ne, int rings, int64_t *count)
{
    int *start = calloc((size_t)nv + 1, sizeof *start), *adj = malloc((size_t)(2 * ne) * sizeof *adj);
    int *dist = malloc((size_t)nv * sizeof *dist), *queue = malloc((size_t)nv * sizeof *queue);
    int *out = NULL;
    int64_t n = 0, cap = 0;
    if (!start || !adj || !dist || !queue) goto done;
    for (int e = 0; e < ne; e++) start[edges[2 * e] + 1]++, start[edges[2 * e + 1] + 1]++;
    for (int v = 0; v < nv; v++) start[v + 1] += start[v];
    {
        int *fill = malloc((size_t)nv * sizeof *fill);
        if (!fill) goto done;
        memcpy(fill, start, (size_t)nv * sizeof *fill);
        for (int e = 0; e < ne; e++) {
            adj[fill[edges[2 * e]]++] = edges[2 * e + 1];
            adj[fill[edges[2 * e + 1]]++] = edges[2 * e];
        }
        free(fill);
    }
    for (int v = 0; v < nv; v++) dist[v] = -1;
    for (int s = 0; s < nv; s++) {
        int head = 0, tail = 0;
        queue[tail++] = s;
        dist[s] = 0;
        while (head < tail) {
            int u = queue[head++];
            if (dist[u] >= rings) continue;
            for (int e = start[u]; e < start[u + 1]; e++)
                if (dist[adj[e]] < 0) {
                    dist[adj[e]] = dist[u] + 1;
                    queue[tail++] = adj[e];
                }
        }
        for (int q = 0; q < tail; q++) {
            int v = queue[q];
            if (dist[v] >= 2 && v > s) {
                if (n == cap) {
                    cap = cap ? 2 * cap : 1024;
                    int *no = realloc(out, (size_t)cap * 2 * sizeof *no);
                    if (!no) {
                        free(out);
                        out = NULL;
                        goto done;
                    }
                    out = no;
                }
                out[2 * n] = s;
                out[2 * n + 1] = v;
                n++;
            }
            dist[v] = -1;
        }
    }
    if (!out) out = malloc(2 * sizeof *out); /* no pairs: still a valid result */
done:
    free(start);
    free(adj);
    free(dist);
    free(queue);
    *count = n;
    return out;
}

/* A mesh body that reports itself as body kind `kind` ("mesh", "icosphere"). */
static int add_mesh(hk_world *w, const hk_mesh_def *d, const char *kind)
{
    if (!d->mesh) return hk_fail(w, "mesh: no mesh given");
    if (hk_check_mass(w, "mesh", d->mass) || hk_check_spring_params(w, "mesh springs", &d->springs) ||
        hk_check_vec(w, kind, "offset", d->offset) || hk_check_vec(w, kind, "velocity", d->velocity))
        return hk_failed(w);
    if (d->extra_rings < 0 || d->extra_rings == 1 || d->extra_rings > 8)
        return hk_fail(w, "mesh: extra_rings must be 0 or in [2, 8] (got %d)", d->extra_rings);
    if (d->extra_rings && hk_check_spring_params(w, "mesh extra springs", &d->extra_springs)) return hk_failed(w);
    hk_mesh m = *d->mesh;
    char err[256];
    /* validate a copy of the face list (validation may not change the caller's mesh) */
    m.faces = malloc((size_t)m.face_count * 3 * sizeof *m.faces);
    if (!m.faces) return hk_fail_memory(w, "mesh: out of memory");
    memcpy(m.faces, d->mesh->faces, (size_t)m.face_count * 3 * sizeof *m.faces);
    m.face_lines = NULL;
    if (hk_mesh_validate(&m, "mesh", 0, err, sizeof err) != 0) {
        free(m.faces);
        return hk_fail(w, "%s", err);
    }
    hk_vec3 *pos = malloc((size_t)m.vertex_count * sizeof *pos), *vel = malloc((size_t)m.vertex_count * sizeof *vel);
    double *mass = malloc((size_t)m.vertex_count * sizeof *mass);
    int ne = 0;
    int *edges = mesh_edges(&m, &ne);
    int body = -1, fam0 = w->family_count;
    if (!pos || !vel || !mass || !edges) {
        hk_fail_memory(w, "mesh: out of memory");
        goto out;
    }
    for (int v = 0; v < m.vertex_count; v++) {
        pos[v] = (hk_vec3){m.vertices[v].x + d->offset.x, m.vertices[v].y + d->offset.y, m.vertices[v].z + d->offset.z};
        vel[v] = d->velocity;
        mass[v] = d->mass;
    }
    body = hk_world_add_points(w, m.vertex_count, pos, vel, mass);
    if (body < 0) goto out;
    w->bodies[body].kind = kind;
    {
        int *ga = malloc((size_t)ne * sizeof *ga), *gb = malloc((size_t)ne * sizeof *gb);
        int rc = ga && gb ? 0 : hk_fail_memory(w, "mesh: out of memory");
        for (int e = 0; rc == 0 && e < ne; e++) {
            ga[e] = w->bodies[body].first + edges[2 * e];
            gb[e] = w->bodies[body].first + edges[2 * e + 1];
        }
        if (rc == 0) rc = hk_add_list_family(w, body, "edges", &d->springs, ne, ga, gb, NULL);
        free(ga);
        free(gb);
        if (rc) {
            body = hk_undo_body(w, body, fam0);
            goto out;
        }
    }
    if (d->extra_rings >= 2) {
        int64_t np = 0;
        int *pairs = ring_pairs(m.vertex_count, edges, ne, d->extra_rings, &np);
        int rc = pairs ? 0 : hk_fail_memory(w, "mesh: out of memory for extra springs");
        for (int64_t q = 0; rc == 0 && q < 2 * np; q++) pairs[q] += w->bodies[body].first;
        if (rc == 0 && np > 0) {
            int *ga = malloc((size_t)np * sizeof *ga), *gb = malloc((size_t)np * sizeof *gb);
            rc = ga && gb ? 0 : hk_fail_memory(w, "mesh: out of memory");
            for (int64_t q = 0; rc == 0 && q < np; q++) ga[q] = pairs[2 * q], gb[q] = pairs[2 * q + 1];
            if (rc == 0) rc = hk_add_list_family(w, body, "extra", &d->extra_springs, np, ga, gb, NULL);
            free(ga);
            free(gb);
        }
        free(pairs);
        if (rc) {
            body = hk_undo_body(w, body, fam0);
            goto out;
        }
    }
    if (hk_surface_add(w, body, 3, 1, m.face_count, m.faces, &d->pressure) != 0) body = hk_undo_body(w, body, fam0);
out:
    free(m.faces);
    free(pos);
    free(vel);
    free(mass);
    free(edges);
    return body;
}

int hk_world_add_mesh(hk_world *w, const hk_mesh_def *d) { return add_mesh(w, d, "mesh"); }

int hk_world_add_icosphere(hk_world *w, const hk_mesh_def *def, double radius, int level)
{
    if (!(radius > 0) || !isfinite(radius)) return hk_fail(w, "icosphere: radius must be > 0 (got %g)", radius);
    if (level < 0 || level > 7) return hk_fail(w, "icosphere: level must be in [0, 7] (got %d)", level);
    hk_mesh m;
    if (hk_mesh_icosphere(&m, radius, level, (hk_vec3){0, 0, 0}) != 0) return hk_fail_memory(w, "icosphere: out of memory");
    hk_mesh_def d = *def;
    d.mesh = &m;
    int body = add_mesh(w, &d, "icosphere");
    hk_mesh_free(&m);
    return body;
}

int hk_world_add_ring(hk_world *w, const hk_ring_def *d)
{
    if (d->count < 3 || d->count > (1 << 24)) return hk_fail(w, "ring: count must be in [3, 2^24] (got %d)", d->count);
    if (!(d->radius > 0) || !isfinite(d->radius)) return hk_fail(w, "ring: radius must be > 0 (got %g)", d->radius);
    if (hk_check_mass(w, "ring", d->mass) || hk_check_spring_params(w, "ring springs", &d->springs) ||
        hk_check_vec(w, "ring", "center", d->center))
        return hk_failed(w);
    const int n = d->count;
    hk_vec3 *pos = malloc((size_t)n * sizeof *pos);
    double *mass = malloc((size_t)n * sizeof *mass);
    int *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b),
        *edge = malloc(2 * (size_t)n * sizeof *edge);
    int body = -1;
    if (!pos || !mass || !a || !b || !edge) {
        hk_fail_memory(w, "ring: out of memory");
        goto out;
    }
    for (int i = 0; i < n; i++) { /* counter-clockwise: the interior is on the left of each edge */
        const double t = 2.0 * 3.14159265358979323846 * i / n;
        pos[i] = (hk_vec3){d->center.x + d->radius * cos(t), d->center.y + d->radius * sin(t), d->center.z};
        mass[i] = d->mass;
        a[i] = i;
        b[i] = (i + 1) % n;
        edge[2 * i] = i;
        edge[2 * i + 1] = (i + 1) % n;
    }
    body = hk_world_add_points(w, n, pos, NULL, mass);
    if (body < 0) goto out;
    w->bodies[body].kind = "ring";
    int fam0 = w->family_count;
    for (int i = 0; i < n; i++) a[i] += w->bodies[body].first, b[i] += w->bodies[body].first;
    if (hk_add_list_family(w, body, "ring", &d->springs, n, a, b, NULL) != 0) {
        body = hk_undo_body(w, body, fam0);
        goto out;
    }
    if (hk_surface_add(w, body, 2, 1, n, edge, &d->pressure) != 0) body = hk_undo_body(w, body, fam0);
out:
    free(pos);
    free(mass);
    free(a);
    free(b);
    free(edge);
    return body;
}
