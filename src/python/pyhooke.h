/* pyhooke.h — what the files of the Python module _hooke share: the World object, its exceptions, numpy's API. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PYHOOKE_H
#define HOOKE_PYHOOKE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "diagnosis.h"
#include "hooke/hooke.h"
#include "scene.h"

/* A world built from a scene, with what `hooke run` keeps beside it. */
typedef struct hk_py_world {
    PyObject_HEAD hk_world *w;
    PyObject *name;          /* the scene's path or name (str), for messages */
    hk_run_settings run;     /* the scene's run section */
    hk_run_plan plan;        /* hk_run_plan_of(run) */
    hk_energy_guard guard;   /* the energy bound, as `hooke run` keeps it (diagnosis.h) */
    uint64_t digest;         /* the scene's digest for checkpoints (checkpoint.h) */
    int64_t check_every;     /* the blow-up check's cadence (hk_check_cadence) */
    int64_t items;           /* particles and springs: a step's work, for whether a call releases the GIL */
    int busy;                /* a call is stepping it with the GIL released: others get RuntimeError */
    int64_t views;           /* views of its particle arrays alive (arrays.c): no body is added while one lives */
    hk_frame_writer *series; /* the frame series write_frames writes (world_type.c), or NULL */
} hk_py_world;

extern PyTypeObject hk_py_world_type;

/* hooke.Error, hooke.SceneError, hooke.BlowUp (errors.c; module.c makes them) */
extern PyObject *hk_py_error, *hk_py_scene_error, *hk_py_blowup;

/* 0 if self can be used now; -1 with RuntimeError while another thread steps it (or it was never built). Called
 * with the GIL held, which makes the test of `busy` and its setting by the caller one step for Python threads. */
static inline int hk_py_world_free_to_use(hk_py_world *self)
{
    if (!self->w) {
        PyErr_SetString(PyExc_RuntimeError, "World: not built (use World.from_scene or World.from_string)");
        return -1;
    }
    if (!self->busy) return 0;
    PyErr_SetString(PyExc_RuntimeError, "world in use: another thread is stepping this World");
    return -1;
}

/* Raises hooke.SceneError from a loader's message "FILE:LINE:COL: error: MESSAGE" (or "FILE: error: ..."). NULL. */
PyObject *hk_py_scene_error_raise(const char *text);
/* Raises hooke.BlowUp with the program's report (hk_report_blowup): b NULL is an energy runaway at energy e. NULL. */
PyObject *hk_py_blowup_raise(hk_py_world *self, const hk_blowup *b, double energy);

/* world_make.c: a loaded scene finished into a World of `type` as hooke run finishes it (the scene freed either
 * way; text NULL: the digest from the scene's file name); the program's base world definition (0, or -1 with
 * ValueError). */
PyObject *hk_py_world_of_scene(PyTypeObject *type, hk_scene *sc, const char *name, int threads, const char *text,
                               size_t len);
int hk_py_base_def(hk_world_def *base);
struct sc_kind;
/* build.c: the value the choice key `key` of the format's table `kind` (io/scene/scene_kinds.h) gives `word`; 0, or
 * -1 with ValueError listing the names the format takes (`who`: the Python call, for the message). */
int hk_py_choice(const struct sc_kind *kind, const char *who, const char *key, const char *word, int *out);
/* build.c: the format's name of `value` for the choice key `key` of `kind`, or NULL with SystemError. */
const char *hk_py_choice_name(const struct sc_kind *kind, const char *who, const char *key, int value);
/* 0 if `threads` is a thread count a World takes (0: hooke's default, to HK_MAX_THREADS); else -1 with ValueError. */
int hk_py_threads_refused(long long threads);
/* self's world made ready to step from its state now, as a loaded scene's is: its passes planned (hk_world_optimise),
 * the energy bound started, the blow-up cadence and the work a step takes counted. 0, or -1 with ValueError naming
 * `name`. */
int hk_py_world_ready(hk_py_world *self, const char *name);
/* A World of `type` from len bytes of scene text named `name` (hk_scene_parse_counted; settings_only: a world of no
 * body yet, hk_scene_parse_settings), on `threads` threads (0: hooke's default); NULL with SceneError or ValueError. */
PyObject *hk_py_world_of_text(PyTypeObject *type, const char *text, size_t len, const char *name, int threads,
                              int settings_only);

