/* Chapter 7 variant: one shared sub-histogram per work-group (every lane of a
 * warp counts into the same 256 counters), bytes read one at a time in a
 * grid-stride loop; one global atomic per non-zero bin in the merge.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define BINS 256

__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    __local uint sub[BINS];
    const uint lid = get_local_id(0);
    const uint lsize = get_local_size(0);
    for (uint i = lid; i < BINS; i += lsize)
        sub[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint step = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += step)
        atomic_inc(&sub[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (uint b = lid; b < BINS; b += lsize) {
        const uint s = sub[b];
        if (s)
            atomic_add(&histogram[b], s);
    }
}
