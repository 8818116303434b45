/* check.h — run-time checks of the invariants the code relies on: on in checking builds (HOOKE_CHECKS), compiled out
 * otherwise. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CHECK_H
#define HOOKE_CHECK_H

#include <stddef.h>

/*
 * Where a comment states an invariant (bodies share no particle, a block of
 * rows never runs past the lattice, no particle twice in a colour, every
 * particle computed by exactly one rank), the code says it again as a check:
 *
 *   HK_ASSERT(cond)          a cheap condition, at the point it must hold;
 *   HK_VALIDATE(fn, args...) a validator of a whole structure, called as
 *                            fn(args..., why, len): 0 if it holds, else -1
 *                            with what is wrong written into why.
 *
 * Both are on in checking builds (-DHOOKE_CHECKS=ON: the asan preset) and
 * compile to nothing otherwise (the release build pays nothing). A failed
 * check prints the file, line, the condition and what was wrong on stderr
 * and aborts: it is a bug in hooke, not bad input (bad input is refused
 * with a message, never checked this way). The validators are ordinary
 * functions, called by the tests in every build.
 */

#ifdef HOOKE_CHECKS
#define HK_CHECKS 1
/* Reports a failed check and aborts. */
_Noreturn void hk_check_failed(const char *file, int line, const char *what, const char *why);
#define HK_ASSERT(cond) ((cond) ? (void)0 : hk_check_failed(__FILE__, __LINE__, #cond, NULL))
#define HK_VALIDATE(fn, ...)                                                                                           \
    do {                                                                                                               \
        char hk_why_[256];                                                                                             \
        if (fn(__VA_ARGS__, hk_why_, sizeof hk_why_) != 0) hk_check_failed(__FILE__, __LINE__, #fn, hk_why_);          \
    } while (0)
#else
#define HK_CHECKS 0
/* not evaluated (sizeof), but still compiled: a check cannot rot in release builds */
#define HK_ASSERT(cond) ((void)sizeof(!(cond)))
#define HK_VALIDATE(fn, ...) ((void)(fn))
#endif

#endif
