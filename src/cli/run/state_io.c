/* state_io.c — the final particle state as text (docs/state-format.md). */
/* SPDX-License-Identifier: MIT */
#include "state_io.h"

#include "outfile.h"

#include <errno.h>
#include <string.h>

#ifdef HOOKE_DOUBLE
#define HK_DIGITS 17
#define HK_REAL_NAME "double"
#else
#define HK_DIGITS 9
#define HK_REAL_NAME "float"
#endif

int hk_state_write(const hk_world *w, FILE *f)
{
    hk_particles_view p = hk_world_particles(w);
    fprintf(f, "# hooke state v2 particles=%d time=%.17g steps=%lld real=%s\n", p.count, hk_world_time(w),
            (long long)hk_world_step_count(w), HK_REAL_NAME);
    fprintf(f, "# index x y z vx vy vz inv_mass\n");
    for (int i = 0; i < p.count; i++) {
        const hk_vec3 x = hk_world_position(w, i); /* a double: 17 digits in every build */
        fprintf(f, "%d %.17g %.17g %.17g %.*g %.*g %.*g %.*g\n", i, x.x, x.y, x.z, HK_DIGITS, (double)p.vx[i],
                HK_DIGITS, (double)p.vy[i], HK_DIGITS, (double)p.vz[i], HK_DIGITS, (double)p.inv_mass[i]);
    }
    return ferror(f) ? -1 : 0;
}

int hk_state_write_file(const hk_world *w, const char *path)
{
    hk_outfile o;
    FILE *f = hk_out_open(&o, path, "w");
    if (!f) return -1;
    return hk_out_close(&o, hk_state_write(w, f) == 0);
}
