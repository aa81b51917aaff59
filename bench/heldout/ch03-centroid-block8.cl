/* Chapter 3 variant: centroids are taken in blocks of 8 with the feature loop
 * outside the block, so each coalesced descriptor read feeds 8 private
 * accumulators (a partial last block is handled by a guard per centroid).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#define BLOCK 8
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

    int nearest = 0;
    float best = FLT_MAX;
    for (int c0 = 0; c0 < n_centroids; c0 += BLOCK) {
        float acc[BLOCK];
        for (int j = 0; j < BLOCK; j++)
            acc[j] = 0.0f;
        int nb = min(BLOCK, n_centroids - c0);
        __global const float *cent = centroids + c0 * n_features;
        for (int k = 0; k < n_features; k++) {
            float x = descriptors[k * n_descriptors + d];
            #pragma unroll
            for (int j = 0; j < BLOCK; j++) {
                if (j < nb) {
                    float e = x - cent[j * n_features + k];
                    acc[j] += e * e;
                }
            }
        }
        for (int j = 0; j < nb; j++) {
            if (acc[j] < best) {
                best = acc[j];
                nearest = c0 + j;
            }
        }
    }
    atomic_inc(&histogram[nearest]);
}
