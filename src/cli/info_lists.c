/* info_lists.c — `hooke info --list WHAT`: integrators, scene keys, body kinds, frame formats, world fields, one a
 * line. */
/* SPDX-License-Identifier: MIT */
#include "info_lists.h"

#include <string.h>

#include "device_drivers.h"
#include "frames.h"
#include "hooke/hooke.h"
#include "scene_kinds.h"
#include "world_def.h"

const char hk_info_lists[] = "integrators, keys, bodies, formats, world-fields";

static void integrators(FILE *out)
{
    for (int k = 0; k < HK_INTEGRATOR_COUNT; k++) {
        const hk_integrator_info *in = hk_integrator_info_of((hk_integrator_kind)k);
        fprintf(out, "%s%s%s\n", in->name, in->alias ? " " : "", in->alias ? in->alias : "");
    }
}

static void keys_of(FILE *out, const char *section, const sc_kind *d)
{
    for (int k = 0; k < d->nkeys; k++) fprintf(out, "%s %s\n", section, d->keys[k].name);
}

static void keys(FILE *out)
{
    for (int s = 0; s < SC_SECTION_COUNT; s++) keys_of(out, sc_sections[s].word, &sc_sections[s]);
    keys_of(out, sc_springs_line.word, &sc_springs_line);
    for (int i = 0; i < sc_item_count; i++) keys_of(out, sc_items[i].title, &sc_items[i]);
}

static void bodies(FILE *out)
{
    for (int i = 0; i < sc_item_count; i++) {
        if (!sc_items[i].body) continue;
        fprintf(out, "%s", sc_items[i].word);
        for (int f = 0; f < sc_items[i].nfamilies; f++) fprintf(out, " %s", sc_items[i].families[f].name);
        fprintf(out, "\n");
    }
}

static void formats(FILE *out)
{
    for (int i = 0; hk_frame_format_at(i); i++) {
        const hk_frame_format *f = hk_frame_format_at(i);
        fprintf(out, "%s %s %s\n", f->name, f->extension ? f->extension : "-", f->description);
    }
}

static void world_fields(FILE *out)
{
    int n;
    const hk_field *f = hk_world_def_fields(&n);
    char rule[96];
    for (int i = 0; i < n; i++) {
        hk_field_text(&f[i], rule, sizeof rule);
        fprintf(out, "%s: %s\n", f[i].name, rule);
    }
    fprintf(out, "kernels: NULL or \"\" (the widest path), or a path this CPU and build run (hooke info)\n");
    fprintf(out, "task_hook: {NULL} (OpenMP's threads), or a host's pool (hooke.h hk_task_hook) with threads >= 1\n");
    char drivers[160];
    hk_device_driver_names(drivers, sizeof drivers);
    fprintf(out,
            "device_driver: NULL or \"\" (the first of cuda, openmp that finds a GPU), or %s (hooke info lists the "
            "GPUs)\n",
            drivers);
}

int hk_info_list(FILE *out, const char *what)
{
    static const struct {
        const char *name;
        void (*print)(FILE *out);
    } lists[] = {
        {"integrators", integrators},   {"keys", keys}, {"bodies", bodies}, {"formats", formats},
        {"world-fields", world_fields},
    };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (strcmp(what, lists[i].name) == 0) {
            lists[i].print(out);
            return 0;
        }
    return -1;
}
