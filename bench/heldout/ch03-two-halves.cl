/* Chapter 3 variant: each work-item handles two descriptors, d and
 * d + hn (hn = ceil(n/2)), both read with coalesced transposed loads and
 * measured against each centroid load; the upper half of the launch idles.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int hn = (n_descriptors + 1) / 2;
    int d0 = get_global_id(0);
    if (d0 >= hn)
        return;
    int has1 = d0 + hn < n_descriptors;
    int d1 = has1 ? d0 + hn : d0;

    int near0 = 0, near1 = 0;
    float best0 = FLT_MAX, best1 = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *cent = centroids + c * n_features;
        float s0 = 0.0f, s1 = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float y = cent[k];
            float e0 = descriptors[k * n_descriptors + d0] - y;
            float e1 = descriptors[k * n_descriptors + d1] - y;
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
