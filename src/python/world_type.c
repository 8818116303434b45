/* world_type.c — hooke.World: built from a scene, its facts and settings as Python values, its frames. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pyhooke.h"
#include "scene.h"
#include "scene_kinds.h"

#define FREE_OR_NULL(self)                                                                                             \
    do {                                                                                                               \
        if (hk_py_world_free_to_use((hk_py_world *)(self)) != 0) return NULL;                                          \
    } while (0)

static void world_dealloc(PyObject *o)
{
    hk_py_world *self = (hk_py_world *)o;
    hk_frame_writer_close(self->series);
    hk_world_destroy(self->w);
    Py_XDECREF(self->name);
    Py_TYPE(o)->tp_free(o);
}

static PyObject *from_scene(PyObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"path", "threads", NULL};
    PyObject *path_o, *path;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|i:from_scene", names, &path_o, &threads)) return NULL;
    if (hk_py_threads_refused(threads)) return NULL;
    hk_world_def base;
    if (hk_py_base_def(&base) != 0 || !PyUnicode_FSConverter(path_o, &path)) return NULL;
    const char *p = PyBytes_AS_STRING(path);
    hk_scene sc;
    char err[1024];
    memset(&sc, 0, sizeof sc);
    PyThreadState *ts = PyEval_SaveThread();
    const int rc = hk_scene_load_on(p, &base, &sc, err, sizeof err);
    PyEval_RestoreThread(ts);
    PyObject *result = NULL;
    if (rc == 0) {
        result = hk_py_world_of_scene((PyTypeObject *)type, &sc, p, threads, NULL, 0);
    } else {
        hk_scene_free(&sc);
        if (access(p, R_OK) != 0) /* unreadable: the OSError of its errno (FileNotFoundError, ...) */
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path_o);
        else
            hk_py_scene_error_raise(err);
    }
    Py_DECREF(path);
    return result;
}

static PyObject *from_string(PyObject *type, PyObject *args, PyObject *kw)
{
    static char *names[] = {"text", "name", "threads", NULL};
    const char *text, *name = "<scene>";
    Py_ssize_t len;
    int threads = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|si:from_string", names, &text, &len, &name, &threads)) return NULL;
    return hk_py_world_of_text((PyTypeObject *)type, text, (size_t)len, name, threads, 0);
}

/* ---- facts ------------------------------------------------------------- */

static PyObject *get_time(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    return PyFloat_FromDouble(hk_world_time(((hk_py_world *)self)->w));
}

static PyObject *get_step_count(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    return PyLong_FromLongLong(hk_world_step_count(((hk_py_world *)self)->w));
}

static PyObject *get_state_hash(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    return PyLong_FromUnsignedLongLong(hk_world_state_hash(((hk_py_world *)self)->w));
}

static PyObject *get_threads(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    return PyLong_FromLong(hk_world_threads_in_use(((hk_py_world *)self)->w));
}

static int set_threads(PyObject *self, PyObject *value, void *c)
{
    (void)c;
    if (!value) {
        PyErr_SetString(PyExc_AttributeError, "threads cannot be deleted (0 is hooke's default)");
        return -1;
    }
    if (hk_py_world_free_to_use((hk_py_world *)self) != 0) return -1;
    if (!PyIndex_Check(value)) {
        PyErr_Format(PyExc_TypeError, "threads must be an int, not %.80s", Py_TYPE(value)->tp_name);
        return -1;
    }
    const long long n = PyLong_AsLongLong(value);
    if ((n == -1 && PyErr_Occurred()) || hk_py_threads_refused(n)) return -1;
    hk_world *w = ((hk_py_world *)self)->w;
    if (hk_world_set_threads(w, (int)n) == HK_OK) return 0;
    PyErr_Format(PyExc_ValueError, "threads: %s", hk_world_error(w));
    return -1;
}

static PyObject *get_name(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    return Py_NewRef(((hk_py_world *)self)->name);
}

