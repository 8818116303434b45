/* state_io.h — writes the final particle state (--state-out) in a documented text format. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STATE_IO_H
#define HOOKE_STATE_IO_H

#include <stdio.h>
#include "hooke/hooke.h"

/* Format (docs/state-format.md): a header line
 *   # hooke state v1 particles=N time=T steps=S real=float|double
 * then one line per particle: "index x y z vx vy vz inv_mass" with enough
 * digits to round-trip exactly. Returns 0 or -1 (errno set). */
int hk_state_text(const hk_world *w, FILE *f);
int hk_state_write_file(const hk_world *w, const char *path);

#endif
