! hipreduce.h's functions for Fortran (module hipreduce re-exports them), one interface each, bound
! to the C function itself: the same names, arguments and statuses (integer(c_int) functions). A
! handle or a plan is a type(c_ptr); data and results are type(c_ptr) (c_loc of a host variable
! with the target attribute, or a device pointer), so these calls take device memory on a GPU
! handle. uint64_t counts are integer(c_int64_t), size_t integer(c_size_t). The functions that
! return C strings return Fortran strings here.
module hipreduce_c
  use, intrinsic :: iso_c_binding
  use hipreduce_types
  implicit none
  private
  public :: hipreduce_get_version, hipreduce_dtype_size, hipreduce_get_device_count, hipreduce_create, &
            hipreduce_destroy, hipreduce_set_stream, hipreduce_set_algorithm, hipreduce_get_algorithm, &
            hipreduce_set_threads, hipreduce_get_threads, hipreduce_set_workspace, &
            hipreduce_reduce, hipreduce_argreduce, hipreduce_dot, hipreduce_dot_op, hipreduce_workspace_size, &
            hipreduce_argreduce_workspace_size, hipreduce_dot_workspace_size, hipreduce_dot_op_workspace_size, &
            hipreduce_reduce_axis, hipreduce_argreduce_axis, hipreduce_reduce_segments, &
            hipreduce_argreduce_segments, hipreduce_reduce_axis_workspace_size, &
            hipreduce_argreduce_axis_workspace_size, hipreduce_reduce_segments_workspace_size, &
            hipreduce_argreduce_segments_workspace_size, hipreduce_desc_init, hipreduce_plan_create, &
            hipreduce_plan_results, hipreduce_plan_workspace_size, hipreduce_plan_run, hipreduce_plan_destroy, &
            hipreduce_f16_to_f32, hipreduce_f32_to_f16, hipreduce_bf16_to_f32, hipreduce_f32_to_bf16, &
            hipreduce_status_string, hipreduce_op_name, hipreduce_dtype_name, hipreduce_algorithm_name, &
            hipreduce_backend_name, hipreduce_create_error_message, hipreduce_last_error_message, &
            hipreduce_string_of

  interface
    integer(c_int32_t) function hipreduce_get_version() bind(c)
      import :: c_int32_t
    end function
    integer(c_size_t) function hipreduce_dtype_size(dtype) bind(c)
      import :: c_size_t, c_int
      integer(c_int), value :: dtype
    end function
    real(c_float) function hipreduce_f16_to_f32(h) bind(c)
      import :: c_float, c_int16_t
      integer(c_int16_t), value :: h
    end function
    integer(c_int16_t) function hipreduce_f32_to_f16(f) bind(c)
      import :: c_float, c_int16_t
      real(c_float), value :: f
    end function
    real(c_float) function hipreduce_bf16_to_f32(h) bind(c)
      import :: c_float, c_int16_t
      integer(c_int16_t), value :: h
    end function
    integer(c_int16_t) function hipreduce_f32_to_bf16(f) bind(c)
      import :: c_float, c_int16_t
      real(c_float), value :: f
    end function
    integer(c_int) function hipreduce_get_device_count(count) bind(c)
      import :: c_int
      integer(c_int), intent(out) :: count
    end function
    integer(c_int) function hipreduce_create(handle, kind, device_ordinal) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
      integer(c_int), value :: kind, device_ordinal
    end function
    integer(c_int) function hipreduce_destroy(handle) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
    end function
    integer(c_int) function hipreduce_set_stream(handle, stream) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle, stream
    end function
    integer(c_int) function hipreduce_set_algorithm(handle, algorithm) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: algorithm
    end function
    integer(c_int) function hipreduce_get_algorithm(handle, algorithm) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: algorithm
    end function
    integer(c_int) function hipreduce_set_threads(handle, threads) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), value :: threads
    end function
    integer(c_int) function hipreduce_get_threads(handle, threads) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int), intent(out) :: threads
    end function
    integer(c_int) function hipreduce_set_workspace(handle, workspace, bytes) bind(c)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, workspace
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function hipreduce_reduce(handle, op, in_dtype, input, n, out_dtype, result, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, result
      integer(c_int), value :: op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: n
    end function
    integer(c_int) function hipreduce_argreduce(handle, op, dtype, input, n, value, index, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, value, index
      integer(c_int), value :: op, dtype, location
      integer(c_int64_t), value :: n
    end function
    integer(c_int) function hipreduce_dot(handle, in_dtype, x, y, n, out_dtype, result, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, x, y, result
      integer(c_int), value :: in_dtype, out_dtype, location
      integer(c_int64_t), value :: n
    end function
    integer(c_int) function hipreduce_dot_op(handle, op, in_dtype, x, y, n, out_dtype, result, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, x, y, result
      integer(c_int), value :: op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: n
    end function
    integer(c_int) function hipreduce_workspace_size(handle, op, in_dtype, n, out_dtype, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, in_dtype, out_dtype
      integer(c_int64_t), value :: n
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_argreduce_workspace_size(handle, op, dtype, n, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, dtype
      integer(c_int64_t), value :: n
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_dot_workspace_size(handle, in_dtype, n, out_dtype, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: in_dtype, out_dtype
      integer(c_int64_t), value :: n
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_dot_op_workspace_size(handle, op, in_dtype, n, out_dtype, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, in_dtype, out_dtype
      integer(c_int64_t), value :: n
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_reduce_axis(handle, op, in_dtype, input, outer, extent, inner, out_dtype, &
                                                  results, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, results
      integer(c_int), value :: op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: outer, extent, inner
    end function
    integer(c_int) function hipreduce_argreduce_axis(handle, op, dtype, input, outer, extent, inner, values, &
                                                     indices, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, values, indices
      integer(c_int), value :: op, dtype, location
      integer(c_int64_t), value :: outer, extent, inner
    end function
    integer(c_int) function hipreduce_reduce_segments(handle, op, in_dtype, input, num_segments, offsets, &
                                                      out_dtype, results, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, offsets, results
      integer(c_int), value :: op, in_dtype, out_dtype, location
      integer(c_int64_t), value :: num_segments
    end function
    integer(c_int) function hipreduce_argreduce_segments(handle, op, dtype, input, num_segments, offsets, values, &
                                                         indices, location) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle, input, offsets, values, indices
      integer(c_int), value :: op, dtype, location
      integer(c_int64_t), value :: num_segments
    end function
    integer(c_int) function hipreduce_reduce_axis_workspace_size(handle, op, in_dtype, outer, extent, inner, &
                                                                 out_dtype, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, in_dtype, out_dtype
      integer(c_int64_t), value :: outer, extent, inner
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_argreduce_axis_workspace_size(handle, op, dtype, outer, extent, inner, &
                                                                    bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, dtype
      integer(c_int64_t), value :: outer, extent, inner
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_reduce_segments_workspace_size(handle, op, in_dtype, num_segments, &
                                                                     out_dtype, bytes) bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, in_dtype, out_dtype
      integer(c_int64_t), value :: num_segments
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_argreduce_segments_workspace_size(handle, op, dtype, num_segments, bytes) &
        bind(c)
      import :: c_int, c_ptr, c_int64_t, c_size_t
      type(c_ptr), value :: handle
      integer(c_int), value :: op, dtype
      integer(c_int64_t), value :: num_segments
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_desc_init(desc, op, in_dtype, out_dtype, rank, extents) bind(c)
      import :: c_int, c_int64_t, hipreduce_reduction_desc
      type(hipreduce_reduction_desc), intent(out) :: desc
      integer(c_int), value :: op, in_dtype, out_dtype, rank
      integer(c_int64_t), intent(in) :: extents(*) ! C's order (row-major): see hipreduce_desc_column_major
    end function
    integer(c_int) function hipreduce_plan_create(handle, desc, plan) bind(c)
      import :: c_int, c_ptr, hipreduce_reduction_desc
      type(c_ptr), value :: handle
      type(hipreduce_reduction_desc), intent(in) :: desc
      type(c_ptr), intent(out) :: plan
    end function
    integer(c_int) function hipreduce_plan_results(plan, results) bind(c)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: plan
      integer(c_int64_t), intent(out) :: results
    end function
    integer(c_int) function hipreduce_plan_workspace_size(handle, plan, location, bytes) bind(c)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: handle, plan
      integer(c_int), value :: location
      integer(c_size_t), intent(out) :: bytes
    end function
    integer(c_int) function hipreduce_plan_run(handle, plan, operands, location) bind(c)
      import :: c_int, c_ptr, hipreduce_operands
      type(c_ptr), value :: handle, plan
      type(hipreduce_operands), intent(in) :: operands
      integer(c_int), value :: location
    end function
    subroutine hipreduce_plan_destroy(plan) bind(c)
      import :: c_ptr
      type(c_ptr), value :: plan
    end subroutine
  end interface

  ! The C functions that return strings (const char*), wrapped below.
  interface
    type(c_ptr) function c_status_string(status) bind(c, name='hipreduce_status_string')
      import :: c_ptr, c_int
      integer(c_int), value :: status
    end function
    type(c_ptr) function c_op_name(op) bind(c, name='hipreduce_op_name')
      import :: c_ptr, c_int
      integer(c_int), value :: op
    end function
    type(c_ptr) function c_dtype_name(dtype) bind(c, name='hipreduce_dtype_name')
      import :: c_ptr, c_int
      integer(c_int), value :: dtype
    end function
    type(c_ptr) function c_algorithm_name(algorithm) bind(c, name='hipreduce_algorithm_name')
      import :: c_ptr, c_int
      integer(c_int), value :: algorithm
    end function
    type(c_ptr) function c_backend_name() bind(c, name='hipreduce_backend_name')
      import :: c_ptr
    end function
    type(c_ptr) function c_create_error_message() bind(c, name='hipreduce_create_error_message')
      import :: c_ptr
    end function
    type(c_ptr) function c_last_error_message(handle) bind(c, name='hipreduce_last_error_message')
      import :: c_ptr
      type(c_ptr), value :: handle
    end function
    integer(c_size_t) function c_strlen(s) bind(c, name='strlen')
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
    end function
  end interface

contains

  ! A NUL-terminated C string as a Fortran string ("" for a NULL pointer: an unknown value).
  function hipreduce_string_of(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer(c_size_t) :: n, i
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = c_strlen(p)
    call c_f_pointer(p, chars, [n])
    allocate (character(len=n) :: s)
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function

  function hipreduce_status_string(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_status_string(status))
  end function

  function hipreduce_op_name(op) result(s)
    integer(c_int), intent(in) :: op
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_op_name(op))
  end function

  function hipreduce_dtype_name(dtype) result(s)
    integer(c_int), intent(in) :: dtype
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_dtype_name(dtype))
  end function

  function hipreduce_algorithm_name(algorithm) result(s)
    integer(c_int), intent(in) :: algorithm
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_algorithm_name(algorithm))
  end function

  function hipreduce_backend_name() result(s)
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_backend_name())
  end function

  function hipreduce_create_error_message() result(s)
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_create_error_message())
  end function

  ! Why the handle's most recent call failed ("" after a success), as hipreduce.h says.
  function hipreduce_last_error_message(handle) result(s)
    type(c_ptr), intent(in) :: handle
    character(len=:), allocatable :: s
    s = hipreduce_string_of(c_last_error_message(handle))
  end function
end module hipreduce_c
