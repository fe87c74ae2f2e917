/* Study-algorithm instances of op_max for every dtype it applies to (one file per
 * operator so the instances compile in parallel). */
#include "seed_drivers.h"

namespace hr {
template const study_entry* study_row<op_max>();
}
