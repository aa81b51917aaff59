/* Find the bug (chapter 3): a coalesced kernel on the transposed layout,
 * with its bounds guard. Its histogram is right for 1024 or 4096
 * descriptors and wrong for 1000: votes go to the wrong bins, though every
 * descriptor still votes once. Why? Fix it, then:  cltutor check 3
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    if (d >= n_descriptors)      /* the global size is rounded up to the work-group size */
        return;
    int row = n_descriptors;        /* one float per descriptor in each row */

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            /* row k of the transposed array: neighbours d, d+1, ... are side by side */
            float diff = descriptors[k * row + d] - centroid[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
