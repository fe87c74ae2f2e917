# Backend choice. In: HIPREDUCE_BACKEND (auto, cuda, amd, cpu). Out:
#   HIPREDUCE_GPU_BACKEND      cuda, amd or none (visible to test/ and bench/)
#   HIPREDUCE_AMD_TARGETS      the gfx targets of an amd build
#   hipreduce_gpu_runtime      INTERFACE target: the backend's runtime API for the tests, the demo and
#                              the bench (HR_RUNTIME_CUDA / HR_RUNTIME_HIP: test/gpu_memory.h,
#                              bench/device_memory.h)
#   hipreduce_configure_gpu_sources(<target> <host sources...>)
#                              compiles host/*.cpp for the backend and links its runtime.
# auto picks amd where a ROCm/HIP compiler is found, else cuda where nvcc is found, else cpu.

set(_hr_backends auto cuda amd cpu)
if(NOT HIPREDUCE_BACKEND IN_LIST _hr_backends)
  message(FATAL_ERROR "HIPREDUCE_BACKEND must be one of auto, cuda, amd, cpu (got '${HIPREDUCE_BACKEND}')")
endif()

# A ROCm C++ compiler the user chose already, or hipcc from PATH, ROCM_PATH, HIP_PATH or /opt/rocm.
set(_hr_rocm_cxx_regex "(hipcc|amdclang\\+\\+)$|rocm.*/clang\\+\\+$")
if(CMAKE_CXX_COMPILER MATCHES "${_hr_rocm_cxx_regex}")
  set(HIPREDUCE_HIPCC "${CMAKE_CXX_COMPILER}")
else()
  find_program(HIPREDUCE_HIPCC NAMES hipcc
    HINTS ENV ROCM_PATH ENV HIP_PATH PATH_SUFFIXES bin
    PATHS /opt/rocm/bin
    DOC "hipcc used as the C++ compiler of the amd backend")
endif()
# nvcc from CUDACXX, PATH or /usr/local/cuda/bin (CMake itself looks only at the first two).
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(HIPREDUCE_NVCC NAMES nvcc PATHS /usr/local/cuda/bin DOC "nvcc of the cuda backend")
  if(HIPREDUCE_NVCC)
    set(ENV{CUDACXX} "${HIPREDUCE_NVCC}")
  endif()
endif()

if(HIPREDUCE_BACKEND STREQUAL "auto")
  if(HIPREDUCE_HIPCC)
    set(HIPREDUCE_GPU_BACKEND amd)
  else()
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
      set(HIPREDUCE_GPU_BACKEND cuda)
    else()
      set(HIPREDUCE_GPU_BACKEND none)
    endif()
  endif()
elseif(HIPREDUCE_BACKEND STREQUAL "cpu")
  set(HIPREDUCE_GPU_BACKEND none)
else()
  set(HIPREDUCE_GPU_BACKEND "${HIPREDUCE_BACKEND}")
endif()
message(STATUS "hipreduce: HIPREDUCE_BACKEND=${HIPREDUCE_BACKEND} -> GPU backend: ${HIPREDUCE_GPU_BACKEND}")

add_library(hipreduce_gpu_runtime INTERFACE)

