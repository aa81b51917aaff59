/* Chapter 3 variant, deliberately uncoalesced: inside each group of 64 the
 * work-items are mapped to descriptors by a stride-8 permutation, so
 * neighbouring lanes read floats 32 bytes apart in the transposed array.
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int gid = get_global_id(0);
    int base = gid & ~63;
    int lane = gid & 63;
    int d = base + ((lane & 7) << 3) + (lane >> 3);   /* a permutation of base..base+63 */
    if (d >= n_descriptors)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *cent = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[k * n_descriptors + d] - cent[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
