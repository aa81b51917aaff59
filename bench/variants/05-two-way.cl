/* Deliberately slow (chapter 5, for the time prediction's validation):
 * chapter 5's reference with a 2-way bank conflict on every tile access.
 * Work-item lid keeps its descriptor in column 2 lid of the tile (2 lid -
 * 63 for the second half of the group), so in a warp lanes l and l + 16
 * share a bank. 05-conflicted.cl is the worst case, 32 lanes on one bank;
 * this is the mildest, and it checks that the predicted cost grows with the
 * degree of the conflict (a 2-way request takes two passes, not 32), not
 * only with its presence. Correct, just slow.
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
    /* row k holds feature k of the group's LOCAL_SIZE descriptors; work-item
     * lid's column is col, every other word: lanes l and l + 16 of a warp
     * land in one bank (the slow layout this variant is about) */
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int col = 2 * lid % LOCAL_SIZE + 2 * lid / LOCAL_SIZE;   /* a permutation of 0 .. LOCAL_SIZE-1 */
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* 1. copy: one coalesced row of the transposed array per feature */
    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + col] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;

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
            float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + col],
                                tile[(k + 1) * LOCAL_SIZE + col],
                                tile[(k + 2) * LOCAL_SIZE + col],
                                tile[(k + 3) * LOCAL_SIZE + col]);
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
