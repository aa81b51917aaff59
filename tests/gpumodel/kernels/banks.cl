/* Test kernel: local memory with strides 1, 2, 32 and 33 floats between
 * neighbouring work-items: bank-conflict degrees 1, 2, 32 and 1. */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    __local float s1[64], s2[128], s32[64 * 32], s33[64 * 33];
    int gid = get_global_id(0), l = get_local_id(0);
    float x = descriptors[gid];
    s1[l] = x;            /* @store1 */
    s2[l * 2] = x;        /* @store2 */
    s32[l * 32] = x;      /* @store32 */
    s33[l * 33] = x;      /* @store33 */
    barrier(CLK_LOCAL_MEM_FENCE);
    int o = (l + 1) % 64;
    float y = s1[o]           /* @load1 */
            + s2[o * 2]       /* @load2 */
            + s32[o * 32]     /* @load32 */
            + s33[o * 33];    /* @load33 */
    if (y == 12345.0f)
        histogram[0] = 1;
}
