/* Deliberately slow (chapter 5, for the time prediction's validation):
 * chapter 5's reference with the local tile descriptor-major: work-item
 * lid's features sit at lid * 64 + k, 64 words apart, so the 32 lanes of a
 * warp read one bank: 32-way conflicts. Correct, just slow.
 *
 * Chapter 5 reference (GPU4): GPU3 with each work-group's descriptors staged
 * in __local memory. The group copies its descriptors once, with coalesced
 * reads, waits at a barrier, then reads them from local memory for every
 * centroid instead of from global memory. */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64   /* features staged per descriptor: 64 x 64 work-items x 4 bytes = 16 KiB */
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    /* row lid holds descriptor lid's features: neighbours are 64 words apart,
     * all in one bank (the slow layout this variant is about) */
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* 1. copy: coalesced reads, conflicted stores */
    for (int k = 0; k < n_staged; k++)
        tile[lid * LOCAL_FEATURES + k] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;

    /* 2. every work-item of the group reaches this barrier, including those
     * past the end: that is why there is no early return above */
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    /* 3. distances, the descriptor from local memory */
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(tile[lid * LOCAL_FEATURES + k + 0],
                                tile[lid * LOCAL_FEATURES + k + 1],
                                tile[lid * LOCAL_FEATURES + k + 2],
                                tile[lid * LOCAL_FEATURES + k + 3]);
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
