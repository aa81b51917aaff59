/* Chapter 7 variant: no local sub-histogram at all; every byte, read one at a
 * time in a grid-stride loop, is one atomic_inc on the global histogram.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
__kernel void histogram(__global const uchar *data, uint n, __global uint *histogram)
{
    const uint step = get_global_size(0);
    for (uint i = get_global_id(0); i < n; i += step)
        atomic_inc(&histogram[data[i]]);
}
