/* The column kernels' choice (cpu_tensor_columns.h); the kernels are cpu_columns_impl.h's, one
 * table per instruction set beside the level kernels (cpu_levels.h). */
#include "cpu_tensor_columns.h"

#include <string.h>

#include "cpu_levels.h"
#include "rules.h"

void hr_cpu_col_kernels(const hr_cpu_levels* levels, const hr_call* call, int transform, int combine, hr_col_kernels* k)
{
    const hr_col_table* table = levels->columns;
    memset(k, 0, sizeof *k);
    if ((unsigned)call->in_dtype >= HR_DTYPE_SLOTS || (unsigned)transform >= HR_TRANSFORMS ||
        (unsigned)call->acc >= HR_ACC_KINDS || call->y != NULL)
        return;
    const hr_col_kernels* cell = &table->in[call->in_dtype][transform][call->acc];
    if (cell->family == HR_COL_NONE || (cell->family != HR_COL_ARG && table->kinds[call->acc].pair == NULL)) return;
    *k = *cell;
    k->state = cell->family == HR_COL_ARG ? 16 : (size_t)hr_acc_bytes(call->acc);
    if (cell->family == HR_COL_ORDERED && cell->top != NULL && (combine == HR_CB_MIN || combine == HR_CB_MAX)) {
        k->family = HR_COL_KEYS; /* fold, fill and top are the keys' */
        k->state = 16;
        return;
    }
    if (cell->family == HR_COL_ARG) return;
    k->fill = table->kinds[call->acc].fill;
    k->pair = table->kinds[call->acc].pair;
    if (cell->family == HR_COL_ORDERED) {
        k->fold = NULL;
        k->top = NULL;
        k->up = table->up[call->acc][hr_cpu_chunk_slot((size_t)hr_dtype_bytes(call->in_dtype))];
        if (k->up == NULL) k->family = HR_COL_NONE;
    }
}
