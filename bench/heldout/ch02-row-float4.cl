/* Chapter 2 variant: same one-work-item-per-descriptor search, but both the
 * row-major descriptor and the centroid are read four floats at a time with
 * vload4 into a float4 accumulator (scalar tail for any leftover features).
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

    __global const float *desc = descriptors + (size_t)d * n_features;
    int n4 = n_features & ~3;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *cent = centroids + (size_t)c * n_features;
        float4 acc = (float4)(0.0f);
        for (int k = 0; k < n4; k += 4) {
            float4 diff = vload4(0, desc + k) - vload4(0, cent + k);
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        for (int k = n4; k < n_features; k++) {
            float diff = desc[k] - cent[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
