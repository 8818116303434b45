/* dev_world.h — what the device holds of a world: its arrays, each body's terms, each surface's faces. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_DEV_WORLD_H
#define HOOKE_DEV_WORLD_H

#include "dev_abi.h"
#include "exec.h"
#include "world.h"

typedef struct hk_device hk_device;

/* Lattice family f as the device's passes read it, its broken flags those on the device (NULL: none). */
hkd_fam hk_dev_fam(const hk_family *f, uint8_t *broken);
/* The bytes of family fi's broken flags: a lattice's by its body's node, a list's by spring. */
size_t hk_dev_broken_bytes(const hk_world *w, int fi);

/* A body as the device steps it. */
typedef struct dev_body {
    hkd_term *term; /* host: the terms of a node's sum in the CPU's order (a node pass carries them) */
    int *lists;     /* host: its list families (indices into w->families) in the engine's order, or NULL */
    int nlist;
    int nfam, nterm;
    int sum;                            /* HKD_SUM_*: how its nodes sum the terms */
    int32_t inside_lo[3], inside_hi[3]; /* the nodes every term has */
    int surface;                        /* its active surface (wind), or -1 */
} dev_body;

/* A list family's springs on the device (NULL: not a list family). */
typedef struct dev_list {
    int32_t *a, *b; /* the ends */
    hk_real *rest;  /* each spring's rest length, or NULL */
    hk_real *rv[3]; /* each spring's rest vector, or NULL */
} dev_list;

/* A surface's faces on the device. */
typedef struct dev_surface {
    int *face, *vf_start, *vf_face; /* device copies (surface.h) */
    double *face_f, *face_n;        /* device scratch, 3 per face */
    double *block, *pv;             /* pressure: device scratch, a partial volume per face block; P and V */
} dev_surface;

/* The device's memory for a check's sums (dev_sums.c): the particles' blocks' FINITE and ENERGY parts, every
 * family's SCAN blocks and descriptor, the bodies' firsts and origins, the folded record. */
typedef struct dev_sums_mem {
    int64_t *first, *scan_first;
    hkd_scan_fam *scan_fam; /* each family as SCAN reads it */
    hk_particle_sums *part;
    hk_scan_part *scan;
    int64_t *body_first;
    double *origin;
    hk_device_sums *out;
    int64_t blocks, *host_scan_first; /* host: each family's first block in scan (families + 1) */
    int usable;                       /* 1: made; -1: this world's particles are not its bodies' in order */
} dev_sums_mem;

/* What the device holds of a world (device.h). */
struct hk_device {
    const hkd_driver *drv;
    void *module; /* the driver's module (dlopen), NULL for the host driver */
    void *ctx;
    hk_device_info info;
    /* what the device was made for: a body, family, particle, sphere or surface added since makes it again */
    int bodies, families, particles, surfaces;
    hk_real *q[2][3], *v[2][3]; /* the state, double-buffered: a fused update reads [cur], writes [1 - cur] */
    int cur;
    hk_real *f[3], *r[3], *mass, *inv_mass;
    hk_real *prev[3];     /* position Verlet's history (NULL until a scheme keeps one) */
    hk_real *scratch[12]; /* RK4's start state and stage sums (NULL until RK4 runs) */
    dev_body *body;
    dev_surface *surf;
    uint8_t **broken;  /* per family: its broken flags on the device, or NULL */
    dev_list *list;    /* per family: a list family's springs on the device */
    dev_sums_mem sums; /* the check's sums (dev_sums.c), made at the first check */
    int failed;        /* a driver call failed: the device's state is lost (error says why) */
    char error[512];
};

/* Makes w's device of driver drv on its device 0 and loads w's state (dev_world.c): 0; -1 with why where the driver
 * finds no device (or the world cannot be planned); -2 with why where it found one that could not take the world
 * (its memory, a failed copy). The driver's module (dlopen's, or NULL) is the device's from a 0 (hk_dev_release
 * closes it), the caller's after a failure. */
int hk_dev_attach(hk_world *w, const hkd_driver *drv, void *module, char *why, size_t n);
/* Loads w's state onto its device again (after the host wrote it): 0 or -1 (w's error). */
int hk_dev_upload(hk_world *w);
/* Brings the device's state back into w's arrays: the world's hook (w->device_pull, world.h hk_state_read). */
void hk_dev_pull(hk_world *w);
/* Frees the device's memory, closes its driver and unloads its module. */
void hk_dev_release(hk_device *d);
/* The device's array of n reals, or NULL (the failure recorded). */
hk_real *hk_dev_reals(hk_device *d, size_t n);

/* One pass of a on d over elements [0, n) (*count: the elements whose step returned 1; NULL: not needed, the pass
 * may still be running); a failure is d's (failed, error). */
void hk_dev_run(hk_device *d, const hkd_args *a, int64_t n, long long *count);
/* n bytes from the device's dev into host (after every pass before it); a failure is d's. */
void hk_dev_get(hk_device *d, void *host, const void *dev, size_t n);
/* The device's x, y, z arrays of a state vector as a pass reads them. */
static inline hkd_vec hk_dev_vec(hk_real *const a[3])
{
    hkd_vec v = {{a[0], a[1], a[2]}};
    return v;
}

/* The device's passes of a step (dev_step.c; world/exec.h): step.c tells the step in them. */
extern const hk_exec hk_dev_exec;

#endif
