/* Deliberately slow (chapter 8, for the time prediction's validation):
 * chapter 8's reference with the scan of the block in local memory done by
 * Hillis and Steele's method instead of a serial scan per work-item and a
 * Blelloch tree: the block is loaded and stored as before, but then each of
 * log2(BLOCK) = 12 steps adds, for every element, the element d before it,
 * from one local buffer into the other (double-buffered), a barrier after
 * each step. That is 12 x BLOCK additions where the reference does about
 * 2 x BLOCK, and three local accesses per element and step: many more bank
 * passes and barriers. Correct, just slow.
 *
 * Chapter 8 reference: exclusive scan of uint values (modulo 2^32) with
 * Blelloch's work-efficient up-sweep and down-sweep in local memory.
 *
 * scan_blocks: each work-group scans one block of BLOCK elements and writes
 *              the block's total to block_sums[group]. Each work-item takes
 *              ELEMENTS elements, LOCAL_SIZE apart, through the scan's
 *              steps (here Hillis-Steele's; see above).
 *              The block goes through local memory on the way in and out, so
 *              that global memory is read and written in coalesced uint4s.
 * add_sums:    adds the scanned block totals back: element i of block g gets
 *              block_offsets[g], the sum of every block before g.
 * block_size:  tells the host how many elements one work-group scans.
 * The host runs scan_blocks on the data, again on the block totals (and on
 * their totals, ...) until one block is left, then add_sums back down. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 16              /* per work-item: a power of two, at least 4 */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)

/* No padding: every access of this scan goes to consecutive words across a
 * warp, so it has no bank conflicts without it. (With the reference's spare
 * word after every 32, the reads d < 32 words back would straddle one:
 * 2-way conflicts.) */
#define PAD(i) (i)

/* The host asks this kernel for the block size. A file without it scans
 * blocks of 2 * LOCAL_SIZE, two elements per work-item, as the exercise does. */
__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

/* Moves a block between global and local memory in whole uint4s, work-item
 * lid taking uint4s lid, lid + LOCAL_SIZE, ... (coalesced: a warp reads 512
 * contiguous bytes), one element at a time past the end of the data. Local
 * word i is at PAD(i). The four words of a uint4 stay together (i is a
 * multiple of 4, and PAD only skips a word after every 32), and lane t's
 * words 4t..4t+3 land in banks 4t + t/8 + 0..3: all different across the
 * 32 lanes. */
static void load_block(__global const uint *in, uint base, uint n, __local uint *block, uint lid)
{
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q;
        uint4 x;
        if (base + i + 4 <= n)
            x = ((__global const uint4 *)(in + base))[q];
        else
            x = (uint4)(base + i < n ? in[base + i] : 0, base + i + 1 < n ? in[base + i + 1] : 0,
                        base + i + 2 < n ? in[base + i + 2] : 0, base + i + 3 < n ? in[base + i + 3] : 0);
        vstore4(x, 0, block + PAD(i));
    }
}

static void store_block(__global uint *out, uint base, uint n, __local const uint *block, uint lid)
{
    for (uint q = lid; q < BLOCK / 4; q += LOCAL_SIZE) {
        const uint i = 4 * q;
        const uint4 x = vload4(0, block + PAD(i));
        if (base + i + 4 <= n) {
            ((__global uint4 *)(out + base))[q] = x;
        } else {
            if (base + i < n) out[base + i] = x.s0;
            if (base + i + 1 < n) out[base + i + 1] = x.s1;
            if (base + i + 2 < n) out[base + i + 2] = x.s2;
        }
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint block[PAD(BLOCK - 1) + 1];
    __local uint other[PAD(BLOCK - 1) + 1];   /* Hillis-Steele's second buffer */
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    /* Coalesced loads into local memory; work-item lid then keeps elements
     * lid, lid + LOCAL_SIZE, ... for the exclusive result at the end. */
    load_block(in, base, n, block, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v[ELEMENTS];
    for (uint k = 0; k < ELEMENTS; k++)
        v[k] = block[PAD(lid + k * LOCAL_SIZE)];

    /* Hillis-Steele: at step d every element adds the element d before it,
     * reading one buffer and writing the other; after the last step src
     * holds the inclusive scan of the block. */
    __local uint *src = block, *dst = other;
    for (uint d = 1; d < BLOCK; d <<= 1) {
        for (uint k = 0; k < ELEMENTS; k++) {
            const uint i = lid + k * LOCAL_SIZE;
            uint x = src[PAD(i)];
            if (i >= d)
                x += src[PAD(i - d)];
            dst[PAD(i)] = x;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *t = src;
        src = dst;
        dst = t;
    }
    /* The block's total is the last inclusive sum: the work-item that owns
     * it reads it, before it overwrites it below. */
    if (lid == LOCAL_SIZE - 1)
        block_sums[get_group_id(0)] = src[PAD(BLOCK - 1)];

    /* exclusive: each inclusive sum less its own element, into block, and
     * out in coalesced uint4s */
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint i = lid + k * LOCAL_SIZE;
        block[PAD(i)] = src[PAD(i)] - v[k];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    store_block(out, base, n, block, lid);
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
