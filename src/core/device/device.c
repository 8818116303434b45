/* device.c — where a world's steps run: the GPU asked for, found and opened, or refused by name; the public calls. */
/* SPDX-License-Identifier: MIT */
#include "device.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "dev_sums.h"
#include "dev_world.h"
#include "fpmode.h"
#include "integrators.h"
#include "tethers.h"

/* w->device_on: not decided yet, the CPU, a GPU */
enum { ON_UNDECIDED = 0, ON_CPU, ON_GPU };

/* What the device does not run, in the order a user meets it; each named as the scene or the call names it. */
int hk_device_refuses(const hk_world *w, char *why, size_t n)
{
#ifdef HOOKE_DOUBLE
    snprintf(why, n,
             "this build's double precision (-DHOOKE_DOUBLE=ON): the device runs the float build, whose "
             "arithmetic a GPU repeats bit for bit (a GPU keeps double subnormals the CPU flushes)");
    return 1;
#endif
    const hk_integrator_info *in = hk_integrator_info_of(w->integrator.kind);
    if (!in->device) { /* the integrator table's device column */
        char runs[512] = "";
        for (int k = 0, len = 0; k < HK_INTEGRATOR_COUNT; k++) {
            const hk_integrator_info *ik = hk_integrator_info_of((hk_integrator_kind)k);
            if (ik->device && len < (int)sizeof runs)
                len += snprintf(runs + len, sizeof runs - (size_t)len, "%s%s", len ? ", " : "", ik->name);
        }
        snprintf(why, n, "the %sintegrator %s (the device runs %s)", in->implicit ? "implicit " : "", in->name, runs);
        return 1;
    }
    const hk_contact_def c = hk_world_contact(w);
    if (c.bodies || c.self) {
        snprintf(why, n, "contact between bodies or within one (the scene's contact section, hk_world_set_contact)");
        return 1;
    }
    if (w->applied_on) {
        snprintf(why, n, "applied forces (hk_world_set_applied_forces: the device's passes add none)");
        return 1;
    }
    if (hk_world_targets(w, NULL, NULL) > 0) {
        snprintf(why, n, "kinematic targets (hk_world_set_targets: the device's passes drive no particle)");
        return 1;
    }
    if (w->tethers && w->tethers->on > 0) {
        snprintf(why, n, "tethers (a body's tethers key, hk_world_set_tethers: the device's passes project none)");
        return 1;
    }
    for (int fi = 0; fi < w->family_count; fi++)
        if (w->families[fi].params.strain_limit > 0 || w->families[fi].params.compress_limit > 0) {
            snprintf(why, n,
                     "strain limits (family %s's strain_limit or compress_limit: the device's passes project "
                     "no spring)",
                     w->families[fi].name);
            return 1;
        }
    if (hk_world_collider_count(w) > 0) {
        snprintf(why, n,
                 "colliders (the scene's %d collider section%s: mesh, box and capsule colliders run on the CPU)",
                 hk_world_collider_count(w), hk_world_collider_count(w) == 1 ? "" : "s");
        return 1;
    }
    if (w->part) {
        snprintf(why, n, "MPI ranks (a run over ranks shares the world out on the CPUs; the device runs one process)");
        return 1;
    }
    if (!w->kernels) {
        snprintf(why, n,
                 "the reference kernels (HOOKE_KERNELS=reference: the oracle's sums, in an order of their "
                 "own; the device computes the engine's)");
        return 1;
    }
    return 0;
}

static void say(char *why, size_t n, const char *text)
{
    if (why && n) snprintf(why, n, "%s", text);
}

/* The GPU's driver opened and w's state loaded there: 0; else why (every driver's reason) and -1 where no driver
 * found a GPU, -2 where one found a GPU that could not take the world (out of its memory, say). */
static int attach(hk_world *w, char *why, size_t n)
{
    char reasons[2048] = "";
    int found = 0;
    for (int k = 0;; k++) {
        const char *name = w->def.device_driver ? (k == 0 ? w->def.device_driver : NULL) : hk_device_gpu_drivers[k];
        if (!name) break;
        void *module;
        char reason[1024] = "";
        const struct hkd_driver *drv = hk_device_driver(name, &module, reason, sizeof reason);
        const int rc = drv ? hk_dev_attach(w, drv, module, reason, sizeof reason) : -1;
        if (rc == 0) {
            w->device_sums = hk_dev_sums; /* a check's sums where the state lies */
            return 0;
        }
        found |= rc == -2;
        if (module) dlclose(module);
        const size_t len = strlen(reasons);
        snprintf(reasons + len, sizeof reasons - len, "%s%s", len ? "; " : "", reason);
    }
    snprintf(why, n, "%s", reasons);
    return found ? -2 : -1;
}

