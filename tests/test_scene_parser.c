/* test_scene_parser.c — scene format: exact error messages for bad input, and every shipped scene builds. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hk_test_parse.h"
#include "hk_test_scenes.h"
#include "scene.h"
#include "world.h"

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

/* A minimal valid body to append after sections under test. */
#define ROPE "body rope\n  count 3\n  mass 1\n  spacing 1\nend\n"

/* ------------------------------------------------------------------------ */
/* Malformed input: one test per message, each with file:line:col            */

static void test_empty_file(void **state)
{
    (void)state;
    check_error("", "x.scene:1:1: error: no body in scene");
    check_error("# just a comment\n\n   \t\n", "x.scene:4:1: error: no body in scene");
    check_error("world\nend", "x.scene:2:4: error: no body in scene");
}

/* UTF-8's byte-order mark, which some editors write, is skipped (columns count from after it); UTF-16's is refused
 * by name. */
static void test_byte_order_marks(void **state)
{
    (void)state;
    hk_scene sc = parse_ok("\xEF\xBB\xBF" ROPE);
    assert_int_equal(hk_world_particles(sc.world).count, 3);
    hk_scene_free(&sc);
    check_error("\xEF\xBB\xBF"
                "body rope\n  count 3\n  mass 1\n  spacing 1\n  colour 2\nend\n",
                "x.scene:5:3:");
    check_error("\xEF\xBB\xBF"
                "body ropes\nend\n",
                "x.scene:1:6: error: ");
    check_error("\xFF\xFE" ROPE, "x.scene:1:1: error: expected UTF-8 or ASCII text, got a UTF-16 little-endian "
                                 "byte-order mark: save the file as UTF-8");
    check_error("\xFE\xFF" ROPE, "got a UTF-16 big-endian byte-order mark");
}

static void test_bad_number(void **state)
{
    (void)state;
    check_error("body rope\n  count 80\n  mass abc\nend\n",
                "x.scene:3:8: error: expected a number for 'mass', got 'abc'");
    check_error("body rope\n  count 2\n  mass 1x\nend\n", "x.scene:3:8: error: expected a number for 'mass', got '1x'");
    check_error("body rope\n  count 2\n  mass nan\nend\n",
                "x.scene:3:8: error: expected a number for 'mass', got 'nan'");
    check_error("body rope\n  count 2\n  mass inf\nend\n",
                "x.scene:3:8: error: expected a number for 'mass', got 'inf'");
    check_error("body rope\n  count 2\n  mass 1e999\nend\n",
                "x.scene:3:8: error: expected a mass in [1e-12, 1e12] kg for 'mass', got '1e999' (out of range)");
    /* a vector the build's precision cannot hold: refused at its place in a float build, taken in a double one */
    const char *far = "world\n  gravity 0 -1e39 0\nend\n" ROPE;
    if (sizeof(hk_real) == 4) {
        check_error(far, "x.scene:2:13: error: expected a number of size at most 3.40282e+38 for 'gravity', got "
                         "'-1e39' (beyond this build's precision)");
    } else {
        hk_scene sc = parse_ok(far);
        assert_true(sc.world->def.gravity.y == -1e39);
        hk_scene_free(&sc);
    }
    /* so is a single number: a ground plane, a sphere's radius, a friction coefficient */
    static const struct {
        const char *text, *want;
    } single[] = {
        {"ground\n  model spring\n  height 1e39\n  stiffness 1e4\nend\n" ROPE,
         "x.scene:3:10: error: expected a number "
         "of size at most 3.40282e+38 for 'height', got '1e39' (beyond this build's precision)"},
        {"sphere\n center 0 0 0\n radius 4e38\nend\n" ROPE,
         "x.scene:3:9: error: expected a number of size at most "
         "3.40282e+38 for 'radius', got '4e38' (beyond this build's precision)"},
    };
    for (size_t i = 0; i < sizeof single / sizeof *single; i++) {
        if (sizeof(hk_real) == 4) {
            check_error(single[i].text, single[i].want);
        } else {
            hk_scene sc = parse_ok(single[i].text);
            hk_scene_free(&sc);
        }
    }
}

static void test_value_out_of_range(void **state)
{
    (void)state;
    check_error("body rope\n count 2\n mass -1\nend\n",
                "x.scene:3:7: error: expected a mass in [1e-12, 1e12] kg for 'mass', got '-1'");
    check_error("body rope\n count 2\n mass 0\nend\n",
                "x.scene:3:7: error: expected a mass in [1e-12, 1e12] kg for 'mass', got '0'");
    check_error("sphere\n center 0 0 0\n radius 1\n loss 1.5\nend\n",
                "x.scene:4:7: error: expected a number in [0, 1] for 'loss', got '1.5'");
    /* the world's keys accept what hk_world_def_check accepts (the bounds table) */
    check_error("world\n air_drag -0.1\nend\n",
                "x.scene:2:11: error: expected 0 or a damping in [1e-12, 1e12] N*s/m for 'air_drag', got '-0.1'");
    check_error("world\n air_drag 1e13\nend\n", "x.scene:2:11: error: expected 0 or a damping in [1e-12, 1e12] "
                                                "N*s/m for 'air_drag', got '1e13' (outside it c/m leaves what single "
                                                "precision and the smallest dt resolve)");
    check_error("ground\n model spring\n stiffness -5\nend\n",
                "x.scene:3:12: error: expected 0 or a stiffness in [1e-12, 1e12] N/m for 'stiffness', got '-5'");
    check_error("run\n dt 0\nend\n", "x.scene:2:5: error: expected a time step >= 1e-12 s for 'dt', got '0'");
    check_error("run\n dt 1\n integrator jelly\n jelly_alpha 0\nend\n",
                "x.scene:4:14: error: expected a number in (0, 1] for 'jelly_alpha', got '0'");
    check_error("run\n dt 1\n stretch_limit 1\nend\n",
                "x.scene:3:16: error: expected a number > 1 for 'stretch_limit', got '1'");
}

