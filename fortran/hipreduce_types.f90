! The constants and C structs of hipreduce.h for Fortran (module hipreduce re-exports them): every
! enumerator with its C value, and the plan API's descriptor and operands as bind(c) types with
! the C structs' layout (test/fortran checks the sizes and every field's offset against C's).
! C's uint64_t fields are integer(c_int64_t) here (Fortran has no unsigned integers; values below
! 2^63 are the same bits), C's enums integer(c_int).
module hipreduce_types
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_double, c_ptr, c_null_ptr
  implicit none
  private :: c_int, c_int64_t, c_double, c_ptr, c_null_ptr ! a program takes them from iso_c_binding itself

  ! Status codes (hipreduce_status).
  integer(c_int), parameter :: HIPREDUCE_STATUS_SUCCESS = 0
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_HANDLE = 1
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_POINTER = 2
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_OP = 3
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_DTYPE = 4
  integer(c_int), parameter :: HIPREDUCE_STATUS_OP_DTYPE_MISMATCH = 5
  integer(c_int), parameter :: HIPREDUCE_STATUS_SIZE_OVERFLOW = 6
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_LOCATION = 7
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_ALGORITHM = 8
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_DEVICE = 9
  integer(c_int), parameter :: HIPREDUCE_STATUS_ALLOCATION_FAILED = 10
  integer(c_int), parameter :: HIPREDUCE_STATUS_RUNTIME_ERROR = 11
  integer(c_int), parameter :: HIPREDUCE_STATUS_WORKSPACE_TOO_SMALL = 12
  integer(c_int), parameter :: HIPREDUCE_STATUS_NOT_SUPPORTED = 13
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_BLOCK_SIZE = 14
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_OFFSETS = 15
  integer(c_int), parameter :: HIPREDUCE_STATUS_HANDLE_BUSY = 16
  integer(c_int), parameter :: HIPREDUCE_STATUS_MPI_MISMATCH = 17
  integer(c_int), parameter :: HIPREDUCE_STATUS_MPI_ERROR = 18
  integer(c_int), parameter :: HIPREDUCE_STATUS_INVALID_AXES = 19

  ! Operators (hipreduce_op).
  integer(c_int), parameter :: HIPREDUCE_OP_SUM = 0
  integer(c_int), parameter :: HIPREDUCE_OP_PROD = 1
  integer(c_int), parameter :: HIPREDUCE_OP_MIN = 2
  integer(c_int), parameter :: HIPREDUCE_OP_MAX = 3
  integer(c_int), parameter :: HIPREDUCE_OP_AND = 4
  integer(c_int), parameter :: HIPREDUCE_OP_OR = 5
  integer(c_int), parameter :: HIPREDUCE_OP_XOR = 6
  integer(c_int), parameter :: HIPREDUCE_OP_SUM_ABS = 7
  integer(c_int), parameter :: HIPREDUCE_OP_SUM_SQUARES = 8
  integer(c_int), parameter :: HIPREDUCE_OP_MAX_ABS = 9
  integer(c_int), parameter :: HIPREDUCE_OP_NRM2 = 10
  integer(c_int), parameter :: HIPREDUCE_OP_ARGMIN = 11
  integer(c_int), parameter :: HIPREDUCE_OP_ARGMAX = 12
  integer(c_int), parameter :: HIPREDUCE_OP_DOT = 13
  integer(c_int), parameter :: HIPREDUCE_OP_SUM_EXACT = 14
  integer(c_int), parameter :: HIPREDUCE_OP_DOT_EXACT = 15
  integer(c_int), parameter :: HIPREDUCE_OP_MEAN = 16
  integer(c_int), parameter :: HIPREDUCE_OP_NANSUM = 17
  integer(c_int), parameter :: HIPREDUCE_OP_NANMEAN = 18
  integer(c_int), parameter :: HIPREDUCE_OP_COUNT_NONZERO = 19
  integer(c_int), parameter :: HIPREDUCE_OP_ALL = 20
  integer(c_int), parameter :: HIPREDUCE_OP_ANY = 21
  integer(c_int), parameter :: HIPREDUCE_OP_VAR = 22      ! plans only (desc%correction)
  integer(c_int), parameter :: HIPREDUCE_OP_STD = 23      ! plans only
  integer(c_int), parameter :: HIPREDUCE_OP_VAR_MEAN = 24 ! plans only (the means at operands%values2)
  integer(c_int), parameter :: HIPREDUCE_OP_STD_MEAN = 25 ! plans only
  integer(c_int), parameter :: HIPREDUCE_OP_LOGSUMEXP = 26
  integer(c_int), parameter :: HIPREDUCE_OP_NANMIN = 27
  integer(c_int), parameter :: HIPREDUCE_OP_NANMAX = 28
  integer(c_int), parameter :: HIPREDUCE_OP_AMINMAX = 29  ! plans only (the maxima at operands%values2)
  integer(c_int), parameter :: HIPREDUCE_OP_DOTC = 30     ! sum of conjg(x)*y (complex)
  integer(c_int), parameter :: HIPREDUCE_OP_NANARGMIN = 31 ! argmin with NaNs skipped (floats; hipreduce_argreduce)
  integer(c_int), parameter :: HIPREDUCE_OP_NANARGMAX = 32 ! argmax with NaNs skipped (floats; hipreduce_argreduce)

  ! Element types (hipreduce_dtype). A Fortran program has I8, I16, I32, I64 (integer(1/2/4/8)),
  ! F32 and F64 (real(4/8)), C64 and C128 (complex(4/8)); the others are raw bits in integer
  ! variables of their width.
  integer(c_int), parameter :: HIPREDUCE_I8 = 0
  integer(c_int), parameter :: HIPREDUCE_U8 = 1
  integer(c_int), parameter :: HIPREDUCE_I16 = 2
  integer(c_int), parameter :: HIPREDUCE_U16 = 3
  integer(c_int), parameter :: HIPREDUCE_I32 = 4
  integer(c_int), parameter :: HIPREDUCE_U32 = 5
  integer(c_int), parameter :: HIPREDUCE_I64 = 6
  integer(c_int), parameter :: HIPREDUCE_U64 = 7
  integer(c_int), parameter :: HIPREDUCE_F16 = 8
  integer(c_int), parameter :: HIPREDUCE_BF16 = 9
  integer(c_int), parameter :: HIPREDUCE_F32 = 10
  integer(c_int), parameter :: HIPREDUCE_F64 = 11
  integer(c_int), parameter :: HIPREDUCE_C64 = 12
  integer(c_int), parameter :: HIPREDUCE_C128 = 13

  ! Devices, result locations, the algorithm (hipreduce_study.h's study algorithms are not bound).
  integer(c_int), parameter :: HIPREDUCE_DEVICE_CPU = 0
  integer(c_int), parameter :: HIPREDUCE_DEVICE_GPU = 1
  integer(c_int), parameter :: HIPREDUCE_RESULT_HOST = 0
  integer(c_int), parameter :: HIPREDUCE_RESULT_DEVICE = 1
  integer(c_int), parameter :: HIPREDUCE_ALGORITHM_AUTO = 0

  ! Plans: layouts, orders, the largest rank.
  integer(c_int), parameter :: HIPREDUCE_LAYOUT_TENSOR = 0
  integer(c_int), parameter :: HIPREDUCE_LAYOUT_SEGMENTS = 1
  integer(c_int), parameter :: HIPREDUCE_LAYOUT_BY_KEY = 2
  integer(c_int), parameter :: HIPREDUCE_ORDER_LOGICAL = 0
  integer(c_int), parameter :: HIPREDUCE_ORDER_STRIDED = 1
  integer(c_int), parameter :: HIPREDUCE_MAX_RANK = 8

  ! hipreduce_reduction_desc. The arrays are in C's (row-major) axis order: axis 0 is the slowest.
  ! hipreduce_desc_column_major and hipreduce_desc_of (module hipreduce) fill it from Fortran's
  ! column-major extents, strides and dims; axes(:) holds 0-based C axes.
  type, bind(c) :: hipreduce_reduction_desc
    integer(c_int) :: op = HIPREDUCE_OP_SUM
    integer(c_int) :: in_dtype = HIPREDUCE_F32
    integer(c_int) :: out_dtype = HIPREDUCE_F32
    integer(c_int) :: layout = HIPREDUCE_LAYOUT_TENSOR
    integer(c_int) :: order = HIPREDUCE_ORDER_LOGICAL
    integer(c_int) :: rank = 0
    integer(c_int64_t) :: extents(HIPREDUCE_MAX_RANK) = 0
    integer(c_int64_t) :: x_strides(HIPREDUCE_MAX_RANK) = 0
    integer(c_int64_t) :: y_strides(HIPREDUCE_MAX_RANK) = 0
    integer(c_int) :: num_axes = 0
    integer(c_int) :: axes(HIPREDUCE_MAX_RANK) = 0
    integer(c_int64_t) :: num_segments = 0
    integer(c_int64_t) :: length = 0
    integer(c_int64_t) :: num_bins = 0
    integer(c_int64_t) :: row = 0
    integer(c_int) :: key_dtype = HIPREDUCE_I32
    real(c_double) :: correction = 0 ! VAR, STD, VAR_MEAN, STD_MEAN: the divisor is max(n - correction, 0)
    integer(c_int64_t) :: reserved(5) = 0
  end type hipreduce_reduction_desc

  ! hipreduce_operands: the data of one plan run (c_loc of host arrays, or device pointers).
  type, bind(c) :: hipreduce_operands
    type(c_ptr) :: x = c_null_ptr
    type(c_ptr) :: y = c_null_ptr
    type(c_ptr) :: offsets = c_null_ptr
    type(c_ptr) :: values = c_null_ptr
    type(c_ptr) :: indices = c_null_ptr
    type(c_ptr) :: keys = c_null_ptr
    type(c_ptr) :: counts = c_null_ptr
    type(c_ptr) :: values2 = c_null_ptr ! VAR_MEAN, STD_MEAN: the means; AMINMAX: the maxima
    type(c_ptr) :: reserved(1) = c_null_ptr
  end type hipreduce_operands
end module hipreduce_types
