/* response.h — the contact subsystem's entry: the world's colliders, the phases a step calls, the survey and costs. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_RESPONSE_H
#define HOOKE_RESPONSE_H

#include "contact_state.h"

/*
 * How a world with colliders steps (core/step/step.c calls these):
 *
 * 1. Broad phase, once per step (hk_contact_begin_step): every particle
 *    this process computes whose box x +- m, m = 2 |v| dt + |g| dt^2 (the
 *    motion the step can give it, twice over), meets the box that holds a
 *    collider over the step widened by its thickness becomes a candidate
 *    (ascending particle order); every other particle keeps its place q0
 *    and its slack: how far (largest coordinate) it may move before it
 *    could meet such a box.
 * 2. Force, at every force evaluation (hk_contact_forces, called by the
 *    engine's forces.c): each candidate's force from the colliders within
 *    its thickness (hooke.h, hk_collider_def), each collider where it is
 *    at the evaluation's time (hk_contact_at), summed in collider order,
 *    goes into a per-particle array that the force pass adds to the
 *    external force (engine/external.h), and its stiffness and damping
 *    blocks into a record that the implicit solve reads.
 * 3. Safety net, after every substep (hk_contact_substep_end): each
 *    candidate's motion over the substep, relative to each collider, is
 *    swept against it (unless it moved less than its distance from every
 *    collider at the substep's start, which the first force evaluation of
 *    the substep measured, less half the thickest layer: the distance is
 *    1-Lipschitz, so it can neither have reached one nor come more than
 *    half a layer into one); a particle that entered it is put back on
 *    the surface it crossed, and its normal velocity into the collider is
 *    removed (Coulomb friction takes off tangential velocity in
 *    proportion: Bridson, Fedkiw and Anderson 2002). A particle found
 *    inside a collider is pushed out the same way. One that started the
 *    substep outside the layer (no contact force acted on it) lands where
 *    the layer's spring would have stopped it, thickness - |v_n| sqrt(m /
 *    k) out (its normal kinetic energy stored in the spring), and so does
 *    one that came into the layer deeper than that without crossing the
 *    surface; one pushed through a layer that acted lands a hundredth of
 *    the thickness out.
 * 4. Check, at the end of the step (hk_contact_end_step): a particle that
 *    was no candidate and moved more than its slack after all is swept from
 *    q0 over the whole step: nothing passes unseen, whatever the speed.
 *
 * Every particle's terms come from its own state and the colliders alone,
 * in one fixed order, so the bits do not depend on the thread count, and a
 * distributed run computes the particles it owns (hk_world_spans).
 */

/* What contact has cost w so far (contact_state.h, hk_contact_profile; all 0 without colliders or contact). */
hk_contact_profile hk_contact_profile_of(const hk_world *w);

/* The colliders' friction anchors (friction.h): hk_contact_anchors gives
 * the four per-particle arrays (x, y, z in the collider's frame [m], the
 * collider's index or -1 for none) of w's particle count and returns 1, or
 * returns 0 with NULLs where w keeps none; hk_contact_keep_anchors makes
 * them (all let go) for a world with colliders that has none yet: 0, or -1
 * out of memory (recorded on w). */
int hk_contact_anchors(const hk_world *w, hk_real *out[4]);
int hk_contact_keep_anchors(hk_world *w);

/* The world's colliders (NULL and 0 without any). */
int hk_colliders(const hk_world *w, const hk_collider **out);
/* -1 if the contact between bodies and every collider obey the thickness
 * rule (layer_rule.h; checked again only when families were added), else
 * the index of the first collider that does not (the collider count: the
 * contact between bodies), with the reason recorded on w (hk_fail). */
int hk_colliders_check(hk_world *w);

/* Whether w has colliders or contact between bodies: its steps run the contact phases. */
int hk_contact_on(const hk_world *w);
/* Frees the contact state of w (colliders included). */
void hk_contact_free(hk_world *w);
/* The state of w, made on first use; NULL after hk_fail_memory. */
struct hk_contact *hk_contact_get(hk_world *w);

