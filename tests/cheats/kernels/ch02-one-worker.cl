/* Cheat (chapter 2): chapter 1's serial loop run by work-item 0 alone; the
 * other work-items return at once. Hole it tries: the answer is right and
 * nothing races (one work-item writes everything), so a check of results and
 * races alone would pass it. Expected: active_lanes fails (one lane of a
 * warp takes part in each memory request). */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    if (get_global_id(0) != 0)
        return;
    for (int d = 0; d < n_descriptors; d++) {
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
        histogram[nearest] += 1;
    }
}