static PyObject *integrator_dict(const hk_integrator_def *d, int substeps)
{
    const sc_kind *run = &sc_sections[SC_RUN]; /* the names of the choices, the format's */
    const char *stop = hk_py_choice_name(run, "integrator", "cg_stop", (int)d->cg_stop);
    const char *pre = hk_py_choice_name(run, "integrator", "cg_preconditioner", (int)d->preconditioner);
    if (!stop || !pre) return NULL;
    return Py_BuildValue(
        "{s:s,s:d,s:d,s:i,s:d,s:d,s:d,s:d,s:i,s:i,s:d,s:i,s:d,s:s,s:s}", "name", hk_integrator_name(d->kind), "dt",
        d->dt, "dt_max", d->dt_max, "substeps", substeps, "jelly_dt_a", d->jelly_dt_a, "jelly_dt_v", d->jelly_dt_v,
        "jelly_alpha", d->jelly_alpha, "cg_tolerance", d->cg_tolerance, "cg_max_iterations", d->cg_max_iterations,
        "newton_iterations", d->newton_iterations, "newton_tolerance", d->newton_tolerance, "iterations", d->iterations,
        "chebyshev_rho", d->chebyshev_rho, "cg_stop", stop, "cg_preconditioner", pre);
}

static PyObject *get_run_settings(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    const hk_run_settings *r = &((hk_py_world *)self)->run;
    PyObject *integ = integrator_dict(&r->integrator, 0);
    if (!integ) return NULL;
    PyDict_DelItemString(integ, "substeps");
    return Py_BuildValue("{s:N,s:L,s:d,s:L,s:d}", "integrator", integ, "steps", (long long)r->steps, "time", r->time,
                         "every", (long long)r->every, "stretch_limit", r->stretch_limit);
}

static PyObject *get_run_plan(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    hk_run_plan plan;
    char err[256];
    if (hk_run_plan_of(&((hk_py_world *)self)->run, &plan, err, sizeof err) != HK_OK)
        return PyErr_Format(PyExc_ValueError, "%U: %s", ((hk_py_world *)self)->name, err);
    return Py_BuildValue("{s:L,s:L,s:d,s:O}", "steps", (long long)plan.steps, "every", (long long)plan.every,
                         "stretch_limit", plan.stretch_limit, "every_given", plan.every_given ? Py_True : Py_False);
}

static PyObject *get_integrator(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    hk_world *w = ((hk_py_world *)self)->w;
    const hk_integrator_def d = hk_world_integrator(w);
    return integrator_dict(&d, hk_world_substeps(w));
}

static PyObject *get_bodies(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    hk_world *w = ((hk_py_world *)self)->w;
    const int n = hk_world_body_count(w);
    PyObject *list = PyList_New(n);
    for (int b = 0; list && b < n; b++) {
        const hk_body_info i = hk_world_body(w, b);
        PyObject *d = Py_BuildValue("{s:s,s:i,s:i,s:(iii),s:i,s:(ddd)}", "kind", i.kind, "first", i.first, "count",
                                    i.count, "shape", i.nx, i.ny, i.nz, "springs", i.springs, "origin", i.origin[0],
                                    i.origin[1], i.origin[2]);
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, b, d);
    }
    return list;
}

static const char *const behaviours[HK_SPRING_BEHAVIOUR_COUNT] = {"normal", "tension_only", "compression_only",
                                                                  "breakable"};

static PyObject *get_families(PyObject *self, void *c)
{
    (void)c;
    FREE_OR_NULL(self);
    hk_world *w = ((hk_py_world *)self)->w;
    const int n = hk_world_family_count(w);
    PyObject *list = PyList_New(n);
    long long first = 0;
    for (int f = 0; list && f < n; f++) {
        const hk_family_info i = hk_world_family(w, f);
        const hk_spring_params *p = &i.params;
        PyObject *d = Py_BuildValue(
            "{s:i,s:s,s:i,s:i,s:L,s:d,s:d,s:s,s:s,s:d,s:d,s:d,s:d}", "body", i.body, "name", i.name, "springs",
            i.springs, "broken", i.broken, "first_spring", first, "k", p->k, "damping", p->damping, "damping_model",
            p->damping_model == HK_DAMP_ALONG ? "along" : "relative", "behaviour",
            p->behaviour >= 0 && p->behaviour < HK_SPRING_BEHAVIOUR_COUNT ? behaviours[p->behaviour] : "?",
            "break_ratio", p->break_ratio, "rest_length", p->rest_length, "strain_limit", p->strain_limit,
            "compress_limit", p->compress_limit);
        first += i.springs;
        if (!d)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, f, d);
    }
    return list;
}

