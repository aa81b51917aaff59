/* Test kernel: an out-of-bounds write by work-item 5, a data race on one bin,
 * and a read of local memory that half of the group never wrote. */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    __local float tile[64];
    int gid = get_global_id(0), l = get_local_id(0);
    if (gid == 5)
        histogram[n_centroids + 3] = 1;            /* @oob */
    histogram[1] = gid;                            /* @race */
    if (l < 32)
        tile[l] = descriptors[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (tile[63 - l] == 12345.0f)                  /* @uninit */
        histogram[2] = 1;
}
