# Install rules: the library, the public headers (one written, two generated), the CMake package
# (find_package(hipreduce) -> hipreduce::hipreduce) and hipreduce.pc for pkg-config.
include(CMakePackageConfigHelpers)
set(HIPREDUCE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/hipreduce")

install(TARGETS hipreduce EXPORT hipreduceTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES
  "${PROJECT_SOURCE_DIR}/include/hipreduce/hipreduce.h"
  "${PROJECT_SOURCE_DIR}/include/hipreduce/hipreduce_study.h"
  "${PROJECT_BINARY_DIR}/include/hipreduce/hipreduce_version.h"
  "${PROJECT_BINARY_DIR}/include/hipreduce/hipreduce_export.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/hipreduce")

install(EXPORT hipreduceTargets NAMESPACE hipreduce:: DESTINATION "${HIPREDUCE_CMAKE_DIR}")
configure_package_config_file(cmake/hipreduceConfig.cmake.in
  "${PROJECT_BINARY_DIR}/hipreduceConfig.cmake"
  INSTALL_DESTINATION "${HIPREDUCE_CMAKE_DIR}")
# 0.x: a new minor version may change the ABI (the soname says so too).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/hipreduceConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/hipreduceConfig.cmake"
  "${PROJECT_BINARY_DIR}/hipreduceConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/hipreduce_find_hip.cmake"
  DESTINATION "${HIPREDUCE_CMAKE_DIR}")

# hipreduce.pc: relocatable (paths relative to ${pcfiledir}) when the install dirs are relative.
set(_hr_pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${_hr_pc_dir}")
  set(HIPREDUCE_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _hr_up "/root/${_hr_pc_dir}" "/root")  # "../.." for lib/pkgconfig
  string(REGEX REPLACE "/$" "" _hr_up "${_hr_up}")
  set(HIPREDUCE_PC_PREFIX "\${pcfiledir}/${_hr_up}")
endif()
foreach(_hr_dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_hr_dir}}")
    set(HIPREDUCE_PC_${_hr_dir} "${CMAKE_INSTALL_${_hr_dir}}")
  else()
    set(HIPREDUCE_PC_${_hr_dir} "\${prefix}/${CMAKE_INSTALL_${_hr_dir}}")
  endif()
endforeach()
set(HIPREDUCE_PC_CFLAGS "")
set(HIPREDUCE_PC_LIBS_PRIVATE "")
if(HIPREDUCE_STATIC)
  set(HIPREDUCE_PC_CFLAGS " -DHIPREDUCE_STATIC_DEFINE")
endif()
if(HIPREDUCE_GPU_BACKEND STREQUAL "cuda")
  string(APPEND HIPREDUCE_PC_LIBS_PRIVATE " -L${CUDAToolkit_LIBRARY_DIR} -lcudart -lstdc++")
elseif(HIPREDUCE_GPU_BACKEND STREQUAL "amd")
  if(hip_LIB_INSTALL_DIR)
    string(APPEND HIPREDUCE_PC_LIBS_PRIVATE " -L${hip_LIB_INSTALL_DIR}")
  elseif(HIPREDUCE_AMDHIP64_LIBRARY)
    get_filename_component(_hr_hip_libdir "${HIPREDUCE_AMDHIP64_LIBRARY}" DIRECTORY)
    string(APPEND HIPREDUCE_PC_LIBS_PRIVATE " -L${_hr_hip_libdir}")
  endif()
  string(APPEND HIPREDUCE_PC_LIBS_PRIVATE " -lamdhip64 -lstdc++")
endif()
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  string(APPEND HIPREDUCE_PC_LIBS_PRIVATE " -lm -pthread")  # -pthread: the cpu device's thread pool
endif()
configure_file(cmake/hipreduce.pc.in "${PROJECT_BINARY_DIR}/hipreduce.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/hipreduce.pc" DESTINATION "${_hr_pc_dir}")

# The licence travels with every install (share/doc/hipreduce/LICENSE).
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")
