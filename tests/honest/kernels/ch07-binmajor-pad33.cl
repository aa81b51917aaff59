/* Chapter 7, honest variant: the copies laid out bin by bin, padded.
 *
 * The table is sub[bin][33]: 32 counters per bin, one per lane of a warp,
 * plus one padding word per bin. Bin v of lane-copy c is at v * 33 + c,
 * bank (v + c) % 32: when the 32 lanes count the same byte they hit 32
 * different banks (the padding removes the conflict of an unpadded
 * [bin][copy] table read by bin, and of [copy][256] written by bin).
 * The merge needs no skew: work-item b reads the 32 words b * 33 + c of its
 * own row, and at every step c the lanes b of a warp are in banks
 * (b + c) % 32, all different. This is the "[bin][work-item]" layout of
 * OpenCL Programming by Example with uint counters, one column per lane
 * instead of per work-item, and the chapter's padding applied to it.
 * The bytes come as uint4 with two chunks in flight; work-group size from
 * get_local_size.
 */

#define BINS 256
#define LANES 32
#define ROW (LANES + 1)

static inline void count4(__local uint *col, uint w)
{
    atomic_inc(&col[( w        & 255u) * ROW]);
    atomic_inc(&col[((w >>  8) & 255u) * ROW]);
    atomic_inc(&col[((w >> 16) & 255u) * ROW]);
    atomic_inc(&col[( w >> 24)         * ROW]);
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[BINS * ROW];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint i = lid; i < BINS * ROW; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint *col = sub + lid % LANES;     /* this lane's column */

    __global const uint4 *q = (__global const uint4 *)data;
    const uint chunks = n / 16;
    const uint g = get_global_size(0);
    uint k = get_global_id(0);
    for (; k + g < chunks; k += 2 * g) {
        const uint4 a = q[k], b = q[k + g];
        count4(col, a.s0); count4(col, a.s1); count4(col, a.s2); count4(col, a.s3);
        count4(col, b.s0); count4(col, b.s1); count4(col, b.s2); count4(col, b.s3);
    }
    if (k < chunks) {
        const uint4 a = q[k];
        count4(col, a.s0); count4(col, a.s1); count4(col, a.s2); count4(col, a.s3);
    }

    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&col[(uint)data[tail] * ROW]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        __local const uint *row = sub + b * ROW;
        uint sum = 0;
        for (uint c = 0; c < LANES; c++)
            sum += row[c];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
