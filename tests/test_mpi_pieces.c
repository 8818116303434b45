/* test_mpi_pieces.c — a checkpoint over MPI ranks (mpirun): restarts across rank counts, after a signal or a rank
 * killed, and what the writer and the restart do with an index and pieces that are not the checkpoint's own. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test_mpi.h"

#include <fcntl.h>
#include <signal.h>
#include <time.h>

#include "hk_test_ckpt.h"

/* A checkpoint of `scene` written over R ranks after `half` steps restarts on another R and on one process, and one
 * written by one process over ranks: the final hash after 2 half steps is always the uninterrupted run's. */
static void restart_across(const char *scene, int half)
{
    const char *c3 = hk_test_own_path("three.ckpt"), *c1 = hk_test_own_path("one.ckpt");
    char args[2048], whole[19], got[19];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps %d", scene, 2 * half);
    hk_run w = launch_ok(0, args);
    hash_of(&w, whole);
    hk_run_free(&w);
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps %d --checkpoint '%s' --checkpoint-on-exit", scene,
             half, c3);
    hk_run a = launch_ok(3, args);
    hk_run_free(&a);
    char cmd[1024]; /* an index and a piece per rank, of the checkpoint's step */
    snprintf(cmd, sizeof cmd, "test -s '%s.step%d.rank0' && test -s '%s.step%d.rank2' && ! test -e '%s.step%d.rank3'",
             c3, half, c3, half, c3, half);
    assert_int_equal(system(cmd), 0);
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps %d --checkpoint '%s' --checkpoint-on-exit", scene,
             half, c1);
    hk_run b = launch_ok(0, args);
    hk_run_free(&b);
    const struct {
        int ranks, threads;
        const char *from;
    } cases[] = {{2, 2, NULL}, {0, 1, NULL}, {4, 1, NULL}, {2, 1, "one"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(args, sizeof args, "run '%s' --quiet --threads %d --steps %d --restart '%s'", scene, cases[i].threads,
                 2 * half, cases[i].from ? c1 : c3);
        hk_run r = launch_ok(cases[i].ranks, args);
        hash_of(&r, got);
        if (strcmp(got, whole) != 0) {
            print_error("restart of %s on %d ranks: state_hash %s, the whole run %s\n", cases[i].from ? c1 : c3,
                        cases[i].ranks, got, whole);
            fail();
        }
        assert_non_null(hk_test_field(r.out, "restarted_at"));
        hk_run_free(&r);
    }
}

/* A restart from the checkpoint ck at step `at` on `ranks` ranks (0: one process) runs `more` steps and ends in the
 * bits of one process run from the start to the same step. */
static void restart_as_whole(int ranks, const char *scene, const char *ck, long long at, long long more)
{
    char args[1024], whole[19], got[19];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps %lld --restart '%s'", scene, at + more, ck);
    hk_run r = launch_ok(ranks, args);
    assert_int_equal(strtoll(hk_test_field(r.out, "steps_run"), NULL, 10), more);
    hash_of(&r, got);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps %lld", scene, at + more);
    r = launch_ok(0, args);
    hash_of(&r, whole);
    hk_run_free(&r);
    assert_string_equal(got, whole);
}

/* A run on 2 ranks stopped by a signal: to a rank (SIGINT) or to mpirun itself (SIGINT, SIGTERM; Open MPI 4.1 sends
 * its ranks SIGTERM and exits 1 whatever they did: docs/user-guide.md, "Stopping"; its SIGKILL waits 10 s here, not
 * 1, so a loaded machine does not race it). Every rank stops after the same step: the summary says interrupted=1,
 * the checkpoint of --checkpoint-on-exit is written, and a restart from it ends in the bits of a run never stopped. */