static void test_bad_integer(void **state)
{
    (void)state;
    check_error(
        "body rope\n count 2.5\nend\n",
        "x.scene:2:8: error: expected an integer in [2, 268435456] for 'count', got '2.5' (not a whole number)");
    check_error("body rope\n count 1\nend\n",
                "x.scene:2:8: error: expected an integer in [2, 268435456] for 'count', got '1'");
    check_error("body rope\n count 3\n anchor 2\nend\n", "x.scene:3:9: error: expected 0 or 1 for 'anchor', got '2'");
    check_error("run\n dt 1\n steps 0\nend\n", "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '0'");
    check_error("run\n dt 1\n steps 99999999999999999999\nend\n",
                "x.scene:3:8: error: expected an integer >= 1 for 'steps', got '99999999999999999999' (out of range)");
    /* integral numbers in other spellings are accepted */
    hk_scene sc = parse_ok("run\n dt 1\n steps 5e4\n every 10.0\nend\n" ROPE);
    assert_int_equal(sc.steps, 50000);
    assert_int_equal(sc.every, 10);
    hk_scene_free(&sc);
}

static void test_unknown_key(void **state)
{
    (void)state;
    /* the lists, typed once (they are the tables'): a key in its place among them */
    assert_non_null(strstr(keys_of("body rope"), "count, mass, spacing, "));
    assert_non_null(strstr(keys_of("world"), "gravity, air_drag, "));
    check_error(
        "body rope\n  mas 0.05\nend\n",
        text_of("x.scene:2:3: error: unknown key 'mas' in body rope: did you mean 'mass'? (expected one of: %s)",
                keys_of("body rope")));
    check_error("world\n breeze 1 0 0\nend\n",
                text_of("x.scene:2:2: error: unknown key 'breeze' in world (expected one of: %s)", keys_of("world")));
    check_error("world\n wind 1 0 0\nend\n",
                "x.scene:2:2: error: key 'wind' needs 'wind_model vertex' or 'wind_model triangle'");
    check_error("world\n wind_model breeze\nend\n",
                "x.scene:2:13: error: expected none, vertex or triangle for 'wind_model', got 'breeze'");
    check_error("body ring\n count 2\n radius 1\n mass 1\nend\n",
                "x.scene:2:8: error: expected an integer in [3, 16777216] for 'count', got '2'");
    check_error("body icosphere\n radius 1\n level 8\n mass 1\nend\n",
                "x.scene:3:8: error: expected an integer in [0, 7] for 'level', got '8'");
    check_error("body ring\n count 5\n radius 1\n mass 1\n pump_rate 0.1\nend\n",
                "x.scene:5:2: error: key 'pump_rate' needs 'nrt' > 0");
    check_error("body mesh\n mass 1\nend\n", "x.scene:3:1: error: body mesh is missing required key 'file'");
    check_error("body mesh\n file no_such.asc\n mass 1\nend\n",
                "x.scene:2:7: error: cannot load mesh: no_such.asc: cannot open mesh: No such file or directory");
    check_error("body mesh\n file " HOOKE_SCENES_DIR "/cube.asc\n mass 1\n extra_rings 1\nend\n",
                "x.scene:4:2: error: key 'extra_rings' must be 0 or in [2, 8] (1 is the edges)");
    check_error("body pendulum\n springs main k 1\nend\n",
                text_of("x.scene:2:2: error: unknown key 'springs' in body pendulum (expected one of: %s)",
                        keys_of("body pendulum")));
}

static void test_repeated_key(void **state)
{
    (void)state;
    check_error("body rope\n count 3\n mass 1\n mass 2\nend",
                "x.scene:4:2: error: key 'mass' repeated in body rope (first at line 3)");
    check_error("body rope\n count 3\n pin 0\n pin 1\nend",
                "x.scene:4:2: error: key 'pin' repeated in body rope (first at line 3)");
}

static void test_missing_required_key(void **state)
{
    (void)state;
    check_error("body cloth\n  ny 4\n  spacing 0.1\n  mass 1\n  springs structural k 10\nend\n",
                "x.scene:6:1: error: body cloth is missing required key 'nx'");
    check_error("run\n steps 10\nend\n" ROPE, "x.scene:3:1: error: run is missing required key 'dt'");
    check_error("sphere\n center 0 0 0\n  end\n", "x.scene:3:3: error: sphere is missing required key 'radius'");
    check_error("ground\n height 0\nend\n",
                "x.scene:3:1: error: ground with model repulsion is missing required key 'repulsion'");
}

static void test_missing_value(void **state)
{
    (void)state;
    check_error("body rope\n count 3\n mass\nend", "x.scene:3:6: error: expected a number for 'mass', got end of line");
    check_error("body rope\n count 3\n mass # the mass\nend",
                "x.scene:3:6: error: expected a number for 'mass', got end of line");
    check_error("world\n gravity 0 -9.81\nend",
                "x.scene:2:17: error: expected 3 numbers (x y z) for 'gravity', got end of line");
    check_error("world\n gravity 0 y 0\nend", "x.scene:2:12: error: expected a number for 'gravity', got 'y'");
    check_error("body rope\n count 3\n pin\nend",
                "x.scene:3:5: error: expected a particle index for 'pin', got end of line");
}

static void test_trailing_tokens(void **state)
{
    (void)state;
    check_error("body rope\n count 3\n mass 1 2\nend",
                "x.scene:3:9: error: expected end of line after 'mass', got '2'");
    check_error("body rope end\n", "x.scene:1:11: error: expected end of line after 'body rope', got 'end'");
    check_error(ROPE "world extra\nend\n", "x.scene:6:7: error: expected end of line after 'world', got 'extra'");
    check_error("world\nend now\n", "x.scene:2:5: error: expected end of line after 'end', got 'now'");
}

static void test_unclosed_section(void **state)
{
    (void)state;
    check_error("world\nend\nbody rope\n count 3\n",
                "x.scene:5:1: error: unexpected end of file: section 'body' opened at line 3 is not closed");
    check_error("world", "x.scene:1:6: error: unexpected end of file: section 'world' opened at line 1 is not closed");
}

