/* Descriptors and plans (hipreduce.h): a descriptor is validated once into the call struct every
 * executor takes (device/call.h's hr_call), its dimensions coalesced and its shape chosen; a run
 * fills in the pointers and goes the simple calls' way (api_call.h: hr_api_run).
 *
 * Shape chosen (the bits do not depend on it, only the speed):
 *  - SEGMENTS layout: the segment shape;
 *  - STRIDED order: the axis shape (outer, extent, inner) of a contiguous tensor with one block of
 *    adjacent reduced axes;
 *  - otherwise, after coalescing: when each result's reduced elements are one contiguous run and
 *    the results' runs follow each other (rows, a full reduction, a scalar), or a dimension is
 *    empty, the axis shape (results, reduced, 1); every other layout the tensor shape, which the
 *    executors gather into rows (cpu_tensor.c, host/gpu_tensor.cpp);
 *  - BY_KEY layout: the by-key shape (api_by_key.c), which the executors sort by key into CSR
 *    segments (cpu_by_key.c, host/gpu_by_key.cpp). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api_by_key.h"
#include "api_call.h"

struct hipreduce_plan_s {
    hr_call call;   /* validated; the operand pointers are set per run */
    int has_offsets;
};

hipreduce_status hipreduce_desc_init(hipreduce_reduction_desc* desc, hipreduce_op op, hipreduce_dtype in_dtype,
                                     hipreduce_dtype out_dtype, int rank, const uint64_t* extents)
{
    if (desc == NULL || (rank > 0 && extents == NULL)) return HIPREDUCE_STATUS_INVALID_POINTER;
    if (rank < 0 || rank > HIPREDUCE_MAX_RANK) return HIPREDUCE_STATUS_INVALID_AXES;
    memset(desc, 0, sizeof *desc);
    desc->op = op;
    desc->in_dtype = in_dtype;
    desc->out_dtype = out_dtype;
    desc->rank = rank;
    desc->num_axes = rank;
    int64_t stride = 1;
    for (int a = rank - 1; a >= 0; --a) {
        desc->extents[a] = extents[a];
        desc->x_strides[a] = desc->y_strides[a] = stride;
        desc->axes[a] = a;
        stride *= (int64_t)(extents[a] ? extents[a] : 1);
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

/* |v| as uint64 (INT64_MIN included). */
static uint64_t magnitude(int64_t v) { return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; }

/* The axes: in range, no repeats; *reduced_mask gets bit a for each reduced axis. */
static hipreduce_status check_axes(hipreduce_handle handle, const hipreduce_reduction_desc* d, unsigned* reduced_mask)
{
    if (d->rank < 0 || d->rank > HIPREDUCE_MAX_RANK)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_AXES, "rank %d is outside 0 .. %d", d->rank, HIPREDUCE_MAX_RANK);
    if (d->num_axes < 0 || d->num_axes > d->rank)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_AXES, "num_axes %d is outside 0 .. rank %d", d->num_axes, d->rank);
    *reduced_mask = 0;
    for (int i = 0; i < d->num_axes; ++i) {
        const int a = d->axes[i];
        if (a < 0 || a >= d->rank)
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_AXES, "axes[%d] = %d is outside 0 .. %d", i, a, d->rank - 1);
        if (*reduced_mask & (1u << a))
            return hr_fail(handle, HIPREDUCE_STATUS_INVALID_AXES, "axis %d is listed twice in axes", a);
        *reduced_mask |= 1u << a;
    }
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Element counts, result counts and the byte span of every stride fit in 64 bits. */
static hipreduce_status check_sizes(hipreduce_handle handle, const hipreduce_reduction_desc* d, int dot,
                                    uint64_t* elements)
{
    const size_t elem = (size_t)hr_dtype_bytes(d->in_dtype);
    int overflow = 0;
    uint64_t n = 1, span_x = 0, span_y = 0;
    for (int a = 0; a < d->rank; ++a) n = hr_mul_checked(n, d->extents[a], &overflow);
    if (overflow || hr_bytes_overflow(n, elem) || hr_bytes_overflow(n, 8))
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "the extents' product overflows the byte count");
    for (int a = 0; a < d->rank && n > 0; ++a) {
        const uint64_t steps = d->extents[a] - 1;
        const uint64_t sx = hr_mul_checked(magnitude(d->x_strides[a]), steps, &overflow);
        const uint64_t sy = dot ? hr_mul_checked(magnitude(d->y_strides[a]), steps, &overflow) : 0;
        if (overflow || sx > (uint64_t)INT64_MAX - span_x || sy > (uint64_t)INT64_MAX - span_y)
            return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "axis %d: stride x extent overflows a 64-bit offset", a);
        span_x += sx;
        span_y += sy;
    }
    if (hr_bytes_overflow(span_x + 1, elem) || hr_bytes_overflow(span_y + 1, elem))
        return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "the strides span more bytes than fit in 64 bits");
    *elements = n;
    return HIPREDUCE_STATUS_SUCCESS;
}

