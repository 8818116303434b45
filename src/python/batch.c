/* batch.c — _hooke._step_batch: the worlds of a hooke.Batch stepped together, a world per thread at a time. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#ifdef HOOKE_USE_OPENMP
#include <omp.h>
#endif

#include "pyhooke.h"
#include "team_wait.h"

/* How long a stretch of steps runs without the GIL before it is taken back to look for a signal (Ctrl-C) [ns]. */
#define HK_BATCH_SIGNAL_NS 20000000LL

/* One world of the call: its object, its check cadence in the batch, how its steps ended. */
typedef struct batch_world {
    hk_py_world *py;
    int64_t every;
    hk_py_advance a;
} batch_world;

/* k steps of every world still going, a world per thread at a time (its steps in a row: its state stays in the
 * thread's caches); a world that blows up or fails stops there. No GIL. */
static void stretch(batch_world *bw, Py_ssize_t n, int threads, int64_t k)
{
#ifdef HOOKE_USE_OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
#endif
    for (Py_ssize_t i = 0; i < n; i++) {
        if (bw[i].a.how != HK_PY_DONE) continue;
        for (int64_t s = 0; s < k; s++)
            if (hk_py_step_checked(bw[i].py, bw[i].every, 0, &bw[i].a)) break;
    }
    (void)threads;
}

/* _batch_threads(worlds, threads): the threads a batch of these Worlds steps on: `threads` where not 0, else hooke's
 * default for all their springs on this process's OpenMP threads (hk_default_threads), at most one per world. */
PyObject *hk_py_batch_threads(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *tuple;
    int threads;
    if (!PyArg_ParseTuple(args, "O!i:_batch_threads", &PyTuple_Type, &tuple, &threads)) return NULL;
    const Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    if (threads > 0) return PyLong_FromLong(threads);
    int64_t springs = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(tuple, i);
        if (!PyObject_TypeCheck(o, &hk_py_world_type) || !((hk_py_world *)o)->w)
            return PyErr_Format(PyExc_TypeError, "_batch_threads: worlds[%zd] is not a built hooke.World", i);
        springs += hk_world_spring_count(((hk_py_world *)o)->w);
    }
#ifdef HOOKE_USE_OPENMP
    const int cores = omp_get_max_threads();
#else
    const int cores = 1;
#endif
    const int t = hk_default_threads(springs, cores);
    return PyLong_FromLong(t < n ? t : (long)n);
}

/* _step_batch(worlds, n, threads): n steps of each World of the tuple `worlds` (each on one thread, none twice) on a
 * team of `threads` (Batch.threads, _batch_threads), every world checked for a blow-up at the cadence of one world
 * holding them all (hk_check_cadence_of) and stopped where one is found. Returns [(index, exception)] of the worlds
 * that stopped, in order. Ctrl-C stops every world at the same whole step (KeyboardInterrupt). */
PyObject *hk_py_step_batch(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *tuple;
    long long steps;
    int threads;
    if (!PyArg_ParseTuple(args, "O!Li:_step_batch", &PyTuple_Type, &tuple, &steps, &threads)) return NULL;
    if (steps < 0) return PyErr_Format(PyExc_ValueError, "step: n must be >= 0 (got %lld)", steps);
    if (threads < 1 || threads > HK_MAX_THREADS)
        return PyErr_Format(PyExc_ValueError, "_step_batch: threads must be 1 to %d (got %d)", HK_MAX_THREADS, threads);
    const Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    batch_world *bw = PyMem_Calloc((size_t)n + 1, sizeof *bw);
    if (!bw) return PyErr_NoMemory();
    int64_t items = 0;
    Py_ssize_t marked = 0;
    PyObject *result = NULL;
    for (; marked < n; marked++) { /* each world checked and marked busy, so that none is in the tuple twice */
        PyObject *o = PyTuple_GET_ITEM(tuple, marked);
        if (!PyObject_TypeCheck(o, &hk_py_world_type)) {
            PyErr_Format(PyExc_TypeError, "_step_batch: worlds[%zd] is %.80s, not a hooke.World", marked,
                         Py_TYPE(o)->tp_name);
            goto out;
        }
        hk_py_world *py = (hk_py_world *)o;
        if (hk_py_world_free_to_use(py) != 0) goto out;
        if (hk_world_threads_in_use(py->w) != 1) {
            PyErr_Format(PyExc_ValueError, "_step_batch: worlds[%zd] runs on %d threads: a world in a batch runs on 1",
                         marked, hk_world_threads_in_use(py->w));
            goto out;
        }
        py->busy = 1;
        bw[marked].py = py;
        items += py->items;
    }
    for (Py_ssize_t i = 0; i < n; i++) bw[i].every = hk_check_cadence_of(bw[i].py->w, items);
    /* stretches of steps sized to take about HK_BATCH_SIGNAL_NS each, from the pace of the first step */
    int signalled = 0;
    for (int64_t done = 0, next = 1; done < steps && !signalled;) {
        const int64_t k = next < steps - done ? next : steps - done;
        PyThreadState *ts = PyEval_SaveThread();
        const int64_t t0 = hk_now_ns();
        stretch(bw, n, threads, k);
        const int64_t per_step = (hk_now_ns() - t0) / k + 1;
        PyEval_RestoreThread(ts);
        done += k;
        signalled = PyErr_CheckSignals() != 0;
        next = HK_BATCH_SIGNAL_NS / per_step > 1 ? HK_BATCH_SIGNAL_NS / per_step : 1;
    }
    for (Py_ssize_t i = 0; i < n; i++) bw[i].py->busy = 0;
    marked = 0;
    if (signalled) goto out;
    if (!(result = PyList_New(0))) goto out;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (bw[i].a.how == HK_PY_DONE) continue;
        hk_py_raise_for(bw[i].py, &bw[i].a);
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        if (trace) PyException_SetTraceback(value, trace);
        PyObject *pair = Py_BuildValue("(nO)", i, value);
        Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(trace);
        if (!pair || PyList_Append(result, pair) != 0) {
            Py_XDECREF(pair);
            Py_CLEAR(result);
            goto out;
        }
        Py_DECREF(pair);
    }
out:
    for (Py_ssize_t i = 0; i < marked; i++) bw[i].py->busy = 0;
    PyMem_Free(bw);
    return result;
}
