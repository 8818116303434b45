/* errors.c — hooke.SceneError from a loader's message and hooke.BlowUp from the program's blow-up report. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyhooke.h"

PyObject *hk_py_error, *hk_py_scene_error, *hk_py_blowup;

/* Sets attribute name of exception e to v (a new reference, or NULL: None); -1 on failure. */
static int set_attr(PyObject *e, const char *name, PyObject *v)
{
    if (!v && PyErr_Occurred()) return -1;
    const int rc = PyObject_SetAttrString(e, name, v ? v : Py_None);
    Py_XDECREF(v);
    return rc;
}

/* Raises exception e of class cls, str() text, after fill sets its attributes. */
static PyObject *raise_with(PyObject *cls, PyObject *e)
{
    if (e) {
        PyErr_SetObject(cls, e);
        Py_DECREF(e);
    }
    return NULL;
}

/* The number of digits ending at end (exclusive) within [begin, end), after a ':'; its value, else -1. */
static long trailing_number(const char *begin, const char **end)
{
    const char *p = *end;
    while (p > begin && p[-1] >= '0' && p[-1] <= '9') p--;
    if (p == *end || p == begin || p[-1] != ':' || *end - p > 9) return -1;
    const long v = strtol(p, NULL, 10);
    *end = p - 1;
    return v;
}

PyObject *hk_py_scene_error_raise(const char *text)
{
    static const char mark[] = ": error: ";
    const char *at = strstr(text, mark);
    const char *file_end = at ? at : text;
    long line = -1, column = -1;
    if (at) { /* FILE[:LINE[:COL]]: the numbers from the right */
        const long last = trailing_number(text, &file_end);
        const long before = last >= 0 ? trailing_number(text, &file_end) : -1;
        if (before >= 0)
            line = before, column = last;
        else
            line = last;
    }
    PyObject *e = PyObject_CallFunction(hk_py_scene_error, "s", text);
    if (!e) return NULL;
    if (set_attr(e, "file", at ? PyUnicode_FromStringAndSize(text, file_end - text) : NULL) ||
        set_attr(e, "line", line >= 0 ? PyLong_FromLong(line) : NULL) ||
        set_attr(e, "column", column >= 0 ? PyLong_FromLong(column) : NULL) ||
        set_attr(e, "message", PyUnicode_FromString(at ? at + sizeof mark - 1 : text))) {
        Py_DECREF(e);
        return NULL;
    }
    return raise_with(hk_py_scene_error, e);
}

PyObject *hk_py_blowup_raise(hk_py_world *self, const hk_blowup *b, double energy)
{
    hk_world *w = self->w;
    /* the program's report, as `hooke run` prints it (diagnosis.c): the error line, then the hint */
    char *report = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&report, &len);
    if (!f) return PyErr_NoMemory();
    const int64_t substeps = hk_world_step_count(w) * hk_world_substeps(w);
    hk_report_blowup(f, w, b, &self->guard, energy, substeps, PyUnicode_AsUTF8(self->name), self->plan.stretch_limit);
    fclose(f);
    while (len > 0 && report[len - 1] == '\n') report[--len] = '\0';
    static const char hint_mark[] = "hooke: hint: ";
    const char *hint = strstr(report, hint_mark);
    PyObject *e = PyObject_CallFunction(hk_py_blowup, "s", report);
    const int missing = b == NULL;
    if (e && (set_attr(e, "step", PyLong_FromLongLong(hk_world_step_count(w))) ||
              set_attr(e, "time", PyFloat_FromDouble(hk_world_time(w))) ||
              set_attr(e, "cause", PyUnicode_FromString(missing ? "energy runaway" : b->cause)) ||
              set_attr(e, "particle", !missing && b->particle >= 0 ? PyLong_FromLong(b->particle) : NULL) ||
              set_attr(e, "body", !missing && b->body >= 0 ? PyLong_FromLong(b->body) : NULL) ||
              set_attr(e, "family", !missing && b->family >= 0 ? PyLong_FromLong(b->family) : NULL) ||
              set_attr(e, "spring", !missing && b->spring >= 0 ? PyLong_FromLongLong(b->spring) : NULL) ||
              set_attr(e, "value", PyFloat_FromDouble(missing ? energy : b->value)) ||
              set_attr(e, "hint", hint ? PyUnicode_FromString(hint + sizeof hint_mark - 1) : NULL))) {
        Py_CLEAR(e);
    }
    free(report);
    return raise_with(hk_py_blowup, e);
}
