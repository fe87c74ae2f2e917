/* The by-key shape's kernels (device/call.h, HR_SHAPE_BY_KEY; driven by host/gpu_by_key.cpp):
 * a stable sort of the rows by key, then the sorted copy of the values whose bins are CSR
 * segments, which the segment kernels reduce with the simple call's bits.
 *
 * The sort is a least-significant-digit radix sort of (key, row index) pairs, 8 bits a pass, each
 * pass stable, so the rows of a bin keep their input order. A pair whose key lies outside
 * [0, num_bins) (stored as num_bins) goes into a bucket of its own after the 256 digits in every
 * pass, so such pairs end up after every bin and cost no pass of their own; no later kernel reads
 * them (the GPU's rule: such rows are skipped). A pass splits the pairs into one contiguous range
 * per block; the count kernel counts each block's buckets, the scan turns the counts
 * (bucket-major: [bucket][block]) into each (bucket, block)'s first place, and the scatter kernel
 * walks its block's range again in order, a tile of BK_THREADS pairs at a time, placing each pair
 * at its bucket's next place: its rank among the tile's earlier pairs of the same bucket comes
 * from groups of BK_GROUP threads (each thread compares its bucket with its group's, then the
 * groups' counts are summed in group order). All of it integer work, so the order is exact and
 * the same for any grid, warp width or device; no atomic decides a place (the count kernel's
 * shared atomics only count). */
#ifndef HIPREDUCE_BY_KEY_H
#define HIPREDUCE_BY_KEY_H

#include <stdint.h>

#include "hip_compat.h"

namespace hr {

enum {
    BK_THREADS = 256,
    BK_DIGITS = 256,              /* 8 bits a pass */
    BK_BUCKETS = BK_DIGITS + 1,   /* the digits, then the keys out of range */
    BK_GROUP = 32,
    BK_GROUPS = BK_THREADS / BK_GROUP,
    BK_SCAN_THREADS = 1024
};

/* One radix pass over n pairs: from the caller's keys (raw, the first pass: the row index is the
 * position) or from the previous pass's pairs (kin, rin), into kout, rout. K holds num_bins, I
 * holds length - 1. Block b takes pairs [b * per_block, (b + 1) * per_block), per_block < 2^31. */
template <class K, class I> struct bk_pass {
    const void* raw;
    int raw64; /* raw keys are int64 (else int32) */
    uint64_t num_bins;
    const K* kin;
    const I* rin;
    K* kout;
    I* rout;
    uint64_t n, per_block;
    unsigned shift, blocks;
    uint64_t* places; /* [BK_BUCKETS][blocks]: the counts, then (after bk_scan_kernel) the first places */
};

/* Pair i's key (a raw key out of range: num_bins). */
template <class K, class I> __device__ inline K bk_key(const bk_pass<K, I>& a, uint64_t i)
{
    if (!a.raw) return a.kin[i];
    const int64_t k = a.raw64 ? ((const int64_t*)a.raw)[i] : (int64_t)((const int32_t*)a.raw)[i];
    return k < 0 || (uint64_t)k >= a.num_bins ? (K)a.num_bins : (K)k;
}

/* A key's bucket in this pass: its digit, or BK_DIGITS for a key out of range. */
template <class K, class I> __device__ inline unsigned bk_bucket(const bk_pass<K, I>& a, K key)
{
    return (uint64_t)key >= a.num_bins ? (unsigned)BK_DIGITS : (unsigned)(key >> a.shift) & (BK_DIGITS - 1);
}

/* The end of the block's range that starts at `begin`. */
template <class K, class I> __device__ inline uint64_t bk_block_end(const bk_pass<K, I>& a, uint64_t begin)
{
    return begin >= a.n ? begin : a.n - begin < a.per_block ? a.n : begin + a.per_block;
}

template <class K, class I> __global__ void bk_count_kernel(bk_pass<K, I> a)
{
    HR_SHARED(counts, unsigned[BK_BUCKETS]);
    const unsigned t = threadIdx.x;
    for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS) counts[u] = 0;
    __syncthreads();
    const uint64_t begin = (uint64_t)blockIdx.x * a.per_block, end = bk_block_end(a, begin);
    for (uint64_t i = begin + t; i < end; i += BK_THREADS)
        atomicAdd(&counts[bk_bucket(a, bk_key(a, i))], 1u); /* integer counts: any order */
    __syncthreads();
    for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS) a.places[(uint64_t)u * a.blocks + blockIdx.x] = counts[u];
}

/* One block of BK_SCAN_THREADS: the exclusive running sum of `count` values in place, each thread
 * a contiguous run, the runs' sums scanned across the block (Hillis-Steele in shared memory). */
__global__ void bk_scan_kernel(uint64_t* v, uint64_t count)
{
    HR_SHARED(sums, uint64_t[BK_SCAN_THREADS]);
    const unsigned t = threadIdx.x;
    const uint64_t per = (count + BK_SCAN_THREADS - 1) / BK_SCAN_THREADS;
    const uint64_t b = t * per < count ? t * per : count, e = count - b < per ? count : b + per;
    uint64_t s = 0;
    for (uint64_t i = b; i < e; ++i) s += v[i];
    sums[t] = s;
    __syncthreads();
    for (unsigned step = 1; step < BK_SCAN_THREADS; step <<= 1) {
        const uint64_t add = t >= step ? sums[t - step] : 0;
        __syncthreads();
        sums[t] += add;
        __syncthreads();
    }
    uint64_t run = sums[t] - s; /* the runs before this thread's */
    for (uint64_t i = b; i < e; ++i) {
        const uint64_t c = v[i];
        v[i] = run;
        run += c;
    }
}

