/* The GPU backends' shuffles of a struct (the accumulators of nrm2 and argmin/argmax): a
 * 32-bit-word operation applied to each of its words in turn. Included by compat/cuda.h and
 * compat/amd.h after their runtime headers. */
#ifndef HIPREDUCE_COMPAT_WORDS_H
#define HIPREDUCE_COMPAT_WORDS_H

#include <stdint.h>
#include <string.h>

#include <type_traits>

template <class T, class WordOp> __device__ __forceinline__ T hr_by_words(T value, WordOp op)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled in 32-bit words");
    uint32_t w[sizeof(T) / 4];
    HR_MEMCPY(w, &value, sizeof value);
#pragma unroll
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) w[i] = op(w[i]);
    HR_MEMCPY(&value, w, sizeof value);
    return value;
}

#endif
