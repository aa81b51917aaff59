/* Chapter 6 variant: the reference's local tile (feature-major), but the
 * centroids are read from __constant memory one float at a time into four
 * scalar accumulators, with only 32 features staged (the rest from global).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define STAGED 32

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[STAGED * LOCAL_SIZE];
    const int d = get_global_id(0);
    const int lid = get_local_id(0);
    const int in_range = d < n_descriptors;
    const int n_staged = min(n_features, STAGED);

    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __constant float *centroid = centroids + c * n_features;
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
        int k = 0;
        for (; k < n_staged; k += 4) {
            float t0 = tile[(k + 0) * LOCAL_SIZE + lid] - centroid[k + 0];
            float t1 = tile[(k + 1) * LOCAL_SIZE + lid] - centroid[k + 1];
            float t2 = tile[(k + 2) * LOCAL_SIZE + lid] - centroid[k + 2];
            float t3 = tile[(k + 3) * LOCAL_SIZE + lid] - centroid[k + 3];
            a0 += t0 * t0; a1 += t1 * t1; a2 += t2 * t2; a3 += t3 * t3;
        }
        for (; k < n_features; k += 4) {
            float t0 = descriptors[(k + 0) * n_descriptors + d] - centroid[k + 0];
            float t1 = descriptors[(k + 1) * n_descriptors + d] - centroid[k + 1];
            float t2 = descriptors[(k + 2) * n_descriptors + d] - centroid[k + 2];
            float t3 = descriptors[(k + 3) * n_descriptors + d] - centroid[k + 3];
            a0 += t0 * t0; a1 += t1 * t1; a2 += t2 * t2; a3 += t3 * t3;
        }
        float dist = (a0 + a1) + (a2 + a3);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
