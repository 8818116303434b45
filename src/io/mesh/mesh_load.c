/* mesh_load.c — a closed triangle mesh from a file: its extension picks the reader (.asc or .obj). */
/* SPDX-License-Identifier: MIT */
#include "mesh.h"
#include "readfile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The whole file as a NUL-terminated text (free it); NULL with err set. */
static char *read_text_file(const char *path, char *err, size_t errlen)
{
    char *text, why[512];
    size_t len;
    if (hk_read_file(path, HK_LIMIT_MESH, "mesh", &text, &len, why, sizeof why) != 0) {
        hk_mesh_error(err, errlen, path, 0, "%s", why);
        return NULL;
    }
    const char *mark;
    const int bom = hk_text_bom(text, len, &mark);
    if (bom < 0) {
        free(text);
        hk_mesh_error(err, errlen, path, 1,
                      "expected UTF-8 or ASCII text, got a %s byte-order mark: save the file as UTF-8", mark);
        return NULL;
    }
    if (bom > 0) memmove(text, text + bom, len + 1 - (size_t)bom), len -= (size_t)bom; /* UTF-8's mark skipped */
    if (memchr(text, '\0', len)) {
        free(text);
        hk_mesh_error(err, errlen, path, 0, "expected text, got a NUL byte (is this a binary file?)");
        return NULL;
    }
    return text;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k) return 0;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)s[n - k + i]) != suffix[i]) return 0;
    return 1;
}

int hk_mesh_load(const char *path, hk_mesh *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    int asc = ends_with(path, ".asc"), obj = ends_with(path, ".obj");
    if (!asc && !obj) return hk_mesh_error(err, errlen, path, 0, "expected a file name ending in .asc or .obj");
    char *text = read_text_file(path, err, errlen);
    if (!text) return HK_ERR_IO;
    int rc = asc ? hk_mesh_parse_asc(text, path, out, err, errlen) : hk_mesh_parse_obj(text, path, out, err, errlen);
    free(text);
    return rc;
}
