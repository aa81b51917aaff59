/* Deliberately slow (chapter 7, for the time prediction's validation): no
 * local sub-histograms at all. The bytes are read as in chapter 7's
 * reference (coalesced uint4 chunks striding over the NDRange), and every
 * byte is counted with an atomic on the global histogram: 256 counters for
 * the whole GPU. Correct, just slow. */

/* Counts the 16 bytes of a chunk, four per 32-bit word. */
static void count_chunk(__global uint *histogram, uint4 x)
{
    const uint w[4] = {x.s0, x.s1, x.s2, x.s3};
    for (uint k = 0; k < 4; k++) {
        atomic_inc(&histogram[w[k] & 255]);
        atomic_inc(&histogram[(w[k] >> 8) & 255]);
        atomic_inc(&histogram[(w[k] >> 16) & 255]);
        atomic_inc(&histogram[w[k] >> 24]);
    }
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __global const uint4 *chunk = (__global const uint4 *)data;
    const uint chunks = n / 16, step = get_global_size(0);
    for (uint c = get_global_id(0); c < chunks; c += step)
        count_chunk(histogram, chunk[c]);
    /* the last n % 16 bytes, one per work-item (the buffer is zero-padded) */
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&histogram[data[tail]]);
}
