/* Test kernel: a strided read (32 bytes apart: 12.5% efficient, 32 sectors per
 * request) and a coalesced one (neighbouring floats: 100%, 4 sectors). */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int gid = get_global_id(0);
    float a = descriptors[gid * 8];       /* @strided */
    float b = descriptors[gid];           /* @coalesced */
    if (a + b == 12345.0f)
        histogram[0] = 1;                 /* never taken: the inputs are in [0, 1] */
}
