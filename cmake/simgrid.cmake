# Which SimGrid simcoll runs on (SIMCOLL_SIMGRID):
#   bundled  SimGrid 4.1 built from third_party/simgrid/simgrid-4.1.tar.xz (its
#            README.md), once per version and options into a cache outside the
#            build tree (SIMCOLL_SIMGRID_CACHE), then reused by every build: the
#            default (the same simulated times as 3.32: experiments/simgrid41);
#            simcoll's patches to it are third_party/simgrid/patches
#   system   the one pkg-config finds (Debian 12's libsimgrid-dev, 3.32)
# Either way the target simcoll_simgrid carries it to whatever links it.
# SPDX-License-Identifier: GPL-2.0-or-later
set(SIMCOLL_SIMGRID bundled CACHE STRING "SimGrid to use: bundled (4.1) or system (pkg-config)")
set_property(CACHE SIMCOLL_SIMGRID PROPERTY STRINGS bundled system)
add_library(simcoll_simgrid INTERFACE)

if(SIMCOLL_SIMGRID STREQUAL "system")
  pkg_check_modules(SIMGRID REQUIRED IMPORTED_TARGET simgrid>=3.32)
  target_link_libraries(simcoll_simgrid INTERFACE PkgConfig::SIMGRID)
  return()
elseif(NOT SIMCOLL_SIMGRID STREQUAL "bundled")
  message(FATAL_ERROR "SIMCOLL_SIMGRID is system or bundled, not '${SIMCOLL_SIMGRID}'")
endif()

