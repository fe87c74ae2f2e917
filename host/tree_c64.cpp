/* Kernel instances with input dtype c64: the default algorithm's tree kernel for every op
 * row and accumulator an allowed triple needs, multipass and two-pass for the original
 * operators (host/instances.h, host/study/pass_instances.h). One file per input dtype, so they
 * compile in parallel. */
#include "instances.h"

namespace hr {
HR_DEFINE_INSTANCES(HIPREDUCE_C64, c64)
}
