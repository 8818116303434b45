/* checkpoint_pieces.h — the checkpoint of a world shared out over MPI ranks: a piece per rank and an index; the
 * restart of a checkpoint on another number of ranks (docs/checkpoint-format.md, "Over MPI ranks"). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CHECKPOINT_PIECES_H
#define HOOKE_CHECKPOINT_PIECES_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "hooke/hooke.h"

/* Writes w's checkpoint at path as pieces: each rank the state of the particles it computes (with what every rank
 * holds alike) to path.step<S>.rank<R> (NAME.tmp, fsync, rename), then, once every piece is whole, rank 0 the index
 * at path that names them (the same way), then it removes the pieces the index before named: a kill at any moment
 * leaves an index whose pieces are all whole. Every rank calls it. 0, or -1 with the message in err (every rank's
 * verdict). */
int hk_checkpoint_write_pieces(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                               char *err, size_t errlen);
/* Restores w (one process, or this rank of a world shared out over any number of ranks) from the checkpoint at path:
 * an index and its pieces (written over any number of ranks), or, where w is shared out, a one-process checkpoint
 * (checkpoint.h). Each rank reads the pieces whose particles it holds, one at a time; every piece is read and
 * checked before w is touched. 0, or -1 with "FILE: checkpoint ..." in err (w unchanged). */
int hk_checkpoint_read_pieces(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const char *path, char *err,
                              size_t errlen);
/* Whether the file at path begins as an index of pieces ("HOOKECKI"). */
int hk_checkpoint_is_index(const char *path);

#endif
