/* Find the bug (chapter 3): the coalesced kernel as the book prints it,
 * give or take. It reads the transposed layout correctly, and it is right
 * whenever the number of descriptors is a multiple of the work-group size
 * (64). Run it on 1000 descriptors and the histogram holds more votes than
 * there are descriptors. Why? Fix it, then:  cltutor check 3
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int d = get_global_id(0);
    /* the last group runs past n_descriptors when n is not a multiple of 64:
     * those work-items have no descriptor to vote for */
    if (d >= n_descriptors)
        return;

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
