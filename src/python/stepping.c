/* stepping.c — World.step and World.run: steps with the GIL released, the program's blow-up checks, Ctrl-C. */
/* SPDX-License-Identifier: MIT */
#include "pyhooke.h"
#include "team_wait.h"

/* How long the steps run without the GIL before it is taken back to look for a signal (Ctrl-C) [ns]. */
#define HK_PY_SIGNAL_NS 20000000LL

/* A call whose steps touch fewer items (particles and springs, times steps) than this keeps the GIL: its work,
 * microseconds at most, takes no longer than releasing the lock and taking it back would (about 340 instructions,
 * more than a step and its check of a 10-particle rope). */
#define HK_PY_GIL_ITEMS 1024

/* The check `hooke run` makes after step s (run.c after_step): hk_world_check_stats with the plan's stretch limit,
 * then the energy bound. 1 on a blow-up (filled into *a), else 0. Needs no GIL. */
static int check(hk_py_world *self, hk_py_advance *a)
{
    hk_world *w = self->w;
    hk_stats st;
    a->bad = hk_world_check_stats(w, self->plan.stretch_limit, &a->b, &st);
    a->e = a->bad ? 0 : st.total;
    if (a->bad || hk_energy_runaway(&self->guard, &st, hk_world_step_count(w) * hk_world_substeps(w))) {
        a->how = HK_PY_BLOWUP;
        return 1;
    }
    return 0;
}

int hk_py_step_checked(hk_py_world *self, int64_t every, int last, hk_py_advance *a)
{
    const int rc = hk_world_step(self->w);
    if (rc != HK_OK) {
        /* a failed implicit solve is a blow-up the check names; anything else (memory) is the failure */
        if (!(rc == HK_ERR_DIVERGED && check(self, a))) a->how = HK_PY_FAILED, a->status = rc;
        return 1;
    }
    return (hk_world_step_count(self->w) % every == 0 || last) && check(self, a);
}

/* Takes n steps of self with the GIL released (kept by a call of less than HK_PY_GIL_ITEMS items' work; the caller
 * holds it and has marked self busy), checking for a blow-up where `hooke run` does (every check_every steps, after
 * a failed implicit solve, and at the last step when check_last), and, without the GIL, for signals every
 * HK_PY_SIGNAL_NS of wall time: a pending signal's handler runs (Ctrl-C
 * raises KeyboardInterrupt) and the steps stop there, at a whole step. The clock is read every `gap` steps, gap
 * chosen from the steps' pace so that about a quarter of HK_PY_SIGNAL_NS passes between reads: a read can cost
 * more than a small world's step (0.4 us on a virtual machine without a fast clock). */
static void take_steps(hk_py_world *self, int64_t n, int check_last, hk_py_advance *a)
{
    const int64_t every = self->check_every;
    a->how = HK_PY_DONE;
    const int keep_gil = n < HK_PY_GIL_ITEMS / (self->items > 0 ? self->items : 1);
    PyThreadState *ts = keep_gil ? NULL : PyEval_SaveThread();
    int64_t last = n > 1 && !keep_gil ? hk_now_ns() : 0, next_look = last + HK_PY_SIGNAL_NS, gap = 1, since = 0;
    for (int64_t k = 1; k <= n; k++) {
        if (hk_py_step_checked(self, every, check_last && k == n, a)) break;
        if (keep_gil || k == n || ++since < gap) continue;
        const int64_t t = hk_now_ns(), per_step = (t - last) / since + 1;
        gap = HK_PY_SIGNAL_NS / 4 / per_step > 1 ? HK_PY_SIGNAL_NS / 4 / per_step : 1;
        last = t;
        since = 0;
        if (t < next_look) continue;
        PyEval_RestoreThread(ts);
        const int signalled = PyErr_CheckSignals() != 0;
        ts = PyEval_SaveThread();
        if (signalled) {
            a->how = HK_PY_SIGNAL;
            break;
        }
        next_look = hk_now_ns() + HK_PY_SIGNAL_NS;
    }
    if (ts) PyEval_RestoreThread(ts);
}

int hk_py_raise_for(hk_py_world *self, const hk_py_advance *a)
{
    switch (a->how) {
    case HK_PY_BLOWUP: hk_py_blowup_raise(self, a->bad ? &a->b : NULL, a->e); return -1;
    case HK_PY_FAILED:
        PyErr_Format(a->status == HK_ERR_MEMORY ? PyExc_MemoryError : hk_py_error, "%U: step %lld: %s", self->name,
                     (long long)hk_world_step_count(self->w) + 1, hk_world_error(self->w));
        return -1;
    case HK_PY_SIGNAL: return -1; /* the signal's handler set its exception (KeyboardInterrupt) */
    default: return 0;
    }
}

/* The run that run(steps, time, every) makes: the scene's run settings with the arguments written into them, planned
 * as `hooke run` plans them. 0, or -1 with ValueError. */