/* Appends axis a to a group of t's dimensions (kept or reduced), merging it into the group's last
 * when that one steps over it exactly (for both inputs). */
static void append_dim(hr_tensor* t, int* count, int first, uint64_t extent, int64_t xs, int64_t ys)
{
    const int last = first + *count - 1;
    if (*count > 0 && t->xstride[last] == xs * (int64_t)extent && t->ystride[last] == ys * (int64_t)extent) {
        t->extent[last] *= extent;
        t->xstride[last] = xs;
        t->ystride[last] = ys;
        return;
    }
    t->extent[last + 1] = extent;
    t->xstride[last + 1] = xs;
    t->ystride[last + 1] = ys;
    ++*count;
}

/* The coalesced tensor (kept dims first, then reduced), with its result and reduced counts. */
static void coalesce(const hipreduce_reduction_desc* d, unsigned reduced_mask, int dot, hr_tensor* t, uint64_t* results,
                     uint64_t* reduced)
{
    memset(t, 0, sizeof *t);
    hr_tensor r; /* the reduced group, before it is placed after the kept one */
    memset(&r, 0, sizeof r);
    *results = *reduced = 1;
    for (int a = 0; a < d->rank; ++a) {
        if (d->extents[a] == 1) continue;
        const int64_t ys = dot ? d->y_strides[a] : 0;
        if (reduced_mask & (1u << a)) {
            append_dim(&r, &r.reduced, 0, d->extents[a], d->x_strides[a], ys);
            *reduced *= d->extents[a];
        } else {
            append_dim(t, &t->kept, 0, d->extents[a], d->x_strides[a], ys);
            *results *= d->extents[a];
        }
    }
    for (int i = 0; i < r.reduced; ++i) {
        t->extent[t->kept + i] = r.extent[i];
        t->xstride[t->kept + i] = r.xstride[i];
        t->ystride[t->kept + i] = r.ystride[i];
    }
    t->reduced = r.reduced;
}

/* A tensor that is rows already: one contiguous run per result, results one run apart. */
static int is_rows(const hr_tensor* t, uint64_t reduced, int dot)
{
    if (t->kept > 1 || t->reduced > 1) return 0;
    if (t->reduced && (t->xstride[t->kept] != 1 || (dot && t->ystride[t->kept] != 1))) return 0;
    if (t->kept == 0) return 1;
    return t->xstride[0] == (int64_t)reduced && (!dot || t->ystride[0] == (int64_t)reduced);
}

/* STRIDED order: a contiguous row-major tensor (extent-1 axes aside; the strides of a tensor
 * without elements are not read) whose reduced axes are adjacent; fills outer, extent, inner. */
static int strided_axis(const hipreduce_reduction_desc* d, unsigned reduced_mask, int dot, uint64_t* outer,
                        uint64_t* extent, uint64_t* inner)
{
    int64_t expect = 1;
    int seen_reduced = 0, after_reduced = 0, empty = 0;
    *outer = *extent = *inner = 1;
    for (int a = 0; a < d->rank; ++a) empty |= d->extents[a] == 0;
    for (int a = d->rank - 1; a >= 0; --a) {
        if (d->extents[a] == 1) continue;
        if (!empty && (d->x_strides[a] != expect || (dot && d->y_strides[a] != expect))) return 0;
        expect *= (int64_t)d->extents[a];
        if (reduced_mask & (1u << a)) {
            if (after_reduced) return 0; /* two blocks of reduced axes */
            seen_reduced = 1;
            *extent *= d->extents[a];
        } else if (seen_reduced) {
            after_reduced = 1;
            *outer *= d->extents[a];
        } else {
            *inner *= d->extents[a];
        }
    }
    return 1;
}

