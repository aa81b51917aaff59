/* Test kernel: float4 loads through a float4 pointer (16 bytes per
 * work-item, 16 sectors per request, 100% efficient) and by vload4 from a
 * float pointer (four loads of 4 bytes, as compilers emit it: four requests
 * over the same 16 sectors). */
__kernel void probe(__global const float *descriptors, __global const float *centroids,
                    __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int gid = get_global_id(0);
    float4 a = vload4(gid, descriptors);                           /* @vload4 */
    float4 b = ((__global const float4 *)descriptors)[gid + 1024]; /* @pointer */
    if (dot(a, b) == 12345.0f)
        histogram[0] = 1;
}
