/* The vendor anchor of a build without CUB or rocPRIM: the bench prints no vendor column. */
#include "comparator.h"

const char* vendor_name(void) { return nullptr; }

hipError_t vendor_run(const anchor_call*, void*, size_t*, hipStream_t) { return hipErrorInvalidValue; }
