/* Cheat (chapter 2): the vote is a plain read-modify-write, no atomic.
 * Hole it tries: a CPU device runs the work-items of a group one after
 * another, so the lost updates a GPU would make rarely show in the visible
 * tests. Expected: the race check (Oclgrind) reports a data race on the
 * global histogram. */
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
            float diff = descriptors[d * n_features + k] - centroids[c * n_features + k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    histogram[nearest] += 1;     /* not atomic: two work-items can lose a count */
}
