# Install rules of libhipreduce_mpi (src/mpi/): the library, hipreduce_mpi.h, its export set (the
# package's component `mpi`: find_package(hipreduce COMPONENTS mpi) -> hipreduce::mpi) and
# hipreduce-mpi.pc. Included from src/mpi/CMakeLists.txt when the component is built.
install(TARGETS hipreduce_mpi EXPORT hipreduceMpiTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/include/hipreduce/hipreduce_mpi.h"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/hipreduce")
install(EXPORT hipreduceMpiTargets NAMESPACE hipreduce:: DESTINATION "${CMAKE_INSTALL_LIBDIR}/cmake/hipreduce")

# hipreduce-mpi.pc: requires hipreduce (the same prefix) and takes MPI's flags from the build.
set(HIPREDUCE_PC_MPI_CFLAGS "")
foreach(_hr_inc IN LISTS MPI_C_INCLUDE_DIRS)
  string(APPEND HIPREDUCE_PC_MPI_CFLAGS " -I${_hr_inc}")
endforeach()
set(HIPREDUCE_PC_MPI_LIBS "")
foreach(_hr_lib IN LISTS MPI_C_LIBRARIES)
  string(APPEND HIPREDUCE_PC_MPI_LIBS " ${_hr_lib}")
endforeach()
configure_file("${PROJECT_SOURCE_DIR}/cmake/hipreduce-mpi.pc.in" "${PROJECT_BINARY_DIR}/hipreduce-mpi.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/hipreduce-mpi.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
