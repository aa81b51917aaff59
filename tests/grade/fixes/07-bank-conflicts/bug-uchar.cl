/* Chapter 7, find the bug: a byte histogram written for this course after
 * the idea of the 256-bin histogram in OpenCL Programming by Example
 * (chapter 5), whose own kernel differs in layout, loads and merge.
 *
 * As in that book, every work-item gets a private column of
 * counters in local memory, so no atomics are needed while counting, and
 * the counters are uchar so that 256 bins x 128 work-items fit in 32 KB.
 * Bin v of work-item lid is at counts[v * LOCAL_SIZE + lid]: the work-items
 * of a warp write 32 consecutive bytes (8 words), never the same one twice.
 *
 * It passes on random bytes. Find the input where it fails, explain why,
 * and fix it (keep the local memory within 48 KB).
 * Check it with:  cltutor check 7   (the chapter's tests run it too)
 */

#define BINS 256

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uchar counts[BINS * LOCAL_SIZE];
    const uint lid = get_local_id(0);

    for (uint v = 0; v < BINS; v++)
        counts[v * LOCAL_SIZE + lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* each work-item counts its own bytes into its own column */
    const uint chunks = n / 16;
    for (uint c = get_global_id(0); c < chunks; c += get_global_size(0)) {
        const uchar16 v = vload16(c, data);
        /* A uchar counter wraps at 256: with equal bytes a work-item counts
         * hundreds of the same value. Before a counter can overflow, hand its
         * count to the global histogram and start it again from zero: below
         * 239 it still has room for this chunk's 16 bytes and the tail's 1. */
        for (uint i = 0; i < 16; i++) {
            const uchar x = ((const uchar *)&v)[i];
            if (counts[x * LOCAL_SIZE + lid] >= 239) {
                atomic_add(&histogram[x], counts[x * LOCAL_SIZE + lid]);
                counts[x * LOCAL_SIZE + lid] = 0;
            }
        }
        counts[v.s0 * LOCAL_SIZE + lid]++; counts[v.s1 * LOCAL_SIZE + lid]++;
        counts[v.s2 * LOCAL_SIZE + lid]++; counts[v.s3 * LOCAL_SIZE + lid]++;
        counts[v.s4 * LOCAL_SIZE + lid]++; counts[v.s5 * LOCAL_SIZE + lid]++;
        counts[v.s6 * LOCAL_SIZE + lid]++; counts[v.s7 * LOCAL_SIZE + lid]++;
        counts[v.s8 * LOCAL_SIZE + lid]++; counts[v.s9 * LOCAL_SIZE + lid]++;
        counts[v.sa * LOCAL_SIZE + lid]++; counts[v.sb * LOCAL_SIZE + lid]++;
        counts[v.sc * LOCAL_SIZE + lid]++; counts[v.sd * LOCAL_SIZE + lid]++;
        counts[v.se * LOCAL_SIZE + lid]++; counts[v.sf * LOCAL_SIZE + lid]++;
    }
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        counts[data[tail] * LOCAL_SIZE + lid]++;
    barrier(CLK_LOCAL_MEM_FENCE);

    /* work-item b adds up row b: the counts of every work-item for bin b */
    for (uint b = lid; b < BINS; b += LOCAL_SIZE) {
        uint sum = 0;
        for (uint i = 0; i < LOCAL_SIZE; i++)
            sum += counts[b * LOCAL_SIZE + i];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
