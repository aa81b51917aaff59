/* Chapter 8 reference: exclusive scan of uint values (modulo 2^32) with
 * Blelloch's work-efficient up-sweep and down-sweep in local memory.
 *
 * scan_blocks: each work-group scans one block of BLOCK elements and writes
 *              the block's total to block_sums[group]. Each work-item takes
 *              ELEMENTS consecutive elements: it scans them one after the
 *              other in registers, and the tree scans the work-items' totals.
 * add_sums:    adds the scanned block totals back: element i of block g gets
 *              block_offsets[g], the sum of every block before g.
 * block_size:  tells the host how many elements one work-group scans.
 * The host runs scan_blocks on the data, again on the block totals (and on
 * their totals, ...) until one block is left, then add_sums back down. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 16              /* per work-item, a multiple of 4 */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)
#define QUADS (ELEMENTS / 4)     /* uint4 loads per work-item */

/* 32 banks of 4 bytes. One spare word after every 32 puts the addresses the
 * tree touches at the same step (multiples of a power of two) in different
 * banks: index i is stored at PAD(i). */
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

/* The host asks this kernel for the block size. A file without it scans
 * blocks of 2 * LOCAL_SIZE, two elements per work-item, as the exercise does. */
__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const uint first = get_group_id(0) * BLOCK + lid * ELEMENTS;
    const int whole = first + ELEMENTS <= n;   /* all of this work-item's elements exist */

    /* Load ELEMENTS consecutive elements: whole uint4s where they all exist
     * (the buffer starts 16-byte aligned and first is a multiple of 4),
     * one at a time at the end of the data, zeros past it. */
    uint v[ELEMENTS];
    if (whole) {
        __global const uint4 *in4 = (__global const uint4 *)(in + first);
        for (uint q = 0; q < QUADS; q++) {
            const uint4 x = in4[q];
            v[4 * q] = x.s0; v[4 * q + 1] = x.s1; v[4 * q + 2] = x.s2; v[4 * q + 3] = x.s3;
        }
    } else {
        for (uint k = 0; k < ELEMENTS; k++)
            v[k] = first + k < n ? in[first + k] : 0;
    }

    /* The serial exclusive scan of this work-item's elements; sum is their total. */
    uint sum = 0;
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint x = v[k];
        v[k] = sum;
        sum += x;
    }

    /* Blelloch over the LOCAL_SIZE totals, one leaf per work-item.
     * Up-sweep: each level adds the left child into the right one. After it
     * the last leaf holds the block's total. */
    tree[PAD(lid)] = sum;
    uint stride = 1;
    for (uint active = LOCAL_SIZE / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    /* Every work-item reads the total, then one clears the root: the
     * exclusive prefix of the whole block. */
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[PAD(LOCAL_SIZE - 1)] = 0;
    }

    /* Down-sweep: each node hands its prefix to its left child and
     * prefix + left sum to its right child. */
    for (uint active = 1; active < LOCAL_SIZE; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint t = tree[PAD(left)];
            tree[PAD(left)] = tree[PAD(left + stride)];
            tree[PAD(left + stride)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint prefix = tree[PAD(lid)];   /* the sum of the block before this work-item */

    if (whole) {
        __global uint4 *out4 = (__global uint4 *)(out + first);
        for (uint q = 0; q < QUADS; q++)
            out4[q] = (uint4)(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]) + prefix;
    } else {
        for (uint k = 0; k < ELEMENTS; k++)
            if (first + k < n)
                out[first + k] = v[k] + prefix;
    }
}

/* One work-group per block: consecutive work-items add the offset to
 * consecutive uint4s (coalesced), then the last n % 4 elements one by one. */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    const uint offset = block_offsets[get_group_id(0)];
    const uint count = min((uint)BLOCK, n - base);   /* elements in this block */
    __global uint4 *data4 = (__global uint4 *)(data + base);
    for (uint q = get_local_id(0); q < count / 4; q += LOCAL_SIZE)
        data4[q] += offset;
    const uint i = count / 4 * 4 + get_local_id(0);
    if (i < count)
        data[base + i] += offset;
}