if(HIPREDUCE_GPU_BACKEND STREQUAL "cuda")
  # Default targets: the GPUs visible at configure time (machine code for them: what `native`
  # means), else PTX for compute capability 8.0 alone ("80-virtual"): one compile per source instead
  # of one per architecture (a first build in minutes on a small machine), and the driver compiles
  # it for whatever GPU runs it (A100, H100/H200, Blackwell and later) on first use, caching the
  # result. Machine code for known GPUs: -DCMAKE_CUDA_ARCHITECTURES="80;90" (or "native").
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
    set(_hr_cuda_archs "")
    find_program(HIPREDUCE_NVIDIA_SMI nvidia-smi)
    if(HIPREDUCE_NVIDIA_SMI)
      execute_process(COMMAND "${HIPREDUCE_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
        OUTPUT_VARIABLE _hr_caps RESULT_VARIABLE _hr_smi_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(_hr_smi_rc EQUAL 0)
        string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _hr_caps "${_hr_caps}")
        foreach(cap IN LISTS _hr_caps)
          string(REPLACE "." "" cap "${cap}")
          list(APPEND _hr_cuda_archs "${cap}")
        endforeach()
        list(REMOVE_DUPLICATES _hr_cuda_archs)
      endif()
    endif()
    if(_hr_cuda_archs)
      message(STATUS "hipreduce: CUDA architectures of the visible GPUs: ${_hr_cuda_archs}")
    else()
      set(_hr_cuda_archs "80-virtual")
    endif()
    set(CMAKE_CUDA_ARCHITECTURES "${_hr_cuda_archs}")
  endif()
  enable_language(CXX)
  enable_language(CUDA)
  find_package(CUDAToolkit REQUIRED)
  message(STATUS "hipreduce: nvcc ${CMAKE_CUDA_COMPILER_VERSION}, CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES}")
  target_compile_definitions(hipreduce_gpu_runtime INTERFACE HR_RUNTIME_CUDA)
  target_link_libraries(hipreduce_gpu_runtime INTERFACE CUDA::cudart)

elseif(HIPREDUCE_GPU_BACKEND STREQUAL "amd")
  if(NOT HIPREDUCE_HIPCC)
    message(FATAL_ERROR "HIPREDUCE_BACKEND=amd needs hipcc (PATH, ROCM_PATH or /opt/rocm/bin), "
      "or -DCMAKE_CXX_COMPILER=<hipcc or amdclang++>. On Debian 12: "
      "apt-get install hipcc libamdhip64-dev rocm-device-libs")
  endif()
  # GPU targets, ROCm convention first.
  if(GPU_TARGETS)
    set(HIPREDUCE_AMD_TARGETS "${GPU_TARGETS}")
  elseif(AMDGPU_TARGETS)
    set(HIPREDUCE_AMD_TARGETS "${AMDGPU_TARGETS}")
  elseif(CMAKE_HIP_ARCHITECTURES)
    set(HIPREDUCE_AMD_TARGETS "${CMAKE_HIP_ARCHITECTURES}")
  else()
    # The GPUs ROCm enumerates at configure time, else the documented list.
    set(HIPREDUCE_AMD_TARGETS "")
    get_filename_component(_hr_rocm_bin "${HIPREDUCE_HIPCC}" DIRECTORY)
    find_program(HIPREDUCE_AGENT_ENUMERATOR NAMES rocm_agent_enumerator amdgpu-arch
      HINTS "${_hr_rocm_bin}" ENV ROCM_PATH PATH_SUFFIXES bin PATHS /opt/rocm/bin /opt/rocm/llvm/bin)
    if(HIPREDUCE_AGENT_ENUMERATOR)
      execute_process(COMMAND "${HIPREDUCE_AGENT_ENUMERATOR}" OUTPUT_VARIABLE _hr_agents ERROR_QUIET
        RESULT_VARIABLE _hr_agents_rc TIMEOUT 30)
      if(_hr_agents_rc EQUAL 0)
        string(REGEX MATCHALL "gfx[0-9a-f]+" _hr_agents "${_hr_agents}")
        list(REMOVE_ITEM _hr_agents gfx000)
        list(REMOVE_DUPLICATES _hr_agents)
        set(HIPREDUCE_AMD_TARGETS "${_hr_agents}")
      endif()
    endif()
    if(HIPREDUCE_AMD_TARGETS)
      message(STATUS "hipreduce: AMD targets of the visible GPUs: ${HIPREDUCE_AMD_TARGETS}")
    else()
      # No GPU seen: one wave64 CDNA and one wave32 RDNA target (each target compiles every kernel
      # instance again; set GPU_TARGETS for the GPUs you run on, e.g. gfx906;gfx908;gfx90a;gfx940;gfx1030).
      set(HIPREDUCE_AMD_TARGETS "gfx90a;gfx1030")
    endif()
  endif()
  string(REPLACE "," ";" HIPREDUCE_AMD_TARGETS "${HIPREDUCE_AMD_TARGETS}")
  # CMake 3.25's enable_language(HIP) cannot find Debian's ROCm 5.2, so the HIP sources are compiled
  # as CXX by hipcc (or the user's amdclang++) with -x hip.
  if(NOT CMAKE_CXX_COMPILER MATCHES "${_hr_rocm_cxx_regex}")
    if(CMAKE_CXX_COMPILER)
      message(STATUS "hipreduce: the amd backend replaces CMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER} with hipcc")
    endif()
    set(CMAKE_CXX_COMPILER "${HIPREDUCE_HIPCC}")
  endif()
  # hipcc asks rocm_agent_enumerator for a target when given none (and prints a traceback without a
  # GPU): name one for the compiler checks run at configure time.
  list(GET HIPREDUCE_AMD_TARGETS 0 _hr_first_target)
  set(ENV{HCC_AMDGPU_TARGET} "${_hr_first_target}")
  enable_language(CXX)
  include(hipreduce_find_hip)  # hipreduce::hip_runtime
  message(STATUS "hipreduce: ${CMAKE_CXX_COMPILER} (${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}), "
    "AMD GPU targets: ${HIPREDUCE_AMD_TARGETS}")
  target_compile_definitions(hipreduce_gpu_runtime INTERFACE HR_RUNTIME_HIP)
  target_link_libraries(hipreduce_gpu_runtime INTERFACE hipreduce::hip_runtime)
