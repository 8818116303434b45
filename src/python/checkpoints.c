/* checkpoints.c — a World's checkpoints (checkpoint.h): in files (save_checkpoint) and in memory (save_state). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyhooke.h"

PyObject *hk_py_save_checkpoint(PyObject *o, PyObject *path_o)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    PyObject *path;
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    char err[1024];
    int rc;
    self->busy = 1; /* written with the GIL released: a large world's checkpoint takes a while */
    PyThreadState *ts = PyEval_SaveThread();
    rc = hk_checkpoint_write(self->w, &self->guard, self->digest, PyBytes_AS_STRING(path), err, sizeof err);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    Py_DECREF(path);
    if (rc == 0) Py_RETURN_NONE;
    PyErr_SetString(PyExc_OSError, err);
    return NULL;
}

PyObject *hk_py_restore_checkpoint(PyObject *o, PyObject *path_o)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    PyObject *path;
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    const char *p = PyBytes_AS_STRING(path);
    FILE *f = fopen(p, "rb"); /* an unreadable file is an OSError with its errno; a bad one, hooke.Error */
    if (!f) {
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_o);
        Py_DECREF(path);
        return NULL;
    }
    fclose(f);
    char err[1024];
    int rc;
    self->busy = 1;
    PyThreadState *ts = PyEval_SaveThread();
    rc = hk_checkpoint_read(self->w, &self->guard, self->digest, p, err, sizeof err);
    PyEval_RestoreThread(ts);
    self->busy = 0;
    Py_DECREF(path);
    if (rc == 0) Py_RETURN_NONE;
    PyErr_SetString(hk_py_error, err);
    return NULL;
}

PyObject *hk_py_save_state(PyObject *o, PyObject *unused)
{
    (void)unused;
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    char err[1024];
    unsigned char *bytes;
    size_t len;
    if (hk_checkpoint_bytes(self->w, &self->guard, self->digest, &bytes, &len, "save_state", err, sizeof err) != 0)
        return PyErr_Format(strstr(err, "out of memory") ? PyExc_MemoryError : hk_py_error, "%s", err);
    PyObject *r = PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)len);
    free(bytes);
    return r;
}

PyObject *hk_py_restore_state(PyObject *o, PyObject *data)
{
    hk_py_world *self = (hk_py_world *)o;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) != 0) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "restore_state: state must be bytes (from save_state), not %.80s",
                            Py_TYPE(data)->tp_name);
    }
    char err[1024];
    const int rc = hk_checkpoint_parse(self->w, &self->guard, self->digest, view.buf, (size_t)view.len, "restore_state",
                                       err, sizeof err);
    PyBuffer_Release(&view);
    if (rc == 0) Py_RETURN_NONE;
    PyErr_SetString(hk_py_error, err);
    return NULL;
}
