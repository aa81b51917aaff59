/* Chapter 8 variant: no parallel tree at all: work-item 0 of each group scans
 * the whole block of 2 * LOCAL_SIZE elements serially from global memory while
 * the others wait (slow but correct); add_sums is the plain two-per-item form.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    if (get_local_id(0) != 0)
        return;
    const uint end = min(base + BLOCK, n);
    uint sum = 0;
    for (uint i = base; i < end; i++) {
        const uint x = in[i];
        out[i] = sum;
        sum += x;
    }
    block_sums[get_group_id(0)] = sum;
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
