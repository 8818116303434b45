/* springs.h — spring families: construction, the scalar reference force kernel, energy, breaking. */
#ifndef HOOKE_SPRINGS_H
#define HOOKE_SPRINGS_H

#include "world.h"

/* Adds a lattice (stencil) family to a lattice body: node (i,j,k) joins node
 * (i+di, j+dj, k+dk) wherever both exist. The rest length is the initial
 * distance `spacing * |(di,dj,dk)|` unless params->rest_length > 0. */
hk_family *hk_add_lattice_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int di,
                                 int dj, int dk, double spacing);

/* Adds a list family joining global particles a[s] - b[s]; rest lengths are the
 * initial distances unless params->rest_length > 0. Returns 0 or -1. */
int hk_add_list_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int64_t count,
                       const int *a, const int *b);

/* Marks springs of breakable families that are past break_ratio * L0 as
 * broken; returns how many broke now. */
int64_t hk_springs_break(hk_world *w);
/* Spring potential energy [J] and the largest r / L0 over unbroken springs. */
void hk_springs_energy(const hk_world *w, double *energy, double *max_stretch);

/* Calls visit(f, spring_slot, a, b, L0, ctx) for every unbroken spring of f
 * (a, b: global particle indices; slot: index into f->broken). */
typedef void (*hk_spring_visitor)(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx);
void hk_springs_visit(const hk_family *f, hk_spring_visitor visit, void *ctx);

/* The family and slot of the most stretched unbroken spring (r / L0 in
 * *ratio); -1 if there are no springs. */
int hk_springs_max_stretch(const hk_world *w, int64_t *slot, double *ratio);

/* On a function with scalar spring loops: build it twice where the compiler
 * can pick at load time, with the fused multiply-add instruction for CPUs
 * that have it and calling libm's fma elsewhere (both round once: the same
 * bits). Left out under the sanitizers, whose start-up precedes the pick. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) /* GCC */
#define HK_SANITIZED 1
#elif defined(__has_feature) /* clang */
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HK_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(HK_SANITIZED)
#define HK_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define HK_FMA_CLONES
#endif

#endif