/* The Fortran module's C side (fortran/hipreduce_arrays.f90): Fortran arrays arrive as C descriptors
 * (ISO_Fortran_binding.h: assumed-type, assumed-rank dummies), which give the element type, the
 * extents and the byte strides of any array or section, contiguous or not. Column-major arrays are
 * described to a plan with their axes reversed: Fortran dimension d of a rank-r array is the
 * plan's axis r - d, so the plan's row-major order of the reduced axes is Fortran's array element
 * order, and the results' row-major order of the kept axes is the Fortran result array's. The
 * bits are then those of hipreduce_reduce over each result's elements packed in array element
 * order, whatever the strides. Nothing here reads or writes an element of the input: device
 * memory behind a descriptor (a GPU handle) works as host memory does. */
#include <ISO_Fortran_binding.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipreduce_fortran.h"

hipreduce_status hipreduce_f_fail(char* msg, size_t len, hipreduce_status s, const char* format, ...)
{
    va_list args;
    va_start(args, format);
    if (msg != NULL && len > 0) vsnprintf(msg, len, format, args);
    va_end(args);
    return s;
}

/* The library's message for a failing status (the handle's sentence, else the status's). */
static hipreduce_status library(char* msg, size_t len, hipreduce_handle h, hipreduce_status s)
{
    if (s == HIPREDUCE_STATUS_SUCCESS) return s;
    const char* m = hipreduce_last_error_message(h);
    return hipreduce_f_fail(msg, len, s, "%s", m != NULL && m[0] != '\0' ? m : hipreduce_status_string(s));
}

CFI_index_t hipreduce_f_extent(const CFI_cdesc_t* a, int d) { return a->dim[d].extent > 0 ? a->dim[d].extent : 0; }

int hipreduce_f_dtype_of(const CFI_cdesc_t* a)
{
    switch (a->type) {
    case CFI_type_int8_t: return HIPREDUCE_I8;
    case CFI_type_int16_t: return HIPREDUCE_I16;
    case CFI_type_int32_t: return HIPREDUCE_I32;
    case CFI_type_int64_t: return HIPREDUCE_I64;
    case CFI_type_float: return HIPREDUCE_F32;
    case CFI_type_double: return HIPREDUCE_F64;
    case CFI_type_float_Complex: return HIPREDUCE_C64;
    case CFI_type_double_Complex: return HIPREDUCE_C128;
    default: return -1;
    }
}

