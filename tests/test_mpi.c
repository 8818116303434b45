/* test_mpi.c — runs over MPI ranks (mpirun): one process's bits for any ranks x threads, outputs, failures, bench
 * (checkpoints and restarts: test_mpi_pieces.c). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_mpi.h"

#include <math.h>

/* A 12^3 jelly (26 neighbours: a halo of 13 rows) dropped on a spring ground, a sphere beside it. */
static const char jelly26_scene[] = "world\n  gravity 0 -9.81 0\nend\n"
                                    "ground\n  model spring\n  height -0.6\n  stiffness 5000\nend\n"
                                    "sphere\n  center 0.3 -0.3 0.2\n  radius 0.15\n  loss 0.2\nend\n"
                                    "body jelly\n  nx 12\n  ny 12\n  nz 12\n  spacing 0.05\n  origin 0 -0.58 0\n"
                                    "  mass 0.01\n  neighbours 26\n  springs K1 k 500\n  springs K2 k 250\n"
                                    "  springs K3 k 150\nend\n"
                                    "run\n  integrator jelly\n  dt 5e-4\n  jelly_alpha 0.9995\n  steps 200\nend\n";

/* A 12^3 jelly of 52 neighbours (a halo of 26 rows: wider than a slab of 4 ranks) against a wall. */
static const char jelly52_scene[] = "world\n  gravity 0 -9.81 0\nend\n"
                                    "walls\n  min -1 -1 -1\n  max 1 2 1\n  loss 0.3\nend\n"
                                    "body jelly\n  nx 12\n  ny 12\n  nz 12\n  spacing 0.05\n  origin -1.01 0.5 -0.2\n"
                                    "  mass 0.01\n  neighbours 52\n"
                                    "  springs K1 k 500\n  springs K2 k 250\n  springs K3 k 150\n"
                                    "  springs Kb1 k 200\n  springs Kb2 k 100\n  springs Kb3 k 60\nend\n"
                                    "run\n  integrator jelly\n  dt 5e-4\n  jelly_alpha 0.9995\n  steps 200\nend\n";

/* Ropes with an anchor over a ground: a short one (a solo body) and a long one (one row, more work than a
 * solo body). */
static const char rope_scene[] = "world\n  gravity 0 -9.81 0\n  air_drag 0.02\nend\n"
                                 "ground\n  model repulsion\n  height -1.5\n  repulsion 100\n  friction 0.2\n"
                                 "  absorption 2\nend\n"
                                 "body rope\n  count 80\n  mass 0.05\n  spacing 0.05\n  origin 0 0 0\n"
                                 "  direction 1 0 0\n  topology chain\n  anchor 1\n  anchor_velocity 0 0 0\n"
                                 "  springs chain k 10000 damping 0.2 damping_model relative rest_length 0.05\nend\n"
                                 "body rope\n  count 10000\n  mass 0.05\n  spacing 0.05\n  origin 0 -1.45 1\n"
                                 "  direction 1 0 0\n  topology chain\n  anchor 1\n  anchor_velocity 0 0.5 0\n"
                                 "  springs chain k 10000 damping 0.2 damping_model relative rest_length 0.05\nend\n"
                                 "run\n  integrator semi_implicit_euler\n  dt 0.0166666666666667\n  dt_max 0.002\n"
                                 "  steps 30\nend\n";

/* Two pressure balls (each owned whole by a rank: the second by another
 * than rank 0, so its volume and pressure reach rank 0 by the gather)
 * beside a cloth split into slabs. */
