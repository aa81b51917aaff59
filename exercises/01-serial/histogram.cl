/* Chapter 1 exercise: the serial histogram in one work-item.
 *
 * For every descriptor, find the nearest centroid (smallest squared
 * Euclidean distance) and add one to that centroid's bin.
 * Run it with:  cltutor run 1
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    for (int d = 0; d < n_descriptors; d++) {
        int nearest = 0;
        float best = FLT_MAX;
        for (int c = 0; c < n_centroids; c++) {
            float dist = 0.0f;
            /* TODO 1: add up (descriptor feature - centroid feature)^2 over
             * all n_features features of descriptor d and centroid c. */

            /* TODO 2: if this centroid is closer than the best so far,
             * remember its distance and its number. */
        }
        /* TODO 3: count descriptor d in the bin of its nearest centroid. */
    }
}
