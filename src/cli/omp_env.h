/* omp_env.h — OMP_NUM_THREADS by hooke's rule, checked before the OpenMP runtime reads it. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OMP_ENV_H
#define HOOKE_OMP_ENV_H

/* What OMP_NUM_THREADS must be, for messages ("OMP_NUM_THREADS=V: expected ..."). */
#define HK_OMP_THREADS_EXPECTED "a thread count 1..4096 (or a list of them, 4,2)"

/* OpenMP's form of OMP_NUM_THREADS as hooke takes it: a thread count
 * 1..HK_MAX_THREADS (decimal digits), or a comma-separated list of them
 * (one per nesting level; the first is hooke's), blanks allowed around each
 * count. 0 with the first count in *first, or -1. Calls no library function
 * (it runs before the C library's own start-up code, below). */
int hk_omp_threads_parse(const char *s, int *first);

/* The program checks OMP_NUM_THREADS before any shared library starts (a
 * function in its .preinit_array): a value it refuses is taken out of the
 * environment, so the OpenMP runtime, which reads it in its constructor,
 * neither warns about it nor uses it; an empty one is taken out too (hooke
 * reads it as unset; the runtime would warn). The value refused, or NULL;
 * main() reports it as hooke's error. */
const char *hk_omp_env_refused(void);
/* The check itself, the function main.c puts in the program's .preinit_array
 * (a shared object has none: a host that links libhooke_cli into one gets
 * OMP_NUM_THREADS as its OpenMP runtime took it). */
void hk_omp_env_check(int argc, char **argv, char **envp);

/* OMP_NUM_THREADS as the user set it: the value refused, else getenv's. */
const char *hk_omp_env_value(void);

#endif