static const char pressure_scene[] =
    "world\n  gravity 0 -9.81 0\nend\n"
    "ground\n  model spring\n  height 0\n  stiffness 20000\nend\n"
    "body icosphere\n  radius 0.2\n  level 3\n  center 0 0.25 0\n  mass 0.005\n"
    "  nrt 300\n  pump_rate 0.01\n  springs edges k 400 damping 0.5\nend\n"
    "body icosphere\n  radius 0.2\n  level 3\n  center 1 0.6 0\n  mass 0.005\n"
    "  nrt 200\n  pump_rate 0.02\n  springs edges k 400 damping 0.5\nend\n"
    "body cloth\n  nx 64\n  ny 64\n  spacing 0.012\n  origin 2 1 0\n  u 1 0 0\n"
    "  v 0 0 1\n  mass 2e-4\n  pins two_corners\n"
    "  springs structural k 200 damping 0.02\n  springs shear k 50 damping 0.02\n"
    "  springs bend k 20 damping 0.02\nend\n"
    "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  dt_max 2e-4\n  steps 60\nend\n";

static const char implicit_energy_scene[] = IMPLICIT_CLOTH "  cg_stop energy\n  cg_tolerance 1e-3\nend\n";

/* One process on 1 thread, then R = 1..4 ranks x 1, 2 threads per rank:
 * every final state_hash equals the first, and the summary says ranks=R
 * (once: rank 0 alone prints). */
static void same_bits(const char *scene, const char *extra)
{
    char args[1024], ref[19], got[19];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 %s", scene, extra);
    hk_run one = launch_ok(0, args);
    hash_of(&one, ref);
    assert_null(hk_test_field(one.out, "ranks")); /* no launcher: not a run over ranks */
    hk_run_free(&one);
    for (int R = 1; R <= 4; R++)
        for (int T = 1; T <= 2; T++) {
            snprintf(args, sizeof args, "run '%s' --quiet --threads %d %s", scene, T, extra);
            hk_run r = launch_ok(R, args);
            hash_of(&r, got);
            const char *rk = hk_test_field(r.out, "ranks");
            assert_non_null(rk);
            assert_int_equal(atoi(rk), R);
            const char *line = strstr(r.out, "hooke: scene=");
            assert_non_null(line);
            assert_null(strstr(line + 1, "hooke: scene=")); /* one summary line */
            if (strcmp(got, ref) != 0) {
                print_error("%s %s: %d ranks x %d threads: state_hash %s, one process %s\n", scene, extra, R, T, got,
                            ref);
                fail();
            }
            hk_run_free(&r);
        }
}

static void cloth_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("cloth.scene", cloth_scene), "");
}

/* The integrators without a fused update: a force pass, then their own update over each rank's particles. */
static void cloth_other_integrators(void **state)
{
    (void)state;
    const char *scene = scene_file("cloth_i.scene", cloth_scene);
    static const char *const names[] = {"euler", "verlet", "velocity_verlet", "rk4"};
    char args[1024], ref[19], got[19];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps 40 --integrator %s", scene, names[i]);
        hk_run one = launch_ok(0, args);
        hash_of(&one, ref);
        hk_run_free(&one);
        for (int R = 2; R <= 3; R++) {
            snprintf(args, sizeof args, "run '%s' --quiet --threads %d --steps 40 --integrator %s", scene, R - 1,
                     names[i]);
            hk_run r = launch_ok(R, args);
            hash_of(&r, got);
            if (strcmp(got, ref) != 0) {
                print_error("%s on %d ranks: state_hash %s, one process %s\n", names[i], R, got, ref);
                fail();
            }
            hk_run_free(&r);
        }
    }
}

static void jelly26_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("jelly26.scene", jelly26_scene), "");
}

static void jelly52_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("jelly52.scene", jelly52_scene), "");
}

/* A rope of 40000 nodes (one row) over ranks: ranges of nodes, each in windows over the rank's threads; sunk into the
 * ground deeper along its length so that every spring pulls, with its anchor on rank 0. */
static const char long_rope_scene[] = "world\n  gravity 0 -9.81 0\nend\n"
                                      "ground\n  model spring\n  height -0.05\n  stiffness 50\nend\n"
                                      "body rope\n  count 40000\n  mass 0.001\n  spacing 0.001\n  origin 0 -0.051 0\n"
                                      "  direction 1 -0.0001 0\n  topology skip_one\n  anchor 1\n"
                                      "  springs chain k 200 damping 0.02\n  springs skip k 50 damping 0.02\nend\n"
                                      "run\n  integrator semi_implicit_euler\n  dt 1e-4\n  steps 60\nend\n";

