/* readfile.h — the one reader of whole input files: regular files only, bounded in size, with a clear message. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_READFILE_H
#define HOOKE_READFILE_H

#include <stddef.h>

/* The size limits of hooke's readers [bytes] (docs/user-guide.md, "Input
 * limits"). An input larger than its limit, or one that is not a regular
 * file (a folder, a device such as /dev/zero, a FIFO), is refused before
 * anything is allocated for it. */
#define HK_LIMIT_SCENE ((size_t)256 << 20) /* .scene files: 256 MiB */
#define HK_LIMIT_MESH ((size_t)1 << 30)    /* .asc and .obj meshes: 1 GiB */
#define HK_LIMIT_STATS ((size_t)1 << 30)   /* stats CSV files read by hooke plot: 1 GiB */

/* Reads the whole file at path, at most limit bytes, into a malloc'd buffer
 * with a NUL byte after its len bytes. what names the input in messages
 * ("scene", "mesh", "checkpoint", ...). Returns 0, or -1 with err set to
 * "cannot open WHAT: REASON" or "cannot read WHAT: REASON" (the caller puts the file name in front;
 * REASON: the system's message, "it is a folder", "it is not a regular
 * file ...", "it is N bytes, more than the limit of M for a WHAT", "out of
 * memory"). */
int hk_read_file(const char *path, size_t limit, const char *what, char **data, size_t *len, char *err, size_t errlen);

/* The byte-order mark a text input may begin with: 3 for UTF-8's (EF BB BF, which editors on some systems write;
 * the text readers skip it, and columns count from after it), 0 for none, and -1 for UTF-16's or UTF-32's, which
 * the readers refuse as not UTF-8 text, with *name ("UTF-16 little-endian", ...) for their message. */
int hk_text_bom(const char *text, size_t len, const char **name);

#endif
