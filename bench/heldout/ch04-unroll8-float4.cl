/* Chapter 4 variant: two float4 steps per iteration (k += 8) into two float4
 * accumulators, with one float4 step left over when n_features is 4 mod 8;
 * the centroid is read through a float4 pointer as in the reference.
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

    __global const float *col = descriptors + d;
    int n8 = n_features & ~7;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float4 *cent = (__global const float4 *)(centroids + c * n_features);
        float4 a0 = (float4)(0.0f), a1 = (float4)(0.0f);
        int k = 0;
        for (; k < n8; k += 8) {
            float4 x0 = (float4)(col[(k + 0) * n_descriptors], col[(k + 1) * n_descriptors],
                                 col[(k + 2) * n_descriptors], col[(k + 3) * n_descriptors]);
            float4 x1 = (float4)(col[(k + 4) * n_descriptors], col[(k + 5) * n_descriptors],
                                 col[(k + 6) * n_descriptors], col[(k + 7) * n_descriptors]);
            float4 e0 = x0 - cent[k / 4];
            float4 e1 = x1 - cent[k / 4 + 1];
            a0 += e0 * e0;
            a1 += e1 * e1;
        }
        for (; k < n_features; k += 4) {
            float4 x0 = (float4)(col[(k + 0) * n_descriptors], col[(k + 1) * n_descriptors],
                                 col[(k + 2) * n_descriptors], col[(k + 3) * n_descriptors]);
            float4 e0 = x0 - cent[k / 4];
            a0 += e0 * e0;
        }
        float4 acc = a0 + a1;
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