static void rope_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("rope.scene", rope_scene), "");
    same_bits(scene_file("long_rope.scene", long_rope_scene), "");
}

static void pressure_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("pressure.scene", pressure_scene), "");
}

static void tearing_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("tearing.scene", tearing_scene), "");
}

static void implicit_same_bits(void **state)
{
    (void)state;
    same_bits(scene_file("implicit.scene", implicit_scene), "");
    same_bits(scene_file("implicit.scene", implicit_scene), "--integrator trapezoidal --steps 3");
    same_bits(scene_file("bdf2.scene", bdf2_scene), "--steps 4");
    same_bits(scene_file("implicit_e.scene", implicit_energy_scene), "");
    same_bits(SCENE("rope_implicit.scene"), "--steps 20");
}

/* Colliders (each particle alone, on the rank that computes it) and contact between bodies and within one (every
 * body that takes part whole on rank 0): the bits of one process. */
static void contact_same_bits(void **state)
{
    (void)state;
    same_bits(SCENE("cloth_box.scene"), "--steps 24");
    same_bits(SCENE("jelly_pile.scene"), "--steps 40");
    same_bits(SCENE("cloth_fold.scene"), "--steps 70");
    same_bits(SCENE("cloth_fold_particles.scene"), "--steps 70");
    same_bits(SCENE("cloth_fold_particles.scene"), "--steps 70 --integrator implicit_euler");
}

/* Every shipped scene (the .scene files of scenes/) over 2, 3 or 4 ranks in turn: the one-process hash after a few
 * steps (their start: the cut, each rank building its own rows, the first exchanges, every kind of body). */
static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int is_scene(const struct dirent *e)
{
    const size_t n = strlen(e->d_name);
    return n > 6 && strcmp(e->d_name + n - 6, ".scene") == 0;
}

/* Whether the text of the scene file at path holds `word`. */
static int scene_says(const char *path, const char *word)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    return strstr(text, word) != NULL;
}

static void shipped_scenes_same_bits(void **state)
{
    (void)state;
    struct dirent **names;
    const int n = scandir(HOOKE_SCENES_DIR, &names, is_scene, by_name);
    assert_true(n > 20);
    for (int i = 0; i < n; i++) {
        char scene[600], args[1024], ref[19], got[19];
        snprintf(scene, sizeof scene, "%s/%s", HOOKE_SCENES_DIR, names[i]->d_name);
        snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps 6", scene);
        hk_run one = launch_ok(0, args);
        hash_of(&one, ref);
        /* an integrator that iterates over the springs (xpbd, vbd, projective_dynamics) is refused over ranks, by
         * name, with the input's exit status */
        char integrator[64] = "";
        const char *in = hk_test_field(one.out, "integrator");
        if (in) snprintf(integrator, sizeof integrator, "%.*s", (int)strcspn(in, " \n"), in);
        hk_run_free(&one);
        const int R = 2 + i % 3; /* 2, 3 and 4 ranks in turn: same_bits runs the cases of each kind over all */
        const int kind = hk_integrator_from_name(integrator);
        /* strain limits and tethers (src/core/fabric) are refused over ranks the same way */
        const int fabric = scene_says(scene, "strain_limit") || scene_says(scene, "tethers");
        if (fabric || (kind >= 0 && hk_integrator_info_of((hk_integrator_kind)kind)->iterated)) {
            char want[128];
            if (fabric)
                snprintf(want, sizeof want, "and tethers do not run over MPI ranks");
            else
                snprintf(want, sizeof want, "%s does not run over MPI ranks", integrator);
            hk_run r = launch(R, args);
            if (r.status != 1 || !strstr(r.err, want)) {
                print_error("%s: %d ranks: exit %d, stderr %s (want 1 and \"%s\")\n", scene, R, r.status, r.err, want);
                fail();
            }
            hk_run_free(&r);
            free(names[i]);
            continue;
        }
        hk_run r = launch_ok(R, args);
        hash_of(&r, got);
        if (strcmp(got, ref) != 0) {
            print_error("%s: %d ranks: state_hash %s, one process %s\n", scene, R, got, ref);
            fail();
        }
        hk_run_free(&r);
        free(names[i]);
    }
    free(names);
}

