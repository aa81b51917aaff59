/* Test kernel (size 1024x32): every work-item of a warp increments the same
 * bin (contention 32), then each its own bin (contention 1). */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int l = get_local_id(0);
    atomic_inc(&histogram[0]);         /* @same */
    atomic_inc(&histogram[l % 32]);    /* @spread */
}
