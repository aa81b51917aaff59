/* Chapter 3 variant: the reference's coalesced transposed reads, with the
 * feature loop unrolled by 4 into four independent scalar partial sums (a
 * scalar tail handles feature counts that are not a multiple of 4).
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
    int n4 = n_features & ~3;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *cent = centroids + c * n_features;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int k = 0;
        for (; k < n4; k += 4) {
            float e0 = col[(k + 0) * n_descriptors] - cent[k + 0];
            float e1 = col[(k + 1) * n_descriptors] - cent[k + 1];
            float e2 = col[(k + 2) * n_descriptors] - cent[k + 2];
            float e3 = col[(k + 3) * n_descriptors] - cent[k + 3];
            s0 += e0 * e0;
            s1 += e1 * e1;
            s2 += e2 * e2;
            s3 += e3 * e3;
        }
        for (; k < n_features; k++) {
            float e = col[k * n_descriptors] - cent[k];
            s0 += e * e;
        }
        float dist = (s0 + s1) + (s2 + s3);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