static void stop_signals(void **state)
{
    (void)state;
    const char *scene =
        scene_file("long.scene", "world\n gravity 0 -9.81 0\nend\n"
                                 "body cloth\n nx 100\n ny 100\n spacing 0.01\n mass 1e-4\n"
                                 " pins two_corners\n springs structural k 100 damping 0.01\n"
                                 " springs shear k 50\n springs bend k 20\nend\n"
                                 "run\n integrator semi_implicit_euler\n dt 2e-4\n steps 1000000\nend\n");
    const struct {
        int to_rank, sig, status;
        const char *said;
    } cases[] = {
        {1, SIGINT, 128 + SIGINT, "hooke: interrupted (SIGINT) at step "},
        {0, SIGINT, 1, "hooke: stopped (SIGTERM) at step "},
        {0, SIGTERM, 1, "hooke: stopped (SIGTERM) at step "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ck[300], stats[300], out[300], err[300];
        snprintf(ck, sizeof ck, "%s", hk_test_own_path("stop.ck"));
        snprintf(stats, sizeof stats, "%s", hk_test_own_path("stop.csv"));
        snprintf(out, sizeof out, "%s", hk_test_own_path("stop.out"));
        snprintf(err, sizeof err, "%s", hk_test_own_path("stop.err"));
        remove(ck), remove(stats);
        fflush(NULL);
        const pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            const int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644),
                      fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fo < 0 || fe < 0) _exit(99);
            dup2(fo, 1), dup2(fe, 2);
            alarm(300); /* a hang ends here: mpirun forwards SIGALRM, which ends the ranks */
            execl(HOOKE_MPIEXEC, HOOKE_MPIEXEC, "--oversubscribe", "--allow-run-as-root", "--mca",
                  "odls_base_sigkill_timeout", "10", "-n", "2", HOOKE_BIN, "run", scene, "--threads", "1", "--every",
                  "5", "--stats", stats, "--checkpoint", ck, "--checkpoint-on-exit", (char *)NULL);
            _exit(98);
        }
        for (int k = 0; k < 30000 && rows_in(stats) < 4; k++) nanosleep(&(struct timespec){0, 10000000}, NULL);
        assert_true(rows_in(stats) >= 4);
        const pid_t target = cases[i].to_rank ? child_of(pid) : pid;
        assert_true(target > 0);
        kill(target, cases[i].sig);
        int st;
        assert_int_equal(waitpid(pid, &st, 0), pid);
        char *so = hk_test_slurp(out), *se = hk_test_slurp(err);
        const int status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        if (status != cases[i].status || !so || !strstr(so, " interrupted=1") || !strstr(so, " ranks=2") || !se ||
            !strstr(se, cases[i].said) || !strstr(se, "(and a checkpoint written)")) {
            print_error("signal %d to %s: exit %d (expected %d)\nstdout: %s\nstderr: %s\n", cases[i].sig,
                        cases[i].to_rank ? "a rank" : "mpirun", status, cases[i].status, so, se);
            fail();
        }
        const long long steps = strtoll(hk_test_field(so, "steps"), NULL, 10);
        free(so), free(se);
        restart_as_whole(0, scene, ck, steps, 3);
    }
}

/* A rank killed (SIGKILL) mid-run ends the job: mpirun says which rank died and how and exits non-zero, and the files
 * are whole as of the last complete output: every frame frames.pvd lists reads in VTK's parallel reader with every
 * particle, every stats row is whole, and the checkpoint's index names whole pieces, from which 3 ranks go on to
 * the bits of a run never killed. */
