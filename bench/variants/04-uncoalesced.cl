/* Deliberately slow (chapter 4, for the time prediction's validation):
 * chapter 4's reference with the descriptors handed out in a swizzled
 * order (work-item 32 a + b of each block of 1024 takes descriptor 32 b + a):
 * a warp's reads land 128 bytes apart, 32 sectors a request. Correct, just
 * slow.
 *
 * Chapter 4 reference (GPU3): GPU2 with explicit float4 vectorisation.
 * Each step of the feature loop handles four features: four coalesced
 * reads of the transposed descriptors (rows k..k+3) and one vload4 of the
 * centroid. n_features is always a multiple of 4, so k += 4 never overruns. */
__kernel void histogram(__global const float *descriptors,
                        __global const float *centroids,
                        __global int *histogram,
                        int n_descriptors,
                        int n_centroids,
                        int n_features)
{
    int g = get_global_id(0);
    int block = g - g % 1024;
    int d = block + 1024 <= n_descriptors ? block + (g % 32) * 32 + (g % 1024) / 32 : g;
    if (d >= n_descriptors)
        return;

    int nearest = 0;
    float best = FLT_MAX;
    for (int c = 0; c < n_centroids; c++) {
        __global const float *centroid = centroids + c * n_features;
        float4 acc = (float4)(0.0f);   /* four partial sums, added up once at the end */
        for (int k = 0; k < n_features; k += 4) {
            float4 x = (float4)(descriptors[(k + 0) * n_descriptors + d],
                                descriptors[(k + 1) * n_descriptors + d],
                                descriptors[(k + 2) * n_descriptors + d],
                                descriptors[(k + 3) * n_descriptors + d]);
            float4 diff = x - vload4(k / 4, centroid);   /* vload4 counts in float4s */
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
