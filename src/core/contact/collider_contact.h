/* collider_contact.h — the colliders' contact with particles: broad phase, force and blocks, swept safety net. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_COLLIDER_CONTACT_H
#define HOOKE_COLLIDER_CONTACT_H

#include "contact_state.h"

/* The colliders' part of each phase of response.h (the steps told there), called by the subsystem's entry
 * (response.c) with w's state ct; the pairs' part is pairs.h's. */

/* The per-particle arrays for w's particle capacity (the forces zero, the anchors of the particles there were
 * kept): 0, or -1 out of memory (recorded on w). */
int hk_colliders_room(hk_world *w, struct hk_contact *ct);
/* Step 1, the broad phase: the step's candidates, every other particle's q0 and slack; 0 or -1 (recorded). */
int hk_colliders_begin(hk_world *w, struct hk_contact *ct);
/* Before a substep: each candidate's place, the start of its swept test. */
void hk_colliders_substep_begin(hk_world *w, struct hk_contact *ct);
/* Step 2 at the colliders' time ct->t_eval: each candidate's force, blocks and record, the touching ones. */
void hk_colliders_forces(hk_world *w, struct hk_contact *ct);
/* Step 3 over the substep [t0, t1] (px, py, pz: the position-Verlet history, or NULL); the particles moved. */
int hk_colliders_substep_end(hk_world *w, struct hk_contact *ct, double t0, double t1, hk_real *px, hk_real *py,
                             hk_real *pz);
/* Step 4 at the step's end; the particles moved. */
int hk_colliders_end_step(hk_world *w, struct hk_contact *ct, hk_real *px, hk_real *py, hk_real *pz);
/* The colliders' contacts of the state now (hk_contact_counts), added to count (unless NULL), out's contacts and
 * inside, and *gap (at most the smallest distance within a thickness); 0, or -1 out of memory. */
int hk_colliders_survey(const hk_world *w, const struct hk_contact *ct, int32_t *count, hk_contact_survey *out,
                        double *gap);

#endif
