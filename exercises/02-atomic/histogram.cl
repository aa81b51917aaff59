/* Chapter 2 exercise (GPU1): one work-item per descriptor.
 *
 * This is chapter 1's serial kernel with the loop over descriptors taken
 * out. The host now starts one work-item per descriptor (rounded up to a
 * multiple of 64). As written, every work-item handles descriptor 0, so
 * all the votes land in one bin.   Run it with:  cltutor run 2
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    /* TODO 1: the descriptor this work-item is responsible for: a
     * work-item function gives its number. */
    int d = 0;

    /* TODO 2: some work-items have no descriptor: leave early for them. */

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    /* TODO 3: many work-items may vote for the same bin at the same
     * time; make this update safe. */
    histogram[nearest] += 1;
}
