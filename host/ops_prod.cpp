/* Kernel instances of op_prod for every dtype it applies to (one file per operator
 * so the instances compile in parallel). */
#include "drivers.h"

namespace hr {
HR_DEFINE_OP_ROW(prod)
}
