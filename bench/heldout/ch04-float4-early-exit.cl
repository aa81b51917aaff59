/* Chapter 4 variant: the reference's float4 loop, but after each float4 step
 * the partial distance is compared with the best so far and the centroid is
 * abandoned once it cannot win (exact: each lane's sum only grows); divergent.
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
        __global const float4 *cent = (__global const float4 *)(centroids + c * n_features);
        float4 acc = (float4)(0.0f);
        float dist = 0.0f;
        int k = 0;
        for (; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - cent[k / 4];
            acc += diff * diff;
            dist = (acc.x + acc.y) + (acc.z + acc.w);
            if (dist >= best)
                break;
        }
        if (k >= n_features && dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
