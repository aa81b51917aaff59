/* Cheat (chapter 8b): a scan in local memory, but Hillis and Steele's naive
 * one: at every distance 1, 2, 4, ... each element adds the one that far
 * before it, log2(BLOCK) rounds over the whole block (n log n additions
 * instead of Blelloch's 2n). Hole it tries: a check that asks for local
 * memory, barriers and a correct scan. Expected: local_ops_per_element fails
 * (about 3 __local accesses per element per round, 9 rounds). */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint buf[BLOCK];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint a = lid, b = lid + LOCAL_SIZE;
    const uint va = base + a < n ? in[base + a] : 0;
    const uint vb = base + b < n ? in[base + b] : 0;
    buf[a] = va;
    buf[b] = vb;

    /* inclusive scan: read both partners, wait, then add */
    for (uint d = 1; d < BLOCK; d <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint ta = a >= d ? buf[a - d] : 0;
        const uint tb = b >= d ? buf[b - d] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        buf[a] += ta;
        buf[b] += tb;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        block_sums[get_group_id(0)] = buf[BLOCK - 1];
    /* exclusive = inclusive - the element itself */
    if (base + a < n) out[base + a] = buf[a] - va;
    if (base + b < n) out[base + b] = buf[b] - vb;
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
