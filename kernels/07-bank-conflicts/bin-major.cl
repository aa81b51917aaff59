/* Beyond chapter 7: sub-histograms laid out bin by bin, so that the bank
 * depends on the lane alone.
 *
 * The reference puts copy c at c * 257: bin v of copy c is in bank
 * (c + v) % 32. That is conflict-free when the 32 lanes of a warp count the
 * same value, but on random bytes the values differ and the banks are random:
 * two or more lanes often land in the same bank (3.5 of them on average in
 * the busiest bank), and the warp waits for each.
 *
 * Here bin v of copy c is at v * 32 + c: bank c, whatever v is. The 32 lanes
 * of a warp always hit 32 different banks, for any data. The price is paid
 * in the merge: work-item b adding up bin b reads words b * 32 + j, and for a
 * fixed j all work-items would hit bank j. So work-item b starts at copy b
 * and goes round (copy (j + b) % 32 at step j): the 32 lanes read 32 banks
 * again. Padding cannot do this job: any offset that depends on the bin
 * makes the counting banks depend on the data again. */

#define BINS 256
#define COPIES 32               /* one copy per lane of a 32-wide warp */

#define CHUNKS_PER_STEP 6

static void count_chunk(__local uint *sub, uint lane, uint4 x)
{
    const uint w[4] = {x.s0, x.s1, x.s2, x.s3};
    for (uint k = 0; k < 4; k++) {
        atomic_inc(&sub[(w[k] & 255) * COPIES + lane]);
        atomic_inc(&sub[((w[k] >> 8) & 255) * COPIES + lane]);
        atomic_inc(&sub[((w[k] >> 16) & 255) * COPIES + lane]);
        atomic_inc(&sub[(w[k] >> 24) * COPIES + lane]);
    }
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[BINS * COPIES];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    const uint lane = lid % COPIES;

    for (uint i = lid; i < BINS * COPIES; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* as in the reference: uint4 chunks, several per step, then the tail.
     * (Written as an unrolled loop followed by a loop over the remaining
     * chunks, this kernel lost the second loop's counts on PoCL 3.1; the
     * single guarded loop is right everywhere.) */
    __global const uint4 *chunk = (__global const uint4 *)data;
    const uint chunks = n / 16, step = get_global_size(0);
    for (uint c = get_global_id(0); c < chunks; c += CHUNKS_PER_STEP * step) {
        uint4 x[CHUNKS_PER_STEP];
        for (uint u = 0; u < CHUNKS_PER_STEP; u++)
            x[u] = c + u * step < chunks ? chunk[c + u * step] : (uint4)(0);
        for (uint u = 0; u < CHUNKS_PER_STEP; u++)
            if (c + u * step < chunks)
                count_chunk(sub, lane, x[u]);
    }
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&sub[data[tail] * COPIES + lane]);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* the merge, skewed: work-item b reads copy (j + b) % 32 at step j */
    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint j = 0; j < COPIES; j++)
            sum += sub[b * COPIES + (j + b) % COPIES];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