/* The outputs of one process and of 2 and 4 ranks (2 threads each): a VTK frame in pieces, one per rank, read by
 * VTK's parallel reader equals the one-process frame point for point (tests/check_frames_pvtp.py); the formats
 * drawn from the whole state on rank 0 (obj, png, blender), the stats and the final state are one process's bytes;
 * the frames and checkpoints leave the state as it was (the same hash), and no message is larger than a share. */
static void outputs_over_ranks(void **state)
{
    (void)state;
    need_vtk();
    const char *scene = scene_file("cloth_o.scene", cloth_scene);
    const char *d1 = hk_test_own_path("frames1"), *s1 = hk_test_own_path("stats1.csv"),
               *x1 = hk_test_own_path("state1.txt");
    char args[2048], cmd[4096], ref[19], got[19];
    snprintf(args, sizeof args,
             "run '%s' --quiet --threads 1 --steps 100 --every 50 --out '%s' --format vtk,obj,png,blender --stats '%s' "
             "--state-out '%s'",
             scene, d1, s1, x1);
    hk_run one = launch_ok(0, args);
    hash_of(&one, ref);
    hk_run_free(&one);
    char head[200] = "";
    FILE *f = fopen(x1, "r");
    assert_non_null(f);
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    const int real_bytes = strstr(head, "real=double") ? 8 : 4;
    for (int R = 2; R <= 4; R += 2) {
        char dR[300], sR[300], xR[300];
        snprintf(dR, sizeof dR, "%s%d", hk_test_own_path("frames"), R);
        snprintf(sR, sizeof sR, "%s%d.csv", hk_test_own_path("stats"), R);
        snprintf(xR, sizeof xR, "%s%d.txt", hk_test_own_path("state"), R);
        snprintf(args, sizeof args,
                 "run '%s' --quiet --threads 2 --steps 100 --every 50 --out '%s' --format vtk,obj,png,blender --stats "
                 "'%s' --state-out '%s' --checkpoint '%s.ck' --checkpoint-every 50",
                 scene, dR, sR, xR, dR);
        hk_run r = launch_ok(R, args);
        hash_of(&r, got);
        assert_string_equal(got, ref);
        /* no message larger than one rank's share and its halo rows (2 x 2 rows of 72, and a row for the cut) of
         * the largest record a particle has in one (a line of the state file: 3 doubles and 4 reals; a frame's:
         * 9 reals) */
        const char *big = hk_test_field(r.out, "largest_message_bytes");
        assert_non_null(big);
        const double bound = (5184.0 / R + 5 * 72) * (24 + 6 * real_bytes);
        if (!(atof(big) > 0 && atof(big) <= bound)) {
            print_error("%d ranks: a message of %s bytes, more than a share and its halo (%.0f bytes)\n", R, big,
                        bound);
            fail();
        }
        hk_run_free(&r);
        /* R pieces per frame, tied by a .pvtp that frames.pvd lists */
        snprintf(cmd, sizeof cmd,
                 "test -s '%s/frame_000100.pvtp' && test -s '%s/frame_000100_p%d.vtp' && ! test -e "
                 "'%s/frame_000100_p%d.vtp' && ! test -e '%s/frame_000100.vtp'",
                 dR, dR, R - 1, dR, R, dR);
        assert_int_equal(system(cmd), 0);
        snprintf(cmd, sizeof cmd, "'%s' '%s/check_frames_pvtp.py' '%s' '%s'", HOOKE_VTK_PYTHON, HOOKE_TESTS_DIR, d1,
                 dR);
        assert_int_equal(system(cmd), 0);
        snprintf(cmd, sizeof cmd,
                 "diff -r -x '*.vtp' -x '*.pvtp' -x frames.pvd '%s' '%s' && cmp '%s' '%s' && cmp '%s' '%s'", d1, dR, s1,
                 sR, x1, xR);
        assert_int_equal(system(cmd), 0);
    }
}

