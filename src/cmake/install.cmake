# install.cmake — what `cmake --install` puts under the prefix: the libraries, the public headers, the
# program, the shipped scenes, and the files find_package(hooke) and pkg-config read. Included by
# src/CMakeLists.txt (where the targets are defined) when HOOKE_INSTALL is on.
# SPDX-License-Identifier: MIT
include(CMakePackageConfigHelpers)

set(HOOKE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hooke)

install(TARGETS hooke hooke_static EXPORT hookeTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
# hooke.h and the parts it includes (bodies.h, colliders.h), and the build's config.h
file(GLOB hooke_public_headers ${CMAKE_CURRENT_SOURCE_DIR}/include/hooke/*.h)
install(FILES ${hooke_public_headers} ${HOOKE_GENERATED_INCLUDE}/hooke/config.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hooke)
install(TARGETS hooke_exe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenes/ DESTINATION ${CMAKE_INSTALL_DATADIR}/hooke/scenes)
install(FILES ${PROJECT_SOURCE_DIR}/docs/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})

# find_package(hooke): hookeTargets.cmake (hooke::hooke, hooke::hooke_static),
# hookeConfig.cmake (the static library's dependencies), the version file.
install(EXPORT hookeTargets NAMESPACE hooke:: DESTINATION ${HOOKE_CMAKE_DIR})
if(OpenMP_C_FOUND)
  set(HOOKE_CONFIG_OPENMP 1)
else()
  set(HOOKE_CONFIG_OPENMP 0)
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/src/cmake/hookeConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/hookeConfig.cmake INSTALL_DESTINATION ${HOOKE_CMAKE_DIR})
# 0.x: a minor version may break the API, so a request for 0.1 accepts 0.1.y only
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/hookeConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/hookeConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/hookeConfigVersion.cmake
  DESTINATION ${HOOKE_CMAKE_DIR})

# hooke.pc. Cflags: only what hooke.h needs (its own folder; no cairo or glib
# paths: pkg-config adds a Requires.private module's Cflags to every
# --cflags, so the drawing and compression libraries are named in
# Libs.private instead). A static link (pkg-config --static) also needs
# cairo, fontconfig, zlib, libm and the OpenMP runtime this library was built
# with. The paths are written at install time, so `cmake --install build
# --prefix P` gives a hooke.pc that points into P.
set(LIBS_PRIVATE "-lcairo -lfontconfig -lz ")
if(OpenMP_C_FOUND)
  foreach(lib IN LISTS OpenMP_C_LIB_NAMES)
    string(APPEND LIBS_PRIVATE "-l${lib} ")
  endforeach()
endif()
string(APPEND LIBS_PRIVATE "-lm")
foreach(at PREFIX LIBDIR INCLUDEDIR)
  set(${at} "@${at}@") # filled at install time
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/src/cmake/hooke.pc.in ${CMAKE_CURRENT_BINARY_DIR}/hooke.pc.in @ONLY)
install(CODE "set(HOOKE_PC_IN \"${CMAKE_CURRENT_BINARY_DIR}/hooke.pc.in\")
set(HOOKE_PC_OUT \"${CMAKE_CURRENT_BINARY_DIR}/pkgconfig/hooke.pc\")
set(HOOKE_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
set(HOOKE_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")")
install(CODE [[
set(PREFIX "${CMAKE_INSTALL_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${HOOKE_${dir}}")
    set(${dir} "${HOOKE_${dir}}")
  else()
    set(${dir} "\${prefix}/${HOOKE_${dir}}")
  endif()
endforeach()
configure_file("${HOOKE_PC_IN}" "${HOOKE_PC_OUT}" @ONLY)
if(IS_ABSOLUTE "${HOOKE_LIBDIR}")
  set(pcdir "${HOOKE_LIBDIR}/pkgconfig")
else()
  set(pcdir "${CMAKE_INSTALL_PREFIX}/${HOOKE_LIBDIR}/pkgconfig")
endif()
file(INSTALL DESTINATION "${pcdir}" TYPE FILE FILES "${HOOKE_PC_OUT}")
]])