static void test_bad_sections(void **state)
{
    (void)state;
    assert_string_equal(section_words(), "world, run, ground, walls, contact, sphere, collider or body");
    check_error("foo\n", text_of("x.scene:1:1: error: expected a section (%s), got 'foo'", section_words()));
    check_error("  end\n", text_of("x.scene:1:3: error: expected a section (%s), got 'end'", section_words()));
    assert_non_null(strstr(body_kinds(), "rope, cloth, jelly, "));
    check_error("body blob\nend", text_of("x.scene:1:6: error: expected a body kind (%s), got 'blob'", body_kinds()));
    check_error("body\nend", text_of("x.scene:1:5: error: expected a body kind (%s), got end of line", body_kinds()));
    check_error("body rope\nworld\n",
                "x.scene:2:1: error: expected 'end' to close body rope opened at line 1, got 'world'");
    check_error("world\nend\n" ROPE "world\nend\n", "x.scene:8:1: error: section 'world' repeated (first at line 1)");
}

static void test_bad_names(void **state)
{
    (void)state;
    check_error("run\n dt 1\n integrator leapfrog\nend",
                text_of("x.scene:3:13: error: expected an integrator name (%s) for 'integrator', got 'leapfrog'",
                        hk_integrator_names()));
    check_error("body rope\n topology ring\nend",
                "x.scene:2:11: error: expected chain, skip_one or all_to_all for 'topology', got 'ring'");
    check_error("body jelly\n neighbours 30\nend", "x.scene:2:13: error: expected 26 or 52 for 'neighbours', got '30'");
    check_error("ground\n model soft\nend", "x.scene:2:8: error: expected repulsion or spring for 'model', got 'soft'");
    check_error("body cloth\n pins corners\nend",
                "x.scene:2:7: error: expected none, edge, two_corners or four_edges for 'pins', got 'corners'");
}

static void test_springs_lines(void **state)
{
    (void)state;
    check_error("body rope\n springs structural k 10\nend",
                "x.scene:2:10: error: expected a spring family of body rope (chain or skip), got 'structural'");
    check_error(
        "body rope\n count 3\n springs\nend",
        "x.scene:3:9: error: expected a spring family of body rope (chain or skip) after 'springs', got end of line");
    check_error(
        "body rope\n springs chain k 10 behaviour breakable\nend",
        "x.scene:2:40: error: springs family 'chain' with behaviour breakable is missing required key 'break_ratio'");
    check_error("body rope\n springs chain k 10 behaviour breakable break_ratio 0.9\nend",
                "x.scene:2:53: error: expected a number > 1 for 'break_ratio', got '0.9'");
    check_error("body rope\n springs chain k 10 break_ratio 2\nend",
                "x.scene:2:21: error: key 'break_ratio' needs 'behaviour breakable'");
    /* gravity in time: keyframes of four numbers, times that do not go back */
    check_error("world\n gravity_schedule 1 0 0\nend\nbody rope\n count 3\n mass 1\n spacing 1\nend",
                "x.scene:2:24: error: expected keyframes of four numbers (a time [s] and a gravity vector [m/s^2]) for "
                "'gravity_schedule', got end of line");
    check_error("world\n gravity_schedule 1 0 -1 0 0.5 0 1 0\nend\nbody rope\n count 3\n mass 1\n spacing 1\nend",
                "x.scene:2:28: error: expected a time of at least 1 s (the keyframe before it) for 'gravity_schedule', "
                "got '0.5'");
    /* strain limits: a number > 0; a compression limit in (0, 1); none that the pins break at rest */
    check_error("body rope\n springs chain k 10 strain_limit 0\nend",
                "x.scene:2:34: error: expected a positive number for 'strain_limit', got '0'");
    check_error("body rope\n springs chain k 10 strain_limit nan\nend",
                "x.scene:2:34: error: expected a number for 'strain_limit', got 'nan'");
    check_error("body rope\n springs chain k 10 compress_limit 1\nend",
                "x.scene:2:36: error: expected a number in (0, 1) for 'compress_limit', got '1'");
    check_error("body rope\n count 4\n mass 0.01\n spacing 0.02\n pin 2 3\n springs chain k 5 rest_length 0.018 "
                "strain_limit 0.05\nend",
                "x.scene:6:38: error: body rope: family chain: spring 2 joins two held particles (2 and 3, pinned or "
                "driven) at r / L0 = 1.111111, outside its limits [0, 1.05]: no projection can move it back (a "
                "strain_limit of at least 0.1111111)");
    check_error("body rope\n springs chain damping 1\nend",
                "x.scene:2:25: error: springs family 'chain' is missing required key 'k'");
    check_error("body rope\n springs chain k 1 k 2\nend",
                "x.scene:2:20: error: key 'k' repeated in springs line (first at column 16)");
    check_error(
        "body rope\n springs chain kk 1\nend",
        text_of("x.scene:2:16: error: unknown key 'kk' in springs line: did you mean 'k'? (expected one of: %s)",
                keys_of("springs line")));
    check_error("body rope\n springs chain k -5\nend",
                "x.scene:2:18: error: expected 0 or a stiffness in [1e-12, 1e12] N/m for 'k', got '-5'");
    check_error("body rope\n springs chain k 1 damping_model viscous\nend",
                "x.scene:2:34: error: expected along or relative for 'damping_model', got 'viscous'");
    check_error("body rope\n springs chain k 1\n springs chain k 2\nend",
                "x.scene:3:10: error: springs family 'chain' repeated in body rope (first at line 2)");
    check_error("body rope\n count 3\n mass 1\n spacing 1\n springs skip k 1\nend",
                "x.scene:5:2: error: springs family 'skip' needs 'topology skip_one'");
    check_error("body jelly\n nx 2\n ny 2\n nz 2\n spacing 1\n mass 1\n springs Kb1 k 1\nend\n",
                "x.scene:7:2: error: springs family 'Kb1' needs 'neighbours 52'");
}

static void test_cloth_rules(void **state)
{
    (void)state;
    check_error("body cloth\n nx 3\n ny 3\n spacing 1\n mass 1\nend",
                "x.scene:6:1: error: body cloth has no springs line (expected at least one of: structural, shear, "
                "bend, radius)");
    check_error("body cloth\n nx 3\n ny 3\n spacing 1\n mass 1\n u 1 0 0\n v 2 0 0\n springs bend k 1\nend",
                "x.scene:7:4: error: expected 'u' and 'v' not parallel in body cloth");
    check_error("body cloth\n nx 3\n ny 3\n spacing 1\n mass 1\n radius 1.5\n springs bend k 1\nend",
                "x.scene:6:2: error: key 'radius' needs a 'springs radius' line");
    check_error("body cloth\n nx 3\n ny 3\n spacing 1\n mass 1\n springs radius k 1\nend",
                "x.scene:6:2: error: springs family 'radius' needs the key 'radius'");
    check_error("body cloth\n nx 3\n ny 3\n spacing 1\n mass 1\n u 0 0 0\nend",
                "x.scene:6:4: error: expected a nonzero vector for 'u', got '0 0 0'");
}