static int plan_of(hk_py_world *self, PyObject *steps_o, PyObject *time_o, PyObject *every_o, hk_run_plan *plan)
{
    hk_run_settings rs = self->run;
    rs.integrator = hk_world_integrator(self->w);
    if (steps_o != Py_None && time_o != Py_None) {
        PyErr_Format(PyExc_ValueError, "run: give steps or time, not both");
        return -1;
    }
    if (steps_o != Py_None) {
        rs.steps = PyLong_AsLongLong(steps_o);
        rs.time = 0;
        if (PyErr_Occurred()) return -1;
        if (rs.steps < 1) {
            PyErr_Format(PyExc_ValueError, "run: steps must be >= 1 (got %lld)", rs.steps);
            return -1;
        }
    }
    if (time_o != Py_None) {
        rs.time = PyFloat_AsDouble(time_o);
        rs.steps = 0;
        if (PyErr_Occurred()) return -1;
    }
    if (every_o != Py_None) {
        rs.every = PyLong_AsLongLong(every_o);
        if (PyErr_Occurred()) return -1;
        if (rs.every < 1) {
            PyErr_Format(PyExc_ValueError, "run: every must be >= 1 (got %lld)", rs.every);
            return -1;
        }
    }
    char err[256];
    if (hk_run_plan_of(&rs, plan, err, sizeof err) == HK_OK) return 0;
    PyErr_Format(PyExc_ValueError, "run: %U: %s%s", self->name, err,
                 rs.steps || rs.time > 0 ? "" : " (give steps or time)");
    return -1;
}

/* World._run_plan(steps, time, every): run()'s plan for these arguments, as run_plan gives the scene's. */
PyObject *hk_py_world_run_plan(PyObject *o, PyObject *args)
{
    hk_py_world *self = (hk_py_world *)o;
    PyObject *steps_o, *time_o, *every_o;
    if (!PyArg_ParseTuple(args, "OOO:_run_plan", &steps_o, &time_o, &every_o)) return NULL;
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    hk_run_plan plan;
    if (plan_of(self, steps_o, time_o, every_o, &plan) != 0) return NULL;
    return Py_BuildValue("{s:L,s:L}", "steps", (long long)plan.steps, "every", (long long)plan.every);
}

/* step(n=1): vectorcall, so that step() costs no argument tuple or parsing */
PyObject *hk_py_world_step(PyObject *o, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    hk_py_world *self = (hk_py_world *)o;
    long long n = 1;
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1) return PyErr_Format(PyExc_TypeError, "step() takes at most 1 argument (n)");
    if (nkw && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "n") != 0)
        return PyErr_Format(PyExc_TypeError, "step() got an unexpected keyword argument '%U'",
                            PyTuple_GET_ITEM(kwnames, 0));
    if (nargs + nkw == 1) {
        PyObject *v = args[0];
        if (!PyIndex_Check(v)) /* an int, or an integer of numpy's */
            return PyErr_Format(PyExc_TypeError, "step(): n must be an int, not %.80s", Py_TYPE(v)->tp_name);
        PyObject *i = PyNumber_Index(v);
        if (!i) return NULL;
        n = PyLong_AsLongLong(i);
        Py_DECREF(i);
        if (n == -1 && PyErr_Occurred()) return NULL;
        if (n < 0) return PyErr_Format(PyExc_ValueError, "step: n must be >= 0 (got %lld)", n);
    }
    if (hk_py_world_free_to_use(self) != 0) return NULL;
    self->busy = 1;
    hk_py_advance a;
    take_steps(self, n, 0, &a);
    self->busy = 0;
    if (hk_py_raise_for(self, &a) != 0) return NULL;
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
    hk_run_plan plan;
    if (plan_of(self, steps_o, time_o, every_o, &plan) != 0) return NULL;
    self->plan.stretch_limit = plan.stretch_limit;
    const int64_t first = hk_world_step_count(self->w);
    while (hk_world_step_count(self->w) < plan.steps) {
        const int64_t at = hk_world_step_count(self->w);
        const int64_t to_grid = plan.every - at % plan.every, left = plan.steps - at;
        const int64_t n = callback == Py_None ? left : to_grid < left ? to_grid : left;
        self->busy = 1;
        hk_py_advance a;
        take_steps(self, n, 1, &a); /* checked at its last step too: the end, or a callback's step */
        self->busy = 0;
        if (hk_py_raise_for(self, &a) != 0) return NULL;
        if (callback != Py_None && hk_world_step_count(self->w) % plan.every == 0) {
            PyObject *r = PyObject_CallOneArg(callback, o);
            if (!r) return NULL;
            Py_DECREF(r);
            if (hk_py_world_free_to_use(self) != 0) return NULL;
        }
    }
    return PyLong_FromLongLong(hk_world_step_count(self->w) - first);
}
