/* Test kernel: the same shape as errors.cl without its errors: nothing to report. */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    __local float tile[64];
    int gid = get_global_id(0), l = get_local_id(0);
    if (gid == 5)
        atomic_inc(&histogram[n_centroids - 1]);
    tile[l] = descriptors[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tile[63 - l] == 12345.0f)
        histogram[2] = 1;
}
