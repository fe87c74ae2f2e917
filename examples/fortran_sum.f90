! Fortran arrays reduced with use hipreduce: a whole array of any rank, columns as Fortran's
! sum(x, dim=1), a strided section without a copy, an integer(1) array summed into integer(8), and
! the exact sum. Each result has the bits of the C call on its elements in array element order.
! Runs on the cpu device (host arrays).
program fortran_sum
  use, intrinsic :: iso_c_binding
  use hipreduce
  implicit none
  integer, parameter :: rows = 300, cols = 500
  type(c_ptr) :: h
  real(8), allocatable :: x(:, :)
  real(8) :: total, col_sums(cols), half(cols), exact
  integer(1) :: bytes(100000)
  integer(8) :: byte_sum
  integer :: i, j
  logical :: ok

  if (hipreduce_create(h, HIPREDUCE_DEVICE_CPU, 0) /= HIPREDUCE_STATUS_SUCCESS) then
    print '(a)', 'hipreduce_create: ' // hipreduce_create_error_message()
    error stop 1
  end if
  allocate (x(rows, cols))
  do j = 1, cols
    do i = 1, rows
      x(i, j) = real(i + j, 8) ! small integers: exact sums, whatever the order
    end do
  end do
  bytes = 127_1

  call hipreduce_sum(h, x, total)                     ! sum(x)
  call hipreduce_sum(h, x, col_sums, dim=1)           ! sum(x, dim=1)
  call hipreduce_sum(h, x(1:rows:2, :), half, dim=1)  ! the odd rows, read in place
  call hipreduce_sum(h, bytes, byte_sum)              ! integer(1) into integer(8): no overflow
  call hipreduce_sum_exact(h, x, exact)               ! the exact sum, rounded once

  ok = total == sum(x) .and. all(col_sums == sum(x, dim=1)) .and. all(half == sum(x(1:rows:2, :), dim=1)) &
       .and. byte_sum == 127_8 * size(bytes) .and. exact == total
  print '(a, f0.0, a, f0.0, a, f0.0, a, i0)', 'sum ', total, ', column 1 ', col_sums(1), ', odd rows of column 1 ', &
    half(1), ', bytes ', byte_sum
  if (hipreduce_destroy(h) /= HIPREDUCE_STATUS_SUCCESS) error stop 1
  if (.not. ok) then
    print '(a)', 'MISMATCH'
    error stop 1
  end if
  print '(a)', 'ok'
end program fortran_sum
