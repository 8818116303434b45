/* runs.h — the public API's runs: the energy bound, the blow-up check's cadence and report, checkpoints and state
 * files (what `hooke run` keeps beside a world, for any host); part of hooke.h, which includes it: include that. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RUNS_H
#define HOOKE_RUNS_H

#ifndef HOOKE_H
#error "include hooke/hooke.h, which includes this header where its types are defined"
#endif

#include <stdio.h>

/* ------------------------------------------------------------------------ */
/* The energy bound and the blow-up check of a run (core/step/diagnosis.c)  */

/* A world's total energy (kinetic + gravitational + spring) may swing but
 * not grow without bound unless something feeds it. A run counts the
 * energy as run away once it exceeds its start by HK_ENERGY_GROWTH times
 * the starting scale, plus what float rounding explains: a stable
 * symplectic scheme at omega*dt = 1.99 swings by less (from rest, by
 * 1 / (1 - omega dt / 2), 50 at omega*dt = 1.96).
 *
 * The rounding: every substep rounds each particle's position and velocity
 * (a few times, over an integrator's stages), each by at most u (the unit
 * roundoff of hk_real: 6e-8 in float) of its value, which moves gravity's
 * energy by at most u m |g| |q| and the kinetic energy by u m |v|^2. In a
 * body that falls, both are of the work gravity has done, W = |G - G0|:
 * m |g| |q| sums to W and m v^2 to 2 W. So after N substeps rounding
 * explains up to HK_ENERGY_ROUNDING u N W (4 roundings of 3 u W each; a
 * cloth falling freely for 100 s drifts by 0.7 u N W). W is the energy in
 * motion that rounding acts on; a runaway's own energy is not in it (an
 * integrator that adds energy to springs moves no mass down), so a runaway
 * is caught where it always was. */
#define HK_ENERGY_GROWTH 100.0
#define HK_ENERGY_ROUNDING 12.0

typedef struct hk_energy_guard {
    int active;       /* 0: the world has an energy source (source says which); no bound */
    double e0;        /* total energy at the run's start (step 0, also after a restart) [J] */
    double scale;     /* the starting scale: the largest of |E0|, the sum of its terms' magnitudes, and the
                       * energy of every spring stretched by 1 % of its rest length [J] */
    double g0;        /* gravity's energy at the start [J] */
    double moved;     /* the energy in motion: the largest work gravity has done, |G - G0|, seen so far [J] */
    char source[160]; /* what feeds the world energy, when not active */
} hk_energy_guard;

/* The bound of w at its current state: active unless the world has wind,
 * pressure bodies, driven anchors that move, or moving spheres. */
HK_API void hk_energy_guard_init(hk_energy_guard *g, const hk_world *w);
/* The drift rounding explains after `substeps` substeps from the start [J]. */
HK_API double hk_energy_rounding(const hk_energy_guard *g, int64_t substeps);
/* Takes the statistics s of the state after `substeps` substeps from the
 * start (the work gravity has done into moved); 1 when the energy is past
 * the bound: s->total - e0 > HK_ENERGY_GROWTH * scale + hk_energy_rounding. */
HK_API int hk_energy_runaway(hk_energy_guard *g, const hk_stats *s, int64_t substeps);

/* How often a run checks for a blow-up (hk_world_check_stats and the
 * energy bound), in steps: on steps s with s % cadence == 0, by the
 * problem's size alone (diagnosis.c says why): 1 up to 4096 particles +
 * springs, then 16, and 32, 64, ... up to 256 from 2^17 of them; 1 with
 * contact between bodies. `hooke
 * run` and the Python module's World.step check on it. */
HK_API int64_t hk_check_cadence(const hk_world *w);

/* How a run ended in a blow-up, and why: the report on `out`, then the
 * hint that names the likely cause with its numbers: for an explicit
 * integrator, omega*dt near or past its stability limit ("lower dt") or,
 * far below it, a spring overstretched by the load or the initial state
 * ("check masses and stiffnesses"); for an implicit one, the terms it
 * takes explicitly or the solver. With b NULL it reports an energy runaway
 * at energy energy_e after `substeps` substeps from the start. */
HK_API void hk_report_blowup(FILE *out, const hk_world *w, const hk_blowup *b, const hk_energy_guard *g,
                             double energy_e, int64_t substeps, const char *scene, double stretch_limit);

/* ------------------------------------------------------------------------ */
/* Checkpoints and state files (io/checkpoint)                              */

/* The scene digest a checkpoint carries: 64-bit FNV-1a over the bytes of
 * the scene file, then of every file it loaded (its meshes, in scene
 * order), so a checkpoint is refused once any of them has changed. Returns
 * 0 and sets *digest, or -1 with "FILE: cannot read ..." in err. */
HK_API int hk_checkpoint_digest(const char *scene_path, const char *const *files, int nfiles, uint64_t *digest,
                                char *err, size_t errlen);
/* The same digest of a scene given as text (len bytes: a file's bytes give
 * its digest), for hosts that parse scenes from memory (the Python module). */
HK_API int hk_checkpoint_digest_text(const char *text, size_t len, const char *const *files, int nfiles,
                                     uint64_t *digest, char *err, size_t errlen);

/* Writes everything that affects future steps of w and the outputs of its
 * state (its contacts), with the run's energy guard (above), to
 * path: to "path.tmp" first, fsync, then rename over path, so an
 * interrupted write leaves the previous checkpoint intact. Returns 0, or -1
 * with a message in err. */
HK_API int hk_checkpoint_write(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                               char *err, size_t errlen);

/* The bytes hk_checkpoint_write writes, in memory: *out (malloc'd, the
 * caller frees it) of *len bytes, for a world of one process. Returns 0,
 * or -1 with "NAME: ..." in err (out of memory; a world shared out over
 * ranks, whose checkpoint is pieces). */
HK_API int hk_checkpoint_bytes(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest,
                               unsigned char **out, size_t *len, const char *name, char *err, size_t errlen);
/* Restores w (built from the same scene file) and the energy guard's start
 * (e0, scale, g0, moved; its active flag and source stay the scene's) from
 * a checkpoint. The whole file is read and checked (magic, version,
 * length, checksum, scene digest, counts) before w is touched: on any
 * error w and guard are unchanged and -1 is returned with "FILE:
 * checkpoint ..." in err. */
HK_API int hk_checkpoint_read(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const char *path, char *err,
                              size_t errlen);

/* The same checks and restore on the len bytes of a checkpoint in memory (a
 * fuzz harness's entry point); name stands for the file in messages. */
HK_API int hk_checkpoint_parse(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const unsigned char *data,
                               size_t len, const char *name, char *err, size_t errlen);

/* Format (docs/state-format.md): a header line
 *   # hooke state v1 particles=N time=T steps=S real=float|double
 * then one line per particle: "index x y z vx vy vz inv_mass" with enough
 * digits to round-trip exactly, written whole to path (path.tmp, then renamed).
 * Returns 0 or -1 (errno set). */
HK_API int hk_state_write_file(const hk_world *w, const char *path);

#endif
