/* view.h — what the PNG frames of one run share: the box the camera is fitted to, fixed for the run, and the stretch
 * colour range, widened in 1-2-5 steps and never narrowed; kept in DIR/frames_png.csv so a restart continues it. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_VIEW_H
#define HOOKE_VIEW_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

#include "hooke/hooke.h"

typedef struct hk_view {
    double lo[3], hi[3];           /* the box the camera frames [m]; lo > hi in x: nothing to frame */
    double grid;                   /* the ground grid's spacing [m], fixed at the fit */
    double stretch_lo, stretch_hi; /* the colour range of r / L0: stretch_lo < 1 < stretch_hi [1] */
    int fixed;                     /* 1: the box is the user's (--camera), never widened */
} hk_view;

/* The camera of a run's PNG frames (`hooke run --camera`): one box for the
 * run, fitted at the first frame to where the bodies can go and widened when
 * one leaves it (run, the default); each frame's own, fitted to the bodies
 * where they are (follow); or the box lo..hi the user gives (box). */
typedef enum hk_camera_kind { HK_CAMERA_RUN, HK_CAMERA_FOLLOW, HK_CAMERA_BOX } hk_camera_kind;
typedef struct hk_camera {
    hk_camera_kind kind;
    double lo[3], hi[3]; /* HK_CAMERA_BOX: the box [m] */
} hk_camera;
/* What --camera accepts, for messages. */
#define HK_CAMERA_SYNTAX "run, follow or a box X0,Y0,Z0,X1,Y1,Z1 in metres"
/* Reads `run`, `follow` or six numbers X0,Y0,Z0,X1,Y1,Z1 (the number
 * grammar of numbers.h) with X0 <= X1, Y0 <= Y1, Z0 <= Z1 and the box at
 * least 1 mm across its widest side. 0, or -1 with the reason in why. */
int hk_camera_parse(const char *text, hk_camera *c, char *why, size_t cap);
/* Sets v's box to the camera box's, fixed, with its grid. */
void hk_view_box(hk_view *v, const hk_camera *c);

/* The narrowest colour range, 0.99 .. 1.01: a body at rest is green. */
#define HK_VIEW_STRETCH_STEP0 0.01

/* Fits v (box, grid and the narrowest colour range) to where the world's
 * bodies can go, seen from their places pos (3 per particle [m]) of the
 * particles marked in drawn: each drawn particle where it is, and, under
 * gravity (down is -y), a body of free particles swept straight down to
 * the floor (the ground, the walls' bottom) and by its own width to every
 * side (where it may slide or topple on landing), one whose springs can
 * break swept down too, and a body with pinned particles turned about its pins: each
 * particle as far to either side across them (sideways across a line of
 * pins, every way about a point) and below them as it is from them (a
 * pendulum's reach, a flag's droop); the spheres; all within the walls and above the
 * ground. The colliders are not fitted: a frame shows them where they are in
 * view (a floor slab 2 m wide under a strip of cloth would otherwise fill the
 * picture). With reach 0, each drawn particle where it is, and nothing else.
 * The grid is a 1-2-5 step near a fifth of the box's size. */
void hk_view_fit(hk_view *v, const hk_world *w, const double *pos, const char *drawn, int reach);

/* Widens the box when a drawn particle (of n, at pos) has left it by more
 * than 3 % of its size: to the box around both, and a quarter of that
 * box's size further on each side that moved, so that it happens seldom;
 * never narrower, the grid kept. 1 if it widened, else 0. */
int hk_view_follow(hk_view *v, const double *pos, const char *drawn, int n);

/* The first value of the 1-2-5 ladder 0.01, 0.02, 0.05, 0.1, 0.2, ... that
 * is >= x (the ladder's first for x <= 0.01; 1e6 at most). */
double hk_view_step(double x);

/* Widens the colour range to the values a frame colours (n of them; the
 * non-finite ones are not counted): stretch_lo down to 1 minus a ladder step
 * at or below the 1st percentile (0 at most), stretch_hi up to 1 plus a
 * step at or above the 99th; never narrower. 1 if it widened, 0 if not, -1
 * when out of memory (v unchanged). */
int hk_view_widen(hk_view *v, const double *values, int64_t n);

/* DIR/frames_png.csv, the index of a run's PNG frames: a header, then per
 * frame its step, time, colour range, camera box and ground grid, each
 * number in the fewest digits that read back as it. */
#define HK_VIEW_INDEX "frames_png.csv"
/* The view a run continues after a restart at `first_step` (the step of
 * its first frame): the leading rows of the index at path with rising steps
 * below first_step are kept (their text into *kept, malloc'd) and the last
 * one's view is v; 1 when there is one, 0 when none (a new series: v and
 * *kept untouched). */
int hk_view_continue(const char *path, int64_t first_step, hk_view *v, char **kept);
/* Writes the index at path whole (its header, the kept rows, may be NULL)
 * and returns it open for appending; NULL with errno set. */
FILE *hk_view_index_open(const char *path, const char *kept);
/* Appends a frame's row and flushes it; 0, or -1 with errno set. */
int hk_view_index_row(FILE *f, int64_t step, double time, const hk_view *v);

#endif
