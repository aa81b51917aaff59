/* Test kernel for the warp pictures: global reads 1, 2, 8 and 32 floats
 * apart between neighbouring work-items (4, 8, 32 and 32 sectors per
 * request), and one address for the whole warp (a broadcast: 1 sector). */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int gid = get_global_id(0);
    float a = descriptors[gid];               /* @s1 */
    float b = descriptors[gid * 2];           /* @s2 */
    float c = descriptors[gid * 8];           /* @s8 */
    float d = descriptors[gid * 32];          /* @s32 */
    float e = descriptors[get_group_id(0)];   /* @bcast */
    if (a + b + c + d + e == 12345.0f)
        histogram[0] = 1;                     /* never taken: the inputs are in [0, 1] */
}
