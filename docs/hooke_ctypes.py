# hooke_ctypes.py — libhooke from Python (ctypes): loads a scene, steps it, prints the state hash and the energy.
# usage: python3 hooke_ctypes.py SCENE STEPS   (libhooke.so.0.1 where the loader looks: LD_LIBRARY_PATH, ldconfig)
# SPDX-License-Identifier: MIT
import ctypes, sys
from ctypes import c_char_p, c_double, c_int, c_int64, c_size_t, c_uint64, c_void_p
class Stats(ctypes.Structure):  # hk_stats in hooke.h: energies [J], largest r/L0, broken springs
    _fields_ = [(n, c_double) for n in ("kinetic", "gravity", "spring", "total", "max_stretch")] + [("broken", c_int64)]
hk = ctypes.CDLL("libhooke.so.0.1")
hk.hk_world_load_scene.argtypes, hk.hk_world_load_scene.restype = [c_char_p, c_void_p, c_char_p, c_size_t], c_void_p
for name, result in ("hk_world_step", c_int), ("hk_world_error", c_char_p), ("hk_world_state_hash", c_uint64), ("hk_world_stats", Stats), ("hk_world_destroy", None):
    getattr(hk, name).argtypes, getattr(hk, name).restype = [c_void_p], result
err = ctypes.create_string_buffer(1024)
world = hk.hk_world_load_scene(sys.argv[1].encode(), None, err, len(err)) or sys.exit(err.value.decode())
for _ in range(int(sys.argv[2])):
    if hk.hk_world_step(world) != 0:  # HK_OK, or a negative hk_status: the reason is hk_world_error
        sys.exit(hk.hk_world_error(world).decode())
print(f"state_hash=0x{hk.hk_world_state_hash(world):016x} total_energy={hk.hk_world_stats(world).total:.6g} J")
hk.hk_world_destroy(world)
