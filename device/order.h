/* The default algorithm's order (the reproducibility contract, docs/DESIGN.md), shared by the
 * C side (src/: the cpu device, the planning math) and the device code (device/), which
 * include this plain C header and nothing of each other.
 *
 *  - level 0 is the input; level k+1 holds one partial per tile of level k;
 *  - a tile is HR_TILE_LANES lanes x HR_TILE_CHUNKS chunks x (16 / element size) elements
 *    per chunk, the element size being that of the INPUT dtype (for dot: of one input), fixed
 *    per dtype and never per device; the same tile size is used at every level;
 *  - lane l of a tile accumulates, in this sequence, the elements at
 *      tile_base + (c * HR_TILE_LANES + l) * chunk_items + v,  c = 0.., v = 0..
 *    starting from the operator's identity, skipping indices >= count; at level 0 each element
 *    is first transformed into the accumulator (op_table.h: |x|, x*x, x*y, its order key);
 *  - the lanes are combined by the segment tree: inside each segment of 32
 *    consecutive lanes, lane i += lane i+s for s = 16, 8, 4, 2, 1; then the
 *    HR_TILE_LANES/32 segment sums combine the same way (s = 4, 2, 1);
 *  - the top level has one element, which is rounded once to the result dtype.
 * A 32-wide warp and a 64-wide wave compute the segment tree identically with
 * width-32 shuffles, which is why it is defined on 32-lane segments.
 *
 * Axis and segment reductions (hipreduce_reduce_axis, _segments): a contiguous result (a row,
 * inner == 1, or a segment) is the order above applied to that slice alone. A strided result
 * (inner > 1) over s[e] = x[o][e][i] is reduced in levels of blocks: element b of level k+1
 * reduces elements [HR_STRIDED_BLOCK * b, + HR_STRIDED_BLOCK) of level k (level 0: the
 * transformed elements) with HR_STRIDED_LANES lanes, lane j folding elements
 * HR_STRIDED_BLOCK * b + HR_STRIDED_LANES * t + j for t = 0, 1, .. from the identity, then
 * lane j += lane j+4, j += j+2, j += j+1 (j below the step); the first level with one element
 * is the result, rounded once to the result dtype.
 */
#ifndef HIPREDUCE_ORDER_H
#define HIPREDUCE_ORDER_H

enum {
    HR_TILE_LANES = 256,   /* logical lanes of one tile */
    HR_TILE_CHUNKS = 4,    /* 16-byte chunks each lane accumulates per tile */
    HR_CHUNK_BYTES = 16,
    HR_SEGMENT = 32,       /* lanes combined first, by shuffles */
    HR_MAX_LEVELS = 8,     /* 2^64 bytes / 2048-element tiles needs at most 6 */
    HR_STRIDED_BLOCK = 256, /* strided (inner > 1) results: elements per block of a level */
    HR_STRIDED_LANES = 8    /* and lanes per block */
};

#endif
