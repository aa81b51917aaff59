/* Chapter 8, honest variant: a raking scan. Written as an attempted cheat
 * (a scan with no Blelloch tree), kept here because it costs what the
 * reference costs. Each work-item scans its own 16 elements serially (as the
 * reference does), work-item 0 alone then scans the 256 work-items' totals
 * one after the other in local memory while the others wait at a barrier,
 * and every work-item adds its offset: the "raking" design, where one lane
 * rakes the totals serially instead of a tree over them. The reference's
 * block of 4096 elements, its coalesced, padded trips through local memory
 * and its add_sums are kept.
 * Why it is honest: the serial part is 256 local reads and adds once per
 * 4096 elements; the model counts the same memory traffic as the
 * reference's (cost 1), and on an NVIDIA H200 (driver 580.159.04,
 * 2026-11-27) at 64M it took 0.323 ms against the reference's 0.318 ms.
 * By the verdict's rule (a kernel that costs a GPU what the reference costs
 * passes) it must pass the whole chapter. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#ifndef ELEMENTS
#define ELEMENTS 16              /* per work-item: a power of two, at least 4 */
#endif
#define BLOCK (ELEMENTS * LOCAL_SIZE)

/* 32 banks of 4 bytes. One spare word after every 32 puts the addresses the
 * tree touches at the same step (multiples of a power of two) in different
 * banks: index i is stored at PAD(i). */
#define LOG_BANKS 5
#define PAD(i) ((i) + ((i) >> LOG_BANKS))

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
    __local uint totals[LOCAL_SIZE];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    load_block(in, base, n, block, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint first = lid * ELEMENTS;
    uint v[ELEMENTS];
    for (uint k = 0; k < ELEMENTS; k++)
        v[k] = block[PAD(first + k)];

    /* the serial exclusive scan of this work-item's elements */
    uint sum = 0;
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint x = v[k];
        v[k] = sum;
        sum += x;
    }
    totals[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* no tree: one work-item scans the LOCAL_SIZE totals, one after the other */
    if (lid == 0) {
        uint run = 0;
        for (uint t = 0; t < LOCAL_SIZE; t++) {
            const uint x = totals[t];
            totals[t] = run;
            run += x;
        }
        block_sums[get_group_id(0)] = run;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint prefix = totals[lid];      /* the sum of the block before this work-item */

    for (uint k = 0; k < ELEMENTS; k++)
        block[PAD(first + k)] = v[k] + prefix;
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
