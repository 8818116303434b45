/* checkpoint.h — versioned, checksummed, atomically written checkpoints that restart bit-for-bit
 * (docs/checkpoint-format.md). */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_CHECKPOINT_H
#define HOOKE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "diagnosis.h"
#include "hooke/hooke.h"

/* The scene digest a checkpoint carries: 64-bit FNV-1a over the bytes of
 * the scene file, then of every file it loaded (its meshes, in scene
 * order), so a checkpoint is refused once any of them has changed. Returns
 * 0 and sets *digest, or -1 with "FILE: cannot read ..." in err. */
int hk_checkpoint_digest(const char *scene_path, const char *const *files, int nfiles, uint64_t *digest, char *err,
                         size_t errlen);
/* The same digest of a scene given as text (len bytes: a file's bytes give
 * its digest), for hosts that parse scenes from memory (the Python module). */
int hk_checkpoint_digest_text(const char *text, size_t len, const char *const *files, int nfiles, uint64_t *digest,
                              char *err, size_t errlen);

/* Writes everything that affects future steps of w and the outputs of its
 * state (its contacts), with the run's energy guard (diagnosis.h), to
 * path: to "path.tmp" first, fsync, then rename over path, so an
 * interrupted write leaves the previous checkpoint intact. Returns 0, or -1
 * with a message in err. */
int hk_checkpoint_write(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, const char *path,
                        char *err, size_t errlen);

/* The bytes hk_checkpoint_write writes, in memory: *out (malloc'd, the
 * caller frees it) of *len bytes, for a world of one process. Returns 0,
 * or -1 with "NAME: ..." in err (out of memory; a world shared out over
 * ranks, whose checkpoint is pieces). */
int hk_checkpoint_bytes(const hk_world *w, const hk_energy_guard *guard, uint64_t scene_digest, unsigned char **out,
                        size_t *len, const char *name, char *err, size_t errlen);
/* Restores w (built from the same scene file) and the energy guard's start
 * (e0, scale, g0, moved; its active flag and source stay the scene's) from
 * a checkpoint. The whole file is read and checked (magic, version,
 * length, checksum, scene digest, counts) before w is touched: on any
 * error w and guard are unchanged and -1 is returned with "FILE:
 * checkpoint ..." in err. */
int hk_checkpoint_read(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const char *path, char *err,
                       size_t errlen);

/* The same checks and restore on the len bytes of a checkpoint in memory (a
 * fuzz harness's entry point); name stands for the file in messages. */
int hk_checkpoint_parse(hk_world *w, hk_energy_guard *guard, uint64_t scene_digest, const unsigned char *data,
                        size_t len, const char *name, char *err, size_t errlen);

#endif
