/* The C layout of the plan API's structs, for test_fortran.F90's check of the bind(c) types:
 * sizeof, then each field's offset in declaration order. */
#include <stddef.h>
#include <stdint.h>

#include "hipreduce/hipreduce.h"

int hipreduce_test_desc_layout(int64_t* out)
{
    typedef hipreduce_reduction_desc D;
    typedef hipreduce_operands O;
    const int64_t v[] = {sizeof(D), offsetof(D, op), offsetof(D, in_dtype), offsetof(D, out_dtype), offsetof(D, layout),
                         offsetof(D, order), offsetof(D, rank), offsetof(D, extents), offsetof(D, x_strides),
                         offsetof(D, y_strides), offsetof(D, num_axes), offsetof(D, axes), offsetof(D, num_segments),
                         offsetof(D, length), offsetof(D, num_bins), offsetof(D, row), offsetof(D, key_dtype),
                         offsetof(D, reserved), sizeof(O), offsetof(O, x), offsetof(O, y), offsetof(O, offsets),
                         offsetof(O, values), offsetof(O, indices), offsetof(O, keys), offsetof(O, counts),
                         offsetof(O, reserved)};
    const int n = (int)(sizeof v / sizeof v[0]);
    for (int i = 0; i < n; ++i) out[i] = v[i];
    return n;
}
