/* hk_test_vtk.h — strict readers of the vtk frame files: .vtp (zlib blocks decoded) and .pvd. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_VTK_H
#define HK_TEST_VTK_H

/* needs hk_test_cli.h (cmocka, hk_test_slurp) included first */
#include <stdint.h>
#include <sys/stat.h>
#include <zlib.h>

/* The whole file and its length. */
static inline char *hk_vtk_read_all(const char *path, size_t *n)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        print_error("missing file %s\n", path);
        fail();
    }
    char *s = hk_test_slurp(path);
    assert_non_null(s);
    *n = (size_t)st.st_size;
    return s;
}

/* Value of attribute `name` of the element starting at tag (up to its '>'), into out; 0 or -1. */
static inline int hk_vtk_attr(const char *tag, const char *name, char *out, size_t len)
{
    const char *end = strchr(tag, '>');
    char pat[64];
    snprintf(pat, sizeof pat, " %s=\"", name);
    const char *p = strstr(tag, pat);
    if (!p || !end || p > end) return -1;
    p += strlen(pat);
    const char *q = strchr(p, '"');
    if (!q || q > end || (size_t)(q - p) >= len) return -1;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = '\0';
    return 0;
}

/* Every tag of the XML text is balanced (open/close/self-closing) and names match; attribute values are quoted
 * and hold no '<' or '&' (hooke writes none). */
static inline void hk_vtk_check_xml(const char *xml, size_t len)
{
    char stack[32][32];
    int depth = 0;
    assert_true(len > 22 && strncmp(xml, "<?xml version=\"1.0\"?>\n", 22) == 0);
    for (size_t i = 0; i < len; i++) {
        if (xml[i] == '&') fail_msg("unescaped '&' in the XML");
        if (xml[i] != '<') continue;
        if (xml[i + 1] == '?') continue;
        const char *gt = memchr(xml + i, '>', len - i);
        assert_non_null(gt);
        int quotes = 0;
        for (const char *c = xml + i + 1; c < gt; c++) {
            quotes += *c == '"';
            if (*c == '<') fail_msg("'<' inside a tag");
        }
        assert_int_equal(quotes % 2, 0);
        const int closing = xml[i + 1] == '/', self = gt[-1] == '/';
        const char *name = xml + i + 1 + closing;
        const size_t n = strcspn(name, " />");
        assert_true(n > 0 && n < 32);
        if (closing) {
            assert_true(depth > 0);
            depth--;
            assert_int_equal(strncmp(stack[depth], name, n), 0);
            assert_int_equal(stack[depth][n], '\0');
        } else if (!self) {
            assert_true(depth < 32);
            memcpy(stack[depth], name, n);
            stack[depth][n] = '\0';
            depth++;
        }
        i = (size_t)(gt - xml);
    }
    assert_int_equal(depth, 0);
}

/* One decoded DataArray. */
typedef struct hk_vtk_arr {
    char section[16]; /* PointData, CellData, Points, Lines, Polys */
    char name[32], type[16];
    int components;
    size_t size;         /* bytes per value */
    int64_t values;      /* decoded values (tuples * components) */
    unsigned char *data; /* little-endian values (the host's order on the machines hooke runs on) */
} hk_vtk_arr;

typedef struct hk_vtp {
    long long points, lines, polys;
    double time; /* TimeValue */
    int count;
    hk_vtk_arr a[16];
} hk_vtp;

static inline uint64_t hk_vtk_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Decodes one compressed array at byte `at` of the appended data: the UInt64 header [blocks, block size, last
 * partial size, compressed sizes...], then each block inflated to exactly its size. The bytes it spans go to
 * *span. */
