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

#define CHUNKS_PER_STEP 4        /* 16-byte chunks loaded before any is counted */

/* Counts the 16 bytes of a chunk, four per 32-bit word. */
static void count_chunk(__local uint *mine, uint4 x)
{
    const uint w[4] = {x.s0, x.s1, x.s2, x.s3};
    for (uint k = 0; k < 4; k++) {
        atomic_inc(&mine[w[k] & 255]);
        atomic_inc(&mine[(w[k] >> 8) & 255]);
        atomic_inc(&mine[(w[k] >> 16) & 255]);
        atomic_inc(&mine[w[k] >> 24]);
    }
}

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

    /* The whole 16-byte chunks, read as uint4: consecutive work-items read
     * consecutive chunks (coalesced), striding over the whole NDRange. Each
     * step loads CHUNKS_PER_STEP chunks before counting any, so that several
     * loads are in flight while the counting waits on local memory. (The
     * buffer starts 16-byte aligned, so a uint4 pointer may read it; vload16
     * on a uchar pointer promises only byte alignment, and a compiler may
     * then split it into 16 one-byte loads: on the H200 that made the kernel
     * 2.25 times slower.) One loop with a guard per chunk, rather than an
     * unrolled loop followed by a second loop for the rest: PoCL 3.1 lost
     * the second loop's counts in a kernel of this shape (bin-major.cl). */
    __global const uint4 *chunk = (__global const uint4 *)data;
    const uint chunks = n / 16, step = get_global_size(0);
    for (uint c = get_global_id(0); c < chunks; c += CHUNKS_PER_STEP * step) {
        uint4 x[CHUNKS_PER_STEP];
        for (uint u = 0; u < CHUNKS_PER_STEP; u++)
            x[u] = c + u * step < chunks ? chunk[c + u * step] : (uint4)(0);
        for (uint u = 0; u < CHUNKS_PER_STEP; u++)
            if (c + u * step < chunks)
                count_chunk(mine, x[u]);
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
        for (uint j = 0; j < COPIES; j++)
            sum += sub[j * STRIDE + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