/* ---- methods ----------------------------------------------------------- */

static PyObject *stats(PyObject *self, PyObject *unused)
{
    (void)unused;
    FREE_OR_NULL(self);
    hk_world *w = ((hk_py_world *)self)->w;
    const hk_stats s = hk_world_stats(w);
    PyObject *d =
        Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:L}", "kinetic", s.kinetic, "gravity", s.gravity, "spring", s.spring,
                      "total", s.total, "max_stretch", s.max_stretch, "broken", (long long)s.broken);
    if (d && hk_world_strain_limited(w) + hk_world_tethered(w) > 0) { /* the last step's projection */
        const hk_strain_stats sl = hk_world_strain_stats(w);
        PyObject *strain = Py_BuildValue("{s:L,s:d,s:d,s:d,s:d,s:L,s:i,s:i,s:L}", "strain_step", (long long)sl.step,
                                         "strain_before", sl.before_max, "strain_after", sl.after_max,
                                         "strain_min_before", sl.before_min, "strain_min_after", sl.after_min,
                                         "strain_projected", (long long)sl.projected, "strain_sweeps", sl.sweeps,
                                         "strain_unconverged", sl.unconverged, "tethered", (long long)sl.tethered);
        if (!strain || PyDict_Update(d, strain) != 0) Py_CLEAR(d);
        Py_XDECREF(strain);
    }
    if (!d || !hk_integrator_info_of(hk_world_integrator(w).kind)->implicit) return d;
    const hk_solver_stats st = hk_world_solver_stats(w);
    PyObject *solver = Py_BuildValue(
        "{s:L,s:i,s:d,s:i,s:L,s:L,s:L,s:L,s:L,s:L,s:O}", "step", (long long)st.step, "cg_iterations", st.cg_iterations,
        "cg_residual", st.cg_residual, "newton_iterations", st.newton_iterations, "solves", (long long)st.solves,
        "cg_total", (long long)st.cg_total, "products", (long long)st.products, "unconverged",
        (long long)st.unconverged, "newton_unconverged", (long long)st.newton_unconverged, "line_cuts",
        (long long)st.line_cuts, "diverged", st.diverged ? Py_True : Py_False);
    if (!solver || PyDict_Update(d, solver) != 0) Py_CLEAR(d);
    Py_XDECREF(solver);
    return d;
}

static PyObject *set_integrator(PyObject *self, PyObject *args, PyObject *kw)
{
    FREE_OR_NULL(self);
    hk_world *w = ((hk_py_world *)self)->w;
    hk_integrator_def d = hk_world_integrator(w);
    static char *names[] = {"name",
                            "dt",
                            "dt_max",
                            "jelly_dt_a",
                            "jelly_dt_v",
                            "jelly_alpha",
                            "cg_tolerance",
                            "cg_max_iterations",
                            "newton_iterations",
                            "newton_tolerance",
                            "iterations",
                            "chebyshev_rho",
                            "cg_stop",
                            "cg_preconditioner",
                            NULL};
    const char *name, *stop = NULL, *pre = NULL;
    int iterations = -1; /* not given: the world's, where the new integrator sweeps */
    double rho = -1;     /* likewise, where it accelerates */
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|$ddddddiididss:set_integrator", names, &name, &d.dt, &d.dt_max,
                                     &d.jelly_dt_a, &d.jelly_dt_v, &d.jelly_alpha, &d.cg_tolerance,
                                     &d.cg_max_iterations, &d.newton_iterations, &d.newton_tolerance, &iterations, &rho,
                                     &stop, &pre))
        return NULL;
    const sc_kind *run = &sc_sections[SC_RUN];
    int value;
    if (stop) {
        if (hk_py_choice(run, "set_integrator", "cg_stop", stop, &value) != 0) return NULL;
        d.cg_stop = (hk_cg_stop)value;
    }
    if (pre) {
        if (hk_py_choice(run, "set_integrator", "cg_preconditioner", pre, &value) != 0) return NULL;
        d.preconditioner = (hk_preconditioner)value;
    }
    const int kind = hk_integrator_from_name(name);
    if (kind < 0)
        return PyErr_Format(PyExc_ValueError, "unknown integrator '%s': expected one of %s", name,
                            hk_integrator_names());
    d.kind = (hk_integrator_kind)kind;
    if (iterations >= 0)
        d.iterations = iterations;
    else if (!hk_integrator_info_of(d.kind)->iterated)
        d.iterations = 0;
    if (rho != -1)
        d.chebyshev_rho = rho;
    else if (!hk_integrator_info_of(d.kind)->accelerated)
        d.chebyshev_rho = 0;
    if (!stop && d.cg_stop == HK_CG_STOP_NEWTON && !(hk_integrator_info_of(d.kind)->minimised && !d.newton_iterations))
        d.cg_stop = HK_CG_STOP_FORCE; /* the minimisation's rule: the default where the new step has none */
    if (hk_world_set_integrator(w, &d) != HK_OK) return PyErr_Format(PyExc_ValueError, "%s", hk_world_error(w));
    ((hk_py_world *)self)->check_every = hk_check_cadence(w);
    Py_RETURN_NONE;
}

