/* Chapter 2 variant: a grid-stride loop over the descriptors, and each
 * distance abandons its feature loop as soon as its partial sum reaches the
 * best so far (the sum of squares never decreases, so the result is exact).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int stride = get_global_size(0);
    for (int d = get_global_id(0); d < n_descriptors; d += stride) {
        __global const float *desc = descriptors + (size_t)d * n_features;
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            __global const float *cent = centroids + (size_t)c * n_features;
            float dist = 0.0f;
            int k = 0;
            for (; k < n_features; k++) {
                float diff = desc[k] - cent[k];
                dist += diff * diff;
                if (dist >= best)
                    break;
            }
            if (k == n_features && dist < best) {
                best = dist;
                nearest = c;
            }
        }
        atomic_inc(&histogram[nearest]);
    }
}
