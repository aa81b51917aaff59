/* Chapter 8, find the bug: a block scan after the Hillis-Steele pseudocode
 * printed in the integral-image paper of chapter 9.
 *
 * Each work-group scans a block of 2 * LOCAL_SIZE elements with the
 * "add the element 2^(d-1) places to the left" steps of the pseudocode,
 * in two local buffers used in turn (as the paper does, so that no step
 * reads a value the same step overwrites). One element passes; from two
 * elements on, the result is wrong. The bug is in the pseudocode itself:
 * compare its loop with what the steps must do. Fix it, then:
 *     cltutor check 8
 */

#ifndef LOCAL_SIZE
#define LOCAL_SIZE 256
#endif
#define BLOCK (2 * LOCAL_SIZE)
#define LOG2_BLOCK 9                /* BLOCK = 2^9 */

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void scan_blocks(__global const uint *in, __global uint *out, __global uint *block_sums, uint n)
{
    __local uint buf[2][BLOCK];
    const uint lid = get_local_id(0);
    const uint base = get_group_id(0) * BLOCK;
    const uint a = lid, b = lid + LOCAL_SIZE;
    const uint xa = base + a < n ? in[base + a] : 0;
    const uint xb = base + b < n ? in[base + b] : 0;
    buf[0][a] = xa;
    buf[0][b] = xb;

    /* for d = 1 .. log2(n) - 1: x[k] += x[k - 2^(d-1)] for every k >= 2^d */
    uint from = 0;
    for (uint d = 1; d < LOG2_BLOCK; d++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        const uint offset = 1u << (d - 1);
        for (uint k = lid; k < BLOCK; k += LOCAL_SIZE)
            buf[1 - from][k] = k >= (1u << d) ? buf[from][k - offset] + buf[from][k]
                                               : buf[from][k];
        from = 1 - from;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    /* the steps give the inclusive scan; the exclusive one leaves the element out */
    if (lid == 0)
        block_sums[get_group_id(0)] = buf[from][BLOCK - 1];
    if (base + a < n) out[base + a] = buf[from][a] - xa;
    if (base + b < n) out[base + b] = buf[from][b] - xb;
}

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void add_sums(__global uint *data, __global const uint *block_offsets, uint n)
{
    const uint base = get_group_id(0) * BLOCK;
    const uint offset = block_offsets[get_group_id(0)];
    const uint a = base + get_local_id(0), b = a + LOCAL_SIZE;
    if (a < n) data[a] += offset;
    if (b < n) data[b] += offset;
}
