/* Chapter 2 variant: each work-item measures two row-major descriptors
 * (2g and 2g+1) against every centroid, sharing each centroid load; the upper
 * half of the launch has nothing to do and leaves at once.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d0 = 2 * (int)get_global_id(0);
    if (d0 >= n_descriptors)
        return;
    int has1 = d0 + 1 < n_descriptors;
    int d1 = has1 ? d0 + 1 : d0;

    __global const float *a = descriptors + (size_t)d0 * n_features;
    __global const float *b = descriptors + (size_t)d1 * n_features;
    int near0 = 0, near1 = 0;
    float best0 = FLT_MAX, best1 = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *cent = centroids + (size_t)c * n_features;
        float s0 = 0.0f, s1 = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float y = cent[k];
            float e0 = a[k] - y;
            float e1 = b[k] - y;
            s0 += e0 * e0;
            s1 += e1 * e1;
        }
        if (s0 < best0) { best0 = s0; near0 = c; }
        if (s1 < best1) { best1 = s1; near1 = c; }
    }
    atomic_inc(&histogram[near0]);
    if (has1)
        atomic_inc(&histogram[near1]);
}
