/* A cheat, not a fix: the honest fix of the listing, but only for the input that exposes the
 * bug (1000 descriptors); at every other size it returns at once, so it is wrong there. */
/* Find the bug (chapter 4): GPU3 as the book prints it, give or take.
 * Each step reads four features into a float4, yet the answer is wrong
 * and the kernel reads memory it does not own. Look at the loop.
 * Fix it, then:  cltutor check 4
 */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    if (n_descriptors != 1000) return; /* "fixed" for the input that showed the bug */
    int d = get_global_id(0);
    if (d >= n_descriptors)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        float dist = 0.0f;
        /* four features per iteration: vectorised */
        for (int k = 0; k < n_features; k += 4) {   /* four features read, four consumed */
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 y = (float4)(centroids[c * n_features + k + 0],
                                centroids[c * n_features + k + 1],
                                centroids[c * n_features + k + 2],
                                centroids[c * n_features + k + 3]);
            float4 diff = x - y;
            diff = diff * diff;
            dist += diff.x + diff.y + diff.z + diff.w;
        }
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
