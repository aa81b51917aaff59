/* Chapter 5 variant, deliberately slow: the tile is stored descriptor by
 * descriptor without padding, tile[lid * LOCAL_FEATURES + k], so the lanes of
 * a warp hit the same bank on every local read (a 32-way bank conflict).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_FEATURES
#define LOCAL_FEATURES 64
#endif
#define ROW LOCAL_FEATURES

__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void histogram(__global const float *descriptors,
               __global const float *centroids,
               __global int *histogram,
               int n_descriptors,
               int n_centroids,
               int n_features)
{
    __local float tile[ROW * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged = min(n_features, LOCAL_FEATURES);
    __local float *mine = tile + lid * ROW;

    for (int k = 0; k < n_staged; k++)
        mine[k] = in_range ? descriptors[k * n_descriptors + d] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float4 *cent = (__global const float4 *)(centroids + c * n_features);
        float4 acc = (float4)(0.0f);
        int k = 0;
        for (; k < n_staged; k += 4) {
            float4 x = (float4)(mine[k + 0], mine[k + 1], mine[k + 2], mine[k + 3]);
            float4 e = x - cent[k / 4];
            acc += e * e;
        }
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d]);
            float4 e = x - cent[k / 4];
            acc += e * e;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
