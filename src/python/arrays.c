/* arrays.c — a World's state as numpy arrays: read-only views on its particle arrays, copies of what is a sum. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>

#include "pyhooke.h"
#include <structmember.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

/* numpy's type of hk_real */
#define HK_NPY_REAL (sizeof(hk_real) == 8 ? NPY_FLOAT64 : NPY_FLOAT32)

/* A view's base: it keeps its World alive and counted in the World's `views` while the view lives. */
typedef struct hk_py_hold {
    PyObject_HEAD hk_py_world *world;
} hk_py_hold;

static void hold_dealloc(PyObject *o)
{
    hk_py_hold *h = (hk_py_hold *)o;
    h->world->views--;
    Py_DECREF(h->world);
    Py_TYPE(o)->tp_free(o);
}

static PyMemberDef hold_members[] = {
    {"world", T_OBJECT_EX, offsetof(hk_py_hold, world), READONLY, "the World whose arrays the view shows"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject hold_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hooke._View",
    .tp_basicsize = sizeof(hk_py_hold),
    .tp_dealloc = hold_dealloc,
    .tp_members = hold_members,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "What a view of a World's particle arrays holds: the World, counted while the view lives.",
};

int hk_py_arrays_ready(void)
{
    import_array1(-1);
    return PyType_Ready(&hold_type);
}

/* Where the views point: a world keeps every particle array in one block (world.h, hk_particles: its slab), each
 * array padded, so vx, vy and vz lie one constant stride apart; the block is made again only when particles are
 * added (a body built): optimise, every step, set_integrator and restore_checkpoint write into the same arrays
 * (tests/python/test_arrays.py checks the address across them). A World adds bodies only while none of its views
 * lives (build.c): each view's base holds the World and counts itself in its `views`. Where the three are not one
 * stride apart, the property gives a copy instead. */

static PyObject *view_of(hk_py_world *self, const hk_real *data, int nd, npy_intp *dims, npy_intp *strides, int flags)
{
    PyArray_Descr *d = PyArray_DescrFromType(HK_NPY_REAL);
    if (!d) return NULL;
    PyObject *a = PyArray_NewFromDescr(&PyArray_Type, d, nd, dims, strides, (void *)data, flags, NULL);
    if (!a) return NULL;
    hk_py_hold *h = PyObject_New(hk_py_hold, &hold_type);
    if (!h) {
        Py_DECREF(a);
        return NULL;
    }
    Py_INCREF(self);
    h->world = self;
    self->views++;
    if (PyArray_SetBaseObject((PyArrayObject *)a, (PyObject *)h) != 0) { /* steals h, even on failure */
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

/* A read-only view (writes go through set_positions / set_velocities, which keep the world's invariants). */
static PyObject *view(hk_py_world *self, const hk_real *data, int nd, npy_intp *dims, npy_intp *strides)
{
    return view_of(self, data, nd, dims, strides, 0);
}

/* (N, 3) of the arrays x, y, z: a view where they are one stride apart, else a copy. */
static PyObject *triple(hk_py_world *self, int n, const hk_real *x, const hk_real *y, const hk_real *z)
{
    npy_intp dims[2] = {n, 3};
    if (y - x == z - y) {
        npy_intp strides[2] = {(npy_intp)sizeof(hk_real), (npy_intp)((const char *)y - (const char *)x)};
        return view(self, x, 2, dims, strides);
    }
    PyObject *a = PyArray_SimpleNew(2, dims, HK_NPY_REAL);
    if (!a) return NULL;
    hk_real *out = PyArray_DATA((PyArrayObject *)a);
    for (int i = 0; i < n; i++) out[3 * i] = x[i], out[3 * i + 1] = y[i], out[3 * i + 2] = z[i];
    PyArray_CLEARFLAGS((PyArrayObject *)a, NPY_ARRAY_WRITEABLE);
    return a;
}

static PyObject *single(hk_py_world *self, int n, const hk_real *a)
{
    npy_intp dims[1] = {n}, strides[1] = {(npy_intp)sizeof(hk_real)};
    return view(self, a, 1, dims, strides);
}

#define WORLD_OR_NULL(o)                                                                                               \
    hk_py_world *self = (hk_py_world *)(o);                                                                            \
    if (hk_py_world_free_to_use(self) != 0) return NULL

PyObject *hk_py_velocities(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return triple(self, p.count, p.vx, p.vy, p.vz);
}

PyObject *hk_py_forces(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return triple(self, p.count, p.fx, p.fy, p.fz);
}

PyObject *hk_py_rest_positions(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return triple(self, p.count, p.rx, p.ry, p.rz);
}

PyObject *hk_py_displacements(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return triple(self, p.count, p.qx, p.qy, p.qz);
}

PyObject *hk_py_masses(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return single(self, p.count, p.mass);
}

PyObject *hk_py_inverse_masses(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const hk_particles_view p = hk_world_particles(self->w);
    return single(self, p.count, p.inv_mass);
}

PyObject *hk_py_positions(PyObject *o, void *c)
{
    (void)c;
    WORLD_OR_NULL(o);
    const int n = hk_world_particles(self->w).count;
    npy_intp dims[2] = {n, 3};
    PyObject *a = PyArray_SimpleNew(2, dims, NPY_FLOAT64);
    if (a && n > 0 && hk_world_positions(self->w, 0, n, PyArray_DATA((PyArrayObject *)a)) != HK_OK) {
        Py_DECREF(a);
        return PyErr_Format(hk_py_error, "positions: %s", hk_world_error(self->w));
    }
    return a;
}

/* Every spring's rest length, length, stretch r / L0 or broken flag (closure 0..3), families in order. */
PyObject *hk_py_spring_values(PyObject *o, void *closure)
{
    WORLD_OR_NULL(o);
    const int which = (int)(intptr_t)closure;
    hk_world *w = self->w;
    npy_intp dims[1] = {(npy_intp)hk_world_spring_count(w)};
    PyObject *a = PyArray_SimpleNew(1, dims, which == 3 ? NPY_BOOL : NPY_FLOAT64);
    if (!a) return NULL;
    double *rest = NULL;
    if (which == 2 && !(rest = PyMem_Malloc((size_t)(dims[0] ? dims[0] : 1) * sizeof *rest))) {
        Py_DECREF(a);
        return PyErr_NoMemory();
    }
    char *data = PyArray_DATA((PyArrayObject *)a);
    int64_t at = 0;
    for (int f = 0; f < hk_world_family_count(w); f++) {
        const int64_t n = hk_world_family(w, f).springs;
        double *values = (double *)data + at;
        int rc = HK_OK;
        if (which == 0) rc = hk_world_spring_lengths(w, f, 0, n, values, NULL, NULL);
        if (which == 1) rc = hk_world_spring_lengths(w, f, 0, n, NULL, values, NULL);
        if (which == 2) rc = hk_world_spring_lengths(w, f, 0, n, rest + at, values, NULL);
        if (which == 3) rc = hk_world_spring_lengths(w, f, 0, n, NULL, NULL, (uint8_t *)data + at);
        if (rc != HK_OK) {
            PyMem_Free(rest);
            Py_DECREF(a);
            return PyErr_Format(hk_py_error, "springs of family %d: %s", f, hk_status_name(rc));
        }
        at += n;
    }
    if (which == 2)
        for (int64_t s = 0; s < at; s++) ((double *)data)[s] = rest[s] > 0 ? ((double *)data)[s] / rest[s] : NAN;
    PyMem_Free(rest);
    return a;
}

/* (S, 2) int64: the particles every spring joins (its vector x_a - x_b), families in order, each in the order of the
 * per-spring arrays (rest_lengths, stretch, ...). */
PyObject *hk_py_springs(PyObject *o, void *closure)
{
    (void)closure;
    WORLD_OR_NULL(o);
    hk_world *w = self->w;
    npy_intp dims[2] = {(npy_intp)hk_world_spring_count(w), 2};
    PyObject *out = PyArray_SimpleNew(2, dims, NPY_INT64);
    if (!out) return NULL;
    int64_t *ab = PyArray_DATA((PyArrayObject *)out), at = 0;
    int64_t most = 1;
    for (int f = 0; f < hk_world_family_count(w); f++)
        if (hk_world_family(w, f).springs > most) most = hk_world_family(w, f).springs;
    int *a = PyMem_Malloc((size_t)most * sizeof *a), *b = PyMem_Malloc((size_t)most * sizeof *b);
    if (!a || !b) {
        PyMem_Free(a);
        PyMem_Free(b);
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    for (int f = 0; f < hk_world_family_count(w); f++) {
        const int64_t n = hk_world_family(w, f).springs;
        if (hk_world_spring_ends(w, f, 0, n, a, b) != HK_OK) {
            PyMem_Free(a);
            PyMem_Free(b);
            Py_DECREF(out);
            return PyErr_Format(hk_py_error, "springs of family %d: %s", f, hk_world_error(w));
        }
        for (int64_t s = 0; s < n; s++, at++) ab[2 * at] = a[s], ab[2 * at + 1] = b[s];
    }
    PyMem_Free(a);
    PyMem_Free(b);
    return out;
}

/* (F, 3) int64 surface triangles (closure NULL) or (F,) int64 the body of each: the triangles frames draw
 * (hooke.h hk_world_faces). */
PyObject *hk_py_faces(PyObject *o, void *closure)
{
    WORLD_OR_NULL(o);
    const int bodies = closure != NULL;
    const int64_t n = hk_world_faces(self->w, NULL, NULL, 0);
    int *tri = n >= 0 ? PyMem_Malloc((size_t)(3 * n + 1) * sizeof *tri) : NULL,
        *body = n >= 0 ? PyMem_Malloc((size_t)(n + 1) * sizeof *body) : NULL;
    if (!tri || !body || hk_world_faces(self->w, tri, body, n) != n) {
        PyMem_Free(tri);
        PyMem_Free(body);
        return PyErr_NoMemory();
    }
    npy_intp dims[2] = {(npy_intp)n, 3};
    PyObject *out = PyArray_SimpleNew(bodies ? 1 : 2, dims, NPY_INT64);
    if (out) {
        int64_t *d = PyArray_DATA((PyArrayObject *)out);
        for (int64_t t = 0; t < (bodies ? n : 3 * n); t++) d[t] = bodies ? body[t] : tri[t];
    }
    PyMem_Free(tri);
    PyMem_Free(body);
    return out;
}

/* World.render(width=640, height=480): (height, width, 3) uint8, the picture hk_world_render draws. */
PyObject *hk_py_render(PyObject *o, PyObject *args, PyObject *kw)
{
    WORLD_OR_NULL(o);
    static char *names[] = {"width", "height", NULL};
    int width = 640, height = 480;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|ii:render", names, &width, &height)) return NULL;
    if (width < 16 || height < 16 || width > HK_RENDER_MAX || height > HK_RENDER_MAX)
        return PyErr_Format(PyExc_ValueError, "render: width and height must be 16 to %d pixels (got %d x %d)",
                            HK_RENDER_MAX, width, height);
    npy_intp dims[3] = {height, width, 3};
    PyObject *a = PyArray_SimpleNew(3, dims, NPY_UINT8);
    if (!a) return NULL;
    self->busy = 1; /* drawn with the GIL released: other threads keep off this world meanwhile */
    PyThreadState *ts = PyEval_SaveThread();
    const int rc = hk_world_render(self->w, width, height, PyArray_DATA((PyArrayObject *)a));
    PyEval_RestoreThread(ts);
    self->busy = 0;
    if (rc == HK_OK) return a;
    Py_DECREF(a);
    return PyErr_NoMemory();
}

/* Writes (N, 3) values into the world through set (hk_world_set_positions or _velocities), which checks every
 * value before it writes any: a refused array leaves the world as it was. The energy bound (diagnosis.h) then starts
 * again from the state written, as a run's starts from its first state: energy put in by hand is not the
 * integration's. */
static PyObject *set_all(PyObject *o, PyObject *arg, int (*set)(hk_world *, int, int, const double *), const char *what)
{
    WORLD_OR_NULL(o);
    const int n = hk_world_particles(self->w).count;
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(arg, NPY_FLOAT64, 2, 2, NPY_ARRAY_IN_ARRAY);
    if (!a) return NULL;
    if (PyArray_DIM(a, 0) != n || PyArray_DIM(a, 1) != 3) {
        PyErr_Format(PyExc_ValueError, "%s: expected an array of shape (%d, 3), got (%zd, %zd)", what, n,
                     (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)PyArray_DIM(a, 1));
        Py_DECREF(a);
        return NULL;
    }
    if (set(self->w, 0, n, PyArray_DATA(a)) != HK_OK) {
        PyErr_SetString(PyExc_ValueError, hk_world_error(self->w)); /* "set_positions: ..." */
        Py_DECREF(a);
        return NULL;
    }
    Py_DECREF(a);
    /* a state set by hand: the energy bound starts from it; applied forces turn it off, once */
    if (set != hk_world_set_applied_forces || self->guard.active) hk_energy_guard_init(&self->guard, self->w);
    Py_RETURN_NONE;
}

PyObject *hk_py_set_positions(PyObject *o, PyObject *xyz)
{
    return set_all(o, xyz, hk_world_set_positions, "set_positions");
}

PyObject *hk_py_set_masses(PyObject *o, PyObject *arg)
{
    WORLD_OR_NULL(o);
    const int n = hk_world_particles(self->w).count;
    PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(arg, NPY_FLOAT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!a) return NULL;
    if (PyArray_DIM(a, 0) != n) {
        PyErr_Format(PyExc_ValueError, "set_masses: expected an array of shape (%d,), got (%zd,)", n,
                     (Py_ssize_t)PyArray_DIM(a, 0));
        Py_DECREF(a);
        return NULL;
    }
    if (hk_world_set_masses(self->w, 0, n, PyArray_DATA(a)) != HK_OK) {
        PyErr_SetString(PyExc_ValueError, hk_world_error(self->w));
        Py_DECREF(a);
        return NULL;
    }
    Py_DECREF(a);
    hk_energy_guard_init(&self->guard, self->w); /* masses set by hand: the energy bound starts from them */
    Py_RETURN_NONE;
}

PyObject *hk_py_set_applied_forces(PyObject *o, PyObject *f)
{
    return set_all(o, f, hk_world_set_applied_forces, "set_applied_forces");
}

/* World.clear_applied_forces(): none applied after; the energy bound is on again where nothing else feeds energy. */
PyObject *hk_py_clear_applied_forces(PyObject *o, PyObject *unused)
{
    (void)unused;
    WORLD_OR_NULL(o);
    hk_world_clear_applied_forces(self->w);
    hk_energy_guard_init(&self->guard, self->w);
    Py_RETURN_NONE;
}

/* World.applied_force_arrays(): (N, 3) writable view of the applied forces [N] (hk_world_applied_force_arrays). */
PyObject *hk_py_applied_force_arrays(PyObject *o, PyObject *unused)
{
    (void)unused;
    WORLD_OR_NULL(o);
    int stride = 0;
    hk_real *x = hk_world_applied_force_arrays(self->w, &stride);
    if (!x) return PyErr_Format(PyExc_ValueError, "%s", hk_world_error(self->w));
    if (self->guard.active) hk_energy_guard_init(&self->guard, self->w); /* the forces feed energy: bound off */
    npy_intp dims[2] = {hk_world_particles(self->w).count, 3};
    npy_intp strides[2] = {(npy_intp)sizeof(hk_real), (npy_intp)stride * (npy_intp)sizeof(hk_real)};
    return view_of(self, x, 2, dims, strides, NPY_ARRAY_WRITEABLE);
}

/* World.applied_forces: (N, 3) float64, a copy of the forces applied [N] (zeros where none). */
PyObject *hk_py_applied_forces(PyObject *o, void *closure)
{
    (void)closure;
    WORLD_OR_NULL(o);
    const int n = hk_world_particles(self->w).count;
    npy_intp dims[2] = {n, 3};
    PyObject *a = PyArray_SimpleNew(2, dims, NPY_FLOAT64);
    if (a) hk_world_applied_forces(self->w, 0, n, PyArray_DATA((PyArrayObject *)a));
    return a;
}

PyObject *hk_py_set_velocities(PyObject *o, PyObject *v)
{
    return set_all(o, v, hk_world_set_velocities, "set_velocities");
}

/* The particle indices of a (K,) sequence of integers for `call` (each one of the world's n particles), into *k and
 * a new array (PyMem_Free it), or NULL with the exception set. */
static int *particle_list(PyObject *o, const char *call, int n, npy_intp *k)
{
    PyArrayObject *raw = (PyArrayObject *)PyArray_FROM_O(o);
    if (!raw) return NULL;
    const int integers = PyArray_ISINTEGER(raw) || PyArray_SIZE(raw) == 0; /* [] is float64 to numpy */
    Py_DECREF(raw);
    if (!integers) {
        PyErr_Format(PyExc_TypeError, "%s: particles must be integers (particle indices)", call);
        return NULL;
    }
    PyArrayObject *idx = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, 1, 1, NPY_ARRAY_IN_ARRAY);
    if (!idx) return NULL;
    *k = PyArray_DIM(idx, 0);
    int *ints = PyMem_Malloc((size_t)(*k > 0 ? *k : 1) * sizeof *ints);
    const int64_t *in = PyArray_DATA(idx);
    for (npy_intp j = 0; ints && j < *k; j++) {
        if (in[j] < 0 || in[j] >= n) {
            PyErr_Format(PyExc_IndexError, "%s: particles[%zd] = %lld: no such particle (the world has %d)", call,
                         (Py_ssize_t)j, (long long)in[j], n);
            PyMem_Free(ints);
            Py_DECREF(idx);
            return NULL;
        }
        ints[j] = (int)in[j];
    }
    Py_DECREF(idx);
    if (!ints) PyErr_NoMemory();
    return ints;
}

/* World.set_targets(particles, positions): kinematic targets [m] of the (K,) particles from a (K, 3) array
 * (hk_world_set_targets, which checks every one before it sets any). */
PyObject *hk_py_set_targets(PyObject *o, PyObject *args)
{
    WORLD_OR_NULL(o);
    PyObject *idx_o, *pos_o;
    if (!PyArg_ParseTuple(args, "OO:set_targets", &idx_o, &pos_o)) return NULL;
    npy_intp k;
    int *ints = particle_list(idx_o, "set_targets", hk_world_particles(self->w).count, &k);
    if (!ints) return NULL;
    PyArrayObject *pos = (PyArrayObject *)PyArray_FROMANY(pos_o, NPY_FLOAT64, 2, 2, NPY_ARRAY_IN_ARRAY);
    PyObject *result = NULL;
    if (!pos) goto out;
    if (PyArray_DIM(pos, 0) != k || PyArray_DIM(pos, 1) != 3) {
        PyErr_Format(PyExc_ValueError,
                     "set_targets: positions must have shape (%zd, 3), a row per particle, got "
                     "(%zd, %zd)",
                     (Py_ssize_t)k, (Py_ssize_t)PyArray_DIM(pos, 0), (Py_ssize_t)PyArray_DIM(pos, 1));
        goto out;
    }
    if (hk_world_set_targets(self->w, (int)k, ints, PyArray_DATA(pos)) != HK_OK) {
        PyErr_SetString(PyExc_ValueError, hk_world_error(self->w));
        goto out;
    }
    if (self->guard.active) hk_energy_guard_init(&self->guard, self->w); /* the drivers feed energy: bound off */
    result = Py_NewRef(Py_None);
out:
    PyMem_Free(ints);
    Py_XDECREF(pos);
    return result;
}

/* World.clear_targets(particles=None): releases the (K,) particles, or every driven one. */
PyObject *hk_py_clear_targets(PyObject *o, PyObject *args, PyObject *kw)
{
    WORLD_OR_NULL(o);
    static char *names[] = {"particles", NULL};
    PyObject *idx_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:clear_targets", names, &idx_o)) return NULL;
    int rc = HK_OK;
    if (idx_o == Py_None) {
        rc = hk_world_clear_targets(self->w, 0, NULL);
    } else {
        npy_intp k;
        int *ints = particle_list(idx_o, "clear_targets", hk_world_particles(self->w).count, &k);
        if (!ints) return NULL;
        if (k > 0) rc = hk_world_clear_targets(self->w, (int)k, ints); /* an empty list releases none */
        PyMem_Free(ints);
    }
    if (rc != HK_OK) return PyErr_Format(PyExc_ValueError, "%s", hk_world_error(self->w));
    hk_energy_guard_init(&self->guard, self->w); /* on again where nothing else feeds energy */
    Py_RETURN_NONE;
}

/* World.targets: ((K,) int64 particles, (K, 3) float64 targets [m]), in the order they were first set. */
PyObject *hk_py_targets(PyObject *o, void *closure)
{
    (void)closure;
    WORLD_OR_NULL(o);
    const int k = hk_world_targets(self->w, NULL, NULL);
    npy_intp d1[1] = {k}, d2[2] = {k, 3};
    PyObject *idx = PyArray_SimpleNew(1, d1, NPY_INT64), *pos = PyArray_SimpleNew(2, d2, NPY_FLOAT64);
    int *ints = PyMem_Malloc((size_t)(k > 0 ? k : 1) * sizeof *ints);
    if (!idx || !pos || !ints) {
        Py_XDECREF(idx);
        Py_XDECREF(pos);
        PyMem_Free(ints);
        return PyErr_NoMemory();
    }
    hk_world_targets(self->w, ints, PyArray_DATA((PyArrayObject *)pos));
    int64_t *out = PyArray_DATA((PyArrayObject *)idx);
    for (int j = 0; j < k; j++) out[j] = ints[j];
    PyMem_Free(ints);
    return Py_BuildValue("(NN)", idx, pos);
}