endif()

function(hipreduce_configure_gpu_sources target)
  set(sources ${ARGN})
  if(HIPREDUCE_GPU_BACKEND STREQUAL "cuda")
    target_compile_definitions(${target} PRIVATE HIPREDUCE_BACKEND_CUDA)
    set_source_files_properties(${sources} PROPERTIES LANGUAGE CUDA)
    # Shared cudart: one runtime in the process, shared with the caller's streams and allocations.
    set_target_properties(${target} PROPERTIES
      CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF
      CUDA_RUNTIME_LIBRARY Shared)
    # Reproducibility contract: no FMA contraction in device code. Clang (the amd backend) treats
    # constexpr functions as host+device; --expt-relaxed-constexpr gives nvcc the same rule.
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false --expt-relaxed-constexpr>)
    # Compressed device code: the kernel instances' machine code shrinks about 10x (the library
    # for two architectures from 108 MB); the driver inflates a module when it loads it.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xfatbin=-compress-all>)
    target_link_libraries(${target} PRIVATE CUDA::cudart)
  elseif(HIPREDUCE_GPU_BACKEND STREQUAL "amd")
    target_compile_definitions(${target} PRIVATE HIPREDUCE_BACKEND_AMD)
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
    list(TRANSFORM HIPREDUCE_AMD_TARGETS PREPEND "--offload-arch=" OUTPUT_VARIABLE arch_flags)
    # clang contracts a*b+c into FMA in HIP device code by default; the contract forbids it.
    set_source_files_properties(${sources} PROPERTIES
      COMPILE_OPTIONS "-xhip;${arch_flags};-ffp-contract=off")
    # hipcc links too: name the targets so it does not ask rocm_agent_enumerator.
    if(CMAKE_CXX_COMPILER MATCHES "hipcc$")
      get_target_property(type ${target} TYPE)
      if(type STREQUAL "STATIC_LIBRARY")
        target_link_options(${target} INTERFACE "$<BUILD_INTERFACE:$<$<LINK_LANGUAGE:CXX>:${arch_flags}>>")
      else()
        target_link_options(${target} PRIVATE ${arch_flags})
      endif()
    endif()
    target_link_libraries(${target} PRIVATE hipreduce::hip_runtime)
  endif()
  # A static libhipreduce with C++ objects, linked into a C program, needs the C++ runtime.
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "STATIC_LIBRARY" AND NOT HIPREDUCE_GPU_BACKEND STREQUAL "none")
    set(cxx_runtime ${CMAKE_CXX_IMPLICIT_LINK_LIBRARIES})
    list(FILTER cxx_runtime INCLUDE REGEX "^(stdc\\+\\+|c\\+\\+|c\\+\\+abi)$")
    list(REMOVE_DUPLICATES cxx_runtime)
    target_link_libraries(${target} PRIVATE ${cxx_runtime})
  endif()
endfunction()