static PyObject *write_frame(PyObject *self, PyObject *args, PyObject *kw)
{
    FREE_OR_NULL(self);
    static char *names[] = {"dir", "formats", NULL};
    PyObject *dir;
    const char *formats = "vtk";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|s:write_frame", names, PyUnicode_FSConverter, &dir, &formats))
        return NULL;
    char err[1024];
    const int rc = hk_frame_write(((hk_py_world *)self)->w, formats, PyBytes_AS_STRING(dir), err, sizeof err);
    Py_DECREF(dir);
    if (rc == HK_OK) Py_RETURN_NONE;
    PyErr_SetString(rc == HK_ERR_IO ? PyExc_OSError : rc == HK_ERR_MEMORY ? PyExc_MemoryError : PyExc_ValueError, err);
    return NULL;
}

/* World._series(dir, formats): a frame series opened in dir, as `hooke run --out dir --format formats` opens its own
 * (the one before closed); World._series_write(): the frame of the step now; World._series_close(): its end (the
 * .pvd index written). write_frames (hooke/build.py) runs them. */
static PyObject *series_open(PyObject *self, PyObject *args)
{
    FREE_OR_NULL(self);
    hk_py_world *s = (hk_py_world *)self;
    PyObject *dir;
    const char *formats;
    if (!PyArg_ParseTuple(args, "O&s:_series", PyUnicode_FSConverter, &dir, &formats)) return NULL;
    hk_frame_writer_close(s->series);
    char err[1024];
    s->series = hk_frame_writer_open(PyBytes_AS_STRING(dir), formats, err, sizeof err);
    Py_DECREF(dir);
    if (s->series) Py_RETURN_NONE;
    PyErr_SetString(strstr(err, "expected a comma-separated list") ? PyExc_ValueError : PyExc_OSError, err);
    return NULL;
}

static PyObject *series_write(PyObject *self, PyObject *unused)
{
    (void)unused;
    FREE_OR_NULL(self);
    hk_py_world *s = (hk_py_world *)self;
    char err[1024];
    if (!s->series) return PyErr_Format(PyExc_RuntimeError, "no frame series open");
    if (hk_frame_writer_write(s->series, s->w, err, sizeof err) == HK_OK) Py_RETURN_NONE;
    PyErr_SetString(PyExc_OSError, err);
    return NULL;
}

static PyObject *series_close(PyObject *self, PyObject *unused)
{
    (void)unused;
    hk_py_world *s = (hk_py_world *)self;
    hk_frame_writer_close(s->series);
    s->series = NULL;
    Py_RETURN_NONE;
}

static PyObject *world_repr(PyObject *o)
{
    hk_py_world *self = (hk_py_world *)o;
    if (!self->w) return PyUnicode_FromString("<hooke.World (not built)>");
    return PyUnicode_FromFormat("<hooke.World %R: %d particles, %lld springs, step %lld>", self->name,
                                hk_world_particles(self->w).count, (long long)hk_world_spring_count(self->w),
                                (long long)hk_world_step_count(self->w));
}