static void test_index_ranges(void **state)
{
    (void)state;
    check_error("body rope\n count 3\n mass 1\n spacing 1\n pin 0 1 3\nend",
                "x.scene:5:10: error: expected a particle index in [0, 2] for 'pin' of body rope, got '3'");
    check_error("body rope\n count 3\n pin 0 -1\nend",
                "x.scene:3:8: error: expected an integer in [0, 2147483647] for 'pin', got '-1'");
    check_error("body points\n point 0 0 0 1\n point 1 0 0 1\n spring 0 2\nend\n",
                "x.scene:4:11: error: expected a particle index in [0, 1] for 'spring', got '2'");
    check_error("body points\n point 0 0 0 1\n spring 1 1\nend\n",
                "x.scene:3:11: error: expected two different particles for 'spring', got '1'");
    check_error("body points\n point 0 0 0\nend",
                "x.scene:2:13: error: expected a mass for 'point' (x y z mass [vx vy vz]), got end of line");
    check_error("body points\n point 0 0 0 1 2\nend",
                "x.scene:2:17: error: expected 3 numbers (x y z) for 'point', got end of line");
    check_error("body points\nend", "x.scene:2:1: error: body points has no 'point' line");
    check_error("body points\n point 0 0 0 1\n springs main k 1\nend",
                "x.scene:3:2: error: springs family 'main' has no 'spring' line to apply to");
}

static void test_cross_key_rules(void **state)
{
    (void)state;
    check_error(
        "walls\n min 0 0 0\n max 1 -1 1\nend\n",
        "x.scene:3:6: error: expected 'max' greater than 'min' in x, y and z, got max (1 -1 1) and min (0 0 0)");
    check_error("run\n dt 1\n steps 10\n time 3\nend\n",
                "x.scene:4:2: error: key 'time' conflicts with 'steps' in run");
    check_error("run\n dt 1\n jelly_alpha 0.5\nend\n",
                "x.scene:3:2: error: key 'jelly_alpha' needs 'integrator jelly'");
    /* the integrators a key needs, as the integrator table has them (hooke.h hk_integrator_info) */
    check_error("run\n dt 1\n cg_tolerance 1e-3\nend\n",
                "x.scene:3:2: error: key 'cg_tolerance' needs an implicit integrator (implicit_euler, trapezoidal or "
                "bdf2)");
    check_error("run\n dt 1\n integrator rk4\n newton_iterations 2\nend\n",
                "x.scene:4:2: error: key 'newton_iterations' needs a linearised integrator (implicit_euler or "
                "trapezoidal)");
    check_error("run\n dt 1\n integrator bdf2\n newton_iterations 2\nend\n",
                "x.scene:4:2: error: key 'newton_iterations' needs a linearised integrator (implicit_euler or "
                "trapezoidal)");
    check_error("run\n dt 1\n integrator trapezoidal\n newton_tolerance 1e-3\nend\n",
                "x.scene:4:2: error: key 'newton_tolerance' needs a minimising integrator (implicit_euler or bdf2)");
    /* iterations: the integrators that iterate over the springs only (the list from the table), 1 .. 10000 */
    check_error("run\n dt 1\n integrator rk4\n iterations 3\nend\n",
                "x.scene:4:2: error: key 'iterations' needs an iterated integrator (xpbd, vbd or projective_dynamics)");
    check_error("run\n dt 1\n integrator xpbd\n iterations 0\nend\n",
                "x.scene:4:13: error: expected an integer in [1, 10000] for 'iterations', got '0' (out of range)");
    check_error("run\n dt 1\n integrator vbd\n iterations 10001\nend\n",
                "x.scene:4:13: error: expected an integer in [1, 10000] for 'iterations', got '10001' (out of range)");
    check_error("run\n dt 1\n integrator local_global\n iterations 2.5\nend\n",
                "x.scene:4:13: error: expected an integer in [1, 10000] for 'iterations', got '2.5' (not a whole "
                "number)");
    /* chebyshev_rho: the integrators that accelerate their sweeps only, in (0, 1) */
    check_error("run\n dt 1\n integrator xpbd\n chebyshev_rho 0.9\nend\n",
                "x.scene:4:2: error: key 'chebyshev_rho' needs an accelerated integrator (vbd)");
    check_error("run\n dt 1\n integrator vbd\n chebyshev_rho 1\nend\n",
                "x.scene:4:16: error: expected a number in (0, 1) for 'chebyshev_rho', got '1'");
    check_error("run\n dt 1\n integrator implicit_euler\n newton_iterations 2\n newton_tolerance 1e-3\nend\n",
                "x.scene:5:2: error: key 'newton_tolerance' conflicts with 'newton_iterations' (the minimisation's "
                "tolerance and the linearised step's count: give one)");
    check_error("run\n dt 1\n integrator verlet\n cg_preconditioner multigrid\nend\n",
                "x.scene:4:2: error: key 'cg_preconditioner' needs an implicit integrator (implicit_euler, trapezoidal "
                "or bdf2)");
    check_error("run\n dt 1\n integrator implicit_euler\n cg_preconditioner ilu\nend\n",
                "x.scene:4:20: error: expected multigrid or block_jacobi for 'cg_preconditioner', got 'ilu'");
    check_error("run\n dt 1\n cg_stop force\nend\n",
                "x.scene:3:2: error: key 'cg_stop' needs an implicit integrator (implicit_euler, trapezoidal or bdf2)");
    check_error("run\n dt 1\n integrator implicit_euler\n cg_stop absolute\nend\n",
                "x.scene:4:10: error: expected force, relative, energy or newton for 'cg_stop', got 'absolute'");
    check_error("run\n dt 1\n integrator implicit_euler\n cg_tolerance 1\nend\n",
                "x.scene:4:15: error: expected a number in (0, 1) for 'cg_tolerance', got '1'");
    check_error("run\n dt 1\n integrator trapezoidal\n cg_max_iterations 0\nend\n",
                "x.scene:4:20: error: expected an integer in [1, 2147483647] for 'cg_max_iterations', got '0'");
    check_error("run\n dt 1\n integrator implicit_euler\n newton_iterations 101\nend\n",
                "x.scene:4:20: error: expected an integer in [1, 100] for 'newton_iterations', got '101'");
    check_error("ground\n model spring\n stiffness 3\n repulsion 4\nend\n",
                "x.scene:4:2: error: key 'repulsion' needs 'model repulsion'");
    check_error("ground\n repulsion 4\n stiffness 3\nend\n",
                "x.scene:3:2: error: key 'stiffness' needs 'model spring'");
    check_error("body rope\n count 3\n mass 1\n spacing 1\n anchor_velocity 1 0 0\nend",
                "x.scene:5:2: error: key 'anchor_velocity' needs 'anchor 1'");
    check_error("body spring\n a 0 0 0\n b 0 0 0\n mass_b 1\nend\n",
                "x.scene:3:2: error: key 'b': the spring joins particles 0 and 1 at the same position (0, 0, 0): a "
                "spring of zero length has no direction to act along");
}

