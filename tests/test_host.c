/* test_host.c — hooke embedded in a host that draws with cairo itself: the host's cairo and fontconfig work before
 * and after hooke draws a frame, and the process exits 0 (the library leaves process-wide state alone). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <stdlib.h>
#include <unistd.h>

/* The host's own picture, alive until the process ends, as a host's window is. */
static cairo_surface_t *host_surface;
static cairo_t *host_cr;
static char tmpdir[64];

/* The host draws a line of text and checks that cairo and fontconfig did it. */
static void host_draws_text(void)
{
    cairo_select_font_face(host_cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(host_cr, 14);
    cairo_move_to(host_cr, 10, 30);
    cairo_show_text(host_cr, "host text");
    assert_int_equal(cairo_status(host_cr), CAIRO_STATUS_SUCCESS);
    cairo_text_extents_t ext;
    cairo_text_extents(host_cr, "host text", &ext);
    assert_true(ext.width > 10); /* a font was found and measured */
    FcPattern *p = FcNameParse((const FcChar8 *)"DejaVu Sans");
    assert_non_null(p);
    FcPatternDestroy(p);
}

/* The host's end, run last (registered first): its picture released, then cairo's and fontconfig's caches, as a
 * leak-clean host does. A library that already reset them makes this abort. */
static void host_exit(void)
{
    cairo_destroy(host_cr);
    cairo_surface_destroy(host_surface);
    cairo_debug_reset_static_data();
    FcFini();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) _exit(3);
}

static void test_host_cairo_survives_a_frame(void **state)
{
    (void)state;
    host_draws_text();
    char err[512];
    hk_world *w = hk_world_load_scene(HOOKE_SCENES_DIR "/rope.scene", NULL, err, sizeof err);
    if (!w) fail_msg("%s", err);
    for (int i = 0; i < 5; i++) hk_world_step(w);
    assert_int_equal(hk_frame_write(w, "png", tmpdir, err, sizeof err), 0);
    hk_world_destroy(w);
    host_draws_text(); /* the host's fonts still work after hooke drew */
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hooke_host_XXXXXX");
    if (!mkdtemp(tmpdir)) return 2;
    host_surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 200, 50);
    host_cr = cairo_create(host_surface);
    atexit(host_exit);
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_host_cairo_survives_a_frame)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
