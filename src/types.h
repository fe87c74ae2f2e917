/* The op and dtype tables of the C side: one row per dtype, one rule per op. */
#ifndef HIPREDUCE_TYPES_H
#define HIPREDUCE_TYPES_H

#include "hipreduce/hipreduce.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hr_dtype_class { HR_CLASS_NONE = 0, HR_CLASS_SIGNED, HR_CLASS_UNSIGNED, HR_CLASS_FLOAT } hr_dtype_class;

typedef struct hr_dtype_info {
    const char* name; /* "i8", ..., NULL for unused values */
    size_t size;      /* bytes of one element */
    hr_dtype_class cls;
} hr_dtype_info;

/* NULL for a value that is not a supported hipreduce_dtype. */
const hr_dtype_info* hr_dtype_lookup(int dtype);
/* Name of an op value ("sum", ...), NULL when unknown. */
const char* hr_op_name(int op);
/* HIPREDUCE_STATUS_SUCCESS when op applies to dtype, else the status to return. */
hipreduce_status hr_check_op_dtype(int op, int dtype);
/* Name of an algorithm value, NULL when unknown. */
const char* hr_algorithm_name(int algorithm);

#ifdef __cplusplus
}
#endif

#endif
