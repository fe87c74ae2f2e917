! The Fortran module (label api), on the cpu device: the bind(c) descriptor and operands against the
! C structs' sizes and offsets; every kind's array calls (check_kind.inc) against the C calls, bit
! for bit; wider results; the plan API from Fortran (hipreduce_desc_of, hipreduce_desc_column_major)
! against the array calls; complex(4) and complex(8) arrays against the C calls (dot_product
! conjugating x as Fortran's does); the C-string functions; and the statuses of bad arguments, each
! with a sentence and nothing written.
#define ELEM integer(1)
#define IS_REAL 0
#define DTYPE HIPREDUCE_I8
module check_i1
#include "check_kind.inc"
end module
#undef ELEM
#undef DTYPE
#define ELEM integer(2)
#define DTYPE HIPREDUCE_I16
module check_i2
#include "check_kind.inc"
end module
#undef ELEM
#undef DTYPE
#define ELEM integer(4)
#define DTYPE HIPREDUCE_I32
module check_i4
#include "check_kind.inc"
end module
#undef ELEM
#undef DTYPE
#define ELEM integer(8)
#define DTYPE HIPREDUCE_I64
module check_i8
#include "check_kind.inc"
end module
#undef ELEM
#undef DTYPE
#undef IS_REAL
#define IS_REAL 1
#define ELEM real(4)
#define DTYPE HIPREDUCE_F32
module check_r4
#include "check_kind.inc"
end module
#undef ELEM
#undef DTYPE
#define ELEM real(8)
#define DTYPE HIPREDUCE_F64
module check_r8
#include "check_kind.inc"
end module

program test_fortran
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  use hipreduce
  use check_i1, only: check_i1_kind => check_kind
  use check_i2, only: check_i2_kind => check_kind
  use check_i4, only: check_i4_kind => check_kind
  use check_i8, only: check_i8_kind => check_kind
  use check_r4, only: check_r4_kind => check_kind
  use check_r8, only: check_r8_kind => check_kind
  implicit none
  interface
    integer(c_int) function hipreduce_test_desc_layout(out) bind(c)
      import :: c_int, c_int64_t
      integer(c_int64_t), intent(out) :: out(*)
    end function
  end interface
  type(c_ptr) :: h
  integer :: failures, checks

  failures = 0
  checks = 0
  if (hipreduce_create(h, HIPREDUCE_DEVICE_CPU, 0) /= HIPREDUCE_STATUS_SUCCESS) error stop 'hipreduce_create failed'
  call layout_checks()
  failures = failures + check_i1_kind(h) + check_i2_kind(h) + check_i4_kind(h) + check_i8_kind(h) + check_r4_kind(h) &
             + check_r8_kind(h)
  checks = checks + 6
  call wide_checks()
  call complex_checks()
  call nanarg_checks()
  call plan_checks()
  call string_checks()
  call status_checks()
  if (hipreduce_destroy(h) /= HIPREDUCE_STATUS_SUCCESS) call fail('destroy')
  print '(a, i0, a, i0, a)', 'fortran: ', checks, ' check groups, ', failures, ' failures'
  if (failures /= 0) error stop 1

contains

  subroutine fail(what)
    character(len=*), intent(in) :: what
    failures = failures + 1
    print '(a)', 'FAIL ' // what
  end subroutine

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. ok) call fail(what)
  end subroutine

  integer(c_int64_t) function offset(base, field)
    type(c_ptr), intent(in) :: base, field
    offset = transfer(field, 0_c_intptr_t) - transfer(base, 0_c_intptr_t)
  end function

  ! The bind(c) types have the C structs' size and every field's offset.
  subroutine layout_checks()
    type(hipreduce_reduction_desc), target :: d
    type(hipreduce_operands), target :: o
    integer(c_int64_t) :: c(64), f(27)
    type(c_ptr) :: b
    integer :: n
    n = hipreduce_test_desc_layout(c)
    b = c_loc(d)
    f(1:18) = [c_sizeof(d), offset(b, c_loc(d%op)), offset(b, c_loc(d%in_dtype)), offset(b, c_loc(d%out_dtype)), &
               offset(b, c_loc(d%layout)), offset(b, c_loc(d%order)), offset(b, c_loc(d%rank)), &
               offset(b, c_loc(d%extents)), offset(b, c_loc(d%x_strides)), offset(b, c_loc(d%y_strides)), &
               offset(b, c_loc(d%num_axes)), offset(b, c_loc(d%axes)), offset(b, c_loc(d%num_segments)), &
               offset(b, c_loc(d%length)), offset(b, c_loc(d%num_bins)), offset(b, c_loc(d%row)), &
               offset(b, c_loc(d%key_dtype)), offset(b, c_loc(d%reserved))]
    b = c_loc(o)
    f(19:27) = [c_sizeof(o), offset(b, c_loc(o%x)), offset(b, c_loc(o%y)), offset(b, c_loc(o%offsets)), &
                offset(b, c_loc(o%values)), offset(b, c_loc(o%indices)), offset(b, c_loc(o%keys)), &
                offset(b, c_loc(o%counts)), offset(b, c_loc(o%reserved))]
    call check(n == 27 .and. all(f == c(1:27)), 'the bind(c) types'' sizes and offsets differ from C''s')
    if (n /= 27 .or. any(f /= c(1:27))) print '(a, 27i5, /, a, 27i5)', ' C:       ', c(1:27), ' Fortran: ', f
  end subroutine

  ! Results wider than the input: integer(1) into integer(8), real(4) into real(8).
  subroutine wide_checks()
    integer(1), target :: b(300, 7)
    integer(8), target :: s8, col8(7), want8
    real(4), target :: x(1000, 3)
    real(8), target :: s, col(3), want
    integer :: j
    b = 100_1
    b(:, 7) = -127_1 - 1_1
    call hipreduce_sum(h, b, s8)
    call hipreduce_sum(h, b, col8, dim=1)
    call check(s8 == 300_8 * (6 * 100 - 128) .and. all(col8 == [(300_8 * 100, j = 1, 6), 300_8 * (-128)]), &
               'integer(1) summed into integer(8)')
    call random_number(x)
    call hipreduce_sum(h, x, s)
    call hipreduce_sum(h, x, col, dim=1)
    j = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, c_loc(x), size(x, kind=c_int64_t), HIPREDUCE_F64, &
                         c_loc(want), HIPREDUCE_RESULT_HOST)
    call check(s == want, 'real(4) summed into real(8)')
    do j = 1, 3
      if (hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, c_loc(x(1, j)), 1000_c_int64_t, HIPREDUCE_F64, &
                           c_loc(want), HIPREDUCE_RESULT_HOST) /= 0) call fail('reference')
      call check(col(j) == want, 'real(4) columns summed into real(8)')
    end do
    ! zero-size sections with bounds in variables (gfortran 12 hands them a negative extent)
    j = 5
    s = -1
    col = -1
    call hipreduce_sum(h, x(j:j - 3, 1), s)
    call hipreduce_sum(h, x(j:j - 3, :), col, dim=1)
    call check(transfer(s, 0_8) == 0 .and. all(col == 0), 'zero-size sections: the identity')
    want8 = 0
    call check(hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_I8, c_loc(b), size(b, kind=c_int64_t), HIPREDUCE_I64, &
                                c_loc(want8), HIPREDUCE_RESULT_HOST) == 0 .and. want8 == s8, 'the C call on integer(1)')
  end subroutine

  ! complex(8) and complex(4) arrays: whole, by columns and as a strided section, each result the C
  ! call's bits over its elements; dot_product conjugates x (Fortran's rule); norm2 into real.
  subroutine complex_checks()
    complex(8), target :: z(999, 3), s, col(3), d, want, part(500)
    complex(4), target :: c(2000), c_s, c_want
    real(4), target :: n4, n4_want
    real(8) :: re(999), im(999)
    integer :: j
    integer(c_int) :: st
    character(len=200) :: msg
    do j = 1, 3
      call random_number(re)
      call random_number(im)
      z(:, j) = cmplx(re - 0.5d0, im - 0.5d0, kind=8)
    end do
    c = [(cmplx(0.001 * j - 1, 0.5 - 0.0007 * j, kind=4), j = 1, 2000)]
    call hipreduce_sum(h, z, s)
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_C128, c_loc(z), size(z, kind=c_int64_t), HIPREDUCE_C128, &
                          c_loc(want), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. s == want .and. abs(s - sum(z)) < 1d-10, 'complex(8) sum')
    call hipreduce_sum(h, z, col, dim=1)
    do j = 1, 3
      st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_C128, c_loc(z(1, j)), 999_c_int64_t, HIPREDUCE_C128, &
                            c_loc(want), HIPREDUCE_RESULT_HOST)
      call check(st == 0 .and. col(j) == want, 'complex(8) columns')
    end do
    part = z(1:999:2, 2)
    call hipreduce_sum(h, z(1:999:2, 2), s)
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM, HIPREDUCE_C128, c_loc(part), 500_c_int64_t, HIPREDUCE_C128, &
                          c_loc(want), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. s == want, 'complex(8) strided section')
    call hipreduce_dot_product(h, z(:, 1), z(:, 2), d)
    st = hipreduce_dot_op(h, HIPREDUCE_OP_DOTC, HIPREDUCE_C128, c_loc(z(1, 1)), c_loc(z(1, 2)), 999_c_int64_t, &
                          HIPREDUCE_C128, c_loc(want), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. d == want .and. abs(d - dot_product(z(:, 1), z(:, 2))) < 1d-10, &
               'complex(8) dot_product: conjg(x)*y')
    call hipreduce_sum_exact(h, c, c_s)
    call hipreduce_norm2(h, c, n4)
    st = hipreduce_reduce(h, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_C64, c_loc(c), 2000_c_int64_t, HIPREDUCE_C64, &
                          c_loc(c_want), HIPREDUCE_RESULT_HOST)
    st = st + hipreduce_reduce(h, HIPREDUCE_OP_NRM2, HIPREDUCE_C64, c_loc(c), 2000_c_int64_t, HIPREDUCE_F32, &
                               c_loc(n4_want), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. c_s == c_want .and. n4 == n4_want .and. abs(n4 - norm2([real(c), aimag(c)])) < 1e-3, &
               'complex(4) sum_exact and norm2')
    s = (-7d0, -7d0)
    call hipreduce_maxval(h, z, s, status=st, errmsg=msg)
    call check(st == HIPREDUCE_STATUS_OP_DTYPE_MISMATCH .and. index(msg, 'max does not apply to c128') > 0 .and. &
               s == (-7d0, -7d0), 'maxval of complex(8): ' // trim(msg))
  end subroutine

  ! The plan API from Fortran: a strided section described by hipreduce_desc_of, and a contiguous
  ! buffer by hipreduce_desc_column_major with Fortran's strides, against the array calls.
  subroutine plan_checks()
    real(8), target :: x(40, 9, 4), r(9), want(9), rr(20, 4), want2(20, 4)
    type(hipreduce_reduction_desc) :: d
    type(hipreduce_operands) :: o
    type(c_ptr) :: plan
    integer(c_int64_t) :: results
    integer(c_int) :: st
    call random_number(x)
    ! sum over dims 1 and 3 of x(1:40:2, :, 4:1:-1): results along dim 2
    call hipreduce_desc_of(d, HIPREDUCE_OP_SUM, x(1:40:2, :, 4:1:-1), HIPREDUCE_F64, dims=[1, 3], status=st)
    call check(st == 0, 'hipreduce_desc_of')
    call check(hipreduce_plan_create(h, d, plan) == 0, 'plan_create: ' // hipreduce_last_error_message(h))
    call check(hipreduce_plan_results(plan, results) == 0 .and. results == 9, 'plan_results')
    o%x = c_loc(x(1, 1, 4))
    o%values = c_loc(r)
    call check(hipreduce_plan_run(h, plan, o, HIPREDUCE_RESULT_HOST) == 0, 'plan_run')
    call hipreduce_plan_destroy(plan)
    call hipreduce_sum(h, x(1:40:2, :, 4:1:-1), want, dims=[1, 3])
    call check(all(transfer(r, [0_1]) == transfer(want, [0_1])), 'a plan of hipreduce_desc_of: other bits')
    ! x(1:20, j, k) as numbers: extents (20, 4, 9) and strides (1, 360, 40) in elements, dim 3 (j) reduced
    call hipreduce_desc_column_major(d, HIPREDUCE_OP_SUM, HIPREDUCE_F64, HIPREDUCE_F64, [20_c_int64_t, 4_c_int64_t, &
                                     9_c_int64_t], [1_c_int64_t, 360_c_int64_t, 40_c_int64_t], dim=3, status=st)
    call check(st == 0, 'hipreduce_desc_column_major')
    call check(hipreduce_plan_create(h, d, plan) == 0, 'plan_create (column major)')
    o%x = c_loc(x)
    o%values = c_loc(rr)
    call check(hipreduce_plan_run(h, plan, o, HIPREDUCE_RESULT_HOST) == 0, 'plan_run (column major)')
    call hipreduce_plan_destroy(plan)
    call hipreduce_sum(h, x(1:20, :, :), want2, dim=2)
    call check(all(transfer(rr, [0_1]) == transfer(want2, [0_1])), 'a plan of hipreduce_desc_column_major: other bits')
  end subroutine

  subroutine string_checks()
    call check(hipreduce_status_string(HIPREDUCE_STATUS_INVALID_AXES) /= '' .and. hipreduce_op_name(HIPREDUCE_OP_SUM) &
               == 'sum' .and. hipreduce_dtype_name(HIPREDUCE_F64) == 'f64' .and. hipreduce_dtype_name(99) == '' &
               .and. hipreduce_backend_name() /= '' .and. hipreduce_get_version() >= 300, 'the string functions')
  end subroutine

  ! nanargmin/nanargmax through the array call: NaNs skipped, 1-based positions along dim.
  subroutine nanarg_checks()
    real(8) :: x(5, 2), v(2), nan
    integer(c_int64_t) :: at(2)
    nan = ieee_value(nan, ieee_quiet_nan)
    x(:, 1) = [nan, 3d0, -1d0, nan, -1d0]
    x(:, 2) = [2d0, nan, 7d0, 7d0, nan]
    call hipreduce_argreduce_array(h, HIPREDUCE_OP_NANARGMIN, x, v, at, dim=1)
    call check(all(at == [3, 1]) .and. all(v == [-1d0, 2d0]), 'nanargmin along dim 1')
    call hipreduce_argreduce_array(h, HIPREDUCE_OP_NANARGMAX, x, v, at, dim=1)
    call check(all(at == [2, 3]) .and. all(v == [3d0, 7d0]), 'nanargmax along dim 1')
  end subroutine

  ! Bad arguments: the status, a sentence in errmsg, nothing written.
  subroutine status_checks()
    real(8) :: x(10, 4), r(4), s
    logical :: l(5)
    integer(4) :: i4
    integer(8) :: s8
    character(len=200) :: msg
    integer(c_int) :: st
    x = 1
    r = -7
    s = -7
    i4 = -7
    l = .true.
    call hipreduce_sum(h, l, s, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_DTYPE, 'a logical array', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, i4, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, 'real(8) into integer(4)', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, r, dim=3, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_AXES, 'dim 3 of a rank-2 array', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, r(1:3), dim=1, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_AXES, 'a result of the wrong shape', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, r, dim=1, dims=[1], status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_AXES, 'dim and dims', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, s, dims=[1, 1], status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_AXES, 'dims (1, 1)', st, msg, clean(r, s, i4))
    call hipreduce_sum(h, x, s, status=st, errmsg=msg, dims=[2, 1, 3])
    call verdict(HIPREDUCE_STATUS_INVALID_AXES, 'three dims of a rank-2 array', st, msg, clean(r, s, i4))
    call hipreduce_sum(c_null_ptr, x, s, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_INVALID_HANDLE, 'a NULL handle', st, msg, clean(r, s, i4))
    call hipreduce_reduce_array(h, HIPREDUCE_OP_XOR, x, s, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, 'xor of real(8)', st, msg, clean(r, s, i4))
    call hipreduce_minloc(h, x, i4, s8, status=st, errmsg=msg)
    call verdict(HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, 'minloc with a value of another kind', st, msg, clean(r, s, i4))
  end subroutine

  logical function clean(r, s, i4)
    real(8), intent(in) :: r(:), s
    integer(4), intent(in) :: i4
    clean = all(r == -7) .and. s == -7 .and. i4 == -7
  end function

  subroutine verdict(expected, what, st, msg, untouched)
    integer(c_int), intent(in) :: expected
    character(len=*), intent(in) :: what
    integer(c_int), intent(inout) :: st
    character(len=*), intent(inout) :: msg
    logical, intent(in) :: untouched
    call check(st == expected .and. len_trim(msg) > 0 .and. untouched, &
               what // ': status ' // hipreduce_status_string(st) // ', message "' // trim(msg) // '"')
    st = -1
    msg = ''
  end subroutine
end program test_fortran
