/* fuzz_mesh_asc.c — libFuzzer harness: the .asc mesh loader (hk_mesh_parse_asc) and the mesh body built from it. */
/* SPDX-License-Identifier: MIT */
#include "fuzz_mesh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_mesh(data, size, hk_mesh_parse_asc, "fuzz.asc");
}
