/* build.c — hooke.World built in code: a world from its settings, bodies added through the scene format's parser, pins.
 */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "ckpt_bytes.h"
#include "pyhooke.h"
#include "scene.h"
#include "scene_kinds.h"
#include "scene_section.h"

/* The Python side (hooke/build.py) writes each call's keyword arguments as the scene format's keys: the one home of
 * the keys, their defaults, checks and messages stays the format's tables (io/scene/scene_kinds.c). */

/* _hooke.World(text, name, threads): the world the settings sections of `text` describe, with no body yet. */
PyObject *hk_py_world_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"text", "name", "threads", NULL};
    const char *text, *name = "World";
    Py_ssize_t len;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|si:World", names, &text, &len, &name, &threads)) return NULL;
    return hk_py_world_of_text(type, text, (size_t)len, name, threads, 1);
}

/* Folds n bytes into self's checkpoint digest: a world built by the same calls restores the same checkpoints. */
static void fold(hk_py_world *self, const void *bytes, size_t n)
{
    const uint64_t d = hk_ckpt_fnv1a((const unsigned char *)&self->digest, sizeof self->digest, HK_CKPT_FNV_BASIS);
    self->digest = hk_ckpt_fnv1a(bytes, n, d);
}

/* World._add(text, name) -> the world's body count after it: the items of `text` added to the world (hk_scene_add),
 * then the world made ready to step as a loaded scene is: the start checked, the passes planned, the energy bound and
 * the blow-up cadence from the new state. The checkpoint digest takes the text in, so a world built by the same calls
 * restores the same checkpoints. */
PyObject *hk_py_world_add(PyObject *o, PyObject *args)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    const char *text, *name;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "s#s:_add", &text, &len, &name)) return NULL;
    hk_world *w = self->w;
    if (self->views > 0) /* a body added makes the particle block again: the views would point into freed memory */
        return PyErr_Format(
            PyExc_RuntimeError,
            "%s: %lld view%s of this world's particle arrays (velocities, forces, masses, "
            "inverse_masses, rest_positions, displacements, applied_force_arrays) still live%s; a body added moves the "
            "arrays: delete the views, or keep copies (np.array(view)), before adding",
            name, (long long)self->views, self->views > 1 ? "s" : "", self->views > 1 ? "" : "s");
    char err[1024];
    if (hk_scene_add(w, text, (size_t)len, name, err, sizeof err) != 0) return hk_py_scene_error_raise(err);
    if (hk_start_refused(w, self->plan.stretch_limit, NULL, name, err, sizeof err)) return hk_py_scene_error_raise(err);
    if (hk_py_world_ready(self, name) != 0) return NULL;
    fold(self, text, (size_t)len);
    return PyLong_FromLong(hk_world_body_count(w));
}

/* World.pin / World.unpin (body, index): particle `index` of body `body` (its own numbering) held where it is, or
 * freed again (hk_world_pin, hk_world_unpin). */
static PyObject *hold_one(PyObject *o, PyObject *args, PyObject *kw, int (*fn)(hk_world *, int, int), const char *fmt)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    static char *names[] = {"body", "index", NULL};
    int body, index;
    if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, names, &body, &index)) return NULL;
    if (fn(self->w, body, index) != HK_OK) return PyErr_Format(PyExc_ValueError, "%s", hk_world_error(self->w));
    hk_energy_guard_init(&self->guard, self->w); /* a particle held or freed by hand: the bound starts from now */
    Py_RETURN_NONE;
}

PyObject *hk_py_world_pin(PyObject *o, PyObject *args, PyObject *kw)
{
    return hold_one(o, args, kw, hk_world_pin, "ii:pin");
}

PyObject *hk_py_world_unpin(PyObject *o, PyObject *args, PyObject *kw)
{
    return hold_one(o, args, kw, hk_world_unpin, "ii:unpin");
}

/* World.set_strain_limits(family, strain_limit=0, compress_limit=0): family `family`'s limits from the next step on
 * (hk_world_set_strain_limits; 0: none). */
PyObject *hk_py_world_set_strain_limits(PyObject *o, PyObject *args, PyObject *kw)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    static char *names[] = {"family", "strain_limit", "compress_limit", NULL};
    int family;
    double strain = 0, compress = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "i|dd:set_strain_limits", names, &family, &strain, &compress))
        return NULL;
    if (hk_world_set_strain_limits(self->w, family, strain, compress) != HK_OK)
        return PyErr_Format(PyExc_ValueError, "%s", hk_world_error(self->w));
    hk_energy_guard_init(&self->guard, self->w); /* the limits pull the state in by hand: the bound starts from now */
    Py_RETURN_NONE;
}

/* A list of the names of n rows of `stride` bytes whose first member is a name. */
static PyObject *names_of(const void *rows, int n, size_t stride)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *s =
            PyUnicode_FromString(*(const char *const *)(const void *)((const char *)rows + (size_t)i * stride));
        if (!s)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, s);
    }
    return list;
}

/* _hooke.scene_tables() -> ({section: [key]}, {body kind: [family]}): the scene format's tables, sections by their
 * word (world, run, ground, walls, contact, sphere, collider, "body KIND", springs: a springs line's keys). */
