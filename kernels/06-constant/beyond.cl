/* Beyond GPU5: each work-item keeps its whole descriptor in registers and
 * walks the centroids, read from __constant memory: every work-item of a
 * warp reads the same centroid word at once, which the constant cache
 * broadcasts. The inner loop is 16 float4 differences and FMAs, no memory
 * traffic but the broadcast. */
#define REG_FEATURES 64                 /* features kept in registers */
#define REG_QUADS (REG_FEATURES / 4)

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __constant float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)
        return;
    int quads = min(n_features, REG_FEATURES) / 4;

    /* the descriptor, from the transposed layout: coalesced reads */
    float4 x[REG_QUADS];
#pragma unroll
    for (int q = 0; q < REG_QUADS; q++) {
        if (q < quads)
            x[q] = (float4)(descriptors[(4 * q + 0) * n_descriptors + d],
                            descriptors[(4 * q + 1) * n_descriptors + d],
                            descriptors[(4 * q + 2) * n_descriptors + d],
                            descriptors[(4 * q + 3) * n_descriptors + d]);
        else
            x[q] = (float4)(0.0f);
    }

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __constant float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);
#pragma unroll
        for (int q = 0; q < REG_QUADS; q++) {
            if (q < quads) {
                float4 t = x[q] - vload4(q, centroid);
                acc = fma(t, t, acc);
            }
        }
        /* descriptors longer than REG_FEATURES: the rest from global memory */
        for (int k = REG_FEATURES; k < n_features; k += 4) {
            float4 y = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 t = y - vload4(k / 4, centroid);
            acc = fma(t, t, acc);
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
