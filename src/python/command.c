/* command.c — _hooke.command(args): one of the program's commands run in this process, its settings put back after. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "commands.h"
#include "pyhooke.h"

/* One command at a time in the process: getopt's state and run's stop flag are the process's (commands.h). */
static PyThread_type_lock command_lock;

PyObject *hk_py_command(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *list;
    if (!PyArg_ParseTuple(args, "O:command", &list)) return NULL;
    PyObject *seq = PySequence_Fast(list, "command: args must be a sequence of str (the program's arguments)");
    if (!seq) return NULL;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **bytes = PyMem_Calloc((size_t)n + 1, sizeof *bytes);
    char **argv = PyMem_Calloc((size_t)n + 2, sizeof *argv);
    PyObject *result = NULL;
    if (!bytes || !argv) {
        PyErr_NoMemory();
        goto out;
    }
    argv[0] = "hooke";
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(item) && !PyBytes_Check(item) && !PyObject_CheckBuffer(item)) {
            PyErr_Format(PyExc_TypeError, "command: argument %zd must be str, not %.80s", i, Py_TYPE(item)->tp_name);
            goto out;
        }
        if (!PyUnicode_FSConverter(item, &bytes[i])) goto out;
        argv[i + 1] = PyBytes_AS_STRING(bytes[i]);
    }
    if (!command_lock && !(command_lock = PyThread_allocate_lock())) {
        PyErr_NoMemory();
        goto out;
    }
    PyThreadState *ts = PyEval_SaveThread();
    PyThread_acquire_lock(command_lock, WAIT_LOCK);
    /* what a command may change in the process, put back after it (commands.h): the calling thread's OpenMP thread
     * count and SIGXFSZ's handler; run puts SIGINT's and SIGTERM's back itself, and binds no thread here
     * (module.c turned the binding off) */
#ifdef HOOKE_USE_OPENMP
    const int omp_threads = omp_get_max_threads();
#endif
    struct sigaction xfsz;
    sigaction(SIGXFSZ, NULL, &xfsz);
    const int rc = hk_command_main((int)n + 1, argv);
    fflush(stdout);
    fflush(stderr);
    sigaction(SIGXFSZ, &xfsz, NULL);
#ifdef HOOKE_USE_OPENMP
    omp_set_num_threads(omp_threads);
#endif
    PyThread_release_lock(command_lock);
    PyEval_RestoreThread(ts);
    result = PyLong_FromLong(rc);
out:
    for (Py_ssize_t i = 0; bytes && i < n; i++) Py_XDECREF(bytes[i]);
    PyMem_Free(bytes);
    PyMem_Free(argv);
    Py_DECREF(seq);
    return result;
}