static void test_builder_error_at_end_line(void **state)
{
    (void)state;
    /* the parser accepts it; the rope builder refuses more than 5e7 springs */
    check_error("world\nend\nbody rope\n count 20000\n mass 1\n spacing 1\n topology all_to_all\nend\n",
                "x.scene:8:1: error: body rope rejected: ");
}

static void test_garbage_never_crashes(void **state)
{
    (void)state;
    check_error("body \001\377rope\nend",
                text_of("x.scene:1:6: error: expected a body kind (%s), got '\\x01\\xFFrope'", body_kinds()));
    /* a 1 MB line: the token is shortened in the message */
    size_t n = 1u << 20;
    char *text = malloc(n + 64);
    assert_non_null(text);
    strcpy(text, "body rope\n mass ");
    size_t o = strlen(text);
    memset(text + o, '7', n);
    o += n;
    strcpy(text + o, "x\nend\n");
    check_error(text,
                "x.scene:2:7: error: expected a number for 'mass', got '7777777777777777777777777777777777777777...'");
    free(text);
    /* binary noise: any message, never a crash (ASan builds check the memory) */
    uint32_t seed = 12345;
    char noise[4096];
    for (int round = 0; round < 200; round++) {
        for (size_t i = 0; i + 1 < sizeof noise; i++) {
            seed = seed * 1664525u + 1013904223u;
            noise[i] = (char)((seed >> 24) | 1); /* no NUL inside */
        }
        noise[sizeof noise - 1] = '\0';
        hk_scene sc;
        char err[512];
        assert_int_equal(hk_scene_parse(noise, "x.scene", &sc, err, sizeof err), -1);
        assert_null(sc.world);
        assert_null(strchr(err, '\n'));
    }
    /* tiny and NULL error buffers are safe */
    hk_scene sc;
    char tiny[8];
    assert_int_equal(hk_scene_parse("nonsense", "x.scene", &sc, tiny, sizeof tiny), -1);
    assert_string_equal(tiny, "x.scene");
    assert_int_equal(hk_scene_parse("nonsense", "x.scene", &sc, NULL, 0), -1);
    assert_int_equal(hk_scene_parse(NULL, "x.scene", &sc, tiny, sizeof tiny), -1);
}

/* Mutates a valid scene byte by byte: each variant must parse or fail with a
 * one-line message, never crash or leak. */
static void test_mutated_scenes(void **state)
{
    (void)state;
    const char *base =
        "world\n gravity 0 -9.81 0\n air_drag 0.01\nend\n"
        "ground\n model repulsion\n height -1\n repulsion 100\nend\n"
        "sphere\n center 0 -1 0\n radius 0.5\nend\n"
        "body rope\n count 6\n mass 0.05\n spacing 0.05\n anchor 1\n"
        " springs chain k 100 damping 0.2 damping_model relative\nend\n"
        "body points\n point 0 0 0 1\n point 1 0 0 1 0 1 0\n spring 0 1\n springs main k 10\n pin 0\nend\n"
        "run\n integrator rk4\n dt 0.01\n steps 10\nend\n";
    const char alphabet[] = "0123456789 -.e#\nabcdkxyz\t";
    size_t len = strlen(base);
    char *text = malloc(len + 8);
    assert_non_null(text);
    uint32_t seed = 99;
    int parsed = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(text, base, len + 1);
        size_t cur = len;
        for (int edit = 0; edit < 2; edit++) {
            seed = seed * 1664525u + 1013904223u;
            size_t at = (seed >> 8) % cur;
            seed = seed * 1664525u + 1013904223u;
            char c = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
            switch ((seed >> 20) % 3) {
            case 0: text[at] = c; break; /* replace */
            case 1:
                memmove(text + at, text + at + 1, cur - at);
                cur--;
                break; /* delete */
            default:
                memmove(text + at + 1, text + at, cur - at + 1);
                text[at] = c;
                cur++;
                break; /* insert */
            }
        }
        hk_scene sc;
        char err[512];
        if (hk_scene_parse(text, "x.scene", &sc, err, sizeof err) == 0) {
            parsed++;
            hk_scene_free(&sc);
        } else {
            assert_null(sc.world);
            assert_int_equal(strncmp(err, "x.scene:", 8), 0);
            assert_non_null(strstr(err, ": error: "));
            assert_null(strchr(err, '\n'));
        }
    }
    free(text);
    assert_true(parsed > 0); /* some edits (in comments, numbers) keep it valid */
}

static void test_load_missing_file(void **state)
{
    (void)state;
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_load("no/such/dir/missing.scene", &sc, err, sizeof err), -1);
    assert_null(sc.world);
    assert_string_equal(err, "no/such/dir/missing.scene: error: cannot open scene: No such file or directory");
    /* a directory opens but cannot be read */
    assert_int_equal(hk_scene_load(HOOKE_SCENES_DIR, &sc, err, sizeof err), -1);
    assert_null(sc.world);
    assert_non_null(strstr(err, ": error: cannot"));
}

