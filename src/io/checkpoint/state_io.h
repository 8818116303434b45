/* state_io.h — writes the final particle state (--state-out) in a documented text format. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_STATE_IO_H
#define HOOKE_STATE_IO_H

#include <stdio.h>
#include "hooke/hooke.h"

/* The state file's text (hk_state_write_file, hooke/runs.h) written to f: 0 or -1 (errno set). */
int hk_state_text(const hk_world *w, FILE *f);

#endif
