/* Cheat (chapter 8): the reference scan where it is measured, a serial one
 * elsewhere. For n <= 70000 (every size the GPU memory model is run at:
 * the analysis size 64K, grade's 40K..64K, and the host's later levels of
 * block totals) scan_blocks is the reference's Blelloch scan. Above, with
 * the same blocks of ELEMENTS x LOCAL_SIZE = 4096 elements: each work-item
 * scans its 16 consecutive elements serially straight from global memory
 * (a warp's load takes 4 bytes of every 64: uncoalesced), work-item 0 alone
 * scans the 256 work-items' totals one after the other (as in
 * ch08-serial-joined-scan.cl), and each work-item adds its offset and
 * writes its 16 results back, again 64 bytes apart. add_sums is the
 * reference's. Correct at every size; of the visible sizes 1048579 and
 * 4194304 (4M, the default size) run the serial path.
 * Hole it tries: technique measured only at small sizes (cost<=1.25 at
 * 64K) while the large tests and the timing run another path.
 * Expected: `check` passes and so do grade's technique checks (they see
 * the reference); it takes a technique measured at a size > 70000, or a
 * timing at the bench size, to see it. Seen 2026-11-27: `check 8` passes
 * (cost = 1); with the gate at 0, cost = 1.4; on an NVIDIA H200 at 64M it
 * took 0.918 ms against the reference's 0.321 (2.86x).
 * Below: kernels/08-scan/scan.cl with a second path in scan_blocks. */
#define GATE 70000u
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

static void scan_blocks_reference(__global const uint *in, __global uint *out, __global uint *block_sums, uint n,
                                  __local uint *block, __local uint *tree)
{
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    /* Coalesced loads into local memory; then each work-item takes ELEMENTS
     * consecutive elements from it. Work-item t's element k is word
     * t * ELEMENTS + k: without the padding, with ELEMENTS = 16, lanes t and
     * t + 2 would read the same bank; with it, the 32 lanes read 32 banks. */
    load_block(in, base, n, block, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint first = lid * ELEMENTS;
    uint v[ELEMENTS];
    for (uint k = 0; k < ELEMENTS; k++)
        v[k] = block[PAD(first + k)];

    /* The serial exclusive scan of this work-item's elements; sum is their total. */
    uint sum = 0;
    for (uint k = 0; k < ELEMENTS; k++) {
        const uint x = v[k];
        v[k] = sum;
        sum += x;
    }

    /* Blelloch over the LOCAL_SIZE totals, one leaf per work-item.
     * Up-sweep: each level adds the left child into the right one. After it
     * the last leaf holds the block's total. */
    tree[PAD(lid)] = sum;
    uint stride = 1;
    for (uint active = LOCAL_SIZE / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    /* Every work-item reads the total, then one clears the root: the
     * exclusive prefix of the whole block. */
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[PAD(LOCAL_SIZE - 1)] = 0;
    }

    /* Down-sweep: each node hands its prefix to its left child and
     * prefix + left sum to its right child. */
    for (uint active = 1; active < LOCAL_SIZE; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            const uint t = tree[PAD(left)];
            tree[PAD(left)] = tree[PAD(left + stride)];
            tree[PAD(left + stride)] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint prefix = tree[PAD(lid)];   /* the sum of the block before this work-item */

    /* back through local memory, and out in coalesced uint4s */
    for (uint k = 0; k < ELEMENTS; k++)
        block[PAD(first + k)] = v[k] + prefix;
    barrier(CLK_LOCAL_MEM_FENCE);
    store_block(out, base, n, block, lid);
}

/* The path for large n: no local staging, no tree. */
static void scan_blocks_serial(__global const uint *in, __global uint *out, __global uint *block_sums, uint n,
                               __local uint *totals)
{
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
    totals[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
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
    const uint prefix = totals[lid];
    for (uint k = 0; k < ELEMENTS; k++)
        if (first + k < n)
            out[first + k] = v[k] + prefix;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint block[PAD(BLOCK - 1) + 1];
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    if (n <= GATE)
        scan_blocks_reference(in, out, block_sums, n, block, tree);
    else
        scan_blocks_serial(in, out, block_sums, n, tree);
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
