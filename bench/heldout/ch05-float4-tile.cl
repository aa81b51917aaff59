/* Chapter 5 variant: the tile is an array of float4, one float4 per work-item
 * per four features (tile4[(k/4) * LOCAL_SIZE + lid]), so the distance loop
 * makes one 16-byte local read per step; centroids through a float4 pointer.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
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
    __local float4 tile4[(LOCAL_FEATURES / 4) * LOCAL_SIZE];

    int d = get_global_id(0);
    int lid = get_local_id(0);
    int in_range = d < n_descriptors;
    int n_staged4 = min(n_features, LOCAL_FEATURES) / 4;

    for (int i = 0; i < n_staged4; i++) {
        int k = 4 * i;
        tile4[i * LOCAL_SIZE + lid] = in_range
            ? (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                       descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d])
            : (float4)(0.0f);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!in_range)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float4 *cent = (__global const float4 *)(centroids + c * n_features);
        float4 acc = (float4)(0.0f);
        int i = 0;
        for (; i < n_staged4; i++) {
            float4 e = tile4[i * LOCAL_SIZE + lid] - cent[i];
            acc += e * e;
        }
        for (int k = 4 * i; k < n_features; k += 4) {
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
