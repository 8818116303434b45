/* springs.h — spring families: construction, the scalar reference force kernel, energy, breaking. */
#ifndef HOOKE_SPRINGS_H
#define HOOKE_SPRINGS_H

#include "world.h"

/* Adds a lattice (stencil) family to a lattice body: node (i,j,k) joins node
 * (i+di, j+dj, k+dk) wherever both exist. Its rest vector D is the rest
 * offset di A + dj B + dk C of the body's lattice, and the rest length |D|
 * unless params->rest_length > 0. */
hk_family *hk_add_lattice_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int di,
                                 int dj, int dk);

/* Adds a list family joining global particles a[s] - b[s] of one body; rest
 * lengths are the initial lengths (as the kernels compute them) unless
 * params->rest_length > 0. Returns 0 or -1. */
int hk_add_list_family(hk_world *w, int body, const char *name, const hk_spring_params *params, int64_t count,
                       const int *a, const int *b);

/* The vector d = x_a - x_b of spring `slot` of f (global ends a, b) as the
 * kernels form it: (q_a - q_b) - D, D the family's rest vector (lattice),
 * the spring's (a list in a lattice body) or 0 [m]. */
static inline void hk_spring_delta(const hk_family *f, const hk_particles *p, int64_t slot, int64_t a, int64_t b,
                                   hk_real d[3])
{
    d[0] = p->qx[a] - p->qx[b];
    d[1] = p->qy[a] - p->qy[b];
    d[2] = p->qz[a] - p->qz[b];
    if (f->kind == HK_FAMILY_LATTICE)
        for (int c = 0; c < 3; c++) d[c] -= f->rest_vec[c];
    else if (f->rvec[0])
        for (int c = 0; c < 3; c++) d[c] -= f->rvec[c][slot];
}

/* Marks springs of breakable families that are past break_ratio * L0 as
 * broken; returns how many broke now. */
int64_t hk_springs_break(hk_world *w);
/* One pass over every unbroken spring: their potential energy, the largest
 * r / L0 and the first spring (in family then slot order) that has it. The
 * same bits for any thread count. */
typedef struct hk_spring_scan {
    double energy;      /* sum 1/2 k (r - L0)^2 over active springs [J] */
    double max_stretch; /* largest r / L0 [1] (0 without springs) */
    int family;         /* that spring's family, or -1 */
    int64_t slot;       /* its slot within the family, or -1 */
} hk_spring_scan;
hk_spring_scan hk_springs_scan(const hk_world *w);

/* Calls visit(f, spring_slot, a, b, L0, ctx) for every unbroken spring of f
 * (a, b: global particle indices; slot: index into f->broken). */
typedef void (*hk_spring_visitor)(const hk_family *f, int64_t slot, int64_t a, int64_t b, hk_real L0, void *ctx);
void hk_springs_visit(const hk_family *f, hk_spring_visitor visit, void *ctx);

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