/* Axis and segment reductions on the cpu device (device/order.h's orders). Placeholder until the
 * implementation lands: every such call is NOT_SUPPORTED. */
#include "cpu_reduce.h"

hipreduce_status hr_cpu_run_shaped(hr_cpu* cpu, const hr_call* call)
{
    (void)cpu;
    (void)call;
    return HIPREDUCE_STATUS_NOT_SUPPORTED;
}

size_t hr_cpu_shaped_workspace_size(const hr_call* call)
{
    (void)call;
    return 0;
}
