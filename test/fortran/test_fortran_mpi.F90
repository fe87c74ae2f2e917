! use hipreduce_mpi (label mpi), any rank count: every rank builds the global arrays from the same
! seed, reduces its own slice collectively and compares the bits with the single-process call on the
! whole (hipreduce_sum on the cpu device); the fields call on columns of a padded block against each
! field alone and the C-level call with a type(c_ptr) per field, with weights against the
! single-process dot, with owned ranges and started (sum_exact) against each field's own call;
! hipreduce_mpi_reduce_stats (var_mean
! of the whole, std of rows, aminmax of columns) against the single-process plan; integer and (with
! mpi_f08) type(MPI_Comm) communicators; then a rank's bad argument: its status there, MPI_MISMATCH on
! the others, nothing written, no rank waiting.
program test_fortran_mpi
  use, intrinsic :: iso_c_binding
#ifdef HIPREDUCE_MPI_F08
  use mpi_f08
#else
  use mpi
#endif
  use hipreduce
  use hipreduce_mpi
  implicit none
  integer, parameter :: n = 20011, nfields = 7
  type(c_ptr) :: h
  integer :: rank, ranks, ierr, failures, checks, all_failures, all_checks, lo, hi, world
  real(8), allocatable, target :: g(:), fields_global(:, :), block(:, :)
  real(8) :: s, want, sums(nfields), wants(nfields)
  real(8), target :: raw(nfields)
  integer(1), allocatable :: b(:)
  integer(8) :: s8

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
#ifdef HIPREDUCE_MPI_F08
  world = MPI_COMM_WORLD%MPI_VAL
#else
  world = MPI_COMM_WORLD
#endif
  failures = 0
  checks = 0
  if (hipreduce_create(h, HIPREDUCE_DEVICE_CPU, 0) /= HIPREDUCE_STATUS_SUCCESS) error stop 'hipreduce_create failed'
  ! this rank's slice g(lo:hi) of 1 .. n: rank 0's empty where there are several, the others'
  ! growing (cuts at n k^2 / m^2)
  lo = 1
  hi = n
  if (ranks > 1) then
    lo = 1 + int((int(n, 8) * (rank - 1)**2) / (ranks - 1)**2)
    hi = int((int(n, 8) * rank**2) / (ranks - 1)**2)
    if (rank == 0) hi = 0
  end if
  allocate (g(n), fields_global(n, nfields))
  call fill(g, 5)
  call fill(fields_global, 6)

  ! one array: the single-process bits, with both kinds of communicator
  call hipreduce_sum(h, g, want)
  call hipreduce_mpi_sum(h, world, g(lo:hi), s)
  call check(same(s, want), 'hipreduce_mpi_sum (integer communicator)')
#ifdef HIPREDUCE_MPI_F08
  s = 0
  call hipreduce_mpi_sum(h, MPI_COMM_WORLD, g(lo:hi), s)
  call check(same(s, want), 'hipreduce_mpi_sum (type(MPI_Comm))')
#endif
  call hipreduce_sum_exact(h, g, want)
  call hipreduce_mpi_sum_exact(h, world, g(lo:hi), s)
  call check(same(s, want), 'hipreduce_mpi_sum_exact')
  call hipreduce_reduce_array(h, HIPREDUCE_OP_MAX, g, want)
  call hipreduce_mpi_reduce_array(h, world, HIPREDUCE_OP_MAX, g(lo:hi), s)
  call check(same(s, want), 'hipreduce_mpi_reduce_array max')
  allocate (b(max(0, hi - lo + 1)))
  b = 127_1
  call hipreduce_mpi_sum(h, world, b, s8)
  call check(s8 == 127_8 * global_count(size(b)), 'integer(1) into integer(8)')

  ! fields: columns 1 .. hi - lo + 1 of a block with three more rows, against each field alone
  allocate (block(max(0, hi - lo + 1) + 3, nfields))
  block = -1
  block(1:max(0, hi - lo + 1), :) = fields_global(lo:hi, :)
  call hipreduce_sum(h, fields_global, wants, dim=1)
  call hipreduce_mpi_sum_fields(h, world, block(1:max(0, hi - lo + 1), :), sums)
  call check(all(transfer(sums, [0_1]) == transfer(wants, [0_1])), 'hipreduce_mpi_sum_fields')
