/* test_device_cli.c — the program's --device: the same outputs on the device, refusals and errors by name. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "device_drivers.h"
#include "hk_test_cli.h"

/*
 * `hooke run --device gpu` through the host driver (HOOKE_DEVICE_DRIVER=host: the device backend's passes on this
 * CPU) writes what a CPU run writes: the same summary hash, statistics CSV and final state, byte for byte, the
 * state brought back from the device for each; `hooke bench --device gpu` names the device in its text, JSON and
 * gbench JSON and checks the hash against the CPU's. Refused scenes, unknown values and a missing driver stop
 * with exit status 1 and say why.
 */

static int has(const char *text, const char *part) { return strstr(text, part) != NULL; }

static void expect(const hk_run *r, int status, const char *in_err)
{
    if (r->status != status || (in_err && !has(r->err, in_err))) {
        print_error("exit %d (expected %d), stderr:\n%s\nexpected in it: %s\n", r->status, status, r->err,
                    in_err ? in_err : "(anything)");
        fail();
    }
}

/* flag_wind (the wind on a surface, substeps), jelly52 (walls, a sphere), pressure_ball (list springs, pressure,
 * the pressure in its statistics rows): the same files on the CPU and the device,
 * the frames among them (the device run's written by a thread of their own while the device steps on) */
static void test_run_same_outputs(void **state)
{
    (void)state;
    const char *scenes[] = {"flag_wind", "jelly52", "pressure_ball"};
    for (int k = 0; k < 3; k++) {
        char args[1024];
        hk_run r[2];
        char frames[2][4096];
        for (int dev = 0; dev < 2; dev++) {
            snprintf(frames[dev], sizeof frames[dev], "%s", hk_test_path(dev ? "dev_frames" : "cpu_frames"));
            snprintf(args, sizeof args,
                     "run %s/%s.scene --steps 80 --every 20 --stats '%s' --state-out '%s' --out '%s' --format "
                     "vtk,obj,png%s",
                     HOOKE_SCENES_DIR, scenes[k], hk_test_path(dev ? "dev.csv" : "cpu.csv"),
                     hk_test_path(dev ? "dev.state" : "cpu.state"), frames[dev], dev ? " --device gpu" : "");
            r[dev] = hk_test_hooke(dev ? "HOOKE_DEVICE_DRIVER=host" : "", args);
            expect(&r[dev], 0, dev ? "hooke: device: gpu: host" : NULL);
        }
        assert_string_equal(hk_test_field(r[1].out, "state_hash"), hk_test_field(r[0].out, "state_hash"));
        for (int f = 0; f < 2; f++) {
            char *a = hk_test_slurp(hk_test_path(f ? "cpu.state" : "cpu.csv"));
            char *b = hk_test_slurp(hk_test_path(f ? "dev.state" : "dev.csv"));
            assert_non_null(a);
            assert_non_null(b);
            assert_string_equal(a, b);
            free(a);
            free(b);
        }
        assert_true(hk_test_same_folder(frames[0], frames[1]) > 0);
        hk_run_free(&r[0]);
        hk_run_free(&r[1]);
    }
}

/* A checkpoint of position Verlet (its history in it) written on the CPU, restarted on the device: the CPU's end. */
static void test_restart_on_the_device(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "run %s/jelly26.scene --integrator verlet --steps 40 --checkpoint '%s' --checkpoint-every 20",
             HOOKE_SCENES_DIR, hk_test_path("v.ckpt"));
    hk_run r = hk_test_hooke("", args);
    expect(&r, 0, NULL);
    hk_run_free(&r);
    snprintf(args, sizeof args, "run %s/jelly26.scene --integrator verlet --steps 80", HOOKE_SCENES_DIR);
    hk_run cpu = hk_test_hooke("", args);
    expect(&cpu, 0, NULL);
    snprintf(args, sizeof args, "run %s/jelly26.scene --steps 80 --restart '%s' --device gpu", HOOKE_SCENES_DIR,
             hk_test_path("v.ckpt"));
    r = hk_test_hooke("HOOKE_DEVICE_DRIVER=host", args);
    expect(&r, 0, "hooke: device: gpu: host");
    assert_memory_equal(hk_test_field(r.out, "state_hash"), hk_test_field(cpu.out, "state_hash"), 18); /* 0x + 16 */
    hk_run_free(&r);
    hk_run_free(&cpu);
}

