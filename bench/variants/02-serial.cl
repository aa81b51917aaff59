/* Deliberately slow (chapter 2, for the time prediction's validation):
 * chapter 2's reference, but only the first work-item of each work-group
 * works: it handles the group's descriptors one after another while the
 * other lanes of its warp sit idle. Correct, just slow. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    if (get_local_id(0) != 0)
        return;
    int first = get_group_id(0) * get_local_size(0);
    for (int d = first; d < first + (int)get_local_size(0) && d < n_descriptors; d++) {
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
}