static hipreduce_status plan_tensor(hipreduce_handle handle, const hipreduce_reduction_desc* d, hr_call* call)
{
    const int dot = hr_op_call(d->op) == HR_CALL_DOT;
    unsigned mask;
    uint64_t elements;
    hipreduce_status st = check_axes(handle, d, &mask);
    if (st == HIPREDUCE_STATUS_SUCCESS) st = check_sizes(handle, d, dot, &elements);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    call->n = elements;
    call->inner = 1;
    if (d->order == HIPREDUCE_ORDER_STRIDED) {
        if (dot) return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "%s has no strided order", hr_op_name(d->op));
        if (!strided_axis(d, mask, dot, &call->outer, &call->extent, &call->inner))
            return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED,
                           "HIPREDUCE_ORDER_STRIDED needs a contiguous row-major tensor whose reduced axes are adjacent");
        call->shape = HR_SHAPE_AXIS;
        return HIPREDUCE_STATUS_SUCCESS;
    }
    uint64_t results, reduced;
    coalesce(d, mask, dot, &call->tensor, &results, &reduced);
    call->outer = elements == 0 ? 0 : results;
    call->extent = elements == 0 ? 0 : reduced;
    if (elements == 0) { /* no result, or identities: no element is read */
        int overflow = 0;
        call->outer = 1;
        for (int a = 0; a < d->rank; ++a)
            if (!(mask & (1u << a))) call->outer = hr_mul_checked(call->outer, d->extents[a], &overflow);
        if (overflow || hr_bytes_overflow(call->outer, 8))
            return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "the kept extents' product overflows the byte count");
    }
    call->shape = elements == 0 || is_rows(&call->tensor, reduced, dot) ? HR_SHAPE_AXIS : HR_SHAPE_TENSOR;
    return HIPREDUCE_STATUS_SUCCESS;
}

static hipreduce_status create_body(hipreduce_handle handle, const hipreduce_reduction_desc* d, hipreduce_plan* plan)
{
    if (plan == NULL) return hr_null_pointer(handle, "plan", HR_ANY);
    if (d == NULL) return hr_null_pointer(handle, "desc", HR_ANY);
    if (d->layout != HIPREDUCE_LAYOUT_TENSOR && d->layout != HIPREDUCE_LAYOUT_SEGMENTS && d->layout != HIPREDUCE_LAYOUT_BY_KEY)
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "layout %d is none of TENSOR (0), SEGMENTS (1), BY_KEY (2)",
                       (int)d->layout);
    if (d->order != HIPREDUCE_ORDER_LOGICAL && d->order != HIPREDUCE_ORDER_STRIDED)
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "order %d is neither LOGICAL (0) nor STRIDED (1)", (int)d->order);
    if (d->layout == HIPREDUCE_LAYOUT_BY_KEY && d->order != HIPREDUCE_ORDER_LOGICAL)
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "layout BY_KEY takes order LOGICAL only");
    for (size_t i = 0; i < sizeof d->reserved / sizeof d->reserved[0]; ++i)
        if (d->reserved[i] != 0)
            return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "reserved[%zu] is not zero", i);
    const int op = (int)d->op;
    const hr_call_kind kind = (unsigned)op < HR_OP_SLOTS ? (hr_call_kind)hr_op_call(op) : HR_CALL_REDUCE;
    const int out = kind == HR_CALL_ARGREDUCE ? (int)d->in_dtype : (int)d->out_dtype;
    hr_call call;
    memset(&call, 0, sizeof call);
    hipreduce_status st = hr_api_validate(handle, kind, op, (int)d->in_dtype, out, 0, 1, 0, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (d->correction != 0 && !hr_op_corrected(op)) /* a field of var and std only, as a reserved one */
        return hr_fail(handle, HIPREDUCE_STATUS_NOT_SUPPORTED, "correction is %g: var's and std's field, 0 for %s",
                       d->correction, hr_op_name(op));
    if (kind == HR_CALL_ARGREDUCE && d->out_dtype != d->in_dtype)
        return hr_fail(handle, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "%s of %s: out_dtype must be in_dtype (%s)",
                       hr_op_name(op), hr_dtype_name((int)d->in_dtype), hr_dtype_name((int)d->in_dtype));
    if (d->layout == HIPREDUCE_LAYOUT_SEGMENTS) {
        if (kind == HR_CALL_DOT)
            return hr_fail(handle, HIPREDUCE_STATUS_OP_DTYPE_MISMATCH, "%s has no segment form", hr_op_name(op));
        if ((st = hr_segments_shape(&call, d->num_segments)) != HIPREDUCE_STATUS_SUCCESS) return hr_shape_overflow(handle, &call);
        if (hr_bytes_overflow(d->length, (size_t)hr_dtype_bytes(call.in_dtype)))
            return hr_fail(handle, HIPREDUCE_STATUS_SIZE_OVERFLOW, "length = %" PRIu64 " elements of %s overflow the byte count",
                           d->length, hr_dtype_name(call.in_dtype));
        call.length = d->length; /* the executors bound the offsets by it */
    } else if (d->layout == HIPREDUCE_LAYOUT_BY_KEY) {
        if ((st = hr_by_key_shape(handle, d, &call)) != HIPREDUCE_STATUS_SUCCESS) return st;
    } else if ((st = plan_tensor(handle, d, &call)) != HIPREDUCE_STATUS_SUCCESS) {
        return st;
    }
    hipreduce_plan p = (hipreduce_plan)malloc(sizeof *p);
    if (p == NULL) return hr_fail(handle, HIPREDUCE_STATUS_ALLOCATION_FAILED, "host allocation of the plan failed");
    call.correction = d->correction;
    p->call = call;
    p->has_offsets = d->layout == HIPREDUCE_LAYOUT_SEGMENTS;
    *plan = p;
    return HIPREDUCE_STATUS_SUCCESS;
}

