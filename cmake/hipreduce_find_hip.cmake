# Provides hipreduce::hip_runtime: the HIP host runtime (libamdhip64, AMD platform). Used by the amd
# build and, for a static amd libhipreduce, by the installed hipreduceConfig.cmake. It wraps hip::host
# from ROCm's hip-config.cmake where that loads (it needs CXX enabled), else the library and headers
# found by hand, which is all that host code needs. A name of its own: defining hip::host here would
# break a later find_package(hip) in the same project.
if(TARGET hipreduce::hip_runtime)
  return()
endif()

get_property(_hr_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT TARGET hip::host AND "CXX" IN_LIST _hr_languages)
  # hip-config.cmake writes the GPU_TARGETS cache entry when it is unset; keep the caller's value.
  set(_hr_saved_gpu_targets "${GPU_TARGETS}")
  find_package(hip CONFIG QUIET
    HINTS ENV ROCM_PATH ENV HIP_PATH
    PATHS /opt/rocm /opt/rocm/lib/cmake/hip)
  set(GPU_TARGETS "${_hr_saved_gpu_targets}")
  unset(_hr_saved_gpu_targets)
endif()
unset(_hr_languages)

add_library(hipreduce::hip_runtime INTERFACE IMPORTED)
if(TARGET hip::host)
  set_target_properties(hipreduce::hip_runtime PROPERTIES INTERFACE_LINK_LIBRARIES hip::host)
else()
  find_library(HIPREDUCE_AMDHIP64_LIBRARY NAMES amdhip64
    HINTS ENV ROCM_PATH ENV HIP_PATH PATH_SUFFIXES lib lib64
    PATHS /opt/rocm)
  find_path(HIPREDUCE_HIP_INCLUDE_DIR NAMES hip/hip_runtime_api.h
    HINTS ENV ROCM_PATH ENV HIP_PATH PATH_SUFFIXES include
    PATHS /opt/rocm)
  if(NOT HIPREDUCE_AMDHIP64_LIBRARY OR NOT HIPREDUCE_HIP_INCLUDE_DIR)
    message(FATAL_ERROR "The HIP runtime was not found: neither hip-config.cmake nor libamdhip64 and "
      "hip/hip_runtime_api.h (set ROCM_PATH, or install libamdhip64-dev / ROCm).")
  endif()
  set_target_properties(hipreduce::hip_runtime PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "__HIP_PLATFORM_AMD__=1"
    INTERFACE_INCLUDE_DIRECTORIES "${HIPREDUCE_HIP_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${HIPREDUCE_AMDHIP64_LIBRARY}")
endif()
