/* Chapter 8 variant: the textbook Blelloch scan with two elements per
 * work-item (blocks of 2 * LOCAL_SIZE) and no bank-conflict padding: the tree's
 * middle levels hit one bank many times over.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tree[BLOCK];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint a = lid, b = lid + LOCAL_SIZE;
    tree[a] = base + a < n ? in[base + a] : 0;
    tree[b] = base + b < n ? in[base + b] : 0;

    uint stride = 1;
    for (uint active = BLOCK / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[left + stride] += tree[left];
        }
        stride <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[BLOCK - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[BLOCK - 1] = 0;
    }
    for (uint active = 1; active < BLOCK; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint t = tree[left];
            tree[left] = tree[left + stride];
            tree[left + stride] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (base + a < n) out[base + a] = tree[a];
    if (base + b < n) out[base + b] = tree[b];
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
