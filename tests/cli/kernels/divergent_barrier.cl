/* A barrier only odd work-items reach. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids, __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (d % 2)
        barrier(CLK_GLOBAL_MEM_FENCE);
    atomic_inc(&histogram[0]);
}
