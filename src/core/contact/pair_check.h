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

/* 0 if every candidate of pr left out of the step's pairs cannot come within the thickness while each particle stays
 * within its step's bound b of its ball's centre qm, so that the pairs hold every pair that can touch in the step;
 * else -1 with the first that can in why (len bytes). Either of two bounds rules a candidate out
 * (hk_pairs_meet_within): its distance at the balls' centres, each particle reaching b; or its distance where it was
 * found (cd), each particle reaching b beyond how far it has moved from there (hk_pairs_from_cand), which is the
 * tighter where the corner that moved since is not the one with the largest bound. The bounds are less a millionth
 * of the thickness, for the rounding of the judgements' own. */
int hk_pairs_validate_selection(const hk_pairs *pr, char *why, size_t len);

#endif
