/* Deliberately slow (chapter 6, for the time prediction's validation):
 * chapter 6's reference with each lane of a warp walking the centroids
 * from a different start: lane l of the warp begins at centroid l and wraps
 * around, so at every step the 32 lanes read 32 different centroids from
 * __constant memory. The constant cache serves one address at a time, so
 * each of those reads costs 32 where the reference's broadcast costs one.
 * This is the one cost of __constant memory that no other variant pays
 * (chapter 6's lesson: it is for data every work-item reads alike), and
 * the GPU model counts it apart, as distinct constant addresses. The same
 * centroid still wins: the smallest distance, and the lowest centroid on
 * a tie, as walking them in order gives. Correct, just slow.
 *
 * Chapter 6 reference (GPU5): GPU4 with the centroids in __constant memory.
 * Every work-item of a group reads the same centroid at the same time: a
 * constant cache serves such a uniform read with one access for all. The
 * buffer must fit the device's constant limit (64 KiB at least: 256 x 64 floats). */
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

    int d = get_global_id(0);
    int lid = get_local_id(0);
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
    const int start = lid % 32 % n_centroids;   /* this lane's first centroid */
    for (int j = 0; j < n_centroids; j++) {
        const int c = start + j < n_centroids ? start + j : start + j - n_centroids;
        __constant float *centroid = centroids + c * n_features;
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
        /* out of order, a tie must go to the lower centroid explicitly */
        if (dist < best || (dist == best && c < nearest)) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
