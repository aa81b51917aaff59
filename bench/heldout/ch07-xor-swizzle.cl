/* Chapter 7 variant: 32 copies (one per lane) of stride 256 with no padding;
 * instead bin v of copy c is stored at word v ^ c, an XOR swizzle that puts the
 * same bin of the 32 copies in 32 banks. uint4 reads, two chunks per step.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define BINS 256
#define COPIES 32

static void count_word(__local uint *mine, uint c, uint w)
{
    atomic_inc(&mine[(w & 255) ^ c]);
    atomic_inc(&mine[((w >> 8) & 255) ^ c]);
    atomic_inc(&mine[((w >> 16) & 255) ^ c]);
    atomic_inc(&mine[(w >> 24) ^ c]);
}

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    for (uint i = lid; i < COPIES * BINS; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint c = lid % COPIES;
    __local uint *mine = sub + c * BINS;
    __global const uint4 *chunk = (__global const uint4 *)data;
    const uint chunks = n / 16, step = get_global_size(0);
    for (uint q = get_global_id(0); q < chunks; q += 2 * step) {
        const uint4 a = chunk[q];
        const uint4 b = q + step < chunks ? chunk[q + step] : (uint4)(0);
        count_word(mine, c, a.s0); count_word(mine, c, a.s1);
        count_word(mine, c, a.s2); count_word(mine, c, a.s3);
        if (q + step < chunks) {
            count_word(mine, c, b.s0); count_word(mine, c, b.s1);
            count_word(mine, c, b.s2); count_word(mine, c, b.s3);
        }
    }
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail] ^ c]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint j = 0; j < COPIES; j++)
            sum += sub[j * BINS + (b ^ j)];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