hipreduce_status hipreduce_plan_create(hipreduce_handle handle, const hipreduce_reduction_desc* desc, hipreduce_plan* plan)
{
    HR_GUARDED(handle, create_body(handle, desc, plan));
}

hipreduce_status hipreduce_plan_results(hipreduce_plan plan, uint64_t* results)
{
    if (plan == NULL || results == NULL) return HIPREDUCE_STATUS_INVALID_POINTER;
    *results = hr_call_results(&plan->call);
    return HIPREDUCE_STATUS_SUCCESS;
}

void hipreduce_plan_destroy(hipreduce_plan plan) { free(plan); }

/* The plan's call with the location checked (query: no location). */
static hipreduce_status plan_call(hipreduce_handle handle, hipreduce_plan plan, int query, int location, hr_call* call)
{
    if (plan == NULL) return hr_null_pointer(handle, "plan", HR_ANY);
    const hr_call* c = &plan->call;
    hr_call checked;
    const hipreduce_status st =
        hr_api_validate(handle, (hr_call_kind)hr_op_call(c->op), c->op, c->in_dtype, c->out_dtype, 0, query, location, &checked);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    *call = *c;
    call->location = checked.location;
    return HIPREDUCE_STATUS_SUCCESS;
}

static hipreduce_status size_body(hipreduce_handle handle, hipreduce_plan plan, int location, size_t* bytes)
{
    hr_call call;
    const hipreduce_status st = plan_call(handle, plan, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    return hr_api_size_query(handle, &call, bytes);
}

hipreduce_status hipreduce_plan_workspace_size(hipreduce_handle handle, hipreduce_plan plan, hipreduce_location location,
                                               size_t* bytes)
{
    HR_GUARDED(handle, size_body(handle, plan, (int)location, bytes));
}

static hipreduce_status run_body(hipreduce_handle handle, hipreduce_plan plan, const hipreduce_operands* ops, int location)
{
    hr_call call;
    const hipreduce_status st = plan_call(handle, plan, 0, location, &call);
    if (st != HIPREDUCE_STATUS_SUCCESS) return st;
    if (ops == NULL) return hr_null_pointer(handle, "operands", HR_ANY);
    const int arg = hr_op_call(call.op) == HR_CALL_ARGREDUCE, dot = hr_op_call(call.op) == HR_CALL_DOT;
    const uint64_t reads = plan->has_offsets ? call.num_segments : call.n;
    if (ops->values == NULL) return hr_null_pointer(handle, "operands->values", HR_ANY);
    if (arg && ops->indices == NULL) return hr_null_pointer(handle, "operands->indices", HR_ANY);
    if (hr_op_outputs(call.op) > 1 && ops->values2 == NULL) return hr_null_pointer(handle, "operands->values2", HR_ANY);
    if (plan->has_offsets && call.num_segments > 0 && ops->offsets == NULL)
        return hr_fail(handle, HIPREDUCE_STATUS_INVALID_POINTER, "operands->offsets is NULL with %" PRIu64 " segments",
                       call.num_segments);
    if (ops->x == NULL && reads > 0) return hr_null_pointer(handle, "operands->x", reads);
    if (dot && ops->y == NULL && reads > 0) return hr_null_pointer(handle, "operands->y", reads);
    if (call.shape == HR_SHAPE_BY_KEY) {
        if (ops->keys == NULL && call.length > 0) return hr_null_pointer(handle, "operands->keys", call.length);
        call.keys = ops->keys;
        call.counts = ops->counts;
        if (handle->cpu) { /* a GPU's kernels skip the keys out of range instead */
            const hipreduce_status keys = hr_by_key_check_keys(handle, &call);
            if (keys != HIPREDUCE_STATUS_SUCCESS) return keys;
        }
    }
    call.x = ops->x;
    call.y = dot ? ops->y : NULL;
    call.offsets = plan->has_offsets ? ops->offsets : NULL;
    call.result = ops->values;
    call.result2 = hr_op_outputs(call.op) > 1 ? ops->values2 : NULL;
    call.index = arg ? ops->indices : NULL;
    return hr_api_run(handle, &call);
}

hipreduce_status hipreduce_plan_run(hipreduce_handle handle, hipreduce_plan plan, const hipreduce_operands* operands,
                                    hipreduce_location location)
{
    HR_GUARDED(handle, run_body(handle, plan, operands, (int)location));
}
