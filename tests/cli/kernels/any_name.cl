/* One kernel with another name: it runs whatever its name. */
__kernel void my_first_try(__global const float *descriptors, __global const float *centroids, __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors) return;
    int best_c = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float t = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += t * t;
        }
        if (dist < best) { best = dist; best_c = c; }
    }
    atomic_inc(&histogram[best_c]);
}
