/* pair_check.h — the contact pairs' invariants as a validator, for HK_VALIDATE in the contact passes and the tests. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PAIR_CHECK_H
#define HOOKE_PAIR_CHECK_H

#include <stddef.h>

#include "pairs.h"

/* 0 if the step's pairs of pr hold what the contact passes rely on, else -1 with what is wrong in why (len bytes):
 * each pair of a known kind, its particles in range (a particle pair's second repeated, the lower first); the pairs
 * in the one order (hk_pair_order) and each once; no pair of topological neighbours of one body (pairs.h); each
 * corner's place among the pairs' particles (at) in range and naming that particle, those particles ascending. */
int hk_pairs_validate(const hk_world *w, const hk_pairs *pr, char *why, size_t len);

#endif