# The library alone: no SMPI, model checker, sthread, bindings or docs
# (simcoll uses none of them), with the optimisations SimGrid ships as Release.
# minimal-bindings: SimGrid's switch for a library with the fewest
# dependencies, so that it does not look for graphviz: found (libgraphviz-dev
# installed), it configures the examples that read DOT files, whose sources
# the archive leaves out, and the configuration fails; simcoll reads no DOT
# files. It also skips Boost's optional parts (contexts, stack traces), which
# setup.sh does not install anyway.
set(_sg_version 4.1)
set(_sg_archive ${PROJECT_SOURCE_DIR}/third_party/simgrid/simgrid-${_sg_version}.tar.xz)
set(_sg_options -DCMAKE_BUILD_TYPE=Release -Denable_smpi=OFF -Denable_model-checking=OFF
                -Denable_sthread=OFF -Denable_java=OFF -Denable_python=OFF
                -Denable_documentation=OFF -Denable_fortran=OFF -Denable_ns3=OFF
                -Dminimal-bindings=ON
                -DCMAKE_INSTALL_LIBDIR=lib
                -DCMAKE_C_COMPILER=${CMAKE_C_COMPILER} -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
# simcoll's changes to SimGrid, applied in name order (third_party/simgrid/README.md).
file(GLOB _sg_patches ${PROJECT_SOURCE_DIR}/third_party/simgrid/patches/*.patch)
list(SORT _sg_patches)
set(_sg_patch_command)
set(_sg_patch_sums)
foreach(_sg_patch IN LISTS _sg_patches)
  if(_sg_patch_command)
    list(APPEND _sg_patch_command COMMAND)
  endif()
  list(APPEND _sg_patch_command patch -p1 --forward --batch -d <SOURCE_DIR> -i ${_sg_patch})
  file(SHA256 ${_sg_patch} _sg_sum)
  list(APPEND _sg_patch_sums ${_sg_sum})
endforeach()
# The cache's key: the archive, the patches, the options and the compiler (a
# different one, e.g. clang for the fuzz build, builds and keeps a SimGrid of
# its own).
file(SHA256 ${_sg_archive} _sg_archive_sha256)
string(SHA256 _sg_key "${_sg_archive_sha256};${_sg_patch_sums};${_sg_options};${CMAKE_CXX_COMPILER_ID};${CMAKE_CXX_COMPILER_VERSION}")
string(SUBSTRING ${_sg_key} 0 12 _sg_key)
if(DEFINED ENV{SIMCOLL_SIMGRID_CACHE})
  set(_sg_cache_default $ENV{SIMCOLL_SIMGRID_CACHE})
elseif(DEFINED ENV{XDG_CACHE_HOME})
  set(_sg_cache_default $ENV{XDG_CACHE_HOME}/simcoll)
else()
  set(_sg_cache_default $ENV{HOME}/.cache/simcoll)
endif()
set(SIMCOLL_SIMGRID_CACHE ${_sg_cache_default} CACHE PATH
    "Where bundled SimGrid builds are kept, one folder per version and options")
set(SIMCOLL_SIMGRID_DIR ${SIMCOLL_SIMGRID_CACHE}/simgrid-${_sg_version}-${_sg_key})
# The stamp is written last: a folder without it is a build that did not
# finish, and is built again.
set(_sg_stamp ${SIMCOLL_SIMGRID_DIR}/simcoll-complete)
set(_sg_library ${SIMCOLL_SIMGRID_DIR}/lib/${CMAKE_SHARED_LIBRARY_PREFIX}simgrid${CMAKE_SHARED_LIBRARY_SUFFIX})

if(EXISTS ${_sg_stamp})
  message(STATUS "SimGrid ${_sg_version}: reusing ${SIMCOLL_SIMGRID_DIR}")
else()
  message(STATUS "SimGrid ${_sg_version}: not in ${SIMCOLL_SIMGRID_DIR}, built with simcoll "
                 "(about 15 minutes of one core)")
  include(ExternalProject)
  # Steps a build tree did before, for a cache since emptied, are done again.
  set(_sg_work ${CMAKE_BINARY_DIR}/simgrid-bundled)
  file(REMOVE_RECURSE ${_sg_work}/stamp)
  # Build trees configured at once with the same empty cache each build
  # SimGrid, so none installs into the cache's folder: each installs into a
  # folder of its own in the cache (DESTDIR, so that the install prefix
  # SimGrid records is the cache's folder), stamp last, and then moves it
  # there in one rename unless another got there first
  # (cmake/simgrid_publish.cmake). A tree that finds the stamp at configure
  # time sees a complete folder that no build changes any more. (A build
  # stopped half-way leaves its .stage-* folder, which its tree's next
  # build replaces.)
  string(SHA256 _sg_tree "${CMAKE_BINARY_DIR}")
  string(SUBSTRING ${_sg_tree} 0 12 _sg_tree)
  set(_sg_stage ${SIMCOLL_SIMGRID_CACHE}/.stage-simgrid-${_sg_version}-${_sg_key}-${_sg_tree})
  ExternalProject_Add(simgrid_bundled
    PREFIX ${_sg_work}
    STAMP_DIR ${_sg_work}/stamp
    URL ${_sg_archive}
    URL_HASH SHA256=${_sg_archive_sha256}
    DOWNLOAD_EXTRACT_TIMESTAMP TRUE
    PATCH_COMMAND ${_sg_patch_command}
    CMAKE_ARGS ${_sg_options} -DCMAKE_INSTALL_PREFIX=${SIMCOLL_SIMGRID_DIR}
    # Stripped: the library is 3.2 MB.
    INSTALL_COMMAND ${CMAKE_COMMAND} -E rm -rf ${_sg_stage}
            COMMAND ${CMAKE_COMMAND} -E env DESTDIR=${_sg_stage}
                    ${CMAKE_COMMAND} --install <BINARY_DIR> --strip
            COMMAND ${CMAKE_COMMAND} -E touch ${_sg_stage}${_sg_stamp}
            COMMAND ${CMAKE_COMMAND} -DSTAGE=${_sg_stage} -DDIR=${SIMCOLL_SIMGRID_DIR}
                    -DSTAMP=${_sg_stamp} -P ${PROJECT_SOURCE_DIR}/cmake/simgrid_publish.cmake
    BUILD_BYPRODUCTS ${_sg_library})
  # Its sources and objects (480 MB) go once it is installed (a step of its
  # own: a step runs in its folder, and this one removes the build's).
  ExternalProject_Add_Step(simgrid_bundled clean
    COMMAND ${CMAKE_COMMAND} -E rm -rf <SOURCE_DIR> <BINARY_DIR>
    DEPENDEES install
    WORKING_DIRECTORY ${_sg_work})
  add_dependencies(simcoll_simgrid simgrid_bundled)
  # An imported target's include folder must exist when CMake generates.
  file(MAKE_DIRECTORY ${SIMCOLL_SIMGRID_DIR}/include)
endif()
# patches/network-weight.patch: a flow's weight can be set (sim/simgrid/driver.cpp)
target_compile_definitions(simcoll_simgrid INTERFACE SC_SIMGRID_FLOW_WEIGHT=1)
add_library(simcoll_simgrid_lib SHARED IMPORTED)
set_target_properties(simcoll_simgrid_lib PROPERTIES
  IMPORTED_LOCATION ${_sg_library}
  INTERFACE_INCLUDE_DIRECTORIES ${SIMCOLL_SIMGRID_DIR}/include)
target_link_libraries(simcoll_simgrid INTERFACE simcoll_simgrid_lib)
# Installed, simcoll takes its SimGrid along (the cache may be emptied):
# into PREFIX/lib/simcoll, found there through the executables' RUNPATH. In
# the build tree, CMake's own RUNPATH points into the cache.
install(DIRECTORY ${SIMCOLL_SIMGRID_DIR}/lib/ DESTINATION ${CMAKE_INSTALL_LIBDIR}/simcoll
        FILES_MATCHING PATTERN "${CMAKE_SHARED_LIBRARY_PREFIX}simgrid${CMAKE_SHARED_LIBRARY_SUFFIX}*"
        PATTERN pkgconfig EXCLUDE PATTERN cmake EXCLUDE)
set(CMAKE_INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}/simcoll")