/* The World's methods and properties, by file (world_type.c lists them). */
PyObject *hk_py_world_new(PyTypeObject *type, PyObject *args, PyObject *kw); /* build.c */
PyObject *hk_py_world_add(PyObject *self, PyObject *args);
PyObject *hk_py_world_pin(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_world_set_strain_limits(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_world_unpin(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_world_add_springs(PyObject *self, PyObject *args);
PyObject *hk_py_scene_tables(PyObject *module, PyObject *unused); /* _hooke.scene_tables() */
/* How a stretch of steps ended (stepping.c). */
enum { HK_PY_DONE, HK_PY_BLOWUP, HK_PY_FAILED, HK_PY_SIGNAL };
typedef struct hk_py_advance {
    int how;     /* HK_PY_* */
    int status;  /* HK_PY_FAILED: hk_world_step's status */
    int bad;     /* HK_PY_BLOWUP: 1 hk_world_check found it (b), 0 the energy bound did */
    hk_blowup b; /* HK_PY_BLOWUP with bad */
    double e;    /* HK_PY_BLOWUP: the total energy when the bound was passed [J] */
} hk_py_advance;
/* One step of self and the check `hooke run` makes after it where the step count is a multiple of `every` (or
 * `last`), or after a failed implicit solve: 1 when the steps stop there (a blow-up or a failure, in *a), else 0.
 * Needs no GIL; the caller has marked self busy. */
int hk_py_step_checked(hk_py_world *self, int64_t every, int last, hk_py_advance *a);
/* The exception for a stretch that did not end well (BlowUp, hooke.Error, MemoryError; a signal's is set): -1, or 0
 * when it ended well. */
int hk_py_raise_for(hk_py_world *self, const hk_py_advance *a);
PyObject *hk_py_world_step(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames); /* stepping.c */
PyObject *hk_py_world_run(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_world_run_plan(PyObject *self, PyObject *args);
int hk_py_arrays_ready(void); /* arrays.c (the only user of numpy's API): imports it; 0, or -1 with ImportError */
PyObject *hk_py_set_positions(PyObject *self, PyObject *xyz);
PyObject *hk_py_set_velocities(PyObject *self, PyObject *v);
PyObject *hk_py_set_masses(PyObject *self, PyObject *m);
PyObject *hk_py_set_applied_forces(PyObject *self, PyObject *f);
PyObject *hk_py_clear_applied_forces(PyObject *self, PyObject *unused);
PyObject *hk_py_applied_forces(PyObject *self, void *closure);
PyObject *hk_py_applied_force_arrays(PyObject *self, PyObject *unused);
PyObject *hk_py_set_targets(PyObject *self, PyObject *args);
PyObject *hk_py_clear_targets(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_targets(PyObject *self, void *closure);
PyObject *hk_py_positions(PyObject *self, void *closure);
PyObject *hk_py_velocities(PyObject *self, void *closure);
PyObject *hk_py_forces(PyObject *self, void *closure);
PyObject *hk_py_rest_positions(PyObject *self, void *closure);
PyObject *hk_py_displacements(PyObject *self, void *closure);
PyObject *hk_py_masses(PyObject *self, void *closure);
PyObject *hk_py_inverse_masses(PyObject *self, void *closure);
PyObject *hk_py_spring_values(PyObject *self, void *closure); /* closure: which (arrays.c) */
PyObject *hk_py_springs(PyObject *self, void *closure);
PyObject *hk_py_render(PyObject *self, PyObject *args, PyObject *kw);
PyObject *hk_py_faces(PyObject *self, void *closure);            /* closure: NULL the triangles, else their bodies */
PyObject *hk_py_save_checkpoint(PyObject *self, PyObject *path); /* checkpoints.c */
PyObject *hk_py_restore_checkpoint(PyObject *self, PyObject *path);
PyObject *hk_py_save_state(PyObject *self, PyObject *unused);
PyObject *hk_py_restore_state(PyObject *self, PyObject *state);

/* batch.c: _hooke._step_batch(worlds, n, threads), the steps of hooke.Batch */
PyObject *hk_py_step_batch(PyObject *module, PyObject *args);
PyObject *hk_py_batch_threads(PyObject *module, PyObject *args);

#endif
