/* Chapter 4 variant, plainly slower: float4 arithmetic, but the feature loop
 * runs backwards and the centroid float4 is assembled from four scalar loads
 * instead of one 16-byte read, so it makes as many load requests as chapter 3.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
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
    for (int c = 0; c < n_centroids; c++) {
        float4 acc = (float4)(0.0f);
        for (int k = n_features - 4; k >= 0; k -= 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 y = (float4)(centroids[c * n_features + k + 0],
                                centroids[c * n_features + k + 1],
                                centroids[c * n_features + k + 2],
                                centroids[c * n_features + k + 3]);
            float4 diff = x - y;
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
