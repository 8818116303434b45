/* scene_section.h — what a scene section is (keys, families, kinds, the open section) and its keys looked up by offset.
 */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_SCENE_SECTION_H
#define HOOKE_SCENE_SECTION_H

#include <stddef.h>
#include <stdint.h>

#include "hooke/hooke.h"
#include "scene_lex.h"

#define SC_MAX_KEYS 20
#define SC_MAX_FAMILIES 8
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define SC_MAX_BODY_PARTICLES (1 << 13) /* the fuzz build (tests/fuzz): small worlds, many inputs a second */
#else
#define SC_MAX_BODY_PARTICLES (1 << 28) /* per body; the builders set the real limits */
#endif
#define SC_COUNT_UNKNOWN (-1)    /* a body's particle count is only known when built */
#define SC_ADD_REPORTED (-1000)  /* an add hook that wrote its own error (below every hk_status) */
#define SC_NO_FIELD ((size_t)-1) /* a key kept by the section itself (pins, points, file) */
#define SC_MAX_ITEMS 32          /* item kinds (sphere and the bodies) */

typedef enum sc_key_type {
    T_NUM,        /* one number: double */
    T_INT,        /* one integer in [lo, hi]: int */
    T_INT64,      /* one integer in [lo, hi]: int64_t */
    T_VEC,        /* three numbers: hk_vec3 */
    T_CHOICE,     /* one name from choices: int (its index, or values[index]) */
    T_INTEGRATOR, /* an integrator name: hk_integrator_kind */
    T_PINS,       /* one or more particle indices (the section's pins) */
    T_POINT,      /* points body: x y z mass [vx vy vz], repeatable */
    T_SPRING,     /* points body: A B [FAMILY] [rest_length L], repeatable */
    T_FILE,       /* one file name, relative to the scene file's directory */
    T_SCHEDULE,   /* world: keyframes TIME GX GY GZ, one or more (sc_settings schedule) */
} sc_key_type;

/* One key: where its value goes (offsetof into the section's descriptor) and what it accepts. */
typedef struct sc_key {
    const char *name;
    sc_key_type type;
    sc_check ck;
    int required;
    size_t off;                 /* SC_NO_FIELD for the section's own keys */
    int64_t lo, hi;             /* T_INT, T_INT64 */
    const char *const *choices; /* T_CHOICE: indexed by value; NULL entries are not accepted */
    int nchoices;
    const int *values; /* T_CHOICE: the value of each choice; NULL: its index */
    int tether;        /* 1: the value goes into the section's sc_tether (off within it), not the descriptor */
} sc_key;

/* A body's tethers as its keys `tethers` and `tether_stretch` give them (hk_world_set_tethers after its pins). */
typedef struct sc_tether {
    int kind;       /* hk_tether_kind */
    double stretch; /* [1] */
} sc_tether;

/* One spring family of a `springs FAMILY ...` line: an hk_spring_params in the descriptor. */
typedef struct sc_family {
    const char *name;
    size_t off;
} sc_family;

/* Where a key or a springs line was given; line 0 = not given. */
typedef struct sc_given {
    int line, col;
    int vcol; /* column of its first value */
} sc_given;

typedef struct sc_located {
    int v, line, col;
} sc_located;

/* A spring family a body names in its file besides its kind's (body points): its parameters, where its `springs`
 * line declares it and where a `spring` line first names it (line 0: not yet). */
typedef struct sc_named {
    char name[HK_FAMILY_NAME_MAX + 1];
    hk_spring_params params;
    sc_given decl, use;
} sc_named;

typedef struct sc_section sc_section;
typedef struct sc_item sc_item;

/* A section (world, run, ground, walls) or an item kind (sphere, body rope, ...). */
typedef struct sc_kind {
    const char *word;  /* the word that opens it ("world", "sphere"), or the body kind after "body" */
    const char *title; /* for messages: "world", "body rope" */
    int body;          /* 1: opened as `body WORD` and counted as a body */
    const sc_key *keys;
    int nkeys;
    const sc_family *families; /* for `springs` lines; NULL: none */
    int nfamilies;
    size_t base;             /* sections: where in sc_settings the keys write */
    size_t size;             /* items: bytes of the descriptor the keys write */
    void (*init)(void *def); /* defaults, before the first key; NULL: zeros */
    /* Rules between keys and derived fields, at `end`; items set *count to their particles (or
     * SC_COUNT_UNKNOWN). 0, or -1 with the error written. NULL: none. */
    int (*finish)(sc_section *s, void *def, int64_t *count);
    /* Items: builds the body; its index, -1 (the builder failed) or SC_ADD_REPORTED. */
    int (*add)(hk_world *w, const sc_item *it, sc_lexer *lx);
    int late; /* items: added after every other item (colliders, which are checked against every spring) */
    /* Items whose `springs` lines may name families besides `families` (body points): the parameters of the family
     * the line's token 1 names, to write; NULL with the error written. NULL hook: only `families`. */
    hk_spring_params *(*declare)(sc_section *s);
} sc_kind;

