/* Chapter 7 variant: 16 copies with stride 256 and no padding (the same bin of
 * every copy sits in one bank: conflicts on equal bytes); each step reads one
 * uchar16 with vload16 (byte-aligned promise) and counts its 16 bytes.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define BINS 256
#define COPIES 16

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    for (uint i = lid; i < COPIES * BINS; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint *mine = sub + (lid % COPIES) * BINS;
    const uint chunks = n / 16, step = get_global_size(0);
    for (uint c = get_global_id(0); c < chunks; c += step) {
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
    const uint tail = chunks * 16 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint j = 0; j < COPIES; j++)
            sum += sub[j * BINS + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
