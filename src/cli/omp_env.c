/* omp_env.c — OMP_NUM_THREADS checked by hooke's rule from the program's .preinit_array (main.c), before the OpenMP
 * runtime's constructor reads it: a value hooke refuses is taken out of the environment and reported by main. */
/* SPDX-License-Identifier: MIT */
#include "omp_env.h"

#include <stdlib.h>

#include "hooke/hooke.h"

/* No sanitizer instruments what runs from .preinit_array: the sanitizers' runtimes may start after it. */
#if defined(__clang__)
#define HK_PREINIT __attribute__((no_sanitize("address", "undefined", "thread")))
#elif defined(__GNUC__)
#define HK_PREINIT __attribute__((no_sanitize_address, no_sanitize_undefined))
#else
#define HK_PREINIT
#endif

static HK_PREINIT int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static HK_PREINIT int parse(const char *s, int *first)
{
    int level = 0;
    for (;;) {
        while (blank(*s)) s++;
        if (*s < '0' || *s > '9') return -1;
        long n = 0;
        for (; *s >= '0' && *s <= '9'; s++)
            if ((n = 10 * n + (*s - '0')) > HK_MAX_THREADS) return -1;
        if (n < 1) return -1;
        if (level++ == 0) *first = (int)n;
        while (blank(*s)) s++;
        if (*s == '\0') return 0;
        if (*s++ != ',') return -1;
    }
}

int hk_omp_threads_parse(const char *s, int *first) { return parse(s, first); }

static const char *refused;

/* Takes OMP_NUM_THREADS out of envp (the process's environment array, in place) where hooke refuses it, or where
 * it is empty; remembers a refused value (its text stays where the kernel put it). */
HK_PREINIT void hk_omp_env_check(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    static const char name[] = "OMP_NUM_THREADS=";
    for (char **e = envp; e && *e;) {
        int k = 0;
        while (name[k] && (*e)[k] == name[k]) k++;
        int n;
        if (name[k] != '\0' || ((*e)[k] != '\0' && parse(*e + k, &n) == 0)) {
            e++;
            continue;
        }
        if ((*e)[k] != '\0') refused = *e + k;
        for (char **f = e; *f; f++) f[0] = f[1];
    }
}

const char *hk_omp_env_refused(void) { return refused; }

const char *hk_omp_env_value(void) { return refused ? refused : getenv("OMP_NUM_THREADS"); }