static void rank_killed(void **state)
{
    (void)state;
    need_vtk();
    const char *scene =
        scene_file("killed.scene", "world\n gravity 0 -9.81 0\nend\n"
                                   "body cloth\n nx 100\n ny 100\n spacing 0.01\n mass 1e-4\n"
                                   " pins two_corners\n springs structural k 100 damping 0.01\n"
                                   " springs shear k 50\n springs bend k 20\nend\n"
                                   "run\n integrator semi_implicit_euler\n dt 2e-4\n steps 1000000\nend\n");
    char out[300], err[300], stats[300], frames[300], ck[300], cmd[4096];
    snprintf(out, sizeof out, "%s", hk_test_own_path("killed.out"));
    snprintf(err, sizeof err, "%s", hk_test_own_path("killed.err"));
    snprintf(stats, sizeof stats, "%s", hk_test_own_path("killed.csv"));
    snprintf(frames, sizeof frames, "%s", hk_test_own_path("killed_frames"));
    snprintf(ck, sizeof ck, "%s", hk_test_own_path("killed.ck"));
    fflush(NULL);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644),
                  fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0) _exit(99);
        dup2(fo, 1), dup2(fe, 2);
        alarm(300);
        execl(HOOKE_MPIEXEC, HOOKE_MPIEXEC, "--oversubscribe", "--allow-run-as-root", "-n", "3", HOOKE_BIN, "run",
              scene, "--threads", "1", "--every", "10", "--stats", stats, "--out", frames, "--checkpoint", ck,
              "--checkpoint-every", "20", (char *)NULL);
        _exit(98);
    }
    for (int k = 0; k < 30000 && rows_in(stats) < 8; k++) nanosleep(&(struct timespec){0, 10000000}, NULL);
    assert_true(rows_in(stats) >= 8);
    const pid_t target = child_of(pid);
    assert_true(target > 0);
    kill(target, SIGKILL);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    char *se = hk_test_slurp(err);
    if (!WIFEXITED(st) || WEXITSTATUS(st) == 0 || !se || !strstr(se, "exited on signal 9")) {
        print_error("a rank killed: mpirun exit %d\nstderr: %s\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, se);
        fail();
    }
    free(se);
    /* whole files: the stats' rows, every frame listed (all its pieces), the checkpoint's pieces */
    char *text = hk_test_slurp(stats);
    assert_non_null(text);
    assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
    free(text);
    snprintf(cmd, sizeof cmd,
             "'%s' -c 'import sys, os, xml.etree.ElementTree as ET\n"
             "import vtkmodules.vtkIOXML as vx\n"
             "d = sys.argv[1]\n"
             "files = [e.get(\"file\") for e in ET.parse(d + \"/frames.pvd\").getroot().iter(\"DataSet\")]\n"
             "assert len(files) >= 8, files\n"
             "for f in files:\n"
             "    r = vx.vtkXMLPPolyDataReader()\n"
             "    seen = []\n"
             "    r.AddObserver(\"ErrorEvent\", lambda o, e: seen.append(e))\n"
             "    r.AddObserver(\"WarningEvent\", lambda o, e: seen.append(e))\n"
             "    r.SetFileName(d + \"/\" + f)\n"
             "    r.Update()\n"
             "    g = r.GetOutput().GetPointData().GetArray(\"vtkGhostType\")\n"
             "    own = sum(1 for p in range(g.GetNumberOfTuples()) if g.GetValue(p) == 0)\n"
             "    assert not seen and own == 10000, (f, seen, own)' '%s'",
             HOOKE_VTK_PYTHON, frames);
    assert_int_equal(system(cmd), 0);
    /* the checkpoint: on to 5 steps past it, on 3 ranks, ends in the bits of a run never killed */
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps 1 --restart '%s'", scene, ck);
    hk_run probe = launch(3, args); /* says where the checkpoint is: nothing to run (exit 4) */
    const char *at = strstr(probe.err, "is at step ");
    assert_non_null(at);
    const long long step = atoll(at + strlen("is at step "));
    hk_run_free(&probe);
    assert_true(step >= 20 && step % 20 == 0);
    restart_as_whole(3, scene, ck, step, 5);
}

static void restart_other_ranks(void **state)
{
    (void)state;
    restart_across(scene_file("cloth_r.scene", cloth_scene), 80);
    /* the implicit solver's warm start (the last velocity change) travels in the checkpoint */
    restart_across(scene_file("implicit_r.scene", implicit_scene), 3);
    /* BDF2's history, the state before the checkpoint's (its last displacement and velocity change) */
    restart_across(scene_file("bdf2_r.scene", bdf2_scene), 3);
    /* the colliders' friction anchors, kept by the ranks that compute their particles, are in their pieces */
    restart_across(SCENE("cloth_box.scene"), 30);
    /* springs broken by then (318 of them at step 60): each piece's lattice masks over its own rows */
    restart_across(scene_file("tearing_r.scene", tearing_scene), 60);
}

/* A fresh folder of the test's folder for a checkpoint's files (its path stays valid). */
static const char *fresh_dir(const char *name)
{
    const char *dir = hk_test_own_path(name);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", dir, dir);
    assert_int_equal(system(cmd), 0);
    return dir;
}

