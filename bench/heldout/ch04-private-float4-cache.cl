/* Chapter 4 variant: the descriptor's first 64 features are read once into a
 * private array of 16 float4 registers and reused for every centroid; features
 * beyond 64 are read from global memory each time, as in the reference.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define CACHED4 16
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)
        return;

    int n_cached = min(n_features / 4, CACHED4);
    float4 priv[CACHED4];
    for (int i = 0; i < CACHED4; i++) {
        int k = 4 * i;
        priv[i] = i < n_cached
            ? (float4)(descriptors[(k + 0) * n_descriptors + d], descriptors[(k + 1) * n_descriptors + d],
                       descriptors[(k + 2) * n_descriptors + d], descriptors[(k + 3) * n_descriptors + d])
            : (float4)(0.0f);
    }

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float4 *cent = (__global const float4 *)(centroids + c * n_features);
        float4 acc = (float4)(0.0f);
        #pragma unroll
        for (int i = 0; i < CACHED4; i++) {
            if (i < n_cached) {
                float4 e = priv[i] - cent[i];
                acc += e * e;
            }
        }
        for (int k = 4 * CACHED4; k < n_features; k += 4) {
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
