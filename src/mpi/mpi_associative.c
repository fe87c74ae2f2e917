/* The exactly associative ops: the ranks' local results combined by one MPI_Allreduce with a
 * user op. Each item carries its combine and dtype, so the op needs no state (and so no lock);
 * it also ORs the ranks' status bits, which is how every rank learns whether all succeeded. The
 * combines are the single-process rules, which make the result independent of the order: integer
 * sums and products modulo 2^bits (the low bits of 64-bit unsigned arithmetic; count_nonzero's
 * counts), bitwise ops (all's 0 or 1 by and, any's by or), min/max with any NaN giving the
 * canonical NaN and -0.0 below +0.0 (aminmax: its minima and maxima, two items a result),
 * nanmin/nanmax with a NaN losing to any value and a rank without elements (index -1) to anything,
 * argmin/argmax with NaN first, then the extreme, ties and NaNs to the smaller global index, an
 * empty rank (index -1) losing. */
#include <stdlib.h>
#include <string.h>

#include "mpi_internal.h"
#include "op_table.h"
#include "rules.h"

typedef struct exact_item {
    uint64_t status_bits;
    uint32_t combine, dtype;
    uint64_t value; /* the dtype's bytes, little end first (zero-extended) */
    int64_t index;
} exact_item;

static int width_bits(uint32_t dtype) { return 8 * hr_dtype_bytes((int)dtype); }

static int is_nan(uint32_t dtype, uint64_t v)
{
    switch (dtype) {
    case HIPREDUCE_F16: return (v & 0x7fff) > 0x7c00;
    case HIPREDUCE_BF16: return (v & 0x7fff) > 0x7f80;
    case HIPREDUCE_F32: return (v & 0x7fffffffu) > 0x7f800000u;
    case HIPREDUCE_F64: return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
    default: return 0;
    }
}

/* A key whose unsigned order is the dtype's value order (-0.0 below +0.0; NaNs apart). */
static uint64_t order_key(uint32_t dtype, uint64_t v)
{
    const int bits = width_bits(dtype);
    const uint64_t sign = 1ull << (bits - 1), mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    if (hr_dtype_is_float((int)dtype)) return (v & sign) ? (~v & mask) : (v | sign);
    if (hr_dtype_class((int)dtype) == HR_CLASS_SIGNED) return (v ^ sign) & mask;
    return v;
}

/* Whether a orders before b for the combine (MIN, ARGMIN, NANARGMIN: smaller; MAX, ARGMAX,
 * NANARGMAX: larger). */
static int better(uint32_t combine, uint32_t dtype, uint64_t a, uint64_t b)
{
    const uint64_t ka = order_key(dtype, a), kb = order_key(dtype, b);
    return combine == HR_CB_MIN || (hr_combine_is_arg((int)combine) && !hr_combine_arg_max((int)combine)) ? ka < kb : ka > kb;
}

static void combine_item(const exact_item* a, exact_item* b)
{
    b->status_bits |= a->status_bits;
    const uint32_t dtype = b->dtype;
    const int bits = width_bits(dtype);
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    switch (b->combine) {
    case HR_CB_ADD: b->value = (a->value + b->value) & mask; break;
    case HR_CB_MUL: b->value = (a->value * b->value) & mask; break;
    case HR_CB_AND: b->value &= a->value; break;
    case HR_CB_OR: b->value |= a->value; break;
    case HR_CB_XOR: b->value ^= a->value; break;
    case HR_CB_MIN:
    case HR_CB_MAX:
        if (is_nan(dtype, b->value)) break; /* local NaN results are the canonical NaN already */
        if (is_nan(dtype, a->value) || better(b->combine, dtype, a->value, b->value)) b->value = a->value;
        break;
    case HR_CB_NANMIN:
    case HR_CB_NANMAX: /* an empty rank's +-inf must not beat another rank's all-NaN slice */
        if (a->index < 0) break;
        if (b->index < 0 || is_nan(dtype, b->value) ||
            (!is_nan(dtype, a->value) && better(b->combine == HR_CB_NANMIN ? HR_CB_MIN : HR_CB_MAX, dtype, a->value, b->value))) {
            b->value = a->value;
            b->index = a->index;
        }
        break;
    default: { /* ARGMIN, ARGMAX: the first NaN wins; NANARGMIN, NANARGMAX: every other value beats a NaN */
        if (a->index < 0) break;
        int take = b->index < 0;
        if (!take) {
            const int na = is_nan(dtype, a->value), nb = is_nan(dtype, b->value);
            const int nan_wins = !hr_combine_nan_last((int)b->combine);
            if (na || nb) take = na == nb ? a->index < b->index : (na == nan_wins);
            else if (better(b->combine, dtype, a->value, b->value)) take = 1;
            else if (!better(b->combine, dtype, b->value, a->value)) take = a->index < b->index;
        }
        if (take) {
            b->value = a->value;
            b->index = a->index;
        }
    }
    }
}

