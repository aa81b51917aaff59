/* Chapter 8, find the bug: a block scan written after the book's
 * single-work-group listing, which scans exactly numElements values.
 *
 * Here each work-group builds its tree over the elements that exist in its
 * block: count = BLOCK for every full block and fewer for the last one. It
 * passes on 512, 1024 or 1M elements. Find the size where it fails, then
 * explain why and fix it without slowing the full blocks down.
 * Check it with:  cltutor check 8   (the chapter's tests run it too)
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[PAD(BLOCK - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint count = min((uint)BLOCK, n - base);   /* elements in this block */

    const uint a = lid, b = lid + LOCAL_SIZE;
    tree[PAD(a)] = a < count ? in[base + a] : 0;
    tree[PAD(b)] = b < count ? in[base + b] : 0;

    /* up-sweep over all BLOCK leaves: the tree needs a power-of-two number
     * of them, and the leaves past count already hold zeros */
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
        block_sums[get_group_id(0)] = tree[PAD(BLOCK - 1)];   /* the root */
        tree[PAD(BLOCK - 1)] = 0;
    }

    /* down-sweep: as many levels as the up-sweep had */
    for (uint active = 1; active <= BLOCK / 2; active <<= 1) {
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

    if (a < count) out[base + a] = tree[PAD(a)];
    if (b < count) out[base + b] = tree[PAD(b)];
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