static void test_load_binary_file(void **state)
{
    (void)state;
    char path[] = "/tmp/hooke_test_scene_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char bytes[] = "world\nend\nbo\0dy rope\n";
    assert_int_equal(write(fd, bytes, sizeof bytes - 1), (ssize_t)(sizeof bytes - 1));
    close(fd);
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_load(path, &sc, err, sizeof err), -1);
    unlink(path);
    char want[600];
    snprintf(want, sizeof want, "%s:3:3: error: expected text, got a NUL byte (is this a binary file?)", path);
    assert_string_equal(err, want);
}

/* ------------------------------------------------------------------------ */
/* Valid input                                                               */

static void test_full_example(void **state)
{
    (void)state;
    /* every section; CRLF, tabs and comments */
    hk_scene sc =
        parse_ok("# example\r\n"
                 "world\r\n\tgravity 0 -1 0   # weak\r\n\tair_drag 0.5\r\n\tthreads 1\r\nend\r\n"
                 "ground\n model spring\n height -2\n stiffness 1000\nend\n"
                 "walls\n min -5 -5 -5\n max 5 5 5\n loss 0.1\nend\n"
                 "sphere\n center 0 -3 0\n radius 0.5\n velocity 1 0 0\n loss 0.2\nend\n"
                 "body rope\n count 5\n mass 0.1\n spacing 0.2\n topology skip_one\n pin 4\n"
                 " springs chain k 100 damping 1 damping_model relative\n springs skip k 50\nend\n"
                 "body points\n point 0 1 0 2\n point 1 1 0 3 0 4 0\n point 2 1 0 1\n"
                 " spring 0 1\n spring 1 2\n springs main k 7 behaviour breakable break_ratio 3\n pin 0\nend\n"
                 "body quad\n size 1\n mass 1\n pin 3\nend\n"
                 "body pendulum\n length 2\n mass 1\n k 1e4\nend\n"
                 "run\n integrator velocity_verlet\n dt 0.01\n dt_max 0.004\n time 2\n every 5\n"
                 " stretch_limit 4\nend\n");
    hk_world *w = sc.world;
    assert_int_equal(sc.integrator.kind, HK_VELOCITY_VERLET);
    assert_true(sc.integrator.dt == 0.01 && sc.integrator.dt_max == 0.004);
    assert_int_equal(hk_world_substeps(w), 3);
    assert_int_equal(sc.steps, 0);
    assert_true(sc.time == 2 && sc.every == 5 && sc.stretch_limit == 4);
    assert_int_equal(hk_world_body_count(w), 4);
    hk_particles_view pv = hk_world_particles(w);
    assert_int_equal(pv.count, 5 + 3 + 4 + 2);
    /* rope: 4 chain + 3 skip; points: 2; quad: 6; pendulum: 1 */
    assert_int_equal(hk_world_spring_count(w), 4 + 3 + 2 + 6 + 1);
    hk_body_info rope = hk_world_body(w, 0), pts = hk_world_body(w, 1), quad = hk_world_body(w, 2);
    assert_string_equal(rope.kind, "rope");
    assert_string_equal(pts.kind, "points");
    assert_true(pv.inv_mass[rope.first + 4] == 0 && pv.inv_mass[rope.first + 3] != 0);
    assert_true(pv.inv_mass[pts.first] == 0 && pv.mass[pts.first + 1] == 3);
    assert_true(pv.vy[pts.first + 1] == 4 && hk_world_position(sc.world, pts.first + 2).x == 2);
    assert_true(pv.inv_mass[quad.first + 3] == 0);
    /* family parameters */
    int found = 0;
    for (int f = 0; f < hk_world_family_count(w); f++) {
        hk_family_info fi = hk_world_family(w, f);
        if (fi.body == 0 && strcmp(fi.name, "chain") == 0) {
            assert_true(fi.params.k == 100 && fi.params.damping == 1);
            assert_int_equal(fi.params.damping_model, HK_DAMP_RELATIVE);
            found++;
        }
        if (fi.body == 0 && strcmp(fi.name, "skip") == 0) {
            assert_true(fi.params.k == 50 && fi.params.damping == 0);
            found++;
        }
        if (fi.body == 1) {
            assert_int_equal(fi.params.behaviour, HK_SPRING_BREAKABLE);
            assert_true(fi.params.break_ratio == 3 && fi.params.k == 7);
            found++;
        }
    }
    assert_int_equal(found, 3);
    hk_scene_free(&sc);
    assert_null(sc.world);
    hk_scene_free(&sc); /* twice is harmless */
}

static void test_defaults(void **state)
{
    (void)state;
    hk_scene sc = parse_ok(ROPE);
    hk_integrator_def d = hk_default_integrator_def();
    assert_int_equal(sc.integrator.kind, d.kind);
    assert_true(sc.integrator.dt == d.dt);
    assert_true(sc.steps == 0 && sc.time == 0 && sc.every == 0 && sc.stretch_limit == 10);
    hk_particles_view pv = hk_world_particles(sc.world);
    assert_int_equal(pv.count, 3);
    assert_true(hk_world_position(sc.world, 2).x == 2 &&
                hk_world_position(sc.world, 2).y == 0); /* direction (1, 0, 0) from the origin */
    hk_family_info fi = hk_world_family(sc.world, 0);
    assert_true(fi.params.k == 1000 && fi.params.damping == 0);
    hk_scene_free(&sc);

    /* jelly: 'all' sets every class, a class line overrides it */
    sc = parse_ok("body jelly\n nx 3\n ny 3\n nz 3\n spacing 1\n mass 1\n neighbours 52\n"
                  " springs all k 5\n springs K2 k 9\nend\n");
    int checked = 0;
    for (int f = 0; f < hk_world_family_count(sc.world); f++) {
        hk_family_info fi2 = hk_world_family(sc.world, f);
        assert_true(fi2.params.k == (strncmp(fi2.name, "K2", 2) == 0 ? 9 : 5));
        checked++;
    }
    assert_int_equal(checked, 26); /* 13 stencil offsets per ring */
    hk_scene_free(&sc);
}

typedef struct shipped {
    const char *file;
    int particles;
    int64_t springs;
} shipped;

