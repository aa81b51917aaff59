/* Chapter 3 without its technique: correct on the transposed layout, but
 * neighbouring work-items take descriptors `blocks` apart, so a warp's reads
 * of one feature are scattered over many memory sectors. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int gid = get_global_id(0);
    int blocks = (n_descriptors + 31) / 32;
    if (gid >= 32 * blocks) return;
    int d = (gid % 32) * blocks + gid / 32;  /* a permutation of 0 .. 32 * blocks - 1 */
    if (d >= n_descriptors) return;
    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[k * n_descriptors + d] - centroids[c * n_features + k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