/* Each rank holds only its share: a 256 x 256 cloth over 1 to 4 ranks (one launch, --ranks 1,2,3,4), every rank's
 * particles within one slab's halo of N/R (the cloth's bend springs reach 2 rows: 2 x 2 rows of halo, and a row
 * for the cut), and every hash the one-process hash. */
static void resident_particles(void **state)
{
    (void)state;
    const char *js = hk_test_own_path("held.json");
    char args[512], cmd[2048];
    snprintf(args, sizeof args,
             "bench --builtin cloth --size 256 --ranks 1,2,3,4 --threads 1 --repeat 1 --steps 2 --warmup 1 --json '%s'",
             js);
    hk_run r = launch_ok(4, args);
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_non_null(strstr(r.out, "memory per rank: "));
    hk_run_free(&r);
    snprintf(
        cmd, sizeof cmd,
        "python3 -c 'import json, sys\n"
        "d = json.load(open(sys.argv[1]))\n"
        "N, nx, halo = 256 * 256, 256, 2\n"
        "for e in d[\"results\"]:\n"
        "    R, held = e[\"ranks\"], e[\"particles_held_per_rank\"]\n"
        "    assert len(held) == R and e[\"hash_ok\"], e\n"
        "    for h in held:\n"
        "        assert abs(h - N / R) <= (2 * halo + 1) * nx, (R, held)\n"
        "    assert e[\"rss_per_rank_bytes\"] > 0 and e[\"peak_rss_per_rank_bytes\"] >= e[\"rss_per_rank_bytes\"], e\n"
        "assert [e[\"ranks\"] for e in d[\"results\"]] == [1, 2, 3, 4]' '%s'",
        js);
    assert_int_equal(system(cmd), 0);
}

/* An output cannot be opened: every rank says why it stops, none hangs, the status is the output's (3). */
static void failed_output_no_hang(void **state)
{
    (void)state;
    const char *scene = scene_file("cloth_f.scene", cloth_scene);
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --out /proc/hooke-cannot/frames", scene);
    hk_run r = launch(3, args); /* every rank writes its piece of a frame: each says it cannot */
    if (r.status != 3 || !strstr(r.err, "/proc/hooke-cannot") ||
        !strstr(r.err, "rank 1 of 3: error: cannot create output folder /proc/hooke-cannot/frames") ||
        !strstr(r.err, "rank 2 of 3: error: cannot create output folder /proc/hooke-cannot/frames")) {
        print_error("exit %d\nstderr: %s\n", r.status, r.err);
        fail();
    }
    hk_run_free(&r);
    /* a statistics file that cannot be written either */
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --stats /proc/hooke-cannot/s.csv", scene);
    r = launch(2, args);
    if (r.status != 3 || !strstr(r.err, "rank 1 of 2: stopping")) {
        print_error("exit %d\nstderr: %s\n", r.status, r.err);
        fail();
    }
    hk_run_free(&r);
}

/* A blow-up on any rank is reported once, as one process reports it: the same global particle or spring. */
static void blowup_reported_once(void **state)
{
    (void)state;
    const char *scene = scene_file("cloth_b.scene", cloth_scene);
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --dt 0.02 --steps 200", scene);
    hk_run one = launch(0, args);
    assert_int_equal(one.status, 2);
    const char *first = strstr(one.err, "hooke:");
    assert_non_null(first);
    hk_run r = launch(3, args);
    if (r.status != 2 || !strstr(r.err, first)) {
        print_error("one process:\n%s\n3 ranks (exit %d):\n%s\n", one.err, r.status, r.err);
        fail();
    }
    assert_null(strstr(strstr(r.err, first) + 1, first)); /* once */
    hk_run_free(&r);
    hk_run_free(&one);
}

