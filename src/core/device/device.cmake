# device.cmake — the device backend's GPU driver modules, each built where its toolchain is found:
# libhooke_device_openmp.so (OpenMP target offload: gcc with its nvptx offload compiler, Debian's
# gcc-12-offload-nvptx) and libhooke_device_cuda.so (nvcc, CUDA; enabled by the top-level CMakeLists.txt).
# libhooke loads them at run time (core/device/device_drivers.c), from beside the program or the library,
# this build folder, or the installed library folder; a build without them says so in `hooke info`.
# SPDX-License-Identifier: MIT

set(HOOKE_DEVICE_INCLUDES)
foreach(dir core/device core/world core/engine core/contact core/model include)
  list(APPEND HOOKE_DEVICE_INCLUDES ${CMAKE_CURRENT_SOURCE_DIR}/${dir})
endforeach()
list(APPEND HOOKE_DEVICE_INCLUDES ${HOOKE_GENERATED_INCLUDE})
# the PTX each driver's device code became, for tests/check_ptx.py (every float operation .rn, single precision .ftz)
set(HOOKE_PTX_DIR ${PROJECT_BINARY_DIR}/device_ptx)
set(HOOKE_DEVICE_MODULES)

# --- OpenMP target offload -------------------------------------------------------------------------------------------
set(HOOKE_DEVICE_OPENMP_BUILT OFF CACHE INTERNAL "the OpenMP driver module is built")
if(HOOKE_DEVICE_OPENMP AND HOOKE_DOUBLE)
  message(STATUS "hooke: device: the OpenMP driver is not built in a double build (the device runs the float build)")
elseif(HOOKE_DEVICE_OPENMP AND (HOOKE_SAN_FLAGS OR NOT CMAKE_C_COMPILER_ID STREQUAL "GNU"))
  message(STATUS "hooke: device: the OpenMP driver needs gcc without sanitizers (its nvptx offload compiler): not built")
elseif(HOOKE_DEVICE_OPENMP)
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80")
  check_c_source_compiles("int main(void) { int x = 0;\n#pragma omp target map(tofrom: x)\n x = 1;\n return !x; }"
                          HOOKE_HAVE_NVPTX_OFFLOAD)
  unset(CMAKE_REQUIRED_FLAGS)
  find_program(HOOKE_NVPTX_AS nvptx-none-as)
  if(HOOKE_HAVE_NVPTX_OFFLOAD AND HOOKE_NVPTX_AS)
    # the offload compiler's assembler: device_as.sh writes every float operation .rn (.ftz on float), keeps the PTX
    set(HOOKE_PTX_OPENMP ${HOOKE_PTX_DIR}/openmp)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/core/device/omp/device_as.sh.in ${PROJECT_BINARY_DIR}/device_as/as
                   @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ
                   WORLD_EXECUTE)
    set(offload "-misa=sm_80 -lm -ffp-contract=off -fno-math-errno -B${PROJECT_BINARY_DIR}/device_as/")
    add_library(hooke_device_openmp MODULE core/device/omp/dev_omp.c)
    set_target_properties(hooke_device_openmp PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
                                                         C_VISIBILITY_PRESET hidden)
    target_include_directories(hooke_device_openmp PRIVATE ${HOOKE_DEVICE_INCLUDES} ${CMAKE_CURRENT_SOURCE_DIR}/core/device/omp)
    target_compile_definitions(hooke_device_openmp PRIVATE ${HOOKE_BUILD_DEFINITIONS})
    target_compile_options(hooke_device_openmp PRIVATE ${HOOKE_C_FLAGS} -fopenmp -foffload=nvptx-none
                                                       "-foffload-options=nvptx-none=${offload}")
    target_link_options(hooke_device_openmp PRIVATE -fopenmp -foffload=nvptx-none "-foffload-options=nvptx-none=${offload}")
    # the PTX of this link only
    add_custom_command(TARGET hooke_device_openmp PRE_LINK
                       COMMAND ${CMAKE_COMMAND} -E rm -rf ${HOOKE_PTX_OPENMP}
                       COMMAND ${CMAKE_COMMAND} -E make_directory ${HOOKE_PTX_OPENMP})
    list(APPEND HOOKE_DEVICE_MODULES hooke_device_openmp)
    set(HOOKE_DEVICE_OPENMP_BUILT ON CACHE INTERNAL "the OpenMP driver module is built")
    message(STATUS "hooke: device: the OpenMP target offload driver is built (gcc, nvptx)")
  else()
    message(STATUS "hooke: device: gcc cannot offload to nvptx (Debian: gcc-12-offload-nvptx, nvptx-tools): "
                   "the OpenMP driver is not built")
  endif()
