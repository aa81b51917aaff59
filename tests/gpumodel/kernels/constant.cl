/* Test kernel: __constant reads, the same address for a whole warp
 * (broadcast: 1 address per warp) and one address per work-item (32). */
__kernel void probe(__global const float *descriptors, __constant float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int l = get_local_id(0), g = get_group_id(0);
    float a = centroids[g % 16];       /* @broadcast */
    float b = centroids[l];            /* @divergent */
    if (a + b == 12345.0f)
        histogram[0] = 1;
}
