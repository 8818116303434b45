/* scene_keys.h — the macros that write the scene format's tables: a key, a choice, a family, a body row. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_KEYS_H
#define HOOKE_SCENE_KEYS_H

#include <stddef.h>

#include "scene_section.h"

/* Each key writes through offsetof straight into its section's descriptor;
 * the macros check the field's C type against the key's type. */

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof *(a)))
/* offsetof(T, f), a compile error unless the field f has C type `ty` */
#define AT(T, f, ty) (offsetof(T, f) + 0 * sizeof(_Generic(((T *)0)->f, ty : 1)))
/* offsetof(T, f) of an enum field (written as an int) */
#define AT_ENUM(T, f) (offsetof(T, f) + 0 * sizeof(char[sizeof(((T *)0)->f) == sizeof(int) ? 1 : -1]))

#define REQ 1
#define OPT 0
#define NUM(T, n, f, c, r)                                                                                             \
    {                                                                                                                  \
        .name = n, .type = T_NUM, .ck = c, .required = r, .off = AT(T, f, double)                                      \
    }
#define VEC(T, n, f, c, r)                                                                                             \
    {                                                                                                                  \
        .name = n, .type = T_VEC, .ck = c, .required = r, .off = AT(T, f, hk_vec3)                                     \
    }
#define INT(T, n, f, l, h, r)                                                                                          \
    {                                                                                                                  \
        .name = n, .type = T_INT, .required = r, .off = AT(T, f, int), .lo = l, .hi = h                                \
    }
#define INT64(T, n, f, l, h, r)                                                                                        \
    {                                                                                                                  \
        .name = n, .type = T_INT64, .required = r, .off = AT(T, f, int64_t), .lo = l, .hi = h                          \
    }
#define CHOICE(T, n, f, set)                                                                                           \
    {                                                                                                                  \
        .name = n, .type = T_CHOICE, .off = AT_ENUM(T, f), .choices = set, .nchoices = COUNT_OF(set)                   \
    }
#define CHOICE_OF(T, n, f, set, vals)                                                                                  \
    {                                                                                                                  \
        .name = n, .type = T_CHOICE, .off = AT(T, f, int), .choices = set, .nchoices = COUNT_OF(set), .values = vals   \
    }
#define OWN(n, t, r)                                                                                                   \
    {                                                                                                                  \
        .name = n, .type = t, .required = r, .off = SC_NO_FIELD                                                        \
    }
#define PINS OWN("pin", T_PINS, OPT)
/* A body's long-range tethers (sc_tether; scene_kinds.c tether_kinds) */
#define TETHERS                                                                                                        \
    {.name = "tethers",                                                                                                \
     .type = T_CHOICE,                                                                                                 \
     .off = offsetof(sc_tether, kind),                                                                                 \
     .choices = sc_tether_kinds,                                                                                       \
     .nchoices = HK_TETHERS_GEODESIC + 1,                                                                              \
     .tether = 1},                                                                                                     \
    {                                                                                                                  \
        .name = "tether_stretch", .type = T_NUM, .ck = CK_NONNEG, .off = offsetof(sc_tether, stretch), .tether = 1     \
    }
#define FAMILY(T, n, f)                                                                                                \
    {                                                                                                                  \
        n, AT(T, f, hk_spring_params)                                                                                  \
    }

/* keys, nkeys (at most SC_MAX_KEYS); families, nfamilies (at most SC_MAX_FAMILIES) */
#define KEYS(a) .keys = a, .nkeys = COUNT_OF(a) + 0 * (int)sizeof(char[COUNT_OF(a) <= SC_MAX_KEYS ? 1 : -1])
#define FAMILIES(a)                                                                                                    \
    .families = a, .nfamilies = COUNT_OF(a) + 0 * (int)sizeof(char[COUNT_OF(a) <= SC_MAX_FAMILIES ? 1 : -1])
#define BODY(w) .word = w, .title = "body " w, .body = 1

#endif
