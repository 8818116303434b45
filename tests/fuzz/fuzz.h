/* fuzz.h — what the libFuzzer harnesses share: an input as text, and a finding reported as a crash. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_FUZZ_H
#define HOOKE_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hooke/hooke.h"

/* The input as a NUL-terminated copy (free it), or NULL when it holds a NUL
 * byte: the file readers refuse those before any parser sees them. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    if (memchr(data, '\0', size)) return NULL;
    char *text = malloc(size + 1);
    if (!text) abort();
    memcpy(text, data, size);
    text[size] = '\0';
    return text;
}

/* A broken promise of the code under test (not a crash by itself): say
 * which, and abort so libFuzzer saves the input. */
#define FUZZ_REQUIRE(cond, ...)                                                                                        \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond);                                           \
            fprintf(stderr, __VA_ARGS__);                                                                              \
            fputc('\n', stderr);                                                                                       \
            abort();                                                                                                   \
        }                                                                                                              \
    } while (0)

/* A refused input's message names the input first ("NAME:..." or "NAME: ..."). */
static inline int fuzz_names(const char *err, const char *name)
{
    const size_t n = strlen(name);
    return strncmp(err, name, n) == 0 && err[n] == ':' && err[n + 1] != '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What a run does next with a world a harness got: one step (fuzz_steps: `steps` of them), the statistics and the
 * blow-up check; on small worlds with few substeps only, with an implicit solve cut to one Newton iteration of at most
 * 20 CG iterations (a minimising-only scheme, bdf2: to at most 30 Newton iterations of at most 20), an iterated one to
 * FUZZ_MAX_SWEEPS sweeps, and contact between bodies cut to FUZZ_MAX_PAIRS candidate pairs, so every input takes
 * milliseconds (a valid scene may ask for a billion substeps a step, 100 Newton iterations of a billion CG
 * iterations, 10 000 sweeps, or a step so long that every pair of its triangles and edges is near: some 100 000 swept
 * tests for 127 particles, seconds in the fuzz build). */
#define FUZZ_MAX_PAIRS 16384
#define FUZZ_MAX_SWEEPS 4
static inline void fuzz_steps(hk_world *w, double stretch_limit, int steps)
{
    if (hk_world_particles(w).count > 512 || hk_world_substeps(w) > 4) return;
    hk_contact_def c = hk_world_contact(w);
    if ((c.bodies || c.self) && c.max_pairs > FUZZ_MAX_PAIRS) {
        c.max_pairs = FUZZ_MAX_PAIRS;
        if (hk_world_set_contact(w, &c) != 0) return;
    }
    hk_integrator_def d = hk_world_integrator(w);
    const hk_integrator_info *info = hk_integrator_info_of(d.kind);
    if (info && info->implicit && (d.newton_iterations > 1 || d.cg_max_iterations == 0 || d.cg_max_iterations > 20)) {
        if (info->linearised) d.newton_iterations = 1; /* a minimising-only scheme (bdf2) keeps its minimisation */
        d.cg_max_iterations = d.cg_max_iterations == 0 || d.cg_max_iterations > 20 ? 20 : d.cg_max_iterations;
        if (hk_world_set_integrator(w, &d) != 0) return;
    }
    if (info && info->iterated && d.iterations > FUZZ_MAX_SWEEPS) {
        d.iterations = FUZZ_MAX_SWEEPS;
        if (hk_world_set_integrator(w, &d) != 0) return;
    }
    hk_blowup b;
    for (int i = 0; i < steps; i++) hk_world_step(w); /* no blow-up check between: whatever a state becomes */
    (void)hk_world_stats(w);
    (void)hk_world_check(w, stretch_limit, &b);
}

static inline void fuzz_step(hk_world *w, double stretch_limit) { fuzz_steps(w, stretch_limit, 1); }

#endif
