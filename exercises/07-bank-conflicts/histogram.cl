/* Chapter 7 exercise: a 256-bin byte histogram with local sub-histograms.
 *
 * histogram[v] = how many of the n bytes equal v. The host clears histogram
 * before each run and starts groups of 128 work-items: about one work-item
 * per 512 bytes, but at most 4 groups per compute unit, so each work-item
 * strides over the data until it runs out.
 *
 * As given, each work-group counts into ONE histogram in local memory and
 * never hands its counts on: `cltutor check 7` reports every count lost.
 * Do TODO 1 first (correct), then TODO 2 and 3 (fast on a GPU).
 * Run it with:  cltutor run 7
 */

#define BINS 256
/* TODO 2: one sub-histogram per lane of a warp, so that no two lanes of a
 * warp count into the same copy (work-item lid counts into copy
 * lid % COPIES; sub[] is already sized COPIES * STRIDE). */
#define COPIES 1
/* TODO 3: as it is, bin v of every copy sits in bank v % 32 (32 banks of
 * 4-byte words). Lay the copies out so that the same bin of neighbouring
 * copies falls in neighbouring banks. */
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
        const uchar16 v = ((__global const uchar16 *)data)[c]; /* one 16-byte access */
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

    /* TODO 1: merge. Work-item b (then b + lsize, ...) adds bin b over all
     * COPIES copies (sub[c * STRIDE + b]) and adds that sum to histogram[b]
     * with ONE global atomic. Other work-groups do the same at the same
     * time, so a plain += would lose counts. */
}