#ifdef HIPREDUCE_MPI_F08
  sums = 0
  call hipreduce_mpi_reduce_fields_array(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM, block(1:max(0, hi - lo + 1), :), sums)
  call check(all(transfer(sums, [0_1]) == transfer(wants, [0_1])), 'hipreduce_mpi_reduce_fields_array (type(MPI_Comm))')
#endif
  call c_level_fields()
  call c_level_fields_ext()
  call stats_checks()

  call misuse_checks()
  call MPI_Allreduce(failures, all_failures, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(checks, all_checks, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, i0, a, i0, a, i0, a)', 'fortran mpi, ', ranks, ' ranks: ', all_checks, ' checks, ', &
    all_failures, ' failures'
  if (hipreduce_destroy(h) /= HIPREDUCE_STATUS_SUCCESS) failures = failures + 1
  call MPI_Finalize(ierr)
  if (all_failures /= 0) error stop 1

contains

  subroutine fill(x, seed)
    real(8), intent(out) :: x(..)
    integer, intent(in) :: seed
    integer, allocatable :: s(:)
    integer :: k
    call random_seed(size=k)
    allocate (s(k))
    s = seed
    call random_seed(put=s)
    select rank (x)
    rank (1)
      call random_number(x)
      x = (x - 0.5d0) * 1.0d6
    rank (2)
      call random_number(x)
      x = (x - 0.5d0) * 1.0d6
    end select
  end subroutine

  logical function same(a, b)
    real(8), intent(in) :: a, b
    same = transfer(a, 0_8) == transfer(b, 0_8)
  end function

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. ok) then
      failures = failures + 1
      print '(a, i0, a)', '[rank ', rank, '] FAIL ' // what
    end if
  end subroutine

  integer(8) function global_count(mine)
    integer, intent(in) :: mine
    integer(8) :: m
    m = mine
    call MPI_Allreduce(m, global_count, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function

  ! The C-level call: a type(c_ptr) per field, results through c_loc.
  subroutine c_level_fields()
    type(c_ptr) :: ptrs(nfields)
    integer :: f
    integer(c_int) :: st
    real(8), allocatable, target :: local(:, :)
    local = fields_global(lo:hi, :)
    if (hi < lo) allocate (local(1, nfields)) ! an empty slice: any valid address
    do f = 1, nfields
      ptrs(f) = c_loc(local(1, f))
    end do
    raw = 0
    st = hipreduce_mpi_reduce_fields(h, world, HIPREDUCE_OP_SUM, HIPREDUCE_F64, int(nfields, c_int64_t), ptrs, &
                                     int(max(0, hi - lo + 1), c_int64_t), HIPREDUCE_F64, c_loc(raw), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. all(transfer(raw, [0_1]) == transfer(wants, [0_1])), 'hipreduce_mpi_reduce_fields (C level)')
    st = hipreduce_mpi_reduce(h, world, HIPREDUCE_OP_SUM, HIPREDUCE_F64, c_loc(local(1, 3)), &
                              int(max(0, hi - lo + 1), c_int64_t), HIPREDUCE_F64, c_loc(raw), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. same(raw(1), wants(3)), 'hipreduce_mpi_reduce (C level) of field 3')
  end subroutine

  ! hipreduce_mpi_reduce_fields_ext: field f weighted by field mod(f, nfields) + 1 (DOT) against the
  ! single-process hipreduce_dot_op of the whole columns; every field's cells but the first and last
  ! of a slice of three or more (ranges, SUM_EXACT) against hipreduce_mpi_reduce of those cells;
  ! the same started, tested and waited on.
  subroutine c_level_fields_ext()
    type(c_ptr) :: ptrs(nfields), request
    type(c_ptr), target :: wptrs(nfields)
    integer(c_int64_t), target :: ranges(2, nfields)
    integer :: f, w, m
    integer(c_int) :: st, done
    real(8), allocatable, target :: local(:, :)
    real(8), target :: one, wanted(nfields), started(nfields)
    m = max(0, hi - lo + 1)
    local = fields_global(lo:hi, :)
    if (hi < lo) allocate (local(1, nfields))
    do f = 1, nfields
      w = mod(f, nfields) + 1
      ptrs(f) = c_loc(local(1, f))
      wptrs(f) = c_loc(local(1, w))
      st = hipreduce_dot_op(h, HIPREDUCE_OP_DOT, HIPREDUCE_F64, c_loc(fields_global(1, f)), c_loc(fields_global(1, w)), &
                            int(n, c_int64_t), HIPREDUCE_F64, c_loc(wanted(f)), HIPREDUCE_RESULT_HOST)
      ranges(:, f) = [0_c_int64_t, int(m, c_int64_t)]
      if (m >= 3) ranges(:, f) = [1_c_int64_t, int(m - 1, c_int64_t)]
    end do
    raw = 0
    st = hipreduce_mpi_reduce_fields_ext(h, world, HIPREDUCE_OP_DOT, HIPREDUCE_F64, int(nfields, c_int64_t), ptrs, &
                                         c_loc(wptrs), c_null_ptr, int(m, c_int64_t), HIPREDUCE_F64, c_loc(raw), &
                                         HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. all(transfer(raw, [0_1]) == transfer(wanted, [0_1])), &
               'hipreduce_mpi_reduce_fields_ext (weights) against the single-process dot')
    do f = 1, nfields
      st = hipreduce_mpi_reduce(h, world, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, c_loc(local(1 + ranges(1, f), f)), &
                                ranges(2, f) - ranges(1, f), HIPREDUCE_F64, c_loc(one), HIPREDUCE_RESULT_HOST)
      wanted(f) = one
    end do
    raw = 0
    st = hipreduce_mpi_reduce_fields_ext(h, world, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, int(nfields, c_int64_t), ptrs, &
                                         c_null_ptr, c_loc(ranges), int(m, c_int64_t), HIPREDUCE_F64, c_loc(raw), &
                                         HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. all(transfer(raw, [0_1]) == transfer(wanted, [0_1])), &
               'hipreduce_mpi_reduce_fields_ext (ranges) against each field''s own call')
#ifdef HIPREDUCE_MPI_F08
    raw = 0
    st = hipreduce_mpi_reduce_fields_ext(h, MPI_COMM_WORLD, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, &
                                         int(nfields, c_int64_t), ptrs, c_null_ptr, c_loc(ranges), int(m, c_int64_t), &
                                         HIPREDUCE_F64, c_loc(raw), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. all(transfer(raw, [0_1]) == transfer(wanted, [0_1])), &
               'hipreduce_mpi_reduce_fields_ext (type(MPI_Comm))')
#endif
    started = 0
    st = hipreduce_mpi_reduce_fields_start(h, world, HIPREDUCE_OP_SUM_EXACT, HIPREDUCE_F64, int(nfields, c_int64_t), &
                                           ptrs, c_null_ptr, c_loc(ranges), int(m, c_int64_t), HIPREDUCE_F64, &
                                           c_loc(started), HIPREDUCE_RESULT_HOST, request)
    call check(st == 0 .and. c_associated(request), 'hipreduce_mpi_reduce_fields_start')
    if (st /= 0) return
    call check(hipreduce_mpi_test(request, done) == 0 .and. (done == 0 .or. done == 1), 'hipreduce_mpi_test')
    st = hipreduce_mpi_wait(request)
    call check(st == 0 .and. all(transfer(started, [0_1]) == transfer(wanted, [0_1])), &
               'hipreduce_mpi_wait: the started call''s results')
  end subroutine

  ! hipreduce_mpi_reduce_stats against a plan of the whole on this process: var_mean (correction 1)
  ! of g (outer = inner = 1), std (correction 0) of the rows of fields_global's transpose as
  ! [outer = nfields][extent] (each rank's slice of every field: a copy), and aminmax of the columns
  ! of the [extent][inner = nfields] view fields_global' (order STRIDED), each output's bits.
  subroutine stats_checks()
    real(8), allocatable, target :: rows(:, :), cols(:, :), tall(:, :)
    real(8), target :: v(nfields), m(nfields), wv(nfields), wm(nfields)
    integer(c_int) :: st
    integer(c_int64_t) :: mine
    mine = max(0, hi - lo + 1)
    call plan_reference(HIPREDUCE_OP_VAR_MEAN, [int(n, c_int64_t)], 0, HIPREDUCE_ORDER_LOGICAL, 1d0, c_loc(g), &
                        c_loc(wv), c_loc(wm))
    st = hipreduce_mpi_reduce_stats(h, world, HIPREDUCE_OP_VAR_MEAN, HIPREDUCE_F64, c_loc(g(lo)), 1_c_int64_t, mine, &
                                    1_c_int64_t, 1d0, HIPREDUCE_F64, c_loc(v), c_loc(m), HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. same(v(1), wv(1)) .and. same(m(1), wm(1)), 'hipreduce_mpi_reduce_stats var_mean')
    ! rows: field f of this rank is rows(:, f), [nfields][mine] row-major
    if (hi < lo) then
      allocate (rows(1, nfields)) ! an empty slice: any valid address
    else
      rows = fields_global(lo:hi, :)
    end if
    tall = fields_global
    call plan_reference(HIPREDUCE_OP_STD, [int(nfields, c_int64_t), int(n, c_int64_t)], 1, HIPREDUCE_ORDER_LOGICAL, &
                        0d0, c_loc(tall), c_loc(wv), c_null_ptr)
    v = -7
    st = hipreduce_mpi_reduce_stats(h, world, HIPREDUCE_OP_STD, HIPREDUCE_F64, c_loc(rows), int(nfields, c_int64_t), &
                                    mine, 1_c_int64_t, 0d0, HIPREDUCE_F64, c_loc(v), c_null_ptr, HIPREDUCE_RESULT_HOST)
    call check(st == 0 .and. all(transfer(v, [0_1]) == transfer(wv, [0_1])), 'hipreduce_mpi_reduce_stats std of rows')
    ! columns: [extent][nfields] row-major is fields_global's transpose in Fortran's order
    if (hi < lo) then
      allocate (cols(nfields, 1))
    else
      cols = transpose(fields_global(lo:hi, :))
    end if
    tall = transpose(fields_global)
    call plan_reference(HIPREDUCE_OP_AMINMAX, [int(n, c_int64_t), int(nfields, c_int64_t)], 0, &
                        HIPREDUCE_ORDER_STRIDED, 0d0, c_loc(tall), c_loc(wv), c_loc(wm))
    v = -7
    m = -7
#ifdef HIPREDUCE_MPI_F08
    st = hipreduce_mpi_reduce_stats(h, MPI_COMM_WORLD, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F64, c_loc(cols), 1_c_int64_t, &
                                    mine, int(nfields, c_int64_t), 0d0, HIPREDUCE_F64, c_loc(v), c_loc(m), &
                                    HIPREDUCE_RESULT_HOST)
#else
    st = hipreduce_mpi_reduce_stats(h, world, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F64, c_loc(cols), 1_c_int64_t, mine, &
                                    int(nfields, c_int64_t), 0d0, HIPREDUCE_F64, c_loc(v), c_loc(m), HIPREDUCE_RESULT_HOST)
#endif
    call check(st == 0 .and. all(transfer(v, [0_1]) == transfer(wv, [0_1])) .and. &
               all(transfer(m, [0_1]) == transfer(wm, [0_1])), 'hipreduce_mpi_reduce_stats aminmax of columns')
    call check(all(v == minval(fields_global, dim=1)) .and. all(m == maxval(fields_global, dim=1)), &
               'aminmax of columns: minval and maxval')
    ! aminmax without its second results: INVALID_POINTER on the last rank, MPI_MISMATCH elsewhere
    v = -7
    if (rank == ranks - 1) then
      st = hipreduce_mpi_reduce_stats(h, world, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F64, c_loc(cols), 1_c_int64_t, mine, &
                                      int(nfields, c_int64_t), 0d0, HIPREDUCE_F64, c_loc(v), c_null_ptr, &
                                      HIPREDUCE_RESULT_HOST)
      call check(st == HIPREDUCE_STATUS_INVALID_POINTER .and. all(v == -7) .and. &
                 len(hipreduce_mpi_last_error_message()) > 0, 'aminmax without results2: INVALID_POINTER')
    else
      st = hipreduce_mpi_reduce_stats(h, world, HIPREDUCE_OP_AMINMAX, HIPREDUCE_F64, c_loc(cols), 1_c_int64_t, mine, &
                                      int(nfields, c_int64_t), 0d0, HIPREDUCE_F64, c_loc(v), c_loc(m), &
                                      HIPREDUCE_RESULT_HOST)
      call check(st == HIPREDUCE_STATUS_MPI_MISMATCH .and. all(v == -7), 'another rank without results2: MPI_MISMATCH')
    end if
  end subroutine

  ! A plan of op over C axis `axis` of the contiguous row-major tensor of `extents` at x, in `order`,
  ! with `correction`, into values (and values2).
  subroutine plan_reference(op, extents, axis, order, correction, x, values, values2)
    integer(c_int), intent(in) :: op, axis, order
    integer(c_int64_t), intent(in) :: extents(:)
    real(8), intent(in) :: correction
    type(c_ptr), intent(in) :: x, values, values2
    type(hipreduce_reduction_desc) :: d
    type(hipreduce_operands) :: o
    type(c_ptr) :: plan
    call check(hipreduce_desc_init(d, op, HIPREDUCE_F64, HIPREDUCE_F64, size(extents, kind=c_int), extents) == 0, &
               'hipreduce_desc_init')
    d%num_axes = 1
    d%axes(1) = axis
    d%order = order
    d%correction = correction
    call check(hipreduce_plan_create(h, d, plan) == 0, 'plan_create: ' // hipreduce_last_error_message(h))
    o%x = x
    o%values = values
    o%values2 = values2
    call check(hipreduce_plan_run(h, plan, o, HIPREDUCE_RESULT_HOST) == 0, 'plan_run: ' // hipreduce_last_error_message(h))
    call hipreduce_plan_destroy(plan)
  end subroutine

  ! The last rank passes what it cannot: its status, MPI_MISMATCH elsewhere, nothing written.
  subroutine misuse_checks()
    real(8) :: r, rs(nfields)
    logical :: l(3)
    character(len=300) :: msg
    integer(c_int) :: st, expect
    logical :: me
    me = rank == ranks - 1
    l = .true.
    r = -7
    rs = -7
    msg = ''
    if (me) then
      call hipreduce_mpi_sum(h, world, g(1:n:2), r, status=st, errmsg=msg) ! not contiguous
    else
      call hipreduce_mpi_sum(h, world, g(1:0), r, status=st, errmsg=msg)
    end if
    expect = merge(HIPREDUCE_STATUS_NOT_SUPPORTED, HIPREDUCE_STATUS_MPI_MISMATCH, me)
    call check(st == expect .and. r == -7 .and. len_trim(msg) > 0, 'a non-contiguous slice: ' // trim(msg))
    msg = ''
    if (me) then
      call hipreduce_mpi_sum(h, world, l, r, status=st, errmsg=msg)
    else
      call hipreduce_mpi_sum(h, world, g(1:0), r, status=st, errmsg=msg)
    end if
    expect = merge(HIPREDUCE_STATUS_INVALID_DTYPE, HIPREDUCE_STATUS_MPI_MISMATCH, me)
    call check(st == expect .and. r == -7 .and. len_trim(msg) > 0, 'a logical array: ' // trim(msg))
    msg = ''
    if (me) then
      call hipreduce_mpi_sum_fields(h, world, block(1:2, 1:nfields:2), rs, status=st, errmsg=msg) ! 4 fields, 7 results
    else
      call hipreduce_mpi_sum_fields(h, world, block(1:0, :), rs, status=st, errmsg=msg)
    end if
    expect = merge(HIPREDUCE_STATUS_INVALID_AXES, HIPREDUCE_STATUS_MPI_MISMATCH, me)
    call check(st == expect .and. all(rs == -7) .and. len_trim(msg) > 0, 'fields of the wrong count: ' // trim(msg))
    msg = ''
    if (me) then
      call hipreduce_mpi_sum_fields(h, world, block(1:3:2, :), rs, status=st, errmsg=msg) ! columns not contiguous
    else
      call hipreduce_mpi_sum_fields(h, world, block(1:0, :), rs, status=st, errmsg=msg)
    end if
    expect = merge(HIPREDUCE_STATUS_NOT_SUPPORTED, HIPREDUCE_STATUS_MPI_MISMATCH, me)
    call check(st == expect .and. all(rs == -7) .and. len_trim(msg) > 0, 'fields in strided columns: ' // trim(msg))
  end subroutine
end program test_fortran_mpi
