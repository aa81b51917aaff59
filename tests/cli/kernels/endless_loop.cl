/* Never ends: the loop counter moves away from its bound. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids, __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors) return;
    for (int c = 0; c < n_centroids; c--)
        histogram[0] += 0;
}
