/* mesh_obj.c — reader for Wavefront OBJ triangle meshes (v and f; polygons fan-triangulated; negative indices). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh.h"

/* Statements other than v and f that carry nothing hooke uses. */
static const char *const ignored[] = {"vn", "vt", "vp", "o", "g", "s", "usemtl", "mtllib", NULL};

int hk_mesh_parse_obj(const char *text, const char *name, hk_mesh *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int vcap = 0, fcap = 0, line = 0, rc = 0;
    int *poly = NULL, pcap = 0;
    const char *s = text;
    while (*s && rc == 0) {
        line++;
        const char *eol = strchr(s, '\n');
        size_t len = eol ? (size_t)(eol - s) : strlen(s);
        char buf[4096];
        if (len >= sizeof buf) {
            rc = hk_mesh_error(err, errlen, name, line, "line longer than %d bytes", (int)sizeof buf - 1);
            break;
        }
        memcpy(buf, s, len);
        buf[len] = '\0';
        s = eol ? eol + 1 : s + len;
        char *hash = strchr(buf, '#');
        if (hash) *hash = '\0';
        char *save = NULL, *tok = strtok_r(buf, " \t\r", &save);
        if (!tok) continue;
        if (strcmp(tok, "v") == 0) {
            double c[3];
            for (int k = 0; k < 3 && rc == 0; k++) {
                char *t = strtok_r(NULL, " \t\r", &save), *end;
                c[k] = t ? strtod(t, &end) : 0;
                if (!t || *end || !isfinite(c[k]))
                    rc = hk_mesh_error(err, errlen, name, line, "expected 3 numbers after 'v', got '%s'",
                                       t ? t : "end of line");
            }
            char *w = rc ? NULL : strtok_r(NULL, " \t\r", &save);
            if (w && strtok_r(NULL, " \t\r", &save))
                rc = hk_mesh_error(err, errlen, name, line, "expected at most 4 numbers after 'v'");
            if (rc == 0 && hk_mesh_push_vertex(out, &vcap, (hk_vec3){c[0], c[1], c[2]}))
                rc = (hk_mesh_error(err, errlen, name, line, "out of memory"), HK_ERR_MEMORY);
        } else if (strcmp(tok, "f") == 0) {
            int n = 0;
            char *t;
            while (rc == 0 && (t = strtok_r(NULL, " \t\r", &save)) != NULL) {
                char *end;
                errno = 0;
                long v = strtol(t, &end, 10);
                if (end == t || (*end && *end != '/') || errno)
                    rc =
                        hk_mesh_error(err, errlen, name, line, "expected a vertex index (v, v/vt, v//vn), got '%s'", t);
                else if (v == 0)
                    rc = hk_mesh_error(err, errlen, name, line, "vertex index 0 is invalid (OBJ counts from 1)");
                else {
                    long abs = v > 0 ? v - 1 : out->vertex_count + v; /* negative: relative to the last vertex */
                    if (abs < 0 || abs >= out->vertex_count)
                        rc = hk_mesh_error(err, errlen, name, line,
                                           "vertex index %ld out of range (%d vertices defined so far): bad index", v,
                                           out->vertex_count);
                    else if (n == pcap) {
                        pcap = pcap ? 2 * pcap : 16;
                        int *np = realloc(poly, (size_t)pcap * sizeof *np);
                        if (!np)
                            rc = (hk_mesh_error(err, errlen, name, line, "out of memory"), HK_ERR_MEMORY);
                        else
                            poly = np;
                    }
                    if (rc == 0) poly[n++] = (int)abs;
                }
            }
            if (rc == 0 && n < 3)
                rc = hk_mesh_error(err, errlen, name, line, "a face needs at least 3 vertices, got %d", n);
            for (int k = 1; rc == 0 && k + 1 < n; k++) /* fan: (0, k, k+1) */
                if (hk_mesh_push_face(out, &fcap, poly[0], poly[k], poly[k + 1], line))
                    rc = (hk_mesh_error(err, errlen, name, line, "out of memory"), HK_ERR_MEMORY);
        } else {
            int k = 0;
            while (ignored[k] && strcmp(ignored[k], tok) != 0) k++;
            if (!ignored[k])
                rc = hk_mesh_error(err, errlen, name, line,
                                   "unknown statement '%.40s' (expected v, f, vn, vt, vp, o, g, s, usemtl or mtllib)",
                                   tok);
        }
    }
    free(poly);
    if (rc == 0) rc = hk_mesh_validate(out, name, 0, err, errlen);
    if (rc) hk_mesh_free(out);
    return rc;
}
