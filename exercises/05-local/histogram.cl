/* Chapter 5 exercise (GPU4): stage the descriptors in local memory.
 *
 * This is chapter 4's kernel, rearranged: the group's descriptors are to be
 * copied once into tile (local memory), and the distance loop already reads
 * them from there. The copy is left to you, and until it is written tile
 * holds zeros, so every descriptor votes for the centroid nearest to zero.
 * Run it with:  cltutor run 5
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64   /* lesson.ini passes -DLOCAL_FEATURES=64: 64 x 64 x 4 bytes = 16 KiB */
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    /* row k: feature k of the group's LOCAL_SIZE descriptors; column lid: one work-item's */
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    /* TODO 1: copy features 0 .. n_staged-1 of descriptor d from the
     * transposed global array into column lid of tile. A work-item past the
     * end (in_range == 0) must not read global memory: let it store 0.0f. */
    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = 0.0f;

    /* TODO 2: wait here until the whole group has written its columns. */

    /* TODO 3: only now may a work-item past the end leave. Every work-item
     * of a group must reach every barrier: no return before it. */

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
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
    if (in_range)   /* remove this test once TODO 3 is done */
        atomic_inc(&histogram[nearest]);
}
