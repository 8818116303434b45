# Install rules of the Python package hooke: _hooke and the .py files into the prefix's site-packages.
# SPDX-License-Identifier: MIT
#
# Included at the end of src/python/CMakeLists.txt, after the target hooke_python (the module _hooke) and
# Python3_EXECUTABLE (the interpreter whose headers and NumPy it was built with) are known.
#
# _hooke links libhooke_static (with the library's private functions: the scene parser, the checkpoint format), so
# the installed module needs no libhooke.so, no RPATH and no LD_LIBRARY_PATH: only the system's libraries (libc,
# libm, OpenMP, zlib, cairo, fontconfig) that the program needs too. The program itself (statically linked with
# libhooke as well) goes into the package's bin/: hooke.stability(), hooke.bench() and the tables run it.
#
# HOOKE_PYTHON_SITE: the folder of the package, relative to the install prefix (or absolute). By default the
# folder that this interpreter reads for the prefix, from its sysconfig: on Debian with the prefix /usr/local,
# lib/python3.11/dist-packages; in a venv or a Python built from source, lib/python3.X/site-packages.
# `pip install src/python` (setup.py) sets it to `.` and installs only this component.

option(HOOKE_PYTHON_INSTALL "Install rules of the Python package hooke (component python)" ${HOOKE_INSTALL})
if(NOT HOOKE_PYTHON_INSTALL)
  return()
endif()

if(NOT DEFINED HOOKE_PYTHON_SITE)
  # sysconfig's platlib for a made-up prefix, made relative to it. Debian's default scheme (posix_local) is its
  # scheme for the prefix /usr/local written from the base /usr ({base}/local/lib/...), so its leading local/
  # belongs to the prefix.
  set(hooke_site_code [=[
import os, sysconfig
scheme = sysconfig.get_default_scheme()
root = os.path.join(os.sep, "hooke-prefix")
rel = os.path.relpath(sysconfig.get_path("platlib", scheme, vars={"base": root, "platbase": root}), root)
if scheme == "posix_local" and rel.startswith("local" + os.sep):
    rel = rel[len("local" + os.sep):]
print(rel)
]=])
  execute_process(COMMAND "${Python3_EXECUTABLE}" -c "${hooke_site_code}"
    OUTPUT_VARIABLE hooke_site RESULT_VARIABLE hooke_site_status ERROR_VARIABLE hooke_site_error
    OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT hooke_site_status EQUAL 0 OR hooke_site STREQUAL "")
    message(FATAL_ERROR "hooke: ${Python3_EXECUTABLE} did not name its site-packages folder (${hooke_site_error}); "
      "set -DHOOKE_PYTHON_SITE=FOLDER (relative to the install prefix, or absolute)")
  endif()
  set(HOOKE_PYTHON_SITE "${hooke_site}" CACHE STRING
    "Where cmake --install puts the Python package hooke: relative to the install prefix, or absolute")
endif()
message(STATUS "hooke: the Python package installs into <prefix>/${HOOKE_PYTHON_SITE}/hooke")

install(TARGETS hooke_python LIBRARY DESTINATION "${HOOKE_PYTHON_SITE}/hooke" COMPONENT python)
install(TARGETS hooke_exe RUNTIME DESTINATION "${HOOKE_PYTHON_SITE}/hooke/bin" COMPONENT python)
install(DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}/hooke/" DESTINATION "${HOOKE_PYTHON_SITE}/hooke" COMPONENT python
  FILES_MATCHING PATTERN "*.py" PATTERN "*.pyi" PATTERN "py.typed" PATTERN "__pycache__" EXCLUDE)
# the shipped scenes and their meshes (hooke.scene_path)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/scenes/" DESTINATION "${HOOKE_PYTHON_SITE}/hooke/scenes" COMPONENT python
  FILES_MATCHING PATTERN "*.scene" PATTERN "*.obj" PATTERN "*.asc")
