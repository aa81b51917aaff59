/* Cheat (find the bug, chapter 3): the chapter's reference handed in as the
 * fixed listing bug-no-guard.cl. Hole it tries: copying the reference
 * instead of mending the listing. Here the reference is itself a small edit
 * of the listing (the guard, and a pointer to the centroid: 4 code lines),
 * so the grader accepts it as a fix: the rule counts changed lines, and this
 * copy is within them. Below: kernels/03-coalesced/histogram.cl as shipped. */
/* Chapter 3 reference (GPU2): one work-item per descriptor, on transposed
 * descriptors. Feature k of descriptor d is at descriptors[k * n_descriptors + d],
 * so at each step of the loop over k the work-items of a group read
 * neighbouring addresses and a GPU serves them with few memory transactions. */
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

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f;
        for (int k = 0; k < n_features; k++) {
            /* row k of the transposed array: neighbours d, d+1, ... are side by side */
            float diff = descriptors[k * n_descriptors + d] - centroid[k];
            dist += diff * diff;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
