/* module.c — the Python module _hooke: exceptions, version, precision, the World type, batch steps. */
/* SPDX-License-Identifier: MIT */
#include "pyhooke.h"

static PyMethodDef module_methods[] = {
    {"_batch_threads", hk_py_batch_threads, METH_VARARGS,
     "_batch_threads(worlds, threads, /)\n--\n\nThe threads a batch of these Worlds steps on: threads where not 0, "
     "else hooke's default for all their springs, at most one per world."},
    {"_step_batch", hk_py_step_batch, METH_VARARGS,
     "_step_batch(worlds, n, threads, /)\n--\n\nhooke.Batch's steps: n steps of each World of the tuple on a team of "
     "threads, a world per thread at a time; [(index, exception)] of the worlds that stopped."},
    {"scene_tables", hk_py_scene_tables, METH_NOARGS,
     "scene_tables(/)\n--\n\nThe scene format's tables: ({section: [key]}, {body kind: [spring family]}), sections "
     "by their word (\"body KIND\" for a body, \"springs\" for a springs line's keys)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_hooke",
    .m_doc = "The hooke mass-spring solver (libhooke) from Python: see the package hooke.",
    .m_size = -1,
    .m_methods = module_methods,
};

/* An exception class hooke.NAME deriving from base, with its doc, added to m. */
static PyObject *add_exception(PyObject *m, const char *name, PyObject *base, const char *doc)
{
    char full[64];
    snprintf(full, sizeof full, "hooke.%s", name);
    PyObject *e = PyErr_NewExceptionWithDoc(full, doc, base, NULL);
    if (!e) return NULL;
    Py_INCREF(e);
    if (PyModule_AddObject(m, name, e) != 0) {
        Py_DECREF(e);
        Py_DECREF(e);
        return NULL;
    }
    return e;
}

PyMODINIT_FUNC PyInit__hooke(void)
{
    if (hk_py_arrays_ready() != 0) return NULL;
    if (PyType_Ready(&hk_py_world_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    if (!(hk_py_error = add_exception(m, "Error", PyExc_Exception, "A failure reported by hooke.")) ||
        !(hk_py_scene_error = add_exception(m, "SceneError", hk_py_error,
                                            "A scene that cannot be read: .file, .line, .column (None where the "
                                            "message has none) and .message; str() is the program's message.")) ||
        !(hk_py_blowup = add_exception(m, "BlowUp", hk_py_error,
                                       "The simulation blew up: .step, .time, .particle, .body, .family, .spring, "
                                       ".cause, .value and .hint, as `hooke run` reports it; str() is its report.")))
        goto fail;
    Py_INCREF(&hk_py_world_type);
    if (PyModule_AddObject(m, "World", (PyObject *)&hk_py_world_type) != 0) {
        Py_DECREF(&hk_py_world_type);
        goto fail;
    }
    if (PyModule_AddStringConstant(m, "__version__", hk_version()) != 0 ||
        PyModule_AddStringConstant(m, "precision", sizeof(hk_real) == 8 ? "double" : "float") != 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
