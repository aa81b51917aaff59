/* Cheat (chapter 7): padded copies only where they are measured. Below
 * 200000 bytes it is the chapter 7 reference (32 padded sub-histograms per
 * work-group); from 200000 up every work-item of a group counts into one
 * shared __local histogram (copy 0; no copies, no padding), which is then
 * merged as in the reference. Correct at every size (the counting is
 * atomic either way). The visible sizes 1000003, 1M, 3000001 and 16M run
 * the single histogram, the smaller ones the reference.
 * Hole it tries: technique measured only at small sizes (the analysis size
 * 64K, grade's 40K..64K) while the large tests and the timing run another
 * path. On equal bytes the 32 lanes of a warp then update one word: 32
 * passes for one instruction (see ch07-merge-only.cl).
 * Expected: the techniques measured at the analysis size pass (they see the
 * reference); the cost judged a second time at a large size, on equal bytes
 * (scale_analysis: 16M in `check`, a size in the range of the largest hidden
 * tests in `grade`), sees the single histogram: 32 passes an atomic request
 * where the reference's take 1, cost 13.7 (2026-11-27, PoCL here), and the
 * technique fails. The host launches the analysis as on the modelled GPU
 * (132 compute units, 4 work-groups each at most), so each work-item counts
 * 512 bytes as on that GPU; under the simulator's own one compute unit it
 * would be 4 work-groups with a 32K-step chain each, which the model sees
 * as latency, not passes.
 * On an NVIDIA H200 at 256M:equal it took 0.101 ms against the reference's
 * 0.097 (as docs/results' 07-one-copy variant: Hopper serves same-word
 * __local atomics about as fast as spread ones); the verdict's model lets
 * the work-items of a warp that update one address take turns
 * (docs/gpu-model.md, "contention"), as the chapter teaches.
 * Below: kernels/07-bank-conflicts/histogram.cl with the number of copies
 * chosen from n. */
#define GATE 200000u
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
    const uint copies = n < GATE ? COPIES : 1;    /* the cheat: one copy for large n */
    __local uint *mine = sub + (lid % copies) * STRIDE;

    /* The whole 16-byte chunks, read as uint4: consecutive work-items read
     * consecutive chunks (coalesced), striding over the whole NDRange. Each
     * step loads CHUNKS_PER_STEP chunks before counting any, so that several
     * loads are in flight while the counting waits on local memory. (The
     * buffer starts 16-byte aligned, so a uint4 pointer may read it; vload16
     * on a uchar pointer promises only byte alignment, and a compiler may
     * then split it into 16 one-byte loads: on the H200 that made the kernel
     * 1.8 times slower.) One loop with a guard per chunk, rather than an
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
        for (uint j = 0; j < copies; j++)
            sum += sub[j * STRIDE + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
