/* Chapter 7 reference: 256-bin byte histogram with per-work-group
 * sub-histograms in local memory, padded against bank conflicts.
 *
 * Each work-group keeps COPIES sub-histograms in local memory; work-item
 * lid counts into copy lid % COPIES with local atomics, so the 32 work-items
 * of a warp never update the same counter. Copy c starts at c * STRIDE, one
 * word more than 256, so the same bin in two copies sits in two different
 * banks (32 banks of 4 bytes). At the end each work-group adds its copies
 * together and merges them into the global histogram: 256 global atomics per
 * work-group instead of one per byte. */

#define BINS 256
#define COPIES 32               /* one sub-histogram per lane of a 32-wide warp */
#define STRIDE (BINS + 1)       /* the padding: 257 words, so copy c starts in bank c */

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * STRIDE];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint i = lid; i < COPIES * STRIDE; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Bin v of this work-item's copy is at address (lid % 32) * 257 + v:
     * bank (lid + v) % 32. Even when every byte is the same, the 32 lanes of
     * a warp hit 32 different banks. Without the padding (stride 256) they
     * would all hit bank v % 32: a 32-way conflict. */
    __local uint *mine = sub + (lid % COPIES) * STRIDE;

    /* The whole 16-byte chunks, one uchar16 per step. Consecutive work-items
     * read consecutive chunks (coalesced), striding over the whole NDRange. */
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
    /* The last n % 16 bytes, one per work-item. The buffer is zero-padded to
     * a multiple of 16: those zeros are not data and must not be counted. */
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Merge: work-item b adds bin b of every copy (consecutive work-items
     * read consecutive words: no conflict), then one global atomic per bin. */
    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint c = 0; c < COPIES; c++)
            sum += sub[c * STRIDE + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
