/* A cheat, not a solution: chapter 2's reference, with a branch on the bits of a
 * buffer's address. Oclgrind places buffers at small addresses, PoCL at
 * 0x7f... ones: the simulator measures one path while the device runs the
 * other (here both are the reference, which keeps the test simple). */
/* Chapter 2 reference (GPU1): one work-item per descriptor.
 * Work-items run in parallel and many of them vote for the same centroid,
 * so the vote is an atomic increment on global memory. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    if (((ulong)histogram >> 47) != 0) {
        atomic_add(&histogram[0], 0); /* on PoCL: a path the simulator never sees */
    }
    int d = get_global_id(0);
    if (d >= n_descriptors)      /* the global size is rounded up to the work-group size */
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
