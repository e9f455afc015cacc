# Moves a bundled SimGrid, installed under STAGE (DESTDIR: the files are in
# STAGE/DIR), to DIR, its folder in the cache, in one rename (the two are
# in the same cache folder, so on one file system); unless DIR has its
# STAMP already: another build tree configured at the same time got there
# first, and this copy is dropped. The lock makes the test and the move one
# step between build trees. (cmake/simgrid.cmake)
# usage: cmake -DSTAGE=... -DDIR=... -DSTAMP=... -P simgrid_publish.cmake
# SPDX-License-Identifier: GPL-2.0-or-later
file(LOCK ${DIR}.lock GUARD PROCESS TIMEOUT 600 RESULT_VARIABLE locked)
if(NOT locked STREQUAL "0")
  message(FATAL_ERROR "SimGrid: cannot lock ${DIR}.lock: ${locked}")
endif()
if(EXISTS ${STAMP})
  message(STATUS "SimGrid: ${DIR} was completed by another build meanwhile; this one's is dropped")
else()
  # What a configure left there: the empty include folder (simgrid.cmake),
  # or what a build stopped half-way left in older simcoll versions.
  file(REMOVE_RECURSE ${DIR})
  file(RENAME ${STAGE}${DIR} ${DIR})
endif()
file(LOCK ${DIR}.lock RELEASE)
file(REMOVE_RECURSE ${STAGE})
