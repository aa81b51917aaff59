/* Chapter 7 exercise: a 256-bin byte histogram with local sub-histograms.
 *
 * histogram[v] = how many of the n bytes equal v. The host clears histogram
 * before each run and starts groups of 128 work-items: about one work-item
 * per 512 bytes, but at most 4 groups per compute unit, so each work-item
 * strides over the data until it runs out.
 *
 * As given, each work-group counts into ONE histogram in local memory and
 * never hands its counts on: `cltutor check 7` reports every count lost.
 * Do TODO 3 first (correct), then TODO 1 and 2 (fast on a GPU).
 * Run it with:  cltutor run 7
 */

#define BINS 256
/* TODO 1: one sub-histogram per lane of a warp: COPIES 32 (and size sub[]
 * with COPIES * STRIDE; work-item lid counts into copy lid % COPIES). */
#define COPIES 1
/* TODO 2: pad each copy by one word (STRIDE 257) so that bin v of copy c is
 * in bank (c + v) % 32 instead of v % 32 for every copy. */
#define STRIDE BINS

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * STRIDE];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint i = lid; i < COPIES * STRIDE; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint *mine = sub + (lid % COPIES) * STRIDE;

    /* whole 16-byte chunks, coalesced, striding over the NDRange */
    const uint chunks = n / 16;
    for (uint c = get_global_id(0); c < chunks; c += get_global_size(0)) {
        const uchar16 v = vload16(c, data);
        atomic_inc(&mine[v.s0]); atomic_inc(&mine[v.s1]);
        atomic_inc(&mine[v.s2]); atomic_inc(&mine[v.s3]);
        atomic_inc(&mine[v.s4]); atomic_inc(&mine[v.s5]);
        atomic_inc(&mine[v.s6]); atomic_inc(&mine[v.s7]);
        atomic_inc(&mine[v.s8]); atomic_inc(&mine[v.s9]);
        atomic_inc(&mine[v.sa]); atomic_inc(&mine[v.sb]);
        atomic_inc(&mine[v.sc]); atomic_inc(&mine[v.sd]);
        atomic_inc(&mine[v.se]); atomic_inc(&mine[v.sf]);
    }
    /* the last n % 16 bytes; the zero padding after them is not data */
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* TODO 3: merge. Work-item b (then b + lsize, ...) adds bin b over all
     * COPIES copies (sub[c * STRIDE + b]) and adds that sum to histogram[b]
     * with ONE global atomic. Other work-groups do the same at the same
     * time, so a plain += would lose counts. */
}
