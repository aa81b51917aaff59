/* Cheat (chapter 6c): the centroids are passed __constant, then every
 * work-group copies all of them (up to 256 x 64 floats, 64 KiB) into a
 * __local array and reads them from there. Hole it tries: a __constant
 * argument that is read only once, in a coalesced copy, while the inner loop
 * reads __local memory (so local_loads is met too). 16 KiB of descriptor tile
 * plus 64 KiB of centroids is more local memory than a GPU has (48 KiB).
 * Expected: the simulator refuses the local memory size
 * (CL_OUT_OF_RESOURCES: the race check cannot run, the hidden tests earn
 * nothing), or constant_broadcasts fails (see ch06d). */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64   /* features staged per descriptor: 64 x 64 work-items x 4 bytes = 16 KiB */
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    /* row k holds feature k of the group's LOCAL_SIZE descriptors, so work-item
     * lid reads column lid: neighbours hit neighbouring banks, no conflicts */
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    __local float lcentroids[256 * 64];   /* every size of the chapter: at most 16384 floats */

    int d = get_global_id(0);
    int lid = get_local_id(0);
    for (int i = lid; i < n_centroids * n_features; i += LOCAL_SIZE)
        lcentroids[i] = centroids[i];
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* 1. copy: one coalesced row of the transposed array per feature */
    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;

    /* 2. every work-item of the group reaches this barrier, including those
     * past the end: that is why there is no early return above */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    /* 3. distances, the descriptor from local memory */
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __local const float *centroid = lcentroids + c * n_features;
        float4 acc = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid],
                                tile[(k + 1) * LOCAL_SIZE + lid],
                                tile[(k + 2) * LOCAL_SIZE + lid],
                                tile[(k + 3) * LOCAL_SIZE + lid]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
