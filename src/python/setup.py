# The Python package hooke built by pip through scikit-build: the project's own CMake with HOOKE_PYTHON=ON.
# SPDX-License-Identifier: MIT
#
# usage: pip install --no-build-isolation src/python   (from the checkout; README.md "Python")
#
# One build system: scikit-build configures the repository's top-level CMakeLists.txt (../..) with the
# interpreter running pip, builds the module _hooke (target hooke_python) and installs only the package
# (component python of src/python/install.cmake, HOOKE_PYTHON_SITE=.), no tests, benchmarks or C library.
# Extra CMake options: CMAKE_ARGS="-DHOOKE_DOUBLE=ON" pip install ...; parallel jobs: CMAKE_BUILD_PARALLEL_LEVEL.
import re
from pathlib import Path

from skbuild import setup

ROOT = Path(__file__).resolve().parent.parent.parent
# the version has one home, the top-level project(); hooke.__version__ (hk_version) comes from the same
VERSION = re.search(r"project\(hooke VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text()).group(1)

setup(
    name="hooke",
    version=VERSION,
    description="hooke, a multithreaded mass-spring solver, from Python",
    license="MIT",
    packages=["hooke"],
    package_dir={"hooke": "hooke"},
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmake_source_dir="../..",
    cmake_args=[
        "-DCMAKE_BUILD_TYPE=Release",
        "-DHOOKE_PYTHON=ON",
        "-DHOOKE_PYTHON_INSTALL=ON",
        "-DHOOKE_PYTHON_SITE=.",
        "-DHOOKE_INSTALL=OFF",
        "-DHOOKE_TESTS=OFF",
        "-DHOOKE_BENCH=OFF",
    ],
)
