/* Chapter 4 variant: two centroids per pass of the feature loop, both read
 * with vload4 from a float pointer, so each group of four coalesced descriptor
 * reads feeds two float4 accumulators (an odd last centroid gets its own pass).
 * Written for the held-out validation of the GPU-time prediction; not used to tune the model. */
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
    int c = 0;
    for (; c + 1 < n_centroids; c += 2) {
        __global const float *p = centroids + c * n_features;
        __global const float *q = p + n_features;
        float4 ap = (float4)(0.0f), aq = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 ep = x - vload4(k / 4, p);
            float4 eq = x - vload4(k / 4, q);
            ap += ep * ep;
            aq += eq * eq;
        }
        float dp = (ap.x + ap.y) + (ap.z + ap.w);
        float dq = (aq.x + aq.y) + (aq.z + aq.w);
        if (dp < best) { best = dp; nearest = c; }
        if (dq < best) { best = dq; nearest = c + 1; }
    }
    if (c < n_centroids) {
        __global const float *p = centroids + c * n_features;
        float4 ap = (float4)(0.0f);
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 ep = x - vload4(k / 4, p);
            ap += ep * ep;
        }
        float dp = (ap.x + ap.y) + (ap.z + ap.w);
        if (dp < best) { best = dp; nearest = c; }
    }
    atomic_inc(&histogram[nearest]);
}
