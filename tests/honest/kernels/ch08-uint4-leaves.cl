/* Chapter 8, honest variant: every leaf of the Blelloch tree is a uint4.
 *
 * The exercise's tree of 2 * LOCAL_SIZE leaves (leaves lid and
 * lid + LOCAL_SIZE per work-item, padded with PAD(i) = i + i / 32) is kept,
 * but a leaf is no longer one element: it is four consecutive elements that
 * the work-item loads as one uint4 (consecutive work-items, consecutive
 * uint4s: coalesced, no trip through local memory) and scans in registers
 * first. The tree scans the 512 quad totals, and each work-item adds its
 * leaf's prefix to its quad's own prefixes. A block is 8 * LOCAL_SIZE =
 * 2048 elements, which block_size tells the host; 64M elements need 32768,
 * then 16, then 1 block. add_sums adds the offsets in whole uint4s too.
 * Partial quads at the end of the data are read and written element by
 * element, so nothing past n is touched.
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define LEAVES (2 * LOCAL_SIZE)
#define BLOCK (4 * LEAVES)
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
    __local uint tree[PAD(LEAVES - 1) + 1];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint ia = base + 4 * lid, ib = base + 4 * (lid + LOCAL_SIZE);

    /* inclusive scan of each quad in registers */
    uint4 a = load_quad(in, ia, n), b = load_quad(in, ib, n);
    a.s1 += a.s0; a.s2 += a.s1; a.s3 += a.s2;
    b.s1 += b.s0; b.s2 += b.s1; b.s3 += b.s2;
    tree[PAD(lid)] = a.s3;
    tree[PAD(lid + LOCAL_SIZE)] = b.s3;

    uint stride = 1;
    for (uint active = LEAVES / 2; active > 0; active >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < active) {
            const uint left = stride * (2 * lid + 1) - 1;
            tree[PAD(left + stride)] += tree[PAD(left)];
        }
        stride <<= 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint total = tree[PAD(LEAVES - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        block_sums[get_group_id(0)] = total;
        tree[PAD(LEAVES - 1)] = 0;
    }
    for (uint active = 1; active < LEAVES; active <<= 1) {
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

    /* exclusive: the leaf's prefix, then the quad's inclusive sums shifted */
    const uint pa = tree[PAD(lid)], pb = tree[PAD(lid + LOCAL_SIZE)];
    store_quad(out, ia, n, (uint4)(pa, pa + a.s0, pa + a.s1, pa + a.s2));
    store_quad(out, ib, n, (uint4)(pb, pb + b.s0, pb + b.s1, pb + b.s2));
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint g = get_group_id(0);
    const uint off = block_offsets[g];
    const uint lid = get_local_id(0);
    const uint ia = g * BLOCK + 4 * lid, ib = g * BLOCK + 4 * (lid + LOCAL_SIZE);
    store_quad(data, ia, n, load_quad(data, ia, n) + off);
    store_quad(data, ib, n, load_quad(data, ib, n) + off);
}
