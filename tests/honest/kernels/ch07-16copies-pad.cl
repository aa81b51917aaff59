/* Chapter 7, honest variant: 16 padded copies instead of 32.
 *
 * One sub-histogram per lane of a HALF warp (copy lid % 16), each padded to
 * 257 words, so bin v of copy c is in bank (c + v) % 32. Lanes l and l + 16
 * of a warp share a copy (local atomics keep that correct); the copies of
 * the 16 lanes of each half fall in 16 different banks. Half the local
 * memory of 32 copies (16 KB) to clear and half the words to add up in the
 * merge. The bytes are read as uint4 and split with as_uchar16; four chunks
 * are loaded before any is counted. Work-group size from get_local_size.
 * Gomez-Luna et al. (2013) discuss the replication factor as a tuning knob;
 * this is written from scratch.
 */

#define BINS 256
#define COPIES 16
#define STRIDE (BINS + 1)

static inline void count16(__local uint *mine, uchar16 v)
{
    atomic_inc(&mine[v.s0]); atomic_inc(&mine[v.s1]);
    atomic_inc(&mine[v.s2]); atomic_inc(&mine[v.s3]);
    atomic_inc(&mine[v.s4]); atomic_inc(&mine[v.s5]);
    atomic_inc(&mine[v.s6]); atomic_inc(&mine[v.s7]);
    atomic_inc(&mine[v.s8]); atomic_inc(&mine[v.s9]);
    atomic_inc(&mine[v.sa]); atomic_inc(&mine[v.sb]);
    atomic_inc(&mine[v.sc]); atomic_inc(&mine[v.sd]);
    atomic_inc(&mine[v.se]); atomic_inc(&mine[v.sf]);
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * STRIDE];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);

    for (uint i = lid; i < COPIES * STRIDE; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint *mine = sub + (lid % COPIES) * STRIDE;

    __global const uint4 *q = (__global const uint4 *)data;
    const uint chunks = n / 16;
    const uint g = get_global_size(0);
    uint k = get_global_id(0);
    for (; k + 3 * g < chunks; k += 4 * g) {
        const uint4 a = q[k], b = q[k + g], c = q[k + 2 * g], d = q[k + 3 * g];
        count16(mine, as_uchar16(a));
        count16(mine, as_uchar16(b));
        count16(mine, as_uchar16(c));
        count16(mine, as_uchar16(d));
    }
    for (; k < chunks; k += g)
        count16(mine, as_uchar16(q[k]));

    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint c = 0; c < COPIES; c++)
            sum += sub[c * STRIDE + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
