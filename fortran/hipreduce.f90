! use hipreduce: libhipreduce for Fortran. The constants and the plan API's bind(c) types
! (hipreduce_types.f90), every function of hipreduce.h under its own name (hipreduce_c.f90: data
! as type(c_ptr) with a dtype, for host or device memory), and reductions of Fortran arrays of any
! rank and kind, contiguous or not, with Fortran's dim= (hipreduce_arrays.f90). A handle is a
! type(c_ptr):
!
!   use hipreduce
!   type(c_ptr) :: h
!   real(8) :: x(1000, 50), s, col(50)
!   if (hipreduce_create(h, HIPREDUCE_DEVICE_CPU, 0) /= HIPREDUCE_STATUS_SUCCESS) error stop
!   call hipreduce_sum(h, x, s)               ! the bits of hipreduce_reduce on x
!   call hipreduce_sum(h, x, col, dim=1)      ! sum(x, dim=1), each column's bits as its own sum
!   st = hipreduce_destroy(h)
module hipreduce
  use hipreduce_types
  use hipreduce_c
  use hipreduce_arrays, only: hipreduce_reduce_array, hipreduce_dot_array, hipreduce_argreduce_array, hipreduce_sum, &
                              hipreduce_prod, hipreduce_minval, hipreduce_maxval, hipreduce_norm2, hipreduce_sum_exact, &
                              hipreduce_dot_product, hipreduce_minloc, hipreduce_maxloc, hipreduce_desc_of, &
                              hipreduce_desc_column_major
  implicit none
  public
end module hipreduce