PyObject *hk_py_scene_tables(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *keys = PyDict_New(), *bodies = PyDict_New();
    if (!keys || !bodies) goto fail;
    const sc_kind *all[SC_SECTION_COUNT + SC_MAX_ITEMS + 1];
    int n = 0;
    for (int k = 0; k < SC_SECTION_COUNT; k++) all[n++] = &sc_sections[k];
    for (int k = 0; k < sc_item_count; k++) all[n++] = &sc_items[k];
    all[n++] = &sc_springs_line;
    for (int k = 0; k < n; k++) {
        const sc_kind *d = all[k];
        const char *title = d == &sc_springs_line ? "springs" : d->title;
        PyObject *list = names_of(d->keys, d->nkeys, sizeof *d->keys);
        if (!list || PyDict_SetItemString(keys, title, list) != 0) {
            Py_XDECREF(list);
            goto fail;
        }
        Py_DECREF(list);
        if (!d->body) continue;
        PyObject *fams = names_of(d->families, d->nfamilies, sizeof *d->families);
        if (!fams || PyDict_SetItemString(bodies, d->word, fams) != 0) {
            Py_XDECREF(fams);
            goto fail;
        }
        Py_DECREF(fams);
    }
    return Py_BuildValue("(NN)", keys, bodies);
fail:
    Py_XDECREF(keys);
    Py_XDECREF(bodies);
    return NULL;
}

/* The choice key `key` of the format's table `kind`, or NULL with SystemError naming `who`. */
static const sc_key *choice_key(const sc_kind *kind, const char *who, const char *key)
{
    for (int k = 0; k < kind->nkeys; k++)
        if (kind->keys[k].type == T_CHOICE && strcmp(kind->keys[k].name, key) == 0) return &kind->keys[k];
    PyErr_Format(PyExc_SystemError, "%s: the format's %s has no choice key '%s'", who, kind->title, key);
    return NULL;
}

int hk_py_choice(const sc_kind *kind, const char *who, const char *key, const char *word, int *out)
{
    const sc_key *kd = choice_key(kind, who, key);
    if (!kd) return -1;
    char list[256] = "";
    for (int c = 0; c < kd->nchoices; c++) {
        if (!kd->choices[c]) continue;
        if (strcmp(kd->choices[c], word) == 0) {
            *out = kd->values ? kd->values[c] : c;
            return 0;
        }
        const size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", kd->choices[c]);
    }
    PyErr_Format(PyExc_ValueError, "%s: argument '%s': expected one of %s, got '%s'", who, key, list, word);
    return -1;
}

const char *hk_py_choice_name(const sc_kind *kind, const char *who, const char *key, int value)
{
    const sc_key *kd = choice_key(kind, who, key);
    for (int c = 0; kd && c < kd->nchoices; c++)
        if (kd->choices[c] && (kd->values ? kd->values[c] : c) == value) return kd->choices[c];
    if (kd) PyErr_Format(PyExc_SystemError, "%s: '%s' %d has no name in the format", who, key, value);
    return NULL;
}

/* World._add_springs(body, name, a, b, rest, k, damping, damping_model, behaviour, break_ratio (None: the default),
 * rest_length, strain_limit, compress_limit): a family of springs a[s] - b[s] (int32 buffers of the body's particle
 * indices; rest: float64 per spring, or None) added to body (hk_world_add_spring_family), then the world made ready and
 * the digest folded as _add makes and folds them. Returns the family's index. Python's add_springs (hooke/build.py)
 * checks the arrays' shapes. */
PyObject *hk_py_world_add_springs(PyObject *o, PyObject *args)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    int body;
    const char *name, *model, *behaviour;
    Py_buffer a, b, rest = {0};
    PyObject *rest_o, *ratio_o;
    hk_spring_params p = hk_default_spring_params();
    if (!PyArg_ParseTuple(args, "isy*y*OddssOddd:_add_springs", &body, &name, &a, &b, &rest_o, &p.k, &p.damping, &model,
                          &behaviour, &ratio_o, &p.rest_length, &p.strain_limit, &p.compress_limit))
        return NULL;
    PyObject *result = NULL;
    if (ratio_o != Py_None) { /* None: the library's default */
        p.break_ratio = PyFloat_AsDouble(ratio_o);
        if (PyErr_Occurred()) goto out;
    }
    int dm, bh;
    const Py_ssize_t n = a.len / (Py_ssize_t)sizeof(int);
    if (hk_py_choice(&sc_springs_line, "add_springs", "damping_model", model, &dm) != 0 ||
        hk_py_choice(&sc_springs_line, "add_springs", "behaviour", behaviour, &bh) != 0)
        goto out;
    p.damping_model = (hk_damping_model)dm;
    p.behaviour = (hk_behaviour)bh;
    if (rest_o != Py_None && PyObject_GetBuffer(rest_o, &rest, PyBUF_SIMPLE) != 0) goto out;
    if (b.len != a.len || (rest.buf && rest.len != n * (Py_ssize_t)sizeof(double)) || n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "add_springs: the arrays differ in length");
        goto out;
    }
    hk_world *w = self->w;
    const int fam = hk_world_add_spring_family(w, body, name, (int)n, a.buf, b.buf, rest.buf, &p);
    if (fam < 0) {
        PyErr_Format(PyExc_ValueError, "add_springs: %s", hk_world_error(w));
        goto out;
    }
    if (hk_py_world_ready(self, "add_springs") != 0) goto out;
    fold(self, &body, sizeof body);
    fold(self, name, strlen(name));
    fold(self, a.buf, (size_t)a.len);
    fold(self, b.buf, (size_t)b.len);
    if (rest.buf) fold(self, rest.buf, (size_t)rest.len);
    const double params[8] = {p.k,           p.damping,     (double)dm,     (double)bh,
                              p.break_ratio, p.rest_length, p.strain_limit, p.compress_limit};
    fold(self, params, sizeof params);
    result = PyLong_FromLong(fam);
out:
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    if (rest.buf) PyBuffer_Release(&rest);
    return result;
}
