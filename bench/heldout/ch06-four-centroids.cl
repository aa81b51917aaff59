/* Chapter 6 variant: the reference's 64-feature local tile, but four centroids
 * per step of the centroid loop (four float4 __constant reads per quad of
 * features, the last step clamped to the last centroid).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define STAGED 64

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
    const int last = n_centroids - 1;

    for (int k = 0; k < n_staged; k++)
        tile[k * LOCAL_SIZE + lid] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c <= last; c += 4) {
        __constant float *p0 = centroids + c * n_features;
        __constant float *p1 = centroids + min(c + 1, last) * n_features;
        __constant float *p2 = centroids + min(c + 2, last) * n_features;
        __constant float *p3 = centroids + min(c + 3, last) * n_features;
        float4 s0 = (float4)(0.0f), s1 = (float4)(0.0f), s2 = (float4)(0.0f), s3 = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(tile[(k + 0) * LOCAL_SIZE + lid], tile[(k + 1) * LOCAL_SIZE + lid],
                                tile[(k + 2) * LOCAL_SIZE + lid], tile[(k + 3) * LOCAL_SIZE + lid]);
            float4 e0 = x - vload4(k / 4, p0), e1 = x - vload4(k / 4, p1);
            float4 e2 = x - vload4(k / 4, p2), e3 = x - vload4(k / 4, p3);
            s0 += e0 * e0; s1 += e1 * e1; s2 += e2 * e2; s3 += e3 * e3;
        }
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
            float4 e0 = x - vload4(k / 4, p0), e1 = x - vload4(k / 4, p1);
            float4 e2 = x - vload4(k / 4, p2), e3 = x - vload4(k / 4, p3);
            s0 += e0 * e0; s1 += e1 * e1; s2 += e2 * e2; s3 += e3 * e3;
        }
        float dist[4] = {(s0.x + s0.y) + (s0.z + s0.w), (s1.x + s1.y) + (s1.z + s1.w),
                         (s2.x + s2.y) + (s2.z + s2.w), (s3.x + s3.y) + (s3.z + s3.w)};
        for (int j = 0; j < 4; j++) {
            if (c + j <= last && dist[j] < best) {
                best = dist[j];
                nearest = c + j;
            }
        }
    }
    atomic_inc(&histogram[nearest]);
}