/* Every scene in scenes/, with the counts its header comment promises. */
static const shipped shipped_scenes[] = {
    {"rope.scene", 80, 79},
    {"flag.scene", 24 * 36, 4886},
    {"cloth_corners.scene", 32 * 32, 5826},
    {"jelly26.scene", 512, 5068},
    {"jelly52.scene", 512, 8812},
    {"quad.scene", 4, 6},
    {"oscillator.scene", 2, 1},
    {"pendulum.scene", 2, 1},
    {"bungee.scene", 40, 39},
    {"shock_absorber.scene", 10, 9},
    {"tearing_cloth.scene", 40 * 30, 6852},
    {"cloth_512.scene", 262144, 1567746},
    {"jelly_big.scene", 48 * 48 * 48, 1376348},
    {"net.scene", 48, 48 * 47 / 2},
    {"mesh_points.scene", 18, 48},
    {"ring2d.scene", 17, 17},
    {"pressure_ball.scene", 642, 1920},
    {"torus_asc.scene", 288, 2592},
    {"flag_wind.scene", 24 * 16, 2106},
    {"billow.scene", 24 * 24, 2162},
    {"jelly_wind.scene", 216, 1940},
    {"cloth_512_stiff.scene", 262144, 1567746},
    {"cloth_stiff.scene", 64 * 64, 2 * 63 * 64 + 2 * 63 * 63 + 2 * 62 * 64},
    {"rope_implicit.scene", 80, 79},
    {"cloth_drape.scene", 256 * 256, 2 * 255 * 256 + 2 * 255 * 255 + 2 * 254 * 256},
    {"drape5.scene", 5 * 128 * 128, 5 * (2 * 127 * 128 + 2 * 127 * 127 + 2 * 126 * 128)},
    {"hang.scene", 128 * 128, 2 * 127 * 128 + 2 * 127 * 127 + 2 * 126 * 128},
    {"curtain.scene", 15 * 64 * 64, 15 * (2 * 63 * 64 + 2 * 63 * 63 + 2 * 62 * 64)},
    {"cloth_box.scene", 48 * 48, 2 * 47 * 48 + 2 * 47 * 47 + 2 * 46 * 48},
    {"cloth_plate.scene", 512 * 512, 1567746},
    {"jelly_pile.scene", 4 * 125, 4 * (3 * 4 * 25 + 3 * 2 * 4 * 4 * 5 + 4 * 4 * 4 * 4)},
    {"cloth_fold.scene", 24 * 72, (23 * 72 + 24 * 71) + 2 * 23 * 71 + (22 * 72 + 24 * 70)},
    {"cloth_fold_particles.scene", 24 * 72, (23 * 72 + 24 * 71) + 2 * 23 * 71 + (22 * 72 + 24 * 70)},
    {"stress_strand_tilted.scene", 20, 19},
    {"stress_strand_skip.scene", 20, 19 + 18},
    {"stress_strand_3.scene", 3, 2},
    {"stress_stiffness_ratio.scene", 5, 4},
    {"stress_chain_mass_ratio.scene", 20, 19},
    {"stress_cloth_hanging.scene", 32 * 32, 2 * 31 * 32 + 2 * 31 * 31 + 2 * 30 * 32},
    {"cloth_hanging_xpbd.scene", 64 * 32, 63 * 32 + 64 * 31 + 2 * 63 * 31 + 62 * 32 + 64 * 30},
    {"cloth_small_steps.scene", 387 * 387, 2 * 386 * 387 + 2 * 386 * 386 + 2 * 385 * 387},
};
#define N_SHIPPED (int)(sizeof shipped_scenes / sizeof shipped_scenes[0])

static void test_shipped_scenes(void **state)
{
    (void)state;
    for (int i = 0; i < N_SHIPPED; i++) {
        char path[1024], err[1024];
        snprintf(path, sizeof path, "%s/%s", HOOKE_SCENES_DIR, shipped_scenes[i].file);
        hk_scene sc;
        if (hk_scene_load(path, &sc, err, sizeof err) != 0) {
            print_error("%s\n", err);
            fail();
        }
        hk_particles_view pv = hk_world_particles(sc.world);
        if (pv.count != shipped_scenes[i].particles || hk_world_spring_count(sc.world) != shipped_scenes[i].springs) {
            print_error("%s: %d particles, %lld springs; expected %d, %lld\n", shipped_scenes[i].file, pv.count,
                        (long long)hk_world_spring_count(sc.world), shipped_scenes[i].particles,
                        (long long)shipped_scenes[i].springs);
            fail();
        }
        assert_true(sc.steps > 0 || sc.time > 0); /* every shipped scene says how long to run */
        hk_scene_free(&sc);
    }
}

/* Every *.scene file in scenes/ is in the table above (so each is tested). */
static void test_no_untested_scene(void **state)
{
    (void)state;
    char names[128][64];
    const int files = hk_test_scene_files(names, 128);
    for (int f = 0; f < files; f++) {
        int known = 0;
        for (int i = 0; i < N_SHIPPED; i++) known |= strcmp(shipped_scenes[i].file, names[f]) == 0;
        if (!known) {
            print_error("scenes/%s is not in shipped_scenes[]\n", names[f]);
            fail();
        }
    }
    assert_int_equal(files, N_SHIPPED);
}

/* The implicit integrators' keys land in the integrator setting; without
 * them the setting holds 0, the library's "default". */
static void test_implicit_keys(void **state)
{
    (void)state;
    hk_scene sc = parse_ok(ROPE "run\n dt 0.01\n integrator backward_euler\n cg_tolerance 1e-3\n cg_max_iterations 77\n"
                                " newton_iterations 3\n cg_preconditioner block_jacobi\n cg_stop relative\nend\n");
    assert_int_equal(sc.integrator.kind, HK_IMPLICIT_EULER);
    assert_int_equal(sc.integrator.cg_stop, HK_CG_STOP_RELATIVE);
    assert_int_equal(sc.integrator.preconditioner, HK_PRECONDITIONER_BLOCK_JACOBI);
    assert_true(sc.integrator.cg_tolerance == 1e-3);
    assert_int_equal(sc.integrator.cg_max_iterations, 77);
    assert_int_equal(sc.integrator.newton_iterations, 3);
    hk_scene_free(&sc);
    sc = parse_ok(ROPE "run\n dt 0.01\n integrator trapezoidal\n cg_stop energy\nend\n");
    assert_int_equal(sc.integrator.cg_stop, HK_CG_STOP_ENERGY);
    hk_scene_free(&sc);
    sc = parse_ok(ROPE "run\n dt 0.01\n integrator bdf2\n cg_stop newton\nend\n");
    assert_int_equal(sc.integrator.cg_stop, HK_CG_STOP_NEWTON);
    hk_scene_free(&sc);
    sc = parse_ok(ROPE "run\n dt 0.01\n integrator newmark\nend\n");
    assert_int_equal(sc.integrator.kind, HK_TRAPEZOIDAL);
    assert_true(sc.integrator.cg_tolerance == 0);
    assert_int_equal(sc.integrator.cg_max_iterations, 0);
    assert_int_equal(sc.integrator.newton_iterations, 0);
    assert_int_equal(sc.integrator.preconditioner, HK_PRECONDITIONER_MULTIGRID);
    assert_int_equal(sc.integrator.cg_stop, HK_CG_STOP_FORCE);
    hk_scene_free(&sc);
}

