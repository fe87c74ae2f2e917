! Without status=, a failing array call stops the program with the sentence (as Fortran's allocate
! without stat=): CTest expects the sentence in the output and a failing exit.
program test_fortran_stop
  use, intrinsic :: iso_c_binding
  use hipreduce
  implicit none
  type(c_ptr) :: h
  real(8) :: x(10), r
  x = 1
  if (hipreduce_create(h, HIPREDUCE_DEVICE_CPU, 0) /= HIPREDUCE_STATUS_SUCCESS) error stop 'hipreduce_create failed'
  call hipreduce_sum(h, x, r, dim=2)
  print '(a)', 'not stopped'
end program test_fortran_stop
