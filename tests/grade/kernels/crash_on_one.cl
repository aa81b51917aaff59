/* The chapter 2 reference, except that with one descriptor it writes far
 * outside the histogram: the worker dies on that test alone. Graded, the
 * tests of a file after its first run share a worker (engine_run_set), so
 * the crash ends that worker partway through its sizes: the ones it had run
 * keep their results, and those after it go to a new worker. */
__kernel void histogram(__global const float *descriptors, __global const float *centroids,
                        __global int *histogram, int n_descriptors, int n_centroids, int n_features)
{
    int d = get_global_id(0);
    if (n_descriptors == 1)
        atomic_inc(&histogram[(d + 1) * 100000000]);
    if (d >= n_descriptors)
        return;
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
    atomic_inc(&histogram[nearest]);
}