static inline unsigned char *hk_vtk_inflate(const unsigned char *app, size_t applen, size_t at, uint64_t *bytes,
                                            size_t *span)
{
    assert_true(at + 24 <= applen);
    const uint64_t blocks = hk_vtk_u64(app + at), bs = hk_vtk_u64(app + at + 8), last = hk_vtk_u64(app + at + 16);
    assert_true(bs > 0 && last < bs && blocks < (1u << 30));
    assert_true(at + 24 + 8 * blocks <= applen);
    *bytes = blocks ? (blocks - 1) * bs + (last ? last : bs) : 0;
    if (blocks == 0) assert_int_equal(last, 0);
    unsigned char *out = malloc(*bytes + 1);
    assert_non_null(out);
    size_t pos = at + 24 + 8 * blocks;
    for (uint64_t b = 0; b < blocks; b++) {
        const uint64_t csize = hk_vtk_u64(app + at + 24 + 8 * b), want = b + 1 < blocks ? bs : *bytes - b * bs;
        assert_true(pos + csize <= applen);
        uLongf got = (uLongf)want;
        if (uncompress(out + b * bs, &got, app + pos, (uLong)csize) != Z_OK || got != want)
            fail_msg("block %llu of the array at %zu does not inflate to %llu bytes", (unsigned long long)b, at,
                     (unsigned long long)want);
        pos += csize;
    }
    *span = pos - at;
    return out;
}

/* Reads a .vtp written by hooke and checks it against the VTK XML format: the VTKFile element (PolyData,
 * version 1.0, LittleEndian, UInt64 headers, zlib), balanced XML up to the appended data, every DataArray
 * appended with an offset where the previous one ends (no gap, no overlap, the last ending at the closing
 * tags), each decoded to the size its section and piece counts give. */
