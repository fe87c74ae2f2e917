# ctest package_consumer (cmake -P): installs the build into WORK_DIR/prefix, then builds and runs
# test/consumer against that prefix twice: as a CMake project (find_package(hipreduce)) and, where
# pkg-config exists, with `cc $(pkg-config --cflags --libs hipreduce)`. Then test/consumer_cxx, a
# C++-only project (the package must not need the C language), and, where the mpi component was
# installed, test/consumer_mpi (C) and test/consumer_cxx with WITH_MPI (C++), both asking
# find_package(hipreduce COMPONENTS mpi), run as one rank. Any failure fails the test.
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR GENERATOR C_COMPILER LIBDIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "package_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/cmake-build")
if(NOT CONFIG)
  set(CONFIG Release)
endif()

function(run what)
  message(STATUS "package_consumer: ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package_consumer: ${what} failed (${rc}): ${ARGN}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
run("install into ${prefix}" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}" --config "${CONFIG}")

# 1. The CMake package.
set(make_program "")
if(MAKE_PROGRAM)
  set(make_program "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
run("configure test/consumer" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
  ${make_program} "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_BUILD_TYPE=${CONFIG}"
  "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS "${build}/CMakeCache.txt" found_dir REGEX "^hipreduce_DIR:")
string(FIND "${found_dir}" "${prefix}/" at)
if(NOT at GREATER 0)
  message(FATAL_ERROR "package_consumer: found a hipreduce package outside ${prefix}: ${found_dir}")
endif()
run("build test/consumer" "${CMAKE_COMMAND}" --build "${build}" --config "${CONFIG}")
set(exe "${build}/hipreduce_consumer")
if(NOT EXISTS "${exe}")
  set(exe "${build}/${CONFIG}/hipreduce_consumer")
endif()
run("run the find_package consumer" "${exe}")

# 1b. A C++-only project, and the mpi component from C and from C++.
function(consumer name dir target)  # ARGN: more -D options
  set(dir_build "${WORK_DIR}/${name}")
  run("configure ${name}" "${CMAKE_COMMAND}" -S "${dir}" -B "${dir_build}" -G "${GENERATOR}" ${make_program}
    "-DCMAKE_BUILD_TYPE=${CONFIG}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF ${ARGN})
  file(STRINGS "${dir_build}/CMakeCache.txt" found REGEX "^hipreduce_DIR:")
  string(FIND "${found}" "${prefix}/" at)
  if(NOT at GREATER 0)
    message(FATAL_ERROR "package_consumer: ${name} found a hipreduce package outside ${prefix}: ${found}")
  endif()
  run("build ${name}" "${CMAKE_COMMAND}" --build "${dir_build}" --config "${CONFIG}")
  set(exe "${dir_build}/${target}")
  if(NOT EXISTS "${exe}")
    set(exe "${dir_build}/${CONFIG}/${target}")
  endif()
  run("run ${name}" "${exe}")
endfunction()
set(cxx_compiler "")
if(CXX_COMPILER)
  set(cxx_compiler "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
endif()
consumer(consumer_cxx "${SOURCE_DIR}/../consumer_cxx" hipreduce_consumer_cxx ${cxx_compiler})
if(EXISTS "${prefix}/${LIBDIR}/cmake/hipreduce/hipreduceMpiTargets.cmake")
  # One rank, started without mpiexec (MPI's singleton start); Open MPI run as root needs its
  # documented opt-in, as test/mpi's tests do.
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT} 1)
  set(ENV{OMPI_ALLOW_RUN_AS_ROOT_CONFIRM} 1)
  consumer(consumer_mpi "${SOURCE_DIR}/../consumer_mpi" hipreduce_consumer_mpi "-DCMAKE_C_COMPILER=${C_COMPILER}")
  consumer(consumer_cxx_mpi "${SOURCE_DIR}/../consumer_cxx" hipreduce_consumer_cxx ${cxx_compiler} -DWITH_MPI=ON)
else()
  message(STATUS "package_consumer: the mpi component is not installed (the build found no MPI): not checked")
endif()

# 2. hipreduce.pc.
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "package_consumer: pkg-config not found, hipreduce.pc not checked")
  return()
endif()
set(ENV{PKG_CONFIG_PATH} "${prefix}/${LIBDIR}/pkgconfig")
set(static "")
if(NOT EXISTS "${prefix}/${LIBDIR}/libhipreduce.so")
  set(static "--static")
endif()
foreach(what cflags libs)
  execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" --${what} ${static} hipreduce
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package_consumer: pkg-config --${what} hipreduce failed: ${err}")
  endif()
  separate_arguments(pc_${what} UNIX_COMMAND "${out}")
endforeach()
execute_process(COMMAND "${PKG_CONFIG_EXECUTABLE}" --variable=libdir hipreduce
  OUTPUT_VARIABLE pc_libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
run("build test/consumer with pkg-config" "${C_COMPILER}" "${SOURCE_DIR}/main.c" ${pc_cflags}
  -o "${WORK_DIR}/hipreduce_consumer_pc" ${pc_libs} "-Wl,-rpath,${pc_libdir}")
run("run the pkg-config consumer" "${WORK_DIR}/hipreduce_consumer_pc")
