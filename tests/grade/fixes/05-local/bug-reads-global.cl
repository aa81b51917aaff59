/* Find the bug (chapter 5): GPU4 as the book prints it, give or take.
 * The group copies its descriptors into local memory and waits at the
 * barrier, as it should. The answer is right for 64 descriptors and wrong
 * for 1000. Which array does the distance loop read, and with what index?
 * Fix it, then:  cltutor check 5
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[LOCAL_FEATURES * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);

    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            /* the staged descriptor, four features at a time */
            /* from the tile, in the work-item's own column lid (d indexes
             * global memory and runs past the tile from the second group on) */
            float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid],
                                tile[(k + 1) * LOCAL_SIZE + lid],
                                tile[(k + 2) * LOCAL_SIZE + lid],
                                tile[(k + 3) * LOCAL_SIZE + lid]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
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
