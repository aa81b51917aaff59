/* Chapter 2 variant: the search is the reference's, but the votes are first
 * gathered in __local memory; the lowest work-item of each bin in the group
 * adds the group's count with one atomic_add (no early return, one barrier).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
#ifndef LOCAL_SIZE
#define LOCAL_SIZE 64
#endif
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    __local int votes[LOCAL_SIZE];
    int d = get_global_id(0);
    int lid = get_local_id(0);
    int lsize = get_local_size(0);

    int bin = -1;
    if (d < n_descriptors) {
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
        bin = nearest;
    }
    votes[lid] = bin;
    barrier(CLK_LOCAL_MEM_FENCE);

    if (bin >= 0) {
        int leader = 1;
        int count = 0;
        for (int j = 0; j < lsize; j++) {
            if (votes[j] == bin) {
                count++;
                if (j < lid)
                    leader = 0;
            }
        }
        if (leader)
            atomic_add(&histogram[bin], count);
    }
}