static void combine_items(void* in, void* inout, int* len, MPI_Datatype* type)
{
    (void)type;
    const exact_item* a = (const exact_item*)in;
    exact_item* b = (exact_item*)inout;
    for (int i = 0; i < *len; ++i) combine_item(&a[i], &b[i]);
}

/* Items per MPI_Allreduce: a fixed chunk on the stack, the same on every rank (so a rank whose
 * local call failed still takes part in every round), 32 KiB. */
enum { CHUNK = 1024 };

/* The combine of item i of `results` a round (aminmax: the minima, then the maxima). */
static uint32_t item_combine(hipreduce_op op, uint64_t i, uint64_t results)
{
    const int finish = hr_op_finish((int)op);
    if (finish == HR_FN_ALL) return HR_CB_AND;
    if (finish == HR_FN_ANY) return HR_CB_OR;
    if (finish == HR_FN_MINMAX) return i < results ? HR_CB_MIN : HR_CB_MAX;
    return (uint32_t)hr_op_combine((int)op);
}

hipreduce_status mpi_associative_combine(const mpi_call* call, hipreduce_status local, uint64_t results,
                                   unsigned char* values, int64_t* indices, int64_t index_offset)
{
    const size_t vbytes = (size_t)hr_dtype_bytes((int)call->out);
    const uint64_t status_bits = local == HIPREDUCE_STATUS_SUCCESS ? 0 : 1ull << (unsigned)local;
    const uint64_t kinds = results, items = results * (uint64_t)hr_op_outputs((int)call->op);
    results = items; /* aminmax's maxima are items too, after the minima */
    MPI_Datatype type;
    MPI_Op op;
    int rc = MPI_Type_contiguous((int)sizeof(exact_item), MPI_BYTE, &type);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Type_contiguous");
    if ((rc = MPI_Type_commit(&type)) != MPI_SUCCESS || (rc = MPI_Op_create(combine_items, 1, &op)) != MPI_SUCCESS) {
        MPI_Type_free(&type);
        return mpi_error(rc, "MPI_Type_commit/MPI_Op_create");
    }
    uint64_t agreed_bits = 0;
    /* results == 0 still runs one round: it carries the status. */
    for (uint64_t done = 0; rc == MPI_SUCCESS && (done < results || (done == 0 && results == 0)); done += CHUNK) {
        exact_item items[CHUNK];
        const uint64_t k = results == 0 ? 1 : results - done < CHUNK ? results - done : CHUNK;
        for (uint64_t i = 0; i < k; ++i) {
            const exact_item item = {.status_bits = status_bits, .combine = item_combine(call->op, done + i, kinds),
                                     .dtype = (uint32_t)call->out, .value = 0, .index = -1};
            items[i] = item;
            if (results > 0 && local == HIPREDUCE_STATUS_SUCCESS) {
                memcpy(&items[i].value, values + (done + i) * vbytes, vbytes);
                if (indices) items[i].index = indices[done + i] < 0 ? -1 : indices[done + i] + index_offset;
                else items[i].index = mpi_row_n(call, done + i) > 0 ? 0 : -1; /* nanmin/nanmax: whether this rank's row has elements */
            }
        }
        rc = MPI_Allreduce(MPI_IN_PLACE, items, (int)k, type, op, call->comm);
        if (rc != MPI_SUCCESS) break;
        agreed_bits |= items[0].status_bits;
        if (local == HIPREDUCE_STATUS_SUCCESS && agreed_bits == 0)
            for (uint64_t i = 0; i < k && results > 0; ++i) {
                memcpy(values + (done + i) * vbytes, &items[i].value, vbytes);
                if (indices) indices[done + i] = items[i].index;
            }
    }
    MPI_Op_free(&op);
    MPI_Type_free(&type);
    if (rc != MPI_SUCCESS) return mpi_error(rc, "MPI_Allreduce");
    return mpi_agreed_status(agreed_bits, local);
}
