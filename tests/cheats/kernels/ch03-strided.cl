/* Cheat (chapter 3): right answer, uncoalesced reads, diluted by cheap
 * coalesced ones. Work-item g handles descriptor d = g * P mod n (P the first
 * odd number from 33 up that shares no factor with n, so every descriptor is
 * handled once): neighbouring work-items read descriptors P floats apart in
 * every row of the transposed array. Each step also makes one coalesced
 * load of row k at column g, whose value is folded in with a weight of zero,
 * to add well-coalesced traffic.
 * Hole it tries: a coalescing figure averaged over all loads. Expected:
 * coalesced_loads fails (the strided load is the least efficient load that
 * carries a real share of the sectors). */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    if (g >= n_descriptors)
        return;
    int p = 33;                  /* the first odd stride >= 33 that shares no factor with n */
    for (;; p += 2) {
        int a = p, b = n_descriptors;
        while (b) { int t = a % b; a = b; b = t; }
        if (a == 1) break;
    }
    int d = (int)(((long)g * p) % n_descriptors);

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float dist = 0.0f, pad = 0.0f;
        for (int k = 0; k < n_features; k++) {
            float diff = descriptors[k * n_descriptors + d] - centroid[k];   /* strided */
            pad += descriptors[k * n_descriptors + g];                      /* coalesced, unused */
            dist += diff * diff;
        }
        dist += 0.0f * fabs(pad) * (pad != pad ? 0.0f : 1.0f);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
