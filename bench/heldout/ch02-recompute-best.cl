/* Chapter 2 variant, deliberately wasteful: the work-item keeps only the index
 * of the nearest centroid and recomputes that centroid's distance before every
 * comparison, so it does about twice the reference's arithmetic and loads.
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
    for (int c = 1; c < n_centroids; c++) {
        float dist = 0.0f;
        float best = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float x = descriptors[d * n_features + k];
            float diff = x - centroids[c * n_features + k];
            float bdiff = x - centroids[nearest * n_features + k];
            dist += diff * diff;
            best += bdiff * bdiff;
        }
        if (dist < best)
            nearest = c;
    }
    atomic_inc(&histogram[nearest]);
}
