! use hipreduce_mpi: libhipreduce_mpi (hipreduce_mpi.h) for Fortran, beside use hipreduce. Every
! call takes the communicator as an integer handle (use mpi, mpif.h) or, where the MPI library has
! mpi_f08, as a type(MPI_Comm): generic interfaces pick the one passed. The C calls under their own
! names (data as type(c_ptr) with dtypes, for host or device memory), the fields calls included
! (fields: an array of type(c_ptr), one per field; with weights and owned ranges, and the exact one
! started and waited on), and calls on Fortran arrays:
!
!   call hipreduce_mpi_sum(h, comm, x, s)             ! this rank's slice x, any rank, contiguous
!   call hipreduce_mpi_sum_fields(h, comm, x, sums)   ! x(n_local, nfields): sums(f) = field f's sum
!
! Every call is collective over comm (hipreduce_mpi.h): each result has the single-process bits of
! the ranks' slices concatenated in rank order. A rank that refuses its own arguments still takes
! part (hipreduce_mpi_fortran.c), so no rank waits: it returns its status, the others
! HIPREDUCE_STATUS_MPI_MISMATCH. status= and errmsg= as in module hipreduce: without status=, a
! failure stops the program with the sentence.
module hipreduce_mpi
  use, intrinsic :: iso_c_binding
  use hipreduce_types
  use hipreduce_c, only: hipreduce_string_of
  use hipreduce_arrays, only: hipreduce_f_finish, hipreduce_f_message_len
#ifdef HIPREDUCE_MPI_F08
  use mpi_f08, only: MPI_Comm
