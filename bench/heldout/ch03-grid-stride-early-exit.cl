/* Chapter 3 variant: a grid-stride loop over the transposed descriptors, and
 * a distance stops its feature loop once the partial sum reaches the best so
 * far (exact: the sum only grows), which makes lanes of a warp diverge.
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
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            __global const float *cent = centroids + c * n_features;
            float dist = 0.0f;
            int k = 0;
            for (; k < n_features; k++) {
                float diff = descriptors[k * n_descriptors + d] - cent[k];
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