/* cloth_fold.scene (self contact, a floor) over 2 ranks to step 40, a checkpoint at ck every 20 steps; the run's
 * status and output. */
static hk_run fold_run(const char *ck)
{
    char args[1024];
    snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps 40 --checkpoint '%s' --checkpoint-every 20",
             SCENE("cloth_fold.scene"), ck);
    return launch(2, args);
}

/* An index at the --checkpoint path that names another file of its folder, victim.txt: one that looks sound (its
 * checksum right) but is not this checkpoint's (of another scene, naming no piece of it), and one whose checksum
 * is wrong. The run over 2 ranks writes its checkpoint at steps 20 and 40 and leaves victim.txt as it was; the
 * pieces of step 20, which its own index named, are removed at step 40. */
static void writer_keeps_what_an_index_names(void **state)
{
    (void)state;
    const char *dir = fresh_dir("keep");
    char ck[400], victim[400], piece[512];
    snprintf(ck, sizeof ck, "%s/f.ck", dir);
    snprintf(victim, sizeof victim, "%s/victim.txt", dir);
    const char *names[] = {"victim.txt", "victim.txt"};
    int failed = 0;
    for (int good = 1; good >= 0; good--) {
        hk_test_write(victim, "keep me\n");
        hk_test_ckpt_index(ck, 0x1234567890abcdefull, 2, 0, names, 2, good);
        hk_run r = fold_run(ck);
        char *kept = hk_test_slurp(victim);
        if (r.status != 0 || !kept || strcmp(kept, "keep me\n") != 0) {
            print_error("an index naming victim.txt (its checksum %s): exit %d, victim.txt %s\nstderr: %s\n",
                        good ? "right" : "wrong", r.status, kept ? "kept" : "removed", r.err);
            failed = 1;
        }
        free(kept);
        hk_run_free(&r);
        for (int rank = 0; rank < 2; rank++) { /* the checkpoint's own pieces: step 20's gone, step 40's there */
            snprintf(piece, sizeof piece, "%s.step20.rank%d", ck, rank);
            assert_false(hk_test_exists(piece));
            snprintf(piece, sizeof piece, "%s.step40.rank%d", ck, rank);
            assert_true(hk_test_exists(piece));
            remove(piece);
        }
    }
    assert_false(failed);
}

/* Rank 1's piece copied over rank 0's (each sound on its own: its checksum right): a restart over 2 ranks and on one
 * process exits 1 (bad input) with a message naming the piece. */
static void restart_refuses_a_piece_in_another_place(void **state)
{
    (void)state;
    const char *dir = fresh_dir("swap");
    char ck[400], rank0[512], rank1[512], args[1024];
    snprintf(ck, sizeof ck, "%s/f.ck", dir);
    snprintf(rank0, sizeof rank0, "%s.step40.rank0", ck);
    snprintf(rank1, sizeof rank1, "%s.step40.rank1", ck);
    hk_run w = fold_run(ck);
    assert_int_equal(w.status, 0);
    hk_run_free(&w);
    size_t len;
    unsigned char *b = hk_test_read_bytes(rank1, &len);
    hk_test_write_bytes(rank0, b, len);
    free(b);
    int failed = 0;
    for (int ranks = 2; ranks >= 0; ranks -= 2) {
        snprintf(args, sizeof args, "run '%s' --quiet --threads 1 --steps 60 --restart '%s'", SCENE("cloth_fold.scene"),
                 ck);
        hk_run r = launch(ranks, args);
        if (r.status != 1 || !strstr(r.err, rank0) || !strstr(r.err, "checkpoint is corrupted")) {
            print_error("%s: a restart with rank 1's piece in rank 0's place: exit %d\nstdout: %s\nstderr: %s\n",
                        ranks ? "2 ranks" : "one process", r.status, r.out, r.err);
            failed = 1;
        }
        hk_run_free(&r);
    }
    assert_false(failed);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--only") == 0) cmocka_set_test_filter(argv[2]); /* one test: --only NAME */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(restart_other_ranks),
        cmocka_unit_test(stop_signals),
        cmocka_unit_test(rank_killed),
        cmocka_unit_test(writer_keeps_what_an_index_names),
        cmocka_unit_test(restart_refuses_a_piece_in_another_place),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