static void test_run_refusals(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args, "run %s/cloth_box.scene --device gpu --steps 1", HOOKE_SCENES_DIR);
    hk_run r = hk_test_hooke("", args);
    expect(&r, 1, "--device gpu: the device does not run colliders");
    assert_null(strstr(r.out, "state_hash")); /* stopped before the run */
    hk_run_free(&r);
    snprintf(args, sizeof args, "run %s/cloth_box.scene --device auto --steps 1", HOOKE_SCENES_DIR);
    r = hk_test_hooke("", args);
    expect(&r, 0, "hooke: device: cpu (auto: the device does not run colliders");
    hk_run_free(&r);
    /* an integrator the integrator table says the device does not run, on a scene it runs: refused by name */
    snprintf(args, sizeof args, "run %s/jelly26.scene --integrator implicit_euler --device gpu --steps 1",
             HOOKE_SCENES_DIR);
    r = hk_test_hooke("HOOKE_DEVICE_DRIVER=host", args);
    expect(&r, 1,
           "--device gpu: the device does not run the implicit integrator implicit_euler (the device runs euler, ");
    assert_null(strstr(r.out, "state_hash"));
    hk_run_free(&r);
    snprintf(args, sizeof args, "run %s/jelly26.scene --integrator implicit_euler --device auto --steps 1",
             HOOKE_SCENES_DIR);
    r = hk_test_hooke("HOOKE_DEVICE_DRIVER=host", args);
    expect(&r, 0, "hooke: device: cpu (auto: the device does not run the implicit integrator implicit_euler (");
    assert_non_null(strstr(r.out, "integrator=implicit_euler"));
    hk_run_free(&r);
    snprintf(args, sizeof args, "run %s/rope.scene --device tpu", HOOKE_SCENES_DIR);
    r = hk_test_hooke("", args);
    expect(&r, 1, "hooke: error: --device expects cpu, gpu");
    hk_run_free(&r);
    snprintf(args, sizeof args, "run %s/rope.scene --device gpu", HOOKE_SCENES_DIR);
    r = hk_test_hooke("HOOKE_DEVICE_DRIVER=vulkan", args);
    expect(&r, 1, "HOOKE_DEVICE_DRIVER=vulkan: expected \"cuda\", \"openmp\", \"host\" or \"openmp-host\"");
    hk_run_free(&r);
    /* CUDA: a GPU there runs it with the CPU's hash; else the run stops saying what it looked for */
    snprintf(args, sizeof args, "run %s/rope.scene --device gpu --steps 20", HOOKE_SCENES_DIR);
    r = hk_test_hooke("HOOKE_DEVICE_DRIVER=cuda", args);
    if (r.status == 0) {
        snprintf(args, sizeof args, "run %s/rope.scene --steps 20", HOOKE_SCENES_DIR);
        hk_run c = hk_test_hooke("", args);
        assert_string_equal(hk_test_field(r.out, "state_hash"), hk_test_field(c.out, "state_hash"));
        hk_run_free(&c);
    } else {
        expect(&r, 1, "--device gpu: no GPU: driver cuda");
    }
    hk_run_free(&r);
}

static void test_bench_names_the_device(void **state)
{
    (void)state;
    char args[1024];
    snprintf(args, sizeof args,
             "bench --builtin cloth --size 24 --device gpu --repeat 2 --steps 20 --json '%s' "
             "--gbench-json '%s'",
             hk_test_path("bench.json"), hk_test_path("gbench.json"));
    hk_run r = hk_test_hooke("HOOKE_DEVICE_DRIVER=host", args);
    expect(&r, 0, NULL);
    assert_true(has(r.out, "device gpu: host"));
    assert_true(has(r.out, "verify threads=1: state_hash equals the CPU's hash"));
    assert_true(has(r.out, "device=\"gpu: host"));
    assert_true(has(r.out, "\nVALID\n"));
    char *j = hk_test_slurp(hk_test_path("bench.json")), *g = hk_test_slurp(hk_test_path("gbench.json"));
    assert_non_null(j);
    assert_non_null(g);
    assert_true(has(j, "\"device\": \"gpu: host"));
    assert_true(has(g, "\"hooke_device\": \"gpu: host"));
    free(j);
    free(g);
    hk_run_free(&r);
}

static void test_info_lists_gpus(void **state)
{
    (void)state;
    hk_run r = hk_test_hooke("", "info");
    expect(&r, 0, NULL);
    assert_true(has(r.out, "\ngpus (hooke run --device gpu"));
    assert_true(has(r.out, "\n  cuda: "));
    assert_true(has(r.out, "\n  openmp: "));
    hk_run_free(&r);
}

/* Every value HOOKE_DEVICE_DRIVER takes is named, with what it runs on, by `hooke run --help` and `hooke info`: the
 * rows of the drivers' table, so a driver the program accepts is never one its help leaves out. */
static void test_help_names_every_driver(void **state)
{
    (void)state;
    hk_run help = hk_test_hooke("", "run --help"), info = hk_test_hooke("", "info");
    expect(&help, 0, NULL);
    expect(&info, 0, NULL);
    const char *what, *name;
    int n = 0;
    for (int d = 0; (name = hk_device_driver_at(d, &what)) != NULL; d++, n++) {
        char row[256];
        snprintf(row, sizeof row, "\n  %-20s %s\n", name, what);
        if (!has(help.out, row) || !has(info.out, row)) {
            print_error("driver %s: its row '%s' is missing from%s%s\n", name, row + 1,
                        has(help.out, row) ? "" : " hooke run --help", has(info.out, row) ? "" : " hooke info");
            fail();
        }
        assert_int_equal(hk_device_driver_name(name, NULL), 0);
    }
    assert_true(n >= 4); /* cuda, openmp and the two host drivers of the tests */
    hk_run_free(&help);
    hk_run_free(&info);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_same_outputs), cmocka_unit_test(test_restart_on_the_device),
        cmocka_unit_test(test_run_refusals),     cmocka_unit_test(test_bench_names_the_device),
        cmocka_unit_test(test_info_lists_gpus),  cmocka_unit_test(test_help_names_every_driver),
    };
    const int rc = cmocka_run_group_tests(tests, NULL, NULL);
    hk_test_cleanup();
    return rc;
}
