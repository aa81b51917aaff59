/* Chapter 8, honest variant: 16 elements per work-item, staged through
 * local memory with an XOR swizzle instead of padding.
 *
 * A block is 16 * LOCAL_SIZE = 4096 elements. The work-items move it in and
 * out as uint4s, consecutive work-items on consecutive uint4s (coalesced),
 * through a 4096-word local tile; in between, work-item t scans its own 16
 * consecutive elements (words 16 t .. 16 t + 15) serially in registers and
 * the Blelloch tree (padded, PAD(i) = i + i / 32) scans the 256 work-items'
 * totals. The tile has no padding word: word i is stored at
 * i ^ ((i >> 5) & 15), an XOR of its 32-word row number into its column.
 * Scattering a uint4 (lane t: words 4 t .. 4 t + 3 of its warp's 128)
 * then hits banks (4 (t % 8) + c) ^ (t / 8 + const): 32 different ones,
 * and reading its 16 elements (lane t: word 16 t + k) hits banks
 * (16 (t % 2) + k) ^ (t / 2): 32 different ones too, for every k.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define ELEMS 16
#define BLOCK (ELEMS * LOCAL_SIZE)
#define QUADS_PER_ITEM (ELEMS / 4)
#define SWZ(i) ((i) ^ (((i) >> 5) & 15u))
#define PAD(i) ((i) + ((i) >> 5))

__kernel void block_size(__global uint *size)
{
    *size = BLOCK;
}

static inline uint4 load_quad(__global const uint *in, uint i, uint n)
{
    if (i + 3 < n)
        return ((__global const uint4 *)in)[i >> 2];
    uint4 v = (uint4)(0);
    if (i < n)     v.s0 = in[i];
    if (i + 1 < n) v.s1 = in[i + 1];
    if (i + 2 < n) v.s2 = in[i + 2];
    return v;
}

static inline void store_quad(__global uint *out, uint i, uint n, uint4 v)
{
    if (i + 3 < n) {
        ((__global uint4 *)out)[i >> 2] = v;
        return;
    }
    if (i < n)     out[i] = v.s0;
    if (i + 1 < n) out[i + 1] = v.s1;
    if (i + 2 < n) out[i + 2] = v.s2;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint tile[BLOCK];
    __local uint tree[PAD(LOCAL_SIZE - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;

    /* in: coalesced uint4s, scattered into the swizzled tile */
    for (uint j = 0; j < QUADS_PER_ITEM; j++) {
        const uint e = 4 * (lid + j * LOCAL_SIZE);
        const uint4 v = load_quad(in, base + e, n);
        tile[SWZ(e)] = v.s0;
        tile[SWZ(e + 1)] = v.s1;
        tile[SWZ(e + 2)] = v.s2;
        tile[SWZ(e + 3)] = v.s3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* own 16 consecutive elements: inclusive scan in registers */
    uint x[ELEMS];
    const uint first = ELEMS * lid;
    uint run = 0;
    for (uint k = 0; k < ELEMS; k++) {
        run += tile[SWZ(first + k)];
        x[k] = run;
    }
    tree[PAD(lid)] = run;

    /* Blelloch over the LOCAL_SIZE totals */
    uint stride = 1;
    for (uint active = LOCAL_SIZE / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LOCAL_SIZE - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[PAD(LOCAL_SIZE - 1)] = 0;
    }
    for (uint active = 1; active < LOCAL_SIZE; active <<= 1) {
        stride >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = PAD(stride * (2 * lid + 1) - 1);
            const uint right = PAD(stride * (2 * lid + 2) - 1);
            const uint t = tree[left];
            tree[left] = tree[right];
            tree[right] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* exclusive prefixes back into the tile (each work-item its own words) */
    const uint prefix = tree[PAD(lid)];
    tile[SWZ(first)] = prefix;
    for (uint k = 1; k < ELEMS; k++)
        tile[SWZ(first + k)] = prefix + x[k - 1];
    barrier(CLK_LOCAL_MEM_FENCE);

    /* out: coalesced uint4s */
    for (uint j = 0; j < QUADS_PER_ITEM; j++) {
        const uint e = 4 * (lid + j * LOCAL_SIZE);
        const uint4 v = (uint4)(tile[SWZ(e)], tile[SWZ(e + 1)],
                                tile[SWZ(e + 2)], tile[SWZ(e + 3)]);
        store_quad(out, base + e, n, v);
    }
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint g = get_group_id(0);
    const uint off = block_offsets[g];
    for (uint j = 0; j < QUADS_PER_ITEM; j++) {
        const uint i = g * BLOCK + 4 * (get_local_id(0) + j * LOCAL_SIZE);
        store_quad(data, i, n, load_quad(data, i, n) + off);
    }
}
