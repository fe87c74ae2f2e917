! Reductions of Fortran arrays (module hipreduce re-exports them): any rank (0 .. 15), any of the
! kinds a Fortran program reduces (integer(1), integer(2), integer(4), integer(8), real(4), real(8),
! complex(4), complex(8): sum, product, dot_product, norm2 and sum_exact; hipreduce.h's "Complex"),
! contiguous or not, through assumed-type, assumed-rank dummies (type(*), dimension(..)) that hand
! the C side (hipreduce_fortran.c) each array's descriptor: its type, extents and strides. The
! dtypes are the arrays' own: x's kind is in_dtype, the result's kind out_dtype (an integer(1)
! array summed into an integer(8) result: no overflow), and the library checks the triple.
!
!   call hipreduce_sum(h, x, s)                ! s = sum(x), any rank
!   call hipreduce_sum(h, x, col, dim=1)       ! col(j) = sum(x(:, j)) for x(n, m), col(m)
!   call hipreduce_maxval(h, x(1:n:2, :), r, dim=2)   ! a strided section, no copy
!
! dim (one dimension) or dims (several) name the reduced dimensions, 1-based as Fortran's; the
! result has x's shape without them (a scalar when all are reduced), as sum(x, dim=) gives. The
! bits are those of the C call on each result's elements taken in array element order (column-
! major), whatever the strides: an array, a section of it and its contiguous copy give the same
! bits. Plans number axes row-major, so Fortran dimension d of a rank-r array is the plan's axis
! r - d (hipreduce_desc_column_major). A contiguous array reduced over all its dims is one
! hipreduce_reduce (dot, argreduce) call; anything else one plan, created and destroyed inside.
!
! x lives where the handle reads (host memory on a cpu-device handle, device memory on a GPU
! handle: a device array passed by descriptor works); results are host variables. minloc/maxloc
! give 1-based positions in array element order of the reduced elements (along dim, for dim=),
! 0 for an empty array, the first extreme winning, NaN first (hipreduce.h's argmin/argmax rules).
!
! Statuses: with status= present, every failure returns its status (errmsg=, if present, gets the
! sentence) and writes nothing; without status=, a failure stops the program with the sentence
! (error stop), as Fortran's own allocate and read do without stat= and iostat=.
module hipreduce_arrays
  use, intrinsic :: iso_c_binding
  use hipreduce_types
  implicit none
  private
  public :: hipreduce_reduce_array, hipreduce_dot_array, hipreduce_argreduce_array, hipreduce_sum, hipreduce_prod, &
            hipreduce_minval, hipreduce_maxval, hipreduce_norm2, hipreduce_sum_exact, hipreduce_dot_product, &
            hipreduce_minloc, hipreduce_maxloc, hipreduce_desc_of, hipreduce_desc_column_major, hipreduce_f_finish, &
            hipreduce_f_message_len

  integer, parameter :: hipreduce_f_message_len = 512

  interface
    integer(c_int) function f_reduce(h, op, x, y, values, indices, ndims, dims, msg, len) &
        bind(c, name='hipreduce_f_reduce')
      import :: c_int, c_ptr, c_char, c_size_t
      type(c_ptr), value :: h
      integer(c_int), value :: op, ndims
      type(*), dimension(..), intent(in) :: x
      type(*), dimension(..), intent(in), optional :: y
      type(*), dimension(..), intent(inout) :: values
      type(*), dimension(..), intent(inout), optional :: indices
      integer(c_int), intent(in) :: dims(*)
      character(kind=c_char), intent(inout) :: msg(*)
      integer(c_size_t), value :: len
    end function
    integer(c_int) function f_desc_of(desc, op, x, out_dtype, ndims, dims, msg, len) bind(c, name='hipreduce_f_desc_of')
      import :: c_int, c_char, c_size_t, hipreduce_reduction_desc
      type(hipreduce_reduction_desc), intent(inout) :: desc
      integer(c_int), value :: op, out_dtype, ndims
      type(*), dimension(..), intent(in) :: x
      integer(c_int), intent(in) :: dims(*)
      character(kind=c_char), intent(inout) :: msg(*)
      integer(c_size_t), value :: len
    end function
    integer(c_int) function f_desc_column_major(desc, op, in_dtype, out_dtype, rank, extents, strides, ndims, dims, &
                                                msg, len) bind(c, name='hipreduce_f_desc_column_major')
      import :: c_int, c_int64_t, c_char, c_size_t, hipreduce_reduction_desc
      type(hipreduce_reduction_desc), intent(inout) :: desc
      integer(c_int), value :: op, in_dtype, out_dtype, rank, ndims
      integer(c_int64_t), intent(in) :: extents(*)
      integer(c_int64_t), intent(in), optional :: strides(*)
      integer(c_int), intent(in) :: dims(*)
      character(kind=c_char), intent(inout) :: msg(*)
      integer(c_size_t), value :: len
    end function
  end interface

contains

  ! The status of a call: status= and errmsg= where present; without status=, a failure stops.
  subroutine hipreduce_f_finish(st, msg, what, status, errmsg)
    integer(c_int), intent(in) :: st
    character(kind=c_char), intent(in) :: msg(:)
    character(len=*), intent(in) :: what
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(len=size(msg)) :: text
    integer :: i, n
    if (present(status)) status = st
    if (st == HIPREDUCE_STATUS_SUCCESS) return
    n = 0
    do i = 1, size(msg)
      if (msg(i) == c_null_char) exit
      n = i
      text(i:i) = msg(i)
    end do
    if (present(errmsg)) errmsg = text(1:n)
    if (.not. present(status)) error stop 'hipreduce: ' // what // ': ' // text(1:n)
  end subroutine

  ! text as a NUL-terminated message.
  subroutine set_message(msg, text)
    character(kind=c_char), intent(inout) :: msg(:)
    character(len=*), intent(in) :: text
    integer :: i
    do i = 1, min(len(text), size(msg) - 1)
      msg(i) = text(i:i)
    end do
    msg(min(len(text), size(msg) - 1) + 1) = c_null_char
  end subroutine

  ! The reduced dimensions as the C side takes them: ndims -1 for all, -2 for dim and dims both.
  subroutine select_dims(dim, dims, d, nd)
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), allocatable, intent(out) :: d(:)
    integer(c_int), intent(out) :: nd
    if (present(dim) .and. present(dims)) then
      allocate (d(1))
      nd = -2
    else if (present(dim)) then
      d = [int(dim, c_int)]
      nd = 1
    else if (present(dims)) then
      allocate (d(max(1, size(dims))))
      d(1:size(dims)) = int(dims, c_int)
      nd = size(dims)
    else
      allocate (d(1))
      nd = -1
    end if
  end subroutine

  subroutine hipreduce_reduce_array(h, op, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer(c_int), intent(in) :: op
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int), allocatable :: d(:)
    integer(c_int) :: nd, st
    call select_dims(dim, dims, d, nd)
    msg(1) = c_null_char
    st = f_reduce(h, op, x, values=r, ndims=nd, dims=d, msg=msg, len=size(msg, kind=c_size_t))
    call hipreduce_f_finish(st, msg, 'reduce', status, errmsg)
  end subroutine

  subroutine hipreduce_dot_array(h, op, x, y, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer(c_int), intent(in) :: op
    type(*), dimension(..), intent(in) :: x, y
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int), allocatable :: d(:)
    integer(c_int) :: nd, st
    call select_dims(dim, dims, d, nd)
    msg(1) = c_null_char
    st = f_reduce(h, op, x, y, r, ndims=nd, dims=d, msg=msg, len=size(msg, kind=c_size_t))
    call hipreduce_f_finish(st, msg, 'dot', status, errmsg)
  end subroutine

  subroutine hipreduce_argreduce_array(h, op, x, value, index, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    integer(c_int), intent(in) :: op
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: value
    integer(c_int64_t), dimension(..), intent(inout) :: index
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int), allocatable :: d(:)
    integer(c_int) :: nd, st
    call select_dims(dim, dims, d, nd)
    msg(1) = c_null_char
    st = f_reduce(h, op, x, values=value, indices=index, ndims=nd, dims=d, msg=msg, len=size(msg, kind=c_size_t))
    call hipreduce_f_finish(st, msg, 'argreduce', status, errmsg)
  end subroutine

  subroutine hipreduce_sum(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_SUM, x, r, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_prod(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_PROD, x, r, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_minval(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_MIN, x, r, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_maxval(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_MAX, x, r, dim, dims, status, errmsg)
  end subroutine

  ! sqrt(sum(x**2)) without overflow or underflow in between (hipreduce's nrm2).
  subroutine hipreduce_norm2(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_NRM2, x, r, dim, dims, status, errmsg)
  end subroutine

  ! The exact sum rounded once: the same bits for any order, split or rank count.
  subroutine hipreduce_sum_exact(h, x, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_reduce_array(h, HIPREDUCE_OP_SUM_EXACT, x, r, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_dot_product(h, x, y, r, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x, y
    type(*), dimension(..), intent(inout) :: r
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    ! As Fortran's dot_product: a complex x is conjugated (sum of conjg(x)*y), a real one is not.
    call hipreduce_dot_array(h, HIPREDUCE_OP_DOTC, x, y, r, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_minloc(h, x, value, index, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: value
    integer(c_int64_t), dimension(..), intent(inout) :: index
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_argreduce_array(h, HIPREDUCE_OP_ARGMIN, x, value, index, dim, dims, status, errmsg)
  end subroutine

  subroutine hipreduce_maxloc(h, x, value, index, dim, dims, status, errmsg)
    type(c_ptr), intent(in) :: h
    type(*), dimension(..), intent(in) :: x
    type(*), dimension(..), intent(inout) :: value
    integer(c_int64_t), dimension(..), intent(inout) :: index
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    call hipreduce_argreduce_array(h, HIPREDUCE_OP_ARGMAX, x, value, index, dim, dims, status, errmsg)
  end subroutine

  ! desc for a plan of op over the Fortran array x (its kind, extents and strides) reduced over
  ! dim or dims (all when neither) into out_dtype; the plan then runs with operands%x = c_loc of
  ! x's first element (x(1, 1, ..) of the section), its results in the layout of the Fortran result.
  subroutine hipreduce_desc_of(desc, op, x, out_dtype, dim, dims, status, errmsg)
    type(hipreduce_reduction_desc), intent(inout) :: desc
    integer(c_int), intent(in) :: op, out_dtype
    type(*), dimension(..), intent(in) :: x
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int), allocatable :: d(:)
    integer(c_int) :: nd, st
    call select_dims(dim, dims, d, nd)
    msg(1) = c_null_char
    if (nd == -2) then
      st = HIPREDUCE_STATUS_INVALID_AXES
      call set_message(msg, 'dim and dims are both present: give one')
    else
      st = f_desc_of(desc, op, x, out_dtype, nd, d, msg, size(msg, kind=c_size_t))
    end if
    call hipreduce_f_finish(st, msg, 'desc_of', status, errmsg)
  end subroutine

  ! desc for a column-major array given by numbers (device memory, a type(c_ptr)): extents and
  ! strides (in elements; default contiguous) in Fortran's dimension order, reduced over dim or
  ! dims (all when neither). y_strides are x's (set desc%y_strides after, reversed, for a dot).
  subroutine hipreduce_desc_column_major(desc, op, in_dtype, out_dtype, extents, strides, dim, dims, status, errmsg)
    type(hipreduce_reduction_desc), intent(inout) :: desc
    integer(c_int), intent(in) :: op, in_dtype, out_dtype
    integer(c_int64_t), intent(in) :: extents(:)
    integer(c_int64_t), intent(in), optional :: strides(:)
    integer, intent(in), optional :: dim, dims(:)
    integer(c_int), intent(out), optional :: status
    character(len=*), intent(inout), optional :: errmsg
    character(kind=c_char) :: msg(hipreduce_f_message_len)
    integer(c_int), allocatable :: d(:)
    integer(c_int) :: nd, st
    call select_dims(dim, dims, d, nd)
    msg(1) = c_null_char
    st = HIPREDUCE_STATUS_INVALID_AXES
    if (nd == -2) then
      call set_message(msg, 'dim and dims are both present: give one')
    else if (present(strides)) then
      if (size(strides) /= size(extents)) then
        call set_message(msg, 'strides and extents differ in length')
      else
        st = f_desc_column_major(desc, op, in_dtype, out_dtype, size(extents), extents, strides, nd, d, msg, &
                                 size(msg, kind=c_size_t))
      end if
    else
      st = f_desc_column_major(desc, op, in_dtype, out_dtype, size(extents), extents, ndims=nd, dims=d, msg=msg, &
                               len=size(msg, kind=c_size_t))
    end if
    call hipreduce_f_finish(st, msg, 'desc_column_major', status, errmsg)
  end subroutine
end module hipreduce_arrays
