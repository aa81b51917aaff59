/* Chapter 3 exercise (GPU2): coalesced reads.
 *
 * This is chapter 2's kernel. The host now hands it the descriptors
 * transposed: feature by feature instead of descriptor by descriptor
 * (lesson.ini says layout = transposed). Row k of the array holds feature k
 * of all n_descriptors descriptors. Until the index below follows the new
 * layout, the kernel reads the wrong numbers and the histogram is wrong.
 * Run it with:  cltutor run 3
 */
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

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            /* TODO: this index is for the old, row-major layout. Where is
             * feature k of descriptor d in the transposed array? When it is
             * right, work-items d and d+1 read neighbouring floats. */
            float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