static void test_rope_scene_settings(void **state)
{
    (void)state;
    hk_scene sc;
    char err[512];
    assert_int_equal(hk_scene_load(HOOKE_SCENES_DIR "/rope.scene", &sc, err, sizeof err), 0);
    assert_int_equal(sc.integrator.kind, HK_SEMI_IMPLICIT_EULER);
    assert_int_equal(hk_world_substeps(sc.world), 9); /* ceil((1/60) / 0.002) */
    hk_family_info fi = hk_world_family(sc.world, 0);
    assert_true(fi.params.k == 10000 && fi.params.damping == 0.2 && fi.params.rest_length == 0.05);
    assert_int_equal(fi.params.damping_model, HK_DAMP_RELATIVE);
    hk_particles_view pv = hk_world_particles(sc.world);
    assert_true(pv.inv_mass[0] == 0);                                        /* the anchor */
    assert_true(fabs(hk_world_position(sc.world, 79).x - 79 * 0.05) < 1e-5); /* horizontal along +x */
    hk_scene_free(&sc);
}

/* A world built in code (hk_scene_parse_settings, hk_scene_add): settings alone make an empty world, items added to it
 * later make the world the whole text makes (the same state hash), a section that sets up a new world is refused at
 * its line, and a bad item leaves the world as it was. */
static void test_added_items(void **state)
{
    (void)state;
    const char *settings = "world\n gravity 0 -9.81 0\nend\n";
    const char *rope = "body rope\n count 8\n mass 0.1\n spacing 0.1\n springs chain k 500\n pin 0\nend\n";
    const char *ball = "sphere\n center 0 -1 0\n radius 0.3\nend\n";
    char whole[512], err[512];
    snprintf(whole, sizeof whole, "%s%s%s", settings, rope, ball);
    hk_scene ref, empty;
    assert_int_equal(hk_scene_parse_counted(whole, strlen(whole), "x.scene", NULL, &ref, err, sizeof err), 0);
    assert_int_not_equal(hk_scene_parse_counted(settings, strlen(settings), "x.scene", NULL, &empty, err, sizeof err),
                         0);
    assert_string_equal(err, "x.scene:4:1: error: no body in scene");
    assert_int_equal(hk_scene_parse_settings(settings, strlen(settings), "x.scene", NULL, &empty, err, sizeof err), 0);
    hk_world *w = empty.world;
    assert_int_equal(hk_world_particles(w).count, 0);
    assert_int_equal(hk_scene_add(w, rope, strlen(rope), "add", err, sizeof err), 0);
    assert_int_equal(hk_scene_add(w, ball, strlen(ball), "add", err, sizeof err), 0);
    const char *bad[][2] = {
        {"world\n gravity 0 0 0\nend\n", "add:1:1: error: section 'world' sets up a new world; what is added to a "
                                         "world is its bodies, spheres, colliders and contact"},
        {"body rope\n count 1\n mass 0.1\n spacing 0.1\nend\n",
         "add:2:8: error: expected an integer in [2, 268435456] for 'count', got '1' (out of range)"},
        {"body rope\n count 3\n mass 0.1\n spacing 0.1\n pin 3\nend\n",
         "add:5:6: error: expected a particle index in [0, 2] for 'pin' of body rope, got '3'"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_int_not_equal(hk_scene_add(w, bad[k][0], strlen(bad[k][0]), "add", err, sizeof err), 0);
        print_message("%s\n", err);
        assert_string_equal(err, bad[k][1]);
    }
    assert_int_equal(hk_world_particles(w).count, 8);
    assert_int_equal(hk_world_body_count(w), 1);
    for (int s = 0; s < 20; s++) {
        assert_int_equal(hk_world_step(w), HK_OK);
        assert_int_equal(hk_world_step(ref.world), HK_OK);
    }
    assert_true(hk_world_state_hash(w) == hk_world_state_hash(ref.world));
    hk_scene_free(&ref);
    hk_scene_free(&empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_bad_number),
        cmocka_unit_test(test_value_out_of_range),
        cmocka_unit_test(test_bad_integer),
        cmocka_unit_test(test_unknown_key),
        cmocka_unit_test(test_repeated_key),
        cmocka_unit_test(test_missing_required_key),
        cmocka_unit_test(test_missing_value),
        cmocka_unit_test(test_trailing_tokens),
        cmocka_unit_test(test_unclosed_section),
        cmocka_unit_test(test_bad_sections),
        cmocka_unit_test(test_bad_names),
        cmocka_unit_test(test_springs_lines),
        cmocka_unit_test(test_cloth_rules),
        cmocka_unit_test(test_index_ranges),
        cmocka_unit_test(test_cross_key_rules),
        cmocka_unit_test(test_builder_error_at_end_line),
        cmocka_unit_test(test_garbage_never_crashes),
        cmocka_unit_test(test_mutated_scenes),
        cmocka_unit_test(test_load_missing_file),
        cmocka_unit_test(test_load_binary_file),
        cmocka_unit_test(test_full_example),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_shipped_scenes),
        cmocka_unit_test(test_no_untested_scene),
        cmocka_unit_test(test_byte_order_marks),
        cmocka_unit_test(test_implicit_keys),
        cmocka_unit_test(test_rope_scene_settings),
        cmocka_unit_test(test_added_items),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
