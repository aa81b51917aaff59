/* Chapter 4 reference (GPU3): GPU2 with explicit float4 vectorisation.
 * Each step of the feature loop handles four features: four coalesced
 * reads of the transposed descriptors (rows k..k+3) and one 16-byte read of
 * the centroid through a float4 pointer. n_features is always a multiple of
 * 4, so k += 4 never overruns, and every centroid starts on a 16-byte
 * boundary (a vload4 from a float pointer promises the compiler only 4). */
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
        __global const float4 *centroid = (__global const float4 *)(centroids + c * n_features);
        float4 acc = (float4)(0.0f);   /* four partial sums, added up once at the end */
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - centroid[k / 4];   /* k counts floats, the pointer float4s */
            acc += diff * diff;
        }
        float dist = (acc.x + acc.y) + (acc.z + acc.w);
        if (dist < best) {
            best = dist;
            nearest = c;
        }
    }
    atomic_inc(&histogram[nearest]);
}
