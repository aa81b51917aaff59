/* Writes far outside the histogram: the worker dies. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    atomic_inc(&histogram[d * 100000000]);
}
