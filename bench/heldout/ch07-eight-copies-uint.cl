/* Chapter 7 variant: only 8 padded copies (stride 257), so four lanes of a
 * warp share each copy; the data is read one 32-bit word per work-item per
 * step (uint loads, not uint4), the n % 4 tail bytes one at a time.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define BINS 256
#define COPIES 8
#define STRIDE (BINS + 1)

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[COPIES * STRIDE];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    for (uint i = lid; i < COPIES * STRIDE; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint *mine = sub + (lid % COPIES) * STRIDE;
    __global const uint *words = (__global const uint *)data;
    const uint nw = n / 4, step = get_global_size(0);
    for (uint i = get_global_id(0); i < nw; i += step) {
        const uint w = words[i];
        atomic_inc(&mine[w & 255]);
        atomic_inc(&mine[(w >> 8) & 255]);
        atomic_inc(&mine[(w >> 16) & 255]);
        atomic_inc(&mine[w >> 24]);
    }
    const uint tail = nw * 4 + get_global_id(0);
    if (tail < n)
        atomic_inc(&mine[data[tail]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        uint sum = 0;
        for (uint j = 0; j < COPIES; j++)
            sum += sub[j * STRIDE + b];
        if (sum)
            atomic_add(&histogram[b], sum);
    }
}
