/* Chapter 8, honest variant: adapted from GPU Gems 3, chapter 39 (Harris,
 * Sengupta, Owens, "Parallel Prefix Sum (Scan) with CUDA"), from memory.
 *
 * Differences from the obvious solution: the tree is walked the way the
 * Gems listing walks it (a level counter d that halves, an "offset" that
 * doubles, and the node pair ai = offset*(2t+1)-1, bi = offset*(2t+2)-1),
 * and the padding is the Gems CONFLICT_FREE_OFFSET with its second term,
 * n / 32 + n / 1024, which for 512 leaves equals the one-term padding but
 * stays conflict-free for trees longer than 32 * 32 leaves. (The printed
 * macro shifted by NUM_BANKS instead of LOG_NUM_BANKS; this is the fixed
 * form, with 32 banks.) As in the Gems "large arrays" version the block
 * totals are saved before the root is cleared and a uniform-add kernel adds
 * the scanned totals back; here each work-item reads its block's offset
 * directly instead of staging it through local memory.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(i) (((i) >> LOG_NUM_BANKS) + ((i) >> (2 * LOG_NUM_BANKS)))
#define CF(i) ((i) + CONFLICT_FREE_OFFSET(i))

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint temp[CF(BLOCK - 1) + 1];
    const uint thid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    const uint ai0 = thid, bi0 = thid + BLOCK / 2;
    temp[CF(ai0)] = base + ai0 < n ? in[base + ai0] : 0;
    temp[CF(bi0)] = base + bi0 < n ? in[base + bi0] : 0;

    uint offset = 1;
    for (uint d = BLOCK >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            const uint ai = offset * (2 * thid + 1) - 1;
            const uint bi = offset * (2 * thid + 2) - 1;
            temp[CF(bi)] += temp[CF(ai)];
        }
        offset <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = temp[CF(BLOCK - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (thid == 0) {
        block_sums[get_group_id(0)] = total;
        temp[CF(BLOCK - 1)] = 0;
    }

    for (uint d = 1; d < BLOCK; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (thid < d) {
            const uint ai = CF(offset * (2 * thid + 1) - 1);
            const uint bi = CF(offset * (2 * thid + 2) - 1);
            const uint t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (base + ai0 < n) out[base + ai0] = temp[CF(ai0)];
    if (base + bi0 < n) out[base + bi0] = temp[CF(bi0)];
}

/* uniformAdd: block g's offset added to the two elements of each work-item */
__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint g = get_group_id(0);
    const uint uni = block_offsets[g];
    const uint i = g * BLOCK + get_local_id(0);
    if (i < n) data[i] += uni;
    if (i + LOCAL_SIZE < n) data[i + LOCAL_SIZE] += uni;
}