/* Step 1 (above). 0, or -1 with the failure recorded (out of memory, or a
 * collider thicker than the smallest spring rest length). */
int hk_contact_begin_step(hk_world *w);
/* Before substep s (the colliders' time t [s]): the candidates' places. */
void hk_contact_substep_begin(hk_world *w, double t);
/* Step 3 over the substep [t0, t1] (prev: the position-Verlet history to
 * keep consistent, or NULL); returns the particles moved. */
int hk_contact_substep_end(hk_world *w, double t0, double t1, hk_real *px, hk_real *py, hk_real *pz);
/* Step 4; returns the particles moved. */
int hk_contact_end_step(hk_world *w, hk_real *px, hk_real *py, hk_real *pz);

/* Step 2 at the current state. */
void hk_contact_forces(hk_world *w);
/* The colliders' time of the force evaluations that follow: the substep's
 * start + s [s] (hk_contact_substep_begin sets s = 0). Every evaluation
 * sees each collider where it is at that evaluation's time, so the
 * integrators whose evaluations lie inside the substep set it before each:
 * rk4's stages (0, h/2, h/2, h), velocity Verlet's second kick (h), the
 * implicit solve's Newton iterations (h, the substep's end). */
void hk_contact_at(hk_world *w, double s);
/* The per-particle force arrays to add to the external force: the contact
 * forces, the host's applied forces (world/applied.h), or the two summed
 * (a per-particle pass into the world's applied_sum); NULL (all three)
 * when no particle touches a collider and none is applied. After
 * hk_contact_forces, before the passes; a failure (no memory) is the
 * world's step_failed. */
void hk_particle_force_arrays(hk_world *w, const hk_real *out[3]);

/* The contacts of the state as it is now, from the state alone (any rank
 * of a distributed run that holds the whole state): per particle the
 * colliders within whose thickness it lies plus the touching pairs of
 * bodies (pairs.h) in which it has a weight other than 0 (into count,
 * unless NULL: the frames' `contacts`), and the total of collider
 * contacts and touching pairs, the smallest signed distance of a particle
 * from a collider's surface or a pair's triangle among those within its
 * thickness [m] (NAN when none is), and the particles inside a collider
 * (a mesh's: within its thickness) plus the pairs the safety net left
 * meeting, none of either: the statistics' contacts, min_gap and
 * crossings. */
hk_contact_survey hk_contact_counts(const hk_world *w, int32_t *count);

/* The implicit solve, called by every task of tm's team (team.h): the
 * task's share of the touching candidates, out[i] += (sK K + sD D) y[i],
 * and blk[e][i] += the same block's entries; the pairs' after a barrier. */
void hk_contact_apply(const hk_team *tm, const hk_world *w, hk_real sK, hk_real sD, hk_real *const y[3],
                      hk_real *const out[3]);
/* (bound: the pairs' diagonal terms bounded, pairs.h hk_pairs_diag, for the multigrid) */
void hk_contact_blocks(const hk_team *tm, const hk_world *w, hk_real sK, hk_real sD, int bound, hk_real *const blk[6]);
/* The colliders' motion over the substep in the implicit solve's first
 * right-hand side (its force linearised about the substep's start, with
 * the colliders where they are at its end): b[i] += s R of every touching
 * candidate i whose R is not 0, s = h^2 theta (implicit.c). */
void hk_contact_motion_rhs(const hk_world *w, hk_real s, hk_real *const b[3]);
/* The touching candidates: their count, with their particles and records
 * (the multigrid adds them to its aggregates). */
int hk_contact_touching(const hk_world *w, const int **particle, const int **active, const hk_contact_rec **rec);
/* Whether any contact term enters the implicit system now. */
int hk_contact_in_system(const hk_world *w);

#endif
