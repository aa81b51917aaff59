/* Votes for the farthest centroid instead of the nearest. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids, __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors) return;
    int far = 0;
    float worst = -1.0f;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float t = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += t * t;
        }
        if (dist > worst) { worst = dist; far = c; }
    }
    atomic_inc(&histogram[far]);
}
