/* Cheat (chapter 8a): no tree at all. Work-item 0 of each work-group scans
 * the group's block of 2 * LOCAL_SIZE elements one after the other, straight
 * from global memory; the others only help in add_sums. Hole it tries: the
 * answer is right and race-free, and add_sums is done properly. Expected:
 * active_lanes fails (one lane of a warp takes part in most memory
 * requests); local_ops_per_element and bank_conflicts have no __local
 * accesses to measure and fail too. */
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
    uint sum = 0;
    for (uint i = base; i < base + BLOCK && i < n; i++) {
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
