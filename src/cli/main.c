/* main.c — the hooke command-line program: OMP_NUM_THREADS checked at its start, then the commands (commands.c). */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>

#include "canvas.h"
#include "commands.h"
#include "omp_env.h"

/* OMP_NUM_THREADS checked before any shared library starts (omp_env.h): only a program has a .preinit_array */
__attribute__((section(".preinit_array"), used)) static void (*const preinit)(int, char **, char **) = hk_omp_env_check;

int main(int argc, char **argv)
{
    /* the program owns the process: at its end cairo's and fontconfig's caches go too (leak checkers) */
    atexit(hk_canvas_release_fonts);
    return hk_command_main(argc, argv);
}
