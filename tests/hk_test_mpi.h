/* hk_test_mpi.h — what the tests over MPI ranks share (test_mpi.c, test_mpi_pieces.c): the launcher, the state
 * hash of a run, the scenes both run, a rank's pid, a stats file's rows. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_MPI_H
#define HK_TEST_MPI_H

/* needs _POSIX_C_SOURCE >= 200809L before the first include (hk_test_cli.h) */
#include "hk_test_cli.h"

#include <dirent.h>

#ifndef HOOKE_MPIEXEC
#error "HOOKE_MPIEXEC (the MPI launcher, FindMPI's MPIEXEC_EXECUTABLE) must be defined by the build"
#endif

#define SCENE(name) HOOKE_SCENES_DIR "/" name

/* A lattice body large enough to be split into slabs (more work than a
 * solo body), hung from two corners, pressed against a sphere from the
 * first step (contacts on every rank's rows). */
static const char cloth_scene[] = "world\n  gravity 0 -9.81 0\n  air_drag 2e-5\nend\n"
                                  "sphere\n  center 0.43 0.92 0.43\n  radius 0.1\n  loss 0.2\nend\n"
                                  "body cloth\n  nx 72\n  ny 72\n  spacing 0.012\n  origin 0 1 0\n  u 1 0 0\n"
                                  "  v 0 0 1\n  mass 2e-4\n  pins two_corners\n"
                                  "  springs structural k 200 damping 0.02\n  springs shear k 50 damping 0.02\n"
                                  "  springs bend k 20 damping 0.02\nend\n"
                                  "run\n  integrator semi_implicit_euler\n  dt 2.5e-4\n  steps 200\nend\n";

/* A curtain whose springs break past 1.02 L0: breaking across slab edges (its lattices' broken masks). */
static const char tearing_scene[] = "world\n  gravity 0 -9.81 0\nend\n"
                                    "body cloth\n  nx 80\n  ny 60\n  spacing 0.02\n  origin 0 1 0\n  u 1 0 0\n"
                                    "  v 0 -1 0\n  mass 0.01\n  pins edge\n"
                                    "  springs structural k 200 damping 0.05 behaviour breakable break_ratio 1.02\n"
                                    "  springs shear k 100 damping 0.05 behaviour breakable break_ratio 1.02\n"
                                    "  springs bend k 50 damping 0.05 behaviour breakable break_ratio 1.02\nend\n"
                                    "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  steps 120\nend\n";

/* A stiff cloth under the implicit integrator (multigrid), in slabs on
 * whole units of 32 rows: 4 of them, split over up to 4 ranks (test_mpi.c
 * runs it with the energy rule too). */
#define IMPLICIT_CLOTH_UNDER(integrator)                                                                               \
    "world\n  gravity 0 -9.81 0\n  air_drag 1e-5\nend\n"                                                               \
    "body cloth\n  nx 64\n  ny 128\n  spacing 0.01\n  origin 0 1 0\n  u 1 0 0\n"                                       \
    "  v 0 0 1\n  mass 1e-4\n  pins two_corners\n"                                                                     \
    "  springs structural k 20000 damping 0.05 damping_model relative\n"                                               \
    "  springs shear k 20000 damping 0.05 damping_model relative\n"                                                    \
    "  springs bend k 20000 damping 0.05 damping_model relative\nend\n"                                                \
    "run\n  integrator " integrator "\n  dt 0.00416666666666667\n  steps 6\n"
#define IMPLICIT_CLOTH IMPLICIT_CLOTH_UNDER("implicit_euler")
static const char implicit_scene[] = IMPLICIT_CLOTH "end\n";
/* The same cloth under BDF2 (two states a step: the history of 6 arrays travels in checkpoints' pieces). */
static const char bdf2_scene[] = IMPLICIT_CLOTH_UNDER("bdf2") "end\n";

static const char *scene_file(const char *name, const char *text)
{
    const char *path = hk_test_own_path(name);
    hk_test_write(path, text);
    return path;
}

/* `hooke ARGS` as one process (ranks 0: no launcher) or under the MPI
 * launcher on `ranks` processes; a run that does not end within 5 minutes
 * is a hang (timeout's status 124). */
static inline hk_run launch(int ranks, const char *args)
{
    char pre[512];
    if (ranks == 0)
        snprintf(pre, sizeof pre, "timeout 300");
    else
        snprintf(pre, sizeof pre, "timeout 300 '%s' --oversubscribe --allow-run-as-root -n %d", HOOKE_MPIEXEC, ranks);
    return hk_test_hooke(pre, args);
}

static inline hk_run launch_ok(int ranks, const char *args)
{
    hk_run r = launch(ranks, args);
    if (r.status != 0) {
        print_error("%d ranks: hooke %s\nexit %d\nstdout: %s\nstderr: %s\n", ranks, args, r.status, r.out, r.err);
        fail();
    }
    return r;
}

/* The state_hash of the summary line (0x + 16 digits) into out[19]. */
static inline void hash_of(const hk_run *r, char out[19])
{
    const char *h = hk_test_field(r->out, "state_hash");
    if (!h) {
        print_error("no state_hash= in: %s\n", r->out);
        fail();
    }
    memcpy(out, h, 18);
    out[18] = '\0';
}

/* Whether VTK's Python modules were found (HOOKE_VTK_PYTHON: the frames over ranks are read by VTK's own reader). */
static inline void need_vtk(void)
{
    if (!HOOKE_VTK_PYTHON[0]) {
        print_error("no python3 with VTK's modules (Debian's python3-vtk9, .ci/deps): the frames cannot be read\n");
        fail();
    }
}

/* The pid of a child of process `parent` (a rank mpirun started on this node), or -1. */
static inline pid_t child_of(pid_t parent)
{
    DIR *d = opendir("/proc");
    assert_non_null(d);
    pid_t found = -1;
    for (struct dirent *e; found < 0 && (e = readdir(d)) != NULL;) {
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        long pid = 0, ppid = 0;
        if (fgets(line, sizeof line, f)) { /* pid (comm) state ppid: comm may hold spaces, so from its ')' */
            const char *close = strrchr(line, ')');
            pid = atol(line);
            if (close) sscanf(close + 1, " %*c %ld", &ppid);
        }
        fclose(f);
        if (ppid == (long)parent) found = (pid_t)pid;
    }
    closedir(d);
    return found;
}

/* Data rows in a stats file (0 when it does not exist yet). */
static inline int rows_in(const char *path)
{
    char *text = hk_test_slurp(path);
    int n = -1;
    for (char *c = text; c && *c; c++) n += *c == '\n';
    free(text);
    return n < 0 ? 0 : n;
}

#endif
