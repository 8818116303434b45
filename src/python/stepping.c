/* stepping.c — World.step and World.run: steps with the GIL released, the program's blow-up checks, Ctrl-C. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "pyhooke.h"

/* How long the steps run without the GIL before it is taken back to look for a signal (Ctrl-C) [ns]. */
#define HK_PY_SIGNAL_NS 20000000LL

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* How a stretch of steps ended. */
enum { ADV_DONE, ADV_BLOWUP, ADV_FAILED, ADV_SIGNAL };

typedef struct advance {
    int how;     /* ADV_* */
    int status;  /* ADV_FAILED: hk_world_step's status */
    int bad;     /* ADV_BLOWUP: 1 hk_world_check found it (b), 0 the energy bound did */
    hk_blowup b; /* ADV_BLOWUP with bad */
    double e;    /* ADV_BLOWUP: the total energy when the bound was passed [J] */
} advance;

/* The check `hooke run` makes after step s (run.c after_step): hk_world_check_stats with the plan's stretch limit,
 * then the energy bound. 1 on a blow-up (filled into *a), else 0. Needs no GIL. */
static int check(hk_py_world *self, advance *a)
{
    hk_world *w = self->w;
    hk_stats st;
    a->bad = hk_world_check_stats(w, self->plan.stretch_limit, &a->b, &st);
    a->e = a->bad ? 0 : st.total;
    if (a->bad || hk_energy_runaway(&self->guard, &st, hk_world_step_count(w) * hk_world_substeps(w))) {
        a->how = ADV_BLOWUP;
        return 1;
    }
    return 0;
}

/* Takes n steps of self with the GIL released (the caller holds it and has marked self busy), checking for a
 * blow-up where `hooke run` does (every check_every steps, after a failed implicit solve, and at the last step
 * when check_last), and for signals every HK_PY_SIGNAL_NS of wall time: a pending signal's handler runs (Ctrl-C
 * raises KeyboardInterrupt) and the steps stop there, at a whole step. */
static void take_steps(hk_py_world *self, int64_t n, int check_last, advance *a)
{
    hk_world *w = self->w;
    const int64_t every = self->check_every;
    a->how = ADV_DONE;
    PyThreadState *ts = PyEval_SaveThread();
    int64_t next_look = n > 1 ? now_ns() + HK_PY_SIGNAL_NS : 0;
    for (int64_t k = 1; k <= n; k++) {
        const int rc = hk_world_step(w);
        if (rc != HK_OK) {
            /* a failed implicit solve is a blow-up the check names; anything else (memory) is the failure */
            if (!(rc == HK_ERR_DIVERGED && check(self, a))) a->how = ADV_FAILED, a->status = rc;
            break;
        }
        if ((hk_world_step_count(w) % every == 0 || (check_last && k == n)) && check(self, a)) break;
        if (k < n && now_ns() >= next_look) {
            PyEval_RestoreThread(ts);
            const int signalled = PyErr_CheckSignals() != 0;
            ts = PyEval_SaveThread();
            if (signalled) {
                a->how = ADV_SIGNAL;
                break;
            }
            next_look = now_ns() + HK_PY_SIGNAL_NS;
        }
    }
    PyEval_RestoreThread(ts);
}

/* The exception for a stretch that did not end well, or 0 when it did. */
static int raise_for(hk_py_world *self, const advance *a)
{
    switch (a->how) {
    case ADV_BLOWUP: hk_py_blowup_raise(self, a->bad ? &a->b : NULL, a->e); return -1;
    case ADV_FAILED:
        PyErr_Format(a->status == HK_ERR_MEMORY ? PyExc_MemoryError : hk_py_error, "%U: step %lld: %s", self->name,
                     (long long)hk_world_step_count(self->w) + 1, hk_world_error(self->w));
        return -1;
    case ADV_SIGNAL: return -1; /* the signal's handler set its exception (KeyboardInterrupt) */
    default: return 0;
    }
}

PyObject *hk_py_world_step(PyObject *o, PyObject *args, PyObject *kw)
{
    hk_py_world *self = (hk_py_world *)o;
    long long n = 1;
    if ((args && PyTuple_GET_SIZE(args)) || kw) {
        static char *names[] = {"n", NULL};
        if (!PyArg_ParseTupleAndKeywords(args, kw, "|L:step", names, &n)) return NULL;
        if (n < 0) return PyErr_Format(PyExc_ValueError, "step: n must be >= 0 (got %lld)", n);
    }
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    self->busy = 1;
    advance a;
    take_steps(self, n, 0, &a);
    self->busy = 0;
    if (raise_for(self, &a) != 0) return NULL;
    Py_RETURN_NONE;
}

PyObject *hk_py_world_run(PyObject *o, PyObject *args, PyObject *kw)
{
    hk_py_world *self = (hk_py_world *)o;
    static char *names[] = {"steps", "time", "every", "callback", NULL};
    PyObject *steps_o = Py_None, *time_o = Py_None, *every_o = Py_None, *callback = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOO:run", names, &steps_o, &time_o, &every_o, &callback)) return NULL;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    if (callback != Py_None && !PyCallable_Check(callback))
        return PyErr_Format(PyExc_TypeError, "run: callback must be callable or None");
    /* the scene's run settings with the arguments written into them, planned as `hooke run` plans them */
    hk_run_settings rs = self->run;
    rs.integrator = hk_world_integrator(self->w);
    if (steps_o != Py_None && time_o != Py_None)
        return PyErr_Format(PyExc_ValueError, "run: give steps or time, not both");
    if (steps_o != Py_None) {
        rs.steps = PyLong_AsLongLong(steps_o);
        rs.time = 0;
        if (PyErr_Occurred()) return NULL;
        if (rs.steps < 1) return PyErr_Format(PyExc_ValueError, "run: steps must be >= 1 (got %lld)", rs.steps);
    }
    if (time_o != Py_None) {
        rs.time = PyFloat_AsDouble(time_o);
        rs.steps = 0;
        if (PyErr_Occurred()) return NULL;
    }
    if (every_o != Py_None) {
        rs.every = PyLong_AsLongLong(every_o);
        if (PyErr_Occurred()) return NULL;
        if (rs.every < 1) return PyErr_Format(PyExc_ValueError, "run: every must be >= 1 (got %lld)", rs.every);
    }
    hk_run_plan plan;
    char err[256];
    if (hk_run_plan_of(&rs, &plan, err, sizeof err) != HK_OK)
        return PyErr_Format(PyExc_ValueError, "run: %U: %s%s", self->name, err,
                            rs.steps || rs.time > 0 ? "" : " (give steps or time)");
    self->plan.stretch_limit = plan.stretch_limit;
    const int64_t first = hk_world_step_count(self->w);
    while (hk_world_step_count(self->w) < plan.steps) {
        const int64_t at = hk_world_step_count(self->w);
        const int64_t to_grid = plan.every - at % plan.every, left = plan.steps - at;
        const int64_t n = callback == Py_None ? left : to_grid < left ? to_grid : left;
        self->busy = 1;
        advance a;
        take_steps(self, n, n == left, &a);
        self->busy = 0;
        if (raise_for(self, &a) != 0) return NULL;
        if (callback != Py_None && hk_world_step_count(self->w) % plan.every == 0) {
            PyObject *r = PyObject_CallOneArg(callback, o);
            if (!r) return NULL;
            Py_DECREF(r);
            if (hk_py_world_free_to_use(self) != 0) return NULL;
        }
    }
    return PyLong_FromLongLong(hk_world_step_count(self->w) - first);
}
