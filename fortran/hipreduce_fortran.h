/* The C side of the Fortran modules (hipreduce_fortran.c, hipreduce_mpi_fortran.c): what the
 * modules' bind(c) interfaces call, and the pieces both files share. Not a public C API: its
 * names (hipreduce_f_) belong to libhipreduce_fortran and may change with the modules. Every
 * function that can fail writes a sentence into msg (len bytes, NUL-terminated) and returns the
 * status. */
#ifndef HIPREDUCE_FORTRAN_H
#define HIPREDUCE_FORTRAN_H

#include <ISO_Fortran_binding.h>
#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

/* s, with the printf-style sentence in msg. */
hipreduce_status hipreduce_f_fail(char* msg, size_t len, hipreduce_status s, const char* format, ...);

/* Extent d of an array; 0 for a negative one, which gfortran 12 gives a zero-size section whose
 * bounds are variables (lo > hi + 1). */
CFI_index_t hipreduce_f_extent(const CFI_cdesc_t* a, int d);

/* The dtype of a descriptor's Fortran type, -1 for a type without one. */
int hipreduce_f_dtype_of(const CFI_cdesc_t* a);
/* The same, INVALID_DTYPE with a sentence naming `what` for a type without one. */
hipreduce_status hipreduce_f_typed(const CFI_cdesc_t* a, const char* what, int* dtype, char* msg, size_t len);

/* An array's extents and strides in elements, Fortran's dimension order (NOT_SUPPORTED for a
 * stride that is not a whole number of elements). */
hipreduce_status hipreduce_f_describe(const CFI_cdesc_t* a, int64_t* extents, int64_t* strides, char* msg, size_t len);

/* Whether an array's elements are contiguous (a scalar and a zero-size array are). */
int hipreduce_f_contiguous(const CFI_cdesc_t* a);
/* count results from a packed buffer into r, in array element order. */
void hipreduce_f_scatter(const unsigned char* packed, CFI_cdesc_t* r, uint64_t count);

/* A descriptor of a column-major array: rank, extents and strides (in elements; NULL: contiguous)
 * in Fortran's dimension order, reduced over the 1-based Fortran dims[0 .. ndims) (ndims < 0:
 * every dimension). The plan's axes are Fortran's reversed (hipreduce_fortran.c). */
hipreduce_status hipreduce_f_desc_column_major(hipreduce_reduction_desc* desc, hipreduce_op op, hipreduce_dtype in_dtype,
                                               hipreduce_dtype out_dtype, int rank, const int64_t* extents,
                                               const int64_t* strides, int ndims, const int* dims, char* msg,
                                               size_t len);

/* The array calls: x (and y, dot's) reduced by op over dims (ndims < 0: all; -2: dim and dims
 * both given) into values (and indices, argmin/argmax: 1-based positions, 0 for none), whose
 * shape must be x's without the reduced dims. */
hipreduce_status hipreduce_f_reduce(hipreduce_handle h, int op, const CFI_cdesc_t* x, const CFI_cdesc_t* y,
                                    CFI_cdesc_t* values, CFI_cdesc_t* indices, int ndims, const int* dims, char* msg,
                                    size_t len);

/* desc for the plan of op over x's dims (x's type, extents and strides) into out_dtype. */
hipreduce_status hipreduce_f_desc_of(hipreduce_reduction_desc* desc, int op, const CFI_cdesc_t* x, int out_dtype,
                                     int ndims, const int* dims, char* msg, size_t len);

#endif