/* Everything the settings sections write. */
typedef struct sc_settings {
    hk_world_def world;
    hk_integrator_def integrator;
    int64_t steps, every;
    double time, stretch_limit;
    hk_contact_def contact;        /* the `contact` section (contact.bodies and contact.self 0 without one) */
    int contact_line, contact_col; /* where its thickness was given */
    double *schedule;              /* gravity_schedule: 4 values a keyframe (time [s], g [m/s^2]), NULL: none */
    int nschedule;                 /* keyframes */
    sc_given schedule_at;          /* where it was given */
} sc_settings;

/* The open section. */
struct sc_section {
    const sc_kind *kind;
    sc_lexer *lx;
    int line;    /* of the section word */
    int end_col; /* of `end`, once reached */
    void *def;   /* where the keys write: the item's descriptor, or into the settings */
    void *owned; /* items: def, allocated */
    sc_given vals[SC_MAX_KEYS];
    sc_given fams[SC_MAX_FAMILIES];
    sc_given limit; /* the first springs line's strain_limit or compress_limit (line 0: none) */
    sc_tether tether;
    sc_given tether_at; /* the key `tethers` (line 0: not given) */
    sc_located *pins;
    int npins, cappins;
    hk_vec3 *pos, *vel; /* points body */
    double *mass;
    int npoints, cappoints;
    sc_located *sa, *sb;
    int *sfam;     /* each spring's family: -1 the kind's own (main), i >= 0 named[i] */
    double *srest; /* each spring's own rest length [m]; 0: its family's */
    int nsprings, capsprings;
    sc_named *named; /* the families named besides the kind's, in the order first named */
    int nnamed, capnamed;
    char *file; /* the file as written */
    /* what the body will hold besides its particles, for the memory estimate (hk_memory_need), set by its finish
     * hook: spring families of its lattice (an upper bound), listed springs, 1 for a one-row lattice (a rope) */
    int lattice_families, one_row;
    int64_t list_springs;
};

/* A closed item, built once the whole file is read. */
struct sc_item {
    const sc_kind *kind;
    int line; /* the line that opens it */
    int end_line, end_col;
    void *def; /* owned */
    sc_located *pins;
    int npins;
    hk_vec3 *pos, *vel;
    double *mass;
    int npoints;
    int *sa, *sb;
    int *sfam;     /* as the section's */
    double *srest; /* as the section's */
    int nsprings;
    sc_named *named; /* as the section's */
    int nnamed;
    char *file;              /* path resolved against the scene's directory */
    int file_line, file_col; /* where 'file' was given */
    int64_t count;           /* particles, or SC_COUNT_UNKNOWN (a mesh: known when its file is read) */
    int lattice_families, one_row;
    int64_t list_springs; /* as the section's */
    sc_given limit;       /* as the section's */
    sc_tether tether;     /* as the section's */
    sc_given tether_at;   /* as the section's */
};

/* Hook helpers. Keys and families are named by their offset in the descriptor; one the
 * section does not have is a programming error: it aborts, naming `field` and the section. */
#define SC_GIVEN(s, type, field) sc_given_at((s), offsetof(type, field), #field)
#define SC_FAMILY(s, type, field) sc_family_at((s), offsetof(type, field), #field)
/* The index of kind k's key at offset off of its descriptor. */
int sc_key_index(const sc_kind *k, size_t off, const char *field);
/* The names of hk_tether_kind, by value (scene_kinds.c). */
extern const char *const sc_tether_kinds[];
const sc_given *sc_given_at(const sc_section *s, size_t off, const char *field);
const sc_key *sc_key_at(const sc_section *s, size_t off, const char *field);
const sc_given *sc_family_at(const sc_section *s, size_t off, const char *field);
/* Error at the key at off (when absent: the current line, column 1); fmt has one %s, the key's name. */
int sc_fail_key(sc_section *s, size_t off, const char *field, const char *fmt);
#define SC_FAIL_KEY(s, type, field, fmt) sc_fail_key((s), offsetof(type, field), #field, (fmt))
/* The mesh of an item's `file` key, read and checked (hk_mesh_load): 0, or
 * -1 with "cannot load mesh: PATH[:LINE]: why" reported at the key. */
int sc_load_mesh(const sc_item *it, sc_lexer *lx, hk_mesh *m);
/* "springs family 'NAME' WHY" at its line. */
int sc_fail_family(sc_section *s, size_t off, const char *field, const char *why);
#define SC_FAIL_FAMILY(s, type, field, why) sc_fail_family((s), offsetof(type, field), #field, (why))

#endif