static inline hk_vtp hk_vtp_read(const char *path)
{
    size_t len;
    char *d = hk_vtk_read_all(path, &len);
    assert_non_null(strstr(d, "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
                              "header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">"));
    const char *app_tag = strstr(d, "<AppendedData encoding=\"raw\">\n   _");
    assert_non_null(app_tag);
    const size_t app = (size_t)(strchr(app_tag, '_') + 1 - d);
    const char *tail = "\n  </AppendedData>\n</VTKFile>\n";
    assert_true(len > app + strlen(tail));
    assert_memory_equal(d + len - strlen(tail), tail, strlen(tail));
    const size_t applen = len - strlen(tail) - app;
    const size_t xml_len = app - 1;
    char *xml = malloc(xml_len + 64);
    assert_non_null(xml);
    memcpy(xml, d, xml_len);
    strcpy(xml + xml_len, "</AppendedData></VTKFile>");
    hk_vtk_check_xml(xml, strlen(xml));

    hk_vtp v;
    memset(&v, 0, sizeof v);
    const char *tv = strstr(xml, "Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">");
    assert_non_null(tv);
    v.time = strtod(strchr(tv, '>') + 1, NULL);
    const char *piece = strstr(xml, "<Piece ");
    assert_non_null(piece);
    char val[64];
    assert_int_equal(hk_vtk_attr(piece, "NumberOfPoints", val, sizeof val), 0);
    v.points = atoll(val);
    assert_int_equal(hk_vtk_attr(piece, "NumberOfLines", val, sizeof val), 0);
    v.lines = atoll(val);
    assert_int_equal(hk_vtk_attr(piece, "NumberOfPolys", val, sizeof val), 0);
    v.polys = atoll(val);
    assert_int_equal(hk_vtk_attr(piece, "NumberOfVerts", val, sizeof val), 0);
    assert_string_equal(val, "0");
    assert_int_equal(hk_vtk_attr(piece, "NumberOfStrips", val, sizeof val), 0);
    assert_string_equal(val, "0");

    static const char *const sections[] = {"PointData", "CellData", "Points", "Lines", "Polys", "Verts", "Strips"};
    size_t expect_at = 0;
    for (const char *p = strstr(piece, "<DataArray "); p; p = strstr(p + 1, "<DataArray ")) {
        assert_true(v.count < 16);
        hk_vtk_arr *a = &v.a[v.count++];
        /* the section: the last opening tag before this array */
        const char *best = NULL;
        for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
            char open[32];
            snprintf(open, sizeof open, "<%s", sections[s]);
            for (const char *q = strstr(piece, open); q && q < p; q = strstr(q + 1, open))
                if (!best || q > best) {
                    best = q;
                    snprintf(a->section, sizeof a->section, "%s", sections[s]);
                }
        }
        assert_non_null(best);
        assert_int_equal(hk_vtk_attr(p, "Name", a->name, sizeof a->name), 0);
        assert_int_equal(hk_vtk_attr(p, "type", a->type, sizeof a->type), 0);
        assert_int_equal(hk_vtk_attr(p, "format", val, sizeof val), 0);
        assert_string_equal(val, "appended");
        assert_int_equal(hk_vtk_attr(p, "NumberOfComponents", val, sizeof val), 0);
        a->components = atoi(val);
        assert_int_equal(hk_vtk_attr(p, "offset", val, sizeof val), 0);
        const size_t at = (size_t)strtoull(val, NULL, 10);
        assert_int_equal(at, expect_at);
        a->size = strcmp(a->type, "Float64") == 0 || strcmp(a->type, "Int64") == 0 ? 8 : 4;
        assert_true(strcmp(a->type, "Float64") == 0 || strcmp(a->type, "Int64") == 0 ||
                    strcmp(a->type, "Float32") == 0 || strcmp(a->type, "Int32") == 0);
        uint64_t bytes;
        size_t span;
        a->data = hk_vtk_inflate((const unsigned char *)d + app, applen, at, &bytes, &span);
        expect_at = at + span;
        assert_int_equal(bytes % (a->size * (size_t)a->components), 0);
        a->values = (int64_t)(bytes / a->size);
        const long long cells = strcmp(a->section, "Lines") == 0 ? v.lines : v.polys;
        const int corners = strcmp(a->section, "Lines") == 0 ? 2 : 3;
        if (strcmp(a->section, "PointData") == 0 || strcmp(a->section, "Points") == 0)
            assert_int_equal(a->values, v.points * a->components);
        else if (strcmp(a->section, "CellData") == 0)
            assert_int_equal(a->values, (v.lines + v.polys) * a->components);
        else if (strcmp(a->name, "offsets") == 0)
            assert_int_equal(a->values, cells);
        else
            assert_int_equal(a->values, cells * corners);
    }
    assert_int_equal(expect_at, applen); /* the last array ends where the closing tags begin */
    free(xml);
    free(d);
    return v;
}

static inline void hk_vtp_free(hk_vtp *v)
{
    for (int i = 0; i < v->count; i++) free(v->a[i].data);
    memset(v, 0, sizeof *v);
}

/* The array `name` of `section`; fails if absent. */
static inline const hk_vtk_arr *hk_vtp_get(const hk_vtp *v, const char *section, const char *name)
{
    for (int i = 0; i < v->count; i++)
        if (strcmp(v->a[i].section, section) == 0 && strcmp(v->a[i].name, name) == 0) return &v->a[i];
    fail_msg("no %s array '%s'", section, name);
    return NULL;
}

/* Value i of an array as a double (Float32/Float64) or an integer (Int32/Int64). */
static inline double hk_vtk_real(const hk_vtk_arr *a, int64_t i)
{
    assert_true(i >= 0 && i < a->values && a->type[0] == 'F');
    if (a->size == 8) {
        double x;
        memcpy(&x, a->data + 8 * i, 8);
        return x;
    }
    float x;
    memcpy(&x, a->data + 4 * i, 4);
    return x;
}

static inline int64_t hk_vtk_int(const hk_vtk_arr *a, int64_t i)
{
    assert_true(i >= 0 && i < a->values && a->type[0] == 'I');
    if (a->size == 8) {
        int64_t x;
        memcpy(&x, a->data + 8 * i, 8);
        return x;
    }
    int32_t x;
    memcpy(&x, a->data + 4 * i, 4);
    return x;
}

#endif
