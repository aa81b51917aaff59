/* Chapter 7, honest variant: XOR swizzle instead of padding.
 *
 * 32 sub-histograms, one per lane of a warp (copy lid % 32), each exactly
 * 256 words long: no padding word. Instead bin v of copy c is stored at
 * c * 256 + (v ^ c). Its bank is (v ^ c) % 32 = (v % 32) ^ c, so the 32
 * lanes that count the same byte hit 32 different banks, as with padding,
 * and the merge (work-item b reads bin b of copy c at c * 256 + (b ^ c))
 * also touches 32 different banks per warp. The bytes are read as uint4
 * through a __global const uint4 * (the buffer is 16-byte aligned and
 * zero-padded to a multiple of 16), two chunks loaded before either is
 * counted; the work-group size comes from get_local_size.
 * The XOR swizzle is the usual alternative to padding for shared-memory
 * tables (CUTLASS's swizzled layouts, for instance); written from scratch.
 */

#define BINS 256
#define COPIES 32

static inline void count4(__local uint *mine, uint c, uint w)
{
    atomic_inc(&mine[( w        & 255u) ^ c]);
    atomic_inc(&mine[((w >>  8) & 255u) ^ c]);
    atomic_inc(&mine[((w >> 16) & 255u) ^ c]);
    atomic_inc(&mine[( w >> 24)         ^ c]);
}

static inline void count16(__local uint *mine, uint c, uint4 q)
{
    count4(mine, c, q.s0);
    count4(mine, c, q.s1);
    count4(mine, c, q.s2);
    count4(mine, c, q.s3);
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint i = lid; i < COPIES * BINS; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint c = lid % COPIES;
    __local uint *mine = sub + c * BINS;

    __global const uint4 *chunks16 = (__global const uint4 *)data;
    const uint chunks = n / 16;
    const uint gsize = get_global_size(0);
    uint k = get_global_id(0);
    /* two chunks in flight per step */
    for (; k + gsize < chunks; k += 2 * gsize) {
        const uint4 a = chunks16[k];
        const uint4 b = chunks16[k + gsize];
        count16(mine, c, a);
        count16(mine, c, b);
    }
    if (k < chunks)
        count16(mine, c, chunks16[k]);

    /* the last n % 16 bytes, one per work-item; the padding is not counted */
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[(uint)data[tail] ^ c]);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* merge: work-item b adds bin b of every copy, one global atomic per bin */
    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint cc = 0; cc < COPIES; cc++)
            sum += sub[cc * BINS + (b ^ cc)];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
