/* The C side of module hipreduce_mpi (fortran/hipreduce_mpi.F90): communicators arrive as Fortran
 * handles (MPI_Fint: an integer handle, or mpi_f08's type(MPI_Comm)%MPI_VAL) and become MPI_Comm
 * through MPI_Comm_f2c; Fortran arrays arrive as descriptors (hipreduce_fortran.h).
 *
 * The array calls are collective as the C calls are, so a rank that refuses its own arguments
 * here (a type without a dtype, a non-contiguous slice, a result of the wrong shape) still takes
 * part in the call: it passes the library a NULL result, which the library refuses on this rank
 * (every other rank gets HIPREDUCE_STATUS_MPI_MISMATCH, as for any rank's bad argument), and
 * returns its own status and sentence. No rank waits for one that failed. */
#include <mpi.h>
#include <stdlib.h>

#include "hipreduce/hipreduce_mpi.h"
#include "hipreduce_fortran.h"

hipreduce_status hipreduce_f_mpi_reduce(hipreduce_handle h, MPI_Fint comm, int op, int in, const void* x, uint64_t n,
                                        int out, void* result, int location)
{
    return hipreduce_mpi_reduce(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, x, n,
                                (hipreduce_dtype)out, result, (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_argreduce(hipreduce_handle h, MPI_Fint comm, int op, int dtype, const void* x,
                                           uint64_t n, void* value, int64_t* index, int location)
{
    return hipreduce_mpi_argreduce(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)dtype, x, n, value, index,
                                   (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_dot_op(hipreduce_handle h, MPI_Fint comm, int op, int in, const void* x, const void* y,
                                        uint64_t n, int out, void* result, int location)
{
    return hipreduce_mpi_dot_op(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, x, y, n,
                                (hipreduce_dtype)out, result, (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_reduce_axis(hipreduce_handle h, MPI_Fint comm, int op, int in, const void* x,
                                             uint64_t outer, uint64_t extent, uint64_t inner, int out, void* results,
                                             int location)
{
    return hipreduce_mpi_reduce_axis(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, x, outer, extent,
                                     inner, (hipreduce_dtype)out, results, (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_argreduce_axis(hipreduce_handle h, MPI_Fint comm, int op, int dtype, const void* x,
                                                uint64_t outer, uint64_t extent, uint64_t inner, void* values,
                                                int64_t* indices, int location)
{
    return hipreduce_mpi_argreduce_axis(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)dtype, x, outer,
                                        extent, inner, values, indices, (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_reduce_stats(hipreduce_handle h, MPI_Fint comm, int op, int in, const void* x,
                                              uint64_t outer, uint64_t extent, uint64_t inner, double correction,
                                              int out, void* results, void* results2, int location)
{
    return hipreduce_mpi_reduce_stats(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, x, outer, extent,
                                      inner, correction, (hipreduce_dtype)out, results, results2,
                                      (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_reduce_fields(hipreduce_handle h, MPI_Fint comm, int op, int in, uint64_t nfields,
                                               const void* const* fields, uint64_t n_local, int out, void* results,
                                               int location)
{
    return hipreduce_mpi_reduce_fields(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, nfields, fields,
                                       n_local, (hipreduce_dtype)out, results, (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_reduce_fields_ext(hipreduce_handle h, MPI_Fint comm, int op, int in, uint64_t nfields,
                                                   const void* const* fields, const void* const* weights,
                                                   const uint64_t* ranges, uint64_t n_local, int out, void* results,
                                                   int location)
{
    return hipreduce_mpi_reduce_fields_ext(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, nfields, fields,
                                           weights, ranges, n_local, (hipreduce_dtype)out, results,
                                           (hipreduce_location)location);
}

hipreduce_status hipreduce_f_mpi_reduce_fields_start(hipreduce_handle h, MPI_Fint comm, int op, int in, uint64_t nfields,
                                                     const void* const* fields, const void* const* weights,
                                                     const uint64_t* ranges, uint64_t n_local, int out, void* results,
                                                     int location, hipreduce_mpi_request* request)
{
    return hipreduce_mpi_reduce_fields_start(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, nfields,
                                             fields, weights, ranges, n_local, (hipreduce_dtype)out, results,
                                             (hipreduce_location)location, request);
}

/* The library's sentence for its status (hipreduce_mpi_last_error_message). */
static hipreduce_status library(char* msg, size_t len, hipreduce_status s)
{
    if (s == HIPREDUCE_STATUS_SUCCESS) return s;
    const char* m = hipreduce_mpi_last_error_message();
    return hipreduce_f_fail(msg, len, s, "%s", m[0] != '\0' ? m : hipreduce_status_string(s));
}

/* x (any rank, contiguous: this rank's slice in array element order) into the scalar r. */
hipreduce_status hipreduce_f_mpi_reduce_array(hipreduce_handle h, MPI_Fint comm, int op, const CFI_cdesc_t* x,
                                              CFI_cdesc_t* r, char* msg, size_t len)
{
    int in = HIPREDUCE_F32, out = HIPREDUCE_F32;
    hipreduce_status own = hipreduce_f_typed(x, "x", &in, msg, len);
    if (own == HIPREDUCE_STATUS_SUCCESS) own = hipreduce_f_typed(r, "the result", &out, msg, len);
    if (own == HIPREDUCE_STATUS_SUCCESS && r->rank != 0)
        own = hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES, "the result must be a scalar");
    if (own == HIPREDUCE_STATUS_SUCCESS && !hipreduce_f_contiguous(x))
        own = hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_NOT_SUPPORTED,
                               "x is not contiguous: this rank's slice must be (pass a contiguous copy)");
    uint64_t n = 1;
    for (int d = 0; d < x->rank; ++d) n *= (uint64_t)hipreduce_f_extent(x, d);
    const hipreduce_status s =
        hipreduce_mpi_reduce(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, own ? NULL : x->base_addr,
                             own ? 0 : n, (hipreduce_dtype)out, own ? NULL : r->base_addr, HIPREDUCE_RESULT_HOST);
    return own != HIPREDUCE_STATUS_SUCCESS ? own : library(msg, len, s);
}

/* x(n_local, nfields): field f is column f (contiguous columns, any distance apart), results r(nfields). */
hipreduce_status hipreduce_f_mpi_reduce_fields_array(hipreduce_handle h, MPI_Fint comm, int op, const CFI_cdesc_t* x,
                                                     CFI_cdesc_t* r, char* msg, size_t len)
{
    int in = HIPREDUCE_F32, out = HIPREDUCE_F32;
    hipreduce_status own = hipreduce_f_typed(x, "x", &in, msg, len);
    if (own == HIPREDUCE_STATUS_SUCCESS) own = hipreduce_f_typed(r, "the results", &out, msg, len);
    if (own == HIPREDUCE_STATUS_SUCCESS && (x->rank != 2 || r->rank != 1 || hipreduce_f_extent(r, 0) != hipreduce_f_extent(x, 1)))
        own = hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_INVALID_AXES,
                               "x must be x(n_local, nfields) and the results r(nfields)");
    if (own == HIPREDUCE_STATUS_SUCCESS && hipreduce_f_extent(x, 0) > 1 && x->dim[0].sm != (CFI_index_t)x->elem_len)
        own = hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_NOT_SUPPORTED,
                               "x's columns are not contiguous: each field must be (pass a contiguous copy)");
    const uint64_t nfields = own ? 0 : (uint64_t)hipreduce_f_extent(x, 1), n_local = own ? 0 : (uint64_t)hipreduce_f_extent(x, 0);
    const void** fields = (const void**)malloc((size_t)nfields * sizeof *fields + 1);
    const int direct = own == HIPREDUCE_STATUS_SUCCESS && hipreduce_f_contiguous(r);
    unsigned char* packed = own || direct ? NULL : (unsigned char*)malloc((size_t)nfields * r->elem_len + 1);
    if (own == HIPREDUCE_STATUS_SUCCESS && (fields == NULL || (!direct && packed == NULL)))
        own = hipreduce_f_fail(msg, len, HIPREDUCE_STATUS_ALLOCATION_FAILED, "allocation of %llu field pointers failed",
                               (unsigned long long)nfields);
    for (uint64_t f = 0; own == HIPREDUCE_STATUS_SUCCESS && f < nfields; ++f)
        fields[f] = (const unsigned char*)x->base_addr + (CFI_index_t)f * x->dim[1].sm;
    void* results = own ? NULL : direct ? r->base_addr : (void*)packed;
    const hipreduce_status s =
        hipreduce_mpi_reduce_fields(h, MPI_Comm_f2c(comm), (hipreduce_op)op, (hipreduce_dtype)in, nfields,
                                    own ? NULL : fields, n_local, (hipreduce_dtype)out, results, HIPREDUCE_RESULT_HOST);
    if (own == HIPREDUCE_STATUS_SUCCESS && s == HIPREDUCE_STATUS_SUCCESS && !direct)
        hipreduce_f_scatter(packed, r, nfields);
    free(fields);
    free(packed);
    return own != HIPREDUCE_STATUS_SUCCESS ? own : library(msg, len, s);
}
