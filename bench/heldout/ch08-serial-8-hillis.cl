/* Chapter 8 variant: 8 consecutive elements per work-item (blocks of 2048) read
 * one word at a time straight from global memory (uncoalesced), a serial scan
 * in registers, then a Hillis-Steele scan of the 256 totals in local memory.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define ELEMENTS 8
#define BLOCK (ELEMENTS * LOCAL_SIZE)

__kernel void block_size(__global uint *size)
{
    size[0] = BLOCK;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint sums[2][LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint first = base + lid * ELEMENTS;
    uint v[ELEMENTS];
    uint sum = 0;
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint x = first + k < n ? in[first + k] : 0;
        v[k] = sum;
        sum += x;
    }
    sums[0][lid] = sum;
    uint src = 0;
    for (uint offset = 1; offset < LOCAL_SIZE; offset <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint t = sums[src][lid];
        sums[1 - src][lid] = lid >= offset ? t + sums[src][lid - offset] : t;
        src = 1 - src;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint inclusive = sums[src][lid];
    const uint prefix = inclusive - sum;
    if (lid == LOCAL_SIZE - 1)
        block_sums[get_group_id(0)] = inclusive;
    for (uint k = 0; k < ELEMENTS; k++)
        if (first + k < n)
            out[first + k] = v[k] + prefix;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    const uint offset = block_offsets[get_group_id(0)];
    const uint first = base + get_local_id(0) * ELEMENTS;
    for (uint k = 0; k < ELEMENTS; k++)
        if (first + k < n)
            data[first + k] += offset;
}
