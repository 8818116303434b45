/* world_make.c — a loaded scene finished into a hooke.World as `hooke run` finishes it, on the program's base world. */
/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "env.h"
#include "pyhooke.h"

int hk_py_world_ready(hk_py_world *self, const char *name)
{
    hk_world *w = self->w;
    if (hk_world_optimise(w, 0) != HK_OK) {
        PyErr_Format(PyExc_ValueError, "%s: %s", name, hk_world_error(w));
        return -1;
    }
    hk_energy_guard_init(&self->guard, w);
    self->check_every = hk_check_cadence(w);
    self->items = hk_world_particles(w).count + hk_world_spring_count(w);
    return 0;
}

/* Finishes a loaded scene as `hooke run` does before its first step (the integrator set, the springs coloured and
 * the passes planned, the threads), with the run's plan, energy guard, cadence and digest. A new reference, or NULL
 * with the exception set; the scene is freed either way. */
PyObject *hk_py_world_of_scene(PyTypeObject *type, hk_scene *sc, const char *name, int threads, const char *text,
                               size_t len)
{
    char err[1024];
    uint64_t digest = 0;
    const int undigested =
        text ? hk_checkpoint_digest_text(text, len, (const char *const *)sc->files, sc->file_count, &digest, err,
                                         sizeof err)
             : hk_checkpoint_digest(name, (const char *const *)sc->files, sc->file_count, &digest, err, sizeof err);
    if (undigested) {
        hk_scene_free(sc);
        PyErr_SetString(PyExc_OSError, err);
        return NULL;
    }
    /* the run's plan; a state no run could start from is the scene's error, as in hooke run */
    const hk_run_settings run = hk_scene_run_settings(sc);
    hk_run_plan plan;
    if (hk_run_plan_of(&run, &plan, NULL, 0) != HK_OK) /* no run length: run() asks for one */
        plan.stretch_limit = run.stretch_limit > 0 ? run.stretch_limit : HK_STRETCH_LIMIT;
    if (hk_start_refused(sc->world, plan.stretch_limit, sc->body_line, name, err, sizeof err)) {
        hk_scene_free(sc);
        return hk_py_scene_error_raise(err);
    }
    hk_py_world *self = (hk_py_world *)type->tp_alloc(type, 0);
    if (!self) {
        hk_scene_free(sc);
        return NULL;
    }
    self->digest = digest;
    self->run = run;
    self->plan = plan;
    hk_world *w = self->w = hk_scene_take_world(sc);
    if (!(self->name = PyUnicode_FromString(name))) goto fail;
    if (threads > 0 && hk_world_set_threads(w, threads) != HK_OK) {
        PyErr_Format(PyExc_ValueError, "%s: %s", name, hk_world_error(w));
        goto fail;
    }
    if (hk_py_world_ready(self, name) != 0) goto fail;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* The program's base definition of every world: the environment's tuning (env.h). 0, or -1 with ValueError. */
int hk_py_base_def(hk_world_def *base)
{
    char why[256];
    if (hk_env_world_def(base, why, sizeof why) == 0) return 0;
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

int hk_py_threads_refused(long long threads)
{
    if (threads >= 0 && threads <= HK_MAX_THREADS) return 0;
    PyErr_Format(PyExc_ValueError, "threads must be 0 (hooke's default) to %d (got %lld)", HK_MAX_THREADS, threads);
    return -1;
}

PyObject *hk_py_world_of_text(PyTypeObject *type, const char *text, size_t len, const char *name, int threads,
                              int settings_only)
{
    if (hk_py_threads_refused(threads)) return NULL;
    hk_world_def base;
    if (hk_py_base_def(&base) != 0) return NULL;
    hk_scene sc;
    char err[1024];
    memset(&sc, 0, sizeof sc);
    PyThreadState *ts = PyEval_SaveThread();
    const int rc = settings_only ? hk_scene_parse_settings(text, len, name, &base, &sc, err, sizeof err)
                                 : hk_scene_parse_counted(text, len, name, &base, &sc, err, sizeof err);
    PyEval_RestoreThread(ts);
    if (rc != 0) {
        hk_scene_free(&sc);
        return hk_py_scene_error_raise(err);
    }
    return hk_py_world_of_scene(type, &sc, name, threads, text, len);
}
