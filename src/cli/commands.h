/* commands.h — the program's commands by name, for the program's main (and a host that runs them in-process). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_COMMANDS_H
#define HOOKE_COMMANDS_H

/* What `hooke ARGS...` does, with argv[0] the program's name: checks the
 * environment hooke reads, parses hooke's own options and runs the command
 * named (run, bench, stability, plot, info). Returns the exit status
 * (main.c's help lists them); prints only what the program prints, exits
 * nowhere. Commands change the calling thread's OpenMP thread count and,
 * unless hk_topology_set_binding(0), bind the OpenMP threads to cores; `run`
 * catches SIGINT and SIGTERM while it runs (its previous handlers restored
 * at its end) and ignores SIGXFSZ. One call at a time per process (getopt's
 * state and run's stop flag are the process's). */
int hk_command_main(int argc, char **argv);

#endif
