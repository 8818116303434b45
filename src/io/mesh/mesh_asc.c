/* mesh_asc.c — reader for the 3D Studio ASCII (.asc) triangle mesh format of the soft-body book. */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

/*
 * Lines read (anything else, e.g. camera, light or material records, is
 * skipped; a `Vertex`/`Face` line that does not parse is an error):
 *   Named object: "Cube"
 *   Tri-mesh, Vertices: 8 Faces: 12
 *   Vertex 0:  X:-1.0    Y:1.0    Z:1.0
 *   Face 0: A:0 B:1 C:2 AB:1 BC:1 CA:1
 *   Smoothing: 1
 * Vertices and faces are numbered from 0 in order; one object per file.
 */

static const char *skip_blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r') s++;
    return s;
}

/* "WORD" then blanks then an integer then ':'; returns the rest or NULL. */
static const char *indexed_prefix(const char *s, const char *word, long *index)
{
    size_t n = strlen(word);
    if (strncmp(s, word, n) != 0 || !(s[n] == ' ' || s[n] == '\t')) return NULL;
    s = skip_blank(s + n);
    if (!isdigit((unsigned char)*s)) return NULL;
    char *end;
    errno = 0;
    *index = strtol(s, &end, 10);
    if (errno || *end != ':') return NULL;
    return end + 1;
}

/* Label:value pairs ("X:-1.0", "A: 3"); finds the value of each wanted label.
 * Returns 0, or -1 with *bad the label that lacks a number (or NULL when a
 * wanted label is missing: *missing set). */
static int labels(const char *s, const char *const *want, int nwant, double *val, int *missing)
{
    int seen[8] = {0};
    s = skip_blank(s);
    while (*s && *s != '\n') {
        const char *l = s;
        while (isalpha((unsigned char)*s)) s++;
        size_t ln = (size_t)(s - l);
        if (ln == 0 || *s != ':') return -1;
        s = skip_blank(s + 1);
        char *end;
        double v = strtod(s, &end);
        int k = -1;
        for (int i = 0; i < nwant; i++)
            if (strlen(want[i]) == ln && strncmp(want[i], l, ln) == 0) k = i;
        if (end == s || !isfinite(v)) {
            if (k >= 0) {
                *missing = k;
                return -2;
            }
            while (*s && *s != ' ' && *s != '\t' && *s != '\n') s++; /* other labels: any value */
        } else {
            if (k >= 0) {
                val[k] = v;
                seen[k] = 1;
            }
            s = end;
        }
        s = skip_blank(s);
    }
    for (int i = 0; i < nwant; i++)
        if (!seen[i]) {
            *missing = i;
            return -3;
        }
    return 0;
}

int hk_mesh_parse_asc(const char *text, const char *name, hk_mesh *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    long nv = -1, nf = -1;
    int vcap = 0, fcap = 0, line = 0, mesh_line = 0, rc = 0;
    const char *s = text;
    while (*s && rc == 0) {
        line++;
        const char *eol = strchr(s, '\n');
        const char *next = eol ? eol + 1 : s + strlen(s);
        const char *t = skip_blank(s);
        long idx;
        const char *rest;
        if (strncmp(t, "Tri-mesh,", 9) == 0) {
            if (mesh_line)
                rc = hk_mesh_error(err, errlen, name, line,
                                   "a second Tri-mesh (the first at line %d): one object per file", mesh_line);
            else if (sscanf(t, "Tri-mesh, Vertices: %ld Faces: %ld", &nv, &nf) != 2 || nv < 0 || nf < 0 ||
                     nv > INT_MAX / 4 || nf > INT_MAX / 4)
                rc = hk_mesh_error(err, errlen, name, line,
                                   "expected 'Tri-mesh, Vertices: N Faces: M' with counts >= 0");
            mesh_line = line;
        } else if ((rest = indexed_prefix(t, "Vertex", &idx)) != NULL) {
            static const char *const xyz[3] = {"X", "Y", "Z"};
            double v[3];
            int miss = 0;
            if (!mesh_line)
                rc = hk_mesh_error(err, errlen, name, line,
                                   "Vertex before the 'Tri-mesh, Vertices: N Faces: M' line (missing counts)");
            else if (idx != out->vertex_count)
                rc = hk_mesh_error(err, errlen, name, line, "expected Vertex %d, got Vertex %ld", out->vertex_count,
                                   idx);
            else if (idx >= nv)
                rc = hk_mesh_error(err, errlen, name, line, "Vertex %ld beyond the declared %ld vertices", idx, nv);
            else if (labels(rest, xyz, 3, v, &miss) != 0)
                rc =
                    hk_mesh_error(err, errlen, name, line, "Vertex %ld: expected a number after '%s:'", idx, xyz[miss]);
            else if (hk_mesh_push_vertex(out, &vcap, (hk_vec3){v[0], v[1], v[2]}))
                rc = (hk_mesh_error(err, errlen, name, line, "out of memory"), HK_ERR_MEMORY);
        } else if ((rest = indexed_prefix(t, "Face", &idx)) != NULL) {
            static const char *const abc[3] = {"A", "B", "C"};
            double v[3];
            int miss = 0;
            if (!mesh_line)
                rc = hk_mesh_error(err, errlen, name, line,
                                   "Face before the 'Tri-mesh, Vertices: N Faces: M' line (missing counts)");
            else if (idx != out->face_count)
                rc = hk_mesh_error(err, errlen, name, line, "expected Face %d, got Face %ld", out->face_count, idx);
            else if (idx >= nf)
                rc = hk_mesh_error(err, errlen, name, line, "Face %ld beyond the declared %ld faces", idx, nf);
            else if (labels(rest, abc, 3, v, &miss) != 0)
                rc =
                    hk_mesh_error(err, errlen, name, line, "Face %ld: expected an integer after '%s:'", idx, abc[miss]);
            else {
                for (int k = 0; k < 3 && rc == 0; k++)
                    if (v[k] != floor(v[k]) || v[k] < 0 || v[k] >= (double)nv)
                        rc = hk_mesh_error(err, errlen, name, line,
                                           "Face %ld: %s:%g is not a vertex index in [0, %ld] (bad index)", idx, abc[k],
                                           v[k], nv - 1);
                if (rc == 0 && hk_mesh_push_face(out, &fcap, (int)v[0], (int)v[1], (int)v[2], line))
                    rc = (hk_mesh_error(err, errlen, name, line, "out of memory"), HK_ERR_MEMORY);
            }
        }
        s = next;
    }
    if (rc == 0 && !mesh_line)
        rc = hk_mesh_error(err, errlen, name, line, "no 'Tri-mesh, Vertices: N Faces: M' line (missing counts)");
    if (rc == 0 && out->vertex_count != nv)
        rc = hk_mesh_error(err, errlen, name, line, "Tri-mesh declares %ld vertices, the file has %d", nv,
                           out->vertex_count);
    if (rc == 0 && out->face_count != nf)
        rc =
            hk_mesh_error(err, errlen, name, line, "Tri-mesh declares %ld faces, the file has %d", nf, out->face_count);
    if (rc == 0) rc = hk_mesh_validate(out, name, 0, err, errlen);
    if (rc) hk_mesh_free(out);
    return rc;
}
