/* run.h — `hooke run`: a scene from its start or a checkpoint to the run's end, its outputs and the summary line. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RUN_H
#define HOOKE_RUN_H

#include "run_exit.h"

/* hooke run SCENE [options]; argv[1] is "run". Returns the exit status. */
int hk_cmd_run(int argc, char **argv);

#endif
