/* pc2.h — PC2 point cache files (Blender's Mesh Cache modifier), grown a sample at a time, valid at every moment. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_PC2_H
#define HOOKE_PC2_H

#include <stdint.h>

/* The format, little-endian: a 32-byte header
 *   char[12] "POINTCACHE2\0", int32 version 1, int32 points,
 *   float32 start frame (0), float32 sample rate (1 frame), int32 samples,
 * then for each sample, for each point, float32 x y z. */
#define HK_PC2_HEADER 32

typedef struct hk_pc2 {
    int fd;          /* open read-write; -1 when closed */
    int32_t points;  /* per sample */
    int32_t samples; /* in the file, as its header says */
    int stream;      /* written through (a character device or FIFO, outfile.h): in order, the header's count not
                        rewritten */
} hk_pc2;

/* Creates path (through path.tmp, renamed once whole; or written through,
 * by the rule of outfile.h) holding one sample, xyz: 3 * points floats. 0,
 * or -1 with errno set. */
int hk_pc2_create(hk_pc2 *c, const char *path, int32_t points, const float *xyz);

/* Opens path, a PC2 file of `points` points, keeping its first `keep`
 * samples (1 <= keep <= its samples; later ones are cut off). 0, or -1
 * (errno set; EINVAL: not a PC2 file of that many points with that many
 * samples), the file then unchanged. */
int hk_pc2_open(hk_pc2 *c, const char *path, int32_t points, int32_t keep);

/* Appends a sample: its bytes first, then the header's count, so that the
 * file on disk is a valid PC2 file at every moment. 0, or -1 (errno set). */
int hk_pc2_append(hk_pc2 *c, const float *xyz);

/* Closes the file (it stays as it is: valid). */
void hk_pc2_close(hk_pc2 *c);

#endif