#endif
  implicit none
  private
  public :: hipreduce_mpi_reduce, hipreduce_mpi_argreduce, hipreduce_mpi_dot_op, hipreduce_mpi_reduce_axis, &
            hipreduce_mpi_argreduce_axis, hipreduce_mpi_reduce_stats, hipreduce_mpi_reduce_fields, &
            hipreduce_mpi_workspace_size, &
            hipreduce_mpi_last_error_message, hipreduce_mpi_reduce_array, hipreduce_mpi_sum, hipreduce_mpi_sum_exact, &
            hipreduce_mpi_reduce_fields_array, hipreduce_mpi_sum_fields, hipreduce_mpi_reduce_fields_ext, &
            hipreduce_mpi_reduce_fields_start, hipreduce_mpi_wait, hipreduce_mpi_test

  ! The C calls, with an integer communicator (and, with mpi_f08, a type(MPI_Comm) one).
  interface hipreduce_mpi_reduce
    integer(c_int) function mpi_reduce_i(handle, comm, op, in_dtype, input, n, out_dtype, result, location) &
        bind(c, name='hipreduce_f_mpi_reduce')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, result
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: n
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_f08
#endif
  end interface
  interface hipreduce_mpi_argreduce
    integer(c_int) function mpi_argreduce_i(handle, comm, op, dtype, input, n, value, index, location) &
        bind(c, name='hipreduce_f_mpi_argreduce')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, value, index
      integer(c_int), value :: comm, op, dtype, location
      integer(c_int64_t), value :: n
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_argreduce_f08
#endif
  end interface
  ! hipreduce_mpi_dot_op with op HIPREDUCE_OP_DOT is hipreduce_mpi_dot.
  interface hipreduce_mpi_dot_op
    integer(c_int) function mpi_dot_op_i(handle, comm, op, in_dtype, x, y, n, out_dtype, result, location) &
        bind(c, name='hipreduce_f_mpi_dot_op')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, x, y, result
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: n
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_dot_op_f08
#endif
  end interface
  interface hipreduce_mpi_reduce_axis
    integer(c_int) function mpi_reduce_axis_i(handle, comm, op, in_dtype, input, outer, extent, inner, out_dtype, &
                                              results, location) bind(c, name='hipreduce_f_mpi_reduce_axis')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, results
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: outer, extent, inner
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_axis_f08
#endif
  end interface
  interface hipreduce_mpi_argreduce_axis
    integer(c_int) function mpi_argreduce_axis_i(handle, comm, op, dtype, input, outer, extent, inner, values, &
                                                 indices, location) bind(c, name='hipreduce_f_mpi_argreduce_axis')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, values, indices
      integer(c_int), value :: comm, op, dtype, location
      integer(c_int64_t), value :: outer, extent, inner
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_argreduce_axis_f08
#endif
  end interface
  ! The axis call with a plan's correction and second results (values2): var, std, var_mean, std_mean
  ! (correction: the divisor is max(n - correction, 0); the means at results2), aminmax (the maxima at
  ! results2) and every op of hipreduce_mpi_reduce_axis (correction 0, results2 c_null_ptr).
  interface hipreduce_mpi_reduce_stats
    integer(c_int) function mpi_reduce_stats_i(handle, comm, op, in_dtype, input, outer, extent, inner, correction, &
                                               out_dtype, results, results2, location) &
        bind(c, name='hipreduce_f_mpi_reduce_stats')
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: handle, input, results, results2
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: outer, extent, inner
      real(c_double), value :: correction
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_stats_f08
#endif
  end interface
  interface hipreduce_mpi_reduce_fields
    integer(c_int) function mpi_reduce_fields_i(handle, comm, op, in_dtype, nfields, fields, n_local, out_dtype, &
                                                results, location) bind(c, name='hipreduce_f_mpi_reduce_fields')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, results
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: nfields, n_local
      type(c_ptr), intent(in) :: fields(*)
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_fields_f08
#endif
  end interface
  ! The fields call with weights (c_null_ptr, or c_loc of nfields type(c_ptr): field f's second
  ! input for DOT, DOT_EXACT, DOTC) and owned cells (c_null_ptr, or c_loc of an integer(c_int64_t)
  ! ranges(2, nfields): field f's 0-based [begin, end) on this rank); hipreduce_mpi.h's rules.
  interface hipreduce_mpi_reduce_fields_ext
    integer(c_int) function mpi_reduce_fields_ext_i(handle, comm, op, in_dtype, nfields, fields, weights, ranges, &
                                                    n_local, out_dtype, results, location) &
        bind(c, name='hipreduce_f_mpi_reduce_fields_ext')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, weights, ranges, results
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: nfields, n_local
      type(c_ptr), intent(in) :: fields(*)
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_fields_ext_f08
#endif
  end interface
  ! The exact fields call without blocking (SUM_EXACT, DOT_EXACT): request for hipreduce_mpi_wait,
  ! which writes results and frees it; hipreduce_mpi_test(request, done) tells whether it would block.
  interface hipreduce_mpi_reduce_fields_start
    integer(c_int) function mpi_reduce_fields_start_i(handle, comm, op, in_dtype, nfields, fields, weights, ranges, &
                                                      n_local, out_dtype, results, location, request) &
        bind(c, name='hipreduce_f_mpi_reduce_fields_start')
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, weights, ranges, results
      integer(c_int), value :: comm, op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: nfields, n_local
      type(c_ptr), intent(in) :: fields(*)
      type(c_ptr), intent(out) :: request
    end function
#ifdef HIPREDUCE_MPI_F08
    module procedure mpi_reduce_fields_start_f08
#endif
  end interface
  interface
    integer(c_int) function hipreduce_mpi_wait(request) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: request
    end function
    integer(c_int) function hipreduce_mpi_test(request, done) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: request
      integer(c_int), intent(out) :: done
    end function
    integer(c_int) function hipreduce_mpi_workspace_size(handle, op, in_dtype, outer, extent, inner, out_dtype, &
                                                         bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, in_dtype, out_dtype
      integer(c_int64_t), value :: outer, extent, inner
      integer(c_size_t), intent(out) :: bytes
    end function
    type(c_ptr) function c_mpi_message() bind(c, name='hipreduce_mpi_last_error_message')
      import :: c_ptr
    end function
    integer(c_int) function f_mpi_reduce_array(h, comm, op, x, r, msg, len) bind(c, name='hipreduce_f_mpi_reduce_array')
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: h
      integer(c_int), value :: comm, op
      type(*), dimension(..), intent(in) :: x
      type(*), dimension(..), intent(inout) :: r
      character(kind=c_char), intent(inout) :: msg(*)
      integer(c_size_t), value :: len
    end function
    integer(c_int) function f_mpi_fields_array(h, comm, op, x, r, msg, len) &
        bind(c, name='hipreduce_f_mpi_reduce_fields_array')
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: h
      integer(c_int), value :: comm, op
      type(*), dimension(..), intent(in) :: x
      type(*), dimension(..), intent(inout) :: r
      character(kind=c_char), intent(inout) :: msg(*)
      integer(c_size_t), value :: len
    end function
  end interface

  ! The array calls: op over this rank's slice x into the scalar r; fields x(n_local, nfields)
  ! (each column contiguous) into r(nfields).
  interface hipreduce_mpi_reduce_array
    module procedure reduce_array_i
#ifdef HIPREDUCE_MPI_F08
    module procedure reduce_array_f08
#endif
  end interface
  interface hipreduce_mpi_reduce_fields_array
    module procedure fields_array_i
#ifdef HIPREDUCE_MPI_F08
    module procedure fields_array_f08
#endif
  end interface
  interface hipreduce_mpi_sum
    module procedure sum_i
#ifdef HIPREDUCE_MPI_F08
    module procedure sum_f08
#endif
  end interface
  interface hipreduce_mpi_sum_exact
    module procedure sum_exact_i
#ifdef HIPREDUCE_MPI_F08
    module procedure sum_exact_f08
#endif
  end interface
  interface hipreduce_mpi_sum_fields
    module procedure sum_fields_i
#ifdef HIPREDUCE_MPI_F08
    module procedure sum_fields_f08
#endif
  end interface

contains

  ! Why this thread's last MPI call failed ("" after a success), as hipreduce_mpi.h says.
  function hipreduce_mpi_last_error_message() result(s)
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_mpi_message())
  end function

  subroutine reduce_array_i(h, comm, op, x, r, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer, intent(in) :: comm
    integer(c_int), intent(in) :: op
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int) :: st
    msg(1) = c_null_char
    st = f_mpi_reduce_array(h, int(comm, c_int), op, x, r, msg, size(msg, kind=c_size_t))
    call hipreduce_f_finish(st, msg, 'mpi reduce', status, errmsg)
  end subroutine

  subroutine fields_array_i(h, comm, op, x, r, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer, intent(in) :: comm
    integer(c_int), intent(in) :: op
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int) :: st
    msg(1) = c_null_char
    st = f_mpi_fields_array(h, int(comm, c_int), op, x, r, msg, size(msg, kind=c_size_t))
    call hipreduce_f_finish(st, msg, 'mpi reduce_fields', status, errmsg)
  end subroutine

  subroutine sum_i(h, comm, x, r, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer, intent(in) :: comm
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call reduce_array_i(h, comm, HIPREDUCE_OP_SUM, x, r, status, errmsg)
  end subroutine

  subroutine sum_exact_i(h, comm, x, r, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer, intent(in) :: comm
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call reduce_array_i(h, comm, HIPREDUCE_OP_SUM_EXACT, x, r, status, errmsg)
  end subroutine

  subroutine sum_fields_i(h, comm, x, r, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer, intent(in) :: comm
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call fields_array_i(h, comm, HIPREDUCE_OP_SUM, x, r, status, errmsg)
  end subroutine

#ifdef HIPREDUCE_MPI_F08
#include "hipreduce_mpi_f08.inc"
#endif
end module hipreduce_mpi