/* The GPU does not take the world (what, then reason, says why): under --device auto the CPU takes it, said so;
 * else the world fails, saying that. */
static int declined(hk_world *w, char *why, size_t n, int autom, const char *what, const char *reason)
{
    char text[3072];
    if (autom) {
        w->device_on = ON_CPU;
        snprintf(text, sizeof text, "cpu (auto: %s%s)", what, reason);
        say(why, n, text);
        return HK_DEVICE_CPU;
    }
    snprintf(text, sizeof text, "%s%s", what, reason);
    say(why, n, text);
    hk_fail(w, "%s", text);
    return w->fail_code = HK_ERR_UNSUPPORTED;
}

int hk_device_resolve(hk_world *w, char *why, size_t n)
{
    char text[3072];
    if (w->device_on == ON_GPU) { /* made already: again if the world grew since */
        const hk_device *d = w->device;
        if (d->bodies == w->body_count && d->families == w->family_count && d->particles == w->p.count &&
            d->surfaces == w->surface_count) {
            snprintf(text, sizeof text, "gpu: %s (driver %s)", d->info.name, d->drv->name);
            say(why, n, text);
            return HK_DEVICE_GPU;
        }
        hk_state_read(w);
        hk_dev_release(w->device);
        w->device = NULL;
        w->device_pull = NULL;
        w->device_sums = NULL;
        w->device_on = ON_UNDECIDED;
    }
    if (w->device_on == ON_CPU || w->def.device == HK_DEVICE_CPU) {
        w->device_on = ON_CPU;
        say(why, n, w->def.device == HK_DEVICE_AUTO ? "cpu (auto: decided before)" : "cpu");
        return HK_DEVICE_CPU;
    }
    const int autom = w->def.device == HK_DEVICE_AUTO;
    char reason[2048];
    if (hk_device_refuses(w, reason, sizeof reason))
        return declined(w, why, n, autom, "the device does not run ", reason);
    const int attached = attach(w, reason, sizeof reason);
    if (attached != 0)
        return declined(w, why, n, autom, attached == -2 ? "the GPU could not take the world: " : "no GPU: ", reason);
    w->device_on = ON_GPU;
    snprintf(text, sizeof text, "gpu: %s (driver %s)", w->device->info.name, w->device->drv->name);
    say(why, n, text);
    return HK_DEVICE_GPU;
}

int hk_device_step(hk_world *w, const hk_exec **ex)
{
    *ex = NULL;
    if (w->def.device == HK_DEVICE_CPU || w->device_on == ON_CPU) return 0;
    if (w->step_failed) return 1; /* as on the CPU: no step until the integrator is set again */
    const int where = hk_device_resolve(w, NULL, 0);
    if (where == HK_DEVICE_CPU) return 0;
    if (where < 0) {
        w->step_failed = where;
        return 1;
    }
    char why[1024];
    if (hk_device_refuses(w, why, sizeof why)) { /* the integrator changed since */
        w->step_failed = HK_ERR_UNSUPPORTED;
        hk_fail(w, "the device does not run %s", why);
        return 1;
    }
    if (w->device_stale && hk_dev_upload(w) != 0) {
        w->step_failed = HK_ERR_UNSUPPORTED;
        return 1;
    }
    *ex = &hk_dev_exec;
    return 1;
}

int hk_device_wait(hk_world *w)
{
    hk_device *d = w->device;
    if (!d || d->failed) return d ? HK_ERR_UNSUPPORTED : HK_OK;
    if (d->drv->wait(d->ctx) != 0) {
        d->failed = 1;
        snprintf(d->error, sizeof d->error, "the device's passes failed: %s", d->drv->error(d->ctx));
        hk_fail(w, "device: %s", d->error);
        return w->step_failed = HK_ERR_UNSUPPORTED;
    }
    return HK_OK;
}

void hk_device_free(hk_world *w)
{
    hk_dev_release(w->device);
    w->device = NULL;
    w->device_pull = NULL;
    w->device_sums = NULL;
    w->device_newer = 0;
}

int hk_world_device(hk_world *w, char *why, size_t whylen)
{
    int rc;
    HK_FP_SCOPE rc = hk_device_resolve(w, why, whylen);
    return rc;
}

int hk_world_sync(hk_world *w)
{
    if (!w->device) return HK_OK;
    const int rc = hk_device_wait(w);
    if (rc != HK_OK) return rc;
    hk_state_read(w);
    return w->device && w->device->failed ? HK_ERR_UNSUPPORTED : HK_OK;
}