static PyMethodDef world_methods[] = {
    {"from_scene", (PyCFunction)(void (*)(void))from_scene, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_scene($type, /, path, threads=0)\n--\n\nReturns a World: reads a scene file (docs/scene-format.md) and "
     "builds its world as "
     "`hooke run` does. threads: 0 for hooke's default. SceneError for a bad scene, OSError for an unreadable file."},
    {"from_string", (PyCFunction)(void (*)(void))from_string, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_string($type, /, text, name='<scene>', threads=0)\n--\n\nReturns a World: the same from scene text; name "
     "stands for the file "
     "in messages, and mesh paths are relative to its folder."},
    {"step", (PyCFunction)(void (*)(void))hk_py_world_step, METH_FASTCALL | METH_KEYWORDS,
     "step($self, /, n=1)\n--\n\nn steps with the GIL released. BlowUp where `hooke run` would report one (checked on "
     "its "
     "cadence, every step for worlds up to 4096 particles + springs); Ctrl-C stops at the next step boundary with "
     "KeyboardInterrupt, the world at its last whole step."},
    {"run", (PyCFunction)(void (*)(void))hk_py_world_run, METH_VARARGS | METH_KEYWORDS,
     "run($self, /, steps=None, time=None, every=None, callback=None)\n--\n\nRuns to the end of the scene's run plan, "
     "or "
     "to step `steps` or time `time` (counted from 0, as hooke run --steps/--time), calling callback(world) at every "
     "step that is a multiple of every. Returns the steps taken."},
    {"stats", stats, METH_NOARGS,
     "stats($self, /)\n--\n\nA dict: kinetic, gravity, spring, total [J], max_stretch [1], broken; with strain limits "
     "their projection in the last step (strain_step, strain_before, strain_after, strain_min_before, strain_min_after "
     "[1], strain_projected, strain_sweeps, strain_unconverged, tethered); the linear solver's "
     "figures "
     "under an implicit integrator."},
    {"set_integrator", (PyCFunction)(void (*)(void))set_integrator, METH_VARARGS | METH_KEYWORDS,
     "set_integrator($self, /, name, *, dt=..., dt_max=..., jelly_dt_a=..., jelly_dt_v=..., jelly_alpha=..., "
     "cg_tolerance=..., cg_max_iterations=..., newton_iterations=..., newton_tolerance=..., iterations=..., "
     "chebyshev_rho=..., cg_stop=..., cg_preconditioner=...)\n--\n\n"
     "The integrator by name; the settings not given keep their values."},
    {"render", (PyCFunction)(void (*)(void))hk_py_render, METH_VARARGS | METH_KEYWORDS,
     "render($self, /, width=640, height=480)\n--\n\nThe picture a PNG frame draws of the world now (surfaces and "
     "springs coloured by stretch, the colour bar, the caption), the camera fitted to the bodies: a (height, width, "
     "3) uint8 numpy image, for a notebook (matplotlib's imshow). width and height 16 to 8192."},
    {"_run_plan", hk_py_world_run_plan, METH_VARARGS,
     "_run_plan($self, steps, time, every, /)\n--\n\nrun()'s plan for these arguments: steps, every."},
    {"_series", series_open, METH_VARARGS, "_series($self, dir, formats, /)\n--\n\nOpens a frame series."},
    {"_series_write", series_write, METH_NOARGS, "_series_write($self, /)\n--\n\nThe series' frame of now."},
    {"_series_close", series_close, METH_NOARGS, "_series_close($self, /)\n--\n\nEnds the series."},
    {"_add_springs", hk_py_world_add_springs, METH_VARARGS,
     "_add_springs($self, body, name, a, b, rest, k, damping, damping_model, behaviour, break_ratio, rest_length, "
     "strain_limit, compress_limit, /)"
     "\n--\n\nAdds a family of springs to a body (add_springs writes the arguments); returns its index."},
    {"_add", hk_py_world_add, METH_VARARGS,
     "_add($self, text, name, /)\n--\n\nAdds the bodies, spheres, colliders and contact of scene text (the add_* "
     "methods write it); returns the body count."},
    {"pin", (PyCFunction)(void (*)(void))hk_py_world_pin, METH_VARARGS | METH_KEYWORDS,
     "pin($self, /, body, index)\n--\n\nHolds particle `index` of body `body` (the body's own numbering) where it "
     "is: inverse mass 0, velocity 0. ValueError for a body or particle that does not exist."},
    {"set_strain_limits", (PyCFunction)(void (*)(void))hk_py_world_set_strain_limits, METH_VARARGS | METH_KEYWORDS,
     "set_strain_limits($self, /, family, strain_limit=0.0, compress_limit=0.0)\n--\n\nSets family `family`'s strain "
     "limits (fractions of its rest length; 0: none) from the next step on. ValueError for a family out of range or a "
     "limit a springs line refuses."},
    {"unpin", (PyCFunction)(void (*)(void))hk_py_world_unpin, METH_VARARGS | METH_KEYWORDS,
     "unpin($self, /, body, index)\n--\n\nFrees particle `index` of body `body` again, at rest where it is (inverse "
     "mass 1 / its mass; a free one stays as it is). ValueError for a body's driven anchor, or a body or particle "
     "that does not exist."},
    {"set_positions", hk_py_set_positions, METH_O,
     "set_positions($self, xyz, /)\n--\n\nMoves every particle to the (N, 3) positions xyz [m]; every value is checked "
     "before any is written (ValueError naming the first refused particle)."},
    {"set_masses", hk_py_set_masses, METH_O,
     "set_masses($self, m, /)\n--\n\nSets every particle's mass from the (N,) array m [kg]: every value checked "
     "before any is written (ValueError naming the first refused particle); a pinned particle stays pinned."},
    {"set_applied_forces", hk_py_set_applied_forces, METH_O,
     "set_applied_forces($self, f, /)\n--\n\nApplies the (N, 3) forces f [N] to the particles, added to gravity, drag "
     "and the ground in every force evaluation until set again or cleared (a pinned particle ignores its own); every "
     "value is checked before any is written (ValueError naming the first refused particle). Not saved in "
     "checkpoints; the energy bound is off while any is applied."},
    {"clear_applied_forces", hk_py_clear_applied_forces, METH_NOARGS,
     "clear_applied_forces($self, /)\n--\n\nRemoves every applied force (zeroes them; a view of applied_force_arrays "
     "writes again after applied_force_arrays is called again)."},
    {"applied_force_arrays", hk_py_applied_force_arrays, METH_NOARGS,
     "applied_force_arrays($self, /)\n--\n\nThe applied forces [N] as an (N, 3) writable view of the world's own "
     "arrays (in the build's precision), applied from now on: write into it before each step, no copy and no checks "
     "(a value that is not finite shows as a blow-up). Valid until bodies are added (none can be while it lives)."},
    {"set_targets", hk_py_set_targets, METH_VARARGS,
     "set_targets($self, particles, positions, /)\n--\n\nDrives the (K,) particles to the (K, 3) positions [m]: from "
     "the next step each moves along the line from where it is to its target at the constant velocity the springs "
     "see, and ends the step there; it keeps its target (held there, at rest) until given another or released. A "
     "driven particle has inverse mass 0 (its mass is kept). Every value is checked before any is set (IndexError, "
     "ValueError naming the particle). Not saved in checkpoints; the energy bound is off while any is set."},
    {"clear_targets", (PyCFunction)(void (*)(void))hk_py_clear_targets, METH_VARARGS | METH_KEYWORDS,
     "clear_targets($self, /, particles=None)\n--\n\nReleases the (K,) particles from their targets (None: every "
     "driven one): free again with the velocity they were last driven at, or pinned at rest where they were pinned "
     "before their first target."},
    {"set_velocities", hk_py_set_velocities, METH_O,
     "set_velocities($self, v, /)\n--\n\nSets every particle's velocity to the (N, 3) values v [m/s]; every value is "
     "checked before any is written (ValueError naming the first refused particle)."},
    {"write_frame", (PyCFunction)(void (*)(void))write_frame, METH_VARARGS | METH_KEYWORDS,
     "write_frame($self, /, dir, formats='vtk')\n--\n\nWrites the state as frame_<step>.<ext> in dir (made with its "
     "missing parents; OSError where it cannot be)."},
    {"save_checkpoint", hk_py_save_checkpoint, METH_O,
     "save_checkpoint($self, path, /)\n--\n\nWrites the program's checkpoint (hooke run --restart reads it)."},
    {"restore_checkpoint", hk_py_restore_checkpoint, METH_O,
     "restore_checkpoint($self, path, /)\n--\n\nRestores a checkpoint of this scene (from this module or hooke run)."},
    {"save_state", hk_py_save_state, METH_NOARGS,
     "save_state($self, /)\n--\n\nThe world's checkpoint as bytes, in memory: everything its next steps depend on."},
    {"restore_state", hk_py_restore_state, METH_O,
     "restore_state($self, state, /)\n--\n\nRestores bytes from save_state of this world or one built the same way;\n"
     "the whole state is checked before the world is touched."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef world_getset[] = {
    {"name", get_name, NULL, "the scene's path or name", NULL},
    {"time", get_time, NULL, "simulated time [s]", NULL},
    {"step_count", get_step_count, NULL, "steps taken", NULL},
    {"state_hash", get_state_hash, NULL, "64-bit FNV-1a hash of positions and velocities (hooke run's state_hash)",
     NULL},
    {"threads", get_threads, set_threads,
     "threads the world's passes run on; set it to n (1 to 4096, or 0: hooke's default) for the steps from now on",
     NULL},
    {"run_settings", get_run_settings, NULL, "the scene's run section, as given (0: not given)", NULL},
    {"run_plan", get_run_plan, NULL, "the run as hooke run runs it: steps, every, stretch_limit, every_given", NULL},
    {"integrator", get_integrator, NULL, "the integrator's settings", NULL},
    {"bodies", get_bodies, NULL, "the bodies: kind, first, count, shape, springs, origin [m]", NULL},
    {"families", get_families, NULL, "the spring families, with their place in the per-spring arrays", NULL},
    {"positions", hk_py_positions, NULL, "(N, 3) float64 positions [m]: a copy (origin + rest + displacement)", NULL},
    {"velocities", hk_py_velocities, NULL, "(N, 3) velocities [m/s]: a read-only view on the world's arrays", NULL},
    {"forces", hk_py_forces, NULL, "(N, 3) forces of the last evaluation [N]: a read-only view", NULL},
    {"displacements", hk_py_displacements, NULL,
     "(N, 3) displacements from the rest positions [m]: a read-only view (position = body origin + rest + this)", NULL},
    {"rest_positions", hk_py_rest_positions, NULL,
     "(N, 3) rest positions in each body's frame [m]: a read-only view (bodies[b]['origin'] is the frame's)", NULL},
    {"applied_forces", hk_py_applied_forces, NULL, "(N, 3) float64 applied forces [N]: a copy (zeros where none)",
     NULL},
    {"targets", hk_py_targets, NULL,
     "((K,) int64 particles, (K, 3) float64 targets [m]): the driven particles, in the order first set (copies)", NULL},
    {"masses", hk_py_masses, NULL, "(N,) masses [kg]: a read-only view", NULL},
    {"inverse_masses", hk_py_inverse_masses, NULL, "(N,) inverse masses [1/kg], 0 pinned: a read-only view", NULL},
    {"rest_lengths", hk_py_spring_values, NULL, "(S,) float64 rest length of every spring [m]", (void *)0},
    {"spring_lengths", hk_py_spring_values, NULL, "(S,) float64 length of every spring now [m]", (void *)1},
    {"stretch", hk_py_spring_values, NULL, "(S,) float64 r / L0 of every spring [1]", (void *)2},
    {"broken", hk_py_spring_values, NULL, "(S,) bool: the springs that have broken", (void *)3},
    {"springs", hk_py_springs, NULL,
     "(S, 2) int64: the two particles each spring joins (its vector x_a - x_b), in the order of the per-spring "
     "arrays",
     NULL},
    {"faces", hk_py_faces, NULL,
     "(F, 3) int64: the surface triangles of the cloth, mesh, icosphere and jelly bodies, as frames draw them "
     "(outward counter-clockwise where a body is closed; a cloth cell whose structural spring broke left out)",
     NULL},
    {"face_bodies", hk_py_faces, NULL, "(F,) int64: the body of each of `faces`", (void *)1},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject hk_py_world_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "hooke.World",
    .tp_basicsize = sizeof(hk_py_world),
    .tp_dealloc = world_dealloc,
    .tp_repr = world_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A hooke world: particles and springs built from a scene (World.from_scene, World.from_string). One "
              "Python thread at a time uses it; different worlds step in different threads at once.",
    .tp_methods = world_methods,
    .tp_getset = world_getset,
    .tp_new = hk_py_world_new,
};
