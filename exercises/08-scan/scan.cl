/* Chapter 8 exercise: exclusive scan with Blelloch's up-sweep and down-sweep.
 *
 * out[i] = in[0] + ... + in[i-1] (modulo 2^32), out[0] = 0.
 * scan_blocks scans one block of 2 * LOCAL_SIZE elements per work-group in
 * local memory; add_sums adds the scanned block totals back. The host calls
 * scan_blocks on your data, then on the block totals (and on their totals,
 * ...) until one block is left, then add_sums back down.
 *
 * As given, the up-sweep (a reduction tree, as in chapter 7's merge) is done
 * and everything after it is missing: `cltutor check 8` shows element 0
 * holding its own value instead of 0.   Run it with:  cltutor run 8
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

/* TODO 3 (speed): at the middle levels of the tree the work-items of one
 * warp touch addresses a multiple of 32 words apart: all in one of the 32
 * banks. Rewrite PAD so that the tree skips one word after every 32 words
 * of the block; every access already goes through PAD, and the array is
 * sized with it. Correctness must not change. */
#define PAD(i) (i)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[PAD(BLOCK - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    /* two elements per work-item, LOCAL_SIZE apart; zeros past the end */
    const uint a = lid, b = lid + LOCAL_SIZE;
    tree[PAD(a)] = base + a < n ? in[base + a] : 0;
    tree[PAD(b)] = base + b < n ? in[base + b] : 0;

    /* up-sweep: after it the last leaf holds the block's total */
    uint stride = 1;
    for (uint active = BLOCK / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint right = left + stride;
            tree[PAD(right)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* TODO 2a: one work-item saves the block's total (the last leaf) in
     * block_sums[get_group_id(0)] for the next level ...
     * TODO 1a: ... and clears the last leaf: the root of the down-sweep is 0. */

    /* TODO 1b: the down-sweep. Walk the tree back down (active = 1, 2, 4, ...
     * while active < BLOCK, halving stride first at each level, with a
     * barrier before each level). Node pair (left, right) as above: the left
     * child gets the right one's value, the right one gets both added. */

    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + a < n) out[base + a] = tree[PAD(a)];
    if (base + b < n) out[base + b] = tree[PAD(b)];
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    /* TODO 2b: block_offsets[g] is the sum of every block before block g.
     * Add it to the two elements of this work-item's block that
     * scan_blocks wrote (base + lid and base + lid + LOCAL_SIZE, each < n). */
}
