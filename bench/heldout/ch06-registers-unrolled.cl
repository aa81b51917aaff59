/* Chapter 6 variant: no local tile; each work-item keeps its descriptor's first
 * 64 features in registers (fully unrolled float4 loops) and reads the
 * centroids from __constant memory with vload4; longer descriptors from global.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define REG_QUADS 16

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    const int d = get_global_id(0);
    if (d >= n_descriptors)
        return;
    const int held = min(n_features, 4 * REG_QUADS);
    __global const float *col = descriptors + d;

    float4 x[REG_QUADS];
#pragma unroll
    for (int q = 0; q < REG_QUADS; q++) {
        const int k = 4 * q;
        x[q] = k < held ? (float4)(col[(size_t)(k + 0) * n_descriptors], col[(size_t)(k + 1) * n_descriptors],
                                   col[(size_t)(k + 2) * n_descriptors], col[(size_t)(k + 3) * n_descriptors])
                        : (float4)(0.0f);
    }

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __constant float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
#pragma unroll
        for (int q = 0; q < REG_QUADS; q++) {
            if (4 * q < held) {
                float4 diff = x[q] - vload4(q, centroid);
                acc += diff * diff;
            }
        }
        for (int k = held; k < n_features; k += 4) {
            float4 xv = (float4)(col[(size_t)(k + 0) * n_descriptors], col[(size_t)(k + 1) * n_descriptors],
                                 col[(size_t)(k + 2) * n_descriptors], col[(size_t)(k + 3) * n_descriptors]);
            float4 diff = xv - vload4(k / 4, centroid);
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
