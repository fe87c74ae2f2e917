! The Fortran module on a GPU handle (label emu: the emulated GPU, device/compat/emu): data in device
! memory reached through the C-level calls (type(c_ptr) and a dtype) and through Fortran arrays whose
! descriptors point at device memory (c_f_pointer, as a CUDA Fortran or hipfort device array would),
! sections and dim= included; every result against the same call on the cpu device, bit for bit.
! Exits 77 when the handle cannot be created.
program test_fortran_gpu
  use, intrinsic :: iso_c_binding
  use hipreduce
  implicit none
  interface
    integer(c_int) function hr_emu_malloc(p, bytes) bind(c)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: p
      integer(c_size_t), value :: bytes
    end function
    integer(c_int) function hr_emu_free(p) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: p
    end function
    integer(c_int) function hr_emu_memcpy(dst, src, bytes, kind) bind(c)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function
  end interface
  integer(c_int), parameter :: to_device = 1, to_host = 2
  integer, parameter :: m = 5000, k = 7
  type(c_ptr) :: cpu, gpu, dx, dr
  real(4), target :: x(m, k)
  real(4), pointer :: xd(:, :)
  real(4), target :: s, want, cols(k), want_cols(k), part(k), want_part(k), rows(m), want_rows(m), dev_cols(k)
  real(8) :: e, want_e
  integer :: failures

  failures = 0
  if (hipreduce_create(cpu, HIPREDUCE_DEVICE_CPU, 0) /= 0) error stop 'cpu handle'
  if (hipreduce_create(gpu, HIPREDUCE_DEVICE_GPU, 0) /= 0) then
    print '(a)', 'no GPU: skipped (' // hipreduce_create_error_message() // ')'
    stop 77
  end if
  call random_number(x)
  x = (x - 0.5) * 1.0e4
  if (hr_emu_malloc(dx, c_sizeof(x)) /= 0 .or. hr_emu_malloc(dr, c_sizeof(cols)) /= 0) error stop 'device memory'
  if (hr_emu_memcpy(dx, c_loc(x), c_sizeof(x), to_device) /= 0) error stop 'copy'
  call c_f_pointer(dx, xd, [m, k])

  ! C level: device data, host and device results
  call check(hipreduce_reduce(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, int(m * k, c_int64_t), HIPREDUCE_F32, c_loc(s), &
                              HIPREDUCE_RESULT_HOST) == 0, 'hipreduce_reduce on device memory')
  call hipreduce_sum(cpu, x, want)
  call check(same(s, want), 'hipreduce_reduce: the cpu device''s bits')
  call check(hipreduce_reduce_axis(gpu, HIPREDUCE_OP_SUM, HIPREDUCE_F32, dx, int(k, c_int64_t), int(m, c_int64_t), &
                                   1_c_int64_t, HIPREDUCE_F32, dr, HIPREDUCE_RESULT_DEVICE) == 0, 'reduce_axis')
  call check(hr_emu_memcpy(c_loc(dev_cols), dr, c_sizeof(dev_cols), to_host) == 0, 'copy back')
  call hipreduce_sum(cpu, x, want_cols, dim=1)
  call check(all(transfer(dev_cols, [0_1]) == transfer(want_cols, [0_1])), 'columns into device memory')

  ! Fortran arrays in device memory, by descriptor
  call hipreduce_sum(gpu, xd, cols, dim=1)
  call check(all(transfer(cols, [0_1]) == transfer(want_cols, [0_1])), 'sum(xd, dim=1)')
  call hipreduce_sum(gpu, xd(1:m:3, k:1:-2), part(1:(k + 1) / 2), dim=1)
  call hipreduce_sum(cpu, x(1:m:3, k:1:-2), want_part(1:(k + 1) / 2), dim=1)
  call check(all(transfer(part(1:(k + 1) / 2), [0_1]) == transfer(want_part(1:(k + 1) / 2), [0_1])), 'a strided section')
  call hipreduce_maxval(gpu, xd, rows, dim=2)
  call hipreduce_maxval(cpu, x, want_rows, dim=2)
  call check(all(transfer(rows, [0_1]) == transfer(want_rows, [0_1])), 'maxval(xd, dim=2): rows of a column-major array')
  call hipreduce_sum(gpu, xd, e)
  call hipreduce_sum(cpu, x, want_e)
  call check(transfer(e, 0_8) == transfer(want_e, 0_8), 'real(4) into real(8)')
  call hipreduce_sum_exact(gpu, xd(:, 2:k), s)
  call hipreduce_sum_exact(cpu, x(:, 2:k), want)
  call check(same(s, want), 'the exact sum of a section')

  if (hr_emu_free(dx) /= 0 .or. hr_emu_free(dr) /= 0) failures = failures + 1
  if (hipreduce_destroy(gpu) /= 0 .or. hipreduce_destroy(cpu) /= 0) failures = failures + 1
  print '(a, i0, a)', 'fortran gpu: ', failures, ' failures'
  if (failures /= 0) error stop 1

contains

  logical function same(a, b)
    real(4), intent(in) :: a, b
    same = transfer(a, 0_4) == transfer(b, 0_4)
  end function

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(a)', 'FAIL ' // what // ' ' // hipreduce_last_error_message(gpu)
    end if
  end subroutine
end program test_fortran_gpu
