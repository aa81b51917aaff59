/* Chapter 8 reference: exclusive scan of uint values (modulo 2^32) with
 * Blelloch's work-efficient up-sweep and down-sweep in local memory.
 *
 * scan_blocks: each work-group scans one block of 2 * LOCAL_SIZE elements
 *              and writes the block's total to block_sums[group].
 * add_sums:    adds the scanned block totals back: element i of block g gets
 *              block_offsets[g], the sum of every block before g.
 * The host runs scan_blocks on the data, again on the block totals (and on
 * their totals, ...) until one block is left, then add_sums back down. */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

/* 32 banks of 4 bytes. One spare word after every 32 puts the addresses the
 * tree touches at the same step (multiples of a power of two) in different
 * banks: index i is stored at PAD(i). */
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[PAD(BLOCK - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    /* Each work-item loads two elements LOCAL_SIZE apart, so neighbouring
     * work-items read neighbouring addresses. Past the end of the data the
     * block is filled with zeros: the tree always has BLOCK leaves. */
    const uint a = lid, b = lid + LOCAL_SIZE;
    tree[PAD(a)] = base + a < n ? in[base + a] : 0;
    tree[PAD(b)] = base + b < n ? in[base + b] : 0;

    /* Up-sweep: each level adds the left child into the right one. After it
     * the last leaf holds the block's total. */
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
    if (lid == 0) {
        block_sums[get_group_id(0)] = tree[PAD(BLOCK - 1)];
        tree[PAD(BLOCK - 1)] = 0;   /* the exclusive prefix of the whole block */
    }

    /* Down-sweep: each node hands its prefix to its left child and
     * prefix + left sum to its right child. */
    for (uint active = 1; active < BLOCK; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint right = left + stride;
            const uint t = tree[PAD(left)];
            tree[PAD(left)] = tree[PAD(right)];
            tree[PAD(right)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (base + a < n) out[base + a] = tree[PAD(a)];
    if (base + b < n) out[base + b] = tree[PAD(b)];
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    const uint offset = block_offsets[get_group_id(0)];
    const uint a = base + get_local_id(0), b = a + LOCAL_SIZE;
    if (a < n) data[a] += offset;
    if (b < n) data[b] += offset;
}