/* hooke bench over ranks: each rank's placement, the ranks and halo columns, every hash verified against the
 * launch's ranks on 1 thread each (strong and weak scaling), every rank's lifetime peak of memory, VALID. */
static void bench_over_ranks(void **state)
{
    (void)state;
    const char *js = hk_test_own_path("bench.json");
    char args[512];
    snprintf(args, sizeof args,
             "bench --builtin cloth --size 64 --threads 1,2 --repeat 1 --steps 3 --warmup 1 --json '%s'", js);
    hk_run r = launch_ok(2, args);
    assert_non_null(strstr(r.out, "# rank 0 of 2 on "));
    assert_non_null(strstr(r.out, "# rank 1 of 2 on "));
    assert_non_null(strstr(r.out, "ranks  threads  particles"));
    assert_non_null(strstr(r.out, "halo_ms"));
    assert_non_null(strstr(r.out, "verify ranks=2 threads=1: state_hash equals the 2-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "verify ranks=2 threads=2: state_hash equals the 2-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_non_null(strstr(r.out, " ranks=2 ns_per_update="));
    /* every rank's lifetime peak of resident memory */
    double peak[2];
    const char *m = strstr(r.out, "memory: lifetime peak (VmHWM, the reference runs included): rank 0 ");
    assert_non_null(m);
    assert_int_equal(
        sscanf(m, "memory: lifetime peak (VmHWM, the reference runs included): rank 0 %lf MiB, rank 1 %lf MiB",
               &peak[0], &peak[1]),
        2);
    assert_true(peak[0] > 0 && peak[1] > 0);
    char *j = hk_test_slurp(js);
    assert_non_null(j);
    assert_non_null(strstr(j, "\"mpi_ranks\": 2"));
    const char *lp = strstr(j, "\"peak_rss_lifetime_per_rank_bytes\": [");
    assert_non_null(lp);
    double b0 = 0, b1 = 0;
    assert_int_equal(sscanf(lp, "\"peak_rss_lifetime_per_rank_bytes\": [ %lf , %lf ]", &b0, &b1), 2);
    assert_true(fabs(b0 / 1048576 - peak[0]) <= 1e-3 * peak[0] && fabs(b1 / 1048576 - peak[1]) <= 1e-3 * peak[1]);
    assert_non_null(strstr(j, "\"halo_exchange_per_step_s\": "));
    free(j);
    hk_run_free(&r);
    snprintf(args, sizeof args, "bench --builtin jelly --size 8 --weak --threads 1,2 --repeat 1 --steps 2 --warmup 1");
    r = launch_ok(3, args);
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_null(strstr(r.out, "DIFFERS"));
    hk_run_free(&r);
}

/* The rows of a `hooke bench` table over ranks: ranks, threads, particles and state_hash of each (at most n);
 * how many. */
static int bench_rows(const char *out, int n, int *ranks, int *threads, int *particles, char (*hash)[19])
{
    const char *p = strstr(out, "\nranks  threads  particles");
    assert_non_null(p);
    int k = 0;
    for (p = strchr(p + 1, '\n'); p && k < n; p = strchr(p + 1, '\n')) {
        if (strncmp(p + 1, "         ", 9) == 0) continue; /* a row's notes below it: memory, implicit, contact */
        long long springs;
        double t[5];
        if (sscanf(p + 1, "%d %d %d %lld %lf %lf %lf %lf %lf %lf %lf %18s", &ranks[k], &threads[k], &particles[k],
                   &springs, &t[0], &t[1], &t[2], &t[3], &t[4], &t[4], &t[4], hash[k]) != 12)
            break;
        k++;
    }
    return k;
}

/* --ranks sweeps rank counts in one launch: every (ranks, threads) pair on the launch's first ranks, one problem
 * (strong scaling: one hash, one process's on 1 thread), the rows in the JSON files with their ranks. */
static void bench_rank_sweep(void **state)
{
    (void)state;
    const char *js = hk_test_own_path("sweep.json"), *gb = hk_test_own_path("sweep_gbench.json");
    const char *common = "bench --builtin cloth --size 64 --repeat 1 --steps 3 --warmup 1";
    char args[1024];
    snprintf(args, sizeof args, "%s --threads 1", common);
    hk_run one = launch_ok(0, args);
    const char *h = strstr(one.out, " 0x");
    assert_non_null(h);
    char ref[19];
    memcpy(ref, h + 1, 18);
    ref[18] = '\0';
    hk_run_free(&one);
    snprintf(args, sizeof args, "%s --ranks 1,2,3 --threads 1,2 --json '%s' --gbench-json '%s'", common, js, gb);
    hk_run r = launch_ok(3, args);
    assert_non_null(strstr(r.out, "# rank 2 of 3 on ")); /* the whole launch's placement */
    int ranks[8], threads[8], particles[8];
    char hash[8][19];
    assert_int_equal(bench_rows(r.out, 8, ranks, threads, particles, hash), 6);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(ranks[i], 1 + i / 2);
        assert_int_equal(threads[i], 1 + i % 2);
        assert_int_equal(particles[i], 64 * 64);
        if (strcmp(hash[i], ref) != 0) {
            print_error("%d ranks x %d threads: state_hash %s, one process %s\n", ranks[i], threads[i], hash[i], ref);
            fail();
        }
    }
    assert_non_null(strstr(r.out, "verify ranks=3 threads=2: state_hash equals the 3-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "verify ranks=1 threads=1: state_hash equals the 3-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "efficiency = FOM / (ranks x threads x the FOM of ranks=1 threads=1)"));
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_non_null(hk_test_field(r.out, "ranks"));
    assert_null(strstr(r.out, "DIFFERS"));
    hk_run_free(&r);
    char cmd[2048];
    snprintf(
        cmd, sizeof cmd,
        "python3 -c 'import json, sys\n"
        "d = json.load(open(sys.argv[1]))\n"
        "x = d[\"results\"]\n"
        "assert d[\"mpi_ranks\"] == 3 and d[\"verification\"] == \"VALID\", d\n"
        "assert [e[\"ranks\"] for e in x] == [1, 1, 2, 2, 3, 3], x\n"
        "assert [e[\"threads\"] for e in x] == [1, 2, 1, 2, 1, 2], x\n"
        "assert {e[\"state_hash\"] for e in x} == {sys.argv[3]}, x\n"
        "assert all(e[\"hash_ok\"] for e in x), x\n"
        "assert (d[\"efficiency_base_ranks\"], d[\"efficiency_base_threads\"]) == (1, 1), d\n"
        "g = json.load(open(sys.argv[2]))[\"benchmarks\"]\n"
        "assert [e[\"name\"] for e in g] == [\"cloth/n:64/strong/ranks:%%d/threads:%%d\" %% (1 + i // 2, 1 + i %% 2)"
        " for i in range(6)], g\n"
        "assert [e[\"mpi_ranks\"] for e in g] == [1, 1, 2, 2, 3, 3], g' '%s' '%s' '%s'",
        js, gb, ref);
    assert_int_equal(system(cmd), 0);
}

/* Weak scaling over ranks: ranks x threads copies of the problem, each verified against one process on 1 thread;
 * a rank count past the launch's is refused on every rank, and none waits. */
static void bench_rank_sweep_weak(void **state)
{
    (void)state;
    hk_run r =
        launch_ok(3, "bench --builtin jelly --size 8 --weak --ranks 1,2 --threads 1,2 --repeat 1 --steps 2 --warmup 1");
    int ranks[8], threads[8], particles[8];
    char hash[8][19];
    assert_int_equal(bench_rows(r.out, 8, ranks, threads, particles, hash), 4);
    for (int i = 0; i < 4; i++) assert_int_equal(particles[i], 8 * 8 * 8 * ranks[i] * threads[i]);
    assert_string_equal(hash[1], hash[2]); /* 1 x 2 and 2 x 1: the same two blocks */
    assert_non_null(strstr(r.out, "\nVALID\n"));
    assert_null(strstr(r.out, "DIFFERS"));
    hk_run_free(&r);
    r = launch(3, "bench --builtin cloth --size 16 --ranks 1,5 --threads 1 --repeat 1 --steps 1 --warmup 1");
    if (r.status != 1 || !strstr(r.err, "--ranks: 5 ranks asked for, but this launch has 3 processes") ||
        !strstr(r.err, "rank 1 of 3: stopping: --ranks") || !strstr(r.err, "rank 2 of 3: stopping: --ranks")) {
        print_error("exit %d\nstderr: %s\n", r.status, r.err);
        fail();
    }
    assert_null(strstr(r.out, "hooke bench:")); /* refused before anything ran */
    hk_run_free(&r);
}

/* The MPI build says so (hooke --version), and its automatic step count (no --steps) comes from a trial run as the
 * repetitions run, over the ranks: its steps (three blocks after the W warm-up steps) are warm-up steps of every
 * configuration, so every row's hash still equals one process's on 1 thread after W + trial + R S steps, and the
 * JSON says the same warm-up and S as the header. */
static void bench_automatic_steps(void **state)
{
    (void)state;
    hk_run r = launch_ok(0, "--version");
    assert_non_null(strstr(r.out, ", MPI)"));
    assert_null(strstr(r.out, "no MPI"));
    hk_run_free(&r);
    const char *js = hk_test_own_path("auto.json");
    char args[512];
    snprintf(args, sizeof args, "bench --builtin cloth --size 64 --threads 1,2 --repeat 1 --warmup 1 --json '%s'", js);
    r = launch_ok(2, args);
    const char *head = strstr(r.out, "hooke bench: cloth 64x64");
    assert_non_null(head);
    int warm = 0, repeat = 0;
    long long steps = 0;
    const char *w = strstr(head, "scaling, ");
    assert_non_null(w);
    assert_int_equal(sscanf(w, "scaling, %d warm-up steps, %d x %lld steps", &warm, &repeat, &steps), 3);
    assert_true(warm >= 4 && (warm - 1) % 3 == 0); /* 1 + three blocks */
    assert_int_equal(repeat, 1);
    assert_true(steps >= 1 && steps <= 100000);
    assert_non_null(strstr(r.out, "verify ranks=2 threads=1: state_hash equals the 2-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "verify ranks=2 threads=2: state_hash equals the 2-rank 1-thread hash"));
    assert_non_null(strstr(r.out, "\nVALID\n"));
    hk_run_free(&r);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "python3 -c 'import json, sys\n"
             "d = json.load(open(sys.argv[1]))\n"
             "assert d[\"warmup_steps\"] == %d and d[\"steps_per_repeat\"] == %lld, d' '%s'",
             warm, steps, js);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cloth_same_bits),       cmocka_unit_test(cloth_other_integrators),
        cmocka_unit_test(jelly26_same_bits),     cmocka_unit_test(jelly52_same_bits),
        cmocka_unit_test(rope_same_bits),        cmocka_unit_test(pressure_same_bits),
        cmocka_unit_test(tearing_same_bits),     cmocka_unit_test(implicit_same_bits),
        cmocka_unit_test(contact_same_bits),     cmocka_unit_test(shipped_scenes_same_bits),
        cmocka_unit_test(outputs_over_ranks),    cmocka_unit_test(failed_output_no_hang),
        cmocka_unit_test(blowup_reported_once),  cmocka_unit_test(bench_over_ranks),
        cmocka_unit_test(bench_rank_sweep),      cmocka_unit_test(bench_rank_sweep_weak),
        cmocka_unit_test(bench_automatic_steps), cmocka_unit_test(resident_particles),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