hipreduce_status hipreduce_f_typed(const CFI_cdesc_t* a, const char* what, int* dtype, char* msg, size_t len)
{
    *dtype = hipreduce_f_dtype_of(a);
    if (*dtype < 0)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_DTYPE,
                    "%s: a Fortran type without a hipreduce dtype (integer(1), integer(2), integer(4), integer(8), "
                    "real(4), real(8), complex(4) and complex(8) have one)",
                    what);
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_f_desc_column_major(hipreduce_reduction_desc* desc, hipreduce_op op, hipreduce_dtype in_dtype,
                                             hipreduce_dtype out_dtype, int rank, const int64_t* extents,
                                             const int64_t* strides, int ndims, const int* dims, char* msg, size_t len)
{
    if (desc == NULL || (rank > 0 && extents == NULL) || (ndims > 0 && dims == NULL))
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_POINTER, "desc, extents or dims is not present");
    if (rank < 0 || rank > HIPREDUCE_MAX_RANK)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "rank %d is outside 0 .. %d", rank, HIPREDUCE_MAX_RANK);
    uint64_t reversed[HIPREDUCE_MAX_RANK];
    for (int d = 0; d < rank; ++d) {
        if (extents[d] < 0)
            return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "extent %lld of dimension %d is negative",
                        (long long)extents[d], d + 1);
        reversed[rank - 1 - d] = (uint64_t)extents[d];
    }
    hipreduce_status s = hipreduce_desc_init(desc, op, in_dtype, out_dtype, rank, reversed);
    if (s != HIPREDUCE_STATUS_SUCCESS) return hipreduce_f_fail(msg, len, s, "%s", hipreduce_status_string(s));
    for (int d = 0; d < rank && strides != NULL; ++d) desc->x_strides[rank - 1 - d] = desc->y_strides[rank - 1 - d] = strides[d];
    if (ndims < 0) return HIPREDUCE_STATUS_SUCCESS; /* every dimension (hipreduce_desc_init's axes) */
    if (ndims > rank)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "%d dims for an array of rank %d", ndims, rank);
    unsigned seen = 0;
    for (int i = 0; i < ndims; ++i) {
        if (dims[i] < 1 || dims[i] > rank)
            return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "dim %d is outside 1 .. %d (the array's rank)", dims[i], rank);
        if (seen >> dims[i] & 1u) return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "dim %d is given twice", dims[i]);
        seen |= 1u << dims[i];
        desc->axes[i] = rank - dims[i];
    }
    desc->num_axes = ndims;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_f_describe(const CFI_cdesc_t* a, int64_t* extents, int64_t* strides, char* msg, size_t len)
{
    for (int d = 0; d < a->rank; ++d) {
        extents[d] = (int64_t)hipreduce_f_extent(a, d);
        if (a->dim[d].sm % (CFI_index_t)a->elem_len != 0)
            return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_NOT_SUPPORTED,
                        "dimension %d's stride of %lld bytes is not a whole number of %zu-byte elements (a component "
                        "of a derived-type array): pass a copy",
                        d + 1, (long long)a->dim[d].sm, a->elem_len);
        strides[d] = (int64_t)(a->dim[d].sm / (CFI_index_t)a->elem_len);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Whether r's shape is the shape of a's dimensions that dims does not name, in order. */
static int kept_shape(const CFI_cdesc_t* a, int ndims, const int* dims, const CFI_cdesc_t* r)
{
    int k = 0;
    for (int d = 1; d <= a->rank; ++d) {
        int reduced = ndims < 0;
        for (int i = 0; i < ndims; ++i) reduced |= dims[i] == d;
        if (reduced) continue;
        if (k >= r->rank || hipreduce_f_extent(r, k) != hipreduce_f_extent(a, d - 1)) return 0;
        ++k;
    }
    return k == r->rank;
}

int hipreduce_f_contiguous(const CFI_cdesc_t* a)
{
    for (int d = 0; d < a->rank; ++d)
        if (a->dim[d].extent <= 0) return 1; /* no element */
    return a->rank == 0 || CFI_is_contiguous(a);
}

void hipreduce_f_scatter(const unsigned char* packed, CFI_cdesc_t* r, uint64_t count)
{
    CFI_index_t at[CFI_MAX_RANK] = {0};
    for (uint64_t i = 0; i < count; ++i) {
        unsigned char* p = (unsigned char*)r->base_addr;
        for (int d = 0; d < r->rank; ++d) p += at[d] * r->dim[d].sm;
        memcpy(p, packed + i * r->elem_len, r->elem_len);
        for (int d = 0; d < r->rank && ++at[d] == hipreduce_f_extent(r, d); ++d) at[d] = 0;
    }
}

hipreduce_status hipreduce_f_reduce(hipreduce_handle h, int op, const CFI_cdesc_t* x, const CFI_cdesc_t* y,
                                    CFI_cdesc_t* values, CFI_cdesc_t* indices, int ndims, const int* dims, char* msg,
                                    size_t len)
{
    hipreduce_algorithm algorithm;
    hipreduce_status s = hipreduce_get_algorithm(h, &algorithm); /* the handle first, as every call */
    if (s != HIPREDUCE_STATUS_SUCCESS) return library(msg, len, h, s);
    const int arg = op == HIPREDUCE_OP_ARGMIN || op == HIPREDUCE_OP_ARGMAX || op == HIPREDUCE_OP_NANARGMIN ||
                    op == HIPREDUCE_OP_NANARGMAX;
    const int dot = op == HIPREDUCE_OP_DOT || op == HIPREDUCE_OP_DOT_EXACT || op == HIPREDUCE_OP_DOTC;
    int in, out;
    if ((s = hipreduce_f_typed(x, "x", &in, msg, len)) != HIPREDUCE_STATUS_SUCCESS) return s;
    if (op == HIPREDUCE_OP_DOTC && in != HIPREDUCE_C64 && in != HIPREDUCE_C128)
        op = HIPREDUCE_OP_DOT; /* conjg of a real x is x: dot_product's rule for every type */
    if ((s = hipreduce_f_typed(values, "the result", &out, msg, len)) != HIPREDUCE_STATUS_SUCCESS) return s;
    if (ndims == -2) return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "dim and dims are both present: give one");
    if (arg && (indices == NULL || indices->type != CFI_type_int64_t))
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_DTYPE, "%s: the index must be integer(8)", hipreduce_op_name(op));
    if (arg && out != in)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "%s: the value must have x's type and kind",
                                hipreduce_op_name(op));
    if (dot && (y == NULL || y->type != x->type))
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "dot: y must have x's type and kind");
    if (dot && y->rank != x->rank) return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "dot: y's rank differs from x's");
    for (int d = 0; dot && d < x->rank; ++d)
        if (hipreduce_f_extent(y, d) != hipreduce_f_extent(x, d))
            return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "dot: y's extent in dimension %d differs from x's", d + 1);
    if (!kept_shape(x, ndims, dims, values) || (arg && !kept_shape(x, ndims, dims, indices)))
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES,
                    "the result's shape is not x's shape without the reduced dims (a scalar for all of them)");
    uint64_t n = 1;
    for (int d = 0; d < x->rank; ++d) n *= (uint64_t)hipreduce_f_extent(x, d);
    const void* px = n > 0 ? x->base_addr : NULL;
    const void* py = dot && n > 0 ? y->base_addr : NULL;
    const int all = ndims < 0 || ndims == x->rank;
    if (all && hipreduce_f_contiguous(x) && (!dot || hipreduce_f_contiguous(y))) { /* one simple call: the fast path */
        int64_t index = -1;
        if (arg) s = hipreduce_argreduce(h, (hipreduce_op)op, (hipreduce_dtype)in, px, n, values->base_addr, &index,
                                         HIPREDUCE_RESULT_HOST);
        else if (dot) s = hipreduce_dot_op(h, (hipreduce_op)op, (hipreduce_dtype)in, px, py, n, (hipreduce_dtype)out,
                                           values->base_addr, HIPREDUCE_RESULT_HOST);
        else s = hipreduce_reduce(h, (hipreduce_op)op, (hipreduce_dtype)in, px, n, (hipreduce_dtype)out, values->base_addr,
                                  HIPREDUCE_RESULT_HOST);
        if (s == HIPREDUCE_STATUS_SUCCESS && arg) *(int64_t*)indices->base_addr = index + 1; /* -1 (empty) gives 0 */
        return library(msg, len, h, s);
    }
    if (x->rank > HIPREDUCE_MAX_RANK)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "rank %d: hipreduce's plans take rank %d at most (a "
                    "contiguous array reduced over all its dims takes any rank)", (int)x->rank, HIPREDUCE_MAX_RANK);
    int64_t extents[HIPREDUCE_MAX_RANK], strides[HIPREDUCE_MAX_RANK], ystrides[HIPREDUCE_MAX_RANK];
    hipreduce_reduction_desc desc;
    if ((s = hipreduce_f_describe(x, extents, strides, msg, len)) != HIPREDUCE_STATUS_SUCCESS) return s;
    if (dot && (s = hipreduce_f_describe(y, extents, ystrides, msg, len)) != HIPREDUCE_STATUS_SUCCESS) return s;
    s = hipreduce_f_desc_column_major(&desc, (hipreduce_op)op, (hipreduce_dtype)in, (hipreduce_dtype)out, x->rank, extents,
                                    strides, ndims, dims, msg, len);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    for (int d = 0; dot && d < x->rank; ++d) desc.y_strides[x->rank - 1 - d] = ystrides[d];
    hipreduce_plan plan = NULL;
    uint64_t results = 0;
    if ((s = hipreduce_plan_create(h, &desc, &plan)) != HIPREDUCE_STATUS_SUCCESS) return library(msg, len, h, s);
    hipreduce_plan_results(plan, &results);
    /* results go straight into contiguous outputs, else through a packed copy */
    const int vdirect = hipreduce_f_contiguous(values), idirect = !arg || hipreduce_f_contiguous(indices);
    unsigned char* vbuf = vdirect ? NULL : (unsigned char*)malloc((size_t)results * values->elem_len + 1);
    int64_t* ibuf = idirect ? NULL : (int64_t*)malloc((size_t)results * sizeof *ibuf + 1);
    if ((!vdirect && vbuf == NULL) || (!idirect && ibuf == NULL)) {
        free(vbuf), free(ibuf), hipreduce_plan_destroy(plan);
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_ALLOCATION_FAILED, "allocation of %llu results failed", (unsigned long long)results);
    }
    hipreduce_operands ops;
    memset(&ops, 0, sizeof ops);
    ops.x = px;
    ops.y = py;
    ops.values = vbuf ? (void*)vbuf : values->base_addr;
    ops.indices = arg ? (ibuf ? ibuf : (int64_t*)indices->base_addr) : NULL;
    s = hipreduce_plan_run(h, plan, &ops, HIPREDUCE_RESULT_HOST);
    hipreduce_plan_destroy(plan);
    if (s == HIPREDUCE_STATUS_SUCCESS) {
        for (uint64_t i = 0; arg && i < results; ++i) ops.indices[i] += 1; /* 1-based; -1 (empty) gives 0 */
        if (vbuf) hipreduce_f_scatter(vbuf, values, results);
        if (ibuf) hipreduce_f_scatter((const unsigned char*)ibuf, indices, results);
    }
    free(vbuf), free(ibuf);
    return library(msg, len, h, s);
}

hipreduce_status hipreduce_f_desc_of(hipreduce_reduction_desc* desc, int op, const CFI_cdesc_t* x, int out_dtype,
                                     int ndims, const int* dims, char* msg, size_t len)
{
    int in;
    hipreduce_status s = hipreduce_f_typed(x, "x", &in, msg, len);
    if (s != HIPREDUCE_STATUS_SUCCESS) return s;
    if (x->rank > HIPREDUCE_MAX_RANK)
        return hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "rank %d is above %d", (int)x->rank, HIPREDUCE_MAX_RANK);
    int64_t extents[HIPREDUCE_MAX_RANK], strides[HIPREDUCE_MAX_RANK];
    if ((s = hipreduce_f_describe(x, extents, strides, msg, len)) != HIPREDUCE_STATUS_SUCCESS) return s;
    return hipreduce_f_desc_column_major(desc, (hipreduce_op)op, (hipreduce_dtype)in, (hipreduce_dtype)out_dtype, x->rank,
                                       extents, strides, ndims, dims, msg, len);
}
