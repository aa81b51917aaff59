/* Chapter 8 variant: Hillis-Steele instead of Blelloch: blocks of 2 * LOCAL_SIZE,
 * an inclusive double-buffered (ping-pong) scan in unpadded local memory, each
 * work-item moving two elements per step; exclusive = shifted by one on output.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint buf[2][BLOCK];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint a = lid, b = lid + LOCAL_SIZE;
    buf[0][a] = base + a < n ? in[base + a] : 0;
    buf[0][b] = base + b < n ? in[base + b] : 0;
    uint src = 0;
    for (uint offset = 1; offset < BLOCK; offset <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint dst = 1 - src;
        buf[dst][a] = a >= offset ? buf[src][a] + buf[src][a - offset] : buf[src][a];
        buf[dst][b] = b >= offset ? buf[src][b] + buf[src][b - offset] : buf[src][b];
        src = dst;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        block_sums[get_group_id(0)] = buf[src][BLOCK - 1];
    if (base + a < n) out[base + a] = a == 0 ? 0 : buf[src][a - 1];
    if (base + b < n) out[base + b] = buf[src][b - 1];
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