template <class K, class I> __global__ void bk_scatter_kernel(bk_pass<K, I> a)
{
    HR_SHARED(next, uint64_t[BK_BUCKETS]);             /* each bucket's next place */
    HR_SHARED(buckets, uint16_t[BK_THREADS]);          /* the tile's buckets (BK_BUCKETS: no pair) */
    HR_SHARED(group, unsigned[BK_GROUPS][BK_BUCKETS]); /* a group's pairs of a bucket, then those before it */
    HR_SHARED(total, unsigned[BK_BUCKETS]);            /* the tile's pairs of a bucket */
    const unsigned t = threadIdx.x, g = t / BK_GROUP, lane = t % BK_GROUP;
    for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS) next[u] = a.places[(uint64_t)u * a.blocks + blockIdx.x];
    const uint64_t begin = (uint64_t)blockIdx.x * a.per_block, end = bk_block_end(a, begin);
    for (uint64_t tile = begin; tile < end; tile += BK_THREADS) {
        const uint64_t i = tile + t;
        const bool valid = i < end;
        K key = 0;
        I row = 0;
        unsigned d = BK_BUCKETS;
        if (valid) {
            key = bk_key(a, i);
            row = a.raw ? (I)i : a.rin[i];
            d = bk_bucket(a, key);
        }
        buckets[t] = (uint16_t)d;
        for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS)
            for (unsigned w = 0; w < BK_GROUPS; ++w) group[w][u] = 0;
        __syncthreads();
        /* This pair's rank among its group's earlier pairs of its bucket, and the group's count. */
        unsigned before = 0, same = 0;
        for (unsigned l = 0; l < BK_GROUP; ++l)
            if (buckets[g * BK_GROUP + l] == d) {
                ++same;
                before += l < lane;
            }
        if (valid && before == 0) group[g][d] = same;
        __syncthreads();
        for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS) { /* the groups' counts -> those before each group */
            unsigned run = 0;
            for (unsigned w = 0; w < BK_GROUPS; ++w) {
                const unsigned c = group[w][u];
                group[w][u] = run;
                run += c;
            }
            total[u] = run;
        }
        __syncthreads();
        if (valid) {
            const uint64_t at = next[d] + group[g][d] + before;
            a.kout[at] = key;
            a.rout[at] = row;
        }
        __syncthreads();
        for (unsigned u = t; u < BK_BUCKETS; u += BK_THREADS) next[u] += total[u];
    }
}

/* start[b], b = 0 .. num_bins: the first sorted position whose key is b or more (the bins' CSR
 * starts; start[num_bins] counts the rows in range). */
template <class K> __global__ void bk_starts_kernel(const K* keys, uint64_t n, uint64_t num_bins, uint64_t* start)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t b = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; b <= num_bins; b += step) {
        uint64_t lo = 0, hi = n;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if ((uint64_t)keys[mid] < b) lo = mid + 1;
            else hi = mid;
        }
        start[b] = lo;
    }
}

/* The segments of the sorted copy: feature j of bin b is the run from row * start[b] + j *
 * count_b; offsets[num_bins * row] ends the last. counts[b] = count_b. */
__global__ void bk_offsets_kernel(const uint64_t* start, uint64_t num_bins, uint64_t row, uint64_t* offsets,
                                  int64_t* counts)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x, segments = num_bins * row;
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r <= segments; r += step) {
        if (r == segments) {
            offsets[r] = start[num_bins] * row;
            continue;
        }
        const uint64_t b = r / row, j = r - b * row, s = start[b], c = start[b + 1] - s;
        offsets[r] = s * row + j * c;
        if (j == 0) counts[b] = (int64_t)c;
    }
}

/* The sorted copy: value j of the row at sorted position p (bin b) goes to its place in feature
 * j's run of bin b. One thread a value, p-major: the loads follow the rows. */
template <class T, class K, class I> struct bk_gather_args {
    const T* src;
    T* dst;
    const K* keys;
    const I* rows;
    const uint64_t* start;
    uint64_t n, num_bins, row;
};

template <class T, class K, class I> __global__ void bk_gather_kernel(bk_gather_args<T, K, I> a)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x, total = a.n * a.row;
    for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < total; v += step) {
        const uint64_t p = v / a.row, j = v - p * a.row, b = (uint64_t)a.keys[p];
        if (b >= a.num_bins) continue; /* a key out of range: skipped */
        const uint64_t s = a.start[b], c = a.start[b + 1] - s;
        a.dst[s * a.row + j * c + (p - s)] = a.src[(uint64_t)a.rows[p] * a.row + j];
    }
}

/* argmin/argmax: a position in a bin's run -> the row index (-1, an empty bin's, stays). */
template <class I> __global__ void bk_indices_kernel(int64_t* index, const I* rows, const uint64_t* start,
                                                     uint64_t results, uint64_t row)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t r = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; r < results; r += step) {
        const int64_t at = index[r];
        if (at >= 0) index[r] = (int64_t)rows[start[r / row] + (uint64_t)at];
    }
}

}  // namespace hr

#endif