endif()

# --- CUDA ------------------------------------------------------------------------------------------------------------
set(HOOKE_DEVICE_CUDA_BUILT OFF CACHE INTERNAL "the CUDA driver module is built")
# CUDA enabled in this configure (the top level enables it only in a float build without sanitizers): a cached
# CMAKE_CUDA_COMPILER from an earlier float configure of the same folder is not enough
get_property(hooke_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(HOOKE_DEVICE_CUDA AND "CUDA" IN_LIST hooke_languages)
  # no fused multiply-add but the source's own, IEEE division and square root, the CPU's flush to zero
  set(HOOKE_CUDA_FLAGS -fmad=false -prec-div=true -prec-sqrt=true -ftz=true)
  add_library(hooke_device_cuda MODULE core/device/cuda/dev_cuda.cu)
  set_target_properties(hooke_device_cuda PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}
                                                     CUDA_STANDARD 17 CUDA_VISIBILITY_PRESET hidden)
  target_include_directories(hooke_device_cuda PRIVATE ${HOOKE_DEVICE_INCLUDES})
  target_compile_definitions(hooke_device_cuda PRIVATE ${HOOKE_BUILD_DEFINITIONS})
  set(cuda_warnings -Xcompiler=-Wall,-Wextra)
  if(HOOKE_WERROR)
    list(APPEND cuda_warnings -Xcompiler=-Werror --Werror=all-warnings)
  endif()
  target_compile_options(hooke_device_cuda PRIVATE ${HOOKE_CUDA_FLAGS} ${cuda_warnings})
  # the PTX nvcc writes with the same flags, for tests/check_ptx.py
  set(includes)
  foreach(dir IN LISTS HOOKE_DEVICE_INCLUDES)
    list(APPEND includes -I${dir})
  endforeach()
  set(defs)
  foreach(def IN LISTS HOOKE_BUILD_DEFINITIONS)
    list(APPEND defs -D${def})
  endforeach()
  add_custom_command(OUTPUT ${HOOKE_PTX_DIR}/cuda/dev_cuda.ptx
                     COMMAND ${CMAKE_COMMAND} -E make_directory ${HOOKE_PTX_DIR}/cuda
                     COMMAND ${CMAKE_CUDA_COMPILER} -ptx -arch=sm_90 -O3 -std=c++17 ${HOOKE_CUDA_FLAGS} ${includes} ${defs}
                             ${CMAKE_CURRENT_SOURCE_DIR}/core/device/cuda/dev_cuda.cu -o ${HOOKE_PTX_DIR}/cuda/dev_cuda.ptx
                     DEPENDS core/device/cuda/dev_cuda.cu core/device/dev_pass.h core/device/dev_abi.h
                     COMMENT "PTX of the CUDA driver (tests/check_ptx.py)" VERBATIM)
  add_custom_target(hooke_device_cuda_ptx ALL DEPENDS ${HOOKE_PTX_DIR}/cuda/dev_cuda.ptx)
  list(APPEND HOOKE_DEVICE_MODULES hooke_device_cuda)
  set(HOOKE_DEVICE_CUDA_BUILT ON CACHE INTERNAL "the CUDA driver module is built")
  message(STATUS "hooke: device: the CUDA driver is built (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, sm ${CMAKE_CUDA_ARCHITECTURES})")
elseif(HOOKE_DEVICE_CUDA AND (HOOKE_DOUBLE OR HOOKE_SAN_FLAGS))
  message(STATUS "hooke: device: the CUDA driver is not built in a double or sanitizer build")
elseif(HOOKE_DEVICE_CUDA)
  message(STATUS "hooke: device: no nvcc found (CUDA is optional): the CUDA driver is not built")
endif()

# where libhooke looks for the modules (device_drivers.c)
set_property(SOURCE core/device/device_drivers.c APPEND PROPERTY COMPILE_DEFINITIONS
             HOOKE_DEVICE_BUILD_DIR="${PROJECT_BINARY_DIR}" HOOKE_DEVICE_INSTALL_DIR="${CMAKE_INSTALL_FULL_LIBDIR}")
if(HOOKE_INSTALL AND HOOKE_DEVICE_MODULES)
  install(TARGETS ${HOOKE_DEVICE_MODULES} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
