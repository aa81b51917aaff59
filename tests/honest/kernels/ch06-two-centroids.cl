/* Chapter 6, honest variant: two centroids per step of the loop, so that
 * every descriptor quad read from __local memory is used twice.
 *
 * Register blocking over the centroids: the loop over centroids advances by
 * two, and for each quad the work-item reads its staged descriptor from the
 * tile once and compares it with the same quad of centroid c and of centroid
 * c + 1, both read with vload4 from __constant memory (each a broadcast: the
 * address depends only on c and k). Local loads per centroid halve; the
 * constant loads and the arithmetic stay the same. Each centroid keeps its
 * own float4 accumulator, summed in the chapter's order, and the two
 * distances are compared in index order with a strict <, so ties still go
 * to the lower index. An odd last centroid takes the one-centroid loop.
 */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
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
    int c = 0;
    for (; c + 1 < n_centroids; c += 2) {
        __constant float *ca = centroids + c * n_features;
        __constant float *cb = ca + n_features;
        float4 acc_a = (float4)(0.0f);
        float4 acc_b = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid],
                                tile[(k + 1) * LOCAL_SIZE + lid],
                                tile[(k + 2) * LOCAL_SIZE + lid],
                                tile[(k + 3) * LOCAL_SIZE + lid]);
            float4 da = x - vload4(k / 4, ca);
            float4 db = x - vload4(k / 4, cb);
            acc_a += da * da;
            acc_b += db * db;
        }
        /* descriptors longer than LOCAL_FEATURES: the rest from global memory */
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 da = x - vload4(k / 4, ca);
            float4 db = x - vload4(k / 4, cb);
            acc_a += da * da;
            acc_b += db * db;
        }
        float dist_a = (acc_a.x + acc_a.y) + (acc_a.z + acc_a.w);
        float dist_b = (acc_b.x + acc_b.y) + (acc_b.z + acc_b.w);
        if (dist_a < best) {
            best = dist_a;
            nearest = c;
        }
        if (dist_b < best) {
            best = dist_b;
            nearest = c + 1;
        }
    }
    if (c < n_centroids) {   /* an odd number of centroids: the last one alone */
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
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best)
            nearest = c;
    }
    atomic_inc(&histogram[nearest]);
}
